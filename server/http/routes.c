#include "routes.h"

#include <stdio.h>
#include <string.h>

#include "../../core/game.h"
#include "../api/api.h"
#include "../trust/identity.h"
#include "../trust/token.h"

typedef struct route {
    const char *method;
    const char *pattern; /* segments; "*" matches one, a final "**" the rest (one or more) */
    void (*fn)(request *r);
    cache_policy cache;
} route;

static const route routes[] = {
    { "POST", "v1/players", api_players_create, CACHE_NO_STORE },
    { "POST", "v1/players/me/identity", api_players_link, CACHE_NO_STORE },
    { "POST", "v1/identity/nonce", api_identity_nonce, CACHE_NO_STORE },
    { "GET", "v1/games", api_games, CACHE_LONG },
    { "POST", "v1/seeds", api_seeds_create, CACHE_NO_STORE },
    { "POST", "v1/scores", api_scores_submit, CACHE_NO_STORE },
    { "GET", "v1/scores/*", api_score_get, CACHE_SHORT },
    { "GET", "v1/daily", api_daily, CACHE_SHORT },
    { "GET", "v1/leaderboards/daily/*/me", api_board_daily_me, CACHE_NO_STORE },
    { "GET", "v1/leaderboards/daily/*", api_board_daily, CACHE_BRIEF },
    { "GET", "v1/leaderboards/*/*/me", api_board_level_me, CACHE_NO_STORE },
    { "GET", "v1/leaderboards/*/*", api_board_level, CACHE_BRIEF },
    { "GET", "v1/leaderboards/daily/*/players/*", api_board_daily_player, CACHE_BRIEF },
    { "GET", "v1/leaderboards/*/*/players/*", api_board_level_player, CACHE_BRIEF },
    { "GET", "v1/leaderboards", api_boards_list, CACHE_BRIEF },
    { "GET", "v1/keys", api_keys, CACHE_LONG },
    /* the score log: each answer sets its own caching (a full tile is immutable) */
    { "GET", "v1/log/checkpoint", api_log_checkpoint, CACHE_NO_STORE },
    { "GET", "v1/log/tile/**", api_log_tile, CACHE_NO_STORE },
    { "GET", "healthz", api_healthz, CACHE_NO_STORE },
    { "GET", "metrics", api_metrics, CACHE_NO_STORE },
    { "GET", "v1/admin/players/*", api_admin_player, CACHE_NO_STORE },
    { "GET", "v1/admin/scores/*", api_admin_score, CACHE_NO_STORE },
    { "POST", "v1/admin/scores/*/void", api_admin_void, CACHE_NO_STORE },
    { "POST", "v1/admin/scores/*/restore", api_admin_restore, CACHE_NO_STORE },
    { "POST", "v1/admin/scores/*/approve", api_admin_approve, CACHE_NO_STORE },
    { "POST", "v1/admin/players/*/ban", api_admin_ban, CACHE_NO_STORE },
    { "POST", "v1/admin/players/*/unban", api_admin_unban, CACHE_NO_STORE },
    { "POST", "v1/admin/players/*/rename", api_admin_rename, CACHE_NO_STORE },
    { "GET", "v1/admin/review", api_admin_review, CACHE_NO_STORE },
    { "GET", "v1/admin/rejections", api_admin_rejections, CACHE_NO_STORE },
    { "GET", "v1/admin/log", api_admin_log, CACHE_NO_STORE },
    { "POST", "v1/admin/reverify", api_admin_reverify_start, CACHE_NO_STORE },
    { "GET", "v1/admin/reverify", api_admin_reverify_status, CACHE_NO_STORE },
    /* the web pages set their own caching and ETags */
    { "GET", "", api_web_index, CACHE_NO_STORE },
    { "GET", "replay/*", api_web_replay, CACHE_NO_STORE },
    { "GET", "assets/**", api_web_asset, CACHE_NO_STORE },
    { "GET", "admin", api_web_admin, CACHE_NO_STORE },
};
#define N_ROUTES ((int)(sizeof routes / sizeof routes[0]))

static const char *const route_names[N_ROUTES + 1] = {
    "players",     "games",       "seeds",         "scores",        "score_get",
    "daily",       "board_daily_me", "board_daily", "board_level_me", "board_level",
    "board_daily_player", "board_level_player", "boards_list",
    "keys",        "log_checkpoint", "log_tile",     "healthz",     "metrics",       "admin_player",  "admin_score",
    "admin_void",  "admin_restore", "admin_approve", "admin_ban",    "admin_unban",
    "admin_rename", "admin_review", "admin_rejections", "admin_log",
    "admin_reverify_start", "admin_reverify_status",
    "web_index",   "web_replay",  "web_asset",     "web_admin",     "other",
};

_Static_assert(sizeof route_names / sizeof route_names[0] == N_ROUTES + 1,
               "one metrics label per route, then \"other\"");
_Static_assert(N_ROUTES + 1 <= METRICS_ROUTES, "metrics.h counts every route");

int routes_other(void)
{
    return N_ROUTES;
}

const http_routes routes_table = {
    .dispatch = routes_dispatch,
    .allowed = routes_allowed,
    .body_limits = routes_body_limits,
    .cache = routes_cache,
    .other = N_ROUTES,
};

