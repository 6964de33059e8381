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

#include "../core/game.h"
#include "config.h"
#include "store.h"

/* The most time a run may claim when elapsed_ms passed on the server's
 * clock between issuing its token and receiving it. */
int64_t fairplay_allowed_ms(const config *c, int64_t elapsed_ms);

/* Completed, incomplete, or a forfeit: incomplete and shorter than
 * forfeit_short_ms (the claimed time; for an untimed game the elapsed). */
run_outcome fairplay_outcome(const config *c, const game_result *res, int64_t elapsed_ms);

/* {"elapsed_ms", "claimed_ms" (null when untimed), "idle_ms" (elapsed less
 * claimed), "rehearsal" (idle above rehearsal_bound_ms)}. */
json_t *fairplay_signals(const config *c, const game_result *res, int64_t elapsed_ms);

/* When the moves of a daily run become public (unix ms): the end of its
 * day plus daily_grace_s, while anyone can still play that daily. 0 for a
 * level run, whose moves are public at once. */
int64_t fairplay_moves_public_at(const config *c, const play *p);

#endif
