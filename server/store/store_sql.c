/* store_sql: the store's statements, written once for both backends (see
 * the header). Booleans are compared with TRUE/FALSE (SQLite reads 1/0, on
 * its integer columns; PostgreSQL its boolean ones), conditional counts
 * are COUNT(CASE WHEN ... THEN 1 END), and an untyped parameter tested
 * for NULL is CAST(?N AS TEXT): forms both engines read alike. */
#include "store_sql.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TOKEN_ROW                                                                          \
    "nonce, player_id, game, level, seed, version, issued_at, expires_at, daily_date, text, " \
    "redeemed, rejections"
#define BANNED "(SELECT b.banned_at IS NOT NULL FROM players b WHERE b.id = seed_tokens.player_id)"
#define ON_BOARD_PLAYER "NOT EXISTS (SELECT 1 FROM players b WHERE b.id = s.player_id AND b.banned_at IS NOT NULL)"
#define ON_BOARD "s.status = 'ranked' AND s.voided_at IS NULL AND " ON_BOARD_PLAYER

/* Parameters and columns: store_driver.h, beside each name; here their
 * counts, { text, parameters, columns }. */
const sd_sql sd_sql_of[SD_COUNT] = {
    /* SQLite begins IMMEDIATE (sqlite_conn.c) */
    [SD_BEGIN] = { "BEGIN", 0, 0 },
    [SD_COMMIT] = { "COMMIT", 0, 0 },
    [SD_ROLLBACK] = { "ROLLBACK", 0, 0 },
    [SD_SAVEPOINT] = { "SAVEPOINT job", 0, 0 },
    [SD_RELEASE] = { "RELEASE SAVEPOINT job", 0, 0 },
    [SD_ROLLBACK_TO] = { "ROLLBACK TO SAVEPOINT job", 0, 0 },
    /* PostgreSQL's is a read-only snapshot (pg_conn.c) */
    [SD_READ_BEGIN] = { "BEGIN", 0, 0 },
    [SD_READ_END] = { "COMMIT", 0, 0 },
    /* a taken token hash returns no row: a conflict, not a failed statement
     * (which would abort PostgreSQL's batch transaction) */
    [SD_PLAYER_INSERT] = { "INSERT INTO players (name, token_hash, created_at, reg_prefix)"
                           " VALUES (?1, ?2, ?3, NULLIF(?4, ''))"
                           " ON CONFLICT (token_hash) DO NOTHING RETURNING id", 4, 1 },
    [SD_PLAYER_BY_HASH] = { "SELECT id, name, created_at, banned_at IS NOT NULL,"
                            " COALESCE((SELECT i.provider FROM identities i WHERE i.player_id = players.id"
                            " ORDER BY i.provider LIMIT 1), '') FROM players WHERE token_hash = ?1", 1, 5 },
    /* JSON functions: each backend's own */
    [SD_PLAYER_NAMES] = { NULL, 1, 2 },
    /* a row lock: PostgreSQL's own, none on SQLite */
    [SD_PLAYER_LOCK] = { NULL, 1, 1 },
    /* redeemed takes its default (0, false) */
    [SD_TOKEN_INSERT] = { "INSERT INTO seed_tokens (nonce, player_id, game, level, seed, version,"
                          " issued_at, expires_at, daily_date, text)"
                          " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)", 10, 0 },
    /* the one redeem check (PostgreSQL holds the token's row until the
     * commit: a second node redeeming it waits and then reads it redeemed) */
    [SD_TOKEN_GET] = { "SELECT " TOKEN_ROW ", " BANNED " FROM seed_tokens WHERE nonce = ?1", 1, 13 },
    /* the same for a score, with the earliest run of another player with
     * the same seed, moves, game, level and version (0 if none), in one
     * lookup */
    [SD_SCORE_TOKEN] = { "SELECT " TOKEN_ROW ", " BANNED ", COALESCE((SELECT d.seq FROM scores d"
                         " WHERE d.seed = ?2 AND d.moves_hash = ?3 AND d.game = ?4 AND d.level = ?5"
                         " AND d.version = ?6 AND d.player_id <> ?7 ORDER BY d.seq LIMIT 1), 0)"
                         " FROM seed_tokens WHERE nonce = ?1", 7, 14 },
    [SD_TOKEN_DAILY] = { "SELECT " TOKEN_ROW " FROM seed_tokens"
                         " WHERE player_id = ?1 AND daily_date = ?2 AND daily_date <> ''", 2, 12 },
    /* level tokens only: the daily is exempt from the caps. Of one (game,
     * level) since the day's start: the forfeited, abandoned or open ones
     * (the forfeit cap), and all of them (the draw cap) */
    [SD_TOKEN_LIMITS] = { "SELECT (SELECT COUNT(*) FROM seed_tokens WHERE player_id = ?1"
                          " AND redeemed = FALSE AND expires_at > ?2 AND daily_date = ''),"
                          " COUNT(CASE WHEN redeemed = FALSE OR outcome = 'forfeit' THEN 1 END), COUNT(*)"
                          " FROM seed_tokens WHERE player_id = ?1 AND game = ?3"
                          " AND level = ?4 AND issued_at >= ?5 AND daily_date = ''", 5, 3 },
    [SD_TOKEN_STATS] = { "SELECT COUNT(*), COUNT(CASE WHEN outcome = 'completed' THEN 1 END),"
                         " COUNT(CASE WHEN outcome = 'incomplete' THEN 1 END),"
                         " COUNT(CASE WHEN outcome = 'forfeit' THEN 1 END),"
                         " COUNT(CASE WHEN redeemed = FALSE AND expires_at > ?1 THEN 1 END),"
                         " COUNT(CASE WHEN redeemed = FALSE AND expires_at <= ?1 THEN 1 END),"
                         /* the draws of level seeds since ?3 (the UTC day's start), and
                          * the most of one (game, level) */
                         " COUNT(CASE WHEN daily_date = '' AND issued_at >= ?3 THEN 1 END),"
                         " COALESCE((SELECT COUNT(*) FROM seed_tokens WHERE player_id = ?2"
                         " AND daily_date = '' AND issued_at >= ?3 GROUP BY game, level"
                         " ORDER BY 1 DESC LIMIT 1), 0)"
                         " FROM seed_tokens WHERE player_id = ?2", 3, 8 },
    /* joined on the token's primary key (its nonce is the score's) */
    [SD_PLAYED_RUNS] = { "SELECT s.game, s.level, t.issued_at, s.received_at FROM scores s"
                         " JOIN seed_tokens t ON t.nonce = s.nonce"
                         " WHERE s.player_id = ?1 AND s.daily_date = '' AND s.completed = TRUE"
                         " AND s.status = 'ranked' AND s.voided_at IS NULL"
                         " ORDER BY s.seq DESC LIMIT ?2", 2, 4 },
    /* several writes in one: each backend's own (SQLite's list, PostgreSQL's CTE) */
    [SD_SCORE_RECORD] = { NULL, 25, 1 },
    /* a twin link back: the earlier run of the pair learns of the later */
    [SD_SCORE_TWIN] = { "UPDATE scores SET twin_of = COALESCE(twin_of, ?1), suspicion = suspicion + ?2,"
                        " status = 'held', reviewed_at = NULL WHERE seq = ?3 RETURNING nonce", 3, 1 },
    [SD_TWIN_CANDIDATES] = { "SELECT seq, player_id, twin_times FROM scores"
                             " WHERE seed = ?1 AND shape_hash = ?2 AND game = ?3 AND level = ?4"
                             " AND version = ?5 AND player_id <> ?6 AND voided_at IS NULL"
                             " AND twin_times IS NOT NULL AND seq > ?8 AND daily_date = ?9"
                             " ORDER BY seq DESC LIMIT ?7", 9, 3 },
    /* an advisory lock: PostgreSQL's own, none on SQLite */
    [SD_TWIN_LOCK] = { NULL, 2, 1 },
    [SD_PLAYER_WINDOWS] = { "SELECT seq, received_at, claimed_ms FROM scores"
                            " WHERE player_id = ?1 AND received_at >= ?2 AND claimed_ms IS NOT NULL"
                            " AND voided_at IS NULL ORDER BY received_at DESC LIMIT ?3", 3, 3 },
    [SD_SCORE_BY_NONCE] = { "SELECT s.score_id, s.nonce, s.player_id, p.name, s.game, s.level,"
                            " s.seed, s.version, s.daily_date, s.score, s.completed, s.received_at,"
                            " s.seq, s.moves_hash, s.receipt, s.moves_json, s.result_json,"
                            " s.status, s.signals, COALESCE(s.duplicate_of, 0), t.outcome,"
                            " s.suspicion, COALESCE(s.voided_at, 0), s.void_reason"
                            " FROM seed_tokens t JOIN scores s ON s.seq = t.score_seq"
                            " JOIN players p ON p.id = s.player_id WHERE t.nonce = ?1", 1, 24 },
    [SD_REJECTION_INSERT] = { "INSERT INTO rejections (nonce, player_id, game, level, seed, version,"
                              " reason, move_index, received_at, moves_hash, moves_json)"
                              " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)", 11, 0 },
    [SD_TOKEN_REJECTED] = { "UPDATE seed_tokens SET rejections = rejections + 1 WHERE nonce = ?1", 1, 0 },
    [SD_QUOTA_PRUNE] = { "DELETE FROM rejection_moves_quota WHERE player_id = ?1 AND day < ?2", 2, 0 },
    /* a row back when the quota had room (a row added or counted up); the
     * alias names the existing row (PostgreSQL finds a bare kept ambiguous) */
    [SD_QUOTA_TAKE] = { "INSERT INTO rejection_moves_quota AS q (player_id, day, kept)"
                        " VALUES (?1, ?2, 1) ON CONFLICT (player_id, day)"
                        " DO UPDATE SET kept = q.kept + 1 WHERE q.kept < ?3 RETURNING kept", 3, 1 },
    [SD_NET_QUOTA_PRUNE] = { "DELETE FROM rejection_moves_net_quota WHERE day < ?1", 1, 0 },
    [SD_NET_QUOTA_TAKE] = { "INSERT INTO rejection_moves_net_quota AS q (day, net, kept) VALUES (?1, ?2, 1)"
                            " ON CONFLICT (day, net) DO UPDATE SET kept = q.kept + 1"
                            " WHERE q.kept < ?3 RETURNING kept", 3, 1 },
    [SD_KEY_RECORD] = { "INSERT INTO cluster_keys (key_id, fingerprint, recorded_at) VALUES (?1, ?2, ?3)"
                        " ON CONFLICT (key_id) DO NOTHING", 3, 0 },
    [SD_KEY_GET] = { "SELECT fingerprint FROM cluster_keys WHERE key_id = ?1", 1, 1 },
    [SD_KEY_IDS] = { "SELECT key_id FROM cluster_keys ORDER BY key_id", 0, 1 },
    [SD_DAILY_ISSUED] = { "SELECT 1 FROM seed_tokens WHERE daily_date = ?1 LIMIT 1", 1, 1 },
    /* in board order: the board's load appends each entry at its tail (rank.c) */
    [SD_LOAD_LEVEL] = { "SELECT score, seq, player_id, received_at, nonce FROM level_bests"
                        " WHERE game = ?1 AND level = ?2 ORDER BY score DESC, seq ASC", 2, 5 },
    /* the extra daily_date <> '' lets SQLite use the partial index */
    [SD_LOAD_DAILY] = { "SELECT score, seq, player_id, received_at, nonce FROM scores"
                        " WHERE daily_date = ?1 AND daily_date <> '' AND status = 'ranked'"
                        " AND voided_at IS NULL"
                        " AND player_id NOT IN (SELECT id FROM players WHERE banned_at IS NOT NULL)"
                        " ORDER BY score DESC, seq ASC", 1, 5 },
    /* re-verification: the columns of SD_SCORE_BY_NONCE without the joins
     * (no name, no outcome), by seq */
    [SD_SCORES_PAGE] = { "SELECT score_id, nonce, player_id, '', game, level, seed, version,"
                         " daily_date, score, completed, received_at, seq, moves_hash, receipt,"
                         " moves_json, result_json, status, signals, COALESCE(duplicate_of, 0), NULL,"
                         " suspicion, COALESCE(voided_at, 0), void_reason"
                         " FROM scores WHERE seq > ?1 AND (CAST(?2 AS TEXT) IS NULL OR game = ?2)"
                         " AND received_at >= ?3 ORDER BY seq LIMIT ?4", 4, 24 },
    [SD_SCORES_COUNT] = { "SELECT COUNT(*) FROM scores WHERE (CAST(?1 AS TEXT) IS NULL OR game = ?1)"
                          " AND received_at >= ?2", 2, 1 },
    [SD_BEST_DELETE] = { "DELETE FROM level_bests WHERE player_id = ?1 AND game = ?2 AND level = ?3", 3, 0 },
    /* the new best, read back as it was inserted */
    [SD_BEST_RECOMPUTE] = { SD_BEST_INSERT " SELECT s.game, s.level, s.score, s.seq, s.player_id, s.received_at, s.nonce"
                            " FROM scores s WHERE s.player_id = ?1 AND s.game = ?2 AND s.level = ?3"
                            " AND s.daily_date = '' AND " ON_BOARD
                            " ORDER BY s.score DESC, s.seq ASC LIMIT 1"
                            " RETURNING score, seq, received_at, nonce", 3, 4 },
    [SD_DAILY_ENTRY] = { "SELECT s.score, s.seq, s.received_at, s.nonce FROM scores s"
                         " WHERE s.player_id = ?1 AND s.daily_date = ?2 AND " ON_BOARD
                         " ORDER BY s.score DESC, s.seq ASC LIMIT 1", 2, 4 },
    [SD_PLAYER_BOARDS] = { "SELECT DISTINCT game, level, daily_date FROM scores WHERE player_id = ?1"
                           " ORDER BY game, level, daily_date", 1, 3 },
    [SD_ADMIN_LOG_INSERT] = { "INSERT INTO admin_log (at, actor, action, target, reason, detail)"
                              " VALUES (?1, ?2, ?3, ?4, ?5, ?6) RETURNING id", 6, 1 },
    /* PostgreSQL holds the row (pg_conn.c) */
    [SD_ADMIN_PLAYER_ROW] = { "SELECT banned_at IS NOT NULL, name FROM players WHERE id = ?1", 1, 2 },
    [SD_ADMIN_SCORE_ROW] = { "SELECT s.seq, s.player_id, s.game, s.level, s.daily_date,"
                             " s.status = 'ranked', s.voided_at IS NOT NULL,"
                             " s.reviewed_at IS NOT NULL, s.score_id"
                             " FROM seed_tokens t JOIN scores s ON s.seq = t.score_seq WHERE t.nonce = ?1", 1, 9 },
    [SD_SCORE_VOID] = { "UPDATE scores SET voided_at = ?1, void_reason = ?2,"
                        " reviewed_at = COALESCE(reviewed_at, ?1) WHERE seq = ?3", 3, 0 },
    [SD_SCORE_RESTORE] = { "UPDATE scores SET voided_at = NULL, void_reason = '' WHERE seq = ?1", 1, 0 },
    [SD_SCORE_APPROVE] = { "UPDATE scores SET status = 'ranked', reviewed_at = ?1 WHERE seq = ?2", 2, 0 },
    [SD_PLAYER_RENAME] = { "UPDATE players SET name = ?1 WHERE id = ?2", 2, 0 },
    [SD_PLAYER_BAN] = { "UPDATE players SET banned_at = ?1 WHERE id = ?2", 2, 0 },
    [SD_PLAYER_UNBAN] = { "UPDATE players SET banned_at = NULL WHERE id = ?1", 1, 0 },
    [SD_ADMIN_PLAYER] = { "SELECT p.name, p.created_at, p.banned_at,"
                          " (SELECT COUNT(*) FROM rejections WHERE player_id = p.id),"
                          " (SELECT COUNT(*) FROM scores WHERE player_id = p.id AND voided_at IS NOT NULL),"
                          " (SELECT COUNT(*) FROM scores WHERE player_id = p.id AND status = 'held'"
                          " AND voided_at IS NULL)"
                          " FROM players p WHERE p.id = ?1", 1, 6 },
    /* JSON functions: each backend's own */
    [SD_ADMIN_FEATURES] = { NULL, 1, 2 },
    [SD_ADMIN_TOKENS] = { "SELECT COUNT(CASE WHEN outcome = 'forfeit' THEN 1 END),"
                          " COUNT(CASE WHEN redeemed = FALSE AND expires_at <= ?1 THEN 1 END)"
                          " FROM seed_tokens WHERE player_id = ?2", 2, 2 },
    [SD_ADMIN_TWIN] = { "SELECT t.score_id, t.player_id, p.name, t.score, t.status, t.suspicion,"
                        " t.received_at, t.voided_at IS NOT NULL, t.twin_times"
                        " FROM scores t JOIN players p ON p.id = t.player_id WHERE t.seq = ?1", 1, 9 },
    [SD_ADMIN_LINKED] = { "SELECT o.id, o.name, o.created_at FROM players p JOIN players o"
                          " ON o.reg_prefix = p.reg_prefix AND o.id <> p.id"
                          " AND o.created_at BETWEEN p.created_at - ?2 AND p.created_at + ?2"
                          " WHERE p.id = ?1 AND p.reg_prefix IS NOT NULL"
                          " ORDER BY o.created_at, o.id LIMIT 20", 2, 3 },
    [SD_ADMIN_BOARD_TIMES] = { "SELECT seq, player_id, twin_times FROM scores"
                               " WHERE game = ?1 AND level = ?2 AND version = ?3 AND daily_date = ?4"
                               " AND twin_times IS NOT NULL"
                               " AND (seq = ?5 OR (status = 'ranked' AND voided_at IS NULL))"
                               " ORDER BY seq = ?5 DESC, seq DESC LIMIT ?6", 6, 3 },
    [SD_ADMIN_PLAYER_RUNS] = { "SELECT score_id, game, level, daily_date, score, status, suspicion,"
                               " received_at, voided_at IS NOT NULL FROM scores WHERE player_id = ?1"
                               " ORDER BY received_at DESC, seq DESC LIMIT ?2", 2, 9 },
    /* an advisory lock: PostgreSQL's own, none on SQLite */
    [SD_IDENTITY_LOCK] = { NULL, 2, 1 },
    [SD_IDENTITY_GET] = { "SELECT i.player_id, p.banned_at IS NOT NULL FROM identities i"
                          " JOIN players p ON p.id = i.player_id WHERE i.provider = ?1 AND i.subject = ?2", 2, 2 },
    [SD_IDENTITY_OF_PLAYER] = { "SELECT subject FROM identities WHERE player_id = ?1 AND provider = ?2", 2, 1 },
    [SD_IDENTITY_INSERT] = { "INSERT INTO identities (provider, subject, player_id, created_at)"
                             " VALUES (?1, ?2, ?3, ?4) ON CONFLICT DO NOTHING RETURNING player_id", 4, 1 },
    [SD_IDENTITY_LIST] = { "SELECT provider, created_at FROM identities WHERE player_id = ?1 ORDER BY provider", 1, 2 },
    [SD_PLAYER_SET_TOKEN] = { "UPDATE players SET token_hash = ?1 WHERE id = ?2", 2, 0 },
    [SD_NONCE_INSERT] = { "INSERT INTO identity_nonces (nonce_hash, expires_at) VALUES (?1, ?2)"
                          " ON CONFLICT DO NOTHING", 2, 0 },
    [SD_NONCE_PURGE] = { "DELETE FROM identity_nonces WHERE expires_at <= ?1", 1, 0 },
    [SD_NONCE_TAKE] = { "DELETE FROM identity_nonces WHERE nonce_hash = ?1 AND expires_at > ?2"
                        " RETURNING expires_at", 2, 1 },
    [SD_PLAYER_APPROVED] = { "SELECT COUNT(*) FROM scores WHERE player_id = ?1 AND reviewed_at IS NOT NULL"
                             " AND status = 'ranked' AND voided_at IS NULL", 1, 1 },
    [SD_LOG_NEXT] = { "UPDATE log_head SET size = size + 1 WHERE one = 1 RETURNING size - 1", 0, 1 },
    [SD_LOG_APPEND] = { "INSERT INTO log_entries (idx, entry) VALUES (?1, ?2)", 2, 0 },
    [SD_LOG_ENTRIES] = { "SELECT idx, entry, length(entry) FROM log_entries WHERE idx >= ?1 ORDER BY idx LIMIT ?2",
                         2, 3 },
    [SD_LOG_SEAL_STATE] = { "SELECT h.size, c.size, c.frontier, length(c.frontier), length(c.note)"
                            " FROM log_head h, log_checkpoint c WHERE h.one = 1 AND c.one = 1", 0, 5 },
    [SD_LOG_LOCK] = { "UPDATE log_head SET size = size WHERE one = 1", 0, 0 },
    [SD_LOG_HASH_ADD] = { "INSERT INTO log_hashes (level, idx, hash) VALUES (?1, ?2, ?3)", 3, 0 },
    [SD_LOG_CHECKPOINT_SET] = { "UPDATE log_checkpoint SET size = ?1, frontier = ?2, note = ?3, at_ms = ?4"
                                " WHERE one = 1", 4, 0 },
    [SD_LOG_CHECKPOINT] = { "SELECT size, note FROM log_checkpoint WHERE one = 1", 0, 2 },
    [SD_LOG_HASHES] = { "SELECT idx, hash FROM log_hashes WHERE level = ?1 AND idx >= ?2 ORDER BY idx LIMIT ?3",
                        3, 2 },
};

bool sd_sql_counts_ok(const char *name, const sd_sql *declared, int params, int cols,
                      char *err, size_t err_len)
{
    if (params == declared->params && cols == declared->cols)
        return true;
    snprintf(err, err_len,
             "statement %s: %d parameters and %d columns, declared %d and %d (store_sql.c)",
             name, params, cols, declared->params, declared->cols);
    return false;
}

char *sd_sql_dollars(const char *text, const char *suffix)
{
    size_t n = strlen(text), m = suffix ? strlen(suffix) : 0;
    char *out = malloc(n + m + 1);
    if (!out)
        return NULL;
    bool quoted = false;
    for (size_t i = 0; i < n; i++) {
        char ch = text[i];
        if (ch == '\'')
            quoted = !quoted; /* '' inside a literal toggles twice */
        out[i] = !quoted && ch == '?' && text[i + 1] >= '0' && text[i + 1] <= '9' ? '$' : ch;
    }
    memcpy(out + n, suffix ? suffix : "", m + 1);
    return out;
}
