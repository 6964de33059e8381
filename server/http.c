/*
 * http: libmicrohttpd glue. Requests are answered on the final callback
 * (never on the headers-only first one, which on 0.9.75 would force
 * Connection: close), except a declared Content-Length over the cap, which
 * is refused at once with 413.
 */
#include "http.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "api.h"
#include "parse.h"

static int64_t clock_offset_us;

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

typedef struct route {
    const char *method;
    const char *pattern; /* segments; "*" matches one, a final "**" the rest (one or more) */
    void (*fn)(request *r);
} route;

static const route routes[] = {
    { "POST", "v1/players", api_players_create },
    { "GET", "v1/games", api_games },
    { "POST", "v1/seeds", api_seeds_create },
    { "POST", "v1/scores", api_scores_submit },
    { "GET", "v1/scores/*", api_score_get },
    { "GET", "v1/daily", api_daily },
    { "GET", "v1/leaderboards/daily/*/me", api_board_daily_me },
    { "GET", "v1/leaderboards/daily/*", api_board_daily },
    { "GET", "v1/leaderboards/*/*/me", api_board_level_me },
    { "GET", "v1/leaderboards/*/*", api_board_level },
    { "GET", "v1/keys", api_keys },
    { "GET", "healthz", api_healthz },
    { "GET", "metrics", api_metrics },
    { "GET", "v1/admin/players/*", api_admin_player },
    { "GET", "v1/admin/scores/*", api_admin_score },
    { "GET", "", api_web_index },
    { "GET", "replay/*", api_web_replay },
    { "GET", "assets/**", api_web_asset },
};
#define N_ROUTES ((int)(sizeof routes / sizeof routes[0]))

static const char *const route_names[N_ROUTES + 1] = {
    "players",     "games",       "seeds",         "scores",        "score_get",
    "daily",       "board_daily_me", "board_daily", "board_level_me", "board_level",
    "keys",        "healthz",     "metrics",       "admin_player",  "admin_score",
    "web_index",   "web_replay",  "web_asset",     "other",
};

_Static_assert(sizeof route_names / sizeof route_names[0] == N_ROUTES + 1,
               "one metrics label per route, then \"other\"");
_Static_assert(N_ROUTES + 1 <= METRICS_ROUTES, "metrics.h counts every route");

void http_route_names(const char *const **names, int *n)
{
    *names = route_names;
    *n = N_ROUTES + 1;
}

static bool pattern_matches(const char *pattern, request *r)
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

