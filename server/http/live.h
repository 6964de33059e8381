/*
 * live: the settings a running server re-reads on SIGHUP, as one immutable
 * snapshot. A request takes the current snapshot when it begins and uses
 * it to its end; a reload builds a new one and publishes it atomically, so
 * no request ever sees half of a change. Which settings are live is this
 * struct (docs/OPERATIONS.md lists them); every other setting needs a
 * restart. TLS certificates are reloaded too, by serve.c, which starts a
 * new daemon on the same listening socket.
 *
 * Ownership: snapshots are kept on a chain and freed by live_free_all when
 * the server stops (reloads are rare; a request may still hold an old one).
 */
#ifndef REPLAYD_SERVER_LIVE_H
#define REPLAYD_SERVER_LIVE_H

#include <stdbool.h>
#include <stddef.h>

#include "../base/config.h"
#include "netaddr.h"

#define LIVE_ORIGINS 16
#define LIVE_ORIGIN_LEN 128

typedef struct live_settings {
    bool log_requests;
    int rate_register_per_ip;
    int rate_register_per_prefix;
    int rate_seeds_per_player;
    int rate_scores_per_player;
    int rate_per_ip;
    netaddr_nets trusted_proxies;
    bool cors_any; /* cors_origins = * */
    int n_origins;
    char origins[LIVE_ORIGINS][LIVE_ORIGIN_LEN];
    struct live_settings *older;
} live_settings;

/* A new snapshot of c's live settings, chained to `older`; NULL with a
 * message on a bad list. */
live_settings *live_from_config(const config *c, live_settings *older, char *err, size_t err_len);
void live_free_all(live_settings *newest);

/* Whether a browser page from this Origin may call the API. */
bool live_origin_allowed(const live_settings *l, const char *origin);

#endif
