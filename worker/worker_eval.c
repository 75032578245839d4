/*
 * worker/worker_eval.c — turns one TASK into one RESULT body: replays the game
 * once, gathers the requested positions into batches, runs every engine of the
 * task on each batch, and encodes the evaluations.
 *
 * Replay is incremental (one pass over the moves) so a task costs O(moves), not
 * O(moves²). Boards are copied into the batch (a board is plain data), so a
 * batch of B positions holds B boards: B is bounded by hs__worker_batch_max.
 */
#include "worker/worker_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double s_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* CPU time of the calling thread: engine calls are measured with it so that a
 * loaded machine (other processes taking the CPU) does not count as engine time. */
static double s_thread_cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void hs__engine_cache_fini(hs__engine_cache_t *c)
{
    for (int i = 0; i < c->count; i++)
        hs_engine_fini(&c->eng[i]);
    c->count = 0;
}

/* The instance for spec "name[:options]", created on first use. */
static int s_engine_get(hs__engine_cache_t *c, const char *spec, hs_engine_t **out,
                        hs_error_t *err)
{
    for (int i = 0; i < c->count; i++)
        if (!strcmp(c->spec[i], spec)) {
            *out = &c->eng[i];
            return 0;
        }
    if (c->count >= HS__ENGINE_CACHE || strlen(spec) >= sizeof c->spec[0])
        return hs_error_set(err, HS_ELIMIT, "too many engine specs in one worker thread");
    char name[HS_ENGINE_NAME_MAX];
    const char *colon = strchr(spec, ':');
    size_t len = colon ? (size_t)(colon - spec) : strlen(spec);
    if (len >= sizeof name)
        return hs_error_set(err, HS_EINVAL, "engine name too long in '%s'", spec);
    memcpy(name, spec, len);
    name[len] = '\0';
    hs_engine_config_t cfg = { .threads = 1, .gpu = -1, .options = colon ? colon + 1 : NULL };
    int rc = hs_engine_init(&c->eng[c->count], name, &cfg, err);
    if (rc < 0)
        return rc;
    strcpy(c->spec[c->count], spec);
    *out = &c->eng[c->count++];
    return 0;
}

/* Evaluates the batch with every engine of the task and appends the evals. */
static int s_flush(hs__eval_ctx_t *x, const hs_wire_task_t *t, hs_engine_t **engs,
                   hs_wire_result_t *res, hs_error_t *err)
{
    int n = x->batch_n;
    if (n == 0)
        return 0;
    const hs_game_t *g = &t->game.game;
    int nv = g->size * g->size;
    for (int e = 0; e < t->num_engines; e++) {
        for (int i = 0; i < n; i++) {   /* the header fields only: arrays are big */
            x->results[i].flags = 0;
            x->results[i].num_vertices = 0;
            x->results[i].classes[0] = x->results[i].result[0] = '\0';
        }
        double t0 = s_now(), c0 = s_thread_cpu();
        int rc = hs_engine_evaluate(engs[e], x->pos, n, x->results, err);
        x->engine_cpu_seconds += s_thread_cpu() - c0;
        double dt = s_now() - t0;
        x->engine_seconds += dt;
        if (rc < 0)
            return rc;
        uint32_t eid = hs_engine_config_id(t->engines[e]);
        for (int i = 0; i < n; i++) {
            const hs_engine_result_t *r = &x->results[i];
            hs_eval_t *ev = &res->evals[res->num_evals++];
            memset(ev, 0, sizeof *ev);
            ev->move_number = x->pos[i].move_number;
            memcpy(ev->pos_key, x->keys[i], 16);
            ev->engine_id = eid;
            ev->size = g->size;
            ev->score_lead = (r->flags & HS_ENGINE_HAS_SCORE) ? r->score : NAN;
            ev->win_rate = (r->flags & HS_ENGINE_HAS_WINRATE) ? r->winrate : NAN;
            ev->timing_us = (uint32_t)(dt * 1e6 / n);
            if ((r->flags & HS_ENGINE_HAS_OWNERSHIP) && r->num_vertices == nv) {
                ev->ownership = malloc((size_t)nv);
                if (!ev->ownership)
                    return hs_error_set(err, HS_ENOMEM, "out of memory");
                memcpy(ev->ownership, r->ownership, (size_t)nv);
            }
            if ((r->flags & HS_ENGINE_HAS_CLASSES) && r->num_vertices == nv &&
                strlen(r->classes) == (size_t)nv && !(ev->classes = strdup(r->classes)))
                return hs_error_set(err, HS_ENOMEM, "out of memory");
            if ((r->flags & HS_ENGINE_HAS_RESULT) && r->result[0] &&
                !(ev->result = strdup(r->result)))
                return hs_error_set(err, HS_ENOMEM, "out of memory");
            if ((r->flags & HS_ENGINE_HAS_INFLUENCE) && r->num_vertices == nv) {
                ev->influence = malloc(sizeof(int16_t) * (size_t)nv);
                if (!ev->influence)
                    return hs_error_set(err, HS_ENOMEM, "out of memory");
                memcpy(ev->influence, r->influence, sizeof(int16_t) * (size_t)nv);
            }
        }
    }
    x->batch_n = 0;
    return 0;
}