void http_route_names(const char *const **names, int *n)
{
    *names = route_names;
    *n = N_ROUTES + 1;
}

static bool pattern_matches(const char *pattern, const request *r)
{
    char buf[128];
    snprintf(buf, sizeof buf, "%s", pattern);
    int i = 0;
    char *save = NULL;
    for (char *p = strtok_r(buf, "/", &save); p; p = strtok_r(NULL, "/", &save), i++) {
        if (i >= r->n_seg)
            return false;
        if (strcmp(p, "**") == 0) /* the rest of the path, one segment or more */
            return true;
        if (strcmp(p, "*") != 0 && strcmp(p, r->seg[i]) != 0)
            return false;
    }
    return i == r->n_seg;
}

/* HEAD is GET without the body (libmicrohttpd leaves the body out). */
static bool method_matches(const char *route_method, const char *method)
{
    return strcmp(route_method, method) == 0 ||
           (strcmp(method, "HEAD") == 0 && strcmp(route_method, "GET") == 0);
}

void routes_allowed(const request *r, char *out, size_t len)
{
    bool get = false, post = false;
    for (int i = 0; i < N_ROUTES; i++) {
        if (!pattern_matches(routes[i].pattern, r))
            continue;
        get |= strcmp(routes[i].method, "GET") == 0;
        post |= strcmp(routes[i].method, "POST") == 0;
    }
    snprintf(out, len, "%s%s%s", get ? "GET, HEAD, " : "", post ? "POST, " : "",
             get || post ? "OPTIONS" : "");
}

cache_policy routes_cache(const request *r)
{
    return r->route >= 0 && r->route < N_ROUTES ? routes[r->route].cache : CACHE_NO_STORE;
}

/* Decimal digits of v, its sign included. */
static size_t digits(int32_t v)
{
    char buf[16];
    int n = snprintf(buf, sizeof buf, "%ld", (long)v);
    return n > 0 ? (size_t)n : 11;
}

/* The longest a move of g can be: {"name":value,...}, every field of every
 * version with its widest value, a space after each ':' and ',' (what a
 * pretty-printer adds on one line), and the ", " that separates it from the
 * next move. */
static size_t largest_move(const game *g)
{
    size_t n = 2 + 2; /* {} and ", " */
    for (int f = 0; f < g->n_fields; f++) {
        size_t lo = digits(g->fields[f].min), hi = digits(g->fields[f].max);
        n += strlen(g->fields[f].name) + 2 /* quotes */ + 2 /* ": " */ + (lo > hi ? lo : hi) + 2 /* ", " */;
    }
    return n;
}

/* POST /v1/scores: {"seed_token": "<at most TOKEN_TEXT_MAX>", "moves": [...]}
 * with the most moves any game accepts (its max_moves, at most config
 * max_moves) at their largest encoding, plus room for the rest. */
#define SCORE_BODY_SLACK 1024

static body_limits score_limits(const config *c)
{
    size_t most = 0, moves = 0, values = 0;
    for (size_t i = 0; i < game_catalog_count; i++) {
        const game *g = game_catalog[i];
        size_t cap = (size_t)(g->max_moves < c->max_moves ? g->max_moves : c->max_moves);
        size_t bytes = cap * largest_move(g);
        size_t vals = cap * (size_t)(g->n_fields + 1); /* each move and each of its fields */
        most = bytes > most ? bytes : most;
        moves = cap > moves ? cap : moves;
        values = vals > values ? vals : values;
    }
    /* the token and the moves array, and a few more the decoder refuses by name */
    body_limits l = { most + TOKEN_TEXT_MAX + SCORE_BODY_SLACK, 3, moves + 2, values + 16 };
    return l;
}

body_limits routes_body_limits(const request *r)
{
    const config *c = &r->app->cfg;
    /* every other body is one flat object of a few short fields */
    body_limits l = { ROUTE_SMALL_BODY, 2, 16, 256 };
    if (strcmp(r->method, "POST") == 0 && pattern_matches("v1/scores", r))
        l = score_limits(c);
    /* an ID token (identity.h) with room for the rest */
    if (strcmp(r->method, "POST") == 0 &&
        (pattern_matches("v1/players", r) || pattern_matches("v1/players/me/identity", r)))
        l.max_bytes = IDENTITY_TOKEN_MAX + 1024;
    if (l.max_bytes > c->max_body)
        l.max_bytes = c->max_body;
    if (l.max_depth > c->max_json_depth)
        l.max_depth = c->max_json_depth;
    return l;
}

void routes_dispatch(request *r)
{
    bool path_known = false;
    for (int i = 0; i < N_ROUTES; i++) {
        if (!pattern_matches(routes[i].pattern, r))
            continue;
        path_known = true;
        if (method_matches(routes[i].method, r->method)) {
            r->route = i;
            routes[i].fn(r);
            return;
        }
    }
    r->route = N_ROUTES;
    if (path_known)
        reply_error(r, 405, "method_not_allowed", "that method is not allowed on this path");
    else
        reply_error(r, 404, "not_found", "no such endpoint");
}
