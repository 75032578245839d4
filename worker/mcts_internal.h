/*
 * worker/mcts_internal.h — the tree of worker/mcts.h as its files share it:
 * nodes and edges, the search struct, the leaf slots of a step.
 *
 * A node is a position reached by a move. It keeps its statistics from the
 * point of view of the player who made that move (the "mover"), so that a
 * parent compares its children's sums directly. Edges are the legal moves
 * of an expanded node with their priors, sorted by prior (highest first);
 * an edge's child node is allocated on its first visit only, since most of
 * a 19x19 node's 300-odd moves are never tried.
 *
 * Ownership sums (Black's view) are kept on the root and its children only:
 * the root's give the tree average the results report, the children's the
 * per-move ownership (hs_mcts_move_ownership) and let a reused tree keep
 * its average when a child becomes the root. A node that becomes a child of
 * the root in a kept tree (it was deeper) gets sums then (own_late): they
 * cover only the evaluations from then on.
 */
#ifndef HS_WORKER_MCTS_INTERNAL_H
#define HS_WORKER_MCTS_INTERNAL_H

#include "core/rng.h"
#include "worker/mcts.h"

typedef struct hs__mcts_node hs__mcts_node_t;
typedef struct hs__mcts_svb_entry hs__mcts_svb_entry_t;

/* Why a root move is not searched (hs_mcts.banned). */
#define HS__MCTS_BAN_SUPERKO  1
#define HS__MCTS_BAN_SYMMETRY 2
#define HS__MCTS_BAN_FILTER   3   /* the move filter (mcts_filter.c) */

typedef struct hs__mcts_edge {
    uint16_t move;            /* vertex, or pass = size * size */
    float prior;              /* as selection uses it (noise included at the root) */
    hs__mcts_node_t *child;   /* NULL until first visited */
    int32_t visits;           /* visits through this edge: the child's own, but
                               * for a child that other edges share (graph search) */
    float amaf_n, amaf_w;     /* RAVE: AMAF playouts and their results, mover's view */
} hs__mcts_edge_t;

struct hs__mcts_node {
    int32_t visits;           /* backed-up visits */
    int32_t vloss;            /* leaves in flight below (virtual losses) */
    int32_t num_edges;        /* 0 until expanded */
    uint8_t expanded;
    uint8_t terminal;         /* two passes: scored, never evaluated */
    uint8_t has_amaf;         /* some edge has AMAF statistics (RAVE selection) */
    uint8_t sym_avg;          /* evaluated at the root's symmetries (mcts_root.c) */
    uint8_t own_late;         /* own given when a kept tree made it a root child */
    float raw_value;          /* the evaluator's value here, mover's view */
    float raw_score;          /* likewise */
    float raw_util;           /* the evaluator's utility here, mover's view */
    float raw_score_sq;       /* its score_mean^2 + stdev^2 */
    float raw_score_mean;     /* its expected final score (eval score_mean), mover's view */
    double weight;            /* what the node counts for in its parent's average:
                               * visits, or less after noise pruning (mcts_value.c) */
    double weight_sq;         /* the sum of its evaluations' squared weights, as
                               * KataGo's weightSqSum: the effective sample size
                               * weight^2 / weight_sq of its reported bound */
    double util_sum;          /* utility sums, mover's view */
    double util_sq_sum;       /* of utility^2: the spread that scales exploration */
    double value_sum;
    double score_sum;
    double score_sq_sum;      /* of score_mean^2 + stdev^2: for the spread */
    double score_mean_sum;    /* of the final score: the dynamic score's centre */
    uint64_t key;             /* its position and ply (mcts_graph.c): the node table's key */
    uint32_t mark;            /* the last walk that reached it (mcts_graph.c) */
    uint64_t svb_key;         /* its subtree value bias entry (mcts_svb.c), 0 = none */
    double svb_delta;         /* what it last added to the entry's sums */
    double svb_weight;
    hs__mcts_edge_t *edges;
    float *own;               /* root / depth 1: area sums then area squares (Black's) */
    int32_t own_count;
};

/* One leaf of a step: where it is, the path that led there, the position as
 * the evaluator reads it (boards in a ring of three so that the leaf and the
 * two boards before it stay valid until the evaluator has run). */
