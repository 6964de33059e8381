/*
 * http: libmicrohttpd glue. Requests are answered on the final callback
 * (never on the headers-only first one, which on 0.9.75 would force
 * Connection: close), except a declared Content-Length over the route's
 * cap (the route table's body_limits), which is refused at once with 413, and a
 * request that breaks the framing rules (http_gate.h). Around every answer: the client's address
 * (behind trusted proxies), CORS, HEAD and OPTIONS, caching and ETags,
 * Allow on 405, Retry-After on 429 and 503, Connection: close while
 * draining (else Keep-Alive: timeout=N, the idle bound of a kept-alive
 * connection); libmicrohttpd's own messages become JSON log lines.
 */
#include "http.h"

#include <arpa/inet.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "../base/iso_time.h"
#include "../base/parse.h"
#include "../base/private_file.h"
#include "http_gate.h"
#include "routes.h"

/* How much of a body over its route's cap is read (and dropped) so that
 * its 413 arrives whole; a larger one is answered at once. */
#define BODY_DRAIN_MAX (1024 * 1024)

static int64_t clock_offset_us;

int http_idle_timeout_s(const config *c)
{
    /* the guard ends a kept-alive connection header_timeout_ms after its
     * previous answer, libmicrohttpd after connection_timeout_s idle */
    int s = c->header_timeout_ms / 1000;
    return s < c->connection_timeout_s ? s : c->connection_timeout_s;
}

void http_set_clock_offset(int seconds)
{
    clock_offset_us = (int64_t)seconds * 1000000;
}

int64_t now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000 + clock_offset_us;
}

int64_t now_ms(void)
{
    return now_us() / 1000;
}

static void split_path(request *r, const char *url)
{
    snprintf(r->path, sizeof r->path, "%s", url);
    char *q = strchr(r->path, '?');
    if (q)
        *q = '\0';
    snprintf(r->path_buf, sizeof r->path_buf, "%s", r->path);
    r->n_seg = 0;
    char *save = NULL;
    for (char *p = strtok_r(r->path_buf, "/", &save); p && r->n_seg < PATH_SEGMENTS;
         p = strtok_r(NULL, "/", &save))
        r->seg[r->n_seg++] = p;
}

const char *req_header(request *r, const char *name)
{
    return MHD_lookup_connection_value(r->conn, MHD_HEADER_KIND, name);
}

const char *req_query(request *r, const char *name)
{
    return MHD_lookup_connection_value(r->conn, MHD_GET_ARGUMENT_KIND, name);
}

void req_defer(request *r, void (*then)(request *r))
{
    r->deferred = true;
    r->then = then;
    atomic_fetch_add(&r->app->suspended, 1);
    conn_guard_suspended(&r->app->guard, r->guard, true);
    MHD_suspend_connection(r->conn);
}

void req_resume(request *r)
{
    MHD_resume_connection(r->conn);
}

void req_own(request *r, void *work, void (*work_free)(void *work))
{
    r->work = work;
    r->work_free = work_free;
}

void reply_text(request *r, int status, const char *content_type, char *text, size_t len)
{
    free(r->resp);
    r->resp_static = NULL;
    r->status = status;
    r->resp = text;
    r->resp_len = len;
    r->content_type = content_type;
}

void reply_static(request *r, int status, const char *content_type, const void *body, size_t len)
{
    reply_text(r, status, content_type, NULL, len);
    r->resp_static = body;
}

bool reply_header(request *r, const char *name, const char *value)
{
    if (r->n_resp_headers >= RESP_HEADERS)
        return false;
    r->resp_headers[r->n_resp_headers][0] = name;
    r->resp_headers[r->n_resp_headers][1] = value;
    r->n_resp_headers++;
    return true;
}

/* Every JSON answer ends with a newline, so a shell prompt after curl
 * starts on its own line. */
