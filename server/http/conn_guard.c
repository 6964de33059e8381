/* conn_guard: per-connection deadlines and shedding (see the header). */
#include "conn_guard.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "http_gate.h"
#include "netaddr.h"

/* A body's rate is judged only after this long: a client may pause once. */
#define BODY_GRACE_MS 1000

typedef enum guard_phase {
    PHASE_HEADERS, /* reading a request's headers (or idle before them) */
    PHASE_BODY,    /* reading its body */
    PHASE_SERVING  /* handler running, suspended or answer being sent */
} guard_phase;

struct guard_conn {
    int fd;
    int index;          /* in live[] */
    guard_phase phase;
    int64_t since_ms;   /* start of the phase */
    uint64_t body_bytes;
    bool suspended;
    bool ended;         /* shut down by the guard */
    bool reused;        /* answered before: now idle or on its next request */
    bool has_net;
    netaddr net;        /* the peer's bucket (netaddr_bucket_net) */
};

static int64_t mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* With the lock held: answers (plain HTTP only) and shuts the socket down;
 * libmicrohttpd sees the end and closes it on its own thread. */
static void end_conn(conn_guard *g, guard_conn *gc, int status, const char *code, const char *msg)
{
    if (gc->ended)
        return;
    gc->ended = true;
    /* an idle kept-alive connection is closed silently: a client may be
     * sending its next request already and would take an answer for it */
    if (!g->cfg.tls && !(gc->reused && gc->phase == PHASE_HEADERS)) {
        char out[700];
        int n = http_raw_error(out, sizeof out, status, code, msg);
        if (n > 0)
            (void)!send(gc->fd, out, (size_t)n, MSG_DONTWAIT | MSG_NOSIGNAL);
    }
    shutdown(gc->fd, SHUT_RDWR);
}

/* With the lock held: refuses a connection libmicrohttpd has read nothing
 * from yet (its STARTED notification): what the client sent so far is read
 * and dropped before the answer, so the close does not reset the
 * connection under it (a balancer reading a reset instead of the answer
 * cannot retry the request elsewhere). */
static void refuse_new(conn_guard *g, guard_conn *gc, int status, const char *code, const char *msg)
{
    gc->ended = true;
    if (!g->cfg.tls)
        (void)http_raw_answer(gc->fd, status, code, msg);
    shutdown(gc->fd, SHUT_RDWR);
}

/* Still reading its request (or idle between requests), not suspended. */
static bool sheddable(const guard_conn *gc)
{
    return !gc->ended && !gc->suspended && gc->phase != PHASE_SERVING;
}

/* Bytes per second of a connection's request so far (0 before a body). */
static int64_t rate_of(const guard_conn *gc, int64_t now)
{
    int64_t age = now - gc->since_ms;
    return gc->phase == PHASE_BODY && age > 0 ? (int64_t)gc->body_bytes * 1000 / age : 0;
}

/* With the lock held: the oldest-slowest connection that may be shed,
 * other than `except`; NULL when none. */
static guard_conn *pick_victim(conn_guard *g, const guard_conn *except, int64_t now)
{
    guard_conn *worst = NULL;
    int64_t worst_rate = 0;
    for (int i = 0; i < g->n; i++) {
        guard_conn *gc = g->live[i];
        if (gc == except || !sheddable(gc))
            continue;
        int64_t rate = rate_of(gc, now);
        if (!worst || rate < worst_rate || (rate == worst_rate && gc->since_ms < worst->since_ms)) {
            worst = gc;
            worst_rate = rate;
        }
    }
    return worst;
}

static void *reaper(void *arg)
{
    conn_guard *g = arg;
    pthread_mutex_lock(&g->mu);
    while (!g->stopping) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += GUARD_TICK_MS * 1000000L;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&g->wake, &g->mu, &until);
        int64_t now = mono_ms();
        for (int i = 0; i < g->n; i++) {
            guard_conn *gc = g->live[i];
            if (!sheddable(gc))
                continue;
            int64_t age = now - gc->since_ms;
            if (gc->phase == PHASE_HEADERS && age > g->cfg.header_timeout_ms) {
                end_conn(g, gc, 408, "request_timeout", "the request headers did not arrive in time");
                metrics_connection_ended(g->cfg.stats, CONN_END_TIMED_OUT);
            } else if (gc->phase == PHASE_BODY &&
                       (age > g->cfg.body_timeout_ms ||
                        (age > BODY_GRACE_MS && rate_of(gc, now) < g->cfg.body_min_rate))) {
                end_conn(g, gc, 408, "request_timeout", "the request body did not arrive in time");
                metrics_connection_ended(g->cfg.stats, CONN_END_TIMED_OUT);
            }
        }
    }
    pthread_mutex_unlock(&g->mu);
    return NULL;
}

bool conn_guard_start(conn_guard *g, const conn_guard_config *cfg)
{
    memset(g, 0, sizeof *g);
    g->cfg = *cfg;
    /* libmicrohttpd is allowed a little past max_connections (http.c), so
     * that a new connection is seen, and something shed for it */
    g->cap = cfg->max_connections + cfg->max_connections / 8 + 16;
    g->live = calloc((size_t)g->cap, sizeof *g->live);
    if (!g->live)
        return false;
    pthread_mutex_init(&g->mu, NULL);
    pthread_cond_init(&g->wake, NULL);
    if (pthread_create(&g->reaper, NULL, reaper, g) != 0) {
        conn_guard_stop(g);
        return false;
    }
    g->started = true;
    return true;
}

