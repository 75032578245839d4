/*
 * worker/analysis.h — KataGo's analysis-engine protocol (`hyeongse
 * analysis`): JSON queries, one a line, on an input stream; JSON replies,
 * one a line, on an output stream; every open query searched at the same
 * time over ONE shared evaluator. docs/ANALYSIS_PROTOCOL.md lists every
 * field we read and write and every difference from KataGo.
 *
 * Threads. hs_analysis_run starts one reader thread: it reads lines,
 * parses them (core/json_read.h), answers what needs no search at once
 * (errors, warnings, query_version, clear_cache, query_models, the
 * acknowledgement of terminate) and puts each query's turns and each
 * terminate on a queue. The calling thread keeps every open (query, turn) as
 * an hs_mcts_t and drives up to max_active of them together with
 * hs_mcts_step_many, so that their leaves share the evaluator's batches;
 * when more turns wait than that, the highest priority goes first (ties:
 * the earlier query, then the earlier turn), as KataGo's queue orders them.
 * A turn's final reply is written as soon as its search is done. Output
 * lines are whole (one lock around each line) and flushed.
 *
 * End: at EOF on the input the open and queued queries are finished (or,
 * with quit_without_waiting, dropped without a reply, as KataGo drops
 * them), then hs_analysis_run returns 0. A turn terminated before any of
 * its root's moves had a visit is answered noResults.
 * A malformed line never stops the engine (it gets {"error":...}); only a
 * failed read of the input or an unusable configuration does.
 *
 * Perspective: worker/mcts.h reports Black's view; replies are turned to
 * report_as (KataGo's reportAnalysisWinratesAs: BLACK by default in its
 * analysis_example.cfg, also settable per query in overrideSettings).
 */
#ifndef HS_WORKER_ANALYSIS_H
#define HS_WORKER_ANALYSIS_H

#include <stdio.h>

#include "core/error.h"
#include "worker/mcts.h"

typedef enum hs_analysis_perspective {
    HS_ANALYSIS_BLACK = 0,   /* win rate, score, utility, ownership: Black's */
    HS_ANALYSIS_WHITE,       /* White's */
    HS_ANALYSIS_SIDE,        /* the side to move's (KataGo's SIDETOMOVE) */
} hs_analysis_perspective_t;

typedef struct hs_analysis_config {
    /* The search defaults of every query (maxVisits, threads = leaves in
     * flight per search, seed, ...); a query's maxVisits and
     * overrideSettings change its own copy. */
    hs_mcts_config_t search;
    hs_mcts_evaluator_t *eval;        /* borrowed; shared by every search */
    hs_analysis_perspective_t report_as;
    /* KataGo's ignorePreRootHistory (true in its analysis engine): the net
     * sees no moves from before the analysed position, only those the
     * search plays below it, so that an analysis depends on the position
     * and not on how the game reached it. Also settable per query. */
    bool ignore_pre_root_history;
    /* Searches stepped together; 0 = enough to fill the evaluator's batch
     * (max_batch / search.threads, at least 1). */
    int max_active;
    /* query_version's answer (NULL: HS_VERSION, "<omitted>"). */
    const char *version, *git_hash;
    /* query_models' answer: the net's file name, internal name and model
     * version (name NULL: no net, an empty "models" list). */
    const char *model_file, *model_name;
    int model_version;
    /* KataGo's warnUnusedFields: a warning for each unknown query field. */
    bool warn_unused_fields;
    /* KataGo's -quit-without-waiting: at EOF, the open and queued queries
     * end without a reply (KataGo closes its output at EOF and kills its
     * searches: what they would write is dropped) instead of being
     * finished. What was answered before EOF stays answered. */
    bool quit_without_waiting;
} hs_analysis_config_t;

/* Defaults: hs_mcts_config_default, eval NULL, report_as BLACK,
 * ignore_pre_root_history true, max_active 0, warn_unused_fields true, no
 * model. */
void hs_analysis_config_default(hs_analysis_config_t *cfg);

/* One of KataGo's search settings by its name, with its value as text (a
 * config file's or -override-config's, or a query override's turned to
 * text; NULL for a value that has none, such as a JSON array): the
 * budget (maxVisits, maxPlayouts, maxTime, numSearchThreads[PerAnalysis-
 * Thread]), the search constants of worker/mcts.h by KataGo's names, the
 * LCB settings, useNoisePruning, the subtree value bias and
 * ignorePreRootHistory, which goes to *ignore_pre_root_history, the rest
 * to *search. Returns 1 when applied, 0 for a name that is none of these
 * (left to the caller), -1 for a bad value (nothing changed). The one
 * reader of these names for both front ends (hs_analysis_run's queries and
 * `hyeongse analysis -config`). */
int hs_analysis_setting(const char *key, const char *value, hs_mcts_config_t *search,
                        bool *ignore_pre_root_history);

/* Rules as KataGo's Rules::parseRules reads them, one reading for both
 * front ends (an analysis query's "rules"; GTP's kata-set-rules and
 * loadsgf's RU): text[0..len) is a name (KataGo's spellings, any case,
 * then core/rules.h's own such as "tt"; "goe" and "ing" are tromp-taylor,
 * as KataGo reads them) or a JSON object ({"ko":"SIMPLE",...}, unset keys
 * tromp-taylor's). 0 with *id, and *komi with *has_komi set where the
 * object gives "komi"; HS_EUNSUPPORTED for rules KataGo has and we do not
 * (a button, a tax other than its scoring's, Spight ko, ...); HS_ENOTFOUND
 * for anything else; HS_ENOMEM. */
int hs_analysis_parse_rules(const char *text, size_t len, hs_rules_id_t *id, double *komi,
                            bool *has_komi);

/* Rule set id in KataGo's JSON form without komi (what its kata-get-rules
 * prints: Rules::toJsonStringNoKomi, keys in its order), into buf (160
 * bytes hold it); returns buf. hs_analysis_parse_rules reads it back to id
 * (korean as japanese: the same rules). */
const char *hs_analysis_rules_json(hs_rules_id_t id, char *buf, size_t cap);

/* x as KataGo's JSON (nlohmann's dump) writes a double, into buf (32
 * bytes hold any): the fewest significant digits that read back as x;
 * plain decimals from 1e-4 to below 1e15, with ".0" on whole numbers ("1.0",
 * "0.04", "100.0"), else "1e+20", "1.5e-05"; "null" when not finite. What
 * the analysis replies and GTP's kata-get-param print. Returns buf. */
const char *hs_analysis_json_double(double x, char *buf, size_t cap);

/* Runs the protocol on in/out until EOF on in and every query is answered.
 * 0; HS_EINVAL for a bad config (no evaluator, bad search config); HS_EIO
 * when the reader thread cannot start or in fails to read; HS_ENOMEM when
 * even the engine's own state cannot be had. in and out are used by this
 * call only (in by its reader thread, out under a lock). */
int hs_analysis_run(const hs_analysis_config_t *cfg, FILE *in, FILE *out, hs_error_t *err);

#endif
