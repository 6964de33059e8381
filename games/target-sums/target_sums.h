/*
 * target-sums: keep exactly the cells whose values make every row and
 * column reach its target (the app's "Target Sums"). Rules, scoring and
 * generation: games/target-sums/spec.md. Pure; no I/O.
 */
#ifndef REPLAYD_GAMES_TARGET_SUMS_H
#define REPLAYD_GAMES_TARGET_SUMS_H

#include "../../core/game.h"

extern const game target_sums_game;

#endif
