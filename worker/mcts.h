/*
 * worker/mcts.h — the PUCT tree search (the design's "start model"): value
 * estimates, a best move and a principal variation for one position, with
 * the win rate, the score lead and the ownership averaged over the tree.
 *
 * One search = one tree (hs_mcts_t). Its leaves are evaluated by an
 * evaluator (hs_mcts_evaluator_t below): the net (worker/mcts_eval.h,
 * policy prior, value, score and ownership from worker/nn/) or rollouts
 * (the same header: playouts with a cheap policy, for where no net is
 * loaded). The search never calls a backend itself. With graph search
 * (config graph_search, the net's searches) the "tree" is a graph:
 * transpositions share one node, and each edge counts its own visits.
 *
 * Batching. A search is driven in steps: each step selects up to
 * cfg.threads leaves of its tree (virtual loss keeps them apart), hands them
 * to the evaluator in one call, and backs up the results. hs_mcts_step_many
 * takes many searches at once and puts all their leaves into the same
 * evaluator calls (up to the evaluator's max_batch each): bulk annotation
 * runs dozens of positions' searches together so that a GPU gets full
 * batches, and the analysis protocol runs every open query this way with one
 * shared evaluator. The tree work is done on the calling thread; the
 * parallelism is inside the evaluator (oneDNN's OpenMP team, the GPU, the
 * rollout evaluator's thread pool). "threads" in the config is therefore the
 * number of leaves in flight per search, as KataGo's search threads are for
 * the batching they give.
 *
 * Determinism: with the same seed, config (threads included), evaluator and
 * position, a search gives the same tree and result every time (time budgets
 * aside); the evaluator must be deterministic too (both built-in ones are,
 * given their seeds).
 *
 * Perspectives. Inside the tree values are kept from the point of view of the
 * player who made the move into a node. Everything the API returns is from
 * Black's point of view: win rate = Black's winning probability, score lead
 * = Black's lead in points (komi included), ownership +1 = Black's. Front
 * ends flip it for "side to move" reports (result.to_move says who that is).
 *
 * Moves are board-independent vertices: v = y * size + x, and size * size
 * for pass (the net's policy layout; HS_MCTS_PASS(size)).
 *
 * The end of the game: a position that two passes end is scored where the
 * tree reaches it (Tromp-Taylor area against the komi the net sees), never
 * evaluated. The root is always searched, whatever its history: one that
 * ended in two passes is a position to play on, as KataGo's root is never
 * terminal; a pass from it ends the game again.
 *
 * Tree reuse: hs_mcts_set_root keeps the subtree under the new position when
 * it follows the current root by one or two moves (read from the new
 * position's move history and checked against the board), as between
 * consecutive moves of a game or between genmove and the opponent's reply;
 * not when the tree scored that position as a finished game.
 *
 * Ownership: a search owns its tree; it borrows nothing after set_root
 * returns (the root position is copied). One thread at a time per search;
 * different searches may run on different threads with different
 * evaluators.
 */
#ifndef HS_WORKER_MCTS_H
#define HS_WORKER_MCTS_H

#include <stdbool.h>
#include <stdint.h>

#include "core/board.h"
#include "core/error.h"
#include "core/rules.h"
#include "worker/nn/features.h"

#define HS_MCTS_MAX_AREA (HS_NN_MAX_SIZE * HS_NN_MAX_SIZE)
#define HS_MCTS_MAX_MOVES (HS_MCTS_MAX_AREA + 1)
#define HS_MCTS_PASS(size) ((size) * (size))
#define HS_MCTS_PV_MAX 10

/* ------------------------------------------------------------------ */
/* Evaluators                                                          */

/* What an evaluator says about one leaf. Everything is from the point of view
 * of the side to move at the leaf (pos->to_move). */
