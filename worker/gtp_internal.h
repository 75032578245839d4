/*
 * worker/gtp_internal.h — what the GTP front end's files share: the
 * registration of the built-in commands, one function per file of handlers.
 */
#ifndef HS_WORKER_GTP_INTERNAL_H
#define HS_WORKER_GTP_INTERNAL_H

#include "worker/gtp.h"

/* protocol_version ... showboard, get_komi, stop (gtp_commands.c). */
int hs__gtp_register_basic(hs_gtp_t *g, hs_error_t *err);

/* For handlers (gtp_commands.c): a whole decimal int in lo..hi and nothing
 * else ("3x", "", " 3" fail): 0 with *out, or -1; and a failure answer,
 * msg into resp, returning 1 (a handler's failure status). */
int hs__gtp_int(const char *s, long lo, long hi, int *out);
int hs__gtp_fail(hs_buf_t *resp, const char *msg);

/* kata-raw-nn (gtp_raw_nn.c). */
int hs__gtp_register_nn(hs_gtp_t *g, hs_error_t *err);

/* The search's commands (gtp_play.c, gtp_analyze.c) and the state they share
 * (gtp_search.h), created into *s (freed by hs__gtp_search_free, NULL-safe). */
typedef struct hs__gtp_search hs__gtp_search_t;
int hs__gtp_register_search(hs_gtp_t *g, hs__gtp_search_t **s, hs_error_t *err);
void hs__gtp_search_free(hs__gtp_search_t **s);

#endif