void reply_json(request *r, int status, json_t *body)
{
    char *text = body ? json_dumps(body, JSON_COMPACT) : NULL;
    json_decref(body);
    size_t len = text ? strlen(text) : 0;
    char *lined = text ? realloc(text, len + 2) : NULL;
    if (!lined) {
        free(text);
        static const char oom[] = "{\"error\":{\"code\":\"internal\",\"message\":\"out of memory\"}}\n";
        reply_text(r, 500, "application/json", strdup(oom), sizeof oom - 1);
        return;
    }
    lined[len] = '\n';
    lined[len + 1] = '\0';
    reply_text(r, status, "application/json", lined, len + 1);
}

void reply_error_with(request *r, int status, const char *code, const char *message,
                      json_t *extra)
{
    json_t *err = json_pack("{s:s,s:s}", "code", code, "message", message);
    if (extra) {
        json_object_update(err, extra);
        json_decref(extra);
    }
    reply_json(r, status, json_pack("{s:o}", "error", err));
}

void reply_error(request *r, int status, const char *code, const char *message)
{
    reply_error_with(r, status, code, message, NULL);
}

void reply_rate_limited(request *r, int per_minute, const char *message)
{
    /* a bucket gains a request every 60 / per_minute seconds */
    r->retry_after_s = per_minute > 0 ? (60 + per_minute - 1) / per_minute : 1;
    reply_error(r, 429, "rate_limited", message);
}

/* What a body holds, counted without parsing: the deepest nesting of
 * arrays and objects, how many there are, and how many values (each
 * array element and each object member's value, containers and plain
 * values alike), so that a body of 100,000 '[' never reaches the
 * parser's recursion, one of 100,000 "[]" never reaches its allocator and
 * a flat [0,0,...] of a body's worth of zeros is refused before it is
 * parsed. Stops once any is past its limit. */
typedef struct json_counts {
    int deepest;
    size_t containers, values;
} json_counts;

static json_counts json_scan(const char *s, size_t n, const body_limits *lim)
{
    json_counts k = { 0, 0, 0 };
    int depth = 0;
    uint64_t arrays = 0; /* bit d - 1: the container at depth d is an array (64 deep at most: refused) */
    bool in_string = false, want = true; /* a value may start here (not a member's name) */
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (in_string) {
            if (c == '\\')
                i++;
            else if (c == '"')
                in_string = false;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
            continue;
        if (c == ']' || c == '}') {
            depth--;
            want = false;
            continue;
        }
        if (c == ',' || c == ':') { /* an element or a member's value follows; a name after an object's ',' */
            want = c == ':' || (depth > 0 && (arrays >> (depth - 1) & 1));
            continue;
        }
        bool value = want;
        want = false;
        if (value && depth > 0 && ++k.values > lim->max_values)
            return k;
        if (c == '"')
            in_string = true;
        else if (c == '[' || c == '{') {
            if (++depth > k.deepest)
                k.deepest = depth;
            if (k.deepest > lim->max_depth || depth > 64 || ++k.containers > lim->max_containers)
                return k;
            uint64_t bit = UINT64_C(1) << (depth - 1);
            arrays = c == '[' ? arrays | bit : arrays & ~bit;
            want = c == '['; /* an object's first token is a name */
        }
    }
    return k;
}

json_t *req_json_object(request *r)
{
    const char *ct = req_header(r, "Content-Type");
    if (!ct || strncasecmp(ct, "application/json", 16) != 0 ||
        (ct[16] != '\0' && ct[16] != ';' && ct[16] != ' ')) {
        reply_error(r, 415, "unsupported_media_type", "the body must be application/json");
        return NULL;
    }
    if (!r->body || r->body_len == 0) {
        reply_error(r, 400, "malformed_json", "the body is empty");
        return NULL;
    }
    json_counts k = json_scan(r->body, r->body_len, &r->body_limits);
    if (k.deepest > r->body_limits.max_depth) {
        reply_error(r, 400, "too_deep", "the JSON nests deeper than this endpoint's bodies do");
        return NULL;
    }
    if (k.containers > r->body_limits.max_containers || k.values > r->body_limits.max_values) {
        reply_error(r, 413, "too_many_values", "the JSON holds more values than this endpoint's bodies do");
        return NULL;
    }
    json_error_t jerr;
    json_t *doc = json_loadb(r->body, r->body_len, JSON_REJECT_DUPLICATES, &jerr);
    if (!doc) {
        char msg[200];
        snprintf(msg, sizeof msg, "malformed JSON: %s (at byte %d)", jerr.text, jerr.position);
        reply_error(r, 400, "malformed_json", msg);
        return NULL;
    }
    if (!json_is_object(doc)) {
        json_decref(doc);
        reply_error(r, 400, "malformed_json", "the body must be a JSON object");
        return NULL;
    }
    return doc;
}

