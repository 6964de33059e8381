/*
 * store_driver: the small SQL interface the store's rules are written
 * against, in the manner of sqlite3_vfs: a struct of function pointers each
 * backend implements over its own connections. The rules (store_rules.c,
 * store_admin.c, store_admin_reads.c, store_reads.c) name a statement,
 * bind its parameters in order, step through its rows and read columns. The SQL text of every
 * named statement is written once, for both backends, in store_sql.c
 * (?N parameters; PostgreSQL prepares it with $N), with the counts of the
 * parameters and columns this header lists beside each name; each backend
 * checks its prepared statements against those counts when it opens. A
 * backend keeps its own text only where its engine differs
 * (sqlite_conn.c: BEGIN IMMEDIATE, JSON functions, the score's record as
 * a list; pg_conn.c: the read snapshot, JSON functions, the score's record
 * as one CTE, row and advisory locks). A statement a backend does not need
 * (a PostgreSQL row lock, on SQLite where one writer holds the whole file)
 * has no text there and steps straight to SD_DONE.
 *
 * Ownership: a backend owns its connections (sd_conn) and the statements
 * started on them (sd_stmt): a statement is the connection's until
 * done(). A text parameter shorter than SD_SHORT_TEXT bytes is copied;
 * longer text and blobs are borrowed until done(). Column text is valid
 * until the next step or done. One thread uses a connection
 * at a time.
 */
#ifndef REPLAYD_SERVER_STORE_DRIVER_H
#define REPLAYD_SERVER_STORE_DRIVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store.h"

typedef struct sd_conn sd_conn; /* a backend's connection */
typedef struct sd_stmt sd_stmt; /* a statement started on one */

#define SD_SHORT_TEXT 32

/* What step() returns. */
enum { SD_FAIL = -1, SD_DONE = 0, SD_ROW = 1 };

/* The named statements: parameters in bind order -> columns. TOKEN_ROW is
 * nonce, player_id, game, level, seed, version, issued_at, expires_at,
 * daily_date, text, redeemed, rejections (12 columns); SCORE_ROW is the 24
 * columns store_read_score reads. Booleans are integers 0/1 both ways. */