typedef struct hs_mcts_eval {
    /* prior over moves v = y*n+x and pass (n*n), summing to 1 over the legal
     * ones; < 0 for illegal moves. An evaluator without a policy gives its
     * own cheap prior (the rollout evaluator: uniform with a few tactical
     * boosts). */
    float policy[HS_MCTS_MAX_MOVES];
    float value;          /* expected result in [-1, 1]: win 1, loss -1, jigo 0 */
    float score;          /* expected lead in points, komi included */
    /* expected final score in points (KataGo's self-play score mean, which
     * its utility reads; the lead says how far ahead the mover is against an
     * equal opponent, this what self-play would end at); rollouts: = score */
    float score_mean;
    float score_stdev;    /* spread of the final score (>= 0; 0 where unknown) */
    float ownership[HS_MCTS_MAX_AREA];   /* +1 = the side to move's, in [-1, 1] */
    /* "All moves as first" statistics of playout evaluators, for RAVE (the
     * search clears has_amaf before each call; the net leaves it 0). Over
     * amaf_playouts playouts from the leaf: amaf_n[c-1][v] = the playouts in
     * which vertex v was first played by colour c (1 Black, 2 White),
     * amaf_value[c-1][v] = the sum of their results from c's view (+1 win,
     * -1 loss, 0 jigo). */
    int has_amaf;
    float amaf_playouts;
    float amaf_n[2][HS_MCTS_MAX_AREA];
    float amaf_value[2][HS_MCTS_MAX_AREA];
} hs_mcts_eval_t;

/* Evaluates pos[0..n) (n <= max_batch) into out[0..n). Returns 0, or a
 * negative HS_E* with *err when the whole call failed (the searches of that
 * step then fail with it). Called from the thread driving the searches. */
typedef int (*hs_mcts_eval_fn)(void *ctx, const hs_nn_pos_t *pos, int n, hs_mcts_eval_t *out,
                               hs_error_t *err);

typedef struct hs_mcts_evaluator {
    hs_mcts_eval_fn eval;
    void *ctx;
    int max_batch;        /* the most leaves one call takes (>= 1) */
    const char *name;     /* "net" or "rollout", for messages and reports */
    void (*destroy)(void *ctx);          /* hs_mcts_evaluator_free calls it; may be NULL */
    double (*helper_cpu)(void *ctx);     /* CPU of the evaluator's own threads; may be NULL */
    /* Whether value and score are a model's estimates with a spread (the net)
     * rather than the outcome of one playout (rollouts): the search's
     * KataGo terms (below, hs_mcts_config_t) apply to estimates only, tuned
     * as they are for a net's outputs. */
    bool estimates;
    /* The root's evaluation averaged over `syms` (2..8) of the board's
     * symmetries, drawn without replacement from the evaluator's seed and the
     * position (KataGo's rootNumSymmetriesToSample,
     * hs_mcts_config_t.root_symmetries); NULL where the evaluator has no
     * symmetries (rollouts), which then evaluates the root as any leaf. */
    int (*eval_avg)(void *ctx, const hs_nn_pos_t *pos, int syms, hs_mcts_eval_t *out,
                    hs_error_t *err);
    /* Counted by hs_mcts_step_many: calls made and leaves they carried (the
     * mean batch of the bulk-speed report is leaves / calls). */
    long calls, leaves;
} hs_mcts_evaluator_t;

/* ------------------------------------------------------------------ */
/* Configuration                                                       */

