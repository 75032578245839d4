/*
 * core/board_text.c — the board as people write it (board.h): the ASCII
 * diagram, GTP vertex names ("D4", "pass") and their parsing. Apart from
 * board.c, whose concern is the rules and speed of play.
 */
#include "core/board.h"

#include <stdio.h>
#include <string.h>

/* Column letters of GTP and of the diagrams: A..Z without I (25 letters, so
 * boards up to 25x25 continue past T with U..Z). */
static const char s_columns[] = "ABCDEFGHJKLMNOPQRSTUVWXYZ";

int hs_board_to_ascii(const hs_board_t *b, char *buf, int size)
{
    /* Build into a local buffer (big enough for 25x25), then copy like snprintf. */
    char out[(HS_BOARD_MAX_SIZE * 2 + 8) * (HS_BOARD_MAX_SIZE + 2) + 1];
    int n = 0;
    n += sprintf(out + n, "   ");
    for (int x = 0; x < b->size; x++)
        n += sprintf(out + n, x + 1 < b->size ? "%c " : "%c\n", s_columns[x]);
    for (int y = 0; y < b->size; y++) {
        n += sprintf(out + n, "%2d", b->size - y);
        for (int x = 0; x < b->size; x++) {
            int c = b->color[hs_board_point(b, x, y)];
            out[n++] = ' ';
            out[n++] = c == HS_BLACK ? 'X' : c == HS_WHITE ? 'O' : '.';
        }
        out[n++] = '\n';
    }
    out[n] = '\0';
    if (size > 0) {
        int k = n < size - 1 ? n : size - 1;
        memcpy(buf, out, (size_t)k);
        buf[k] = '\0';
    }
    return n;
}

const char *hs_board_point_name(const hs_board_t *b, hs_point_t p, char *buf)
{
    if (p == HS_PASS) {
        memcpy(buf, "pass", 5);
        return buf;
    }
    if (!hs_board_on_board(b, p)) {
        memcpy(buf, "??", 3);
        return buf;
    }
    snprintf(buf, 5, "%c%d", s_columns[hs_board_x(b, p)], b->size - hs_board_y(b, p));
    return buf;
}

int hs_board_parse_point(const hs_board_t *b, const char *text, hs_point_t *p)
{
    if (!text)
        return HS_EPARSE;
    char low[8];
    size_t len = strlen(text);
    if (len == 0 || len >= sizeof low)
        return HS_EPARSE;
    for (size_t i = 0; i <= len; i++)
        low[i] = (char)(text[i] >= 'A' && text[i] <= 'Z' ? text[i] - 'A' + 'a' : text[i]);
    if (!strcmp(low, "pass")) {
        *p = HS_PASS;
        return 0;
    }
    int x = -1;
    for (int i = 0; i < b->size; i++)
        if (s_columns[i] - 'A' + 'a' == low[0])
            x = i;
    if (x < 0 || low[1] < '1' || low[1] > '9')
        return HS_EPARSE;
    int row = 0;
    for (size_t i = 1; i < len; i++) {
        if (low[i] < '0' || low[i] > '9')
            return HS_EPARSE;
        row = row * 10 + (low[i] - '0');
    }
    if (row < 1 || row > b->size)
        return HS_EPARSE;
    *p = hs_board_point(b, x, b->size - row);
    return 0;
}
