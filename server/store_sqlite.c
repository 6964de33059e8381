/*
 * store_sqlite: the SQLite backend of store.h.
 *
 * Connections: one writer connection, used only by the writer thread, and a
 * small pool of read connections (WAL lets them read while the writer
 * writes). Every write, not only store_submit, is a job queued to the
 * writer thread, which takes up to group_commit_max jobs (waiting up to
 * group_commit_wait_us for more), runs each inside its own SAVEPOINT of one
 * BEGIN IMMEDIATE transaction, commits once, then wakes every caller. A
 * job's failure rolls back only its savepoint. Leaderboards are answered
 * from board_cache (in memory), offered each committed score after COMMIT.
 * WAL checkpoints run in a checkpointer thread on its own connection, so a
 * commit never waits for one.
 *
 * Ownership: the store owns its connections, statements, threads, queue and
 * board cache; store_close frees them all. Jobs live on their caller's
 * stack until the writer marks them done.
 */
#include "store.h"

#include <errno.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "board_cache.h"
#include "rank.h"
#include "schema.h"

#define READERS 4
#define CHECKPOINT_FRAMES 1000 /* SQLite's own auto-checkpoint threshold */

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
    ST_TOKEN_STATS,
    ST_TOKEN_REDEEM,
    ST_SCORE_INSERT,
    ST_SCORE_BY_NONCE,
    ST_BEST_UPSERT,
    ST_REJECTION_INSERT,
    ST_LOAD_LEVEL,
    ST_LOAD_DAILY,
    ST_MAX_PLAYER,
    ST_ALL_NAMES,
    ST_VERSION,
    ST_COUNT
};

#define TOKEN_COLS                                                                         \
    "nonce, player_id, game, level, seed, version, issued_at, expires_at, daily_date, text, " \
    "redeemed"

static const char *const stmt_sql[ST_COUNT] = {
    [ST_BEGIN] = "BEGIN IMMEDIATE",
    [ST_COMMIT] = "COMMIT",
    [ST_ROLLBACK] = "ROLLBACK",
    [ST_SAVEPOINT] = "SAVEPOINT job",
    [ST_RELEASE] = "RELEASE job",
    [ST_ROLLBACK_TO] = "ROLLBACK TO job",
    [ST_PLAYER_INSERT] = "INSERT INTO players (name, token_hash, created_at) VALUES (?, ?, ?)",
    [ST_PLAYER_BY_HASH] = "SELECT id, name, created_at FROM players WHERE token_hash = ?",
    [ST_PLAYER_NAME] = "SELECT name FROM players WHERE id = ?",
    [ST_TOKEN_INSERT] = "INSERT INTO seed_tokens (" TOKEN_COLS ") VALUES (?,?,?,?,?,?,?,?,?,?,0)",
    [ST_TOKEN_GET] = "SELECT " TOKEN_COLS " FROM seed_tokens WHERE nonce = ?",
    [ST_TOKEN_DAILY] = "SELECT " TOKEN_COLS
                       " FROM seed_tokens WHERE player_id = ? AND daily_date = ? AND daily_date <> ''",
    [ST_TOKEN_OUTSTANDING] = "SELECT COUNT(*) FROM seed_tokens"
                             " WHERE player_id = ? AND redeemed = 0 AND expires_at > ?",
    [ST_TOKEN_STATS] = "SELECT COUNT(*), COALESCE(SUM(redeemed), 0),"
                       " COALESCE(SUM(redeemed = 0 AND expires_at > ?1), 0),"
                       " COALESCE(SUM(redeemed = 0 AND expires_at <= ?1), 0)"
                       " FROM seed_tokens WHERE player_id = ?2",
    [ST_TOKEN_REDEEM] = "UPDATE seed_tokens SET redeemed = 1, score_seq = ?"
                        " WHERE nonce = ? AND redeemed = 0",
    [ST_SCORE_INSERT] = "INSERT INTO scores (score_id, nonce, player_id, game, level, seed, version,"
                        " daily_date, score, completed, received_at, moves_hash, receipt,"
                        " moves_json, result_json) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
    [ST_SCORE_BY_NONCE] = "SELECT s.score_id, s.nonce, s.player_id, p.name, s.game, s.level,"
                          " s.seed, s.version, s.daily_date, s.score, s.completed, s.received_at,"
                          " s.seq, s.moves_hash, s.receipt, s.moves_json, s.result_json"
                          " FROM seed_tokens t JOIN scores s ON s.seq = t.score_seq"
                          " JOIN players p ON p.id = s.player_id WHERE t.nonce = ?",
    /* a player's best: replaced only by a strictly higher score */
    [ST_BEST_UPSERT] = "INSERT INTO level_bests (game, level, score, seq, player_id, received_at,"
                       " nonce) VALUES (?, ?, ?, ?, ?, ?, ?)"
                       " ON CONFLICT (game, level, player_id) DO UPDATE"
                       " SET score = excluded.score, seq = excluded.seq,"
                       " received_at = excluded.received_at, nonce = excluded.nonce"
                       " WHERE excluded.score > level_bests.score",
    [ST_REJECTION_INSERT] = "INSERT INTO rejections (nonce, player_id, game, level, seed, version,"
                            " reason, move_index, received_at, moves_hash, moves_json)"
                            " VALUES (?,?,?,?,?,?,?,?,?,?,?)",
    [ST_LOAD_LEVEL] = "SELECT score, seq, player_id, received_at, nonce FROM level_bests"
                      " WHERE game = ? AND level = ? ORDER BY score DESC, seq ASC",
    /* the extra daily_date <> '' lets SQLite use the partial index */
    [ST_LOAD_DAILY] = "SELECT score, seq, player_id, received_at, nonce FROM scores"
                      " WHERE daily_date = ? AND daily_date <> '' ORDER BY score DESC, seq ASC",
    [ST_MAX_PLAYER] = "SELECT COALESCE(MAX(id), 0) FROM players",
    [ST_ALL_NAMES] = "SELECT id, name FROM players",
    [ST_VERSION] = "SELECT COALESCE(MAX(version), 0) FROM schema_version",
};

typedef struct conn {
    sqlite3 *db;
    sqlite3_stmt *st[ST_COUNT];
} conn;

typedef enum job_kind { JOB_SUBMIT, JOB_PLAYER, JOB_TOKEN, JOB_REJECTION } job_kind;

