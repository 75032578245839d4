/*
 * cli/main.c — the `hyeongse` program: finds the subcommand and runs it.
 *
 * Subcommands live one per file, cli/cmd_NAME.c, each defining
 * `int hs_cmd_NAME(int argc, char **argv)` (argv[0] is the subcommand name; the
 * return value is the process exit status) and a one-line `hs_cmd_NAME_summary`.
 * The table below is generated from those file names by cli/CMakeLists.txt, so
 * adding a command never touches this file. This front end is the only place
 * that wires the libraries together. `--config FILE` is read here, for every
 * command (cli/config.h). Before any of that, main settles how long the
 * OpenMP threads of the cpu net backend spin (s_omp_spin_settle).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"

#define HS_COMMAND(name)                                                       \
    int hs_cmd_##name(int argc, char **argv);                                  \
    extern const char hs_cmd_##name##_summary[];
#include "commands.inc"
#undef HS_COMMAND

typedef struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} hs_command_entry_t;

static const hs_command_entry_t s_commands[] = {
#define HS_COMMAND(name) { #name, hs_cmd_##name, hs_cmd_##name##_summary },
#include "commands.inc"
#undef HS_COMMAND
};

static void s_usage(FILE *out)
{
    fprintf(out,
            "usage: hyeongse [--version] [--help] <command> [<args>]\n\n"
            "Judges every position of large Go game-record archives.\n\n"
            "Commands:\n");
    for (size_t i = 0; i < sizeof s_commands / sizeof s_commands[0]; i++)
        fprintf(out, "  %-10s %s\n", s_commands[i].name, s_commands[i].summary);
    fprintf(out, "\nRun `hyeongse <command> --help` for the options of one command.\n");
}

/* Runs a command with its --config files read into its arguments (cli/config.h):
 * here, once, so that every command has the option without parsing it. */
static int s_run(const hs_command_entry_t *c, int argc, char **argv)
{
    hs_cli_argv_t a;
    int status = hs__cli_config_expand(c->name, c->run, argc, argv, &a);
    if (status)
        return status;
    status = c->run(a.argc, a.argv);
    hs__cli_config_free(&a);
    return status;
}

/* Debian's oneDNN runs on GNU OpenMP, whose idle threads spin some 300,000
 * rounds at every barrier before they sleep. On a machine busy with other
 * work that spinning takes the time slices the team's one working thread
 * needs: beside two busy processes on 2 cores, a 200-visit genmove took 13x
 * its quiet time (KataGo: 2.2x). 10,000 rounds cost nothing measurable on a
 * quiet machine and keep the loaded genmove near KataGo's (docs/PERF.md,
 * "A busy machine"). libgomp reads its settings once, as it is loaded, before
 * main: so the program sets the variable and runs itself again, once, unless
 * the user chose a spin count or a wait policy. If exec fails it goes on with
 * the runtime's default: slower on a busy machine, never wrong. */
static void s_omp_spin_settle(char **argv)
{
    if (getenv("GOMP_SPINCOUNT") || getenv("OMP_WAIT_POLICY"))
        return;
    if (setenv("GOMP_SPINCOUNT", "10000", 1) == 0)
        execv("/proc/self/exe", argv);
}

int main(int argc, char **argv)
{
    s_omp_spin_settle(argv);
    if (argc < 2) {
        s_usage(stderr);
        return 2;
    }
    const char *name = argv[1];
    if (!strcmp(name, "--help") || !strcmp(name, "-h") || !strcmp(name, "help")) {
        if (argc >= 3 && strcmp(name, "help") == 0) {
            for (size_t i = 0; i < sizeof s_commands / sizeof s_commands[0]; i++)
                if (!strcmp(s_commands[i].name, argv[2])) {
                    char *args[] = { argv[2], "--help", NULL };
                    return s_commands[i].run(2, args);
                }
        }
        s_usage(stdout);
        return 0;
    }
    if (!strcmp(name, "--version") || !strcmp(name, "version")) {
        printf("hyeongse %s\n", HS_VERSION);
        return 0;
    }
    for (size_t i = 0; i < sizeof s_commands / sizeof s_commands[0]; i++)
        if (!strcmp(s_commands[i].name, name))
            return s_run(&s_commands[i], argc - 1, argv + 1);
    fprintf(stderr, "hyeongse: '%s' is not a command. See 'hyeongse --help'.\n", name);
    return 2;
}