typedef struct hs_mcts_config {
    /* Budget. A search stops at the first limit it reaches; 0 = no limit of
     * that kind (but at least one must be set, or max_visits 1 is used). */
    int max_visits;       /* root visits, reused ones included (KataGo's maxVisits) */
    int max_playouts;     /* new visits in this search */
    double max_time;      /* seconds of wall time from the first step */
    int threads;          /* leaves in flight per step (virtual loss); >= 1 */
    /* PUCT: U = cpuct * prior * sqrt(parent visits) / (1 + child visits),
     * with a virtual loss counting as a lost visit; for evaluators without
     * estimates (rollouts). With estimates (the net), KataGo's form:
     * U = (net_cpuct + net_cpuct_log * ln((W + net_cpuct_base) /
     * net_cpuct_base)) * sqrt(W + 0.01) * prior / (1 + w), where w is a
     * child's weight (mcts_value.c) and W the sum over the children, and a
     * virtual loss moves a child's value towards the worst utility with the
     * weight of one visit (cpuctExploration 1.0, cpuctExplorationLog 0.45,
     * cpuctExplorationBase 500): a little less exploration at nodes of few
     * visits, where the rollout form's sqrt(W + 1) and 1.1 read wider. */
    double cpuct;
    double net_cpuct;
    double net_cpuct_log;
    double net_cpuct_base;
    /* First-play urgency: an unvisited child is valued at the parent's value
     * minus fpu_reduction * sqrt(sum of the visited children's priors). */
    double fpu_reduction;
    /* KataGo's winLossUtilityFactor: the weight of the value (win - loss)
     * in the utility, 1 by default; 0 leaves the score terms alone to
     * steer. Reported win rates are the value's whatever the weight. */
    double win_loss_utility;
    /* Utility = value + score_utility * (2/pi) * atan(score / score_scale):
     * a small pull towards a bigger lead (KataGo's static score utility),
     * which keeps play sensible when the game is decided. With estimates
     * (the net) it is KataGo's form instead: the expectation of (2/pi) *
     * atan(s / (2 * size)) over the final score's spread, s the evaluator's
     * score_mean (score_scale unused). */
    double score_utility;
    double score_scale;
    /* KataGo's search terms, for evaluators that give estimates (the net),
     * with KataGo's defaults; each 0 turns its term off:
     * - dynamic score utility: + dyn_score_utility * E[(2/pi) atan((s -
     *   c) / (dyn_score_scale * size))] over the leaf's score spread, s its
     *   score_mean, where c is 0.8 x the root's expected final score
     *   (Black's view; within dyn_score_scale * size of it) when the search
     *   begins: a pull towards a bigger lead around the current one, which
     *   the win rate alone stops giving once it nears 0 or 1
     *   (dynamicScoreUtilityFactor 0.3, dynamicScoreCenterScale 0.75);
     * - exploration scaled by the parent's utility spread, cpuct x (1 +
     *   cpuct_stdev_scale x (stdev / 0.4 - 1)), the spread shrunk towards 0.4
     *   with the weight of 2 visits (cpuctUtilityStdevScale 0.85): wider
     *   search where the outcome is uncertain, narrower where it is settled;
     * - first-play urgency from the parent's own evaluation while few of its
     *   children (by prior) are visited, from its average once most are
     *   (fpuParentWeightByVisitedPolicy), and root_fpu_reduction in place of
     *   fpu_reduction at the root (rootFpuReductionMax 0.1; 0 with noise). */
    double dyn_score_utility;
    double dyn_score_scale;
    double cpuct_stdev_scale;
    double root_fpu_reduction;
    /* KataGo's node values, for evaluators that give estimates: a node's
     * averages are recomputed at each backup from its children's averages
     * (weighted by their visits) and its own evaluation (weight 1), not kept
     * as running sums of the leaves below it. Two adjustments move the
     * value towards the best child's:
     * - noise pruning (noise_prune_utility; KataGo's noisePruneUtilityScale
     *   0.15): a child, in prior order, that is worse than the ones before
     *   it and holds more than twice its prior's share of their weight
     *   loses part of the excess, 1 - exp(-gap / noise_prune_utility);
     * - value weighting (value_weight_exponent; valueWeightExponent 0.25):
     *   each child's weight times P(z)^exponent, P the cdf of Student's t
     *   with 3 degrees of freedom, z the child's distance from the weighted
     *   mean in units of 1 / sqrt(1.5 sqrt(weight)).
     * 0 turns each off; both 0 keep running sums (the search before). */
    double noise_prune_utility;
    double value_weight_exponent;
    /* KataGo's subtree value bias (worker/mcts_svb.c), for evaluators that
     * give estimates: a node's own evaluation is shifted by subtree_bias x
     * the mean correction that the searches below nodes of the same local
     * shape (the move, the move before, the 5x5 stones around it) made to
     * their evaluations, each weighted by its children's weight to the
     * subtree_bias_exponent; a node freed takes back subtree_bias_free of
     * its share (subtreeValueBiasFactor 0.45, subtreeValueBiasWeightExponent
     * 0.85, subtreeValueBiasFreeProp 0.8). Utility only: the win rate and
     * score reported stay the evaluator's averages. 0 = off. */
    double subtree_bias;
    double subtree_bias_exponent;
    double subtree_bias_free;
    /* RAVE, where the evaluator gives AMAF statistics (rollouts): a child's
     * value blends its own mean with its AMAF mean, the AMAF weight
     * beta = n_amaf / (n_amaf + n + n * n_amaf / rave_equiv), so the AMAF
     * mean counts fully before the first visit and fades once a child has
     * about rave_equiv visits of its own. 0 = off. No effect with the net. */
    double rave_equiv;
    /* Self-play only (both 0 for analysis): Dirichlet noise on the root's
     * priors, Dirichlet(alpha) mixed in with weight noise_weight. */
    double noise_alpha;
    double noise_weight;
    /* hs_mcts_choose_move: 0 = the move with the most visits; > 0 =
     * sampled in proportion to visits^(1/temperature). Self-play only. */
    double temperature;
    /* KataGo's lower confidence bound (useLcbForSelection, lcbStdevs 5,
     * minVisitPropForLCB 0.15), off by default: the move chosen and
     * reported first is then, among the root children with at least
     * lcb_min_visit_prop of the most visited one's visits, the one whose
     * utility minus lcb_stdevs standard errors is highest, not the most
     * visited. 0 = off (the most visits, as the engine's spec requires). */
    double lcb_stdevs;
    double lcb_min_visit_prop;
    /* Confirmation visits (ours, not KataGo's; 0 = off, the default here;
     * `hyeongse gtp --net` plays with 5): with a visit budget (max_visits
     * or max_playouts; not with time alone), while the root child of the
     * best lower confidence bound at confirm_stdevs (among those with
     * lcb_min_visit_prop of the most visited one's visits, as above) is not
     * the most visited, and the visits left could still make it so, the
     * root's selection takes it instead of PUCT's pick. A move that PUCT
     * under-visits while its value says it is better gets the visits that
     * either confirm it, so that the most visited move is the one played,
     * or refute it, so that its bound falls back. */
    double confirm_stdevs;
    /* KataGo's wideRootNoise: at the root, each child's prior is flattened to
     * prior^(1 / (4 w + 1)) and, each time selection weighs it with
     * probability 1/2, w x |N(0, 1)| is added to its value; spreads an
     * analysis over more moves (0 = off, the default; the analysis engine
     * starts at KataGo's 0.04). At most 5. */
    double wide_root_noise;
    /* KataGo's rootNumSymmetriesToSample: the root is evaluated at this many
     * of the board's eight symmetries (1..8), their policies, values and
     * ownerships averaged, where the evaluator can (eval_avg, the net): a
     * root's priors decide where most of a search's visits go, and one
     * symmetry's policy carries that symmetry's noise. A root kept from the
     * search before (evaluated then as a leaf, at one symmetry) gets its
     * priors anew at the first step. Its evaluations are not visits: they
     * cost syms - 1 evaluations a search and no budget. 1 = off, the default
     * (KataGo's). */
    int root_symmetries;
    /* KataGo's useGraphSearch: a move that leads to a position the search
     * already has a node for at that ply (another order of the same moves)
     * shares that node, so that what was read below it counts on every path
     * to it (worker/mcts_graph.c). Each edge keeps its own visits, which are
     * the move's visits in results and selection; the shared node's averages
     * are over all the paths. With an evaluator that gives estimates (the
     * net) only: a rollout search keeps running means, which a node's other
     * parents would mix into, and its measure against GNU Go was of a tree.
     * Off by default; `hyeongse gtp --net` and `hyeongse analysis` turn it
     * on, as KataGo's GTP and analysis engines have it. */
    bool graph_search;
    /* KataGo's rootSymmetryPruning: where the root's stones are unchanged
     * by some of the board's symmetries (no ko point, no superko ban: the
     * empty board, a symmetric opening), only one move of each set of
     * equivalent ones is searched at the root, so that the visits are not
     * split among copies of one move. The one kept is KataGo's: Black's
     * nearest the top right, White's nearest the bottom left. Results list
     * the others too, as copies of it (hs_mcts_move_info_t.sym_of). Off by
     * default; `hyeongse gtp --net` and `hyeongse analysis` turn it on, as
     * KataGo's GTP and analysis engines have it. */
    bool root_symmetry_pruning;
    /* KataGo's rootPolicyTemperature: the root's priors raised to 1 / T and
     * renormalised before the search reads them (and before any noise), so
     * that T > 1 spreads the root's visits over more moves and T < 1
     * narrows them. KataGo's range, 0.01..100; 1 = off, the default. What
     * results report as a move's prior is the tempered one (as KataGo's
     * moveInfos); the policy (hs_mcts_result_t.policy) stays the
     * evaluator's. */
    double root_policy_temperature;
    bool allow_pass;      /* pass is searched (true); false only for tests */
    uint64_t seed;        /* noise and temperature */
} hs_mcts_config_t;