static void dispatch(request *r)
{
    bool path_known = false;
    for (int i = 0; i < N_ROUTES; i++) {
        if (!pattern_matches(routes[i].pattern, r))
            continue;
        path_known = true;
        if (strcmp(routes[i].method, r->method) == 0) {
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

void reply_json(request *r, int status, json_t *body)
{
    char *text = body ? json_dumps(body, JSON_COMPACT) : NULL;
    json_decref(body);
    if (!text) {
        static const char oom[] = "{\"error\":{\"code\":\"internal\",\"message\":\"out of memory\"}}";
        reply_text(r, 500, "application/json", strdup(oom), sizeof oom - 1);
        return;
    }
    reply_text(r, status, "application/json", text, strlen(text));
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

/* Depth of the deepest array/object, counted without parsing, so a body of
 * 100,000 '[' never reaches the parser's recursion. */
static int json_depth(const char *s, size_t n, int limit)
{
    int depth = 0, deepest = 0;
    bool in_string = false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (in_string) {
            if (c == '\\')
                i++;
            else if (c == '"')
                in_string = false;
            continue;
        }
        if (c == '"')
            in_string = true;
        else if (c == '[' || c == '{') {
            if (++depth > deepest)
                deepest = depth;
            if (deepest > limit)
                return deepest;
        } else if (c == ']' || c == '}')
            depth--;
    }
    return deepest;
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
    if (json_depth(r->body, r->body_len, r->app->cfg.max_json_depth) > r->app->cfg.max_json_depth) {
        reply_error(r, 400, "too_deep", "the JSON nests deeper than allowed");
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

static void client_ip(struct MHD_Connection *c, char *out, size_t n)
{
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    snprintf(out, n, "?");
    if (!ci || !ci->client_addr)
        return;
    const struct sockaddr *sa = ci->client_addr;
    if (sa->sa_family == AF_INET)
        inet_ntop(AF_INET, &((const struct sockaddr_in *)(const void *)sa)->sin_addr, out, (socklen_t)n);
    else if (sa->sa_family == AF_INET6)
        inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr, out, (socklen_t)n);
}

static enum MHD_Result send_reply(request *r)
{
    /* libmicrohttpd takes a non-const pointer but only reads a persistent buffer. */
    struct MHD_Response *resp =
        r->resp_static ? MHD_create_response_from_buffer(r->resp_len, (void *)r->resp_static, MHD_RESPMEM_PERSISTENT)
                       : MHD_create_response_from_buffer(r->resp_len, r->resp, MHD_RESPMEM_MUST_FREE);
    if (!resp)
        return MHD_NO;
    r->resp = NULL; /* libmicrohttpd frees it now */
    MHD_add_response_header(resp, "Content-Type", r->content_type ? r->content_type : "application/json");
    bool cache_set = false;
    for (int i = 0; i < r->n_resp_headers; i++) {
        MHD_add_response_header(resp, r->resp_headers[i][0], r->resp_headers[i][1]);
        cache_set = cache_set || strcasecmp(r->resp_headers[i][0], "Cache-Control") == 0;
    }
    if (!cache_set)
        MHD_add_response_header(resp, "Cache-Control", "no-store");
    enum MHD_Result ok = MHD_queue_response(r->conn, (unsigned)r->status, resp);
    MHD_destroy_response(resp);
    return ok;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url,
                                  const char *method, const char *version, const char *upload,
                                  size_t *upload_size, void **con_cls)
{
    (void)version;
    app *a = cls;
    request *r = *con_cls;
    if (!r) {
        r = calloc(1, sizeof *r);
        if (!r)
            return MHD_NO;
        *con_cls = r;
        r->app = a;
        r->conn = conn;
        r->method = method;
        r->started_us = now_us();
        r->route = -1;
        r->guard = conn_guard_of(conn);
        conn_guard_headers_done(&a->guard, r->guard);
        atomic_fetch_add(&a->in_flight, 1);
        split_path(r, url);
        client_ip(conn, r->ip, sizeof r->ip);
        const char *cl = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Content-Length");
        int64_t declared;
        if (cl && parse_i64(cl, 0, INT64_MAX, &declared) && (uint64_t)declared > a->cfg.max_body) {
            r->body_too_large = true;
            conn_guard_request_done(&a->guard, r->guard);
            reply_error(r, 413, "body_too_large", "the body is larger than the server accepts");
            return send_reply(r);
        }
        return MHD_YES;
    }
    if (*upload_size) {
        conn_guard_body(&a->guard, r->guard, *upload_size);
        if (!r->body_too_large) {
            if (r->body_len + *upload_size > r->app->cfg.max_body) {
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
    else if (!ratelimit_allow(&a->limits, "ip", r->ip, a->cfg.rate_per_ip, r->started_us))
        reply_error(r, 429, "rate_limited", "too many requests from this address");
    else
        dispatch(r);
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
    if (!r)
        return;
    conn_guard_answered(&a->guard, r->guard);
    int64_t micros = now_us() - r->started_us;
    metrics_request(&a->stats, r->route < 0 ? N_ROUTES : r->route, r->status, micros);
    if (a->cfg.log_requests) {
        char ts[32];
        api_format_time(r->started_us / 1000, ts);
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

struct MHD_Daemon *http_start(app *a, bool gated, char *err, size_t err_len)
{
    const config *c = &a->cfg;
    struct sockaddr_in addr4;
    memset(&addr4, 0, sizeof addr4);
    addr4.sin_family = AF_INET;
    addr4.sin_port = htons((uint16_t)c->port);
    if (inet_pton(AF_INET, c->listen_addr, &addr4.sin_addr) != 1) {
        snprintf(err, err_len, "listen_addr \"%s\" is not an IPv4 address", c->listen_addr);
        return NULL;
    }
    /* ITC lets MHD_quiesce_daemon stop the listener while requests drain. */
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_ERROR_LOG |
                     MHD_USE_ITC | MHD_ALLOW_SUSPEND_RESUME;
    /* libmicrohttpd may read the PEM text after start: keep it for the
     * life of the process. */
    static char *cert, *key;
    if (c->tls_cert[0] || c->tls_key[0]) {
        cert = read_file(c->tls_cert);
        key = read_file(c->tls_key);
        if (!cert || !key) {
            snprintf(err, err_len, "cannot read tls_cert / tls_key");
            return NULL;
        }
        flags |= MHD_USE_TLS;
    }
    struct MHD_OptionItem tls_opts[] = {
        { cert ? MHD_OPTION_HTTPS_MEM_CERT : MHD_OPTION_END, 0, cert },
        { key ? MHD_OPTION_HTTPS_MEM_KEY : MHD_OPTION_END, 0, key },
        { MHD_OPTION_END, 0, NULL },
    };
    if (gated)
        flags |= MHD_USE_NO_LISTEN_SOCKET;
    struct MHD_OptionItem listen_opts[] = {
        { gated ? MHD_OPTION_END : MHD_OPTION_SOCK_ADDR, 0, &addr4 },
        { MHD_OPTION_END, 0, NULL },
    };
    struct MHD_Daemon *d = MHD_start_daemon(
        flags, gated ? 0 : (uint16_t)c->port, NULL, NULL, on_request, a,
        MHD_OPTION_ARRAY, listen_opts,
        MHD_OPTION_THREAD_POOL_SIZE, (unsigned)http_threads(c),
        /* the guard sheds past max_connections; libmicrohttpd must accept
         * a little more for the guard to see the newcomer */
        MHD_OPTION_CONNECTION_LIMIT, (unsigned)a->guard.cap,
        MHD_OPTION_NOTIFY_CONNECTION, conn_guard_notify, &a->guard,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned)c->max_connections_per_ip,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)c->connection_timeout_s,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, c->connection_memory,
        MHD_OPTION_STRICT_FOR_CLIENT, 1,
        MHD_OPTION_NOTIFY_COMPLETED, on_completed, a,
        MHD_OPTION_ARRAY, tls_opts,
        MHD_OPTION_END);
    if (!d)
        snprintf(err, err_len, "cannot listen on %s:%d", c->listen_addr, c->port);
    return d;
}
