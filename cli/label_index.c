/*
 * cli/label_index.c — `hyeongse label`'s index.json and final summary
 * (cli/label_run.h; the fields are documented in docs/LABELS.md,
 * "index.json"). The file goes through index.json.tmp and a rename, so an
 * index.json that exists is a whole one, written after every shard it names.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/json.h"
#include "label_run.h"
#include "worker/judge.h"

void hs__label_reason_kind(const char *reason, char *kind, size_t cap)
{
    size_t n = strcspn(reason, ":");
    if (n >= cap)
        n = cap - 1;
    memcpy(kind, reason, n);
    kind[n] = '\0';
}

/* The reason kinds of status st and how many games gave each, in order of
 * first appearance (deterministic, as the games' order is). */
typedef struct s_kinds {
    char name[64][48];
    int count[64];
    int n, other;
} s_kinds_t;

static void s_count_kinds(const hs__label_run_t *run, int st, s_kinds_t *k)
{
    memset(k, 0, sizeof *k);
    for (int i = 0; i < run->n; i++) {
        if ((int)run->games[i].status != st)
            continue;
        char kind[48];
        hs__label_reason_kind(run->games[i].reason, kind, sizeof kind);
        int j = 0;
        while (j < k->n && strcmp(k->name[j], kind))
            j++;
        if (j == k->n && k->n == 64) {
            k->other++;   /* more kinds than a summary should list */
            continue;
        }
        if (j == k->n)
            snprintf(k->name[k->n++], sizeof k->name[0], "%s", kind);
        k->count[j]++;
    }
}

static const char *s_status_name(hs_label_status_t s)
{
    return s == HS_LABEL_OK ? "ok" : s == HS_LABEL_MISS ? "miss" : "skip";
}

static void s_write_game(FILE *f, const hs__label_run_t *run, int i)
{
    const hs__label_game_t *lg = &run->games[i];
    const hs_game_t *g = &lg->game;
    char res[16], lab[32], idhex[33];
    hs_result_format(&g->result, res);
    fprintf(f, "    {\"id\": %d, \"game_id\": \"%s\", \"source\": ", i, hs_game_id_hex(g, idhex));
    hs_json_string(f, lg->source);
    fprintf(f, ", \"index\": %d, \"size\": %d, \"split\": \"%s\", \"moves\": %d, \"rules\": ",
            lg->index, g->size, lg->val ? "val" : "train", g->num_moves);
    hs_json_string(f, hs_rules_get(hs_label_rules(g)).name);   /* as counted */
    fprintf(f, ", \"komi\": %g, \"result\": ", g->komi);
    hs_json_string(f, res);
    fprintf(f, ", \"status\": \"%s\", \"reason\": ", s_status_name(lg->status));
    if (lg->status == HS_LABEL_OK)
        fputs("null", f);
    else
        hs_json_string(f, lg->reason);
    fputs(", \"labelled\": ", f);
    if (lg->labelled) {
        hs_judge_result_string(lg->black_margin, lab);   /* as the label's reasons write it */
        hs_json_string(f, lab);
    } else {
        fputs("null", f);
    }
    fprintf(f, ", \"yose_moves\": %d, \"samples\": %d}%s\n", lg->yose_moves, lg->samples,
            i + 1 < run->n ? "," : "");
}

static void s_write_reasons(FILE *f, const hs__label_run_t *run)
{
    s_kinds_t *k = malloc(sizeof *k);
    fputs("\"reasons\": {", f);
    const char *sep = "";
    for (int st = HS_LABEL_MISS; k && st <= HS_LABEL_SKIP; st++) {
        s_count_kinds(run, st, k);
        for (int j = 0; j < k->n; j++) {
            fputs(sep, f);
            hs_json_string(f, k->name[j]);
            fprintf(f, ": %d", k->count[j]);
            sep = ", ";
        }
        if (k->other)
            fprintf(f, "%s\"%s-other\": %d", sep, st == HS_LABEL_MISS ? "miss" : "skip", k->other);
    }
    fputs("}", f);
    free(k);
}

