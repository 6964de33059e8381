/* cli: the offline commands gen, replay and daily (cli.c) and reverify
 * (cli_reverify.c), and the exit statuses every command returns. Output is
 * JSON on stdout (reverify: one line per divergence, then its summary); an
 * error is one line on stderr. */
#ifndef REPLAYD_SERVER_CLI_H
#define REPLAYD_SERVER_CLI_H

/* Exit statuses of every command (documented in replayd(8)).
 * EXIT_DIVERGENT: reverify found a score that no longer replays to its
 * record. */
enum { EXIT_OK = 0, EXIT_RUNTIME = 1, EXIT_BAD_INPUT = 2, EXIT_DIVERGENT = 3 };

/* Returned by a command whose arguments do not fit its synopsis (an
 * unknown option, a missing value, a wrong count), after one line on stderr
 * saying why; main adds the command's usage line and exits 2. */
#define CLI_USAGE (-1)

int cli_gen(int argc, char **argv);
int cli_replay(int argc, char **argv);
int cli_daily(int argc, char **argv);
/* reverify [--game G] [--since DATE] [--jobs N] [config options] */
int cmd_reverify(int argc, char **argv);

#endif
