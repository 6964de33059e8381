/*
 * pg_conn: one libpq connection of the PostgreSQL backend, and the
 * PostgreSQL driver (store_driver.h) over it: the store's statements
 * (their text in store_sql.c, written once for both backends with ?N,
 * prepared with $N; PostgreSQL's own text and row locks in pg_conn.c),
 * prepared on a connection at first use, again after a reconnect (the
 * writer prepares them all at open, pg_check), parameter lists, SQLSTATE
 * to store_status and the column readers.
 *
 * Ownership: a pg_conn owns its PGconn; pg_disconnect frees it. A pg_conn
 * is used by one thread at a time (the backend's pool, its writer thread or
 * its listener see to that). Every PGresult a function here returns is the
 * caller's to PQclear; a driver statement's result is cleared at done().
 */
#ifndef REPLAYD_SERVER_PG_CONN_H
#define REPLAYD_SERVER_PG_CONN_H

#include <libpq-fe.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../store_driver.h"
#include "../store_sql.h"

/* Statement parameters, all sent as text but bytea (binary). */
#define PG_ARGS_MAX 32
typedef struct pg_args {
    int n;
    const char *values[PG_ARGS_MAX];
    int lengths[PG_ARGS_MAX];
    int formats[PG_ARGS_MAX];
    char buf[PG_ARGS_MAX][SD_SHORT_TEXT];
} pg_args;

/* The backend's own statements, after the store's (store_driver.h). */
enum { PG_NOTIFY = SD_COUNT, PG_ADMIN_PLAYER_OF, PG_LOCK_PLAYERS, PG_STMT_COUNT };

/* The channel every node LISTENs on; a payload line per committed score. */
#define PG_CHANNEL "replayd_scores"

/* A statement of the table (or pg_query's text) started on a connection:
 * its parameters, and its rows once run. */
typedef struct pg_stmt {
    struct pg_conn *c;
    int id;          /* -1: sql */
    const char *sql; /* start_sql's, with $N for ?N */
    char *own_sql;   /* that text, the statement's to free */
    pg_args a;
    PGresult *r;
    int row, rows;
    bool ran;
} pg_stmt;

typedef struct pg_conn {
    PGconn *pg;
    bool prepared[PG_STMT_COUNT];
    /* the last failure was a deadlock or serialization failure: the
     * transaction may be run again */
    bool retry;
    store_status last; /* the last failure's status */
    pg_stmt st[SD_COUNT];
    pg_stmt adhoc;
} pg_conn;

extern const store_driver pg_driver;

/* The connection as the store's rules take it. */
static inline sd_db pg_db(pg_conn *c)
{
    sd_db x = { &pg_driver, (sd_conn *)c };
    return x;
}

/* Opens url (a postgres:// URL or a libpq key=value string) and sets the
 * session up (lock_timeout from busy_timeout_ms, synchronous_commit on).
 * Fills err on failure. */
store_status pg_connect(pg_conn *c, const char *url, int busy_timeout_ms, char *err,
                        size_t err_len);
void pg_disconnect(pg_conn *c);
/* Before use: a connection that broke is re-established (statements
 * prepare again). False when the database cannot be reached. */
bool pg_usable(pg_conn *c);

/* Prepares every statement on c (the transaction commands aside: they
 * run unprepared) and checks its parameter and column counts
 * (PQdescribePrepared) against declared (SD_COUNT entries: sd_sql_of, or
 * a test's; the backend's own ids against pg_conn.c's); STORE_ERROR with
 * err naming the statement when one fails to prepare or differs. Run once
 * at open, after the migrations. */
store_status pg_check(pg_conn *c, const sd_sql *declared, char *err, size_t err_len);

void pa_int(pg_args *a, int64_t v);
void pa_text(pg_args *a, const char *s); /* borrowed until the statement ran */
void pa_bytes(pg_args *a, const void *b, int n);
void pa_null(pg_args *a);

/* Runs statement id (prepared on first use). Returns the result when it
 * succeeded, NULL after a failure (c->retry says whether it was a
 * deadlock or serialization failure; *st, when not NULL, the status:
 * STORE_BUSY for a lock timeout, a lost connection or a retryable
 * failure, else STORE_ERROR, logged here once under `where`). */
PGresult *pg_run(pg_conn *c, int id, const pg_args *a, const char *where, store_status *st);
/* Runs sql (not prepared: the driver's start_sql, a statement built at
 * run time from an operator's filters) with a's parameters; results as pg_run, but never
 * reconnects (it runs inside a transaction). */
PGresult *pg_query(pg_conn *c, const char *sql, const pg_args *a, const char *where,
                   store_status *st);
/* A plain command (BEGIN, COMMIT, ROLLBACK); STORE_OK or as pg_run. */
store_status pg_exec(pg_conn *c, const char *sql, const char *where);

int64_t pg_int(const PGresult *r, int row, int col);
bool pg_bool(const PGresult *r, int row, int col);
void pg_bytes(uint8_t *dst, size_t n, const PGresult *r, int row, int col); /* zeros unless n */

#endif
