/*
 * rank: one leaderboard in memory, as an order-statistic skiplist.
 *
 * A Redis-style skiplist (t_zset.c) whose links carry spans, so the rank of
 * an entry, the entry at a rank and the number of entries before a key are
 * all O(log n). Order: higher score first, then lower seq; (score, seq) is
 * unique on a board because seq is. Beside the list, a hash from player id
 * to that player's entry: a board holds at most one entry per player, the
 * player's best (rank_offer replaces it only with a strictly higher score).
 *
 * Memory: nodes come from per-height arenas (no malloc header per entry,
 * freed nodes reused) and the player index holds node pointers only, so an
 * entry costs about 95 bytes on a large board; names are not kept here
 * (the store looks them up for the entries it shows).
 *
 * Ownership: the board owns its nodes and its index; entries are copied in
 * and copied out, nothing returned points into the board. No locking here:
 * the caller (board_cache.c) holds a rwlock around every call.
 */
#ifndef REPLAYD_SERVER_RANK_H
#define REPLAYD_SERVER_RANK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store.h"

typedef struct rank_entry {
    int64_t score;
    int64_t seq;
    int64_t player_id;
    int64_t received_at;
    uint8_t nonce[PLAY_NONCE_BYTES];
} rank_entry;

typedef struct rank_board rank_board;

rank_board *rank_new(void); /* NULL when out of memory */
void rank_free(rank_board *b);

/* Puts e on the board unless the player already has an entry with a score
 * greater than or equal to e's (then the board is unchanged). Returns 1 when
 * e was placed, 0 when the old entry stayed, -1 when out of memory. */
int rank_offer(rank_board *b, const rank_entry *e);

/* Takes the player's entry off the board; false when there was none. */
bool rank_remove(rank_board *b, int64_t player_id);

int64_t rank_size(const rank_board *b);

/* Bytes of memory the board holds (nodes, arenas and index). */
size_t rank_bytes(const rank_board *b);

/* The player's rank (1-based) with *out filled, or 0 if not on the board. */
int64_t rank_of_player(const rank_board *b, int64_t player_id, rank_entry *out);

/* Number of entries that sort before (score, seq), or before or at it when
 * inclusive. A page strictly after key k starts at rank count(k, true) + 1. */
int64_t rank_count_before(const rank_board *b, int64_t score, int64_t seq, bool inclusive);

/* Copies up to n entries starting at rank first (1-based); returns how many. */
int rank_range(const rank_board *b, int64_t first, int n, rank_entry *out);

/* true when a sorts before b on a board. */
bool rank_before(int64_t a_score, int64_t a_seq, int64_t b_score, int64_t b_seq);

#endif