void conn_guard_stop(conn_guard *g)
{
    if (g->started) {
        pthread_mutex_lock(&g->mu);
        g->stopping = true;
        pthread_cond_signal(&g->wake);
        pthread_mutex_unlock(&g->mu);
        pthread_join(g->reaper, NULL);
        g->started = false;
    }
    for (int i = 0; i < g->n; i++)
        free(g->live[i]);
    free(g->live);
    g->live = NULL;
    g->n = 0;
    pthread_cond_destroy(&g->wake);
    pthread_mutex_destroy(&g->mu);
}

static void track(conn_guard *g, struct MHD_Connection *conn, void **socket_context)
{
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
    guard_conn *gc = calloc(1, sizeof *gc);
    if (!gc || !ci) {
        free(gc);
        return; /* untracked: libmicrohttpd's own limits still hold */
    }
    gc->fd = ci->connect_fd;
    const union MHD_ConnectionInfo *ai = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (ai && ai->client_addr && netaddr_from_sockaddr(ai->client_addr, &gc->net)) {
        gc->net = netaddr_bucket_net(&gc->net);
        gc->has_net = true;
    }
    gc->phase = PHASE_HEADERS;
    int64_t now = mono_ms();
    gc->since_ms = now;
    pthread_mutex_lock(&g->mu);
    if (g->n == g->cap) { /* cannot happen: libmicrohttpd's limit is cap */
        pthread_mutex_unlock(&g->mu);
        free(gc);
        return;
    }
    gc->index = g->n;
    g->live[g->n++] = gc;
    *socket_context = gc;
    int open_now = 0, from_net = 0;
    for (int i = 0; i < g->n; i++) {
        const guard_conn *o = g->live[i];
        open_now += !o->ended;
        from_net += !o->ended && o->has_net && gc->has_net && memcmp(o->net.b, gc->net.b, sizeof o->net.b) == 0;
    }
    if (g->cfg.max_per_network > 0 && from_net > g->cfg.max_per_network) {
        refuse_new(g, gc, 429, "too_many_connections",
                   "too many connections are open from this address (an IPv6 client: from its /64)");
        metrics_connection_ended(g->cfg.stats, CONN_END_PER_NETWORK);
    } else if (open_now > g->cfg.max_connections) {
        guard_conn *victim = pick_victim(g, gc, now);
        if (victim) {
            end_conn(g, victim, 503, "connection_shed", "the server needed this connection for another client");
            metrics_connection_ended(g->cfg.stats, CONN_END_SHED);
        } else {
            /* every other connection is being served: refuse the new one */
            refuse_new(g, gc, 503, "overloaded", "the server has no connection to spare");
            metrics_connection_ended(g->cfg.stats, CONN_END_OVERLOADED);
        }
    }
    pthread_mutex_unlock(&g->mu);
}

static void untrack(conn_guard *g, guard_conn *gc)
{
    pthread_mutex_lock(&g->mu);
    g->live[gc->index] = g->live[--g->n];
    g->live[gc->index]->index = gc->index;
    pthread_mutex_unlock(&g->mu);
    free(gc);
}

void conn_guard_notify(void *cls, struct MHD_Connection *conn, void **socket_context,
                       enum MHD_ConnectionNotificationCode code)
{
    conn_guard *g = cls;
    if (code == MHD_CONNECTION_NOTIFY_STARTED)
        track(g, conn, socket_context);
    else if (code == MHD_CONNECTION_NOTIFY_CLOSED && *socket_context) {
        untrack(g, *socket_context);
        *socket_context = NULL;
    }
}

guard_conn *conn_guard_of(struct MHD_Connection *conn)
{
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return ci ? ci->socket_context : NULL;
}

static void set_phase(conn_guard *g, guard_conn *gc, guard_phase phase)
{
    if (!gc)
        return;
    pthread_mutex_lock(&g->mu);
    gc->phase = phase;
    gc->since_ms = mono_ms();
    gc->body_bytes = 0;
    pthread_mutex_unlock(&g->mu);
}

void conn_guard_headers_done(conn_guard *g, guard_conn *gc)
{
    set_phase(g, gc, PHASE_BODY);
}

void conn_guard_body(conn_guard *g, guard_conn *gc, size_t bytes)
{
    if (!gc)
        return;
    pthread_mutex_lock(&g->mu);
    gc->body_bytes += bytes;
    pthread_mutex_unlock(&g->mu);
}

void conn_guard_request_done(conn_guard *g, guard_conn *gc)
{
    set_phase(g, gc, PHASE_SERVING);
}

void conn_guard_suspended(conn_guard *g, guard_conn *gc, bool suspended)
{
    if (!gc)
        return;
    pthread_mutex_lock(&g->mu);
    gc->suspended = suspended;
    pthread_mutex_unlock(&g->mu);
}

void conn_guard_answered(conn_guard *g, guard_conn *gc)
{
    set_phase(g, gc, PHASE_HEADERS);
    if (gc) {
        pthread_mutex_lock(&g->mu);
        gc->reused = true;
        pthread_mutex_unlock(&g->mu);
    }
}
