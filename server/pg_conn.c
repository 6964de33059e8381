/*
 * pg_conn: the PostgreSQL backend's statements and per-connection helpers
 * (see the header). The statement table holds the SQL of every request
 * the backend serves; migrations and BEGIN/COMMIT are plain commands.
 */
#include "pg_conn.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/civil.h"
#include "store_backend.h"

#define TOKEN_COLS                                                                         \
    "nonce, player_id, game, level, seed, version, issued_at, expires_at, daily_date, text, " \
    "redeemed, rejections"

static const char *const stmt_sql[PS_COUNT] = {
    /* a taken token hash returns no row: a conflict, not a failed statement
     * (which would abort the batch's transaction) */
    [PS_PLAYER_INSERT] = "INSERT INTO players (name, token_hash, created_at, reg_prefix)"
                         " VALUES ($1, $2, $3, NULLIF($4, ''))"
                         " ON CONFLICT (token_hash) DO NOTHING RETURNING id",
    [PS_PLAYER_BY_HASH] = "SELECT id, name, created_at, banned_at IS NOT NULL FROM players"
                          " WHERE token_hash = $1",
    /* a score's first lock: the player's row, then its ban read (a ban
     * being committed is waited for; its board recompute then sees this
     * score once it is committed) */
    [PS_PLAYER_BANNED] = "SELECT banned_at IS NOT NULL FROM players WHERE id = $1"
                         " FOR NO KEY UPDATE",
    [PS_PLAYER_NAMES] = "SELECT id, name FROM players WHERE id = ANY ($1::bigint[])",
    /* a player's token issues run one at a time on every node: the limits
     * below count what the others committed (NO KEY UPDATE does not block
     * the foreign-key checks of other writes) */
    [PS_PLAYER_LOCK] = "SELECT 1 FROM players WHERE id = $1 FOR NO KEY UPDATE",
    [PS_TOKEN_INSERT] = "INSERT INTO seed_tokens (nonce, player_id, game, level, seed, version,"
                        " issued_at, expires_at, daily_date, text)"
                        " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
    /* the one redeem check holds the token's row until the commit: a second
     * node redeeming it waits here and then reads it redeemed */
    [PS_TOKEN_LOCK] = "SELECT " TOKEN_COLS " FROM seed_tokens WHERE nonce = $1 FOR UPDATE",
    /* the same for a score, with the earliest run of another player with
     * the same seed, moves, game, level and version (0 if none) */
    [PS_SCORE_LOCK] = "SELECT " TOKEN_COLS ", COALESCE((SELECT d.seq FROM scores d"
                      " WHERE d.seed = $2 AND d.moves_hash = $3 AND d.game = $4 AND d.level = $5"
                      " AND d.version = $6 AND d.player_id <> $7 ORDER BY d.seq LIMIT 1), 0)"
                      " FROM seed_tokens WHERE nonce = $1 FOR UPDATE OF seed_tokens",
    [PS_TOKEN_DAILY] = "SELECT " TOKEN_COLS " FROM seed_tokens"
                       " WHERE player_id = $1 AND daily_date = $2 AND daily_date <> ''",
    /* outstanding level tokens (the daily is exempt), and the forfeited,
     * abandoned or still open level tokens of one (game, level) issued
     * since the start of the day: the forfeit cap */
    [PS_TOKEN_LIMITS] = "SELECT (SELECT COUNT(*) FROM seed_tokens WHERE player_id = $1"
                        " AND NOT redeemed AND expires_at > $2 AND daily_date = ''),"
                        " (SELECT COUNT(*) FROM seed_tokens WHERE player_id = $1 AND game = $3"
                        " AND level = $4 AND issued_at >= $5 AND daily_date = ''"
                        " AND (NOT redeemed OR outcome = 'forfeit')),"
                        " (SELECT COUNT(*) FROM seed_tokens WHERE player_id = $1 AND game = $3"
                        " AND level = $4 AND issued_at >= $5 AND daily_date = '')",
    [PS_TOKEN_STATS] = "SELECT COUNT(*), COUNT(*) FILTER (WHERE outcome = 'completed'),"
                       " COUNT(*) FILTER (WHERE outcome = 'incomplete'),"
                       " COUNT(*) FILTER (WHERE outcome = 'forfeit'),"
                       " COUNT(*) FILTER (WHERE NOT redeemed AND expires_at > $1),"
                       " COUNT(*) FILTER (WHERE NOT redeemed AND expires_at <= $1),"
                       /* the draws of level seeds since $3 (the UTC day's start), and
                        * the most of one (game, level) */
                       " COUNT(*) FILTER (WHERE daily_date = '' AND issued_at >= $3),"
                       " COALESCE((SELECT COUNT(*) FROM seed_tokens WHERE player_id = $2"
                       " AND daily_date = '' AND issued_at >= $3 GROUP BY game, level"
                       " ORDER BY 1 DESC LIMIT 1), 0)"
                       " FROM seed_tokens WHERE player_id = $2",
    /* the score and its token's redeem in one round trip; scores_nonce
     * (unique) makes a second score for one token impossible */
    /* the score, its token's redeem and the player's level best in one
     * round trip ($20: the score goes to a level board; $21: its
     * suspicion); scores_nonce
     * (unique) makes a second score for one token impossible. The best is
     * replaced only by a strictly higher score. */
    [PS_SCORE_REDEEM] = "WITH s AS (INSERT INTO scores (score_id, nonce, player_id, game, level,"
                        " seed, version, daily_date, score, completed, received_at, moves_hash,"
                        " receipt, moves_json, result_json, status, signals, duplicate_of, suspicion,"
                        " shape_hash, twin_of)"
                        " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14,"
                        " $15, $16, $17, $18, $21, $22, $23) RETURNING seq),"
                        " u AS (UPDATE seed_tokens SET redeemed = true, outcome = $19,"
                        " score_seq = (SELECT seq FROM s) WHERE nonce = $2 AND NOT redeemed"
                        " RETURNING score_seq),"
                        " b AS (INSERT INTO level_bests (game, level, score, seq, player_id,"
                        " received_at, nonce) SELECT $4, $5, $9, seq, $3, $11, $2 FROM s"
                        " WHERE $20::boolean ON CONFLICT (game, level, player_id) DO UPDATE"
                        " SET score = excluded.score, seq = excluded.seq,"
                        " received_at = excluded.received_at, nonce = excluded.nonce"
                        " WHERE excluded.score > level_bests.score)"
                        " SELECT score_seq FROM u",
    [PS_SCORE_BY_NONCE] = "SELECT s.score_id, s.nonce, s.player_id, p.name, s.game, s.level,"
                          " s.seed, s.version, s.daily_date, s.score, s.completed, s.received_at,"
                          " s.seq, s.moves_hash, s.receipt, s.moves_json, s.result_json,"
                          " s.status, s.signals, COALESCE(s.duplicate_of, 0), t.outcome,"
                          " s.suspicion, COALESCE(s.voided_at, 0), s.void_reason"
                          " FROM seed_tokens t JOIN scores s ON s.seq = t.score_seq"
                          " JOIN players p ON p.id = s.player_id WHERE t.nonce = $1",
    [PS_REJECTION_INSERT] = "INSERT INTO rejections (nonce, player_id, game, level, seed, version,"
                            " reason, move_index, received_at, moves_hash, moves_json)"
                            " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
    [PS_TOKEN_REJECTED] = "UPDATE seed_tokens SET rejections = rejections + 1 WHERE nonce = $1",
    /* a row back when the quota had room (a row added or counted up) */
    [PS_QUOTA_TAKE] = "INSERT INTO rejection_moves_quota AS q (player_id, day, kept)"
                      " VALUES ($1, $2, 1) ON CONFLICT (player_id, day)"
                      " DO UPDATE SET kept = q.kept + 1 WHERE q.kept < $3 RETURNING kept",
    [PS_QUOTA_PRUNE] = "DELETE FROM rejection_moves_quota WHERE player_id = $1 AND day < $2",
    [PS_LOAD_LEVEL] = "SELECT score, seq, player_id, received_at, nonce FROM level_bests"
                      " WHERE game = $1 AND level = $2",
    [PS_LOAD_DAILY] = "SELECT score, seq, player_id, received_at, nonce FROM scores"
                      " WHERE daily_date = $1 AND daily_date <> '' AND status = 'ranked'"
                      " AND voided_at IS NULL"
                      " AND player_id NOT IN (SELECT id FROM players WHERE banned_at IS NOT NULL)",
    /* re-verification: the columns of PS_SCORE_BY_NONCE without the joins
     * (no name, no outcome), by seq: $1 after seq, $2 game or NULL, $3 since */
    [PS_SCORES_PAGE] = "SELECT score_id, nonce, player_id, '', game, level, seed, version,"
                       " daily_date, score, completed, received_at, seq, moves_hash, receipt,"
                       " moves_json, result_json, status, signals, COALESCE(duplicate_of, 0), NULL,"
                       " suspicion, COALESCE(voided_at, 0), void_reason"
                       " FROM scores WHERE seq > $1 AND ($2::text IS NULL OR game = $2)"
                       " AND received_at >= $3 ORDER BY seq LIMIT $4",
    [PS_SCORES_COUNT] = "SELECT COUNT(*) FROM scores WHERE ($1::text IS NULL OR game = $1)"
                        " AND received_at >= $2",
    /* a twin link back: the earlier run of the pair learns of the later */
    [PS_SCORE_TWIN] = "UPDATE scores SET twin_of = COALESCE(twin_of, $1), suspicion = suspicion + $2"
                      " WHERE seq = $3",
    [PS_TWIN_CANDIDATES] = "SELECT seq, player_id, moves_json FROM scores"
                           " WHERE seed = $1 AND shape_hash = $2 AND game = $3 AND level = $4"
                           " AND version = $5 AND player_id <> $6 AND voided_at IS NULL"
                           " ORDER BY score DESC, seq LIMIT $7",
    [PS_NOTIFY] = "SELECT pg_notify('" PG_CHANNEL "', $1)",
};

