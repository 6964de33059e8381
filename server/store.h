/*
 * store: everything replayd keeps, behind one interface.
 *
 * Nothing outside store_*.c knows which database is underneath. The embedded
 * backend is SQLite (store_sqlite.c); a PostgreSQL backend can implement the
 * same operations. Thread safety: every function may be called from any
 * request thread at once. Writes that acknowledge a score (store_submit)
 * return only after their transaction committed; concurrent submissions are
 * group-committed by one writer thread.
 *
 * Ownership: out-structs are filled by the store; strings inside them that
 * are pointers (moves_json, result_json) are heap copies the caller frees
 * with store_score_clear. Everything else is inline.
 *
 * Times are unix milliseconds. Every function returns a store_status.
 */
#ifndef REPLAYD_SERVER_STORE_H
#define REPLAYD_SERVER_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum store_status {
    STORE_OK = 0,
    STORE_NOT_FOUND,
    STORE_CONFLICT, /* e.g. a token already redeemed with other moves */
    STORE_LIMIT,    /* e.g. too many outstanding tokens */
    STORE_BUSY,     /* the database stayed locked past the busy timeout: 503 */
    STORE_ERROR     /* anything else: 500, logged */
} store_status;

#define STORE_NAME_MAX 64    /* player names, bytes of UTF-8 */
#define STORE_GAME_MAX 31
#define STORE_TOKEN_MAX 255  /* a seed token's text */
#define STORE_NONCE_BYTES 16
#define STORE_HASH_BYTES 32
#define STORE_RECEIPT_MAX 255

typedef struct store store;

typedef struct store_config {
    const char *path;          /* SQLite file; created with its directory's migrations */
    int busy_timeout_ms;
    int group_commit_max;      /* most submissions in one transaction */
    int group_commit_wait_us;  /* how long the writer waits to fill a batch */
} store_config;

store_status store_open(const store_config *cfg, store **out, char *err, size_t err_len);
/* Stops the writer after draining its queue, closes the database. */
void store_close(store *s);
/* Applies schema/ migrations in order (also done by store_open). */
int store_schema_version(store *s);

/* ---- players ---- */

typedef struct store_player {
    int64_t id;
    char name[STORE_NAME_MAX + 1];
    int64_t created_at;
} store_player;

store_status store_player_create(store *s, const char *name,
                                 const uint8_t token_hash[STORE_HASH_BYTES], int64_t now,
                                 store_player *out);
store_status store_player_by_token(store *s, const uint8_t token_hash[STORE_HASH_BYTES],
                                   store_player *out);

/* ---- seed tokens ---- */

typedef struct store_token {
    uint8_t nonce[STORE_NONCE_BYTES]; /* the token's identity */
    int64_t player_id;
    char game[STORE_GAME_MAX + 1];
    int level;
    uint32_t seed;
    int version;
    int64_t issued_at;
    int64_t expires_at;
    char daily_date[11];              /* "YYYY-MM-DD", or "" for a level token */
    char text[STORE_TOKEN_MAX + 1];   /* the token as issued, for re-issue */
    bool redeemed;
} store_token;

/* Records an issued token. STORE_LIMIT when the player already holds
 * max_outstanding unexpired, unredeemed tokens. For a daily token, when the
 * player already has one for that date: STORE_CONFLICT with *existing filled
 * (the caller returns the same outstanding token, or 409 once redeemed). */
store_status store_token_issue(store *s, const store_token *t, int max_outstanding, int64_t now,
                               store_token *existing);
store_status store_token_get(store *s, const uint8_t nonce[STORE_NONCE_BYTES], store_token *out);

typedef struct store_token_stats {
    int64_t issued, redeemed, outstanding, abandoned; /* abandoned = expired unredeemed */
} store_token_stats;
store_status store_token_stats_for(store *s, int64_t player_id, int64_t now,
                                   store_token_stats *out);

/* ---- scores ---- */

typedef struct store_score {
    char score_id[33];             /* hex of the token nonce: one score per token */
    uint8_t nonce[STORE_NONCE_BYTES];
    int64_t player_id;
    char player_name[STORE_NAME_MAX + 1];
    char game[STORE_GAME_MAX + 1];
    int level;
    uint32_t seed;
    int version;
    char daily_date[11];           /* "" for a level score */
    int64_t score;
    bool completed;
    int64_t received_at;
    int64_t seq;                   /* server-received order, assigned by the store */
    uint8_t moves_hash[STORE_HASH_BYTES];
    char receipt[STORE_RECEIPT_MAX + 1];
    char *moves_json;              /* owned */
    char *result_json;             /* owned */
} store_score;

void store_score_clear(store_score *sc);

/* Atomically: mark the token redeemed, insert the score, update the player's
 * best on the level board and the daily board. Returns after the commit.
 * If the token was already redeemed: STORE_CONFLICT and *existing filled
 * with the recorded score (the caller compares moves hashes: same moves is an
 * idempotent retry, other moves a 409). sc->seq is set on success. */
store_status store_submit(store *s, store_score *sc, store_score *existing);

store_status store_score_get(store *s, const char *score_id, store_score *out);

/* A rejected replay, kept for abuse review. */
typedef struct store_rejection {
    uint8_t nonce[STORE_NONCE_BYTES];
    int64_t player_id;
    char game[STORE_GAME_MAX + 1];
    int level;
    uint32_t seed;
    int version;
    char reason[48];
    long move_index;
    int64_t received_at;
    uint8_t moves_hash[STORE_HASH_BYTES];
    const char *moves_json; /* borrowed */
} store_rejection;
store_status store_rejection_add(store *s, const store_rejection *r);

/* ---- leaderboards ----
 * A board is either a daily board (daily_date set: every daily score of that
 * date) or a level board (game + level: each player's best). Order: higher
 * score first, then lower seq (the earlier server-received submission).
 * Ranks are 1-based and unique. Cursors are opaque to callers: a
 * store_board_key of the boundary entry, so pages stay correct under
 * concurrent inserts. */

typedef struct store_board {
    char daily_date[11]; /* "" for a level board */
    char game[STORE_GAME_MAX + 1];
    int level;
} store_board;

typedef struct store_board_key {
    int64_t score;
    int64_t seq;
} store_board_key;

typedef struct store_entry {
    int64_t rank;
    int64_t player_id;
    char player_name[STORE_NAME_MAX + 1];
    int64_t score;
    int64_t seq;
    int64_t submitted_at;
    char score_id[33];
} store_entry;

/* Up to limit entries strictly after `after` (NULL: from the top), or, when
 * backwards, the limit entries strictly before `after`, returned in board
 * order. *n is the number written; *more says whether entries remain in
 * that direction. */
store_status store_board_page(store *s, const store_board *b, const store_board_key *after,
                              bool backwards, int limit, store_entry *out, int *n, bool *more);

/* The player's entry and rank, STORE_NOT_FOUND if not on the board. */
store_status store_board_rank(store *s, const store_board *b, int64_t player_id,
                              store_entry *out);

/* The player's entry with up to `around` entries either side, in board
 * order (at most 2 * around + 1 entries). *self is the player's index in out. */
store_status store_board_around(store *s, const store_board *b, int64_t player_id, int around,
                                store_entry *out, int *n, int *self);

/* Number of entries on a board. */
store_status store_board_size(store *s, const store_board *b, int64_t *out);

#endif
