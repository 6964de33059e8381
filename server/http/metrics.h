/*
 * metrics: request counters by route and status, verification counters by
 * game and outcome, latency histograms, connections the server ended by
 * reason, v2 receipts signed; rendered as Prometheus text, with the score
 * log's checkpoints signed, which the store counts (store.h,
 * store_log_checkpoints_signed) and this reads.
 * Lock-free (C11 atomics); one process-wide instance owned by the server.
 */
#ifndef REPLAYD_SERVER_METRICS_H
#define REPLAYD_SERVER_METRICS_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#define METRICS_ROUTES 64
#define METRICS_STATUSES 16
#define METRICS_GAMES 16
#define METRICS_BUCKETS 12

typedef enum verify_outcome {
    VERIFY_ACCEPTED,
    VERIFY_REJECTED,
    VERIFY_RETRY,
    VERIFY_CONFLICT,
    VERIFY_OUTCOMES
} verify_outcome;

/* Connections the server ended itself, before or instead of an answer to
 * a request (the connection gate and guard count them). */
typedef enum conn_end {
    CONN_END_TIMED_OUT,    /* a header or body deadline (408) */
    CONN_END_SHED,         /* closed to make room (503 connection_shed) */
    CONN_END_OVERLOADED,   /* refused, nothing to shed (503 overloaded) */
    CONN_END_PER_NETWORK,  /* past max_connections_per_ip (429 too_many_connections) */
    CONN_END_FRAMING,      /* refused by the gate's framing rules (400, 411, 413, 414, 431, 505) */
    CONN_ENDS
} conn_end;

typedef struct metrics {
    const char *route_names[METRICS_ROUTES];
    int n_routes;
    atomic_uint_fast64_t requests[METRICS_ROUTES][METRICS_STATUSES];
    atomic_uint_fast64_t latency[METRICS_ROUTES][METRICS_BUCKETS + 1];
    atomic_uint_fast64_t latency_sum_us[METRICS_ROUTES];
    atomic_uint_fast64_t verifications[METRICS_GAMES][VERIFY_OUTCOMES];
    atomic_uint_fast64_t connections_ended[CONN_ENDS];
    atomic_uint_fast64_t receipts_signed; /* v2 receipts (api_scores.c counts them) */
} metrics;

void metrics_init(metrics *m, const char *const *route_names, int n_routes);
void metrics_request(metrics *m, int route, int status, int64_t micros);
void metrics_verification(metrics *m, int game_index, verify_outcome o);
/* m may be NULL (nothing is counted). */
void metrics_connection_ended(metrics *m, conn_end why);
/* One v2 receipt signed (a per-score Ed25519 signature). */
void metrics_receipt_signed(metrics *m);
/* Prometheus text exposition; the caller frees the result. */
char *metrics_render(metrics *m, size_t *len);

#endif
