/*
 * sqlite_conn: one SQLite connection of the store and everything shared by
 * the code that drives one: the table of prepared statements (prepared on
 * first use, kept until the connection closes), result-code mapping, column
 * copies and the token and score row readers.
 *
 * Ownership: a conn owns its sqlite3 handle and statements; sq_close frees
 * them. A conn is used by one thread at a time (the store's pool or its
 * writer thread see to that). sq_read_score and sq_score_by_nonce fill
 * heap strings the caller frees with store_score_clear. Game names and
 * dates become a play's game pointer and day number here, and back.
 */
#ifndef REPLAYD_SERVER_SQLITE_CONN_H
#define REPLAYD_SERVER_SQLITE_CONN_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store.h"

enum stmt_id {
    ST_BEGIN,
    ST_COMMIT,
    ST_ROLLBACK,
    ST_SAVEPOINT,
    ST_RELEASE,
    ST_ROLLBACK_TO,
    ST_PLAYER_INSERT,
    ST_PLAYER_BY_HASH,
    ST_PLAYER_NAME,
    ST_TOKEN_INSERT,
    ST_TOKEN_GET,
    ST_TOKEN_DAILY,
    ST_TOKEN_OUTSTANDING,
    ST_TOKEN_FORFEITS,
    ST_TOKEN_STATS,
    ST_TOKEN_REDEEM,
    ST_SCORE_INSERT,
    ST_SCORE_BY_NONCE,
    ST_SCORE_DUPLICATE,
    ST_BEST_UPSERT,
    ST_REJECTION_INSERT,
    ST_TOKEN_REJECTED,
    ST_QUOTA_TAKE,
    ST_QUOTA_PRUNE,
    ST_LOAD_LEVEL,
    ST_LOAD_DAILY,
    ST_SCORES_PAGE,
    ST_SCORES_COUNT,
    ST_SCORE_TWIN,
    ST_TWIN_CANDIDATES,
    ST_COUNT
};

/* A connection and its prepared statements, by enum stmt_id. */
typedef struct conn {
    sqlite3 *db;
    sqlite3_stmt *st[ST_COUNT];
} conn;

/* SQLite result code to store_status (BUSY and LOCKED are STORE_BUSY). */
store_status sq_status(int rc);
/* The connection's statement id, prepared on first use; NULL on failure. */
sqlite3_stmt *sq_stmt(conn *c, int id);
/* Resets a statement and clears its bindings after use. */
void sq_done(sqlite3_stmt *st);
/* Runs a statement without rows; SQLITE_OK or the error code. */
int sq_exec(conn *c, int id);
void sq_text(char *dst, size_t cap, sqlite3_stmt *st, int col); /* truncating copy */
void sq_blob(uint8_t *dst, size_t n, sqlite3_stmt *st, int col); /* zeros unless n bytes */
char *sq_dup(sqlite3_stmt *st, int col);                          /* malloc'd, NULL: no memory */
void sq_hex(const uint8_t *b, size_t n, char *out);               /* 2n digits and a NUL */

typedef enum sq_role { SQ_WRITER, SQ_READER, SQ_CHECKPOINTER } sq_role;

/* Opens cfg->database with the role's pragmas (the writer: WAL, FULL, a
 * page cache; a reader: query_only). Fills err on failure. */
store_status sq_open(conn *c, const store_config *cfg, sq_role role, char *err, size_t err_len);
void sq_close(conn *c);

/* Binds a play's game name and daily date (text at the SQL edge). */
void sq_bind_game(sqlite3_stmt *st, int col, const play *p);
void sq_bind_date(sqlite3_stmt *st, int col, const play *p);

/* The text columns for a run's outcome and a score's status. */
const char *sq_outcome_text(run_outcome o);
const char *sq_status_text(score_status s);

/* A row of ST_TOKEN_GET or ST_TOKEN_DAILY; false when it names a game this
 * build does not serve or a date that is not one. */
bool sq_read_token(sqlite3_stmt *st, store_token *t);
/* A row of ST_SCORE_BY_NONCE. */
store_status sq_read_score(sqlite3_stmt *st, store_score *o);
store_status sq_score_by_nonce(conn *c, const uint8_t nonce[PLAY_NONCE_BYTES], store_score *out);

#endif
