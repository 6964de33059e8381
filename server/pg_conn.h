/*
 * pg_conn: one libpq connection of the PostgreSQL backend and what the code
 * driving one shares: the table of the store's statements (prepared on a
 * connection at first use, again after a reconnect), parameter lists,
 * SQLSTATE to store_status, column readers, and the token and score row
 * readers.
 *
 * Ownership: a pg_conn owns its PGconn; pg_disconnect frees it. A pg_conn
 * is used by one thread at a time (the backend's pool, its writer thread or
 * its listener see to that). Every PGresult a function here returns is the
 * caller's to PQclear. pg_read_score and pg_score_by_nonce fill heap
 * strings the caller frees with store_score_clear.
 */
#ifndef REPLAYD_SERVER_PG_CONN_H
#define REPLAYD_SERVER_PG_CONN_H

#include <libpq-fe.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store.h"

enum pg_stmt_id {
    PS_PLAYER_INSERT,
    PS_PLAYER_BY_HASH,
    PS_PLAYER_BANNED,
    PS_PLAYER_NAMES,
    PS_PLAYER_LOCK,
    PS_TOKEN_INSERT,
    PS_TOKEN_LOCK,
    PS_SCORE_LOCK,
    PS_TOKEN_DAILY,
    PS_TOKEN_LIMITS,
    PS_TOKEN_STATS,
    PS_SCORE_REDEEM,
    PS_SCORE_BY_NONCE,
    PS_REJECTION_INSERT,
    PS_TOKEN_REJECTED,
    PS_QUOTA_TAKE,
    PS_QUOTA_PRUNE,
    PS_LOAD_LEVEL,
    PS_LOAD_DAILY,
    PS_SCORES_PAGE,
    PS_SCORES_COUNT,
    PS_SCORE_TWIN,
    PS_TWIN_CANDIDATES,
    PS_NOTIFY,
    PS_COUNT
};

/* The channel every node LISTENs on; a payload line per committed score. */
#define PG_CHANNEL "replayd_scores"

typedef struct pg_conn {
    PGconn *pg;
    bool prepared[PS_COUNT];
    /* the last failure was a deadlock or serialization failure: the
     * transaction may be run again */
    bool retry;
} pg_conn;

/* Opens url (a postgres:// URL or a libpq key=value string) and sets the
 * session up (lock_timeout from busy_timeout_ms, synchronous_commit on).
 * Fills err on failure. */
store_status pg_connect(pg_conn *c, const char *url, int busy_timeout_ms, char *err,
                        size_t err_len);
void pg_disconnect(pg_conn *c);
/* Before use: a connection that broke is re-established (statements
 * prepare again). False when the database cannot be reached. */
bool pg_usable(pg_conn *c);

/* Statement parameters, all sent as text but bytea (binary). */
#define PG_ARGS_MAX 24
typedef struct pg_args {
    int n;
    const char *values[PG_ARGS_MAX];
    int lengths[PG_ARGS_MAX];
    int formats[PG_ARGS_MAX];
    char buf[PG_ARGS_MAX][24];
} pg_args;

void pa_int(pg_args *a, int64_t v);
void pa_bool(pg_args *a, bool v);
void pa_text(pg_args *a, const char *s); /* borrowed until the statement ran */
void pa_bytes(pg_args *a, const void *b, int n);
void pa_null(pg_args *a);
void pa_game(pg_args *a, const play *p);
void pa_date(pg_args *a, const play *p); /* "YYYY-MM-DD", "" for a level play */

/* Runs statement id (prepared on first use). Returns the result when it
 * succeeded, NULL after a failure (c->retry says whether it was a
 * deadlock or serialization failure; *st, when not NULL, the status:
 * STORE_BUSY for a lock timeout, a lost connection or a retryable
 * failure, else STORE_ERROR, logged here once under `where`). */
PGresult *pg_run(pg_conn *c, int id, const pg_args *a, const char *where, store_status *st);
/* Runs sql (not prepared: the operators' statements, run a few times per
 * action, not per submission) with a's parameters; results as pg_run, but
 * never reconnects (it runs inside a transaction). */
PGresult *pg_query(pg_conn *c, const char *sql, const pg_args *a, const char *where,
                   store_status *st);
/* A plain command (BEGIN, COMMIT, ROLLBACK); STORE_OK or as pg_run. */
store_status pg_exec(pg_conn *c, const char *sql, const char *where);

int64_t pg_int(const PGresult *r, int row, int col);
bool pg_bool(const PGresult *r, int row, int col);
void pg_text(char *dst, size_t cap, const PGresult *r, int row, int col); /* truncating */
void pg_bytes(uint8_t *dst, size_t n, const PGresult *r, int row, int col); /* zeros unless n */
/* Rows a command changed or returned (PQcmdTuples as a number). */
int64_t pg_changed(const PGresult *r);

/* The text columns for a run's outcome and a score's status. */
const char *pg_outcome_text(run_outcome o);
const char *pg_status_text(score_status s);

/* A row of PS_TOKEN_LOCK, PS_SCORE_LOCK or PS_TOKEN_DAILY (its 12th column, rejections,
 * into *rejections when not NULL); false when it names a game this build
 * does not serve or a date that is not one. */
bool pg_read_token(const PGresult *r, int row, store_token *t, int64_t *rejections);
/* A row of PS_SCORE_BY_NONCE or PS_SCORES_PAGE into o (heap strings:
 * store_score_clear). */
store_status pg_read_score(const PGresult *r, int row, store_score *o);
store_status pg_score_by_nonce(pg_conn *c, const uint8_t nonce[PLAY_NONCE_BYTES],
                               store_score *out, const char *where);

/* A game's name and a date (or "") back into a play's game and day. */
bool pg_game_day(const char *game, const char *date, play *p);

#endif