/* Every Forwarded and X-Forwarded-For header, in the order they came. */
static enum MHD_Result add_hops(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
    (void)kind;
    if (strcasecmp(key, "X-Forwarded-For") == 0)
        netaddr_chain_add(cls, value, false);
    else if (strcasecmp(key, "Forwarded") == 0)
        netaddr_chain_add(cls, value, true);
    return MHD_YES;
}

/* What the framing rules count, as libmicrohttpd parsed the headers. */
typedef struct field_counts {
    int fields, hosts, content_lengths;
    bool transfer_encoding, bad_field;
} field_counts;

static enum MHD_Result count_field(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
    (void)kind;
    field_counts *c = cls;
    /* libmicrohttpd keeps a space or tab before the colon in the name
     * ("Name : value"), and a bare CR in the value ("a\rX-B: 1"), both of
     * which the gate refuses */
    c->bad_field = c->bad_field || !http_is_token(key, strlen(key)) || (value && strchr(value, '\r'));
    c->fields++;
    c->hosts += strcasecmp(key, "Host") == 0;
    c->content_lengths += strcasecmp(key, "Content-Length") == 0;
    c->transfer_encoding = c->transfer_encoding || strcasecmp(key, "Transfer-Encoding") == 0;
    return MHD_YES;
}

/* The gate's framing rules (http_gate.h) on every request, so a later one
 * on a kept-alive connection, which the gate never sees, is held to them
 * too. Answers and returns false when one is broken. */
static bool framing_ok(request *r, const char *version)
{
    field_counts c = { 0, 0, 0, false, false };
    MHD_get_connection_values(r->conn, MHD_HEADER_KIND, count_field, &c);
    bool http11;
    /* libmicrohttpd serves HTTP/1.2 to HTTP/1.9 as 1.1 (HTTP/2 and up it
     * answers itself, in HTML: only the gate sees those) */
    verdict v = http_version_verdict(version, strlen(version), &http11);
    if (!v.status && c.bad_field)
        v = (verdict){ 400, "bad_request",
                       "a header field holds a character it may not (a space before the colon, a bare CR)" };
    if (!v.status)
        v = http_framing_verdict(http11, c.fields, c.hosts, c.content_lengths, c.transfer_encoding);
    if (!v.status)
        return true;
    reply_error(r, v.status, v.code, v.message);
    return false;
}

/* Stops at the first query key or value holding a control byte (C0, DEL):
 * a decoded "%00" would cut a C string short, so "?limit=5%00" read as 5. */
static enum MHD_Result query_bytes_ok(void *cls, enum MHD_ValueKind kind, const char *key, size_t key_size,
                                      const char *value, size_t value_size)
{
    (void)kind;
    bool *ok = cls;
    for (size_t i = 0; i < key_size; i++)
        if ((unsigned char)key[i] < 0x20 || key[i] == 0x7f)
            *ok = false;
    for (size_t i = 0; value && i < value_size; i++)
        if ((unsigned char)value[i] < 0x20 || value[i] == 0x7f)
            *ok = false;
    return *ok ? MHD_YES : MHD_NO;
}

static bool query_ok(request *r)
{
    bool ok = true;
    MHD_get_connection_values_n(r->conn, MHD_GET_ARGUMENT_KIND, query_bytes_ok, &ok);
    return ok;
}

