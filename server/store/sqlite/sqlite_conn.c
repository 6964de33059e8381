/*
 * sqlite_conn: the SQLite driver and its statement table (see the header).
 * The table holds the SQL of every request the store serves; migrations
 * are apart (store_sqlite.c).
 */
#include "sqlite_conn.h"
#include "../store_backend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TOKEN_ROW                                                                          \
    "nonce, player_id, game, level, seed, version, issued_at, expires_at, daily_date, text, " \
    "redeemed, rejections"
#define BANNED "(SELECT banned_at IS NOT NULL FROM players WHERE id = player_id)"
#define SCORE_COLS                                                                         \
    "score_id, nonce, player_id, game, level, seed, version, daily_date, score, completed,"  \
    " received_at, moves_hash, receipt, moves_json, result_json, status, signals, duplicate_of," \
    " suspicion, shape_hash, twin_of, twin_times, claimed_ms"
#define ON_BOARD_PLAYER "NOT EXISTS (SELECT 1 FROM players b WHERE b.id = s.player_id AND b.banned_at IS NOT NULL)"
#define ON_BOARD "s.status = 'ranked' AND s.voided_at IS NULL AND " ON_BOARD_PLAYER

/* Parameters and columns: store_driver.h, beside each name. An entry
 * without text (SD_PLAYER_LOCK) steps straight to SD_DONE: one writer
 * holds the whole file, so there is no row lock to take. */
