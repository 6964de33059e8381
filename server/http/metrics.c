#include "metrics.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/game.h"
#include "../store/store.h"

static const int status_codes[METRICS_STATUSES] = { 200, 201, 400, 401, 403, 404, 405, 409,
                                                    413, 415, 422, 429, 500, 503, 0, 0 };
static const int64_t bucket_us[METRICS_BUCKETS] = { 100,   250,   500,    1000,   2500,   5000,
                                                    10000, 25000, 50000, 100000, 250000, 1000000 };
static const char *const outcome_names[VERIFY_OUTCOMES] = { "accepted", "rejected", "retry",
                                                            "conflict" };
static const char *const conn_end_names[CONN_ENDS] = { "timed_out", "shed", "overloaded", "per_network",
                                                       "framing" };

void metrics_init(metrics *m, const char *const *route_names, int n_routes)
{
    memset(m, 0, sizeof *m);
    m->n_routes = n_routes < METRICS_ROUTES ? n_routes : METRICS_ROUTES;
    for (int i = 0; i < m->n_routes; i++)
        m->route_names[i] = route_names[i];
}

static int status_slot(int status)
{
    for (int i = 0; i < METRICS_STATUSES; i++)
        if (status_codes[i] == status)
            return i;
    return METRICS_STATUSES - 1; /* "other" */
}

void metrics_request(metrics *m, int route, int status, int64_t micros)
{
    if (route < 0 || route >= m->n_routes)
        return;
    atomic_fetch_add(&m->requests[route][status_slot(status)], 1);
    int b = 0;
    while (b < METRICS_BUCKETS && micros > bucket_us[b])
        b++;
    atomic_fetch_add(&m->latency[route][b], 1);
    atomic_fetch_add(&m->latency_sum_us[route], (uint_fast64_t)(micros > 0 ? micros : 0));
}

void metrics_verification(metrics *m, int game_index, verify_outcome o)
{
    if (game_index >= 0 && game_index < METRICS_GAMES)
        atomic_fetch_add(&m->verifications[game_index][o], 1);
}

void metrics_connection_ended(metrics *m, conn_end why)
{
    if (m && why >= 0 && why < CONN_ENDS)
        atomic_fetch_add(&m->connections_ended[why], 1);
}

void metrics_receipt_signed(metrics *m)
{
    atomic_fetch_add(&m->receipts_signed, 1);
}

typedef struct text {
    char *p;
    size_t len, cap;
} text;

__attribute__((format(printf, 2, 3))) static void emit(text *t, const char *fmt, ...);

static void emit(text *t, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(t->p ? t->p + t->len : NULL, t->p ? t->cap - t->len : 0, fmt, ap);
        va_end(ap);
        if (n < 0)
            return;
        if (t->p && t->len + (size_t)n < t->cap) {
            t->len += (size_t)n;
            return;
        }
        size_t cap = (t->cap ? t->cap * 2 : 8192) + (size_t)n;
        char *p = realloc(t->p, cap);
        if (!p)
            return;
        t->p = p;
        t->cap = cap;
    }
}

char *metrics_render(metrics *m, size_t *len)
{
    text t = { NULL, 0, 0 };
    emit(&t, "# HELP replayd_requests_total HTTP requests by route and status.\n"
             "# TYPE replayd_requests_total counter\n");
    for (int r = 0; r < m->n_routes; r++)
        for (int s = 0; s < METRICS_STATUSES; s++) {
            uint64_t v = atomic_load(&m->requests[r][s]);
            if (v == 0)
                continue;
            if (status_codes[s])
                emit(&t, "replayd_requests_total{route=\"%s\",status=\"%d\"} %llu\n",
                     m->route_names[r], status_codes[s], (unsigned long long)v);
            else
                emit(&t, "replayd_requests_total{route=\"%s\",status=\"other\"} %llu\n",
                     m->route_names[r], (unsigned long long)v);
        }
    emit(&t, "# HELP replayd_request_duration_seconds Request latency by route.\n"
             "# TYPE replayd_request_duration_seconds histogram\n");
    for (int r = 0; r < m->n_routes; r++) {
        uint64_t cum = 0;
        for (int b = 0; b <= METRICS_BUCKETS; b++) {
            cum += atomic_load(&m->latency[r][b]);
            if (b < METRICS_BUCKETS)
                emit(&t, "replayd_request_duration_seconds_bucket{route=\"%s\",le=\"%lld.%06lld\"} %llu\n",
                     m->route_names[r], (long long)(bucket_us[b] / 1000000),
                     (long long)(bucket_us[b] % 1000000), (unsigned long long)cum);
            else
                emit(&t, "replayd_request_duration_seconds_bucket{route=\"%s\",le=\"+Inf\"} %llu\n",
                     m->route_names[r], (unsigned long long)cum);
        }
        uint64_t sum = atomic_load(&m->latency_sum_us[r]);
        emit(&t, "replayd_request_duration_seconds_sum{route=\"%s\"} %llu.%06llu\n",
             m->route_names[r], (unsigned long long)(sum / 1000000), (unsigned long long)(sum % 1000000));
        emit(&t, "replayd_request_duration_seconds_count{route=\"%s\"} %llu\n", m->route_names[r],
             (unsigned long long)cum);
    }
    emit(&t, "# HELP replayd_verifications_total Score submissions by game and outcome.\n"
             "# TYPE replayd_verifications_total counter\n");
    for (size_t g = 0; g < game_catalog_count && g < METRICS_GAMES; g++)
        for (int o = 0; o < VERIFY_OUTCOMES; o++)
            emit(&t, "replayd_verifications_total{game=\"%s\",outcome=\"%s\"} %llu\n",
                 game_catalog[g]->name, outcome_names[o],
                 (unsigned long long)atomic_load(&m->verifications[g][o]));
    emit(&t, "# HELP replayd_connections_ended_total Connections the server ended itself, by reason.\n"
             "# TYPE replayd_connections_ended_total counter\n");
    for (int e = 0; e < CONN_ENDS; e++)
        emit(&t, "replayd_connections_ended_total{reason=\"%s\"} %llu\n", conn_end_names[e],
             (unsigned long long)atomic_load(&m->connections_ended[e]));
    /* the Ed25519 signatures made for scores: one a checkpoint (v3), one a
     * score (v2 receipts) */
    emit(&t, "# HELP replayd_log_checkpoints_total Score log checkpoints signed (one a write batch that"
             " appended leaves).\n"
             "# TYPE replayd_log_checkpoints_total counter\n"
             "replayd_log_checkpoints_total %llu\n",
         (unsigned long long)store_log_checkpoints_signed());
    emit(&t, "# HELP replayd_receipts_signed_total Per-score receipt signatures (receipt_version 2).\n"
             "# TYPE replayd_receipts_signed_total counter\n"
             "replayd_receipts_signed_total %llu\n",
         (unsigned long long)atomic_load(&m->receipts_signed));
    *len = t.len;
    return t.p;
}