/* The connecting address, and the client's behind trusted proxies. */
static void client_ip(request *r)
{
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(r->conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    netaddr peer;
    memset(&peer, 0, sizeof peer);
    snprintf(r->ip, sizeof r->ip, "?");
    snprintf(r->ip_key, sizeof r->ip_key, "?");
    if (!ci || !ci->client_addr)
        return;
    if (!netaddr_from_sockaddr(ci->client_addr, &peer))
        return;
    netaddr_chain chain;
    memset(&chain, 0, sizeof chain);
    MHD_get_connection_values(r->conn, MHD_HEADER_KIND, add_hops, &chain);
    netaddr client = netaddr_client(&peer, &r->live->trusted_proxies, &chain);
    netaddr_format(&client, r->ip);
    netaddr_bucket(&client, r->ip_key);
    /* a trusted proxy speaking for itself (its health checks): no hop named */
    r->from_proxy = chain.n == 0 && netaddr_nets_contain(&r->live->trusted_proxies, &peer);
}

static const char *cache_header(cache_policy p)
{
    switch (p) {
    case CACHE_BRIEF:
        return "public, max-age=5";
    case CACHE_SHORT:
        return "public, max-age=60";
    case CACHE_LONG:
        return "public, max-age=300";
    case CACHE_NO_STORE:
        break;
    }
    return "no-store";
}

/* A strong ETag of a body: BLAKE2b-128 in hex, quoted. */
static void etag_of(const char *body, size_t len, char out[40])
{
    unsigned char h[16];
    crypto_generichash(h, sizeof h, (const unsigned char *)body, len, NULL, 0);
    out[0] = '"';
    sodium_bin2hex(out + 1, 33, h, sizeof h);
    out[33] = '"';
    out[34] = '\0';
}

/* Whether If-None-Match names this ETag (one of a list, or "*"). */
static bool etag_matches(const char *if_none_match, const char *etag)
{
    return if_none_match && (strcmp(if_none_match, "*") == 0 || strstr(if_none_match, etag));
}

static void add_cors(request *r, struct MHD_Response *resp)
{
    const char *origin = req_header(r, "Origin");
    MHD_add_response_header(resp, "Vary", "Origin");
    if (!live_origin_allowed(r->live, origin))
        return;
    MHD_add_response_header(resp, "Access-Control-Allow-Origin", origin);
    MHD_add_response_header(resp, "Access-Control-Expose-Headers", "ETag, Retry-After");
}

/* A route's caching, unless the handler set Cache-Control itself (the web
 * pages do, with their own ETags): a 200 from a cacheable route gets an
 * ETag, and a matching If-None-Match turns it into a 304. */
static cache_policy apply_caching(request *r, char etag[40])
{
    etag[0] = '\0';
    for (int i = 0; i < r->n_resp_headers; i++)
        if (strcasecmp(r->resp_headers[i][0], "Cache-Control") == 0)
            return CACHE_NO_STORE;
    cache_policy cache = r->status == 200 ? r->app->routes->cache(r) : CACHE_NO_STORE;
    if (cache != CACHE_NO_STORE && r->resp && !r->resp_static) {
        etag_of(r->resp, r->resp_len, etag);
        if (etag_matches(req_header(r, "If-None-Match"), etag)) {
            free(r->resp);
            r->resp = NULL;
            r->resp_len = 0;
            r->status = 304;
        }
    }
    return cache;
}

static enum MHD_Result send_reply(request *r)
{
    char etag[40];
    cache_policy cache = apply_caching(r, etag);
    /* libmicrohttpd takes a non-const pointer but only reads a persistent buffer. */
    struct MHD_Response *resp =
        r->resp_static ? MHD_create_response_from_buffer(r->resp_len, (void *)r->resp_static, MHD_RESPMEM_PERSISTENT)
                       : MHD_create_response_from_buffer(r->resp_len, r->resp, MHD_RESPMEM_MUST_FREE);
    if (!resp)
        return MHD_NO;
    r->resp = NULL; /* libmicrohttpd frees it now */
    if (r->status != 204 && r->status != 304)
        MHD_add_response_header(resp, "Content-Type", r->content_type ? r->content_type : "application/json");
    bool cache_set = false;
    for (int i = 0; i < r->n_resp_headers; i++) {
        MHD_add_response_header(resp, r->resp_headers[i][0], r->resp_headers[i][1]);
        cache_set = cache_set || strcasecmp(r->resp_headers[i][0], "Cache-Control") == 0;
    }
    if (!cache_set)
        MHD_add_response_header(resp, "Cache-Control", cache_header(cache));
    if (etag[0])
        MHD_add_response_header(resp, "ETag", etag);
    add_cors(r, resp);
    if (r->status == 405 || r->allow_header) {
        char allow[64];
        r->app->routes->allowed(r, allow, sizeof allow);
        MHD_add_response_header(resp, "Allow", allow);
        if (r->preflight)
            MHD_add_response_header(resp, "Access-Control-Allow-Methods", allow);
    }
    if (r->status == 429 || r->status == 503) {
        char secs[24];
        snprintf(secs, sizeof secs, "%d", r->retry_after_s > 0 ? r->retry_after_s : 1);
        MHD_add_response_header(resp, "Retry-After", secs);
    }
    /* keepalive = false: each plain-HTTP request comes on a new connection,
     * so the gate checks the framing of every one (libmicrohttpd 0.9.75
     * answers some malformed framing on a reused connection itself, badly) */
    if (atomic_load(&r->app->draining) || !r->app->cfg.keepalive) {
        MHD_add_response_header(resp, "Connection", "close");
    } else {
        /* the idle bound of a kept-alive connection, said to the client
         * (undici, browsers and most HTTP libraries retire a pooled socket
         * before it): without it, a client that keeps sockets longer than
         * the server reuses one just as it is closed and loses the request */
        char idle[40];
        snprintf(idle, sizeof idle, "timeout=%d", http_idle_timeout_s(&r->app->cfg));
        MHD_add_response_header(resp, "Keep-Alive", idle);
    }
    enum MHD_Result ok = MHD_queue_response(r->conn, (unsigned)r->status, resp);
    MHD_destroy_response(resp);
    return ok;
}

/* OPTIONS: a CORS preflight from an allowed origin gets the methods and
 * headers it may use; from another origin, 403; without an Origin, the
 * Allow header. */
static void preflight(request *r)
{
    char allow[64];
    r->app->routes->allowed(r, allow, sizeof allow);
    const char *origin = req_header(r, "Origin");
    if (!allow[0]) {
        reply_error(r, 404, "not_found", "no such endpoint");
        return;
    }
    if (origin && !live_origin_allowed(r->live, origin)) {
        reply_error(r, 403, "origin_not_allowed", "this origin may not call the API (cors_origins)");
        return;
    }
    r->allow_header = true;
    if (origin) {
        r->preflight = true; /* send_reply adds the methods: allow[] ends here */
        reply_header(r, "Access-Control-Allow-Headers", "Authorization, Content-Type, If-None-Match");
        reply_header(r, "Access-Control-Max-Age", "600");
    }
    reply_text(r, 204, NULL, NULL, 0);
}

/* A trusted proxy's own GET /healthz (no forwarding header: nobody else
 * is speaking through it) takes nothing from any address's bucket, so no
 * client can make the balancer's checks fail (docs/OPERATIONS.md). */
static bool health_check_of_proxy(const request *r)
{
    return r->from_proxy && strcmp(r->path, "/healthz") == 0 &&
           (strcmp(r->method, "GET") == 0 || strcmp(r->method, "HEAD") == 0);
}

/* The raw request target's path (before libmicrohttpd decodes it): an
 * encoded NUL, '?' or '/' inside a segment ("%00", "%3F", "%2F", either
 * case) would, decoded, cut the path short or move a segment's edge
 * ("/v1/leaderboards/%00/1" read as the board index). */
static bool raw_path_ok(const char *uri)
{
    for (const char *p = uri; *p && *p != '?'; p++) {
        if (p[0] != '%' || !p[1] || !p[2])
            continue;
        char hi = p[1], lo = (char)(p[2] | 0x20);
        if ((hi == '0' && lo == '0') || (hi == '3' && lo == 'f') || (hi == '2' && lo == 'f'))
            return false;
    }
    return true;
}

/* A request whose path is refused, marked before libmicrohttpd decodes
 * it (MHD_OPTION_URI_LOG_CALLBACK: its answer is the request's first
 * *con_cls); on_request turns the mark into the request's bad_path. */
static char bad_path_mark;

static void *on_uri(void *cls, const char *uri, struct MHD_Connection *conn)
{
    (void)cls;
    (void)conn;
    return raw_path_ok(uri) ? NULL : &bad_path_mark;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url,
                                  const char *method, const char *version, const char *upload,
                                  size_t *upload_size, void **con_cls)
{
    app *a = cls;
    request *r = *con_cls;
    bool bad_path = r == (void *)&bad_path_mark;
    if (bad_path)
        r = NULL;
    if (!r) {
        r = calloc(1, sizeof *r);
        if (!r)
            return MHD_NO;
        *con_cls = r;
        r->app = a;
        r->bad_path = bad_path;
        r->conn = conn;
        r->method = method;
        r->started_us = now_us();
        r->route = -1;
        r->live = atomic_load(&a->live);
        r->guard = conn_guard_of(conn);
        conn_guard_headers_done(&a->guard, r->guard);
        atomic_fetch_add(&a->in_flight, 1);
        split_path(r, url);
        client_ip(r);
        if (!framing_ok(r, version)) {
            r->body_too_large = true; /* nothing of a body is kept */
            conn_guard_request_done(&a->guard, r->guard);
            return send_reply(r);
        }
        r->body_limits = r->app->routes->body_limits(r);
        const char *cl = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Content-Length");
        int64_t declared;
        if (cl && parse_i64(cl, 0, INT64_MAX, &declared) && (uint64_t)declared > r->body_limits.max_bytes) {
            r->body_too_large = true; /* nothing of it is kept or parsed */
            /* A body up to BODY_DRAIN_MAX is read and dropped before the
             * 413: a close with unread bytes resets the connection, and a
             * client still sending (fetch, most HTTP libraries) loses the
             * answer. Past that, answering at once is worth the reset. */
            if ((uint64_t)declared <= BODY_DRAIN_MAX)
                return MHD_YES;
            conn_guard_request_done(&a->guard, r->guard);
            reply_error(r, 413, "body_too_large", "the body is larger than the server accepts");
            return send_reply(r);
        }
        return MHD_YES;
    }
    if (*upload_size) {
        conn_guard_body(&a->guard, r->guard, *upload_size);
        if (!r->body_too_large) {
            if (r->body_len + *upload_size > r->body_limits.max_bytes) {
                r->body_too_large = true;
                free(r->body);
                r->body = NULL;
                r->body_len = 0;
            } else {
                char *grown = realloc(r->body, r->body_len + *upload_size + 1);
                if (!grown)
                    return MHD_NO;
                r->body = grown;
                memcpy(r->body + r->body_len, upload, *upload_size);
                r->body_len += *upload_size;
                r->body[r->body_len] = '\0';
            }
        }
        *upload_size = 0;
        return MHD_YES;
    }
    if (r->deferred) { /* resumed: the deferred work is done */
        r->deferred = false;
        conn_guard_suspended(&a->guard, r->guard, false);
        atomic_fetch_sub(&a->suspended, 1);
        r->then(r);
        if (r->deferred)
            return MHD_YES;
        goto answer;
    }
    if (r->status) /* already answered (413 on the first call) */
        return MHD_YES;
    conn_guard_request_done(&a->guard, r->guard);
    if (r->body_too_large)
        reply_error(r, 413, "body_too_large", "the body is larger than the server accepts");
    else if (!health_check_of_proxy(r) &&
             !ratelimit_allow(&a->limits, "ip", r->ip_key, r->live->rate_per_ip, r->started_us))
        reply_rate_limited(r, r->live->rate_per_ip, "too many requests from this address");
    else if (!query_ok(r))
        reply_error(r, 400, "bad_query", "a query parameter holds a control character (such as %00)");
    else if (r->bad_path)
        reply_error(r, 400, "bad_path", "a path segment holds an encoded NUL, '?' or '/' (%00, %3F, %2F)");
    else if (strcmp(r->method, "OPTIONS") == 0)
        preflight(r);
    else
        r->app->routes->dispatch(r);
    if (r->deferred)
        return MHD_YES;
answer:
    if (!r->status)
        reply_error(r, 500, "internal", "the handler gave no answer");
    return send_reply(r);
}

static void on_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
                         enum MHD_RequestTerminationCode toe)
{
    (void)conn;
    app *a = cls;
    request *r = *con_cls;
    if (!r || r == (void *)&bad_path_mark) { /* never reached on_request */
        *con_cls = NULL;
        return;
    }
    conn_guard_answered(&a->guard, r->guard);
    int64_t micros = now_us() - r->started_us;
    metrics_request(&a->stats, r->route < 0 ? a->routes->other : r->route, r->status, micros);
    if (r->live->log_requests) {
        char ts[32];
        iso_time_format(r->started_us / 1000, ts);
        json_t *line = json_pack("{s:s,s:s,s:s,s:i,s:I,s:s,s:b}", "ts", ts, "method", r->method,
                                 "path", r->path, "status", r->status, "us", (json_int_t)micros,
                                 "ip", r->ip, "completed", toe == MHD_REQUEST_TERMINATED_COMPLETED_OK);
        char *text = json_dumps(line, JSON_COMPACT);
        if (text) {
            fprintf(stderr, "%s\n", text);
            free(text);
        }
        json_decref(line);
    }
    /* resumed, but the client was gone before the answer: no longer waiting */
    if (r->deferred) {
        conn_guard_suspended(&a->guard, r->guard, false);
        atomic_fetch_sub(&a->suspended, 1);
    }
    if (r->work_free)
        r->work_free(r->work);
    free(r->body);
    free(r->resp);
    free(r);
    *con_cls = NULL;
    atomic_fetch_sub(&a->in_flight, 1);
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    long n = -1;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
        buf = malloc((size_t)n + 1);
        if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
            free(buf);
            buf = NULL;
        }
        if (buf)
            buf[n] = '\0';
    }
    fclose(f);
    return buf;
}

