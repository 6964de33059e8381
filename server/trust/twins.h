/*
 * twins: linking another player's run that is the same run re-timed.
 *
 * A run's shape is its moves without their time field (`t`): BLAKE2b-256
 * over every field the version carries except `t`, move by move, with the
 * move count. Two runs on one (game, level, seed, version) with the same
 * shape are the same moves; they are twins when their timing shapes agree
 * too: the Pearson correlation of their gap sequences (t[i] - t[i-1], the
 * first gap from 0) is at least the threshold, over at least TWIN_MIN_GAPS
 * gaps. A copy re-timed by a factor, or with a tap moved by a millisecond,
 * correlates at 1.0. Equal moves alone are not a link: on a level with one
 * best order (Schulte: 1, 2, 3, ...) every perfect player has the same
 * shape, and their timings do not correlate.
 *
 * Pure apart from libsodium (the hash) and jansson (the stored moves).
 * Nothing here allocates what it returns.
 */
#ifndef REPLAYD_SERVER_TWINS_H
#define REPLAYD_SERVER_TWINS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../core/game.h"

#define TWIN_SHAPE_BYTES 32
#define TWIN_MIN_GAPS 8 /* fewer gaps correlate by chance too easily */
#define TWIN_CANDIDATES 32 /* runs of one shape compared, best score first: bounded work */
#define TWIN_WEIGHT 300    /* suspicion added to both runs of a pair (as a duplicate's) */

/* The index of the version's time field ("t"), or -1 (an untimed version). */
int twin_time_field(const game *g, int version);

void twin_shape_hash(const game *g, int version, const game_move *moves, size_t n,
                     uint8_t out[TWIN_SHAPE_BYTES]);

/* The correlation of the gap sequences of two runs of n moves each, as
 * permille (-1000..1000); false when it says nothing (fewer than
 * TWIN_MIN_GAPS gaps, or a sequence whose gaps do not vary). */
bool twin_gap_correlation(const int64_t *ta, const int64_t *tb, size_t n, int *permille);

/* The `t` of every move of a stored moves array (JSON text), at most cap;
 * false when it is not an array of objects with integer `t`. */
bool twin_times_from_json(const char *moves_json, int64_t *out, size_t cap, size_t *n);

#endif
