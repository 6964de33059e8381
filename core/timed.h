/*
 * timed: the prologue the timed tap games (Schulte, Pipes, Target Sums,
 * Opposites) run before their own rules, written once. Their specs share it
 * as rules 1-4, in this order:
 *
 *   1. the level has ended: after_end (ignored);
 *   2. the move names something the level lacks: out of range (rejected);
 *   3. t < prev_t: time_backwards (rejected); otherwise prev_t = t;
 *   4. t past the last counted millisecond: the level ends; after_end.
 *
 * and most then apply a minimum gap between counted moves (too_fast):
 * version 1 one gap for every move (timed_count), later versions a gap that
 * depends on whether the move taps the same target as the previous counted
 * move (timed_count_at). A timed_clock lives inside the game's state (plain
 * bytes, zeroed by start() like the rest); a game also sets `ended` when its
 * own rules end the level.
 */
#ifndef REPLAYD_CORE_TIMED_H
#define REPLAYD_CORE_TIMED_H

#include <stdbool.h>
#include <stdint.h>

#include "game.h"

typedef struct timed_clock {
    int32_t prev_t;    /* t of the previous move that passed rule 3; 0 before */
    int32_t counted_t; /* t of the previous counted move; 0 before */
    int32_t counted_target; /* its target (timed_count_at only) */
    bool counted_any;       /* a move was counted by timed_count_at */
    bool ended;
} timed_clock;

/* Human floors between two counted moves, by target. */
typedef struct timed_gaps {
    int32_t same_ms;  /* the same target again: a repeat tap */
    int32_t other_ms; /* another target, or the first counted move */
} timed_gaps;

/* The game's own outcome indices for the prologue's outcomes. */
typedef struct timed_outcomes {
    int after_end;
    int out_of_range;
    int time_backwards;
} timed_outcomes;

#define TIMED_GO_ON (-1) /* no prologue rule applied: the game's rules decide */

/* Rules 1-4 for a move at t; in_range is the game's range test of the
 * move's index and last_ms the last t at which moves still count. Returns
 * an index from `codes`, or TIMED_GO_ON. */
int timed_prologue(timed_clock *c, const timed_outcomes *codes, int32_t t, bool in_range,
                   int32_t last_ms);

/* The plausibility floor: false (too fast) when t is less than min_gap_ms
 * after the previous counted move; otherwise t becomes the counted t. */
bool timed_count(timed_clock *c, int32_t t, int32_t min_gap_ms);

/* The same with the gap chosen by target: same_ms when target is the
 * target of the previous counted move, else other_ms. On success t and
 * target become the counted ones. */
bool timed_count_at(timed_clock *c, int32_t t, int32_t target, const timed_gaps *gaps);

/* For a game's move_slack_ms (game.h) whose moves are {t, target} (fields
 * 0 and 1): how much later than its gap floor `move` came after `prev`
 * (NULL: the first move, measured from 0): the gap less v1_gap_ms under
 * version 1, less the gaps' same_ms or other_ms from version 2; -1 when t
 * went backwards. */
int32_t timed_slack(int version, int32_t v1_gap_ms, const timed_gaps *gaps, const game_move *prev,
                    const game_move *move);

/* The floors as a level description shows them: gap_same_ms, gap_other_ms
 * and finish_floor_ms. */
void timed_put_floors(const game_writer *w, const timed_gaps *gaps, int32_t finish_floor_ms);

#endif