/* threads = 0: one per online core (a handler never waits for I/O, so
 * more threads than cores only add switches). */
static int http_threads(const config *c)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    return c->threads > 0 ? c->threads : cores > 0 ? (int)cores : 2;
}

struct http_daemon {
    struct MHD_Daemon *d;
    char *cert, *key; /* libmicrohttpd may read the PEM text after start */
};

/* libmicrohttpd's own messages (a failed TLS handshake, a socket error)
 * as JSON log lines like every other line. */
__attribute__((format(printf, 2, 0))) /* a printf format from libmicrohttpd */
static void log_mhd(void *cls, const char *fmt, va_list ap)
{
    (void)cls;
    char msg[512];
    vsnprintf(msg, sizeof msg, fmt, ap);
    size_t n = strlen(msg);
    while (n && (msg[n - 1] == '\n' || msg[n - 1] == '\r'))
        msg[--n] = '\0';
    char ts[32];
    iso_time_format(now_ms(), ts);
    json_t *line = json_pack("{s:s,s:s,s:s}", "ts", ts, "event", "libmicrohttpd", "message", msg);
    char *text = line ? json_dumps(line, JSON_COMPACT) : NULL;
    if (text)
        fprintf(stderr, "%s\n", text);
    free(text);
    json_decref(line);
}

