/* main: the replayd command line. One table of commands, each with its
 * synopsis and help; `--help` and `--version` for the program and for every
 * command. `serve` runs the daemon; the others are tools for operators and
 * client teams. Exit status: 0 success, 1 runtime failure, 2 usage error or
 * bad input (see cli.h). */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/serve.h"

#ifndef REPLAYD_VERSION
#error "REPLAYD_VERSION comes from the VERSION file, through the Makefile"
#endif

#define CONFIG_OPTIONS                                                                    \
    "  --config FILE       read settings from FILE (key = value lines; replayd(8))\n"     \
    "  --data DIR          data_dir: the SQLite database and the key files\n"             \
    "  --listen ADDR:PORT  listen_addr and port\n"                                        \
    "  --set KEY=VALUE     any setting; flags override the file wherever they appear\n"

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *synopsis; /* the arguments after "replayd NAME" */
    const char *summary;  /* one line for the command list */
    const char *help;     /* what --help adds under the synopsis */
    bool has_version_option; /* gen, replay: --version V is a spec version */
} command;

static const command commands[] = {
    { "serve", cmd_serve, "[--config FILE] [--listen ADDR:PORT] [--data DIR] [--set KEY=VALUE]...",
      "run the HTTP server",
      "Serves until SIGTERM or SIGINT, which drain in-flight requests and close the\n"
      "database cleanly.\n\n" CONFIG_OPTIONS,
      false },
    { "keygen", cmd_keygen, "[--retire ID] [--config FILE] [--data DIR]",
      "add the next key id (rotation), or retire one",
      "Adds key id N+1 (MAC and signing keys) in DATA/keys; a restart makes it\n"
      "current, and older ids keep verifying.\n\n"
      "  --retire ID   delete key ID's private keys but keep its public key, with\n"
      "                its validity window, in /v1/keys for ever (its receipts stay\n"
      "                verifiable; its seed tokens are refused from the next start).\n"
      "                Not the current key: add its successor and restart first.\n\n" CONFIG_OPTIONS,
      false },
    { "migrate", cmd_migrate, "[--config FILE] [--data DIR]", "apply schema migrations and exit",
      "Creates or upgrades DATA/replayd.db and prints {\"schema_version\":N}.\n\n" CONFIG_OPTIONS,
      false },
    { "reverify", cmd_reverify,
      "[--game GAME] [--since YYYY-MM-DD] [--jobs N] [--config FILE] [--data DIR]",
      "replay every stored score again and report any that changed",
      "Replays every stored score's moves, under the spec version it was recorded\n"
      "under, on the level rebuilt from its game, level and seed, with this binary;\n"
      "its receipt is checked with the public keys in DATA/keys. A score whose moves\n"
      "hash, score, completion or result differ from the record, or whose receipt\n"
      "does not verify, is printed as one JSON line on stdout (in the order received),\n"
      "then one summary line {\"checked\",\"divergent\",\"receipts_checked\",...}.\n"
      "Progress goes to stderr about once a second. Safe while the server runs (it\n"
      "only reads).\n\n"
      "  --game GAME         only that game's scores\n"
      "  --since YYYY-MM-DD  only scores received on or after that date (UTC)\n"
      "  --jobs N            threads replaying at once (1..64; default: the CPUs)\n" CONFIG_OPTIONS,
      false },
    { "gen", cli_gen, "GAME LEVEL SEED [--version V]", "print a generated level as JSON",
      "Builds level LEVEL of GAME from SEED (0..4294967295) as the server would.\n\n"
      "  --version V   the game's spec version V (default: its newest)\n",
      true },
    { "replay", cli_replay, "GAME LEVEL SEED [--version V] < {\"moves\":[...]}",
      "replay moves and print the result as JSON",
      "Replays the moves read from stdin on that level, as a submission would be,\n"
      "and prints the result, every move's outcome and the final board.\n\n"
      "  --version V   the game's spec version V (default: its newest)\n",
      true },
    { "daily", cli_daily, "YYYY-MM-DD [--game GAME]", "print a date's daily challenge as JSON",
      "Prints the catalogue daily of that date (game, level, seed), or with\n"
      "--game the seed GAME's own daily uses on that date.\n\n"
      "  --game GAME   that game's daily seed instead\n",
      false },
};
#define N_COMMANDS (sizeof commands / sizeof commands[0])

static const char exit_codes[] =
    "Exit status: 0 success, 1 runtime failure, 2 usage error or bad input.\n"
    "reverify: 3 when a stored score no longer replays to its record.\n";

static void usage(FILE *to)
{
    fputs("usage: replayd COMMAND [ARGUMENTS]\n"
          "       replayd COMMAND --help\n"
          "       replayd --help | --version\n\ncommands:\n",
          to);
    for (size_t i = 0; i < N_COMMANDS; i++)
        fprintf(to, "  %-8s %s\n", commands[i].name, commands[i].summary);
    fprintf(to, "\n%s", exit_codes);
}

static void command_help(const command *c)
{
    printf("usage: replayd %s %s\n\n%s\n%s", c->name, c->synopsis, c->help, exit_codes);
}

static int version(void)
{
    printf("replayd %s\n", REPLAYD_VERSION);
    return 0;
}

static bool is_help(const char *arg)
{
    return strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0;
}

/* --help anywhere asks for help. --version asks for replayd's version
 * anywhere too, except where gen and replay read it as a spec version:
 * there only in first place, where GAME would be. */
static int run_command(const command *c, int argc, char **argv)
{
    for (int i = 0; i < argc; i++) {
        if (is_help(argv[i])) {
            command_help(c);
            return 0;
        }
        if (strcmp(argv[i], "--version") == 0 && (!c->has_version_option || i == 0))
            return version();
    }
    int rc = c->run(argc, argv);
    if (rc == CLI_USAGE) {
        fprintf(stderr, "usage: replayd %s %s\n", c->name, c->synopsis);
        rc = EXIT_BAD_INPUT;
    }
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return EXIT_BAD_INPUT;
    }
    const char *name = argv[1];
    if (is_help(name) || strcmp(name, "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(name, "--version") == 0)
        return version();
    for (size_t i = 0; i < N_COMMANDS; i++)
        if (strcmp(name, commands[i].name) == 0)
            return run_command(&commands[i], argc - 2, argv + 2);
    fprintf(stderr, "replayd: unknown command \"%s\"\n", name);
    usage(stderr);
    return EXIT_BAD_INPUT;
}
