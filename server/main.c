/* main: the replayd command line. `serve` runs the daemon; the other
 * commands are offline tools for operators and client teams. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static int usage(void)
{
    fputs("usage: replayd gen GAME LEVEL SEED [--version V]\n"
          "       replayd replay GAME LEVEL SEED [--version V] < {\"moves\":[...]}\n"
          "       replayd daily YYYY-MM-DD [--game GAME]\n",
          stderr);
    return 2;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return usage();
    const char *cmd = argv[1];
    if (strcmp(cmd, "gen") == 0)
        return cli_gen(argc - 2, argv + 2);
    if (strcmp(cmd, "replay") == 0)
        return cli_replay(argc - 2, argv + 2);
    if (strcmp(cmd, "daily") == 0)
        return cli_daily(argc - 2, argv + 2);
    return usage();
}