typedef struct job {
    struct job *next;
    job_kind kind;
    store_status st;
    bool done;
    pthread_cond_t cv;
    /* JOB_SUBMIT */
    store_score *sc;
    store_score *existing;
    rank_entry entry; /* what the boards are offered after the commit */
    /* JOB_PLAYER */
    const char *name;
    const uint8_t *hash;
    int64_t now;
    store_player *player;
    /* JOB_TOKEN */
    const store_token *token;
    int max_outstanding;
    store_token *token_existing;
    /* JOB_REJECTION */
    const store_rejection *rejection;
} job;

struct store {
    store_config cfg;
    conn writer;
    conn readers[READERS];
    bool reader_busy[READERS];
    pthread_mutex_t pool_mu;
    pthread_cond_t pool_cv;
    board_cache *boards;

    pthread_mutex_t q_mu;
    pthread_cond_t q_cv; /* the writer waits here for jobs */
    job *q_head, *q_tail;
    bool stopping;
    bool thread_started;
    pthread_t thread;
    job **batch;

    /* the checkpointer: WAL checkpoints off the commit path */
    conn ckpt;
    pthread_mutex_t ck_mu;
    pthread_cond_t ck_cv;
    bool ck_pending, ck_stopping, ck_started;
    pthread_t ck_thread;
};

/* ---- small helpers ---- */

static store_status status_of(int rc)
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

static sqlite3_stmt *stmt(conn *c, int id)
{
    if (!c->st[id] &&
        sqlite3_prepare_v3(c->db, stmt_sql[id], -1, SQLITE_PREPARE_PERSISTENT, &c->st[id], NULL) !=
            SQLITE_OK)
        return NULL;
    return c->st[id];
}

static void done_with(sqlite3_stmt *st)
{
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
}

/* Runs a statement that returns no rows. */
static int exec_stmt(conn *c, int id)
{
    sqlite3_stmt *st = stmt(c, id);
    if (!st)
        return sqlite3_errcode(c->db) ? sqlite3_errcode(c->db) : SQLITE_ERROR;
    int rc = sqlite3_step(st);
    done_with(st);
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

static void copy_text(char *dst, size_t cap, sqlite3_stmt *st, int col)
{
    const unsigned char *t = sqlite3_column_text(st, col);
    size_t n = t ? (size_t)sqlite3_column_bytes(st, col) : 0;
    if (n >= cap)
        n = cap - 1;
    if (n)
        memcpy(dst, t, n);
    dst[n] = '\0';
}

static void copy_blob(uint8_t *dst, size_t n, sqlite3_stmt *st, int col)
{
    const void *b = sqlite3_column_blob(st, col);
    if (b && (size_t)sqlite3_column_bytes(st, col) == n)
        memcpy(dst, b, n);
    else
        memset(dst, 0, n);
}

static char *dup_text(sqlite3_stmt *st, int col)
{
    const unsigned char *t = sqlite3_column_text(st, col);
    return strdup(t ? (const char *)t : "");
}

static void hex_of(const uint8_t *b, size_t n, char *out)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = digits[b[i] >> 4];
        out[2 * i + 1] = digits[b[i] & 15];
    }
    out[2 * n] = '\0';
}

/* Exactly 32 hex digits (either case) to 16 bytes. */
static bool nonce_from_hex(const char *hex, uint8_t out[STORE_NONCE_BYTES])
{
    if (!hex || strlen(hex) != 2 * STORE_NONCE_BYTES)
        return false;
    for (size_t i = 0; i < 2 * STORE_NONCE_BYTES; i++) {
        char ch = hex[i];
        int v = ch >= '0' && ch <= '9'   ? ch - '0'
                : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
                : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10
                                         : -1;
        if (v < 0)
            return false;
        if (i % 2 == 0)
            out[i / 2] = (uint8_t)(v << 4);
        else
            out[i / 2] |= (uint8_t)v;
    }
    return true;
}

static int64_t mono_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* ---- connections ---- */

static void conn_close(conn *c)
{
    for (int i = 0; i < ST_COUNT; i++) {
        sqlite3_finalize(c->st[i]);
        c->st[i] = NULL;
    }
    if (c->db)
        sqlite3_close(c->db);
    c->db = NULL;
}

static store_status conn_open(conn *c, const store_config *cfg, bool reader, char *err,
                              size_t err_len)
{
    memset(c, 0, sizeof *c);
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX;
    int rc = sqlite3_open_v2(cfg->path, &c->db, flags, NULL);
    if (rc != SQLITE_OK)
        goto fail;
    sqlite3_busy_timeout(c->db, cfg->busy_timeout_ms);
    /* readers map the file: a board load reads a lot of it */
    const char *pragmas = reader ? "PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;"
                                   " PRAGMA query_only=1; PRAGMA mmap_size=1073741824;"
                                 : "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;"
                                   " PRAGMA foreign_keys=ON; PRAGMA cache_size=-65536;";
    rc = sqlite3_exec(c->db, pragmas, NULL, NULL, NULL);
    if (rc != SQLITE_OK)
        goto fail;
    return STORE_OK;
fail:
    snprintf(err, err_len, "%s: %s", cfg->path, c->db ? sqlite3_errmsg(c->db) : sqlite3_errstr(rc));
    store_status st = status_of(rc) == STORE_BUSY ? STORE_BUSY : STORE_ERROR;
    conn_close(c);
    return st;
}

static conn *reader_get(store *s)
{
    pthread_mutex_lock(&s->pool_mu);
    for (;;) {
        for (int i = 0; i < READERS; i++) {
            if (!s->reader_busy[i]) {
                s->reader_busy[i] = true;
                pthread_mutex_unlock(&s->pool_mu);
                return &s->readers[i];
            }
        }
        pthread_cond_wait(&s->pool_cv, &s->pool_mu);
    }
}

static void reader_put(store *s, conn *c)
{
    pthread_mutex_lock(&s->pool_mu);
    s->reader_busy[c - s->readers] = false;
    pthread_cond_signal(&s->pool_cv);
    pthread_mutex_unlock(&s->pool_mu);
}

/* ---- migrations ---- */

static int read_version(conn *c, int *version)
{
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(c->db,
                                "SELECT COUNT(*) FROM sqlite_master"
                                " WHERE type = 'table' AND name = 'schema_version'",
                                -1, &st, NULL);
    if (rc != SQLITE_OK)
        return rc;
    rc = sqlite3_step(st);
    bool exists = rc == SQLITE_ROW && sqlite3_column_int(st, 0) > 0;
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW)
        return rc;
    *version = 0;
    if (!exists)
        return SQLITE_OK;
    rc = sqlite3_prepare_v2(c->db, stmt_sql[ST_VERSION], -1, &st, NULL);
    if (rc != SQLITE_OK)
        return rc;
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        *version = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? SQLITE_OK : rc;
}

