/* main: the replayd command line. `serve` runs the daemon; the other
 * commands are offline tools for operators and client teams. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "serve.h"

static void usage(FILE *to)
{
    fputs("usage: replayd serve [--config FILE] [--listen ADDR:PORT] [--data DIR] [--set KEY=VALUE]\n"
          "       replayd keygen [--data DIR]    add a new signing/MAC key id (rotation)\n"
          "       replayd migrate [--data DIR]   apply schema migrations and exit\n"
          "       replayd gen GAME LEVEL SEED [--version V]\n"
          "       replayd replay GAME LEVEL SEED [--version V] < {\"moves\":[...]}\n"
          "       replayd daily YYYY-MM-DD [--game GAME]\n",
          to);
}

int main(int argc, char **argv)
{
    const char *cmd = argc < 2 ? "" : argv[1];
    if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(cmd, "serve") == 0)
        return cmd_serve(argc - 2, argv + 2);
    if (strcmp(cmd, "keygen") == 0)
        return cmd_keygen(argc - 2, argv + 2);
    if (strcmp(cmd, "migrate") == 0)
        return cmd_migrate(argc - 2, argv + 2);
    if (strcmp(cmd, "gen") == 0)
        return cli_gen(argc - 2, argv + 2);
    if (strcmp(cmd, "replay") == 0)
        return cli_replay(argc - 2, argv + 2);
    if (strcmp(cmd, "daily") == 0)
        return cli_daily(argc - 2, argv + 2);
    fprintf(stderr, "replayd: unknown command \"%s\" (try: replayd help)\n", cmd);
    return 2;
}
