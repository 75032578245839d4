/*
 * worker/net_specs.h — `--net FILE` for every command that names nets: the
 * nets a process loads, and engine specs that say which net they ran.
 *
 * A net engine's spec names its net by content hash ("net:net=<32 lowercase
 * hex>", hs_nn_model_t.hash), so that the evals of two nets never share an
 * engine id and the broker sends the job only to workers that hold that net
 * (docs/PROTOCOL.md, "Nets"). Users write `--engines net --net FILE`; this
 * module turns that into the spec, in one place for `worker`, `submit` and
 * `analyze`.
 *
 * Threads: reentrant, no global state.
 */
#ifndef HS_WORKER_NET_SPECS_H
#define HS_WORKER_NET_SPECS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/error.h"
#include "worker/nn/model.h"

#define HS_NET_MAX 8   /* nets one command loads (`--net` given up to 8 times) */

/* Whether the engine name[0..len) (before any "@R" or ':') runs a net and so
 * takes a `net` option: "net" and "judge-net". */
bool hs_net_engine_name(const char *name, size_t len);

/* Whether the engine name[0..len) may run a net but needs none: "mcts"
 * (rollouts without net=). Its spec keeps its other options; a bare one is
 * bound to the loaded nets by hs_net_specs. */
bool hs_net_engine_optional(const char *name, size_t len);

/*
 * Expands the comma-separated engine list `engines` (as --engines takes it)
 * into out (size bytes, NUL-terminated):
 *   - a net engine's spec without options ("net", "judge-net@2") becomes one
 *     spec per hash, "name[@R]:net=<hash>", in the order of hashes[0..n);
 *   - one that gives net=<hash> is kept as is (the hash must have the form,
 *     HS_WIRE_NET_HASH_LEN lowercase hex; it need not be among hashes: another
 *     worker may hold it);
 *   - a spec of an engine that may run a net (hs_net_engine_optional) with
 *     net=<hash> among its options is kept as is; without net= it becomes one
 *     spec per hash with ",net=<hash>" (":net=<hash>" when it has no options)
 *     appended, or is kept as it is when n == 0 (mcts: the rollout search);
 *   - every other entry is copied unchanged (its checks are
 *     hs_engine_canonical_list's, which the caller runs next).
 * *used (may be NULL): whether the list holds a net engine.
 * Returns 0, or HS_EINVAL with the reason in *err (a net engine without a
 * hash: n == 0 and no net= option; a net= value that is not a hash; another
 * option on a net engine's spec; a net engine's revision that is not a
 * number), or HS_ELIMIT (out too small).
 */
int hs_net_specs(const char *engines, const char *const *hashes, int n, char *out, size_t size,
                 bool *used, hs_error_t *err);

/* The nets a command loaded, in the order given; zero-initialise. */
typedef struct hs_net_set {
    hs_nn_model_t *models[HS_NET_MAX];
    const char *hashes[HS_NET_MAX];   /* models[i]->hash, for hs_net_specs */
    int n;
    /* The first n_bind nets are those a spec that names no net binds to (pass
     * hashes and n_bind to hs_net_specs): the ones --net gave, or else the
     * default model. The rest were loaded for a spec's own net=FILE, and a
     * bare `judge-net` or `mcts` beside that spec does not run them. */
    int n_bind;
} hs_net_set_t;

/*
 * Loads the model at path (hs_nn_model_load: the whole file is read and
 * checked, so a broken net is refused before anything is sent) and adds it
 * to s, among the nets bare specs bind to (n_bind); a net already in s (the
 * same hash) is not added twice. Returns 0,
 * HS_ELIMIT past HS_NET_MAX nets, or the loader's error, with *err naming
 * the path.
 */
int hs_net_set_load(hs_net_set_t *s, const char *path, hs_error_t *err);

/*
 * The issue's `--engines mcts:visits=200,net=FILE`: every spec whose option
 * net= is not a hash but a file that exists has it loaded into set (as --net
 * FILE is; a net already there is not loaded twice) and replaced by the net's
 * hash in the list written to out. Other specs are copied as they are (a
 * value that is neither is hs_net_specs's to refuse, as not a hash).
 * Returns 0, HS_EIO for a value with a '/' or a '.' that names no file
 * ("cannot open the model", with the system's reason), HS_ELIMIT (out too
 * small, or past HS_NET_MAX nets) or the loader's error naming the file. Run
 * it before hs_net_specs.
 */
int hs_net_specs_files(hs_net_set_t *set, const char *engines, char *out, size_t size,
                       hs_error_t *err);

/*
 * `--engines net` without --net: when set holds no net bare specs bind to
 * (n_bind 0: no --net; a spec's net=FILE does not count) and engines has a
 * net engine's spec without options ("net", "judge-net@2", which only a
 * loaded net can bind), loads the default model (worker/nn/model.h,
 * hs_nn_default_model_path) into set. Run it after hs_net_specs_files and
 * before hs_net_specs. Returns 0 (loaded, or nothing to load), HS_ENOTFOUND
 * naming where it looked and --net FILE as the alternative, or the loader's
 * error. *loaded (may be NULL): whether the default model was loaded.
 */
int hs_net_set_load_default(hs_net_set_t *set, const char *engines, bool *loaded,
                            hs_error_t *err);

/* Frees the models and zeroes s. NULL-safe. */
void hs_net_set_free(hs_net_set_t *s);

#endif