store_status pg_connect(pg_conn *c, const char *url, int busy_timeout_ms, char *err,
                        size_t err_len)
{
    memset(c, 0, sizeof *c);
    char lock_timeout[64];
    /* a row lock held longer than the busy timeout answers 503, as a
     * locked SQLite file does */
    snprintf(lock_timeout, sizeof lock_timeout, "-c lock_timeout=%d -c synchronous_commit=on",
             busy_timeout_ms > 0 ? busy_timeout_ms : 5000);
    const char *const keys[] = { "dbname", "application_name", "connect_timeout", "options", NULL };
    const char *const values[] = { url, "replayd", "5", lock_timeout, NULL };
    c->pg = PQconnectdbParams(keys, values, 1);
    if (!c->pg || PQstatus(c->pg) != CONNECTION_OK) {
        const char *msg = c->pg ? PQerrorMessage(c->pg) : "out of memory";
        snprintf(err, err_len, "%.*s", (int)strcspn(msg, "\n"), msg);
        pg_disconnect(c);
        return STORE_BUSY;
    }
    return STORE_OK;
}

void pg_disconnect(pg_conn *c)
{
    if (c->pg)
        PQfinish(c->pg);
    memset(c, 0, sizeof *c);
}

bool pg_usable(pg_conn *c)
{
    if (!c->pg)
        return false;
    if (PQstatus(c->pg) == CONNECTION_OK)
        return true;
    PQreset(c->pg);
    memset(c->prepared, 0, sizeof c->prepared);
    return PQstatus(c->pg) == CONNECTION_OK;
}

