/*
 * cli/args.h — reading numbers (and checking input paths) from the command
 * line, one way for every subcommand.
 *
 * atoi() read "abc" as 0 and "99999999999" as whatever fit, so options such as
 * `--threads 0`, `--limit abc` or `--move -5` went through as something the user
 * never asked for (and strtoull reads "-1" as the largest seed, strtod "nan" as
 * a komi). Every numeric option goes through here instead: a whole decimal
 * number, or a finite real one where fractions make sense, in its range; or a
 * message that names the command, the option, the range and the text, and the
 * caller exits 2.
 */
#ifndef HS_CLI_ARGS_H
#define HS_CLI_ARGS_H

#include <stdint.h>

/* Reads text as a whole decimal number in lo..hi into *out: 0. Anything else
 * ("", "abc", "1e20", "3x", out of range, NULL) prints
 * "hyeongse CMD: OPT needs a whole number LO..HI, not 'TEXT'" on stderr (">= LO"
 * when hi is LONG_MAX) and returns -1, leaving *out as it was. */
int hs__cli_long(const char *cmd, const char *opt, const char *text, long lo, long hi,
                 long *out);

/* hs__cli_long for an int option (lo and hi within int). */
int hs__cli_int(const char *cmd, const char *opt, const char *text, int lo, int hi, int *out);

/* Reads text as a whole decimal number 0..UINT64_MAX (a seed) into *out: 0.
 * Anything else ("-1", "1e3", "", out of range) prints "hyeongse CMD: OPT needs a
 * whole number >= 0, not 'TEXT'" and returns -1, leaving *out as it was. */
int hs__cli_u64(const char *cmd, const char *opt, const char *text, uint64_t *out);

/* Reads text as a job id (digits only, 1..UINT64_MAX) into *out: 0. Anything
 * else ("0", "-1", "abc", past 2^64) prints "hyeongse CMD: bad job id 'TEXT'
 * ..." and returns -1: strtoull would read "-1" and an overflow as the largest
 * id, which the broker then calls "no such job". */
int hs__cli_job_id(const char *cmd, const char *text, uint64_t *out);

/* Reads text as a finite number in lo..hi (decimals and exponents allowed: "7.5",
 * "1e-3") into *out: 0. Anything else ("abc", "nan", "inf", out of range) prints
 * "hyeongse CMD: OPT needs a number LO..HI, not 'TEXT'" (LO and HI in plain digits
 * up to 15 of them: 1000000, not 1e+06) and returns -1. */
int hs__cli_double(const char *cmd, const char *opt, const char *text, double lo, double hi,
                   double *out);

/* hs__cli_double for a komi: |komi| at most what a game on the wire may carry
 * (HS_WIRE_MAX_KOMI, 1000 points). */
int hs__cli_komi(const char *cmd, const char *text, double *out);

/* Checks that every input path on the command line exists before any work
 * starts, so that a typo is an error at once rather than a job (or a report) of
 * one failed file. Prints "hyeongse CMD: PATH: reason" for each missing one;
 * returns 0 or -1. */
int hs__cli_check_paths(const char *cmd, char *const *paths, int npaths);

#endif