static const char *const stmt_sql[SD_COUNT][SQ_PARTS] = {
    [SD_BEGIN] = { "BEGIN IMMEDIATE" },
    [SD_COMMIT] = { "COMMIT" },
    [SD_ROLLBACK] = { "ROLLBACK" },
    [SD_SAVEPOINT] = { "SAVEPOINT job" },
    [SD_RELEASE] = { "RELEASE job" },
    [SD_ROLLBACK_TO] = { "ROLLBACK TO job" },
    [SD_READ_BEGIN] = { "BEGIN" },
    [SD_READ_END] = { "COMMIT" },
    [SD_PLAYER_INSERT] = { "INSERT INTO players (name, token_hash, created_at, reg_prefix)"
                           " VALUES (?1, ?2, ?3, NULLIF(?4, ''))"
                           " ON CONFLICT (token_hash) DO NOTHING RETURNING id" },
    [SD_PLAYER_BY_HASH] = { "SELECT id, name, created_at, banned_at IS NOT NULL,"
                            " COALESCE((SELECT i.provider FROM identities i WHERE i.player_id = players.id"
                            " ORDER BY i.provider LIMIT 1), '') FROM players WHERE token_hash = ?1" },
    [SD_PLAYER_NAMES] = { "SELECT id, name FROM players WHERE id IN (SELECT value FROM json_each(?1))" },
    [SD_TOKEN_INSERT] = { "INSERT INTO seed_tokens (nonce, player_id, game, level, seed, version,"
                          " issued_at, expires_at, daily_date, text, redeemed)"
                          " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, 0)" },
    [SD_TOKEN_GET] = { "SELECT " TOKEN_ROW ", " BANNED " FROM seed_tokens WHERE nonce = ?1" },
    /* the redeem check's row: the token, its player's ban and the earliest
     * run of another player with the same seed, moves, game, level and
     * version, in one lookup */
    [SD_SCORE_TOKEN] = { "SELECT " TOKEN_ROW ", " BANNED ", COALESCE((SELECT d.seq FROM scores d"
                         " WHERE d.seed = ?2 AND d.moves_hash = ?3 AND d.game = ?4 AND d.level = ?5"
                         " AND d.version = ?6 AND d.player_id <> ?7 ORDER BY d.seq LIMIT 1), 0)"
                         " FROM seed_tokens WHERE nonce = ?1" },
    [SD_TOKEN_DAILY] = { "SELECT " TOKEN_ROW " FROM seed_tokens"
                         " WHERE player_id = ?1 AND daily_date = ?2 AND daily_date <> ''" },
    /* level tokens only: the daily is exempt from the caps. Of one (game,
     * level) since the day's start: the forfeited, abandoned or open ones
     * (the forfeit cap), and all of them (the draw cap) */
    [SD_TOKEN_LIMITS] = { "SELECT (SELECT COUNT(*) FROM seed_tokens WHERE player_id = ?1"
                          " AND redeemed = 0 AND expires_at > ?2 AND daily_date = ''),"
                          " COALESCE(SUM(redeemed = 0 OR outcome = 'forfeit'), 0), COUNT(*)"
                          " FROM seed_tokens WHERE player_id = ?1 AND game = ?3"
                          " AND level = ?4 AND issued_at >= ?5 AND daily_date = ''" },
    [SD_TOKEN_STATS] = { "SELECT COUNT(*), COALESCE(SUM(outcome = 'completed'), 0),"
                         " COALESCE(SUM(outcome = 'incomplete'), 0),"
                         " COALESCE(SUM(outcome = 'forfeit'), 0),"
                         " COALESCE(SUM(redeemed = 0 AND expires_at > ?1), 0),"
                         " COALESCE(SUM(redeemed = 0 AND expires_at <= ?1), 0),"
                         /* the draws of level seeds since ?3 (the UTC day's start), and
                          * the most of one (game, level) */
                         " COALESCE(SUM(daily_date = '' AND issued_at >= ?3), 0),"
                         " COALESCE((SELECT COUNT(*) FROM seed_tokens WHERE player_id = ?2"
                         " AND daily_date = '' AND issued_at >= ?3 GROUP BY game, level"
                         " ORDER BY 1 DESC LIMIT 1), 0)"
                         " FROM seed_tokens WHERE player_id = ?2" },
    /* joined on the token's primary key (its nonce is the score's) */
    [SD_PLAYED_RUNS] = { "SELECT s.game, s.level, t.issued_at, s.received_at FROM scores s"
                         " JOIN seed_tokens t ON t.nonce = s.nonce"
                         " WHERE s.player_id = ?1 AND s.daily_date = '' AND s.completed = 1"
                         " AND s.status = 'ranked' AND s.voided_at IS NULL"
                         " ORDER BY s.seq DESC LIMIT ?2" },
    /* the score; the player's level best (?20: it goes to a level board),
     * replaced only by a strictly higher score; the token's redeem; the
     * seq */
    [SD_SCORE_RECORD] = {
        "INSERT INTO scores (" SCORE_COLS ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11,"
        " ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?21, ?22, ?23, ?24, ?25)",
        "INSERT INTO level_bests (game, level, score, seq, player_id, received_at, nonce)"
        " SELECT ?4, ?5, ?9, last_insert_rowid(), ?3, ?11, ?2 WHERE ?20"
        " ON CONFLICT (game, level, player_id) DO UPDATE"
        " SET score = excluded.score, seq = excluded.seq,"
        " received_at = excluded.received_at, nonce = excluded.nonce"
        " WHERE excluded.score > level_bests.score",
        /* last_insert_rowid() is the score's seq to the end: level_bests
         * is WITHOUT ROWID (its insert leaves it) and an UPDATE does not
         * set it (scores has no index on nonce to look the seq up by) */
        "UPDATE seed_tokens SET redeemed = 1, outcome = ?19, score_seq = last_insert_rowid()"
        " WHERE nonce = ?2 AND redeemed = 0",
        /* the seq, when the redeem took (no RETURNING: it costs a
         * temporary table per statement) */
        "SELECT last_insert_rowid() WHERE changes() = 1",
    },
    /* a twin link back: the earlier run of the pair learns of the later */
    [SD_SCORE_TWIN] = { "UPDATE scores SET twin_of = COALESCE(twin_of, ?1), suspicion = suspicion + ?2,"
                        " status = 'held', reviewed_at = NULL WHERE seq = ?3" },
    [SD_TWIN_CANDIDATES] = { "SELECT seq, player_id, twin_times FROM scores"
                             " WHERE seed = ?1 AND shape_hash = ?2 AND game = ?3 AND level = ?4"
                             " AND version = ?5 AND player_id <> ?6 AND voided_at IS NULL"
                             " AND twin_times IS NOT NULL AND seq > ?8 AND daily_date = ?9"
                             " ORDER BY seq DESC LIMIT ?7" },
    /* SD_TWIN_LOCK: one writer holds the file, nothing to lock */
    [SD_PLAYER_WINDOWS] = { "SELECT seq, received_at, claimed_ms FROM scores"
                            " WHERE player_id = ?1 AND received_at >= ?2 AND claimed_ms IS NOT NULL"
                            " AND voided_at IS NULL ORDER BY received_at DESC LIMIT ?3" },
    [SD_SCORE_BY_NONCE] = { "SELECT s.score_id, s.nonce, s.player_id, p.name, s.game, s.level,"
                            " s.seed, s.version, s.daily_date, s.score, s.completed, s.received_at,"
                            " s.seq, s.moves_hash, s.receipt, s.moves_json, s.result_json,"
                            " s.status, s.signals, COALESCE(s.duplicate_of, 0), t.outcome,"
                            " s.suspicion, COALESCE(s.voided_at, 0), s.void_reason"
                            " FROM seed_tokens t JOIN scores s ON s.seq = t.score_seq"
                            " JOIN players p ON p.id = s.player_id WHERE t.nonce = ?1" },
    [SD_REJECTION_INSERT] = { "INSERT INTO rejections (nonce, player_id, game, level, seed, version,"
                              " reason, move_index, received_at, moves_hash, moves_json)"
                              " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)" },
    [SD_TOKEN_REJECTED] = { "UPDATE seed_tokens SET rejections = rejections + 1 WHERE nonce = ?1" },
    [SD_QUOTA_PRUNE] = { "DELETE FROM rejection_moves_quota WHERE player_id = ?1 AND day < ?2" },
    /* a row back when the quota had room (a row added or counted up) */
    [SD_QUOTA_TAKE] = { "INSERT INTO rejection_moves_quota (player_id, day, kept) VALUES (?1, ?2, 1)"
                        " ON CONFLICT (player_id, day) DO UPDATE SET kept = kept + 1"
                        " WHERE kept < ?3 RETURNING kept" },
    [SD_NET_QUOTA_PRUNE] = { "DELETE FROM rejection_moves_net_quota WHERE day < ?1" },
    [SD_NET_QUOTA_TAKE] = { "INSERT INTO rejection_moves_net_quota (day, net, kept) VALUES (?1, ?2, 1)"
                            " ON CONFLICT (day, net) DO UPDATE SET kept = kept + 1"
                            " WHERE kept < ?3 RETURNING kept" },
    [SD_KEY_RECORD] = { "INSERT INTO cluster_keys (key_id, fingerprint, recorded_at) VALUES (?1, ?2, ?3)"
                        " ON CONFLICT (key_id) DO NOTHING" },
    [SD_KEY_GET] = { "SELECT fingerprint FROM cluster_keys WHERE key_id = ?1" },
    [SD_DAILY_ISSUED] = { "SELECT 1 FROM seed_tokens WHERE daily_date = ?1 LIMIT 1" },
    [SD_LOAD_LEVEL] = { "SELECT score, seq, player_id, received_at, nonce FROM level_bests"
                        " WHERE game = ?1 AND level = ?2 ORDER BY score DESC, seq ASC" },
    /* the extra daily_date <> '' lets SQLite use the partial index */
    [SD_LOAD_DAILY] = { "SELECT score, seq, player_id, received_at, nonce FROM scores"
                        " WHERE daily_date = ?1 AND daily_date <> '' AND status = 'ranked'"
                        " AND voided_at IS NULL"
                        " AND player_id NOT IN (SELECT id FROM players WHERE banned_at IS NOT NULL)"
                        " ORDER BY score DESC, seq ASC" },
    /* re-verification: the columns of SD_SCORE_BY_NONCE without the joins
     * (no name, no outcome), by seq */
    [SD_SCORES_PAGE] = { "SELECT score_id, nonce, player_id, '', game, level, seed, version,"
                         " daily_date, score, completed, received_at, seq, moves_hash, receipt,"
                         " moves_json, result_json, status, signals, COALESCE(duplicate_of, 0), NULL,"
                         " suspicion, COALESCE(voided_at, 0), void_reason"
                         " FROM scores WHERE seq > ?1 AND (?2 IS NULL OR game = ?2)"
                         " AND received_at >= ?3 ORDER BY seq LIMIT ?4" },
    [SD_SCORES_COUNT] = { "SELECT COUNT(*) FROM scores WHERE (?1 IS NULL OR game = ?1)"
                          " AND received_at >= ?2" },
    [SD_BEST_DELETE] = { "DELETE FROM level_bests WHERE player_id = ?1 AND game = ?2 AND level = ?3" },
    [SD_BEST_RECOMPUTE] = { "INSERT INTO level_bests (game, level, score, seq, player_id, received_at, nonce)"
                            " SELECT s.game, s.level, s.score, s.seq, s.player_id, s.received_at, s.nonce"
                            " FROM scores s WHERE s.player_id = ?1 AND s.game = ?2 AND s.level = ?3"
                            " AND s.daily_date = '' AND " ON_BOARD
                            " ORDER BY s.score DESC, s.seq ASC LIMIT 1"
                            " RETURNING score, seq, received_at, nonce" },
    [SD_DAILY_ENTRY] = { "SELECT s.score, s.seq, s.received_at, s.nonce FROM scores s"
                         " WHERE s.player_id = ?1 AND s.daily_date = ?2 AND " ON_BOARD
                         " ORDER BY s.score DESC, s.seq ASC LIMIT 1" },
    [SD_PLAYER_BOARDS] = { "SELECT DISTINCT game, level, daily_date FROM scores WHERE player_id = ?1"
                           " ORDER BY game, level, daily_date" },
    [SD_ADMIN_LOG_INSERT] = { "INSERT INTO admin_log (at, actor, action, target, reason, detail)"
                              " VALUES (?1, ?2, ?3, ?4, ?5, ?6) RETURNING id" },
    [SD_ADMIN_PLAYER_ROW] = { "SELECT banned_at IS NOT NULL, name FROM players WHERE id = ?1" },
    [SD_ADMIN_SCORE_ROW] = { "SELECT s.seq, s.player_id, s.game, s.level, s.daily_date,"
                             " s.status = 'ranked', s.voided_at IS NOT NULL,"
                             " s.reviewed_at IS NOT NULL, s.score_id"
                             " FROM seed_tokens t JOIN scores s ON s.seq = t.score_seq WHERE t.nonce = ?1" },
    [SD_SCORE_VOID] = { "UPDATE scores SET voided_at = ?1, void_reason = ?2,"
                        " reviewed_at = COALESCE(reviewed_at, ?1) WHERE seq = ?3" },
    [SD_SCORE_RESTORE] = { "UPDATE scores SET voided_at = NULL, void_reason = '' WHERE seq = ?1" },
    [SD_SCORE_APPROVE] = { "UPDATE scores SET status = 'ranked', reviewed_at = ?1 WHERE seq = ?2" },
    [SD_PLAYER_RENAME] = { "UPDATE players SET name = ?1 WHERE id = ?2" },
    [SD_PLAYER_BAN] = { "UPDATE players SET banned_at = ?1 WHERE id = ?2" },
    [SD_PLAYER_UNBAN] = { "UPDATE players SET banned_at = NULL WHERE id = ?1" },
    [SD_ADMIN_PLAYER] = { "SELECT p.name, p.created_at, p.banned_at,"
                          " (SELECT COUNT(*) FROM rejections WHERE player_id = p.id),"
                          " (SELECT COUNT(*) FROM scores WHERE player_id = p.id AND voided_at IS NOT NULL),"
                          " (SELECT COUNT(*) FROM scores WHERE player_id = p.id AND status = 'held'"
                          " AND voided_at IS NULL)"
                          " FROM players p WHERE p.id = ?1" },
    [SD_ADMIN_FEATURES] = { "SELECT COUNT(*), COALESCE(SUM(json_extract(signals, '$.features.wasted') = 0), 0)"
                            " FROM scores WHERE player_id = ?1 AND completed = 1"
                            " AND json_extract(signals, '$.features.wasted') IS NOT NULL" },
    [SD_ADMIN_TOKENS] = { "SELECT COALESCE(SUM(outcome = 'forfeit'), 0),"
                          " COALESCE(SUM(redeemed = 0 AND expires_at <= ?1), 0)"
                          " FROM seed_tokens WHERE player_id = ?2" },
    [SD_ADMIN_TWIN] = { "SELECT t.score_id, t.player_id, p.name, t.score, t.status, t.suspicion,"
                        " t.received_at, t.voided_at IS NOT NULL, t.twin_times"
                        " FROM scores t JOIN players p ON p.id = t.player_id WHERE t.seq = ?1" },
    [SD_ADMIN_LINKED] = { "SELECT o.id, o.name, o.created_at FROM players p JOIN players o"
                          " ON o.reg_prefix = p.reg_prefix AND o.id <> p.id"
                          " AND o.created_at BETWEEN p.created_at - ?2 AND p.created_at + ?2"
                          " WHERE p.id = ?1 AND p.reg_prefix IS NOT NULL"
                          " ORDER BY o.created_at, o.id LIMIT 20" },
    [SD_ADMIN_BOARD_TIMES] = { "SELECT seq, player_id, twin_times FROM scores"
                               " WHERE game = ?1 AND level = ?2 AND version = ?3 AND daily_date = ?4"
                               " AND twin_times IS NOT NULL"
                               " AND (seq = ?5 OR (status = 'ranked' AND voided_at IS NULL))"
                               " ORDER BY seq = ?5 DESC, seq DESC LIMIT ?6" },
    [SD_ADMIN_PLAYER_RUNS] = { "SELECT score_id, game, level, daily_date, score, status, suspicion,"
                               " received_at, voided_at IS NOT NULL FROM scores WHERE player_id = ?1"
                               " ORDER BY received_at DESC, seq DESC LIMIT ?2" },
    /* SD_IDENTITY_LOCK: one writer holds the file, nothing to lock */
    [SD_IDENTITY_GET] = { "SELECT i.player_id, p.banned_at IS NOT NULL FROM identities i"
                          " JOIN players p ON p.id = i.player_id WHERE i.provider = ?1 AND i.subject = ?2" },
    [SD_IDENTITY_OF_PLAYER] = { "SELECT subject FROM identities WHERE player_id = ?1 AND provider = ?2" },
    [SD_IDENTITY_INSERT] = { "INSERT INTO identities (provider, subject, player_id, created_at)"
                             " VALUES (?1, ?2, ?3, ?4) ON CONFLICT DO NOTHING RETURNING player_id" },
    [SD_IDENTITY_LIST] = { "SELECT provider, created_at FROM identities WHERE player_id = ?1 ORDER BY provider" },
    [SD_PLAYER_SET_TOKEN] = { "UPDATE players SET token_hash = ?1 WHERE id = ?2" },
    [SD_NONCE_INSERT] = { "INSERT INTO identity_nonces (nonce_hash, expires_at) VALUES (?1, ?2)"
                          " ON CONFLICT DO NOTHING" },
    [SD_NONCE_PURGE] = { "DELETE FROM identity_nonces WHERE expires_at <= ?1" },
    [SD_NONCE_TAKE] = { "DELETE FROM identity_nonces WHERE nonce_hash = ?1 AND expires_at > ?2"
                        " RETURNING expires_at" },
    [SD_PLAYER_APPROVED] = { "SELECT COUNT(*) FROM scores WHERE player_id = ?1 AND reviewed_at IS NOT NULL"
                             " AND status = 'ranked' AND voided_at IS NULL" },
};

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
        for (; n < SQ_PARTS && stmt_sql[id][n]; n++) {
            int rc = sqlite3_prepare_v3(c->db, stmt_sql[id][n], -1, SQLITE_PREPARE_PERSISTENT,
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

