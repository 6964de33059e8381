/*
 * play: the identity of one attempt at a level, issued once in a seed token
 * and carried unchanged by everything made from it: the token's record,
 * the score, a rejection, the receipt and the board entry. Strings (the
 * game's name, the daily's date) exist only at the SQL and JSON edges.
 *
 * A play is plain data: copying one copies it. `g` points into the static
 * game catalogue and is never freed.
 */
#ifndef REPLAYD_SERVER_PLAY_H
#define REPLAYD_SERVER_PLAY_H

#include <stdbool.h>
#include <stdint.h>

#include "../../core/game.h"

#define PLAY_NONCE_BYTES 16
#define PLAY_ID_LEN (2 * PLAY_NONCE_BYTES) /* a score id: the nonce in lower-case hex */

typedef struct play {
    uint8_t nonce[PLAY_NONCE_BYTES]; /* random at issue: the token's and the score's identity */
    int64_t player_id;
    const game *g;
    int level;
    uint32_t seed;
    int version;
    int32_t day; /* a daily: days since 1970-01-01 (UTC); a level play: -1 */
} play;

static inline bool play_is_daily(const play *p)
{
    return p->day >= 0;
}

/* The score id of the play: PLAY_ID_LEN hex digits and a NUL. */
void play_score_id(const play *p, char out[PLAY_ID_LEN + 1]);

/* Exactly PLAY_ID_LEN hex digits (either case) back to a nonce. */
bool play_nonce_from_id(const char *id, uint8_t out[PLAY_NONCE_BYTES]);

/* "YYYY-MM-DD" of a daily play's day, "" for a level play. */
void play_date(const play *p, char out[11]);

#endif
