/*
 * serving: what answers on the listening socket while the server runs: the
 * current daemon, the daemons a reload retired (quiesced, finishing their
 * connections), the wait for signals, SIGHUP reloads and the SIGTERM drain.
 *
 * Ownership: serving owns the listening socket, the gate and every
 * daemon; the app (and its live settings chain) stay the caller's.
 */
#ifndef REPLAYD_SERVER_SERVING_H
#define REPLAYD_SERVER_SERVING_H

#include <stdbool.h>

#include "app.h"

/* Re-reads the configuration (the same file and flags as at start) into
 * *out; false with a message on stderr. */
typedef bool (*config_reader)(config *out);

/* Opens the listener, logs {"event":"listening",...} (with metrics_port,
 * the separate metrics listener's port or 0) before anything can be
 * served, starts the daemon (behind the connection gate for plain HTTP),
 * then waits for signals: SIGHUP reloads (live settings and TLS files),
 * SIGTERM/SIGINT drain (after drain_grace_s) and stop; a second one during
 * the grace ends it. The signals must already be blocked in
 * every thread. Returns 0 after a clean drain, 1 when serving could not
 * start. */
int serving_run(app *a, config_reader reread, unsigned metrics_port);

#endif
