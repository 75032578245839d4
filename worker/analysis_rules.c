/*
 * worker/analysis_rules.c — a query's "rules" (KataGo's names, or its JSON
 * object form) and "overrideSettings", mapped onto what core/rules.h and
 * worker/mcts.h can do.
 *
 * Rules: KataGo has more rule sets than core/rules.h (the button, the "tax"
 * of stone scoring, Spight ko). A name or object that lands exactly on one
 * of our six is taken; anything else is an error, not a silent nearest
 * match, because the net and the counting would then answer a different
 * question than the one asked. KataGo's "chinese" has simple ko where ours
 * has positional superko: it is read as our chinese (the difference shows
 * only in superko cycles), and docs/ANALYSIS_PROTOCOL.md says so.
 *
 * GTP reads rules here too (kata-set-rules, loadsgf's RU, through
 * hs_analysis_parse_rules), so that a name means one rule set in both
 * front ends, and kata-get-rules prints KataGo's JSON form from here.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <strings.h>

#include "worker/analysis_internal.h"

typedef struct s_alias {
    const char *name;
    hs_rules_id_t id;
} s_alias_t;

/* KataGo's spellings (lowercased, trimmed) of the rule sets we have. */
static const s_alias_t s_aliases[] = {
    { "japanese", HS_RULES_JAPANESE }, { "korean", HS_RULES_KOREAN },
    { "chinese", HS_RULES_CHINESE }, { "chinese-ogs", HS_RULES_CHINESE },
    { "chinese_ogs", HS_RULES_CHINESE }, { "chineseogs", HS_RULES_CHINESE },
    { "chinese-kgs", HS_RULES_CHINESE }, { "chinese_kgs", HS_RULES_CHINESE },
    { "chinesekgs", HS_RULES_CHINESE }, { "aga", HS_RULES_AGA }, { "bga", HS_RULES_AGA },
    { "french", HS_RULES_AGA }, { "nz", HS_RULES_NEW_ZEALAND },
    { "newzealand", HS_RULES_NEW_ZEALAND }, { "new zealand", HS_RULES_NEW_ZEALAND },
    { "new-zealand", HS_RULES_NEW_ZEALAND }, { "new_zealand", HS_RULES_NEW_ZEALAND },
    { "tromp-taylor", HS_RULES_TROMP_TAYLOR }, { "tromp_taylor", HS_RULES_TROMP_TAYLOR },
    { "tromp taylor", HS_RULES_TROMP_TAYLOR }, { "tromptaylor", HS_RULES_TROMP_TAYLOR },
    { "goe", HS_RULES_TROMP_TAYLOR }, { "ing", HS_RULES_TROMP_TAYLOR },
};

/* KataGo's names of rule sets core/rules.h does not have. */
static const char *const s_theirs[] = {
    "stonescoring", "stone-scoring", "stone_scoring", "stone scoring", "ancientarea",
    "ancient-area", "ancient_area", "ancient area", "ancientterritory", "ancient-territory",
    "ancient_territory", "ancient territory", "agabutton", "aga-button", "aga_button",
    "aga button", NULL
};

/* 0, HS_EUNSUPPORTED (KataGo's name of a rule set we lack), HS_ENOTFOUND. */
static int s_name(const char *s, hs_rules_id_t *out)
{
    while (isspace((unsigned char)*s))
        s++;
    char low[32];
    size_t n = 0;
    for (; s[n] && n + 1 < sizeof low; n++)
        low[n] = (char)tolower((unsigned char)s[n]);
    if (s[n])
        return HS_ENOTFOUND;
    while (n && isspace((unsigned char)low[n - 1]))
        n--;
    low[n] = '\0';
    for (size_t i = 0; i < sizeof s_aliases / sizeof *s_aliases; i++)
        if (!strcmp(low, s_aliases[i].name)) {
            *out = s_aliases[i].id;
            return 0;
        }
    for (int i = 0; s_theirs[i]; i++)
        if (!strcmp(low, s_theirs[i]))
            return HS_EUNSUPPORTED;
    /* core/rules.h's own short names ("tt", "jp", "cn", ...), which GTP's
     * kata-set-rules took before it read KataGo's: KataGo's spellings come
     * first, so a name both know means what KataGo means ("goe", "ing") */
    hs_rules_t r;
    if (hs_rules_from_name(low, &r) == 0) {
        *out = r.id;
        return 0;
    }
    return HS_ENOTFOUND;
}

/* The object form, as KataGo reads it: unspecified keys default to
 * tromp-taylor's (positional ko, area, no tax, suicide, no button, no
 * handicap bonus). */
