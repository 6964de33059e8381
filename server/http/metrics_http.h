/*
 * metrics_http: the optional second listener that serves GET /metrics
 * alone (config metrics_listen, e.g. 127.0.0.1:9090), so scrapers reach
 * the metrics on a private address while the main listener does not serve
 * them. One thread, a few connections; every other path answers 404 JSON.
 */
#ifndef REPLAYD_SERVER_METRICS_HTTP_H
#define REPLAYD_SERVER_METRICS_HTTP_H

#include <stddef.h>

#include <microhttpd.h>

#include "app.h"

/* NULL with a message when metrics_listen is not ADDR:PORT or cannot be
 * bound. *port is the bound port. Stop it with MHD_stop_daemon. */
struct MHD_Daemon *metrics_http_start(app *a, unsigned *port, char *err, size_t err_len);

#endif
