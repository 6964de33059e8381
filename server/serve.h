/* serve: the `serve`, `keygen` and `migrate` commands. Each returns the
 * process exit status (cli.h) or CLI_USAGE. */
#ifndef REPLAYD_SERVER_SERVE_H
#define REPLAYD_SERVER_SERVE_H

int cmd_serve(int argc, char **argv);
int cmd_keygen(int argc, char **argv);
int cmd_migrate(int argc, char **argv);

#endif