/* Defaults for analysis: cpuct 1.1, net_cpuct 1.0, net_cpuct_log 0.45,
 * net_cpuct_base 500, fpu_reduction 0.2, win_loss_utility 1, score_utility 0.1,
 * score_scale 20 (points; for 19x19, scaled by size/19; rollouts only), dyn_score_utility
 * 0.3, dyn_score_scale 0.75, cpuct_stdev_scale 0.85, root_fpu_reduction 0.1,
 * noise_prune_utility 0.15, value_weight_exponent 0.25, subtree_bias 0.45,
 * subtree_bias_exponent 0.85, subtree_bias_free 0.8, rave_equiv 1000, no
 * noise, temperature 0, no wide root noise, root_symmetries 1, no graph
 * search, no root symmetry pruning, root_policy_temperature 1, threads 1,
 * max_visits 200, allow_pass, seed 0. */
void hs_mcts_config_default(hs_mcts_config_t *cfg);

/* ------------------------------------------------------------------ */
/* Results                                                             */

typedef struct hs_mcts_move_info {
    int move;             /* vertex, HS_MCTS_PASS(size) for pass */
    int visits;           /* through this move (its edge's): what the move
                           * choice counts (KataGo's edgeVisits) */
    int child_visits;     /* of the position it leads to: more than visits
                           * where graph search reached it by other paths
                           * too (KataGo's visits); its statistics are over
                           * these */
    float winrate;        /* Black's, averaged over the move's subtree */
    float score_lead;     /* Black's */
    float score_selfplay; /* Black's expected final score (evaluators' score_mean) */
    float score_stdev;    /* spread of the final score */
    float prior;          /* the evaluator's prior (after root_policy_temperature,
                           * before noise) */
    float utility;        /* the mover's utility, as selection used it */
    /* the mover's win rate lower confidence bound, KataGo's "lcb": the win
     * rate less its utility bound's radius (lcb_stdevs standard errors, 5
     * where that is 0, over the effective sample size of the move's
     * weights) x 1/2 over the utility's range; may lie outside [0, 1] */
    float lcb;
    /* the same bound on the utility itself (KataGo's utilityLcb): utility
     * less the radius, the mover's view */
    float utility_lcb;
    double weight;        /* the child's weight: its visits, less what noise
                           * pruning and value weighting took (KataGo's
                           * weight) */
    double edge_weight;   /* its share through this move (edgeWeight) */
    /* what the move choice ranks by (KataGo's playSelectionValue): the
     * move's visits, the bound's pick raised as KataGo raises it where
     * lcb_stdevs > 0; those under 1 (or 1/64 of the most) are 0, and the
     * largest is at least 1 */
    double play_selection;
    int order;            /* 0 = the best move; the rest by visits */
    int sym_of;           /* -1, or the move this one copies: with root
                           * symmetry pruning, the same move under one of
                           * the root's symmetries (its statistics and its
                           * PV, mapped), listed after it (KataGo's
                           * isSymmetryOf) */
    int sym;              /* the symmetry (core/symmetry.h) that maps sym_of
                           * onto move; 0 for a move searched */
    /* the evaluations its ownership averages (hs_mcts_move_ownership); 0:
     * its ownership is not known */
    int own_count;
    int pv_len;
    int pv[HS_MCTS_PV_MAX];          /* starts with move */
    int pv_visits[HS_MCTS_PV_MAX];   /* visits of each PV node (KataGo's pvVisits) */
    int pv_edge_visits[HS_MCTS_PV_MAX];   /* ... through each PV move (pvEdgeVisits) */
} hs_mcts_move_info_t;