typedef struct s_obj {
    char ko, scoring, tax;     /* 'S'imple/'P'ositional/'T'situational; 'A'/'T'; 'N'/'S'eki/'A'll */
    bool suicide, button;
    int whb;                   /* 0, 1 = N, 2 = N-1 */
} s_obj_t;

static const struct {
    s_obj_t r;
    hs_rules_id_t id;
} s_objs[] = {
    { { 'S', 'T', 'S', false, false, 0 }, HS_RULES_JAPANESE },
    { { 'S', 'A', 'N', false, false, 1 }, HS_RULES_CHINESE },
    { { 'P', 'A', 'N', false, false, 1 }, HS_RULES_CHINESE },
    { { 'T', 'A', 'N', false, false, 2 }, HS_RULES_AGA },
    { { 'T', 'A', 'N', true, false, 0 }, HS_RULES_NEW_ZEALAND },
    { { 'P', 'A', 'N', true, false, 0 }, HS_RULES_TROMP_TAYLOR },
};

static bool s_pick(const char *s, const char *const *words, const char *codes, char *out)
{
    for (int i = 0; words[i]; i++)
        if (!strcmp(s, words[i])) {
            *out = codes[i];
            return true;
        }
    return false;
}

/* One member of the object; false when its value cannot be read. */
static bool s_obj_member(const hs_json_t *m, s_obj_t *r, double *komi, bool *has_komi)
{
    static const char *const ko[] = { "SIMPLE", "POSITIONAL", "SITUATIONAL", NULL };
    static const char *const sc[] = { "AREA", "TERRITORY", NULL };
    static const char *const tax[] = { "NONE", "SEKI", "ALL", NULL };
    static const char *const whb[] = { "0", "N", "N-1", NULL };
    const char *s = NULL;
    char c;
    if (!strcmp(m->key, "ko"))
        return hs_json_str(m, &s) && s_pick(s, ko, "SPT", &r->ko);
    if (!strcmp(m->key, "score") || !strcmp(m->key, "scoring"))
        return hs_json_str(m, &s) && s_pick(s, sc, "AT", &r->scoring);
    if (!strcmp(m->key, "tax"))
        return hs_json_str(m, &s) && s_pick(s, tax, "NSA", &r->tax);
    if (!strcmp(m->key, "suicide"))
        return hs_json_bool(m, &r->suicide);
    if (!strcmp(m->key, "hasButton"))
        return hs_json_bool(m, &r->button);
    if (!strcmp(m->key, "friendlyPassOk")) {
        bool ignored;   /* the end of the game is not ours to judge here */
        return hs_json_bool(m, &ignored);
    }
    if (!strcmp(m->key, "whiteHandicapBonus")) {
        if (!hs_json_str(m, &s) || !s_pick(s, whb, "012", &c))
            return false;
        r->whb = c - '0';
        return true;
    }
    if (!strcmp(m->key, "komi")) {
        *has_komi = true;
        return hs_json_double(m, -400, 400, komi);
    }
    return false;
}

int hs__arules(const hs_json_t *v, hs_rules_id_t *id, double *komi, bool *has_komi)
{
    const char *s;
    *has_komi = false;
    if (hs_json_str(v, &s))
        return s_name(s, id);
    if (!v || v->type != HS_JSON_OBJECT)
        return HS_EINVAL;
    s_obj_t r = { 'P', 'A', 'N', true, false, 0 };
    bool tax_given = false;
    for (const hs_json_t *m = v->child; m; m = m->next) {
        if (!s_obj_member(m, &r, komi, has_komi))
            return HS_ENOTFOUND;
        tax_given |= !strcmp(m->key, "tax");
    }
    /* KataGo: territory scoring without a tax given means the seki tax. */
    if (!tax_given && r.scoring == 'T')
        r.tax = 'S';
    for (size_t i = 0; i < sizeof s_objs / sizeof *s_objs; i++)
        if (!memcmp(&s_objs[i].r.ko, &r.ko, 3) && s_objs[i].r.suicide == r.suicide
            && s_objs[i].r.button == r.button && s_objs[i].r.whb == r.whb) {
            *id = s_objs[i].id;
            return 0;
        }
    return HS_EUNSUPPORTED;
}

int hs_analysis_parse_rules(const char *text, size_t len, hs_rules_id_t *id, double *komi,
                            bool *has_komi)
{
    size_t k = 0;
    while (k < len && isspace((unsigned char)text[k]))
        k++;
    *has_komi = false;
    if (k == len || text[k] != '{') {
        char name[32];
        if (len - k >= sizeof name || memchr(text + k, '\0', len - k))
            return HS_ENOTFOUND;
        memcpy(name, text + k, len - k);
        name[len - k] = '\0';
        return s_name(name, id);
    }
    hs_json_doc_t *d = NULL;
    hs_error_t err;
    int rc = hs_json_parse(text, len, NULL, &d, &err);
    if (rc)
        return rc == HS_ENOMEM ? rc : HS_ENOTFOUND;
    const hs_json_t *v = hs_json_root(d);
    rc = v->type == HS_JSON_OBJECT ? hs__arules(v, id, komi, has_komi) : HS_ENOTFOUND;
    hs_json_free(&d);
    return rc;
}