typedef struct hs__mcts_leaf {
    struct hs_mcts *owner;    /* the search it belongs to */
    hs__mcts_node_t **path;   /* path[0] = root .. path[depth] = leaf */
    uint16_t *moves;          /* moves[d]: the move from path[d] to path[d + 1] */
    int16_t *edge;            /* edge[d]: its index among path[d]'s edges */
    int depth, cap;
    hs_board_t ring[3];
    hs_nn_pos_t nn;
} hs__mcts_leaf_t;

struct hs_mcts {
    hs_mcts_config_t cfg;
    hs_rng_t rng;
    /* the root position (copied by set_root; nn points into these) */
    hs_board_t root_board, root_prev[2];
    hs_nn_pos_t root_nn;
    bool have_root;
    int size, area;
    hs_rules_t rules;
    unsigned play_flags;
    /* root moves not searched: superko forbids them (HS__MCTS_BAN_SUPERKO),
     * they copy another under a symmetry of the root (mcts_root.c), or the
     * move filter forbids them (HS__MCTS_BAN_FILTER, mcts_filter.c) */
    unsigned char banned[HS_MCTS_MAX_MOVES];
    unsigned root_syms;       /* the symmetries pruning uses (bit s: symmetry s;
                               * bit 0 always): those of the root's stones */
    /* the move filter (hs_mcts_set_filter); has_filter: not empty */
    hs_mcts_filter_t filter;
    bool has_filter;
    hs__mcts_node_t *root;
    long nodes;
    /* every node of the tree, by key (mcts_graph.c): transpositions are
     * found here with graph search on, and nodes are freed from here */
    hs__mcts_node_t **table;
    size_t table_cap, table_used;
    uint32_t epoch;           /* the walks' marks */
    int root_ply;             /* the root's ply, counted from the tree's first root */
    float root_raw_prior[HS_MCTS_MAX_MOVES];    /* by edge index, the evaluator's */
    float root_temp_prior[HS_MCTS_MAX_MOVES];   /* ... after the temperature, before noise */
    bool noised;              /* the root's priors adjusted (temperature, noise) */
    /* this search's budget counters */
    int playouts;             /* visits started (in flight included) */
    double t_begin;
    bool began;
    /* the KataGo terms (hs_mcts_config_t): on while the evaluator of the
     * current step gives estimates; the dynamic score's centre (Black's
     * view), set when a search begins or by the root's first evaluation */
    bool estimates;
    bool have_center;
    double score_center;
    bool rescore;             /* the tree was kept: rescore it at the first step */
    bool reaverage;           /* ... and average its root's priors (mcts_root.c) */
    /* the subtree value bias table (mcts_svb.c) */
    hs__mcts_svb_entry_t *svb;
    size_t svb_cap, svb_used;
    /* leaf slots of a step */
    hs__mcts_leaf_t *leaves;
    int n_leaves;             /* in use this step */
    int cap_leaves;
};

/* mcts.c: a new node of key (in the table; NULL when out of memory). */
hs__mcts_node_t *hs__mcts_node_new(hs_mcts_t *m, bool with_own, uint64_t key);
/* mcts_reuse.c: ownership sums for node n (none before): 0 or HS_ENOMEM; and
 * sums for the root's children after the root moved down a kept tree. */
int hs__mcts_give_own(hs__mcts_node_t *n);
void hs__mcts_own_reroot(hs_mcts_t *m);

/* mcts_backup.c: the Tromp-Taylor count of a finished leaf as an
 * evaluation; ev backed up along the leaf's path (the leaf expanded first,
 * virtual losses taken back; HS_ENOMEM before any visit is taken); and the
 * virtual losses of a leaf that will not be backed up taken back. */
void hs__mcts_score_terminal(const hs_mcts_t *m, const hs_nn_pos_t *nn, hs_mcts_eval_t *out);
int hs__mcts_backup(hs_mcts_t *m, hs__mcts_leaf_t *L, const hs_mcts_eval_t *ev);
void hs__mcts_undo_vloss(hs__mcts_leaf_t *L);

/* mcts_graph.c: the node table. A node's key is its position (stones, side
 * to move, ko point, passes) and its ply, so that a transposition (the same
 * position by another order of moves) is one node with graph search on, and
 * a line that repeats a position (a ko fight) is not a cycle. key: of
 * board at ply. add: n into the table (HS_ENOMEM). find: the node of key, or
 * NULL. keep: frees every node that keep does not reach (all with NULL),
 * as a new root is set; HS_ENOMEM when it cannot walk keep's nodes, which
 * are then freed too. free: every node and the table. next_mark: a new
 * mark for a walk that must reach each node once. */