/* Everything one search says about its root. Large (~60 KB): callers keep one
 * and reuse it. */
typedef struct hs_mcts_result {
    int size;
    hs_color_t to_move;   /* at the root */
    int visits;           /* root visits */
    int playouts;         /* new visits of the last search */
    double seconds;       /* wall time of the last search */
    float winrate;        /* Black's winning probability, tree average */
    float score_lead;     /* Black's lead, tree average */
    float score_selfplay; /* Black's expected final score, tree average */
    float score_stdev;    /* spread of the final score over the tree */
    float utility;        /* the side to move's */
    float raw_winrate;    /* the evaluator's at the root (Black's) */
    float raw_score;      /* likewise */
    float raw_score_selfplay;         /* the evaluator's expected final score (Black's) */
    float raw_score_selfplay_stdev;   /* ... and its spread */
    double weight;        /* the root's weight (its visits less pruning) */
    /* vertex, HS_MCTS_PASS(size); when no root child has a visit, the
     * move of the highest prior that the root may search (num_moves is then
     * 0; hs_mcts_choose_move plays it); -1 when the root has no move */
    int best_move;
    int pv_len;
    int pv[HS_MCTS_PV_MAX];
    int num_moves;        /* root children with visits, best first, each
                           * followed by its symmetric copies (sym_of) */
    hs_mcts_move_info_t moves[HS_MCTS_MAX_MOVES];
    float policy[HS_MCTS_MAX_MOVES];        /* the root's prior before noise; < 0 illegal */
    float ownership[HS_MCTS_MAX_AREA];      /* Black +1 .. White -1, tree average */
    float ownership_stdev[HS_MCTS_MAX_AREA];
} hs_mcts_result_t;

