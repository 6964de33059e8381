/*
 * sqlite_conn: one SQLite connection of the store, and the SQLite driver
 * (store_driver.h) over it: the store's statements (their text in
 * store_sql.c, written once for both backends; SQLite's own text for the
 * four that differ in sqlite_conn.c), prepared on first use and kept until
 * the connection closes (the writer prepares them all at open, sq_check),
 * result-code mapping and the column readers.
 *
 * A statement of the table may be a short list of SQL statements run in
 * order over the same numbered parameters (?N is the Nth parameter bound),
 * the last one giving the rows: what PostgreSQL does in one statement with
 * a data-modifying CTE, SQLite does in a list.
 *
 * Ownership: a conn owns its sqlite3 handle and statements; sq_close frees
 * them. A conn is used by one thread at a time (the store's pool or its
 * writer thread see to that).
 */
#ifndef REPLAYD_SERVER_SQLITE_CONN_H
#define REPLAYD_SERVER_SQLITE_CONN_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../store_driver.h"
#include "../store_sql.h"

#define SQ_PARTS 4
#define SQ_PARAMS 24

/* A statement of the table on one connection. */
typedef struct sq_stmt {
    struct conn *c;
    sqlite3_stmt *part[SQ_PARTS]; /* prepared on first use */
    int n_params[SQ_PARTS];       /* the highest ?N of each part */
    int n_parts;                  /* -1: not prepared yet */
    int bound;                    /* parameters bound so far */
    bool ran;                     /* the parts before the last ran */
    bool adhoc;                   /* start_sql's: finalized at done */
    char small[SQ_PARAMS][SD_SHORT_TEXT]; /* short text parameters, copied */
} sq_stmt;

typedef struct conn {
    sqlite3 *db;
    sq_stmt st[SD_COUNT];
    sq_stmt adhoc;
    int rc;         /* the last failure's result code */
    char err[256];  /* and its message */
} conn;

extern const store_driver sqlite_driver;

/* The connection as the store's rules take it. */
static inline sd_db sq_db(conn *c)
{
    sd_db x = { &sqlite_driver, (sd_conn *)c };
    return x;
}

/* SQLite result code to store_status (BUSY and LOCKED are STORE_BUSY). */
store_status sq_status(int rc);
/* Runs statement id of the table (no rows wanted); SQLITE_OK or the error
 * code (c->rc, c->err). */
int sq_exec(conn *c, sd_id id);

/* Prepares every statement (store_sql.c's text or this backend's own) on
 * c and checks its parameter and column counts against declared (SD_COUNT
 * entries: sd_sql_of, or a test's); STORE_ERROR with err naming the
 * statement when one fails to prepare or differs. Run once at open, after
 * the migrations. */
store_status sq_check(conn *c, const sd_sql *declared, char *err, size_t err_len);

typedef enum sq_role { SQ_WRITER, SQ_READER, SQ_CHECKPOINTER } sq_role;

/* Opens cfg->database with the role's pragmas (the writer: WAL, FULL, a
 * page cache; a reader: query_only). Fills err on failure. */
store_status sq_open(conn *c, const store_config *cfg, sq_role role, char *err, size_t err_len);
void sq_close(conn *c);

#endif