typedef enum sd_id {
    /* transactions (the SQLite commit; PostgreSQL runs its own commands) */
    SD_BEGIN,
    SD_COMMIT,
    SD_ROLLBACK,
    SD_SAVEPOINT,
    SD_RELEASE,
    SD_ROLLBACK_TO,
    /* one snapshot for a read of several statements (operators' reads) */
    SD_READ_BEGIN,
    SD_READ_END,
    /* (name, token_hash, now, reg_prefix: the network prefix as text, ""
     * when unknown, stored NULL) -> id; no row: the token hash is taken */
    SD_PLAYER_INSERT,
    /* (token_hash) -> id, name, created_at, banned, provider of the
     * player's first identity by name ("" for a guest) */
    SD_PLAYER_BY_HASH,
    /* (JSON array of ids) -> id, name */
    SD_PLAYER_NAMES,
    /* (player_id): the hook for a row lock on the player, taken before any
     * other row of theirs (the lock order across nodes) */
    SD_PLAYER_LOCK,
    /* (nonce, player_id, game, level, seed, version, issued_at, expires_at,
     * daily_date, text) */
    SD_TOKEN_INSERT,
    /* (nonce) -> TOKEN_ROW, banned: the token held until the commit */
    SD_TOKEN_GET,
    /* (nonce, seed, moves_hash, game, level, version, player_id) ->
     * TOKEN_ROW, banned, the seq of another player's earlier identical
     * run (0 if none) */
    SD_SCORE_TOKEN,
    /* (player_id, daily_date) -> TOKEN_ROW */
    SD_TOKEN_DAILY,
    /* (player_id, now, game, level, day_start) -> outstanding level
     * tokens, forfeited/abandoned/open tokens of that level today, every
     * token of that level drawn today (the draw cap) */
    SD_TOKEN_LIMITS,
    /* (now, player_id, day_start) -> issued, completed, incomplete,
     * forfeited, outstanding, abandoned, level tokens drawn since
     * day_start, the most of them of one (game, level) */
    SD_TOKEN_STATS,
    /* (player_id, limit) -> game, level, token issued_at, score
     * received_at of the player's completed level runs that are neither
     * held nor voided, the most recent first (by seq), at most limit: the
     * new-account hold's played time (play_time.h) */
    SD_PLAYED_RUNS,
    /* (score_id, nonce, player_id, game, level, seed, version, daily_date,
     * score, completed, received_at, moves_hash, receipt, moves_json,
     * result_json, status, signals, duplicate_of, outcome, to the level
     * board, suspicion, shape_hash or NULL, twin_of or NULL, twin_times
     * or NULL, claimed_ms or NULL) -> seq: the
     * score, its token's redeem and the player's level best; no row when
     * the token was redeemed meanwhile */
    SD_SCORE_RECORD,
    /* (seq, twin_weight, twin_of): the earlier run of a twin pair learns
     * of the later (its twin_of unless it has one), gains the weight and
     * is held, back in the review queue if it had been approved */
    SD_SCORE_TWIN,
    /* (seed, shape_hash, game, level, version, player_id, limit,
     * after_seq, daily_date) -> seq, player_id, twin_times of other
     * players' runs of that shape on that board with times, not voided,
     * newer than after_seq, newest first */
    SD_TWIN_CANDIDATES,
    /* (shape_hash, seed): held until the transaction ends, so two nodes'
     * runs of one shape meet (empty on SQLite: one writer) */
    SD_TWIN_LOCK,
    /* (player_id, since, limit) -> seq, received_at, claimed_ms of the
     * player's timed runs received since then, not voided, newest first */
    SD_PLAYER_WINDOWS,
    /* (nonce) -> SCORE_ROW */
    SD_SCORE_BY_NONCE,
    /* (nonce, player_id, game, level, seed, version, reason, move_index,
     * received_at, moves_hash, moves_json) */
    SD_REJECTION_INSERT,
    /* (nonce): the token's rejection count goes up */
    SD_TOKEN_REJECTED,
    /* (player_id, day): the player's earlier days' quota rows */
    SD_QUOTA_PRUNE,
    /* (player_id, day, per day) -> a row when the quota had room */
    SD_QUOTA_TAKE,
    /* (day): earlier days' per-network quota rows */
    SD_NET_QUOTA_PRUNE,
    /* (day, net, per day) -> a row when the network's quota had room */
    SD_NET_QUOTA_TAKE,
    /* (key_id, fingerprint, now): recorded when the id has none */
    SD_KEY_RECORD,
    /* (key_id) -> the recorded fingerprint */
    SD_KEY_GET,
    /* () -> key_id of every recorded key, in order */
    SD_KEY_IDS,
    /* (daily_date) -> a row when a daily token of that date was issued */
    SD_DAILY_ISSUED,
    /* (game, level) / (daily_date) -> score, seq, player_id, received_at, nonce */
    SD_LOAD_LEVEL,
    SD_LOAD_DAILY,
    /* (after seq, game or NULL, since, limit) -> SCORE_ROW */
    SD_SCORES_PAGE,
    /* (game or NULL, since) -> count */
    SD_SCORES_COUNT,
    /* operators' actions: (player_id, game, level) */
    SD_BEST_DELETE,
    /* (player_id, game, level) -> score, seq, received_at, nonce of the
     * best still on the board, put in level_bests */
    SD_BEST_RECOMPUTE,
    /* (player_id, daily_date) -> score, seq, received_at, nonce */
    SD_DAILY_ENTRY,
    /* (player_id) -> game, level, daily_date of every board they are on */
    SD_PLAYER_BOARDS,
    /* (at, actor, action, target, reason, detail) -> id */
    SD_ADMIN_LOG_INSERT,
    /* (player_id) -> banned, name; the player's row held until the commit */
    SD_ADMIN_PLAYER_ROW,
    /* (nonce) -> seq, player_id, game, level, daily_date, ranked, voided,
     * reviewed, score_id; the score's row held */
    SD_ADMIN_SCORE_ROW,
    /* (now, reason, seq) / (seq) / (now, seq) */
    SD_SCORE_VOID,
    SD_SCORE_RESTORE,
    SD_SCORE_APPROVE,
    /* (name, player_id) / (now, player_id) / (player_id) */
    SD_PLAYER_RENAME,
    SD_PLAYER_BAN,
    SD_PLAYER_UNBAN,
    /* operators' reads: (player_id) -> name, created_at, banned_at or
     * NULL, rejections, voided scores, held scores */
    SD_ADMIN_PLAYER,
    /* (player_id) -> completed runs with a wasted count, perfect ones */
    SD_ADMIN_FEATURES,
    /* (now, player_id) -> forfeits, abandons */
    SD_ADMIN_TOKENS,
    /* (the review queue and the admin log are built at run time from
     * their filters: store_admin_reads.c review_sql, log_sql) */
    /* (seq) -> score_id, player_id, name, score, status, suspicion,
     * received_at, voided, twin_times or NULL: a review item's twin,
     * shown beside it */
    SD_ADMIN_TWIN,
    /* (player_id, window ms) -> id, name, created_at of the other players
     * registered from its reg_prefix within the window either side,
     * oldest first, at most 20 */
    SD_ADMIN_LINKED,
    /* (game, level, version, daily_date, seq, limit) -> seq, player_id,
     * twin_times of the run seq and of the board's ranked, unvoided runs
     * with times (any seed), that run first, then newest first: a run's
     * gaps beside its board's population */
    SD_ADMIN_BOARD_TIMES,
    /* (player_id, limit) -> score_id, game, level, daily_date, score,
     * status, suspicion, received_at, voided: the player's runs, newest
     * first */
    SD_ADMIN_PLAYER_RUNS,
    /* identities (issue 36): (provider, subject): the hook for a lock on
     * that identity, so that two nodes signing in with one new identity
     * make one player (empty on SQLite) */
    SD_IDENTITY_LOCK,
    /* (provider, subject) -> player_id, banned */
    SD_IDENTITY_GET,
    /* (player_id, provider) -> subject */
    SD_IDENTITY_OF_PLAYER,
    /* (provider, subject, player_id, now) -> player_id; no row: bound already */
    SD_IDENTITY_INSERT,
    /* (player_id) -> provider, created_at of each of the player's identities */
    SD_IDENTITY_LIST,
    /* (token_hash, player_id): a sign-in's new bearer token replaces the old */
    SD_PLAYER_SET_TOKEN,
    /* (nonce_hash, expires_at) / (now): expired ones go */
    SD_NONCE_INSERT,
    SD_NONCE_PURGE,
    /* (nonce_hash, now) -> expires_at; the nonce is gone after (single use) */
    SD_NONCE_TAKE,
    /* (player_id) -> how many of the player's scores an operator approved
     * (reviewed, ranked, not voided): their history of reviewed runs */
    SD_PLAYER_APPROVED,
    /* the score log (store_scorelog.c): () -> idx: the next leaf's index,
     * log_head's row held until the commit */
    SD_LOG_NEXT,
    /* (idx, entry): the leaf appended */
    SD_LOG_APPEND,
    /* (from, limit) -> idx, entry, its length in bytes: the leaves from
     * that index, in order */
    SD_LOG_ENTRIES,
    /* the seal (store_logseal.c): () -> log_head's size, the checkpoint's
     * size, frontier, the frontier's length in bytes and the note's */
    SD_LOG_SEAL_STATE,
    /* (): log_head's row held until the commit, as an append holds it */
    SD_LOG_LOCK,
    /* (level, idx, hash): a stored hash of a tile level above 0 */
    SD_LOG_HASH_ADD,
    /* (size, frontier, note, at_ms): the new checkpoint */
    SD_LOG_CHECKPOINT_SET,
    /* () -> size, note: the latest checkpoint */
    SD_LOG_CHECKPOINT,
    /* (level, from, limit) -> idx, hash: stored hashes of one level in order */
    SD_LOG_HASHES,
    SD_COUNT
} sd_id;