/* ------------------------------------------------------------------ */
/* The search                                                          */

typedef struct hs_mcts hs_mcts_t;

/* A search with an empty tree. HS_EINVAL for a bad config (threads < 1,
 * negative budget or constants), HS_ENOMEM. Free with hs_mcts_free. */
int hs_mcts_create(const hs_mcts_config_t *cfg, hs_mcts_t **out, hs_error_t *err);

/* Frees and sets *m to NULL; NULL-safe. */
void hs_mcts_free(hs_mcts_t **m);

/* Replaces the configuration (budget, constants, seed) for the next search;
 * the tree stays. HS_EINVAL as hs_mcts_create. */
int hs_mcts_set_config(hs_mcts_t *m, const hs_mcts_config_t *cfg, hs_error_t *err);
const hs_mcts_config_t *hs_mcts_get_config(const hs_mcts_t *m);

/* Sets the position to search (copied: board, history, prev boards, rules,
 * komi). The tree is kept when pos follows the old root by one or two moves
 * (see the top), else cleared. hist, when not NULL, holds the superko keys
 * of the game so far under pos->rules: root moves that superko forbids are
 * not searched (deeper in the tree only simple ko is checked). Boards up to
 * HS_NN_MAX_SIZE. HS_EINVAL (bad size or colour), HS_ENOMEM. */
int hs_mcts_set_root(hs_mcts_t *m, const hs_nn_pos_t *pos, const hs_history_t *hist,
                     hs_error_t *err);

/* Clears the tree (the root position stays). */
void hs_mcts_clear(hs_mcts_t *m);

/* A move filter, KataGo's avoidMoveUntilByLoc (the analysis protocol's
 * avoidMoves / allowMoves, GTP's avoid / allow; worker/mcts_filter.c):
 * until[c][v], c 0 for Black and 1 for White, v a vertex (HS_MCTS_PASS(size)
 * for pass) of the root's board size: at a node where colour c is to move
 * at depth d (0 = the root), move v is not searched while d < until[c][v].
 * All 0 = no filter. A node below the root whose every move is filtered is
 * visited again without expanding (its evaluation counts once more, as
 * KataGo's addCurrentNNOutputAsLeafValue); a root whose every move is
 * filtered ends the search at its first visit, with no move (best_move -1;
 * hs_mcts_choose_move then passes). */
typedef struct hs_mcts_filter {
    int32_t until[2][HS_MCTS_MAX_MOVES];
} hs_mcts_filter_t;

