/*
 * core/wire_search.c — a tree search's fields of an eval as bytes (core/wire.h):
 * one coder for the wire's field 14 and the store record's extension, so the
 * two can never disagree.
 */
#include "core/wire.h"

static size_t s_put16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    return 2;
}

static uint16_t s_get16(const uint8_t *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

static bool s_vertex_ok(uint16_t v, int size)
{
    return v == HS_GAME_PASS || v < (unsigned)(size * size);
}

bool hs_eval_search_valid(const hs_eval_t *e)
{
    if (e->visits == 0 || e->pv_len < 1 || e->pv_len > HS_EVAL_PV_MAX || e->num_moves < 0
        || e->num_moves > HS_EVAL_MOVES_MAX)
        return false;
    for (int i = 0; i < e->pv_len; i++)
        if (!s_vertex_ok(e->pv[i], e->size))
            return false;
    for (int i = 0; i < e->num_moves; i++)
        if (!s_vertex_ok(e->moves[i].vertex, e->size))
            return false;
    return true;
}

size_t hs_eval_search_put(const hs_eval_t *e, uint8_t *out)
{
    size_t o = hs_wire_put_varint(out, e->visits);
    out[o++] = (uint8_t)e->pv_len;
    for (int i = 0; i < e->pv_len; i++)
        o += s_put16(out + o, e->pv[i]);
    out[o++] = (uint8_t)e->num_moves;
    for (int i = 0; i < e->num_moves; i++) {
        const hs_eval_search_move_t *m = &e->moves[i];
        o += s_put16(out + o, m->vertex);
        o += hs_wire_put_varint(out + o, m->visits);
        o += s_put16(out + o, m->win_rate);
        o += s_put16(out + o, (uint16_t)m->lead);
        o += s_put16(out + o, m->prior);
    }
    return o;
}

size_t hs_eval_search_get(const uint8_t *p, const uint8_t *end, int size, hs_eval_t *e)
{
    const uint8_t *q = p;
    uint32_t visits;
    if (hs_wire_get_varint(&q, end, &visits) || visits == 0 || end - q < 1)
        return 0;
    int pv = *q++;
    if (pv < 1 || pv > HS_EVAL_PV_MAX || end - q < 2 * pv + 1)
        return 0;
    for (int i = 0; i < pv; i++, q += 2)
        if (!s_vertex_ok(e->pv[i] = s_get16(q), size))
            return 0;
    int k = *q++;
    if (k > HS_EVAL_MOVES_MAX)
        return 0;
    for (int i = 0; i < k; i++) {
        hs_eval_search_move_t *m = &e->moves[i];
        if (end - q < 2)
            return 0;
        m->vertex = s_get16(q);
        q += 2;
        if (!s_vertex_ok(m->vertex, size) || hs_wire_get_varint(&q, end, &m->visits) || end - q < 6)
            return 0;
        m->win_rate = s_get16(q);
        m->lead = (int16_t)s_get16(q + 2);
        m->prior = s_get16(q + 4);
        q += 6;
    }
    e->visits = visits;
    e->pv_len = pv;
    e->num_moves = k;
    return (size_t)(q - p);
}
