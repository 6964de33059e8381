/*
 * routes: the one table of HTTP routes (method, path pattern, handler,
 * caching), checked at compile time against the metrics labels, and the
 * dispatch that picks a handler for a request, handed to http.c as a table
 * (routes_table, below) by the server's owner. HEAD is served by every
 * GET route; OPTIONS (a CORS preflight) and the Allow header on 405 are
 * answered from the same table.
 */
#ifndef REPLAYD_SERVER_ROUTES_H
#define REPLAYD_SERVER_ROUTES_H

#include "http.h"

/* How long shared caches and browsers may keep a route's 200 answers. */
typedef enum cache_policy {
    CACHE_NO_STORE = 0, /* writes, authenticated and operator answers */
    CACHE_BRIEF,        /* boards: public, 5 s */
    CACHE_SHORT,        /* the daily, a score's audit: public, 60 s */
    CACHE_LONG          /* the catalogue, the keys: public, 300 s */
} cache_policy;

/* Routes the request: sets r->route and calls the handler, or answers
 * 404 / 405 (with Allow). */
void routes_dispatch(request *r);

/* The methods the request's path allows ("GET, HEAD, OPTIONS"); "" when
 * the path is unknown. */
void routes_allowed(const request *r, char *out, size_t len);

/* What a route's body may be (body_limits, http.h), checked before the
 * body is read (bytes, against the declared Content-Length and as it
 * arrives) and before it is parsed (nesting depth, containers and values,
 * by a scan), so that refusing a
 * request costs about what sending it did. A submission's byte cap follows
 * from the move caps (routes.c says how); every other route gets
 * ROUTE_SMALL_BODY. None is above config max_body. */
#define ROUTE_SMALL_BODY 8192

body_limits routes_body_limits(const request *r);

/* The caching of r's route (CACHE_NO_STORE when unrouted). */
cache_policy routes_cache(const request *r);

/* The metrics index of "other": requests no route took. */
int routes_other(void);

/* The route table as http.c asks it: the functions above and the metrics
 * index of "other". Its owner hands it down (serve.c puts &routes_table in
 * app.routes), so http.c names no route and no handler: routing is a table
 * handed downward, not a call from the edge up into api/. Static: nothing
 * to free, safe from any thread. */
typedef struct http_routes {
    void (*dispatch)(request *r);
    void (*allowed)(const request *r, char *out, size_t len);
    body_limits (*body_limits)(const request *r);
    cache_policy (*cache)(const request *r);
    int other;
} http_routes;

extern const http_routes routes_table;

/* The metrics label of every route, in route order, then "other". */
void http_route_names(const char *const **names, int *n);

#endif