/* ---- parameters ---- */

static void pa_put(pg_args *a, const char *v, int len, int format)
{
    if (a->n >= PG_ARGS_MAX)
        return; /* a statement table bug: the statement fails on its count */
    a->values[a->n] = v;
    a->lengths[a->n] = len;
    a->formats[a->n] = format;
    a->n++;
}

void pa_int(pg_args *a, int64_t v)
{
    if (a->n >= PG_ARGS_MAX)
        return;
    snprintf(a->buf[a->n], sizeof a->buf[a->n], "%" PRId64, v);
    pa_put(a, a->buf[a->n], 0, 0);
}

void pa_bool(pg_args *a, bool v)
{
    pa_put(a, v ? "true" : "false", 0, 0);
}

void pa_text(pg_args *a, const char *s)
{
    pa_put(a, s, 0, 0);
}

void pa_bytes(pg_args *a, const void *b, int n)
{
    pa_put(a, b, n, 1);
}

void pa_null(pg_args *a)
{
    pa_put(a, NULL, 0, 0);
}

void pa_game(pg_args *a, const play *p)
{
    pa_text(a, p->g->name);
}

void pa_date(pg_args *a, const play *p)
{
    if (a->n >= PG_ARGS_MAX)
        return;
    play_date(p, a->buf[a->n]);
    pa_put(a, a->buf[a->n], 0, 0);
}

