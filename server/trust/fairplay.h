/*
 * fairplay: the shell's own fair-play rules, beside the rules each game
 * states in its spec: how much time a run may claim, when an incomplete
 * run is a forfeit, the signals measured at verification for review, and
 * when a daily run's moves become public. docs/THREAT-MODEL.md says what
 * each rule stops and what it does not. Pure functions of the settings and
 * the numbers given; the JSON returned is a new reference the caller owns.
 */
#ifndef REPLAYD_SERVER_FAIRPLAY_H
#define REPLAYD_SERVER_FAIRPLAY_H

#include <jansson.h>
#include <stdint.h>

#include "../../core/game.h"
#include "../base/config.h"
#include "../store/store.h"

/* The most time a run may claim when elapsed_ms passed on the server's
 * clock between issuing its token and receiving it. */
int64_t fairplay_allowed_ms(const config *c, int64_t elapsed_ms);

/* Completed, incomplete, or a forfeit: incomplete and shorter than
 * forfeit_short_ms (the claimed time; for an untimed game the elapsed). */
run_outcome fairplay_outcome(const config *c, const game_result *res, int64_t elapsed_ms);

/* {"elapsed_ms", "claimed_ms" (null when untimed), "idle_ms" (elapsed less
 * claimed), "rehearsal" (idle above rehearsal_bound_ms)}. */
json_t *fairplay_signals(const config *c, const game_result *res, int64_t elapsed_ms);

/* The review's features of a verified run (docs/OPERATIONS.md, "Review
 * queue"), from what the game declares in its table (min_moves,
 * move_slack_ms, finish_floor_ms) and the moves' "t" field; no game is
 * named here. A new JSON object:
 *   min_moves, wasted: applied moves beyond the level's minimum work;
 *   claimed_per_min_move_ms: claimed time over the minimum work;
 *   finish_floor_ms, floor_ratio_permille: claimed time against the
 *     level's finish floor (1000: exactly at the floor);
 *   paced_moves, at_floor_permille: moves with a floor, and the share of
 *     them within FAIRPLAY_FLOOR_TOLERANCE_MS of it;
 *   slack_sd_ms: the standard deviation of those moves' time beyond the
 *     floor (a script's is near 0, a person's is not);
 *   round_t_permille: the share of moves whose t is a multiple of 10 ms
 *     (about 100 for a device clock);
 * and *suspicion, their weighted sum with the rehearsal flag (weights
 * below). The level must be the one the run was replayed on. */
#define FAIRPLAY_FLOOR_TOLERANCE_MS 25
#define FAIRPLAY_W_AT_FLOOR 400     /* x at_floor_permille / 1000 */
#define FAIRPLAY_W_ROUND_T 300      /* x round_t_permille / 1000 */
#define FAIRPLAY_W_STEADY 200       /* x (100 - slack_sd_ms) / 100, when >= 5 paced moves */
#define FAIRPLAY_W_PERFECT 100      /* a completed run with no wasted move (min_moves >= 3) */
#define FAIRPLAY_W_NEAR_FINISH 150  /* x (1500 - floor_ratio_permille) / 500, ratio 1000..1500 */
#define FAIRPLAY_W_REHEARSAL 200    /* idle_ms over rehearsal_bound_ms */
#define FAIRPLAY_W_DUPLICATE 300    /* another player's identical run (added by the store) */
json_t *fairplay_features(const config *c, const game *g, const game_level *level, int version,
                          const game_move *moves, size_t n, size_t applied, const game_result *res,
                          int64_t elapsed_ms, int64_t *suspicion);

/* When the moves of a daily run become public (unix ms): the end of its
 * day plus daily_grace_s, while anyone can still play that daily. 0 for a
 * level run, whose moves are public at once. */
int64_t fairplay_moves_public_at(const config *c, const play *p);

#endif