const char *hs_analysis_rules_json(hs_rules_id_t id, char *buf, size_t cap)
{
    static const char *const ko[] = { "SIMPLE", "POSITIONAL", "SITUATIONAL" };
    hs_rules_t r = hs_rules_get(id);
    bool area = r.scoring == HS_SCORING_AREA;
    /* KataGo's sets: territory scoring taxes seki; friendlyPassOk is
     * false in its tromp-taylor only (we read it and ignore it) */
    snprintf(buf, cap,
             "{\"friendlyPassOk\":%s,\"hasButton\":false,\"ko\":\"%s\",\"scoring\":\"%s\","
             "\"suicide\":%s,\"tax\":\"%s\",\"whiteHandicapBonus\":\"%s\"}",
             id == HS_RULES_TROMP_TAYLOR ? "false" : "true", ko[r.ko],
             area ? "AREA" : "TERRITORY", r.suicide_legal ? "true" : "false",
             area ? "NONE" : "SEKI",
             r.handicap_bonus_offset == 0 ? "N" : r.handicap_bonus_offset == 1 ? "N-1" : "0");
    return buf;
}

int hs__awhb(const char *s, hs_rules_id_t id)
{
    hs_rules_t r = hs_rules_get(id);
    /* core/rules.h: offset 0 = N, 1 = N-1, -1 = none. */
    const char *ours = r.handicap_bonus_offset == 0 ? "N"
                     : r.handicap_bonus_offset == 1 ? "N-1" : "0";
    if (strcmp(s, "0") && strcmp(s, "N") && strcmp(s, "N-1"))
        return HS_EINVAL;
    return strcmp(s, ours) ? HS_EUNSUPPORTED : 0;
}

/* A setting's text as a number in lo..hi. */
static bool s_num(const char *v, double lo, double hi, double *out)
{
    char *end;
    double x = v ? strtod(v, &end) : 0;
    if (!v || end == v || *end || !(x >= lo && x <= hi))
        return false;
    *out = x;
    return true;
}

/* A setting's text as a flag: "true" / "false", any case. */
static bool s_flag(const char *v, bool *out)
{
    if (!v || (strcasecmp(v, "true") && strcasecmp(v, "false")))
        return false;
    *out = !strcasecmp(v, "true");
    return true;
}

/* A switch for a setting's strength *slot (see hs_analysis_setting); 1, or
 * -1 for a value that is not a flag. */
static int s_switch(const char *v, double *slot, double on_value)
{
    bool on;
    if (!s_flag(v, &on))
        return -1;
    if (!on)
        *slot = 0;
    else if (!(*slot > 0))
        *slot = on_value;
    return 1;
}