/* Each migration in its own IMMEDIATE transaction that re-reads the
 * version, so two processes starting at once cannot apply one twice. */
static store_status migrate(conn *c, char *err, size_t err_len)
{
    int latest = 0;
    for (int i = 0; i < schema_migration_count; i++) {
        if (schema_migrations[i].version <= latest) {
            snprintf(err, err_len, "migration %s out of order", schema_migrations[i].name);
            return STORE_ERROR;
        }
        latest = schema_migrations[i].version;
    }
    for (int i = 0; i < schema_migration_count; i++) {
        const schema_migration *m = &schema_migrations[i];
        int rc = sqlite3_exec(c->db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
        if (rc != SQLITE_OK)
            goto fail;
        int current = 0;
        rc = read_version(c, &current);
        if (rc != SQLITE_OK)
            goto fail_rollback;
        if (current > latest) {
            sqlite3_exec(c->db, "ROLLBACK", NULL, NULL, NULL);
            snprintf(err, err_len, "database schema version %d is newer than this build (%d)",
                     current, latest);
            return STORE_ERROR;
        }
        if (current < m->version) {
            rc = sqlite3_exec(c->db, m->sql, NULL, NULL, NULL);
            if (rc != SQLITE_OK)
                goto fail_rollback;
            struct timespec now;
            clock_gettime(CLOCK_REALTIME, &now);
            char record[128];
            snprintf(record, sizeof record,
                     "INSERT INTO schema_version (version, applied_at) VALUES (%d, %lld)",
                     m->version, (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000);
            rc = sqlite3_exec(c->db, record, NULL, NULL, NULL);
            if (rc != SQLITE_OK)
                goto fail_rollback;
        }
        rc = sqlite3_exec(c->db, "COMMIT", NULL, NULL, NULL);
        if (rc != SQLITE_OK)
            goto fail_rollback;
        continue;
    fail_rollback:
        snprintf(err, err_len, "migration %s: %s", m->name, sqlite3_errmsg(c->db));
        sqlite3_exec(c->db, "ROLLBACK", NULL, NULL, NULL);
        return status_of(rc) == STORE_BUSY ? STORE_BUSY : STORE_ERROR;
    fail:
        snprintf(err, err_len, "migration %s: %s", m->name, sqlite3_errmsg(c->db));
        return status_of(rc) == STORE_BUSY ? STORE_BUSY : STORE_ERROR;
    }
    return STORE_OK;
}

int store_schema_version(store *s)
{
    conn *c = reader_get(s);
    int v = -1;
    if (read_version(c, &v) != SQLITE_OK)
        v = -1;
    reader_put(s, c);
    return v;
}

/* ---- row readers ---- */

static void read_token(sqlite3_stmt *st, store_token *t)
{
    memset(t, 0, sizeof *t);
    copy_blob(t->nonce, STORE_NONCE_BYTES, st, 0);
    t->player_id = sqlite3_column_int64(st, 1);
    copy_text(t->game, sizeof t->game, st, 2);
    t->level = sqlite3_column_int(st, 3);
    t->seed = (uint32_t)sqlite3_column_int64(st, 4);
    t->version = sqlite3_column_int(st, 5);
    t->issued_at = sqlite3_column_int64(st, 6);
    t->expires_at = sqlite3_column_int64(st, 7);
    copy_text(t->daily_date, sizeof t->daily_date, st, 8);
    copy_text(t->text, sizeof t->text, st, 9);
    t->redeemed = sqlite3_column_int(st, 10) != 0;
}

static store_status read_score(sqlite3_stmt *st, store_score *o)
{
    memset(o, 0, sizeof *o);
    copy_text(o->score_id, sizeof o->score_id, st, 0);
    copy_blob(o->nonce, STORE_NONCE_BYTES, st, 1);
    o->player_id = sqlite3_column_int64(st, 2);
    copy_text(o->player_name, sizeof o->player_name, st, 3);
    copy_text(o->game, sizeof o->game, st, 4);
    o->level = sqlite3_column_int(st, 5);
    o->seed = (uint32_t)sqlite3_column_int64(st, 6);
    o->version = sqlite3_column_int(st, 7);
    copy_text(o->daily_date, sizeof o->daily_date, st, 8);
    o->score = sqlite3_column_int64(st, 9);
    o->completed = sqlite3_column_int(st, 10) != 0;
    o->received_at = sqlite3_column_int64(st, 11);
    o->seq = sqlite3_column_int64(st, 12);
    copy_blob(o->moves_hash, STORE_HASH_BYTES, st, 13);
    copy_text(o->receipt, sizeof o->receipt, st, 14);
    o->moves_json = dup_text(st, 15);
    o->result_json = dup_text(st, 16);
    if (!o->moves_json || !o->result_json) {
        store_score_clear(o);
        return STORE_ERROR;
    }
    return STORE_OK;
}

static store_status score_by_nonce(conn *c, const uint8_t nonce[STORE_NONCE_BYTES],
                                   store_score *out)
{
    sqlite3_stmt *st = stmt(c, ST_SCORE_BY_NONCE);
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_blob(st, 1, nonce, STORE_NONCE_BYTES, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    store_status res = rc == SQLITE_ROW ? read_score(st, out)
                       : rc == SQLITE_DONE ? STORE_NOT_FOUND
                                           : status_of(rc);
    done_with(st);
    return res;
}

/* ---- write jobs (writer thread, inside a savepoint) ---- */

static store_status run_player(conn *c, job *j)
{
    if (strlen(j->name) > STORE_NAME_MAX)
        return STORE_ERROR;
    sqlite3_stmt *st = stmt(c, ST_PLAYER_INSERT);
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_text(st, 1, j->name, -1, SQLITE_STATIC);
    sqlite3_bind_blob(st, 2, j->hash, STORE_HASH_BYTES, SQLITE_STATIC);
    sqlite3_bind_int64(st, 3, j->now);
    int rc = sqlite3_step(st);
    done_with(st);
    if (rc != SQLITE_DONE)
        return status_of(rc) == STORE_OK ? STORE_ERROR : status_of(rc);
    if (j->player) {
        memset(j->player, 0, sizeof *j->player);
        j->player->id = sqlite3_last_insert_rowid(c->db);
        snprintf(j->player->name, sizeof j->player->name, "%s", j->name);
        j->player->created_at = j->now;
    }
    return STORE_OK;
}

static store_status run_token(conn *c, job *j)
{
    const store_token *t = j->token;
    sqlite3_stmt *st;
    int rc;
    if (t->daily_date[0]) {
        st = stmt(c, ST_TOKEN_DAILY);
        if (!st)
            return STORE_ERROR;
        sqlite3_bind_int64(st, 1, t->player_id);
        sqlite3_bind_text(st, 2, t->daily_date, -1, SQLITE_STATIC);
        rc = sqlite3_step(st);
        if (rc == SQLITE_ROW && j->token_existing)
            read_token(st, j->token_existing);
        done_with(st);
        if (rc == SQLITE_ROW)
            return STORE_CONFLICT;
        if (rc != SQLITE_DONE)
            return status_of(rc) == STORE_OK ? STORE_ERROR : status_of(rc);
    }
    st = stmt(c, ST_TOKEN_OUTSTANDING);
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_int64(st, 1, t->player_id);
    sqlite3_bind_int64(st, 2, j->now);
    rc = sqlite3_step(st);
    int64_t outstanding = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
    done_with(st);
    if (rc != SQLITE_ROW)
        return STORE_ERROR;
    if (outstanding >= j->max_outstanding)
        return STORE_LIMIT;
    st = stmt(c, ST_TOKEN_INSERT);
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_blob(st, 1, t->nonce, STORE_NONCE_BYTES, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, t->player_id);
    sqlite3_bind_text(st, 3, t->game, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 4, t->level);
    sqlite3_bind_int64(st, 5, t->seed);
    sqlite3_bind_int(st, 6, t->version);
    sqlite3_bind_int64(st, 7, t->issued_at);
    sqlite3_bind_int64(st, 8, t->expires_at);
    sqlite3_bind_text(st, 9, t->daily_date, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 10, t->text, -1, SQLITE_STATIC);
    rc = sqlite3_step(st);
    done_with(st);
    /* a repeated nonce is a caller bug, not a user conflict */
    return rc == SQLITE_DONE ? STORE_OK : STORE_ERROR;
}

static store_status run_rejection(conn *c, job *j)
{
    const store_rejection *r = j->rejection;
    sqlite3_stmt *st = stmt(c, ST_REJECTION_INSERT);
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_blob(st, 1, r->nonce, STORE_NONCE_BYTES, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, r->player_id);
    sqlite3_bind_text(st, 3, r->game, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 4, r->level);
    sqlite3_bind_int64(st, 5, r->seed);
    sqlite3_bind_int(st, 6, r->version);
    sqlite3_bind_text(st, 7, r->reason, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 8, r->move_index);
    sqlite3_bind_int64(st, 9, r->received_at);
    sqlite3_bind_blob(st, 10, r->moves_hash, STORE_HASH_BYTES, SQLITE_STATIC);
    sqlite3_bind_text(st, 11, r->moves_json ? r->moves_json : "", -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    done_with(st);
    return rc == SQLITE_DONE ? STORE_OK : STORE_ERROR;
}

static store_status run_submit(conn *c, job *j)
{
    store_score *sc = j->sc;
    char score_id[2 * STORE_NONCE_BYTES + 1];
    hex_of(sc->nonce, STORE_NONCE_BYTES, score_id);

    sqlite3_stmt *st = stmt(c, ST_TOKEN_GET);
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_blob(st, 1, sc->nonce, STORE_NONCE_BYTES, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    store_token tok;
    if (rc == SQLITE_ROW)
        read_token(st, &tok);
    done_with(st);
    if (rc == SQLITE_DONE)
        return STORE_NOT_FOUND;
    if (rc != SQLITE_ROW)
        return STORE_ERROR;
    bool redeemed = tok.redeemed;
    /* the caller checked the token; a score that does not match it is a
     * bug upstream and must not reach a board */
    if (tok.player_id != sc->player_id || strcmp(tok.game, sc->game) != 0 ||
        tok.level != sc->level || strcmp(tok.daily_date, sc->daily_date) != 0)
        return STORE_ERROR;
    if (redeemed) {
        /* also the case for a second submission of one token in one batch:
         * the first one's row is visible inside the transaction */
        store_score tmp;
        store_status got = score_by_nonce(c, sc->nonce, &tmp);
        if (got != STORE_OK)
            return STORE_ERROR;
        if (j->existing)
            *j->existing = tmp;
        else
            store_score_clear(&tmp);
        return STORE_CONFLICT;
    }
    st = stmt(c, ST_SCORE_INSERT);
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_text(st, 1, score_id, -1, SQLITE_STATIC);
    sqlite3_bind_blob(st, 2, sc->nonce, STORE_NONCE_BYTES, SQLITE_STATIC);
    sqlite3_bind_int64(st, 3, sc->player_id);
    sqlite3_bind_text(st, 4, sc->game, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 5, sc->level);
    sqlite3_bind_int64(st, 6, sc->seed);
    sqlite3_bind_int(st, 7, sc->version);
    sqlite3_bind_text(st, 8, sc->daily_date, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 9, sc->score);
    sqlite3_bind_int(st, 10, sc->completed ? 1 : 0);
    sqlite3_bind_int64(st, 11, sc->received_at);
    sqlite3_bind_blob(st, 12, sc->moves_hash, STORE_HASH_BYTES, SQLITE_STATIC);
    sqlite3_bind_text(st, 13, sc->receipt, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 14, sc->moves_json ? sc->moves_json : "", -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 15, sc->result_json ? sc->result_json : "", -1, SQLITE_STATIC);
    rc = sqlite3_step(st);
    done_with(st);
    if (rc != SQLITE_DONE)
        return STORE_ERROR;
    int64_t seq = sqlite3_last_insert_rowid(c->db);

    st = stmt(c, ST_TOKEN_REDEEM);
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_int64(st, 1, seq);
    sqlite3_bind_blob(st, 2, sc->nonce, STORE_NONCE_BYTES, SQLITE_STATIC);
    rc = sqlite3_step(st);
    done_with(st);
    if (rc != SQLITE_DONE)
        return STORE_ERROR;

    rank_entry *e = &j->entry;
    memset(e, 0, sizeof *e);
    st = stmt(c, ST_PLAYER_NAME);
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_int64(st, 1, sc->player_id);
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        copy_text(e->name, sizeof e->name, st, 0);
    done_with(st);
    if (rc != SQLITE_ROW)
        return STORE_ERROR;

    /* every score counts for its level board; a daily one also for its date */
    st = stmt(c, ST_BEST_UPSERT);
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_text(st, 1, sc->game, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 2, sc->level);
    sqlite3_bind_int64(st, 3, sc->score);
    sqlite3_bind_int64(st, 4, seq);
    sqlite3_bind_int64(st, 5, sc->player_id);
    sqlite3_bind_int64(st, 6, sc->received_at);
    sqlite3_bind_blob(st, 7, sc->nonce, STORE_NONCE_BYTES, SQLITE_STATIC);
    rc = sqlite3_step(st);
    done_with(st);
    if (rc != SQLITE_DONE)
        return STORE_ERROR;

    e->score = sc->score;
    e->seq = seq;
    e->player_id = sc->player_id;
    e->received_at = sc->received_at;
    memcpy(e->nonce, sc->nonce, STORE_NONCE_BYTES);
    return STORE_OK;
}

static store_status run_job(conn *c, job *j)
{
    switch (j->kind) {
    case JOB_SUBMIT:
        return run_submit(c, j);
    case JOB_PLAYER:
        return run_player(c, j);
    case JOB_TOKEN:
        return run_token(c, j);
    case JOB_REJECTION:
        return run_rejection(c, j);
    }
    return STORE_ERROR;
}

/* After the commit: offer each new score to the boards in memory. */
static void offer_scores(store *s, job **batch, int n)
{
    for (int i = 0; i < n; i++) {
        job *j = batch[i];
        if (j->kind != JOB_SUBMIT || j->st != STORE_OK)
            continue;
        store_board b;
        memset(&b, 0, sizeof b);
        snprintf(b.game, sizeof b.game, "%s", j->sc->game);
        b.level = j->sc->level;
        /* the score is durable already; a board that cannot take it is
         * out of memory and says so on its next read */
        board_cache_offer(s->boards, &b, &j->entry);
        if (j->sc->daily_date[0]) {
            memset(&b, 0, sizeof b);
            snprintf(b.daily_date, sizeof b.daily_date, "%s", j->sc->daily_date);
            board_cache_offer(s->boards, &b, &j->entry);
        }
        j->sc->seq = j->entry.seq;
        hex_of(j->sc->nonce, STORE_NONCE_BYTES, j->sc->score_id);
    }
}

/* One transaction for the whole batch; each job in its own savepoint. */
static void run_batch(store *s, job **batch, int n)
{
    conn *c = &s->writer;
    int rc = exec_stmt(c, ST_BEGIN);
    if (rc != SQLITE_OK) {
        store_status st = status_of(rc) == STORE_BUSY ? STORE_BUSY : STORE_ERROR;
        for (int i = 0; i < n; i++)
            batch[i]->st = st;
        return;
    }
    bool aborted = false;
    for (int i = 0; i < n; i++) {
        job *j = batch[i];
        if (aborted) {
            j->st = STORE_ERROR;
            continue;
        }
        if (exec_stmt(c, ST_SAVEPOINT) != SQLITE_OK) {
            j->st = STORE_ERROR;
            aborted = sqlite3_get_autocommit(c->db) != 0;
            continue;
        }
        j->st = run_job(c, j);
        if (sqlite3_get_autocommit(c->db)) {
            /* SQLite rolled the whole transaction back (I/O error, full disk) */
            aborted = true;
            j->st = STORE_ERROR;
            continue;
        }
        if (j->st == STORE_OK) {
            exec_stmt(c, ST_RELEASE);
        } else {
            exec_stmt(c, ST_ROLLBACK_TO);
            exec_stmt(c, ST_RELEASE);
        }
    }
    rc = aborted ? SQLITE_ABORT : exec_stmt(c, ST_COMMIT);
    if (rc != SQLITE_OK) {
        if (!sqlite3_get_autocommit(c->db))
            exec_stmt(c, ST_ROLLBACK);
        store_status st = status_of(rc) == STORE_BUSY ? STORE_BUSY : STORE_ERROR;
        for (int i = 0; i < n; i++) {
            job *j = batch[i];
            if (j->kind == JOB_SUBMIT && j->existing && j->st == STORE_CONFLICT)
                store_score_clear(j->existing);
            if (j->st == STORE_OK || j->st == STORE_CONFLICT || j->st == STORE_LIMIT ||
                j->st == STORE_NOT_FOUND)
                j->st = st;
        }
        return;
    }
    offer_scores(s, batch, n);
}

/* Takes up to room queued jobs into out; called with q_mu held. */
static int take_jobs(store *s, job **out, int room)
{
    int n = 0;
    while (s->q_head && n < room) {
        job *j = s->q_head;
        s->q_head = j->next;
        if (!s->q_head)
            s->q_tail = NULL;
        out[n++] = j;
    }
    return n;
}

static void *writer_main(void *arg)
{
    store *s = arg;
    int max = s->cfg.group_commit_max;
    int prev = 0; /* the size of the last batch */
    pthread_mutex_lock(&s->q_mu);
    for (;;) {
        while (!s->q_head && !s->stopping)
            pthread_cond_wait(&s->q_cv, &s->q_mu);
        if (!s->q_head)
            break; /* stopping, and the queue is drained */
        int n = take_jobs(s, s->batch, max);
        /* Wait for more only when the last batch shows concurrent callers
         * (a lone caller gains nothing from waiting), until as many as last
         * time are here (its callers are back), and only while they keep
         * arriving: stop after a quarter of the wait with no new job. */
        int64_t wait = s->cfg.group_commit_wait_us;
        if (n < max && n < prev && wait > 0 && prev > 1 && !s->stopping) {
            int64_t start = mono_us(), last = start;
            while (n < max && n < prev && !s->stopping) {
                if (s->q_head) {
                    n += take_jobs(s, s->batch + n, max - n);
                    last = mono_us();
                    continue;
                }
                int64_t until = last + wait / 4 < start + wait ? last + wait / 4 : start + wait;
                struct timespec ts = { (time_t)(until / 1000000), (long)(until % 1000000) * 1000 };
                if (pthread_cond_timedwait(&s->q_cv, &s->q_mu, &ts) == ETIMEDOUT) {
                    n += take_jobs(s, s->batch + n, max - n);
                    break;
                }
            }
        }
        prev = n;
        pthread_mutex_unlock(&s->q_mu);
        run_batch(s, s->batch, n);
        pthread_mutex_lock(&s->q_mu);
        for (int i = 0; i < n; i++) {
            s->batch[i]->done = true;
            pthread_cond_signal(&s->batch[i]->cv);
        }
    }
    pthread_mutex_unlock(&s->q_mu);
    return NULL;
}

/* Queues j and waits until the writer committed (or failed) it. */
static store_status run_queued(store *s, job *j)
{
    pthread_cond_init(&j->cv, NULL);
    j->done = false;
    j->next = NULL;
    pthread_mutex_lock(&s->q_mu);
    if (s->stopping) {
        pthread_mutex_unlock(&s->q_mu);
        pthread_cond_destroy(&j->cv);
        return STORE_ERROR;
    }
    if (s->q_tail)
        s->q_tail->next = j;
    else
        s->q_head = j;
    s->q_tail = j;
    pthread_cond_signal(&s->q_cv);
    while (!j->done)
        pthread_cond_wait(&j->cv, &s->q_mu);
    pthread_mutex_unlock(&s->q_mu);
    pthread_cond_destroy(&j->cv);
    return j->st;
}

/* ---- the checkpointer ---- */

/* Called by SQLite on the writer connection after each commit. */
static int wal_hook(void *arg, sqlite3 *db, const char *name, int frames)
{
    (void)db;
    (void)name;
    store *s = arg;
    if (frames >= CHECKPOINT_FRAMES) {
        pthread_mutex_lock(&s->ck_mu);
        s->ck_pending = true;
        pthread_cond_signal(&s->ck_cv);
        pthread_mutex_unlock(&s->ck_mu);
    }
    return SQLITE_OK;
}

static void *checkpointer_main(void *arg)
{
    store *s = arg;
    pthread_mutex_lock(&s->ck_mu);
    for (;;) {
        while (!s->ck_pending && !s->ck_stopping)
            pthread_cond_wait(&s->ck_cv, &s->ck_mu);
        if (s->ck_stopping)
            break;
        s->ck_pending = false;
        pthread_mutex_unlock(&s->ck_mu);
        /* PASSIVE: copies what it can without blocking the writer; the
         * next commit after a complete one restarts the WAL */
        sqlite3_wal_checkpoint_v2(s->ckpt.db, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
        pthread_mutex_lock(&s->ck_mu);
    }
    pthread_mutex_unlock(&s->ck_mu);
    return NULL;
}

/* ---- board loading (reader connection, board_cache callback) ---- */

/* Names for a loaded board: by one scan of players when the board holds a
 * good share of them, else one lookup per entry. */
static int load_names(conn *c, rank_board *into)
{
    int64_t n = rank_size(into), max_id = 0;
    sqlite3_stmt *st = stmt(c, ST_MAX_PLAYER);
    if (!st)
        return SQLITE_ERROR;
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        max_id = sqlite3_column_int64(st, 0);
    done_with(st);
    if (rc != SQLITE_ROW)
        return rc;
    if (n == 0)
        return SQLITE_DONE;
    if (n * 4 >= max_id) {
        st = stmt(c, ST_ALL_NAMES);
        if (!st)
            return SQLITE_ERROR;
        while ((rc = sqlite3_step(st)) == SQLITE_ROW)
            rank_set_name(into, sqlite3_column_int64(st, 0),
                          (const char *)sqlite3_column_text(st, 1));
        done_with(st);
        return rc;
    }
    st = stmt(c, ST_PLAYER_NAME);
    if (!st)
        return SQLITE_ERROR;
    rank_entry buf[64];
    rc = SQLITE_DONE;
    for (int64_t first = 1; first <= n && rc == SQLITE_DONE; first += 64) {
        int got = rank_range(into, first, 64, buf);
        for (int i = 0; i < got && rc == SQLITE_DONE; i++) {
            sqlite3_bind_int64(st, 1, buf[i].player_id);
            rc = sqlite3_step(st);
            if (rc == SQLITE_ROW) {
                rank_set_name(into, buf[i].player_id, (const char *)sqlite3_column_text(st, 0));
                rc = SQLITE_DONE;
            }
            sqlite3_reset(st);
        }
    }
    done_with(st);
    return rc;
}

static store_status load_board(void *ctx, const store_board *b, rank_board *into)
{
    store *s = ctx;
    conn *c = reader_get(s);
    bool daily = b->daily_date[0] != '\0';
    int rc = SQLITE_ERROR;
    /* one read transaction: the names see the same snapshot as the rows */
    if (sqlite3_exec(c->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK)
        goto out;
    sqlite3_stmt *st = stmt(c, daily ? ST_LOAD_DAILY : ST_LOAD_LEVEL);
    if (!st)
        goto out_end;
    if (daily) {
        sqlite3_bind_text(st, 1, b->daily_date, -1, SQLITE_STATIC);
    } else {
        sqlite3_bind_text(st, 1, b->game, -1, SQLITE_STATIC);
        sqlite3_bind_int(st, 2, b->level);
    }
    rank_entry e;
    memset(&e, 0, sizeof e);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        e.score = sqlite3_column_int64(st, 0);
        e.seq = sqlite3_column_int64(st, 1);
        e.player_id = sqlite3_column_int64(st, 2);
        e.received_at = sqlite3_column_int64(st, 3);
        copy_blob(e.nonce, STORE_NONCE_BYTES, st, 4);
        if (rank_offer(into, &e) < 0) {
            rc = SQLITE_NOMEM;
            break;
        }
    }
    done_with(st);
    if (rc == SQLITE_DONE)
        rc = load_names(c, into);
out_end:
    sqlite3_exec(c->db, "COMMIT", NULL, NULL, NULL);
out:
    reader_put(s, c);
    return rc == SQLITE_DONE ? STORE_OK : status_of(rc) == STORE_BUSY ? STORE_BUSY : STORE_ERROR;
}

/* ---- open / close ---- */

/* Creates the database's directory (one level, mode 0700) when missing. */
static bool make_parent_dir(const char *path, char *err, size_t err_len)
{
    const char *slash = strrchr(path, '/');
    if (!slash || slash == path)
        return true;
    size_t n = (size_t)(slash - path);
    char *dir = malloc(n + 1);
    if (!dir) {
        snprintf(err, err_len, "out of memory");
        return false;
    }
    memcpy(dir, path, n);
    dir[n] = '\0';
    struct stat sb;
    bool ok = stat(dir, &sb) == 0 ? S_ISDIR(sb.st_mode) : mkdir(dir, 0700) == 0;
    if (!ok)
        snprintf(err, err_len, "%s: cannot create the database directory: %s", dir,
                 strerror(errno));
    free(dir);
    return ok;
}

store_status store_open(const store_config *cfg, store **out, char *err, size_t err_len)
{
    *out = NULL;
    if (err_len)
        err[0] = '\0';
    if (!cfg || !cfg->path) {
        snprintf(err, err_len, "no database path");
        return STORE_ERROR;
    }
    store *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, err_len, "out of memory");
        return STORE_ERROR;
    }
    s->cfg = *cfg;
    if (s->cfg.busy_timeout_ms <= 0)
        s->cfg.busy_timeout_ms = 5000;
    if (s->cfg.group_commit_max <= 0)
        s->cfg.group_commit_max = 64;
    if (s->cfg.group_commit_wait_us < 0)
        s->cfg.group_commit_wait_us = 0;
    s->cfg.path = NULL; /* not kept: the caller's string */
    pthread_mutex_init(&s->pool_mu, NULL);
    pthread_cond_init(&s->pool_cv, NULL);
    pthread_mutex_init(&s->q_mu, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&s->q_cv, &ca);
    pthread_condattr_destroy(&ca);
    pthread_mutex_init(&s->ck_mu, NULL);
    pthread_cond_init(&s->ck_cv, NULL);

    store_config open_cfg = s->cfg;
    open_cfg.path = cfg->path;
    store_status st = STORE_ERROR;
    if (!make_parent_dir(cfg->path, err, err_len))
        goto fail;
    st = conn_open(&s->writer, &open_cfg, false, err, err_len);
    if (st != STORE_OK)
        goto fail;
    st = migrate(&s->writer, err, err_len);
    if (st != STORE_OK)
        goto fail;
    for (int i = 0; i < READERS; i++) {
        st = conn_open(&s->readers[i], &open_cfg, true, err, err_len);
        if (st != STORE_OK)
            goto fail;
    }
    st = conn_open(&s->ckpt, &open_cfg, false, err, err_len);
    if (st != STORE_OK)
        goto fail;
    st = STORE_ERROR;
    if (pthread_create(&s->ck_thread, NULL, checkpointer_main, s) != 0) {
        snprintf(err, err_len, "cannot start the checkpointer thread");
        goto fail;
    }
    s->ck_started = true;
    sqlite3_wal_hook(s->writer.db, wal_hook, s); /* replaces auto-checkpoint */
    s->batch = calloc((size_t)s->cfg.group_commit_max, sizeof *s->batch);
    s->boards = board_cache_new(load_board, s);
    if (!s->batch || !s->boards) {
        snprintf(err, err_len, "out of memory");
        goto fail;
    }
    if (pthread_create(&s->thread, NULL, writer_main, s) != 0) {
        snprintf(err, err_len, "cannot start the writer thread");
        goto fail;
    }
    s->thread_started = true;
    *out = s;
    return STORE_OK;
fail:
    store_close(s);
    return st;
}

void store_close(store *s)
{
    if (!s)
        return;
    if (s->thread_started) {
        pthread_mutex_lock(&s->q_mu);
        s->stopping = true;
        pthread_cond_signal(&s->q_cv);
        pthread_mutex_unlock(&s->q_mu);
        pthread_join(s->thread, NULL);
    }
    if (s->ck_started) {
        pthread_mutex_lock(&s->ck_mu);
        s->ck_stopping = true;
        pthread_cond_signal(&s->ck_cv);
        pthread_mutex_unlock(&s->ck_mu);
        pthread_join(s->ck_thread, NULL);
    }
    conn_close(&s->ckpt);
    for (int i = 0; i < READERS; i++)
        conn_close(&s->readers[i]);
    conn_close(&s->writer); /* the last connection checkpoints the WAL */
    board_cache_free(s->boards);
    free(s->batch);
    pthread_cond_destroy(&s->q_cv);
    pthread_mutex_destroy(&s->q_mu);
    pthread_cond_destroy(&s->pool_cv);
    pthread_mutex_destroy(&s->pool_mu);
    pthread_cond_destroy(&s->ck_cv);
    pthread_mutex_destroy(&s->ck_mu);
    free(s);
}

/* ---- players ---- */

store_status store_player_create(store *s, const char *name,
                                 const uint8_t token_hash[STORE_HASH_BYTES], int64_t now,
                                 store_player *out)
{
    job j;
    memset(&j, 0, sizeof j);
    j.kind = JOB_PLAYER;
    j.name = name;
    j.hash = token_hash;
    j.now = now;
    j.player = out;
    return run_queued(s, &j);
}

store_status store_player_by_token(store *s, const uint8_t token_hash[STORE_HASH_BYTES],
                                   store_player *out)
{
    conn *c = reader_get(s);
    store_status res = STORE_ERROR;
    sqlite3_stmt *st = stmt(c, ST_PLAYER_BY_HASH);
    if (st) {
        sqlite3_bind_blob(st, 1, token_hash, STORE_HASH_BYTES, SQLITE_STATIC);
        int rc = sqlite3_step(st);
        if (rc == SQLITE_ROW) {
            memset(out, 0, sizeof *out);
            out->id = sqlite3_column_int64(st, 0);
            copy_text(out->name, sizeof out->name, st, 1);
            out->created_at = sqlite3_column_int64(st, 2);
            res = STORE_OK;
        } else {
            res = rc == SQLITE_DONE ? STORE_NOT_FOUND : status_of(rc);
        }
        done_with(st);
    }
    reader_put(s, c);
    return res;
}

/* ---- seed tokens ---- */

store_status store_token_issue(store *s, const store_token *t, int max_outstanding, int64_t now,
                               store_token *existing)
{
    job j;
    memset(&j, 0, sizeof j);
    j.kind = JOB_TOKEN;
    j.token = t;
    j.max_outstanding = max_outstanding;
    j.now = now;
    j.token_existing = existing;
    return run_queued(s, &j);
}

store_status store_token_get(store *s, const uint8_t nonce[STORE_NONCE_BYTES], store_token *out)
{
    conn *c = reader_get(s);
    store_status res = STORE_ERROR;
    sqlite3_stmt *st = stmt(c, ST_TOKEN_GET);
    if (st) {
        sqlite3_bind_blob(st, 1, nonce, STORE_NONCE_BYTES, SQLITE_STATIC);
        int rc = sqlite3_step(st);
        if (rc == SQLITE_ROW) {
            read_token(st, out);
            res = STORE_OK;
        } else {
            res = rc == SQLITE_DONE ? STORE_NOT_FOUND : status_of(rc);
        }
        done_with(st);
    }
    reader_put(s, c);
    return res;
}

store_status store_token_stats_for(store *s, int64_t player_id, int64_t now,
                                   store_token_stats *out)
{
    conn *c = reader_get(s);
    store_status res = STORE_ERROR;
    sqlite3_stmt *st = stmt(c, ST_TOKEN_STATS);
    if (st) {
        sqlite3_bind_int64(st, 1, now);
        sqlite3_bind_int64(st, 2, player_id);
        int rc = sqlite3_step(st);
        if (rc == SQLITE_ROW) {
            out->issued = sqlite3_column_int64(st, 0);
            out->redeemed = sqlite3_column_int64(st, 1);
            out->outstanding = sqlite3_column_int64(st, 2);
            out->abandoned = sqlite3_column_int64(st, 3);
            res = STORE_OK;
        } else {
            res = status_of(rc) == STORE_BUSY ? STORE_BUSY : STORE_ERROR;
        }
        done_with(st);
    }
    reader_put(s, c);
    return res;
}

/* ---- scores ---- */

void store_score_clear(store_score *sc)
{
    if (!sc)
        return;
    free(sc->moves_json);
    free(sc->result_json);
    memset(sc, 0, sizeof *sc);
}

store_status store_submit(store *s, store_score *sc, store_score *existing)
{
    if (existing) {
        existing->moves_json = NULL;
        existing->result_json = NULL;
    }
    job j;
    memset(&j, 0, sizeof j);
    j.kind = JOB_SUBMIT;
    j.sc = sc;
    j.existing = existing;
    return run_queued(s, &j);
}

store_status store_score_get(store *s, const char *score_id, store_score *out)
{
    out->moves_json = NULL;
    out->result_json = NULL;
    uint8_t nonce[STORE_NONCE_BYTES];
    if (!nonce_from_hex(score_id, nonce))
        return STORE_NOT_FOUND;
    conn *c = reader_get(s);
    store_status res = score_by_nonce(c, nonce, out);
    reader_put(s, c);
    return res == STORE_CONFLICT ? STORE_ERROR : res;
}

store_status store_rejection_add(store *s, const store_rejection *r)
{
    job j;
    memset(&j, 0, sizeof j);
    j.kind = JOB_REJECTION;
    j.rejection = r;
    return run_queued(s, &j);
}

/* ---- leaderboards ---- */

static void entry_out(const rank_entry *e, int64_t rank, store_entry *o)
{
    o->rank = rank;
    o->player_id = e->player_id;
    memcpy(o->player_name, e->name, sizeof o->player_name);
    o->score = e->score;
    o->seq = e->seq;
    o->submitted_at = e->received_at;
    hex_of(e->nonce, STORE_NONCE_BYTES, o->score_id);
}

/* Copies ranks first.. (up to n) into out; a small stack buffer at a time. */
static int copy_range(const rank_board *rb, int64_t first, int n, store_entry *out)
{
    rank_entry buf[32];
    int done = 0;
    while (done < n) {
        int want = n - done < 32 ? n - done : 32;
        int got = rank_range(rb, first + done, want, buf);
        for (int i = 0; i < got; i++)
            entry_out(&buf[i], first + done + i, &out[done + i]);
        done += got;
        if (got < want)
            break;
    }
    return done;
}

store_status store_board_page(store *s, const store_board *b, const store_board_key *after,
                              bool backwards, int limit, store_entry *out, int *n, bool *more)
{
    *n = 0;
    *more = false;
    board_slot *slot;
    const rank_board *rb;
    store_status st = board_cache_acquire(s->boards, b, &slot, &rb);
    if (st != STORE_OK)
        return st;
    if (limit < 0)
        limit = 0;
    int64_t size = rank_size(rb);
    if (!backwards) {
        int64_t before = after ? rank_count_before(rb, after->score, after->seq, true) : 0;
        *n = copy_range(rb, before + 1, limit, out);
        *more = before + *n < size;
    } else {
        int64_t end = after ? rank_count_before(rb, after->score, after->seq, false) : size;
        int64_t first = end - limit + 1 < 1 ? 1 : end - limit + 1;
        *n = end >= first ? copy_range(rb, first, (int)(end - first + 1), out) : 0;
        *more = first > 1;
    }
    board_cache_release(slot);
    return STORE_OK;
}

store_status store_board_rank(store *s, const store_board *b, int64_t player_id,
                              store_entry *out)
{
    board_slot *slot;
    const rank_board *rb;
    store_status st = board_cache_acquire(s->boards, b, &slot, &rb);
    if (st != STORE_OK)
        return st;
    rank_entry e;
    int64_t r = rank_of_player(rb, player_id, &e);
    board_cache_release(slot);
    if (r == 0)
        return STORE_NOT_FOUND;
    entry_out(&e, r, out);
    return STORE_OK;
}

store_status store_board_around(store *s, const store_board *b, int64_t player_id, int around,
                                store_entry *out, int *n, int *self)
{
    *n = 0;
    *self = -1;
    if (around < 0)
        around = 0;
    board_slot *slot;
    const rank_board *rb;
    store_status st = board_cache_acquire(s->boards, b, &slot, &rb);
    if (st != STORE_OK)
        return st;
    int64_t r = rank_of_player(rb, player_id, NULL);
    if (r == 0) {
        board_cache_release(slot);
        return STORE_NOT_FOUND;
    }
    int64_t first = r - around < 1 ? 1 : r - around;
    int64_t last = r + around > rank_size(rb) ? rank_size(rb) : r + around;
    *n = copy_range(rb, first, (int)(last - first + 1), out);
    *self = (int)(r - first);
    board_cache_release(slot);
    return STORE_OK;
}

store_status store_board_size(store *s, const store_board *b, int64_t *out)
{
    board_slot *slot;
    const rank_board *rb;
    store_status st = board_cache_acquire(s->boards, b, &slot, &rb);
    if (st != STORE_OK)
        return st;
    *out = rank_size(rb);
    board_cache_release(slot);
    return STORE_OK;
}
