#include "serving.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "http.h"
#include "http_gate.h"
#include "listener.h"

#define DRAIN_LIMIT_MS 10000     /* in-flight requests at shutdown */
#define IDLE_GRACE_MS 1000       /* idle keep-alive connections at shutdown */
#define QUEUED_LIMIT_MS 1000     /* connections queued on the listener at shutdown */
#define RETIRING_MAX 8

typedef struct serving {
    app *a;
    int listen_fd;
    http_gate *gate; /* plain HTTP: the gate accepts; TLS: the daemon does */
    http_daemon *current;
    http_daemon *retiring[RETIRING_MAX]; /* quiesced by a reload, finishing */
    int n_retiring;
} serving;

static int64_t mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void sleep_ms(long ms)
{
    struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };
    nanosleep(&ts, NULL);
}

static void log_event(const char *event, const char *detail)
{
    json_t *line = json_pack("{s:s,s:s}", "event", event, "detail", detail ? detail : "");
    char *text = line ? json_dumps(line, JSON_COMPACT) : NULL;
    if (text)
        fprintf(stderr, "%s\n", text);
    free(text);
    json_decref(line);
}

/* Stops retired daemons whose connections are all closed. */
static void reap_retired(serving *s, bool wait_all)
{
    for (int i = 0; i < s->n_retiring;) {
        if (!wait_all && http_connections(s->retiring[i]) > 0) {
            i++;
            continue;
        }
        http_stop(s->retiring[i]);
        s->retiring[i] = s->retiring[--s->n_retiring];
    }
}

/* SIGHUP: the live settings from the re-read configuration, and, when
 * TLS is on, a new daemon with the re-read certificate on the same socket
 * before the old one stops accepting (no connection is refused). */
static void reload(serving *s, config_reader reread)
{
    app *a = s->a;
    config fresh;
    if (!reread(&fresh)) {
        log_event("reload_failed", "the configuration could not be read; nothing changed");
        return;
    }
    char err[256];
    live_settings *next = live_from_config(&fresh, atomic_load(&a->live), err, sizeof err);
    if (!next) {
        log_event("reload_failed", err);
        return;
    }
    atomic_store(&a->live, next);
    if (s->gate || (!fresh.tls_cert[0] && !fresh.tls_key[0])) {
        /* plain HTTP (TLS needs a restart to turn on or off) */
        log_event("reloaded", "live settings");
        return;
    }
    if (s->n_retiring == RETIRING_MAX)
        reap_retired(s, true);
    memcpy(a->cfg.tls_cert, fresh.tls_cert, sizeof a->cfg.tls_cert);
    memcpy(a->cfg.tls_key, fresh.tls_key, sizeof a->cfg.tls_key);
    http_daemon *d = http_start(a, s->listen_fd, err, sizeof err);
    if (!d) {
        log_event("reload_failed", err); /* the old certificate keeps serving */
        return;
    }
    http_quiesce(s->current);
    s->retiring[s->n_retiring++] = s->current;
    s->current = d;
    log_event("reloaded", "live settings and TLS certificate");
}

/* Waits for signals until until_ms (mono_ms; -1: no deadline), applying
 * SIGHUP and reaping retired daemons meanwhile. Returns the SIGTERM or
 * SIGINT that came, or 0 at the deadline. */
static int serve_until(serving *s, const sigset_t *set, config_reader reread, int64_t until_ms)
{
    for (;;) {
        int64_t tick = 200;
        if (until_ms >= 0 && until_ms - mono_ms() < tick)
            tick = until_ms - mono_ms();
        if (tick <= 0)
            return 0;
        struct timespec ts = { 0, (long)tick * 1000000 };
        int sig = sigtimedwait(set, NULL, &ts);
        if (sig == SIGTERM || sig == SIGINT)
            return sig;
        if (sig == SIGHUP)
            reload(s, reread);
        else
            reap_retired(s, false);
    }
}

/* The first SIGTERM/SIGINT: /healthz says draining at once, while every
 * other request is still served (answered Connection: close, so a kept-
 * alive client comes back through its balancer, to another node) for
 * drain_grace_s, long enough for the balancer's health check to take the
 * node out. A second signal ends the grace. */
