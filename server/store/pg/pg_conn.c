/*
 * pg_conn: the PostgreSQL driver, its statement table and the
 * per-connection helpers (see the header). The table holds the SQL of
 * every request the backend serves; migrations are plain commands.
 */
#include "pg_conn.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../store_backend.h"

#define TOKEN_ROW                                                                          \
    "nonce, player_id, game, level, seed, version, issued_at, expires_at, daily_date, text, " \
    "redeemed, rejections"
#define BANNED "(SELECT b.banned_at IS NOT NULL FROM players b WHERE b.id = seed_tokens.player_id)"
#define ON_BOARD_PLAYER "NOT EXISTS (SELECT 1 FROM players b WHERE b.id = s.player_id AND b.banned_at IS NOT NULL)"
#define ON_BOARD "s.status = 'ranked' AND s.voided_at IS NULL AND " ON_BOARD_PLAYER

/* Parameters and columns: store_driver.h, beside each name. The row locks
 * that make the rules hold across nodes are here: the player's row
 * (NO KEY UPDATE does not block the foreign-key checks of other writes)
 * before any other row of theirs, then the token's or the score's. */
static const char *const stmt_sql[PG_STMT_COUNT] = {
    [SD_BEGIN] = "BEGIN",
    [SD_COMMIT] = "COMMIT",
    [SD_ROLLBACK] = "ROLLBACK",
    [SD_SAVEPOINT] = "SAVEPOINT job",
    [SD_RELEASE] = "RELEASE SAVEPOINT job",
    [SD_ROLLBACK_TO] = "ROLLBACK TO SAVEPOINT job",
    [SD_READ_BEGIN] = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY",
    [SD_READ_END] = "COMMIT",
    /* a taken token hash returns no row: a conflict, not a failed statement
     * (which would abort the batch's transaction) */
    [SD_PLAYER_INSERT] = "INSERT INTO players (name, token_hash, created_at, reg_prefix)"
                         " VALUES ($1, $2, $3, NULLIF($4, ''))"
                         " ON CONFLICT (token_hash) DO NOTHING RETURNING id",
    [SD_PLAYER_BY_HASH] = "SELECT id, name, created_at, banned_at IS NOT NULL,"
                          " COALESCE((SELECT i.provider FROM identities i WHERE i.player_id = players.id"
                          " ORDER BY i.provider LIMIT 1), '') FROM players WHERE token_hash = $1",
    [SD_PLAYER_NAMES] = "SELECT id, name FROM players"
                        " WHERE id IN (SELECT json_array_elements_text($1::json)::bigint)",
    /* a player's writes run one at a time on every node: the token limits
     * count what the others committed, a score's ban check waits for a
     * ban being committed (whose board recompute then sees this score) */
    [SD_PLAYER_LOCK] = "SELECT 1 FROM players WHERE id = $1 FOR NO KEY UPDATE",
    [SD_TOKEN_INSERT] = "INSERT INTO seed_tokens (nonce, player_id, game, level, seed, version,"
                        " issued_at, expires_at, daily_date, text)"
                        " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
    /* the one redeem check holds the token's row until the commit: a second
     * node redeeming it waits here and then reads it redeemed */
    [SD_TOKEN_GET] = "SELECT " TOKEN_ROW ", " BANNED " FROM seed_tokens WHERE nonce = $1"
                     " FOR UPDATE OF seed_tokens",
    /* the same for a score, with the earliest run of another player with
     * the same seed, moves, game, level and version (0 if none) */
    [SD_SCORE_TOKEN] = "SELECT " TOKEN_ROW ", " BANNED ", COALESCE((SELECT d.seq FROM scores d"
                       " WHERE d.seed = $2 AND d.moves_hash = $3 AND d.game = $4 AND d.level = $5"
                       " AND d.version = $6 AND d.player_id <> $7 ORDER BY d.seq LIMIT 1), 0)"
                       " FROM seed_tokens WHERE nonce = $1 FOR UPDATE OF seed_tokens",
    [SD_TOKEN_DAILY] = "SELECT " TOKEN_ROW " FROM seed_tokens"
                       " WHERE player_id = $1 AND daily_date = $2 AND daily_date <> ''",
    /* outstanding level tokens (the daily is exempt); of one (game, level)
     * since the start of the day, the forfeited, abandoned or still open
     * ones (the forfeit cap) and all of them (the draw cap) */
    [SD_TOKEN_LIMITS] = "SELECT (SELECT COUNT(*) FROM seed_tokens WHERE player_id = $1"
                        " AND NOT redeemed AND expires_at > $2 AND daily_date = ''),"
                        " COUNT(*) FILTER (WHERE NOT redeemed OR outcome = 'forfeit'), COUNT(*)"
                        " FROM seed_tokens WHERE player_id = $1 AND game = $3"
                        " AND level = $4 AND issued_at >= $5 AND daily_date = ''",
    [SD_TOKEN_STATS] = "SELECT COUNT(*), COUNT(*) FILTER (WHERE outcome = 'completed'),"
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
    /* joined on the token's primary key (its nonce is the score's) */
    [SD_PLAYED_RUNS] = "SELECT s.game, s.level, t.issued_at, s.received_at FROM scores s"
                       " JOIN seed_tokens t ON t.nonce = s.nonce"
                       " WHERE s.player_id = $1 AND s.daily_date = '' AND s.completed"
                       " AND s.status = 'ranked' AND s.voided_at IS NULL"
                       " ORDER BY s.seq DESC LIMIT $2",
    /* the score, its token's redeem and the player's level best in one
     * round trip; scores_nonce (unique) makes a second score for one token
     * impossible. The best is replaced only by a strictly higher score. */
    [SD_SCORE_RECORD] = "WITH s AS (INSERT INTO scores (score_id, nonce, player_id, game, level,"
                        " seed, version, daily_date, score, completed, received_at, moves_hash,"
                        " receipt, moves_json, result_json, status, signals, duplicate_of, suspicion,"
                        " shape_hash, twin_of, twin_times, claimed_ms)"
                        " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14,"
                        " $15, $16, $17, $18, $21, $22, $23, $24, $25) RETURNING seq),"
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
    /* a twin link back: the earlier run of the pair learns of the later */
    [SD_SCORE_TWIN] = "UPDATE scores SET twin_of = COALESCE(twin_of, $1), suspicion = suspicion + $2,"
                      " status = 'held', reviewed_at = NULL WHERE seq = $3",
    [SD_TWIN_CANDIDATES] = "SELECT seq, player_id, twin_times FROM scores"
                           " WHERE seed = $1 AND shape_hash = $2 AND game = $3 AND level = $4"
                           " AND version = $5 AND player_id <> $6 AND voided_at IS NULL"
                           " AND twin_times IS NOT NULL AND seq > $8 AND daily_date = $9"
                           " ORDER BY seq DESC LIMIT $7",
    [SD_PLAYER_WINDOWS] = "SELECT seq, received_at, claimed_ms FROM scores"
                          " WHERE player_id = $1 AND received_at >= $2 AND claimed_ms IS NOT NULL"
                          " AND voided_at IS NULL ORDER BY received_at DESC LIMIT $3",
    [SD_TWIN_LOCK] = "SELECT pg_advisory_xact_lock(hashtextextended(encode($1, 'hex') || ':' || $2::text, 37))",
    [SD_SCORE_BY_NONCE] = "SELECT s.score_id, s.nonce, s.player_id, p.name, s.game, s.level,"
                          " s.seed, s.version, s.daily_date, s.score, s.completed, s.received_at,"
                          " s.seq, s.moves_hash, s.receipt, s.moves_json, s.result_json,"
                          " s.status, s.signals, COALESCE(s.duplicate_of, 0), t.outcome,"
                          " s.suspicion, COALESCE(s.voided_at, 0), s.void_reason"
                          " FROM seed_tokens t JOIN scores s ON s.seq = t.score_seq"
                          " JOIN players p ON p.id = s.player_id WHERE t.nonce = $1",
    [SD_REJECTION_INSERT] = "INSERT INTO rejections (nonce, player_id, game, level, seed, version,"
                            " reason, move_index, received_at, moves_hash, moves_json)"
                            " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
    [SD_TOKEN_REJECTED] = "UPDATE seed_tokens SET rejections = rejections + 1 WHERE nonce = $1",
    [SD_QUOTA_PRUNE] = "DELETE FROM rejection_moves_quota WHERE player_id = $1 AND day < $2",
    /* a row back when the quota had room (a row added or counted up) */
    [SD_QUOTA_TAKE] = "INSERT INTO rejection_moves_quota AS q (player_id, day, kept)"
                      " VALUES ($1, $2, 1) ON CONFLICT (player_id, day)"
                      " DO UPDATE SET kept = q.kept + 1 WHERE q.kept < $3 RETURNING kept",
    [SD_NET_QUOTA_PRUNE] = "DELETE FROM rejection_moves_net_quota WHERE day < $1",
    [SD_NET_QUOTA_TAKE] = "INSERT INTO rejection_moves_net_quota AS q (day, net, kept) VALUES ($1, $2, 1)"
                          " ON CONFLICT (day, net) DO UPDATE SET kept = q.kept + 1 WHERE q.kept < $3 RETURNING kept",
    [SD_KEY_RECORD] = "INSERT INTO cluster_keys (key_id, fingerprint, recorded_at) VALUES ($1, $2, $3)"
                      " ON CONFLICT (key_id) DO NOTHING",
    [SD_KEY_GET] = "SELECT fingerprint FROM cluster_keys WHERE key_id = $1",
    [SD_DAILY_ISSUED] = "SELECT 1 FROM seed_tokens WHERE daily_date = $1 LIMIT 1",
    [SD_LOAD_LEVEL] = "SELECT score, seq, player_id, received_at, nonce FROM level_bests"
                      " WHERE game = $1 AND level = $2",
    [SD_LOAD_DAILY] = "SELECT score, seq, player_id, received_at, nonce FROM scores"
                      " WHERE daily_date = $1 AND daily_date <> '' AND status = 'ranked'"
                      " AND voided_at IS NULL"
                      " AND player_id NOT IN (SELECT id FROM players WHERE banned_at IS NOT NULL)",
    /* re-verification: the columns of SD_SCORE_BY_NONCE without the joins
     * (no name, no outcome), by seq */
    [SD_SCORES_PAGE] = "SELECT score_id, nonce, player_id, '', game, level, seed, version,"
                       " daily_date, score, completed, received_at, seq, moves_hash, receipt,"
                       " moves_json, result_json, status, signals, COALESCE(duplicate_of, 0), NULL,"
                       " suspicion, COALESCE(voided_at, 0), void_reason"
                       " FROM scores WHERE seq > $1 AND ($2::text IS NULL OR game = $2)"
                       " AND received_at >= $3 ORDER BY seq LIMIT $4",
    [SD_SCORES_COUNT] = "SELECT COUNT(*) FROM scores WHERE ($1::text IS NULL OR game = $1)"
                        " AND received_at >= $2",
    [SD_BEST_DELETE] = "DELETE FROM level_bests WHERE player_id = $1 AND game = $2 AND level = $3",
    /* the new best, read back as it was inserted */
    [SD_BEST_RECOMPUTE] = "INSERT INTO level_bests (game, level, score, seq, player_id, received_at, nonce)"
                          " SELECT s.game, s.level, s.score, s.seq, s.player_id, s.received_at, s.nonce"
                          " FROM scores s WHERE s.player_id = $1 AND s.game = $2 AND s.level = $3"
                          " AND s.daily_date = '' AND " ON_BOARD " ORDER BY s.score DESC, s.seq ASC LIMIT 1"
                          " RETURNING score, seq, received_at, nonce",
    [SD_DAILY_ENTRY] = "SELECT s.score, s.seq, s.received_at, s.nonce FROM scores s"
                       " WHERE s.player_id = $1 AND s.daily_date = $2 AND " ON_BOARD
                       " ORDER BY s.score DESC, s.seq ASC LIMIT 1",
    [SD_PLAYER_BOARDS] = "SELECT DISTINCT game, level, daily_date FROM scores WHERE player_id = $1"
                         " ORDER BY game, level, daily_date",
    [SD_ADMIN_LOG_INSERT] = "INSERT INTO admin_log (at, actor, action, target, reason, detail)"
                            " VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
    [SD_ADMIN_PLAYER_ROW] = "SELECT banned_at IS NOT NULL, name FROM players WHERE id = $1"
                            " FOR NO KEY UPDATE",
    /* NO KEY UPDATE: it does not wait for a score referring to this one
     * (duplicate_of takes KEY SHARE) */
    [SD_ADMIN_SCORE_ROW] = "SELECT s.seq, s.player_id, s.game, s.level, s.daily_date,"
                           " s.status = 'ranked', s.voided_at IS NOT NULL,"
                           " s.reviewed_at IS NOT NULL, s.score_id"
                           " FROM seed_tokens t JOIN scores s ON s.seq = t.score_seq"
                           " WHERE t.nonce = $1 FOR NO KEY UPDATE OF s",
    [SD_SCORE_VOID] = "UPDATE scores SET voided_at = $1, void_reason = $2,"
                      " reviewed_at = COALESCE(reviewed_at, $1) WHERE seq = $3",
    [SD_SCORE_RESTORE] = "UPDATE scores SET voided_at = NULL, void_reason = '' WHERE seq = $1",
    [SD_SCORE_APPROVE] = "UPDATE scores SET status = 'ranked', reviewed_at = $1 WHERE seq = $2",
    [SD_PLAYER_RENAME] = "UPDATE players SET name = $1 WHERE id = $2",
    [SD_PLAYER_BAN] = "UPDATE players SET banned_at = $1::bigint WHERE id = $2",
    [SD_PLAYER_UNBAN] = "UPDATE players SET banned_at = NULL WHERE id = $1",
    [SD_ADMIN_PLAYER] = "SELECT p.name, p.created_at, p.banned_at,"
                        " (SELECT COUNT(*) FROM rejections WHERE player_id = p.id),"
                        " (SELECT COUNT(*) FROM scores WHERE player_id = p.id AND voided_at IS NOT NULL),"
                        " (SELECT COUNT(*) FROM scores WHERE player_id = p.id AND status = 'held'"
                        " AND voided_at IS NULL)"
                        " FROM players p WHERE p.id = $1",
    [SD_ADMIN_FEATURES] = "SELECT COUNT(*), COUNT(*) FILTER (WHERE w = 0) FROM"
                          " (SELECT (signals::jsonb #>> '{features,wasted}')::numeric AS w"
                          " FROM scores WHERE player_id = $1 AND completed) f WHERE w IS NOT NULL",
    [SD_ADMIN_TOKENS] = "SELECT COUNT(*) FILTER (WHERE outcome = 'forfeit'),"
                        " COUNT(*) FILTER (WHERE NOT redeemed AND expires_at <= $1)"
                        " FROM seed_tokens WHERE player_id = $2",
    [SD_ADMIN_TWIN] = "SELECT t.score_id, t.player_id, p.name, t.score, t.status, t.suspicion,"
                      " t.received_at, t.voided_at IS NOT NULL, t.twin_times"
                      " FROM scores t JOIN players p ON p.id = t.player_id WHERE t.seq = $1",
    [SD_ADMIN_LINKED] = "SELECT o.id, o.name, o.created_at FROM players p JOIN players o"
                        " ON o.reg_prefix = p.reg_prefix AND o.id <> p.id"
                        " AND o.created_at BETWEEN p.created_at - $2 AND p.created_at + $2"
                        " WHERE p.id = $1 AND p.reg_prefix IS NOT NULL"
                        " ORDER BY o.created_at, o.id LIMIT 20",
    [SD_ADMIN_BOARD_TIMES] = "SELECT seq, player_id, twin_times FROM scores"
                             " WHERE game = $1 AND level = $2 AND version = $3 AND daily_date = $4"
                             " AND twin_times IS NOT NULL"
                             " AND (seq = $5 OR (status = 'ranked' AND voided_at IS NULL))"
                             " ORDER BY seq = $5 DESC, seq DESC LIMIT $6",
    [SD_ADMIN_PLAYER_RUNS] = "SELECT score_id, game, level, daily_date, score, status, suspicion,"
                             " received_at, voided_at IS NOT NULL FROM scores WHERE player_id = $1"
                             " ORDER BY received_at DESC, seq DESC LIMIT $2",
    /* two nodes signing in with one new identity at once: the second
     * waits for the first's commit, then finds its player */
    [SD_IDENTITY_LOCK] = "SELECT pg_advisory_xact_lock(hashtextextended($1::text || ':' || $2::text, 36))",
    [SD_IDENTITY_GET] = "SELECT i.player_id, p.banned_at IS NOT NULL FROM identities i"
                        " JOIN players p ON p.id = i.player_id WHERE i.provider = $1 AND i.subject = $2",
    [SD_IDENTITY_OF_PLAYER] = "SELECT subject FROM identities WHERE player_id = $1 AND provider = $2",
    [SD_IDENTITY_INSERT] = "INSERT INTO identities (provider, subject, player_id, created_at)"
                           " VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING player_id",
    [SD_IDENTITY_LIST] = "SELECT provider, created_at FROM identities WHERE player_id = $1 ORDER BY provider",
    [SD_PLAYER_SET_TOKEN] = "UPDATE players SET token_hash = $1 WHERE id = $2",
    [SD_NONCE_INSERT] = "INSERT INTO identity_nonces (nonce_hash, expires_at) VALUES ($1, $2)"
                        " ON CONFLICT DO NOTHING",
    [SD_NONCE_PURGE] = "DELETE FROM identity_nonces WHERE expires_at <= $1",
    [SD_NONCE_TAKE] = "DELETE FROM identity_nonces WHERE nonce_hash = $1 AND expires_at > $2"
                      " RETURNING expires_at",
    [SD_PLAYER_APPROVED] = "SELECT COUNT(*) FROM scores WHERE player_id = $1 AND reviewed_at IS NOT NULL"
                           " AND status = 'ranked' AND voided_at IS NULL",
    /* the backend's own: NOTIFY, and a score's player for the lock order */
    [PG_NOTIFY] = "SELECT pg_notify('" PG_CHANNEL "', $1)",
    [PG_ADMIN_PLAYER_OF] = "SELECT player_id FROM seed_tokens WHERE nonce = $1",
    /* a batch's players, locked in id order before its writes run in
     * arrival order (store_txn.c, pg_txn.c) */
    [PG_LOCK_PLAYERS] = "SELECT id FROM players WHERE id = ANY($1::bigint[]) ORDER BY id FOR NO KEY UPDATE",
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

/* ---- the driver ---- */

static sd_stmt *pq_start(sd_conn *sc, sd_id id)
{
    pg_conn *c = (pg_conn *)sc;
    pg_stmt *s = &c->st[id];
    s->c = c;
    s->id = (int)id;
    s->sql = NULL;
    s->own_sql = NULL;
    s->a.n = 0;
    s->r = NULL;
    s->ran = false;
    c->last = STORE_ERROR;
    return (sd_stmt *)s;
}

/* The text with $N for each ?N (the rules write ?N; no literal of theirs
 * holds a '?'). */
static sd_stmt *pq_start_sql(sd_conn *sc, const char *sql)
{
    pg_conn *c = (pg_conn *)sc;
    char *text = strdup(sql);
    if (!text) {
        c->last = STORE_ERROR;
        return NULL;
    }
    for (char *q = text; (q = strchr(q, '?')) != NULL; q++)
        *q = '$';
    c->last = STORE_ERROR;
    pg_stmt *s = &c->adhoc;
    memset(s, 0, sizeof *s);
    s->c = c;
    s->id = -1;
    s->sql = s->own_sql = text;
    return (sd_stmt *)s;
}

static void pq_bind_int(sd_stmt *st, int64_t v)
{
    pa_int(&((pg_stmt *)st)->a, v);
}

static void pq_bind_text(sd_stmt *st, const char *v)
{
    pg_args *a = &((pg_stmt *)st)->a;
    size_t n = strlen(v);
    if (n < SD_SHORT_TEXT && a->n < PG_ARGS_MAX) {
        memcpy(a->buf[a->n], v, n + 1);
        v = a->buf[a->n];
    }
    pa_text(a, v);
}

static void pq_bind_blob(sd_stmt *st, const void *v, size_t n)
{
    pa_bytes(&((pg_stmt *)st)->a, v, (int)n);
}

static void pq_bind_null(sd_stmt *st)
{
    pa_null(&((pg_stmt *)st)->a);
}

static int pq_step(sd_stmt *st)
{
    pg_stmt *s = (pg_stmt *)st;
    pg_conn *c = s->c;
    if (!s->ran) {
        store_status res = STORE_ERROR;
        if (s->id >= 0 && s->id <= SD_READ_END) { /* a transaction's command */
            res = pg_exec(c, stmt_sql[s->id], sd_names[s->id]);
            s->rows = 0;
        } else {
            s->r = s->id >= 0 ? pg_run(c, s->id, &s->a, sd_names[s->id], &res)
                              : pg_query(c, s->sql, &s->a, "admin_rejections", &res);
            if (s->r)
                res = STORE_OK;
            s->rows = s->r ? PQntuples(s->r) : 0;
        }
        if (res != STORE_OK) {
            c->last = res;
            return SD_FAIL;
        }
        s->ran = true;
        s->row = -1;
    }
    return ++s->row < s->rows ? SD_ROW : SD_DONE;
}

/* Integers, and booleans as 0/1 ('t' and 'f' in the text form). */
static int64_t pq_col_int(sd_stmt *st, int col)
{
    pg_stmt *s = (pg_stmt *)st;
    const char *v = PQgetvalue(s->r, s->row, col);
    if (!v)
        return 0;
    if (v[0] == 't' || v[0] == 'f')
        return v[0] == 't';
    return strtoll(v, NULL, 10);
}

static const char *pq_col_text(sd_stmt *st, int col)
{
    pg_stmt *s = (pg_stmt *)st;
    return PQgetisnull(s->r, s->row, col) ? NULL : PQgetvalue(s->r, s->row, col);
}

static void pq_col_blob(sd_stmt *st, int col, uint8_t *dst, size_t n)
{
    pg_stmt *s = (pg_stmt *)st;
    pg_bytes(dst, n, s->r, s->row, col);
}

static void pq_done(sd_stmt *st)
{
    pg_stmt *s = (pg_stmt *)st;
    PQclear(s->r);
    s->r = NULL;
    free(s->own_sql);
    s->own_sql = NULL;
    s->sql = NULL;
    s->a.n = 0;
    s->ran = false;
}

/* Logged where it failed (pg_run), once. */
static store_status pq_failed(sd_conn *sc, const char *where)
{
    (void)where;
    return ((pg_conn *)sc)->last;
}

const store_driver pg_driver = STORE_DRIVER_OF(pq);
