/*
 * twins: linking another player's run that is the same run re-timed.
 *
 * A run's progress moves are the moves its replay applied and that were
 * not a slip (core/game.h: a wrong tap, a wrong or late answer): adding
 * moves the game ignores, or adding or dropping slips, leaves them as
 * they were. Its shape is BLAKE2b-256 over the progress moves without
 * their time field (`t`): every other field the version carries, move by
 * move, with their count. Two runs on one (game, level, seed, version)
 * with the same shape made the same progress; they are twins when their
 * timing shapes agree too: the rank correlation (Spearman's, ties at
 * their mean rank) of their progress gaps (t[i] - t[i-1], the first from
 * 0) is at least the threshold, over at least TWIN_MIN_GAPS gaps. A copy
 * re-timed by any factor, with a tap moved by a millisecond, or with its
 * long pauses clamped, keeps the order of its gaps and correlates near
 * 1.0. Equal progress alone is not a link: on a level with one best order
 * (Schulte: 1, 2, 3, ...) every perfect player has the same shape, and
 * their timings do not correlate.
 *
 * A run keeps its progress times as a blob (4 bytes a move, big-endian:
 * `t` is 0..INT32_MAX), so candidates are compared without replaying
 * them.
 *
 * Pure apart from libsodium (the hash). Nothing here allocates what it
 * returns; twin_gap_correlation allocates scratch and frees it.
 */
#ifndef REPLAYD_SERVER_TWINS_H
#define REPLAYD_SERVER_TWINS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../core/game.h"

#define TWIN_SHAPE_BYTES 32
#define TWIN_TIME_BYTES 4  /* a progress move's t in a times blob */
#define TWIN_MIN_GAPS 8    /* fewer gaps correlate by chance too easily */
#define TWIN_CANDIDATES 4096 /* runs of one shape compared, newest first: bounded work */
#define TWIN_WEIGHT 300    /* suspicion added to both runs of a pair (as a duplicate's) */

/* The index of the version's time field ("t"), or -1 (an untimed version). */
int twin_time_field(const game *g, int version);

/* Whether replay_run's outcome index o made progress (applied, not a slip). */
bool twin_progress(const game *g, int o);

/* The shape of a run of n moves with replay_run's outcomes (one per move). */
void twin_shape_hash(const game *g, int version, const game_move *moves, const int *outcomes, size_t n,
                     uint8_t out[TWIN_SHAPE_BYTES]);

/* The progress moves' times into out (room for TWIN_TIME_BYTES * n);
 * the blob's length in bytes (0 for an untimed version). */
size_t twin_times_pack(const game *g, int version, const game_move *moves, const int *outcomes, size_t n,
                       uint8_t *out);

/* The rank correlation of the gap sequences of two runs of n progress
 * moves each, as permille (-1000..1000); false when it says nothing (fewer
 * than TWIN_MIN_GAPS gaps, a sequence whose gaps do not vary, or no
 * memory for the ranks). */
bool twin_gap_correlation(const int64_t *ta, const int64_t *tb, size_t n, int *permille);

/* The same over two times blobs (twin_times_pack); false too when their
 * lengths differ or are not whole moves. */
bool twin_times_correlation(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen, int *permille);

#endif
