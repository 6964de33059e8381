/* serve: the `serve`, `keygen` and `migrate` commands. Each returns the
 * process exit status (cli.h) or CLI_USAGE. */
#ifndef REPLAYD_SERVER_SERVE_H
#define REPLAYD_SERVER_SERVE_H

#include "../base/config.h"
#include "../store/store.h"
#include "../trust/keys.h"

/* --config FILE, --listen ADDR:PORT, --data DIR, --set KEY=VALUE into c
 * (the file first, so flags override it). EXIT_OK, EXIT_BAD_INPUT or
 * CLI_USAGE, after one line on stderr. */
int serve_load_config(config *c, int argc, char **argv);
/* The store of c's data_dir (created and migrated); says why on stderr.
 * kr (NULL: none) signs the score log's checkpoints (store_log_keys): its
 * current key, and during a rotation the newest other key not retired. */
store_status serve_open_store(const config *c, const keyring *kr, store **db);

int cmd_serve(int argc, char **argv);
int cmd_keygen(int argc, char **argv);
int cmd_migrate(int argc, char **argv);

#endif