/* Replays the task's game and fills res->evals. */
static int s_evaluate(hs__eval_ctx_t *x, const hs_wire_task_t *t, hs_wire_result_t *res,
                      hs_error_t *err)
{
    const hs_game_t *g = &t->game.game;
    hs_engine_t *engs[HS_WIRE_MAX_ENGINES];
    int rc;
    if (t->num_engines <= 0)
        return hs_error_set(err, HS_EINVAL, "task names no engine");
    int batch_max = x->batch_max;
    for (int e = 0; e < t->num_engines; e++) {
        if ((rc = s_engine_get(&x->cache, t->engines[e], &engs[e], err)) < 0)
            return rc;
        if (engs[e]->vt->max_batch < batch_max)
            batch_max = engs[e]->vt->max_batch;
    }
    if (batch_max < 1)
        batch_max = 1;
    res->evals = calloc((size_t)t->num_move_numbers * (size_t)t->num_engines + 1,
                        sizeof *res->evals);
    if (!res->evals)
        return hs_error_set(err, HS_ENOMEM, "out of memory");

    hs_history_t hist;
    hs_history_init(&hist);
    hs_board_t *cur = &x->cur;
    if ((rc = hs_board_init(cur, g->size)) < 0) {
        hs_error_set(err, rc, "bad board size %d", g->size);
        goto done;
    }
    for (int i = 0; i < g->num_setup; i++) {
        hs_point_t p = hs_game_board_point(cur, g->setup[i].vertex);
        if ((rc = hs_board_set_stone(cur, p, (hs_color_t)g->setup[i].color)) < 0) {
            hs_error_set(err, rc, "bad setup stone %d", i);
            goto done;
        }
    }
    if (g->num_setup > 0 && g->num_moves > 0)
        cur->to_move = (hs_color_t)g->moves[0].color;
    if ((rc = hs_history_push(&hist, cur, &g->rules)) < 0) {
        hs_error_set(err, rc, "out of memory");
        goto done;
    }
    x->batch_n = 0;
    int played = 0;
    for (int k = 0; k < t->num_move_numbers; k++) {
        int target = t->move_numbers[k];
        while (played < target) {
            const hs_game_move_t *m = &g->moves[played];
            hs_illegal_t why = HS_LEGAL;
            hs_point_t p = hs_game_board_point(cur, m->vertex);
            rc = hs_rules_play(cur, &g->rules, &hist, (hs_color_t)m->color, p, &why);
            if (rc < 0) {
                char name[8];
                hs_error_set(err, HS_EILLEGAL, "move %d (%c %s): illegal (reason %d)",
                             played + 1, m->color == HS_BLACK ? 'B' : 'W',
                             hs_board_point_name(cur, p, name), (int)why);
                goto done;
            }
            played++;
        }
        int b = x->batch_n++;
        x->boards[b] = *cur;
        x->pos[b].game = g;
        x->pos[b].board = &x->boards[b];
        x->pos[b].move_number = target;
        hs_position_key(cur, g, target, x->keys[b]);
        if (x->batch_n >= batch_max && (rc = s_flush(x, t, engs, res, err)) < 0)
            goto done;
    }
    rc = s_flush(x, t, engs, res, err);
done:
    hs_history_fini(&hist);
    return rc;
}

int hs__worker_eval_task(hs__eval_ctx_t *x, const hs_wire_task_t *t, hs_wire_buf_t *out,
                         uint64_t *positions, int *failed)
{
    hs_wire_msg_t m;
    hs_wire_msg_init(&m, HS_WIRE_RESULT);
    hs_wire_result_t *res = &m.result;
    res->task_id = t->task_id;
    res->job_id = t->job_id;
    res->game_id[0] = t->game.game.id[0];
    res->game_id[1] = t->game.game.id[1];
    hs_error_t err = { 0 };
    int rc = s_evaluate(x, t, res, &err);
    *failed = rc < 0;
    *positions = rc < 0 ? 0 : (uint64_t)t->num_move_numbers;
    if (rc < 0) {
        for (int i = 0; i < res->num_evals; i++)
            hs_eval_fini(&res->evals[i]);
        res->num_evals = 0;
        res->error = strdup(err.msg[0] ? err.msg : hs_strerror(rc));
    }
    hs_error_t eerr = { 0 };
    out->len = 0;
    rc = hs_wire_encode(&m, out, &eerr);
    hs_wire_msg_fini(&m);
    return rc;
}
