/*
 * sqlite_conn: the SQLite driver (see the header). The SQL of every
 * request the store serves is in the one table of store_sql.c, prepared
 * here as it is; own_sql below holds SQLite's text for the statements
 * whose engines differ (BEGIN IMMEDIATE, JSON functions, the score's
 * record as a list). Migrations are apart (store_sqlite.c).
 */
#include "sqlite_conn.h"
#include "../store_backend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* SQLite's own text, where its engine needs it to differ from the one
 * table (store_sql.c); the counts are the table's. An entry there without
 * text and none here (SD_PLAYER_LOCK, SD_TWIN_LOCK, SD_IDENTITY_LOCK)
 * steps straight to SD_DONE: one writer holds the whole file, so there is
 * no row lock to take. */
static const char *const own_sql[SD_COUNT][SQ_PARTS] = {
    /* the write lock at the start: a second writer waits here, not at its
     * first write */
    [SD_BEGIN] = { "BEGIN IMMEDIATE" },
    /* JSON: SQLite's json_each */
    [SD_PLAYER_NAMES] = { "SELECT id, name FROM players WHERE id IN (SELECT value FROM json_each(?1))" },
    /* no data-modifying CTE in SQLite: a list run in order. The score; the
     * player's level best (?20: it goes to a level board), replaced only
     * by a strictly higher score; the token's redeem; the seq */
    [SD_SCORE_RECORD] = {
        SD_SCORE_INSERT,
        SD_BEST_INSERT " SELECT ?4, ?5, ?9, last_insert_rowid(), ?3, ?11, ?2 WHERE ?20" SD_BEST_IF_HIGHER,
        /* last_insert_rowid() is the score's seq to the end: level_bests
         * is WITHOUT ROWID (its insert leaves it) and an UPDATE does not
         * set it (scores has no index on nonce to look the seq up by) */
        "UPDATE seed_tokens SET redeemed = 1, outcome = ?19, score_seq = last_insert_rowid()"
        " WHERE nonce = ?2 AND redeemed = 0",
        /* the seq, when the redeem took (no RETURNING: it costs a
         * temporary table per statement) */
        "SELECT last_insert_rowid() WHERE changes() = 1",
    },
    /* JSON: SQLite's json_extract */
    [SD_ADMIN_FEATURES] = { "SELECT COUNT(*), COALESCE(SUM(json_extract(signals, '$.features.wasted') = 0), 0)"
                            " FROM scores WHERE player_id = ?1 AND completed = 1"
                            " AND json_extract(signals, '$.features.wasted') IS NOT NULL" },
};

/* Part n of statement id's text: SQLite's own, else the one table's. */
static const char *part_sql(sd_id id, int n)
{
    if (own_sql[id][0])
        return own_sql[id][n];
    return n == 0 ? sd_sql_of[id].text : NULL;
}

store_status sq_status(int rc)
{
    switch (rc & 0xff) {
    case SQLITE_OK:
    case SQLITE_ROW:
    case SQLITE_DONE:
        return STORE_OK;
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        return STORE_BUSY;
    case SQLITE_CONSTRAINT:
        return STORE_CONFLICT;
    default:
        return STORE_ERROR;
    }
}

/* Keeps a failure's code and message on the connection (a later reset
 * must not lose them). */
static void remember(conn *c, int rc)
{
    c->rc = rc;
    snprintf(c->err, sizeof c->err, "%s", c->db ? sqlite3_errmsg(c->db) : sqlite3_errstr(rc));
}

static sd_stmt *sq_start(sd_conn *sc, sd_id id)
{
    conn *c = (conn *)sc;
    sq_stmt *s = &c->st[id];
    if (s->n_parts < 0) {
        int n = 0;
        for (; n < SQ_PARTS && part_sql(id, n); n++) {
            int rc = sqlite3_prepare_v3(c->db, part_sql(id, n), -1, SQLITE_PREPARE_PERSISTENT,
                                        &s->part[n], NULL);
            s->n_params[n] = rc == SQLITE_OK ? sqlite3_bind_parameter_count(s->part[n]) : 0;
            if (rc != SQLITE_OK) {
                remember(c, rc);
                for (int k = 0; k <= n; k++) {
                    sqlite3_finalize(s->part[k]);
                    s->part[k] = NULL;
                }
                return NULL;
            }
        }
        s->n_parts = n;
    }
    s->bound = 0;
    s->ran = false;
    return (sd_stmt *)s;
}