/* ---- running statements ---- */

/* A failed result as a status; logs what is not a lock timeout, a lost
 * connection or a retryable failure. */
static store_status failure(pg_conn *c, const PGresult *r, const char *where)
{
    const char *state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
    c->retry = state && (strcmp(state, "40P01") == 0 || strcmp(state, "40001") == 0);
    bool lost = PQstatus(c->pg) != CONNECTION_OK;
    /* 55P03: lock_timeout; 57014: a cancelled statement; 08: connection */
    bool busy = c->retry || lost ||
                (state && (strcmp(state, "55P03") == 0 || strcmp(state, "57014") == 0 ||
                           strncmp(state, "08", 2) == 0 || strcmp(state, "57P01") == 0));
    if (!busy || lost) {
        const char *msg = r ? PQresultErrorMessage(r) : PQerrorMessage(c->pg);
        char detail[512];
        snprintf(detail, sizeof detail, "%.*s", (int)strcspn(msg, "\n"), msg);
        store_log_error(where, detail);
    }
    return busy ? STORE_BUSY : STORE_ERROR;
}

static bool prepare(pg_conn *c, int id)
{
    if (c->prepared[id])
        return true;
    char name[16];
    snprintf(name, sizeof name, "s%d", id);
    PGresult *r = PQprepare(c->pg, name, stmt_sql[id], 0, NULL);
    bool ok = r && PQresultStatus(r) == PGRES_COMMAND_OK;
    if (!ok)
        failure(c, r, "prepare");
    PQclear(r);
    c->prepared[id] = ok;
    return ok;
}

/* A connection that was idle (no transaction open) and found broken when
 * used: nothing of the caller's was lost, so it is re-established and the
 * statement sent again, once (after PostgreSQL restarted, or an operator
 * ended the session). */
static bool reconnect_idle(pg_conn *c, bool was_idle)
{
    return was_idle && c->pg && PQstatus(c->pg) != CONNECTION_OK && pg_usable(c);
}

PGresult *pg_run(pg_conn *c, int id, const pg_args *a, const char *where, store_status *st)
{
    static const pg_args none = { 0 };
    if (!a)
        a = &none;
    bool was_idle = c->pg && PQtransactionStatus(c->pg) == PQTRANS_IDLE;
    for (int attempt = 0;; attempt++) {
        c->retry = false;
        if (!c->pg || !prepare(c, id)) {
            if (attempt == 0 && reconnect_idle(c, was_idle))
                continue;
            if (st)
                *st = c->pg && PQstatus(c->pg) == CONNECTION_OK ? STORE_ERROR : STORE_BUSY;
            return NULL;
        }
        char name[16];
        snprintf(name, sizeof name, "s%d", id);
        PGresult *r = PQexecPrepared(c->pg, name, a->n, a->values, a->lengths, a->formats, 0);
        ExecStatusType rs = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
        if (rs == PGRES_COMMAND_OK || rs == PGRES_TUPLES_OK)
            return r;
        store_status s = failure(c, r, where);
        PQclear(r);
        if (attempt == 0 && reconnect_idle(c, was_idle))
            continue;
        if (st)
            *st = s;
        return NULL;
    }
}

