/*
 * sqlite_conn: the store's statements and per-connection helpers (see the
 * header). The statement table holds the SQL of every request the store
 * serves; migrations and the short BEGIN/COMMIT of a board load are apart.
 */
#include "sqlite_conn.h"
#include "store_backend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/civil.h"

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
    [ST_PLAYER_INSERT] = "INSERT INTO players (name, token_hash, created_at, reg_prefix)"
                         " VALUES (?, ?, ?, NULLIF(?, ''))",
    [ST_PLAYER_BY_HASH] = "SELECT id, name, created_at, banned_at IS NOT NULL FROM players"
                          " WHERE token_hash = ?",
    [ST_PLAYER_NAME] = "SELECT name FROM players WHERE id = ?",
    [ST_TOKEN_INSERT] = "INSERT INTO seed_tokens (" TOKEN_COLS ") VALUES (?,?,?,?,?,?,?,?,?,?,0)",
    /* with what the redeem check needs beside the row, in one lookup: the
     * token's rejections and whether its player is banned */
    [ST_TOKEN_GET] = "SELECT " TOKEN_COLS ", rejections,"
                     " (SELECT banned_at IS NOT NULL FROM players WHERE id = player_id)"
                     " FROM seed_tokens WHERE nonce = ?",
    [ST_TOKEN_DAILY] = "SELECT " TOKEN_COLS
                       " FROM seed_tokens WHERE player_id = ? AND daily_date = ? AND daily_date <> ''",
    /* level tokens only: the daily is exempt from max_outstanding_tokens */
    [ST_TOKEN_OUTSTANDING] = "SELECT COUNT(*) FROM seed_tokens"
                             " WHERE player_id = ? AND redeemed = 0 AND expires_at > ?"
                             " AND daily_date = ''",
    /* the level tokens of one (game, level) issued since the start of the
     * day (what the draw cap counts), and of those the forfeited,
     * abandoned or still open ones (what the forfeit cap counts) */
    [ST_TOKEN_FORFEITS] = "SELECT COALESCE(SUM(redeemed = 0 OR outcome = 'forfeit'), 0), COUNT(*)"
                          " FROM seed_tokens WHERE player_id = ? AND game = ?"
                          " AND level = ? AND issued_at >= ? AND daily_date = ''",
    [ST_TOKEN_STATS] = "SELECT COUNT(*), COALESCE(SUM(outcome = 'completed'), 0),"
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
                       " FROM seed_tokens WHERE player_id = ?2",
    [ST_TOKEN_REDEEM] = "UPDATE seed_tokens SET redeemed = 1, score_seq = ?, outcome = ?"
                        " WHERE nonce = ? AND redeemed = 0",
    [ST_SCORE_INSERT] = "INSERT INTO scores (score_id, nonce, player_id, game, level, seed, version,"
                        " daily_date, score, completed, received_at, moves_hash, receipt,"
                        " moves_json, result_json, status, signals, duplicate_of, suspicion,"
                        " shape_hash, twin_of)"
                        " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
    [ST_SCORE_BY_NONCE] = "SELECT s.score_id, s.nonce, s.player_id, p.name, s.game, s.level,"
                          " s.seed, s.version, s.daily_date, s.score, s.completed, s.received_at,"
                          " s.seq, s.moves_hash, s.receipt, s.moves_json, s.result_json,"
                          " s.status, s.signals, COALESCE(s.duplicate_of, 0), t.outcome,"
                          " s.suspicion, COALESCE(s.voided_at, 0), s.void_reason"
                          " FROM seed_tokens t JOIN scores s ON s.seq = t.score_seq"
                          " JOIN players p ON p.id = s.player_id WHERE t.nonce = ?",
    /* the earliest run of another player with the same seed, moves, game,
     * level and version */
    [ST_SCORE_DUPLICATE] = "SELECT seq FROM scores WHERE seed = ? AND moves_hash = ? AND game = ?"
                           " AND level = ? AND version = ? AND player_id <> ? ORDER BY seq LIMIT 1",
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
    [ST_TOKEN_REJECTED] = "UPDATE seed_tokens SET rejections = rejections + 1 WHERE nonce = ?",
    /* changes() is 1 when the quota had room (a row added or counted up) */
    [ST_QUOTA_TAKE] = "INSERT INTO rejection_moves_quota (player_id, day, kept) VALUES (?, ?, 1)"
                      " ON CONFLICT (player_id, day) DO UPDATE SET kept = kept + 1 WHERE kept < ?",
    [ST_QUOTA_PRUNE] = "DELETE FROM rejection_moves_quota WHERE player_id = ? AND day < ?",
    [ST_LOAD_LEVEL] = "SELECT score, seq, player_id, received_at, nonce FROM level_bests"
                      " WHERE game = ? AND level = ? ORDER BY score DESC, seq ASC",
    /* the extra daily_date <> '' lets SQLite use the partial index */
    [ST_LOAD_DAILY] = "SELECT score, seq, player_id, received_at, nonce FROM scores"
                      " WHERE daily_date = ? AND daily_date <> '' AND status = 'ranked'"
                      " AND voided_at IS NULL"
                      " AND player_id NOT IN (SELECT id FROM players WHERE banned_at IS NOT NULL)"
                      " ORDER BY score DESC, seq ASC",
    /* re-verification: the columns of ST_SCORE_BY_NONCE without the joins
     * (no name, no outcome), by seq: ?1 after seq, ?2 game or NULL, ?3 since */
    [ST_SCORES_PAGE] = "SELECT score_id, nonce, player_id, '', game, level, seed, version,"
                       " daily_date, score, completed, received_at, seq, moves_hash, receipt,"
                       " moves_json, result_json, status, signals, COALESCE(duplicate_of, 0), NULL"
                       " FROM scores WHERE seq > ?1 AND (?2 IS NULL OR game = ?2)"
                       " AND received_at >= ?3 ORDER BY seq LIMIT ?4",
    [ST_SCORES_COUNT] = "SELECT COUNT(*) FROM scores WHERE (?1 IS NULL OR game = ?1)"
                        " AND received_at >= ?2",
    /* a twin link back: the earlier run of the pair learns of the later */
    [ST_SCORE_TWIN] = "UPDATE scores SET twin_of = COALESCE(twin_of, ?1), suspicion = suspicion + ?2"
                      " WHERE seq = ?3",
    [ST_TWIN_CANDIDATES] = "SELECT seq, player_id, moves_json FROM scores"
                           " WHERE seed = ?1 AND shape_hash = ?2 AND game = ?3 AND level = ?4"
                           " AND version = ?5 AND player_id <> ?6 AND voided_at IS NULL"
                           " ORDER BY score DESC, seq LIMIT ?7",
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