static void s_write(FILE *f, const hs__label_run_t *run)
{
    const hs__label_opts_t *o = run->o;
    fprintf(f, "{\"format\": \"hyeongse-labels\", \"version\": 1, \"input_set\": %d, "
               "\"planes\": %d,\n \"every\": %d, \"visits\": %d, \"net\": ",
            (int)HS_NN_INPUT_HS_V1, HS_NN_SPATIAL, o->every, o->visits);
    if (o->net) {
        const char *base = strrchr(o->net, '/');
        hs_json_string(f, base ? base + 1 : o->net);
    } else {
        fputs("null", f);
    }
    fprintf(f, ", \"seed\": %llu, \"val_percent\": %d,\n \"shards\": [\n",
            (unsigned long long)o->seed, o->val_percent);
    for (int s = 0; s < run->nshards; s++) {
        const hs__label_shard_t *sh = &run->shards[s];
        fprintf(f, "    {\"file\": \"%s\", \"split\": \"%s\", \"size\": %d, \"samples\": %llu}%s\n",
                sh->file, sh->val ? "val" : "train", sh->size, (unsigned long long)sh->samples,
                s + 1 < run->nshards ? "," : "");
    }
    fputs(" ],\n \"games\": [\n", f);
    for (int i = 0; i < run->n; i++)
        s_write_game(f, run, i);
    fprintf(f, " ],\n \"summary\": {\"games\": %d, \"ok\": %d, \"miss\": %d, \"skip\": %d, "
               "\"samples_train\": %llu, \"samples_val\": %llu, \"other_sizes\": %d, ",
            run->n, run->ok, run->miss, run->skip, (unsigned long long)run->samples_train,
            (unsigned long long)run->samples_val, run->other_sizes);
    s_write_reasons(f, run);
    fprintf(f, ", \"seconds\": %.3f}}\n", run->seconds);
}

int hs__label_write_index(const hs__label_run_t *run, hs_error_t *err)
{
    char path[4096], tmp[4200];
    snprintf(path, sizeof path, "%s/index.json", run->o->out);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f)
        return hs_error_set(err, HS_EIO, "cannot write %s: %s", tmp, strerror(errno));
    s_write(f, run);
    bool bad = ferror(f) != 0;
    if (fflush(f) != 0 || fsync(fileno(f)) != 0)
        bad = true;
    if (fclose(f) != 0 || bad || rename(tmp, path) != 0) {
        int e = errno;
        remove(tmp);
        return hs_error_set(err, HS_EIO, "cannot write %s: %s", path, strerror(e));
    }
    return 0;
}

static void s_print_kinds(const hs__label_run_t *run, int st, FILE *out)
{
    s_kinds_t *k = malloc(sizeof *k);
    if (!k)
        return;
    s_count_kinds(run, st, k);
    for (int j = 0; j < k->n; j++)
        fprintf(out, "%s%s %d", j ? ", " : " (", k->name[j], k->count[j]);
    if (k->other)
        fprintf(out, ", other %d", k->other);
    fputs(k->n ? ")" : "", out);
    free(k);
}

void hs__label_print_summary(const hs__label_run_t *run, FILE *out)
{
    fprintf(out, "label: %d games in %.1f s: %d ok, %d miss", run->n, run->seconds, run->ok,
            run->miss);
    s_print_kinds(run, HS_LABEL_MISS, out);
    fprintf(out, ", %d skip", run->skip);
    s_print_kinds(run, HS_LABEL_SKIP, out);
    fprintf(out, "\n  samples  %llu train, %llu val, in %d shards\n",
            (unsigned long long)run->samples_train, (unsigned long long)run->samples_val,
            run->nshards);
    if (run->other_sizes)
        fprintf(out, "  %d games of other sizes left out (--size %d)\n", run->other_sizes,
                run->o->size);
    double t = run->seconds > 0 ? run->seconds : 1e-9;
    fprintf(out, "  rate     %.3f games/s, %.1f samples/s\n", run->n / t,
            (double)(run->samples_train + run->samples_val) / t);
    fprintf(out, "  index    %s/index.json\n", run->o->out);
}
