/*
 * entry: the score log's leaves, byte for byte as docs/LOG.md section 7
 * defines them. Every leaf starts with its kind byte; each kind has one
 * fixed layout, integers big-endian, the one variable-length field last.
 *
 *   score    (0x01) one recorded score (ranked or held), at its commit;
 *   void     (0x02), restore (0x03), approve (0x07): an operator's action
 *            on one score;
 *   ban      (0x04), unban (0x05): on a player;
 *   rename   (0x06): a player's new public name.
 *
 * Entries hold no personal data beyond the public player id: no identity
 * subject, no address, no reason, no operator name; a score's moves only
 * as their hash (a daily's moves stay private until its day ends).
 *
 * Pure: no I/O, no allocation, no state; every buffer is the caller's.
 * The store (its writer transaction) fills these from its rows and appends
 * the bytes; nothing here knows the store.
 */
#ifndef REPLAYD_SERVER_LOG_ENTRY_H
#define REPLAYD_SERVER_LOG_ENTRY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LOG_ENTRY_ID_BYTES 16   /* a score id: 32 lowercase hex digits */
#define LOG_ENTRY_HASH_BYTES 32 /* a moves hash (BLAKE2b-256) */
#define LOG_ENTRY_GAME_MAX 64
#define LOG_ENTRY_NAME_MAX 64
/* The last day a daily's board name can write: 9999-12-31. */
#define LOG_ENTRY_DAY_MAX 2932896
/* The longest leaf: a score of a 64-byte game name (92 + 64 bytes). */
#define LOG_ENTRY_MAX 156

typedef enum log_kind {
    LOG_KIND_SCORE = 0x01,
    LOG_KIND_VOID = 0x02,
    LOG_KIND_RESTORE = 0x03,
    LOG_KIND_BAN = 0x04,
    LOG_KIND_UNBAN = 0x05,
    LOG_KIND_RENAME = 0x06,
    LOG_KIND_APPROVE = 0x07,
    /* a score the store itself took off its board: the earlier run of a
     * twin pair, held when the later arrived (docs/LOG.md section 7) */
    LOG_KIND_HOLD = 0x08,
} log_kind;

/* A score as it committed. */
typedef struct log_score_leaf {
    uint8_t score_id[LOG_ENTRY_ID_BYTES];
    int64_t player_id;
    uint32_t level, seed, version;
    int32_t day; /* days since 1970-01-01 UTC of a daily score (..LOG_ENTRY_DAY_MAX); -1 for a level score */
    int64_t score;
    bool completed;
    bool held; /* held for review at commit (status 1), else ranked (0) */
    int64_t submitted_at_ms;
    uint8_t moves_hash[LOG_ENTRY_HASH_BYTES];
    const char *game; /* 1..LOG_ENTRY_GAME_MAX printable ASCII bytes */
} log_score_leaf;

/* An operator's action (or the store's hold) as it committed. */
typedef struct log_action_leaf {
    log_kind kind;     /* any but LOG_KIND_SCORE */
    int64_t action_id; /* its log_id in the admin log; a hold: the leaf index of the run that caused it */
    int64_t at_ms;
    int64_t player_id;
    uint8_t score_id[LOG_ENTRY_ID_BYTES]; /* void, restore, approve, hold */
    const char *name;                     /* rename: 1..LOG_ENTRY_NAME_MAX bytes of UTF-8 */
} log_action_leaf;

/* The leaf of e into out (len bytes); its length, 0 when e cannot be
 * written (a game name empty, too long or not printable ASCII; a day
 * below -1 or past LOG_ENTRY_DAY_MAX) or out is too small. */
size_t log_entry_score(const log_score_leaf *e, uint8_t *out, size_t len);

/* The leaf of a into out (len bytes); its length, 0 when a cannot be
 * written (the score kind or an unknown one; a rename's name empty, too
 * long or holding a NUL) or out is too small. The name is the store's
 * (already checked as UTF-8 where it was set); it is copied as it is. */
size_t log_entry_action(const log_action_leaf *a, uint8_t *out, size_t len);

#endif