static sd_stmt *sq_start_sql(sd_conn *sc, const char *sql)
{
    conn *c = (conn *)sc;
    sq_stmt *s = &c->adhoc;
    memset(s, 0, sizeof *s);
    s->c = c;
    s->adhoc = true;
    int rc = sqlite3_prepare_v2(c->db, sql, -1, &s->part[0], NULL);
    if (rc != SQLITE_OK) {
        remember(c, rc);
        return NULL;
    }
    s->n_parts = 1;
    s->n_params[0] = sqlite3_bind_parameter_count(s->part[0]);
    return (sd_stmt *)s;
}

/* Parameter k goes to ?k of every part that has it. */
static void sq_bind_int(sd_stmt *st, int64_t v)
{
    sq_stmt *s = (sq_stmt *)st;
    int k = ++s->bound;
    for (int i = 0; i < s->n_parts; i++)
        if (k <= s->n_params[i])
            sqlite3_bind_int64(s->part[i], k, v);
}

/* Short text is copied into the statement (a caller's stack buffer, a
 * date, need not outlive the call); longer text is borrowed. */
static void sq_bind_text(sd_stmt *st, const char *v)
{
    sq_stmt *s = (sq_stmt *)st;
    int k = ++s->bound;
    size_t n = strlen(v);
    if (n < SD_SHORT_TEXT && k <= SQ_PARAMS) {
        memcpy(s->small[k - 1], v, n + 1);
        v = s->small[k - 1];
    }
    for (int i = 0; i < s->n_parts; i++)
        if (k <= s->n_params[i])
            sqlite3_bind_text(s->part[i], k, v, (int)n, SQLITE_STATIC);
}

static void sq_bind_blob(sd_stmt *st, const void *v, size_t n)
{
    sq_stmt *s = (sq_stmt *)st;
    int k = ++s->bound;
    for (int i = 0; i < s->n_parts; i++)
        if (k <= s->n_params[i])
            sqlite3_bind_blob(s->part[i], k, v, (int)n, SQLITE_STATIC);
}

static void sq_bind_null(sd_stmt *st)
{
    sq_stmt *s = (sq_stmt *)st;
    int k = ++s->bound;
    for (int i = 0; i < s->n_parts; i++)
        if (k <= s->n_params[i])
            sqlite3_bind_null(s->part[i], k);
}

static int sq_step(sd_stmt *st)
{
    sq_stmt *s = (sq_stmt *)st;
    if (s->n_parts == 0)
        return SD_DONE;
    int rc;
    if (!s->ran) {
        for (int i = 0; i < s->n_parts - 1; i++) {
            while ((rc = sqlite3_step(s->part[i])) == SQLITE_ROW)
                ;
            if (rc != SQLITE_DONE) {
                remember(s->c, rc);
                return SD_FAIL;
            }
        }
        s->ran = true;
    }
    rc = sqlite3_step(s->part[s->n_parts - 1]);
    if (rc == SQLITE_ROW)
        return SD_ROW;
    if (rc == SQLITE_DONE)
        return SD_DONE;
    remember(s->c, rc);
    return SD_FAIL;
}

static sqlite3_stmt *rows_of(sd_stmt *st)
{
    sq_stmt *s = (sq_stmt *)st;
    return s->part[s->n_parts - 1];
}

static int64_t sq_col_int(sd_stmt *st, int col)
{
    return sqlite3_column_int64(rows_of(st), col);
}

static const char *sq_col_text(sd_stmt *st, int col)
{
    return (const char *)sqlite3_column_text(rows_of(st), col);
}

static void sq_col_blob(sd_stmt *st, int col, uint8_t *dst, size_t n)
{
    sqlite3_stmt *r = rows_of(st);
    const void *b = sqlite3_column_blob(r, col);
    if (b && (size_t)sqlite3_column_bytes(r, col) == n)
        memcpy(dst, b, n);
    else
        memset(dst, 0, n);
}