int hs_analysis_setting(const char *key, const char *value, hs_mcts_config_t *c,
                        bool *ignore_pre_root_history)
{
    double x;
    bool on;
    if (!strcmp(key, "ignorePreRootHistory")) {
        if (!s_flag(value, &on))
            return -1;
        *ignore_pre_root_history = on;
        return 1;
    }
    /* KataGo's switches whose strength is a number of ours: false sets it
     * to 0, true to KataGo's default unless a value is set already */
    if (!strcmp(key, "useLcbForSelection"))
        return s_switch(value, &c->lcb_stdevs, 5.0);
    if (!strcmp(key, "useNoisePruning"))
        return s_switch(value, &c->noise_prune_utility, 0.15);
    if (!strcmp(key, "useGraphSearch")) {
        if (!s_flag(value, &on))
            return -1;
        c->graph_search = on;
        return 1;
    }
    if (!strcmp(key, "rootSymmetryPruning")) {
        if (!s_flag(value, &on))
            return -1;
        c->root_symmetry_pruning = on;
        return 1;
    }
    static const char *const ints[] = { "maxVisits", "maxPlayouts", "numSearchThreads",
                                        "numSearchThreadsPerAnalysisThread", NULL };
    for (int i = 0; ints[i]; i++)
        if (!strcmp(key, ints[i])) {
            /* threads: worker/mcts.h takes 1..4096 */
            if (!s_num(value, 1, i < 2 ? 1 << 30 : 4096, &x) || x != (int)x)
                return -1;
            *(i == 0 ? &c->max_visits : i == 1 ? &c->max_playouts : &c->threads) = (int)x;
            return 1;
        }
    /* proportions and exponents, 0..1 */
    static const char *const props[] = { "minVisitPropForLCB", "subtreeValueBiasFactor",
                                         "subtreeValueBiasWeightExponent",
                                         "subtreeValueBiasFreeProp", NULL };
    double *prop[] = { &c->lcb_min_visit_prop, &c->subtree_bias, &c->subtree_bias_exponent,
                       &c->subtree_bias_free };
    for (int i = 0; props[i]; i++)
        if (!strcmp(key, props[i]))
            return s_num(value, 0, 1, prop[i]) ? 1 : -1;
    if (!strcmp(key, "rootNumSymmetriesToSample")) {   /* KataGo's range */
        if (!s_num(value, 1, 8, &x) || x != (int)x)
            return -1;
        c->root_symmetries = (int)x;
        return 1;
    }
    if (!strcmp(key, "wideRootNoise"))   /* KataGo's range */
        return s_num(value, 0, 5, &c->wide_root_noise) ? 1 : -1;
    if (!strcmp(key, "rootPolicyTemperature"))   /* KataGo's range */
        return s_num(value, 0.01, 100, &c->root_policy_temperature) ? 1 : -1;
    if (!strcmp(key, "winLossUtilityFactor"))
        return s_num(value, 0, 100, &c->win_loss_utility) ? 1 : -1;
    /* the first three must be > 0 (worker/mcts.h) */
    static const char *const dbls[] = { "cpuctExploration", "dynamicScoreCenterScale",
                                        "cpuctExplorationBase", "maxTime",
                                        "fpuReductionMax", "staticScoreUtilityFactor",
                                        "dynamicScoreUtilityFactor", "cpuctUtilityStdevScale",
                                        "rootFpuReductionMax", "valueWeightExponent",
                                        "noisePruneUtilityScale", "cpuctExplorationLog",
                                        "lcbStdevs", "confirmStdevs", NULL };
    double *slot[] = { &c->net_cpuct, &c->dyn_score_scale, &c->net_cpuct_base, &c->max_time,
                       &c->fpu_reduction, &c->score_utility, &c->dyn_score_utility,
                       &c->cpuct_stdev_scale, &c->root_fpu_reduction, &c->value_weight_exponent,
                       &c->noise_prune_utility, &c->net_cpuct_log, &c->lcb_stdevs,
                       &c->confirm_stdevs };
    for (int i = 0; dbls[i]; i++)
        if (!strcmp(key, dbls[i])) {
            if (!s_num(value, i < 3 ? 1e-9 : 0, 1e9, &x))
                return -1;
            *slot[i] = x;
            if (i == 0)
                c->cpuct = x;   /* KataGo's one constant: the rollout search's too */
            return 1;
        }
    return 0;
}

static bool s_perspective(const hs_json_t *v, hs_analysis_perspective_t *out)
{
    const char *s;
    if (!hs_json_str(v, &s))
        return false;
    if (!strcasecmp(s, "BLACK") || !strcasecmp(s, "b"))
        *out = HS_ANALYSIS_BLACK;
    else if (!strcasecmp(s, "WHITE") || !strcasecmp(s, "w"))
        *out = HS_ANALYSIS_WHITE;
    else if (!strcasecmp(s, "SIDETOMOVE"))
        *out = HS_ANALYSIS_SIDE;
    else
        return false;
    return true;
}

/* One setting; 1 applied, 0 unknown, -1 known but its value is bad. Its
 * value is read as text, as KataGo turns every override into text first: a
 * string's own, a number as written, a flag as true / false. */
static int s_setting(const hs_json_t *m, hs__aquery_t *q)
{
    if (!strcmp(m->key, "reportAnalysisWinratesAs"))
        return s_perspective(m, &q->report_as) ? 1 : -1;
    const char *text = NULL;
    bool flag;
    if (m->type == HS_JSON_STRING || m->type == HS_JSON_NUMBER)
        text = m->str;
    else if (hs_json_bool(m, &flag))
        text = flag ? "true" : "false";
    return hs_analysis_setting(m->key, text, &q->cfg, &q->ignore_pre_root_history);
}

int hs__asettings(const hs_json_t *v, hs__aquery_t *q, char *unknown, size_t cap,
                  const char **bad)
{
    unknown[0] = '\0';
    size_t used = 0;
    for (const hs_json_t *m = v->child; m; m = m->next) {
        int rc = s_setting(m, q);
        if (rc < 0) {
            *bad = m->key;
            return HS_EINVAL;
        }
        if (rc == 0) {
            int n = snprintf(unknown + used, cap - used, "%s%s", used ? "," : "", m->key);
            if (n > 0 && (size_t)n < cap - used)
                used += (size_t)n;
        }
    }
    return 0;
}