sqlite3_stmt *sq_stmt(conn *c, int id)
{
    if (!c->st[id] &&
        sqlite3_prepare_v3(c->db, stmt_sql[id], -1, SQLITE_PREPARE_PERSISTENT, &c->st[id], NULL) !=
            SQLITE_OK)
        return NULL;
    return c->st[id];
}

void sq_done(sqlite3_stmt *st)
{
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
}

/* Runs a statement that returns no rows. */
int sq_exec(conn *c, int id)
{
    sqlite3_stmt *st = sq_stmt(c, id);
    if (!st)
        return sqlite3_errcode(c->db) ? sqlite3_errcode(c->db) : SQLITE_ERROR;
    int rc = sqlite3_step(st);
    sq_done(st);
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

void sq_text(char *dst, size_t cap, sqlite3_stmt *st, int col)
{
    const unsigned char *t = sqlite3_column_text(st, col);
    size_t n = t ? (size_t)sqlite3_column_bytes(st, col) : 0;
    if (n >= cap)
        n = cap - 1;
    if (n)
        memcpy(dst, t, n);
    dst[n] = '\0';
}

void sq_blob(uint8_t *dst, size_t n, sqlite3_stmt *st, int col)
{
    const void *b = sqlite3_column_blob(st, col);
    if (b && (size_t)sqlite3_column_bytes(st, col) == n)
        memcpy(dst, b, n);
    else
        memset(dst, 0, n);
}

char *sq_dup(sqlite3_stmt *st, int col)
{
    const unsigned char *t = sqlite3_column_text(st, col);
    return strdup(t ? (const char *)t : "");
}

void sq_hex(const uint8_t *b, size_t n, char *out)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = digits[b[i] >> 4];
        out[2 * i + 1] = digits[b[i] & 15];
    }
    out[2 * n] = '\0';
}

void sq_close(conn *c)
{
    for (int i = 0; i < ST_COUNT; i++) {
        sqlite3_finalize(c->st[i]);
        c->st[i] = NULL;
    }
    if (c->db)
        sqlite3_close(c->db);
    c->db = NULL;
}