/* Each statement's name, for error logs ("where"). */
extern const char *const sd_names[SD_COUNT];

typedef struct store_driver {
    /* Statement id of the connection's table, or (start_sql) a statement
     * written with ?N parameters in SQL both dialects read; NULL after a
     * failure (failed() says how). */
    sd_stmt *(*start)(sd_conn *c, sd_id id);
    sd_stmt *(*start_sql)(sd_conn *c, const char *sql);
    /* The next parameter, in order. */
    void (*bind_int)(sd_stmt *s, int64_t v);
    void (*bind_text)(sd_stmt *s, const char *v);
    void (*bind_blob)(sd_stmt *s, const void *v, size_t n);
    void (*bind_null)(sd_stmt *s);
    /* SD_ROW, SD_DONE or SD_FAIL; the first step runs the statement. */
    int (*step)(sd_stmt *s);
    int64_t (*col_int)(sd_stmt *s, int col);
    /* NULL for SQL NULL */
    const char *(*col_text)(sd_stmt *s, int col);
    /* n bytes into dst; zeros unless the column holds exactly n */
    void (*col_blob)(sd_stmt *s, int col, uint8_t *dst, size_t n);
    /* Ends the statement (its rows and parameters). */
    void (*done)(sd_stmt *s);
    /* The last failure on c as a status: STORE_BUSY (a lock timeout, a
     * lost connection) or STORE_ERROR, logged once under `where`. */
    store_status (*failed)(sd_conn *c, const char *where);
} store_driver;

/* A driver's table, from its functions named prefix_start, ... */
#define STORE_DRIVER_OF(prefix)                                                             \
    {                                                                                       \
        .start = prefix##_start, .start_sql = prefix##_start_sql,                           \
        .bind_int = prefix##_bind_int, .bind_text = prefix##_bind_text,                     \
        .bind_blob = prefix##_bind_blob, .bind_null = prefix##_bind_null,                   \
        .step = prefix##_step, .col_int = prefix##_col_int, .col_text = prefix##_col_text,  \
        .col_blob = prefix##_col_blob, .done = prefix##_done, .failed = prefix##_failed,    \
    }

/* A connection seen through its driver, as the rules take it. */
typedef struct sd_db {
    const store_driver *d;
    sd_conn *c;
} sd_db;

/* Helpers the rules share: ends s (when not NULL) and returns the
 * driver's status for the last failure, logged under id's name; runs a
 * started statement whose rows are not wanted; the player's row lock (the
 * hook SD_PLAYER_LOCK: empty on SQLite). */
store_status sd_failed(const sd_db *x, sd_stmt *s, sd_id id);
store_status sd_run(const sd_db *x, sd_stmt *s, sd_id id);
store_status sd_lock_player(const sd_db *x, int64_t player_id);

#endif