http_daemon *http_start(app *a, int listen_fd, char *err, size_t err_len)
{
    const config *c = &a->cfg;
    http_daemon *hd = calloc(1, sizeof *hd);
    if (!hd) {
        snprintf(err, err_len, "out of memory");
        return NULL;
    }
    /* ITC lets MHD_quiesce_daemon stop the listener while requests drain. */
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_ERROR_LOG |
                     MHD_USE_ITC | MHD_ALLOW_SUSPEND_RESUME;
    if (c->tls_cert[0] || c->tls_key[0]) {
        char why[600];
        if (c->tls_key[0] && !private_file_tls_key(c->tls_key, why, sizeof why)) {
            snprintf(err, err_len, "tls_key %s", why);
            http_stop(hd);
            return NULL;
        }
        hd->cert = read_file(c->tls_cert);
        hd->key = read_file(c->tls_key);
        if (!hd->cert || !hd->key) {
            snprintf(err, err_len, "cannot read tls_cert / tls_key");
            http_stop(hd);
            return NULL;
        }
        flags |= MHD_USE_TLS;
    }
    struct MHD_OptionItem tls_opts[] = {
        { hd->cert ? MHD_OPTION_HTTPS_MEM_CERT : MHD_OPTION_END, 0, hd->cert },
        { hd->key ? MHD_OPTION_HTTPS_MEM_KEY : MHD_OPTION_END, 0, hd->key },
        { MHD_OPTION_END, 0, NULL },
    };
    /* listen_fd < 0: the gate accepts and hands connections over */
    if (listen_fd < 0)
        flags |= MHD_USE_NO_LISTEN_SOCKET;
    struct MHD_OptionItem listen_opts[] = {
        { listen_fd >= 0 ? MHD_OPTION_LISTEN_SOCKET : MHD_OPTION_END, listen_fd, NULL },
        { MHD_OPTION_END, 0, NULL },
    };
    hd->d = MHD_start_daemon(
        flags, 0, NULL, NULL, on_request, a,
        MHD_OPTION_EXTERNAL_LOGGER, log_mhd, NULL, /* must come first */
        MHD_OPTION_ARRAY, listen_opts,
        MHD_OPTION_THREAD_POOL_SIZE, (unsigned)http_threads(c),
        /* the guard sheds past max_connections; libmicrohttpd must accept
         * a little more for the guard to see the newcomer */
        MHD_OPTION_CONNECTION_LIMIT, (unsigned)a->guard.cap,
        MHD_OPTION_NOTIFY_CONNECTION, conn_guard_notify, &a->guard,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)c->connection_timeout_s,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, c->connection_memory,
        MHD_OPTION_STRICT_FOR_CLIENT, 1,
        MHD_OPTION_NOTIFY_COMPLETED, on_completed, a,
        MHD_OPTION_URI_LOG_CALLBACK, on_uri, NULL,
        MHD_OPTION_ARRAY, tls_opts,
        MHD_OPTION_END);
    if (!hd->d) {
        snprintf(err, err_len, "cannot start serving on %s:%d", c->listen_addr, c->port);
        http_stop(hd);
        return NULL;
    }
    return hd;
}

struct MHD_Daemon *http_mhd(http_daemon *hd)
{
    return hd ? hd->d : NULL;
}

void http_quiesce(http_daemon *hd)
{
    if (hd && hd->d)
        MHD_quiesce_daemon(hd->d);
}

unsigned http_connections(http_daemon *hd)
{
    const union MHD_DaemonInfo *info =
        hd && hd->d ? MHD_get_daemon_info(hd->d, MHD_DAEMON_INFO_CURRENT_CONNECTIONS) : NULL;
    return info ? info->num_connections : 0;
}

void http_stop(http_daemon *hd)
{
    if (!hd)
        return;
    if (hd->d) {
        MHD_quiesce_daemon(hd->d); /* the listening socket is the caller's */
        MHD_stop_daemon(hd->d);
    }
    free(hd->cert);
    free(hd->key);
    free(hd);
}