static void sq_done(sd_stmt *st)
{
    sq_stmt *s = (sq_stmt *)st;
    for (int i = 0; i < s->n_parts; i++) {
        sqlite3_reset(s->part[i]);
        sqlite3_clear_bindings(s->part[i]);
    }
    if (s->adhoc) {
        sqlite3_finalize(s->part[0]);
        s->part[0] = NULL;
        s->n_parts = 0;
    }
    s->bound = 0;
    s->ran = false;
}

/* BUSY stays BUSY; the rest is an error logged here, once. */
static store_status sq_failed(sd_conn *sc, const char *where)
{
    conn *c = (conn *)sc;
    if (sq_status(c->rc) == STORE_BUSY)
        return STORE_BUSY;
    store_log_error(where, c->err[0] ? c->err : "failed");
    return STORE_ERROR;
}

const store_driver sqlite_driver = STORE_DRIVER_OF(sq);

int sq_exec(conn *c, sd_id id)
{
    sd_stmt *s = sq_start((sd_conn *)c, id);
    if (!s)
        return c->rc ? c->rc : SQLITE_ERROR;
    int rc = sq_step(s);
    sq_done(s);
    return rc == SD_FAIL ? (c->rc ? c->rc : SQLITE_ERROR) : SQLITE_OK;
}

store_status sq_check(conn *c, const sd_sql *declared, char *err, size_t err_len)
{
    for (int id = 0; id < SD_COUNT; id++) {
        sq_stmt *s = (sq_stmt *)sq_start((sd_conn *)c, (sd_id)id);
        if (!s) {
            snprintf(err, err_len, "statement %s: %s", sd_names[id], c->err);
            return STORE_ERROR;
        }
        if (s->n_parts == 0)
            continue; /* a hook SQLite does not need */
        int params = 0;
        for (int i = 0; i < s->n_parts; i++)
            params = s->n_params[i] > params ? s->n_params[i] : params;
        if (!sd_sql_counts_ok(sd_names[id], &declared[id], params,
                              sqlite3_column_count(rows_of((sd_stmt *)s)), err, err_len))
            return STORE_ERROR;
    }
    return STORE_OK;
}

void sq_close(conn *c)
{
    for (int i = 0; i < SD_COUNT; i++) {
        for (int k = 0; k < SQ_PARTS; k++) {
            sqlite3_finalize(c->st[i].part[k]);
            c->st[i].part[k] = NULL;
        }
        c->st[i].n_parts = -1;
    }
    sqlite3_finalize(c->adhoc.part[0]);
    c->adhoc.part[0] = NULL;
    if (c->db)
        sqlite3_close(c->db);
    c->db = NULL;
}

store_status sq_open(conn *c, const store_config *cfg, sq_role role, char *err, size_t err_len)
{
    memset(c, 0, sizeof *c);
    for (int i = 0; i < SD_COUNT; i++) {
        c->st[i].c = c;
        c->st[i].n_parts = -1;
    }
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX;
    int rc = sqlite3_open_v2(cfg->database, &c->db, flags, NULL);
    if (rc != SQLITE_OK)
        goto fail;
    sqlite3_busy_timeout(c->db, cfg->busy_timeout_ms);
    /* No memory map on readers: in WAL mode SQLite drops and rebuilds the
     * mapping at every read that follows another connection's commit, and
     * the writer commits all the time (mmap/munmap were a fifth of the CPU). */
    static const char *const pragmas_of[] = {
        [SQ_WRITER] = "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;"
                      " PRAGMA foreign_keys=ON; PRAGMA cache_size=-16384;",
        [SQ_READER] = "PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON; PRAGMA query_only=1;"
                      " PRAGMA mmap_size=0; PRAGMA cache_size=-4096;",
        [SQ_CHECKPOINTER] = "PRAGMA synchronous=FULL; PRAGMA cache_size=-1024;",
    };
    const char *pragmas = pragmas_of[role];
    rc = sqlite3_exec(c->db, pragmas, NULL, NULL, NULL);
    if (rc != SQLITE_OK)
        goto fail;
    return STORE_OK;
fail:
    snprintf(err, err_len, "%s: %s", cfg->database, c->db ? sqlite3_errmsg(c->db) : sqlite3_errstr(rc));
    store_status st = sq_status(rc) == STORE_BUSY ? STORE_BUSY : STORE_ERROR;
    sq_close(c);
    return st;
}

