/* cli: the offline commands gen, replay and daily. Each returns the process
 * exit status: 0 on success, 2 on bad arguments or input (one line on
 * stderr). Output is one JSON object on stdout. */
#ifndef REPLAYD_SERVER_CLI_H
#define REPLAYD_SERVER_CLI_H

int cli_gen(int argc, char **argv);
int cli_replay(int argc, char **argv);
int cli_daily(int argc, char **argv);

#endif
