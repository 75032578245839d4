/*
 * tests/fuzz/fuzz_engines.c — libFuzzer target for engine-spec lists
 * (worker/engine.h): what `--engines` takes from a user and what a TASK's
 * engine names give a worker off the network.
 *
 * Properties checked on every input (NUL-terminated copy of the bytes):
 *  - hs_engine_check_list returns 0, HS_EINVAL or HS_ENOTFOUND, and
 *    hs_engine_canonical_list (no flags, room to spare) agrees with it;
 *  - a canonical list of this build's revisions is a fixed point:
 *    canonicalized again it is unchanged, and it passes hs_engine_check_list.
 *    (Not so for an older revision: revision 1 is written bare for the ids
 *    stored before revisions existed, so "influence@1" is "influence", which
 *    read as input names this build's influence@2. Workers are matched to
 *    jobs by canonical name, so the bare spec only ever reaches a worker whose
 *    build computes revision 1: worker/engine.h, "Revisions".)
 *  - with HS_ENGINE_THIS_BUILD, every spec of an accepted list names an engine
 *    hs_engine_init creates (name and revision, without the options), but for
 *    the engines that run a net, which need the net their spec names loaded.
 * Seeds in tests/fuzz/corpus/engines/.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "worker/engine.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Whether the engine of spec "name[@R]" runs a net (a hash option): such an
 * engine is created only with the net its spec names loaded (engine_net.c). */
static bool s_needs_net(const char *spec)
{
    char name[HS_ENGINE_NAME_MAX];
    size_t n = strcspn(spec, "@");
    if (n >= sizeof name)
        return false;
    memcpy(name, spec, n);
    name[n] = '\0';
    const hs_engine_vtable_t *vt = hs_engine_find(name);
    for (const hs_engine_option_t *o = vt ? vt->options : NULL; o && o->key; o++)
        if (o->kind == HS_ENGINE_OPT_HASH)
            return true;
    return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0;
    char *list = malloc(size + 1);
    size_t room = 2 * size + 256;
    char *out = malloc(room), *again = malloc(room);
    if (!list || !out || !again)
        abort();
    memcpy(list, data, size);
    list[size] = '\0';
    int rc = hs_engine_check_list(list, 16, NULL);
    if (rc != 0 && rc != HS_EINVAL && rc != HS_ENOTFOUND)
        abort();
    int crc = hs_engine_canonical_list(list, 16, 0, out, room, NULL);
    if ((crc == 0) != (rc == 0))
        abort();   /* the two disagree on what is a valid list */
    bool this_build = hs_engine_canonical_list(list, 16, HS_ENGINE_THIS_BUILD, again, room,
                                               NULL) == 0;
    if (crc == 0 && this_build) {
        if (hs_engine_canonical_list(out, 16, 0, again, room, NULL) != 0 || strcmp(out, again))
            abort();   /* canonical form is not a fixed point */
        if (hs_engine_check_list(out, 16, NULL) != 0)
            abort();
    }
    if (this_build && hs_engine_canonical_list(list, 16, HS_ENGINE_THIS_BUILD, out, room,
                                               NULL) == 0) {
        /* Split as every list reader does: a spec's options have commas too. */
        for (char *tok = out, *next; *tok; tok = next) {
            size_t len = hs_engine_list_entry(tok);
            next = tok + len + (tok[len] == ',');
            tok[len] = '\0';
            tok[strcspn(tok, ":")] = '\0';
            if (s_needs_net(tok))
                continue;   /* created only where a process holds its net */
            hs_engine_t eng;
            if (hs_engine_init(&eng, tok, NULL, NULL) != 0)
                abort();   /* accepted for this build, yet not creatable */
            hs_engine_fini(&eng);
        }
    }
    free(list);
    free(out);
    free(again);
    return 0;
}