PGresult *pg_query(pg_conn *c, const char *sql, const pg_args *a, const char *where,
                   store_status *st)
{
    static const pg_args none = { 0 };
    if (!a)
        a = &none;
    c->retry = false;
    if (!c->pg) {
        if (st)
            *st = STORE_BUSY;
        return NULL;
    }
    PGresult *r = PQexecParams(c->pg, sql, a->n, NULL, a->values, a->lengths, a->formats, 0);
    ExecStatusType rs = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
    if (rs == PGRES_COMMAND_OK || rs == PGRES_TUPLES_OK)
        return r;
    store_status s = failure(c, r, where);
    PQclear(r);
    if (st)
        *st = s;
    return NULL;
}

store_status pg_exec(pg_conn *c, const char *sql, const char *where)
{
    if (!c->pg)
        return STORE_BUSY;
    bool was_idle = PQtransactionStatus(c->pg) == PQTRANS_IDLE;
    for (int attempt = 0;; attempt++) {
        c->retry = false;
        PGresult *r = PQexec(c->pg, sql);
        ExecStatusType rs = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
        store_status st = rs == PGRES_COMMAND_OK || rs == PGRES_TUPLES_OK ? STORE_OK
                                                                          : failure(c, r, where);
        PQclear(r);
        if (st != STORE_OK && attempt == 0 && reconnect_idle(c, was_idle))
            continue;
        return st;
    }
}

/* ---- columns ---- */

int64_t pg_int(const PGresult *r, int row, int col)
{
    const char *v = PQgetvalue(r, row, col);
    return v ? strtoll(v, NULL, 10) : 0;
}

bool pg_bool(const PGresult *r, int row, int col)
{
    const char *v = PQgetvalue(r, row, col);
    return v && v[0] == 't';
}

void pg_text(char *dst, size_t cap, const PGresult *r, int row, int col)
{
    const char *v = PQgetvalue(r, row, col);
    size_t n = v ? (size_t)PQgetlength(r, row, col) : 0;
    if (n >= cap)
        n = cap - 1;
    if (n)
        memcpy(dst, v, n);
    dst[n] = '\0';
}

static int hex_digit(char ch)
{
    if (ch >= '0' && ch <= '9')
        return ch - '0';
    if (ch >= 'a' && ch <= 'f')
        return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F')
        return ch - 'A' + 10;
    return -1;
}

/* bytea comes back as text in hex form: "\x" and two digits a byte */
void pg_bytes(uint8_t *dst, size_t n, const PGresult *r, int row, int col)
{
    const char *v = PQgetvalue(r, row, col);
    memset(dst, 0, n);
    if (!v || (size_t)PQgetlength(r, row, col) != 2 + 2 * n || v[0] != '\\' || v[1] != 'x')
        return;
    for (size_t i = 0; i < n; i++) {
        int hi = hex_digit(v[2 + 2 * i]), lo = hex_digit(v[3 + 2 * i]);
        if (hi < 0 || lo < 0) {
            memset(dst, 0, n);
            return;
        }
        dst[i] = (uint8_t)(hi << 4 | lo);
    }
}

int64_t pg_changed(const PGresult *r)
{
    const char *t = PQcmdTuples((PGresult *)r);
    return t && t[0] ? strtoll(t, NULL, 10) : PQntuples(r);
}

const char *pg_outcome_text(run_outcome o)
{
    return o == RUN_COMPLETED ? "completed" : o == RUN_FORFEIT ? "forfeit" : "incomplete";
}

const char *pg_status_text(score_status s)
{
    return s == SCORE_RANKED ? "ranked" : "held";
}

bool pg_game_day(const char *game_name, const char *date, play *p)
{
    p->g = game_find(game_name);
    p->day = -1;
    if (date && date[0]) {
        civil_date d;
        if (!civil_parse(date, &d))
            return false;
        p->day = (int32_t)civil_to_days(d);
    }
    return p->g != NULL;
}

