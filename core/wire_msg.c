/*
 * core/wire_msg.c — the memory of core/wire.h's messages: a message's
 * init and fini (each type frees what its decoder allocated), a game's and
 * an eval's fini, an eval's deep copy, and the encode buffer's release.
 * Apart from wire.c, whose concern is the bytes on the wire.
 */
#include "core/wire.h"

#include <stdlib.h>
#include <string.h>

void hs_wire_buf_free(hs_wire_buf_t *b)
{
    if (b) {
        free(b->data);
        b->data = NULL;
        b->len = b->cap = 0;
    }
}

int hs_wire_buf_grow(hs_wire_buf_t *b, size_t n)
{
    if (n <= b->cap - b->len)
        return 0;
    size_t cap = b->cap ? b->cap : 256;
    while (cap - b->len < n) {
        if (cap > SIZE_MAX / 2)
            return HS_ENOMEM;
        cap *= 2;
    }
    uint8_t *d = realloc(b->data, cap);
    if (!d)
        return HS_ENOMEM;
    b->data = d;
    b->cap = cap;
    return 0;
}

void hs_eval_fini(hs_eval_t *e)
{
    if (!e)
        return;
    free(e->ownership);
    free(e->influence);
    free(e->classes);
    free(e->result);
    free(e->error);
    memset(e, 0, sizeof *e);
}

static char *s_strdup(const char *s)
{
    if (!s)
        return NULL;
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

static void *s_memdup(const void *p, size_t n)
{
    if (!p)
        return NULL;
    void *d = malloc(n ? n : 1);
    if (d)
        memcpy(d, p, n);
    return d;
}

int hs_eval_copy(hs_eval_t *dst, const hs_eval_t *src)
{
    *dst = *src;
    dst->raw = NULL;   /* it points into src's message buffer */
    dst->raw_len = 0;
    size_t nn = (size_t)src->size * (size_t)src->size;
    dst->ownership = s_memdup(src->ownership, nn);
    dst->influence = s_memdup(src->influence, nn * sizeof(int16_t));
    dst->classes = s_strdup(src->classes);
    dst->result = s_strdup(src->result);
    dst->error = s_strdup(src->error);
    if ((src->ownership && !dst->ownership) || (src->influence && !dst->influence)
        || (src->classes && !dst->classes) || (src->result && !dst->result)
        || (src->error && !dst->error)) {
        hs_eval_fini(dst);
        return HS_ENOMEM;
    }
    return 0;
}

void hs_wire_game_fini(hs_wire_game_t *w)
{
    if (!w)
        return;
    hs_game_fini(&w->game);
    free(w->source);
    free(w->error);
    memset(w, 0, sizeof *w);
}

static void s_strv_free(char **v, int n)
{
    if (!v)
        return;
    for (int i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

void hs_wire_msg_init(hs_wire_msg_t *m, hs_wire_type_t type)
{
    memset(m, 0, sizeof *m);
    m->type = type;
}

void hs_wire_msg_fini(hs_wire_msg_t *m)
{
    if (!m)
        return;
    switch (m->type) {
    case HS_WIRE_READY:
        free(m->ready.name);
        s_strv_free(m->ready.engines, m->ready.num_engines);
        s_strv_free(m->ready.nets, m->ready.num_nets);
        free(m->ready.backend);
        break;
    case HS_WIRE_TASK:
        hs_wire_game_fini(&m->task.game);
        free(m->task.move_numbers);
        s_strv_free(m->task.engines, m->task.num_engines);
        break;
    case HS_WIRE_RESULT:
        if (m->result.evals)
            for (int i = 0; i < m->result.num_evals; i++)
                hs_eval_fini(&m->result.evals[i]);
        free(m->result.evals);
        free(m->result.error);
        break;
    case HS_WIRE_SUBMIT:
        free(m->submit.job_name);
        s_strv_free(m->submit.engines, m->submit.num_engines);
        free(m->submit.moves_spec);
        free(m->submit.token);
        if (m->submit.games)
            for (int i = 0; i < m->submit.num_games; i++)
                hs_wire_game_fini(&m->submit.games[i]);
        free(m->submit.games);
        break;
    case HS_WIRE_STATUS_REPLY:
        if (m->status_reply.jobs)
            for (int i = 0; i < m->status_reply.num_jobs; i++) {
                free(m->status_reply.jobs[i].name);
                free(m->status_reply.jobs[i].state);
                free(m->status_reply.jobs[i].reason);
            }
        free(m->status_reply.jobs);
        for (int i = 0; m->status_reply.worker_list && i < m->status_reply.num_worker_list; i++) {
            hs_wire_worker_info_t *w = &m->status_reply.worker_list[i];
            free(w->name);
            s_strv_free(w->nets, w->num_nets);
            s_strv_free(w->engines, w->num_engines);
            free(w->backend);
        }
        free(m->status_reply.worker_list);
        break;
    case HS_WIRE_STATUS:
        free(m->status.state);
        break;
    case HS_WIRE_QUERY:
    case HS_WIRE_QUERY_REPLY:
        free(m->text);
        break;
    case HS_WIRE_ERROR:
        free(m->error.reason);
        break;
    default:
        break;
    }
    memset(m, 0, sizeof *m);
}