store_status sq_open(conn *c, const store_config *cfg, sq_role role, char *err, size_t err_len)
{
    memset(c, 0, sizeof *c);
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

void sq_bind_game(sqlite3_stmt *st, int col, const play *p)
{
    sqlite3_bind_text(st, col, p->g->name, -1, SQLITE_STATIC);
}

const char *sq_outcome_text(run_outcome o)
{
    return o == RUN_COMPLETED ? "completed" : o == RUN_FORFEIT ? "forfeit" : "incomplete";
}

const char *sq_status_text(score_status s)
{
    return s == SCORE_RANKED ? "ranked" : "held";
}

void sq_bind_date(sqlite3_stmt *st, int col, const play *p)
{
    char date[11];
    play_date(p, date);
    sqlite3_bind_text(st, col, date, -1, SQLITE_TRANSIENT);
}

/* The game and day columns of a row back into a play. */
static bool read_game_day(sqlite3_stmt *st, int game_col, int date_col, play *p)
{
    p->g = game_find((const char *)sqlite3_column_text(st, game_col));
    const char *date = (const char *)sqlite3_column_text(st, date_col);
    civil_date d;
    p->day = -1;
    if (date && date[0]) {
        if (!civil_parse(date, &d))
            return false;
        p->day = (int32_t)civil_to_days(d);
    }
    return p->g != NULL;
}

bool sq_read_token(sqlite3_stmt *st, store_token *t)
{
    memset(t, 0, sizeof *t);
    sq_blob(t->p.nonce, PLAY_NONCE_BYTES, st, 0);
    t->p.player_id = sqlite3_column_int64(st, 1);
    t->p.level = sqlite3_column_int(st, 3);
    t->p.seed = (uint32_t)sqlite3_column_int64(st, 4);
    t->p.version = sqlite3_column_int(st, 5);
    t->issued_at = sqlite3_column_int64(st, 6);
    t->expires_at = sqlite3_column_int64(st, 7);
    sq_text(t->text, sizeof t->text, st, 9);
    t->redeemed = sqlite3_column_int(st, 10) != 0;
    return read_game_day(st, 2, 8, &t->p);
}

store_status sq_read_score(sqlite3_stmt *st, store_score *o)
{
    memset(o, 0, sizeof *o);
    sq_text(o->score_id, sizeof o->score_id, st, 0);
    sq_blob(o->p.nonce, PLAY_NONCE_BYTES, st, 1);
    o->p.player_id = sqlite3_column_int64(st, 2);
    sq_text(o->player_name, sizeof o->player_name, st, 3);
    o->p.level = sqlite3_column_int(st, 5);
    o->p.seed = (uint32_t)sqlite3_column_int64(st, 6);
    o->p.version = sqlite3_column_int(st, 7);
    o->score = sqlite3_column_int64(st, 9);
    o->completed = sqlite3_column_int(st, 10) != 0;
    o->received_at = sqlite3_column_int64(st, 11);
    o->seq = sqlite3_column_int64(st, 12);
    sq_blob(o->moves_hash, STORE_HASH_BYTES, st, 13);
    sq_text(o->receipt, sizeof o->receipt, st, 14);
    if (!read_game_day(st, 4, 8, &o->p)) {
        store_log_error("sq_read_score", "a score row names a game this build does not serve");
        return STORE_ERROR;
    }
    const char *status = (const char *)sqlite3_column_text(st, 17);
    o->status = status && strcmp(status, "ranked") == 0 ? SCORE_RANKED : SCORE_HELD;
    o->duplicate_of = sqlite3_column_int64(st, 19);
    o->suspicion = sqlite3_column_int64(st, 21);
    o->voided_at = sqlite3_column_int64(st, 22);
    sq_text(o->void_reason, sizeof o->void_reason, st, 23);
    const char *outcome = (const char *)sqlite3_column_text(st, 20);
    o->outcome = !outcome                              ? (o->completed ? RUN_COMPLETED : RUN_INCOMPLETE)
                 : strcmp(outcome, "forfeit") == 0    ? RUN_FORFEIT
                 : strcmp(outcome, "completed") == 0  ? RUN_COMPLETED
                                                      : RUN_INCOMPLETE;
    o->moves_json = sq_dup(st, 15);
    o->result_json = sq_dup(st, 16);
    o->signals_json = sq_dup(st, 18);
    if (!o->moves_json || !o->result_json || !o->signals_json) {
        store_score_clear(o);
        return STORE_ERROR;
    }
    return STORE_OK;
}

store_status sq_score_by_nonce(conn *c, const uint8_t nonce[PLAY_NONCE_BYTES], store_score *out)
{
    sqlite3_stmt *st = sq_stmt(c, ST_SCORE_BY_NONCE);
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_blob(st, 1, nonce, PLAY_NONCE_BYTES, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    store_status res = rc == SQLITE_ROW ? sq_read_score(st, out)
                       : rc == SQLITE_DONE ? STORE_NOT_FOUND
                                           : sq_status(rc);
    sq_done(st);
    return res;
}

