/*
 * conn_guard: deadlines, not idle timers, for every connection of the main
 * listener, and shedding when connections run short.
 *
 * libmicrohttpd 0.9.75 only knows an idle timeout (one byte every few
 * seconds keeps a connection forever) and refuses new connections once
 * its limit is reached, so a few hundred slow clients deny everyone. The
 * guard tracks each connection through its phases and enforces:
 * - headers: a request's headers must be complete within
 *   header_timeout_ms of the connection opening (or, on a kept-alive
 *   connection, of the previous answer);
 * - body: the body must be complete within body_timeout_ms of the headers,
 *   and after a grace second must arrive at body_min_rate bytes/s or more;
 * - shedding: when a new connection would pass max_connections, the
 *   oldest-slowest connection still sending its request (or idle between
 *   requests) is closed to make room, so a client that sends its request at
 *   once is served whatever slow clients hold;
 * - per network: a connection that would pass max_per_network open
 *   connections from one IPv4 address or one IPv6 /64 (an IPv4-mapped
 *   address counts as the IPv4 one; netaddr_bucket_net) is answered 429
 *   too_many_connections and closed. The count is of connections
 *   libmicrohttpd holds: one the gate still holds before its headers is
 *   bounded by the gate's own max_waiting and shedding instead.
 * A connection suspended for a commit, or one whose handler is running or
 * whose answer is being sent, is never timed out or shed by the guard.
 *
 * How: MHD_OPTION_NOTIFY_CONNECTION tells STARTED/CLOSED, http.c reports
 * the phases; a reaper thread checks deadlines every GUARD_TICK_MS and ends
 * an offender by writing a 408 JSON answer (when nothing was answered on
 * it yet) and shutdown(2) on its socket; libmicrohttpd then closes it on
 * its own thread. The guard never close(2)s a descriptor it does not own,
 * and touches one only under its lock, which the CLOSED notification also
 * takes before libmicrohttpd closes the descriptor.
 *
 * Ownership: the guard owns its entries (one per open connection, freed at
 * CLOSED) and its thread (conn_guard_stop joins it).
 */
#ifndef REPLAYD_SERVER_CONN_GUARD_H
#define REPLAYD_SERVER_CONN_GUARD_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include <microhttpd.h>

#include "metrics.h"

#define GUARD_TICK_MS 100

typedef struct guard_conn guard_conn;

typedef struct conn_guard_config {
    int max_connections;   /* shed past this many */
    int header_timeout_ms;
    int body_timeout_ms;
    int body_min_rate;     /* bytes per second */
    int max_per_network;   /* open connections from one address or /64; 0: no cap */
    metrics *stats;        /* counts what the guard ends; may be NULL; the caller's */
    bool tls;              /* no plain-text answer is written before shutdown */
} conn_guard_config;

typedef struct conn_guard {
    conn_guard_config cfg;
    pthread_mutex_t mu;
    pthread_cond_t wake;
    guard_conn **live; /* open connections, unordered */
    int n, cap;
    bool stopping, started;
    pthread_t reaper;
} conn_guard;

bool conn_guard_start(conn_guard *g, const conn_guard_config *cfg);
void conn_guard_stop(conn_guard *g);

/* libmicrohttpd's MHD_OPTION_NOTIFY_CONNECTION callback; cls is the guard. */
void conn_guard_notify(void *cls, struct MHD_Connection *conn, void **socket_context,
                       enum MHD_ConnectionNotificationCode code);

/* What http.c reports for a connection (its guard entry comes from
 * conn_guard_of; every function accepts NULL). */
guard_conn *conn_guard_of(struct MHD_Connection *conn);
void conn_guard_headers_done(conn_guard *g, guard_conn *gc); /* the first call: body next */
void conn_guard_body(conn_guard *g, guard_conn *gc, size_t bytes);
void conn_guard_request_done(conn_guard *g, guard_conn *gc); /* request read: handler runs */
void conn_guard_suspended(conn_guard *g, guard_conn *gc, bool suspended);
void conn_guard_answered(conn_guard *g, guard_conn *gc);     /* completed: idle until the next */

#endif