uint64_t hs__mcts_graph_key(const hs_board_t *board, int ply);
int hs__mcts_table_add(hs_mcts_t *m, hs__mcts_node_t *n);
hs__mcts_node_t *hs__mcts_table_find(const hs_mcts_t *m, uint64_t key);
int hs__mcts_table_keep(hs_mcts_t *m, hs__mcts_node_t *keep);
void hs__mcts_table_free(hs_mcts_t *m);
uint32_t hs__mcts_next_mark(hs_mcts_t *m);
/* ... and an edge that lags its shared child (KataGo's catching up, see
 * mcts_graph.c): whether selection taking e gives it a visit and stops
 * there; and that visit, for the leaf whose path[depth] is the parent and
 * edge[depth] the edge (every node of the path gets a visit and is
 * recomputed, without an evaluation). */
bool hs__mcts_catches_up(const hs_mcts_t *m, const hs__mcts_edge_t *e);
void hs__mcts_catch_up(hs_mcts_t *m, const hs__mcts_leaf_t *L);

/* An edge's share of its child's weight: all of it but for a child that
 * other edges share, which the edge weighs by the visits that came through
 * it. */
static inline double hs__mcts_edge_weight(const hs__mcts_edge_t *e)
{
    const hs__mcts_node_t *c = e->child;
    if (!c || c->visits <= 0)
        return 0;
    return e->visits == c->visits ? c->weight : c->weight * e->visits / c->visits;
}

/* mcts_result.c: the root's priors as the search reads them: raised to
 * 1 / root_policy_temperature and renormalised, then Dirichlet noise (the
 * evaluator's saved first); and undoing it. */
void hs__mcts_adjust_root_priors(hs_mcts_t *m);
void hs__mcts_restore_priors(hs_mcts_t *m);

/* Whether m's root priors are the evaluator's changed (temperature, noise). */
static inline bool hs__mcts_adjusts_root(const hs_mcts_t *m)
{
    return m->cfg.root_policy_temperature != 1.0 ||
           (m->cfg.noise_alpha > 0 && m->cfg.noise_weight > 0);
}

/* mcts.c: the visits the budget still allows, leaves in flight spent (0 when
 * it is spent); INT_MAX when it is time alone, which says nothing of how many
 * are left. */
int hs__mcts_visits_left(const hs_mcts_t *m);

/* mcts_result.c: the root child that a confirmation visit goes to
 * (hs_mcts_config_t.confirm_stdevs): the best by its lower confidence bound
 * when that is not the most visited and the visits left in the budget can
 * still make it so; -1 when selection is PUCT's. */
int hs__mcts_confirm_pick(const hs_mcts_t *m);

/* mcts_rave.c: RAVE's share of a child's value in selection, and the AMAF
 * update of a backed-up leaf's path. */
double hs__mcts_rave_q(const hs_mcts_t *m, const hs__mcts_edge_t *e, int visits, double q,
                       bool *used);
void hs__mcts_rave_backup(hs_mcts_t *m, const hs__mcts_leaf_t *L, const hs_mcts_eval_t *ev);

/* mcts_utility.c: the utility of an evaluation from the leaf's side to move
 * (to_black: +1 when that is Black), the dynamic score's expected value
 * E[(2/pi) atan((mean + stdev Z - center) / scale)] for a standard normal Z,
 * the exploration factor of node n from its utility spread, and the centre
 * of a search that begins. */
double hs__mcts_utility(const hs_mcts_t *m, const hs_mcts_eval_t *ev, double to_black);
/* The same for an evaluator with estimates, from its parts (score_mean and
 * score_stdev the final score's, the side to move's view like value). */
double hs__mcts_estimate_utility(const hs_mcts_t *m, double value, double score_mean,
                                 double score_stdev, double to_black);
/* A standard normal variate (mcts_result.c). */
double hs__mcts_normal(hs_rng_t *rng);
double hs__mcts_score_value(double mean, double stdev, double center, double scale);
double hs__mcts_explore_factor(const hs_mcts_t *m, const hs__mcts_node_t *n);
void hs__mcts_set_center(hs_mcts_t *m, const hs_mcts_eval_t *root_ev);

/* mcts_value.c: whether m's nodes take KataGo's averages (its config asks
 * for them and the evaluator gives estimates), and the recomputation of
 * expanded node n from its children after a backup. */