/* Empties f. */
void hs_mcts_filter_clear(hs_mcts_filter_t *f);
/* Whether f filters nothing. */
bool hs_mcts_filter_empty(const hs_mcts_filter_t *f);
/* Whether f lets colour c play move v at depth d (f NULL: always). */
bool hs_mcts_filter_allows(const hs_mcts_filter_t *f, hs_color_t c, int v, int depth);

/* The filter of the next searches (copied; NULL or empty: none). When it
 * differs from the one before, the tree is cleared, as KataGo's
 * setAvoidMoveUntilByLoc clears its search; while one is set, set_root
 * keeps a tree only for the same position (a tree kept from a position a
 * move or two before was searched at other depths). HS_EINVAL for a
 * negative depth. Not a part of the config: without a filter the search is
 * what it was. */
int hs_mcts_set_filter(hs_mcts_t *m, const hs_mcts_filter_t *f, hs_error_t *err);

/* Starts a new search on the current root: the playout and time counters
 * restart, noise is applied to the root when the config asks for it. Called
 * by hs_mcts_search; callers that drive steps themselves call it first. */
void hs_mcts_begin(hs_mcts_t *m);

/* Whether the search reached its budget (or has no legal move but pass and
 * pass is searched: then one visit ends it). */
bool hs_mcts_done(const hs_mcts_t *m);

/* One step of each unfinished search in s[0..n): selects its leaves, runs
 * all of them through ev in calls of up to ev->max_batch leaves, backs up.
 * Returns the number of searches still unfinished (>= 0), or a negative
 * HS_E* from the evaluator (the trees are then left consistent: the failed
 * leaves' virtual losses are undone). Each search must have had
 * hs_mcts_begin. */
int hs_mcts_step_many(hs_mcts_t *const *s, int n, hs_mcts_evaluator_t *ev,
                      hs_error_t *err);

/* begin, then steps until done. 0 or the evaluator's error. */
int hs_mcts_search(hs_mcts_t *m, hs_mcts_evaluator_t *ev, hs_error_t *err);

/* begin on each, then steps of all until all are done. */
int hs_mcts_search_many(hs_mcts_t *const *s, int n, hs_mcts_evaluator_t *ev,
                        hs_error_t *err);

/* Fills *out from the tree (possible during a search, between steps: the
 * analysis reports do that). */
void hs_mcts_get_result(const hs_mcts_t *m, hs_mcts_result_t *out);

/* KataGo's per-move ownership (its moveInfos' ownership, ownershipStdev):
 * the ownership after root move mi of the result hs_mcts_get_result took
 * from m just before (m unchanged since), Black +1 .. White -1, into
 * own[0..area) and its spread into own_stdev (either may be NULL). It is
 * the average over the evaluations backed up through the move's node since
 * that node became a child of the root: all of them in a tree searched
 * from its root, those of the searches since the tree was kept where the
 * node was deeper before (the tree keeps ownership sums at the root and
 * its children only). A symmetric copy (sym_of) gets the move searched's,
 * mapped by the symmetry. Returns mi->own_count, the evaluations averaged;
 * 0 (nothing written) when there are none: not known, never an average of
 * nothing. Costs one pass over the board per move: results leave it to
 * the callers that ask. */
int hs_mcts_move_ownership(const hs_mcts_t *m, const hs_mcts_move_info_t *mi, float *own,
                           float *own_stdev);

/* The move to play: the most visited root child (ties: higher utility; with
 * lcb_stdevs > 0, the best by its lower confidence bound), or one drawn by
 * visits^(1/temperature) when the config's temperature > 0. When no root
 * child has a visit (max_visits 1, a search cut short by time), the move of
 * the highest prior before noise that the root may search (KataGo plays the
 * policy's move then); HS_MCTS_PASS(size) only when the root has none. */
int hs_mcts_choose_move(hs_mcts_t *m);

/* Root visits so far, and the number of nodes the tree holds. */
int hs_mcts_root_visits(const hs_mcts_t *m);
long hs_mcts_tree_nodes(const hs_mcts_t *m);

/* The root position as the search holds it. */
const hs_board_t *hs_mcts_root_board(const hs_mcts_t *m);

#endif
