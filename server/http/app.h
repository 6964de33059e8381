/*
 * app: the running server's shared state, created by `serve` and read by
 * every handler. Owned by serve.c; handlers never free any of it.
 */
#ifndef REPLAYD_SERVER_APP_H
#define REPLAYD_SERVER_APP_H

#include <stdatomic.h>

#include "../base/config.h"
#include "../api/board_list.h"
#include "conn_guard.h"
#include "../trust/daily_seal.h"
#include "../trust/fairplay_book.h"
#include "../trust/identity.h"
#include "../trust/keys.h"
#include "live.h"
#include "../base/level_cache.h"
#include "metrics.h"
#include "../trust/ratelimit.h"
#include "../store/store.h"

typedef struct reverify_job reverify_job; /* api_reverify.c */
typedef struct http_routes http_routes;   /* routes.h */

typedef struct app {
    config cfg;
    keyring keys;
    daily_seal seal; /* daily_seeds: sealed (with its secret) or public */
    identity ident;  /* Sign in with Apple and Google: client ids, key sets */
    store *db;
    metrics stats;
    ratelimit limits;
    level_cache levels;
    board_list boards; /* GET /v1/leaderboards, shared for a second */
    fairplay_book book; /* boards' paces and players' history, for the review */
    conn_guard guard; /* deadlines and shedding for the main listener */
    /* the version new tokens of game_catalog[i] are issued under: the
     * game's current one, or issue_versions' override, read at start-up */
    int issue_version[METRICS_GAMES];
    live_settings *_Atomic live; /* the settings SIGHUP can change (live.h) */
    atomic_bool draining;         /* shutdown began: /healthz says so */
    atomic_int in_flight; /* requests begun and not yet completed */
    atomic_int suspended; /* of those, deferred ones waiting for their work */
    reverify_job *reverify; /* the admin re-verification (api_reverify.c) */
    const http_routes *routes; /* the route table http.c asks (routes.h), static */
} app;

/* The version new seed tokens of g are issued under (app.c): its
 * issue_version entry, or g's current version for a game not in the
 * catalogue. */
int app_issue_version(const app *a, const game *g);

#endif
