/*
 * worker/mcts_pat3.c — the 3x3 shapes of the rollout policy (MoGo's: Gelly,
 * Wang, Munos and Teytaud, "Modification of UCT with patterns in Monte-Carlo
 * Go", 2006): hane, cuts and a few edge shapes, answered around the last move.
 *
 * Why: uniform random moves after the tactical steps play each local fight
 * out at random, so a playout's result says little about who stands better.
 * Answering a contact move with the shape a player would play (block the
 * hane, cut the cutting point) makes playouts keep the local status the
 * position already has, which is what makes a rollout search strong at
 * 9x9 (MoGo's patterns took it from a weak to an even game with GNU Go).
 *
 * A shape is the 8 neighbours of the candidate point, each empty, black,
 * white or off the board; a table of all 4^8 of them says which match. The
 * shapes are the same for either colour (a hane is answered by either
 * player), and every rotation and reflection counts.
 */
#include <string.h>

#include "worker/mcts_eval_internal.h"

/* Rows top to bottom, the candidate point in the middle. X and O: stones of
 * either colour, the other colour; '.': empty; '#': off the board; '?':
 * anything; 'x': anything but X; 'o': anything but O. MoGo's set without the
 * shapes that ask whether a string is in atari (the tactical steps come
 * first) and without the doubtful edge shapes. */
static const char *const s_shapes[] = {
    "XOX" "..." "???",   /* hane: enclosing */
    "XO." "..." "?.?",   /* hane: non-cutting */
    "XO?" "X.." "x.?",   /* hane: magari */
    ".O." "X.." "...",   /* diagonal attachment */
    "XO?" "O.o" "?o?",   /* cut: unprotected */
    "XO?" "O.X" "???",   /* cut: peeped */
    "?X?" "O.O" "ooo",   /* cut: de */
    "OX?" "o.O" "???",   /* cut: keima */
    "X.?" "O.?" "##?",   /* edge: chase */
    "OX?" "X.O" "###",   /* edge: block the cut */
    "?X?" "x.O" "###",   /* edge: block the connection */
};

/* Neighbour k of the shape (row-major without the middle) under symmetry t:
 * its index 0..8 in the shape's 3x3 string. */
static int s_cell(int k, int t)
{
    static const int rc[8][2] = { { -1, -1 }, { -1, 0 }, { -1, 1 }, { 0, -1 },
                                  { 0, 1 },   { 1, -1 }, { 1, 0 },  { 1, 1 } };
    int r = rc[k][0], c = rc[k][1];
    if (t & 4) {
        int s = r;
        r = c;
        c = s;
    }
    if (t & 2)
        r = -r;
    if (t & 1)
        c = -c;
    return (r + 1) * 3 + (c + 1);
}

/* Whether board value v (0 empty, 1 black, 2 white, 3 off) fits shape char ch
 * with X meaning colour x. */
static bool s_fits(char ch, int v, int x)
{
    int o = 3 - x;
    switch (ch) {
    case 'X': return v == x;
    case 'O': return v == o;
    case '.': return v == HS_EMPTY;
    case '#': return v == HS_OFFBOARD;
    case 'x': return v != x;
    case 'o': return v != o;
    default: return true;   /* '?' */
    }
}

/* Sets every code of the 8 cells from cell k on that fits shape s under
 * symmetry t and colour x. */
static void s_expand(hs__mcts_pat3_t *tab, const char *s, int t, int x, int k, unsigned code)
{
    if (k == 8) {
        tab->bits[code >> 3] |= (uint8_t)(1u << (code & 7));
        return;
    }
    char ch = s[s_cell(k, t)];
    for (int v = 0; v < 4; v++)
        if (s_fits(ch, v, x))
            s_expand(tab, s, t, x, k + 1, code | (unsigned)v << (2 * k));
}

void hs__mcts_pat3_init(hs__mcts_pat3_t *tab)
{
    memset(tab, 0, sizeof *tab);
    for (size_t i = 0; i < sizeof s_shapes / sizeof s_shapes[0]; i++)
        for (int t = 0; t < 8; t++)
            for (int x = HS_BLACK; x <= HS_WHITE; x++)
                s_expand(tab, s_shapes[i], t, x, 0, 0);
}
