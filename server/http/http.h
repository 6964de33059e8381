/*
 * http: one request as the handlers see it, and the helpers that answer
 * it. The libmicrohttpd glue (http.c) reads the body chunk by chunk into a
 * capped buffer (no PostProcessor), routes, calls a handler, and sends
 * what the handler set. Every error body is
 * {"error":{"code":"...","message":"..."}}.
 *
 * A handler whose answer waits for I/O (a write's commit) does not hold
 * its thread: it calls req_defer, hands its work on and returns; whoever
 * finishes the work calls req_resume, and `then` runs on a request thread
 * to set the answer. The connection is suspended (libmicrohttpd's
 * suspend/resume) in between, so no thread waits.
 */
#ifndef REPLAYD_SERVER_HTTP_H
#define REPLAYD_SERVER_HTTP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>
#include <microhttpd.h>

#include "app.h"
#include "live.h"

#define PATH_SEGMENTS 8
#define RESP_HEADERS 8

/* What a route's body may be (routes.h says how each is chosen). */
typedef struct body_limits {
    size_t max_bytes;
    int max_depth;         /* arrays and objects inside one another */
    size_t max_containers; /* arrays and objects in all */
    size_t max_values;     /* array elements and members' values in all, containers too */
} body_limits;

typedef struct request {
    app *app;
    struct MHD_Connection *conn;
    const char *method;
    char path[512];           /* without the query string */
    char *seg[PATH_SEGMENTS]; /* path split on '/', in path_buf */
    int n_seg;
    char path_buf[512];
    char ip[64];              /* the client's, behind trusted proxies */
    char ip_key[64];          /* its budgets' key: the IPv4 address or the IPv6 /64 (netaddr_bucket) */
    bool from_proxy;          /* a trusted proxy itself (no forwarding header): its health checks */
    const live_settings *live; /* the settings snapshot this request uses */
    char *body;               /* NUL-terminated, owned */
    size_t body_len;
    bool body_too_large;
    bool bad_path; /* a path segment held an encoded NUL, '?' or '/' (raw_path_ok) */
    /* the route's body limits (routes_body_limits), set before any byte of it */
    body_limits body_limits;
    int64_t started_us;
    int route;                /* metrics route index */
    struct guard_conn *guard; /* the connection's conn_guard entry, or NULL */
    /* deferred work (req_defer) */
    bool deferred;
    void (*then)(struct request *r);
    void *work;                    /* the handler's, owned by the request */
    void (*work_free)(void *work); /* runs when the request ends */
    /* the answer */
    int status;
    char *resp;               /* owned */
    size_t resp_len;
    const char *content_type;
    int retry_after_s;        /* Retry-After on a 429 or 503 (default 1) */
    bool allow_header;        /* send Allow (405 always does) */
    bool preflight;           /* a CORS preflight: Access-Control-Allow-Methods too */
    const void *resp_static;  /* set by reply_static instead of resp: never freed */
    const char *resp_headers[RESP_HEADERS][2]; /* extra (name, value), see reply_header */
    int n_resp_headers;
} request;

int64_t now_us(void);
/* Shifts now_us/now_ms (config clock_offset_s; tests only). */
void http_set_clock_offset(int seconds);
int64_t now_ms(void);
/* Seconds a kept-alive connection may stay idle after an answer before the
 * server closes it (sent as Keep-Alive: timeout=N): the shorter of the
 * guard's header deadline and libmicrohttpd's idle timeout. */
int http_idle_timeout_s(const config *c);

/* Header or query value, NULL when absent. */
const char *req_header(request *r, const char *name);
const char *req_query(request *r, const char *name);

/* Answers with a JSON body; takes ownership of body. */
void reply_json(request *r, int status, json_t *body);
void reply_error(request *r, int status, const char *code, const char *message);
/* 429 rate_limited with Retry-After for a per-minute bucket. */
void reply_rate_limited(request *r, int per_minute, const char *message);
/* An error with extra fields merged into the error object (stolen). */
void reply_error_with(request *r, int status, const char *code, const char *message,
                      json_t *extra);
void reply_text(request *r, int status, const char *content_type, char *text, size_t len);
/* Answers with bytes that outlive the process (compiled-in assets): not
 * copied, never freed. */
void reply_static(request *r, int status, const char *content_type, const void *body, size_t len);
/* Adds a response header; name and value must outlive the request (string
 * literals, compiled-in tables). A Cache-Control given here replaces the
 * default no-store. False (and nothing added) past RESP_HEADERS. */
bool reply_header(request *r, const char *name, const char *value);

/* Suspends the request: call from a handler, before handing the work on,
 * then return. After req_resume, `then` runs on a request thread and sets
 * the answer (or defers again). */
void req_defer(request *r, void (*then)(request *r));
/* From any thread, once the deferred work is done. */
void req_resume(request *r);
/* Gives the request a piece of work to free when it ends. */
void req_own(request *r, void *work, void (*work_free)(void *work));

/* Parses the body as a JSON object: checks the content type (415), then,
 * by a scan before parsing, the route's nesting depth (400 too_deep) and
 * count of arrays and objects (413 too_many_values), then duplicate keys
 * (400). NULL after replying with the error. */
json_t *req_json_object(request *r);

/* A daemon serving a's requests with its settings and its TLS files (read
 * now: a reload starts another): accepting on the listening socket
 * listen_fd (listener.h; TLS), or, with listen_fd < 0, taking only the
 * connections http_gate hands it (MHD_USE_NO_LISTEN_SOCKET). */
typedef struct http_daemon http_daemon;
http_daemon *http_start(app *a, int listen_fd, char *err, size_t err_len);
struct MHD_Daemon *http_mhd(http_daemon *d);
/* Stops accepting (the listening socket stays open for the next daemon). */
void http_quiesce(http_daemon *d);
/* Connections the daemon still holds. */
unsigned http_connections(http_daemon *d);
/* Stops the daemon (quiescing it first) and frees it; NULL is fine. */
void http_stop(http_daemon *d);

#endif