bool hs__mcts_recomputes(const hs_mcts_t *m);
void hs__mcts_recompute(hs_mcts_t *m, hs__mcts_node_t *n);
/* ... and, when a search begins on a kept tree (the first step, once the
 * evaluator is known), every node's utility anew with the new search's
 * dynamic score centre, bottom-up, as KataGo does (recursivelyRecomputeStats):
 * otherwise the kept visits would be valued against the old centre and the
 * new ones against the new, and the search would lean towards whichever
 * the shift favours. */
void hs__mcts_rescore_tree(hs_mcts_t *m);

/* mcts_svb.c: the subtree value bias. on: m applies it now (its config asks
 * and the evaluator gives estimates). key: the key of the node that `mover`
 * makes by playing `move` on `before`, 0 for none (a pass, or no move
 * before). attach: n takes key's entry (HS_ENOMEM when the table cannot
 * grow; n is then left without). bias: what n's own evaluation is shifted
 * by now (its mover's view). update: records n's correction, its children's
 * average children_util (n's mover's view) over children_weight, and
 * returns the shift. release: n gives its entry back (before it is freed).
 * sweep: drops entries no node holds (when a search begins). free: the
 * table, after the tree. */
bool hs__mcts_svb_on(const hs_mcts_t *m);
uint64_t hs__mcts_svb_key(const hs_board_t *before, hs_color_t mover, hs_point_t move);
int hs__mcts_svb_attach(hs_mcts_t *m, hs__mcts_node_t *n, uint64_t key);
double hs__mcts_svb_bias(const hs_mcts_t *m, const hs__mcts_node_t *n);
double hs__mcts_svb_update(hs_mcts_t *m, hs__mcts_node_t *n, double children_util,
                           double children_weight);
void hs__mcts_svb_release(hs_mcts_t *m, hs__mcts_node_t *n);
void hs__mcts_svb_sweep(hs_mcts_t *m);
void hs__mcts_svb_free(hs_mcts_t *m);

/* mcts_root.c: a node's edges in prior order (highest first, then by move);
 * whether ev evaluates m's root at its root_symmetries; and the priors of a
 * kept root, which was expanded at one symmetry, anew from that average (at
 * the first step of a search; noise, if any, drawn again over them). 0, or
 * the evaluator's error. */
void hs__mcts_sort_edges(hs__mcts_node_t *n);
bool hs__mcts_root_wants_avg(const hs_mcts_t *m, const hs_mcts_evaluator_t *ev);
int hs__mcts_root_reaverage(hs_mcts_t *m, hs_mcts_evaluator_t *ev, hs_error_t *err);
/* mcts_root.c: root symmetry pruning. Marks the root moves that copy
 * another under the root's symmetries (HS__MCTS_BAN_SYMMETRY) and sets
 * root_syms, or clears both where the config has it off or the root is not
 * symmetric; when a search begins, since the config may have changed since
 * set_root. */
void hs__mcts_root_mark_symmetric(hs_mcts_t *m);

/* mcts_filter.c: whether the filter forbids move v to colour c at depth d
 * (false without one); and the root's moves it forbids marked in banned
 * (HS__MCTS_BAN_FILTER, over a symmetry's mark, never over superko's), the
 * old marks taken off: by set_root, set_filter and when a search begins,
 * before the symmetry marks, so that a filtered move stands for no copies
 * (KataGo's markDuplicateMoveLocs skips avoided moves). */
bool hs__mcts_filtered(const hs_mcts_t *m, hs_color_t c, int v, int depth);
void hs__mcts_filter_mark_root(hs_mcts_t *m);
/* ... and the board's symmetries (bit s: symmetry s) that map the filter
 * onto itself (all without one): root symmetry pruning uses no other. */
unsigned hs__mcts_filter_syms(const hs_mcts_t *m);

/* mcts_reuse.c: set_root's search for the new root in the old tree; *plies
 * the moves from the old root to it (0: the same position). */
hs__mcts_node_t *hs__mcts_find_reuse(hs_mcts_t *m, const hs_nn_pos_t *pos, int *plies);

/* Averages of a node from its mover's view (0 when unvisited). */
static inline double hs__mcts_q(const hs__mcts_node_t *n)
{
    return n->visits > 0 ? n->util_sum / n->visits : 0.0;
}

#endif
