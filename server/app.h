/*
 * app: the running server's shared state, created by `serve` and read by
 * every handler. Owned by serve.c; handlers never free any of it.
 */
#ifndef REPLAYD_SERVER_APP_H
#define REPLAYD_SERVER_APP_H

#include <stdatomic.h>

#include "config.h"
#include "keys.h"
#include "level_cache.h"
#include "metrics.h"
#include "ratelimit.h"
#include "store.h"

typedef struct app {
    config cfg;
    keyring keys;
    store *db;
    metrics stats;
    ratelimit limits;
    level_cache levels;
    atomic_int in_flight; /* requests begun and not yet completed */
    atomic_int suspended; /* of those, deferred ones waiting for their work */
} app;

/* The version new seed tokens of g are issued under (config override or
 * the game's current version). */
int app_issue_version(const app *a, const game *g);

#endif
