/*
 * core/poskey.h — the keys that worker and store agree on: engine configuration
 * ids and position keys. Pure functions of their inputs, stable across processes,
 * builds and machines (no random tables), so records written by one run are found
 * by the next. Included by core/wire.h.
 */
#ifndef HS_CORE_POSKEY_H
#define HS_CORE_POSKEY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/board.h"
#include "core/game.h"


/*
 * Engine configuration id: 32-bit FNV-1a of the engine spec string ("judge",
 * "mcts:visits=200"). The store keys evaluations by it, so two specs give two
 * separate sets of records. Never 0 (0 means "any engine" in queries).
 */
uint32_t hs_engine_config_id(const char *spec);

/* Highest revision number a spec's "@R" may give. */
#define HS_ENGINE_MAX_REVISION 9999

/*
 * An engine spec "name[@R][:options]" split, by syntax alone (which names are
 * engines is worker/engine.h's business; the broker, which does not know the
 * engines, checks the syntax of the specs it is sent with the same rules).
 */
typedef struct hs_engine_spec {
    size_t name_len;        /* bytes of the name before '@' or ':' (0 = none) */
    int revision;           /* R as written, or 0 when the spec gives no "@R" */
    bool revision_canonical;  /* no "@R", or one written as a canonical spec
                             * writes it: R >= 2 without leading zeros ("@1" is
                             * written bare) */
    const char *options;    /* after ':', or NULL (points into the spec) */
    size_t options_len;
} hs_engine_spec_t;

/*
 * Splits the spec s[0..len) (a whole spec, or one entry of a comma-separated
 * list) into *out. Returns 0, or HS_EINVAL when the name is empty (out->name_len
 * is then 0) or the revision is not 1..HS_ENGINE_MAX_REVISION in decimal digits
 * followed by ':' or the end (out->name_len > 0). Cannot fail otherwise.
 */
int hs_engine_spec_split(const char *s, size_t len, hs_engine_spec_t *out);

/*
 * The length of the spec at the start of the comma-separated engine list s:
 * up to the ',' that ends it, or the end. A spec's options are separated by
 * ',' too ("mcts:visits=200,net=<hash>"), so an entry after a comma that is a
 * "key=value" (an '=' before any ':' or '@': an engine name has neither)
 * continues the spec before it when that spec has options. Every reader of a
 * list (engines, the submitter, the broker's job record, READY) splits with it.
 */
size_t hs_engine_list_entry(const char *s);

/* Longest option key and value hs_engine_options_syntax accepts. */
#define HS_ENGINE_OPTION_MAX 32

/*
 * Checks the syntax of a spec's options (the part after ':', opts[0..len)):
 * "key=value" entries separated by ',' (in a comma-separated engine list that
 * is one entry per spec), each key [a-z][a-z0-9_]* and each value of the bytes
 * [A-Za-z0-9._+-], both 1..HS_ENGINE_OPTION_MAX bytes, no key twice. Which keys
 * an engine knows and their types is worker/engine.h's business; this is what
 * the broker, which does not know the engines, can check: a spec it stores
 * names its evals forever, so "judge:" or "judge:tau" must not become one.
 * Returns 0, or HS_EINVAL with the reason in *err (may be NULL).
 */
int hs_engine_options_syntax(const char *opts, size_t len, hs_error_t *err);

/* Positions before the current one whose moves enter the position key. */
#define HS_POSKEY_HISTORY 8

/*
 * Position key: a 128-bit hash of the board b (size, every point's colour), the
 * side to move, the simple-ko point, komi, rule set, and the last
 * HS_POSKEY_HISTORY moves of g before move_number (vertex and colour; what a net
 * sees as history). b must be the position of g after move_number moves (the
 * caller replays); g supplies komi, rules and the recent moves. The same position
 * reached in many games with the same recent moves gets the same key, so it is
 * evaluated once per engine configuration. Stable across processes, builds and
 * machines (no random tables). Reads only fields of b and g; cannot fail.
 */
void hs_position_key(const hs_board_t *b, const hs_game_t *g, int move_number,
                     uint8_t key[16]);

/*
 * 128-bit hash of len bytes (the hash behind position keys; also used for keys of
 * long strings in the store). Stable across processes and builds.
 */
void hs_hash128(const void *data, size_t len, uint8_t out[16]);

/* Formats a 16-byte key as 32 lowercase hex digits into buf (>= 33 bytes). */
const char *hs_key_hex(const uint8_t key[16], char *buf);
/* Parses 32 hex digits into key: 0 or HS_EPARSE. */
int hs_key_parse(const char *hex, uint8_t key[16]);

#endif