bool pg_read_token(const PGresult *r, int row, store_token *t, int64_t *rejections)
{
    memset(t, 0, sizeof *t);
    pg_bytes(t->p.nonce, PLAY_NONCE_BYTES, r, row, 0);
    t->p.player_id = pg_int(r, row, 1);
    t->p.level = (int)pg_int(r, row, 3);
    t->p.seed = (uint32_t)pg_int(r, row, 4);
    t->p.version = (int)pg_int(r, row, 5);
    t->issued_at = pg_int(r, row, 6);
    t->expires_at = pg_int(r, row, 7);
    pg_text(t->text, sizeof t->text, r, row, 9);
    t->redeemed = pg_bool(r, row, 10);
    if (rejections)
        *rejections = pg_int(r, row, 11);
    return pg_game_day(PQgetvalue(r, row, 2), PQgetvalue(r, row, 8), &t->p);
}

static char *dup_col(const PGresult *r, int row, int col)
{
    const char *v = PQgetvalue(r, row, col);
    return strdup(v ? v : "");
}

store_status pg_read_score(const PGresult *r, int row, store_score *o)
{
    memset(o, 0, sizeof *o);
    pg_text(o->score_id, sizeof o->score_id, r, row, 0);
    pg_bytes(o->p.nonce, PLAY_NONCE_BYTES, r, row, 1);
    o->p.player_id = pg_int(r, row, 2);
    pg_text(o->player_name, sizeof o->player_name, r, row, 3);
    o->p.level = (int)pg_int(r, row, 5);
    o->p.seed = (uint32_t)pg_int(r, row, 6);
    o->p.version = (int)pg_int(r, row, 7);
    o->score = pg_int(r, row, 9);
    o->completed = pg_bool(r, row, 10);
    o->received_at = pg_int(r, row, 11);
    o->seq = pg_int(r, row, 12);
    pg_bytes(o->moves_hash, STORE_HASH_BYTES, r, row, 13);
    pg_text(o->receipt, sizeof o->receipt, r, row, 14);
    if (!pg_game_day(PQgetvalue(r, row, 4), PQgetvalue(r, row, 8), &o->p)) {
        store_log_error("pg_read_score", "a score row names a game this build does not serve");
        return STORE_ERROR;
    }
    o->status = strcmp(PQgetvalue(r, row, 17), "ranked") == 0 ? SCORE_RANKED : SCORE_HELD;
    o->duplicate_of = pg_int(r, row, 19);
    o->suspicion = pg_int(r, row, 21);
    o->voided_at = pg_int(r, row, 22);
    pg_text(o->void_reason, sizeof o->void_reason, r, row, 23);
    const char *outcome = PQgetisnull(r, row, 20) ? NULL : PQgetvalue(r, row, 20);
    o->outcome = !outcome                             ? (o->completed ? RUN_COMPLETED : RUN_INCOMPLETE)
                 : strcmp(outcome, "forfeit") == 0   ? RUN_FORFEIT
                 : strcmp(outcome, "completed") == 0 ? RUN_COMPLETED
                                                     : RUN_INCOMPLETE;
    o->moves_json = dup_col(r, row, 15);
    o->result_json = dup_col(r, row, 16);
    o->signals_json = dup_col(r, row, 18);
    if (!o->moves_json || !o->result_json || !o->signals_json) {
        store_score_clear(o);
        return STORE_ERROR;
    }
    return STORE_OK;
}

store_status pg_score_by_nonce(pg_conn *c, const uint8_t nonce[PLAY_NONCE_BYTES],
                               store_score *out, const char *where)
{
    pg_args a = { 0 };
    pa_bytes(&a, nonce, PLAY_NONCE_BYTES);
    store_status st = STORE_ERROR;
    PGresult *r = pg_run(c, PS_SCORE_BY_NONCE, &a, where, &st);
    if (!r)
        return st;
    st = PQntuples(r) == 1 ? pg_read_score(r, 0, out) : STORE_NOT_FOUND;
    PQclear(r);
    return st;
}
