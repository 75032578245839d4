/*
 * cli/args.h — reading numbers from the command line, one way for every
 * subcommand.
 *
 * atoi() read "abc" as 0 and "99999999999" as whatever fit, so options such as
 * `--threads 0`, `--limit abc` or `--move -5` went through as something the user
 * never asked for. Every numeric option goes through here instead: a whole
 * decimal number in its range, or a message that names the command, the option,
 * the range and the text, and the caller exits 2.
 */
#ifndef HS_CLI_ARGS_H
#define HS_CLI_ARGS_H

/* Reads text as a whole decimal number in lo..hi into *out: 0. Anything else
 * ("", "abc", "1e20", "3x", out of range, NULL) prints
 * "hyeongse CMD: OPT needs a whole number LO..HI, not 'TEXT'" on stderr (">= LO"
 * when hi is LONG_MAX) and returns -1, leaving *out as it was. */
int hs__cli_long(const char *cmd, const char *opt, const char *text, long lo, long hi,
                 long *out);

/* hs__cli_long for an int option (lo and hi within int). */
int hs__cli_int(const char *cmd, const char *opt, const char *text, int lo, int hi, int *out);

#endif