static void drain_grace(serving *s, int sig, const sigset_t *set, config_reader reread)
{
    int grace_s = s->a->cfg.drain_grace_s;
    atomic_store(&s->a->draining, true);
    fprintf(stderr, "{\"event\":\"draining\",\"signal\":%d,\"grace_s\":%d}\n", sig, grace_s);
    if (grace_s <= 0)
        return;
    int again = serve_until(s, set, reread, mono_ms() + (int64_t)grace_s * 1000);
    if (again)
        fprintf(stderr, "{\"event\":\"grace_ended\",\"signal\":%d}\n", again);
}

/* After the grace: the listener stops (connections already queued on it
 * are answered 503 draining, not reset, and the socket closes, so a new
 * one is refused at once and a balancer tries another node), in-flight
 * requests get DRAIN_LIMIT_MS and suspended ones as long as their writes
 * take (libmicrohttpd must not stop with a suspended connection); idle
 * keep-alive connections get a short grace, answered Connection: close. */
static void drain(serving *s)
{
    app *a = s->a;
    bool gated = s->gate != NULL;
    http_gate_stop(s->gate); /* no new connections */
    s->gate = NULL;
    http_quiesce(s->current);
    for (int i = 0; i < s->n_retiring; i++)
        http_quiesce(s->retiring[i]);
    if (gated)
        http_gate_refuse_queued(s->listen_fd, QUEUED_LIMIT_MS);
    close(s->listen_fd);
    s->listen_fd = -1;
    for (int waited = 0; atomic_load(&a->in_flight) > 0; waited += 10) {
        if (waited >= DRAIN_LIMIT_MS && atomic_load(&a->suspended) == 0)
            break;
        sleep_ms(10);
    }
    for (int waited = 0; waited < IDLE_GRACE_MS && http_connections(s->current) > 0; waited += 10)
        sleep_ms(10);
    while (atomic_load(&a->suspended) > 0)
        sleep_ms(10);
    http_stop(s->current);
    reap_retired(s, true);
}

/* Plain HTTP goes through the gate (framing checked before libmicrohttpd
 * sees a request); TLS is libmicrohttpd's alone, on the socket itself. */
static bool start_serving(serving *s, char *err, size_t err_len)
{
    app *a = s->a;
    bool tls = a->cfg.tls_cert[0] || a->cfg.tls_key[0];
    if (!tls) {
        http_gate_config gate_cfg = {
            .max_waiting = a->cfg.max_connections,
            .header_timeout_ms = a->cfg.header_timeout_ms,
            .max_header_bytes = a->cfg.connection_memory / 4,
            .max_body = a->cfg.max_body,
            .stats = &a->stats,
        };
        s->gate = http_gate_new(s->listen_fd, &gate_cfg, err, err_len);
        if (!s->gate)
            return false;
    }
    s->current = http_start(a, tls ? s->listen_fd : -1, err, err_len);
    if (!s->current)
        return false;
    if (s->gate && !http_gate_run(s->gate, http_mhd(s->current))) {
        snprintf(err, err_len, "cannot start the connection gate");
        return false;
    }
    return true;
}

int serving_run(app *a, config_reader reread, unsigned metrics_port)
{
    serving s = { .a = a, .listen_fd = -1 };
    char err[512];
    int port = 0;
    s.listen_fd = listener_open(a->cfg.listen_addr, a->cfg.port, &port, err, sizeof err);
    if (s.listen_fd < 0) {
        fprintf(stderr, "replayd: %s\n", err);
        return 1;
    }
    if (!start_serving(&s, err, sizeof err)) {
        fprintf(stderr, "replayd: %s\n", err);
        http_gate_stop(s.gate);
        http_stop(s.current);
        close(s.listen_fd);
        return 1;
    }
    /* said once serving has started: a start that fails (a TLS key
     * refused, say) never announces a port */
    json_t *line = json_pack("{s:s,s:s,s:i,s:s,s:i,s:i}", "event", "listening", "addr", a->cfg.listen_addr,
                             "port", port, "data", a->cfg.data_dir, "schema", store_schema_version(a->db),
                             "metrics_port", (int)metrics_port);
    char *text = line ? json_dumps(line, JSON_COMPACT) : NULL;
    if (text)
        fprintf(stderr, "%s\n", text);
    free(text);
    json_decref(line);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGHUP);
    drain_grace(&s, serve_until(&s, &set, reread, -1), &set, reread);
    drain(&s);
    return 0;
}
