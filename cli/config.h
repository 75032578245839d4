/*
 * cli/config.h — `--config FILE` for every command: a file of options, one
 * "option value" (or "option = value") a line, read into the command line.
 *
 * The file's options go BEFORE the command line's own arguments, so that an
 * option given on both takes the command line's value (every command keeps
 * the last one given; a repeatable option such as `broker --workers` gets
 * both). Names are the long options without "--"; a flag takes "true" (given)
 * or "false" (left out); a value runs to the end of the line (it may hold
 * spaces; trailing blanks are cut); a line whose first non-blank character is
 * '#' is a comment ('#' elsewhere belongs to the value: Z85 keys hold it).
 * Several --config options are read in order. An option the command does not
 * document in its --help is an error naming FILE:LINE: that text is the one
 * list of a command's options, so nothing else has to be kept in step.
 */
#ifndef HS_CLI_CONFIG_H
#define HS_CLI_CONFIG_H

/* A command's entry point (cli/main.c). */
typedef int (*hs_cli_run_fn)(int argc, char **argv);

/* A command line with its config files read: argv is malloc'd, as are the
 * strings it adds; free with hs__cli_config_free. */
typedef struct hs_cli_argv {
    int argc;
    char **argv;
    char **owned;              /* the strings this struct allocated */
    int n_owned;
} hs_cli_argv_t;

/*
 * Reads every --config FILE (or --config=FILE) of argv[1..] into *out:
 * argv[0], the files' options, then the other arguments as given. Without
 * --config, *out is a copy of the command line. run answers `--help` with
 * the options the command knows (its stdout is captured for that).
 * Returns 0, or 2 (the exit status) after printing
 * "hyeongse CMD: FILE:LINE: reason".
 */
int hs__cli_config_expand(const char *cmd, hs_cli_run_fn run, int argc, char **argv,
                          hs_cli_argv_t *out);

void hs__cli_config_free(hs_cli_argv_t *a);

#endif
