/*
 * metrics_http: the optional second listener that serves GET /metrics
 * alone (config metrics_listen, e.g. 127.0.0.1:9090 or [::1]:9090), so
 * scrapers reach the metrics on a private address while the main listener
 * does not serve them. It sits behind its own connection gate
 * (http_gate.h), like the main listener: malformed framing is answered in
 * JSON, never by libmicrohttpd's HTML or doubled replies, and every answer
 * closes its connection, so the gate checks every request. One thread, a
 * few connections; every other path answers 404 JSON.
 *
 * Ownership: the metrics_http owns its listening socket, its gate and its
 * daemon; metrics_http_stop frees them all.
 */
#ifndef REPLAYD_SERVER_METRICS_HTTP_H
#define REPLAYD_SERVER_METRICS_HTTP_H

#include <stddef.h>

#include "app.h"

typedef struct metrics_http metrics_http;

/* NULL with a message when metrics_listen is not ADDR:PORT or cannot be
 * bound. *port is the bound port. */
metrics_http *metrics_http_start(app *a, unsigned *port, char *err, size_t err_len);
/* Stops serving and frees it; NULL is fine. */
void metrics_http_stop(metrics_http *m);

#endif
