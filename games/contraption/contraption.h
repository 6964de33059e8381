/*
 * contraption: place ramps and fans, then one fixed-point simulation drops
 * a ball toward the goal. Rules, physics, scoring and generation:
 * games/contraption/spec.md. Pure; no I/O.
 */
#ifndef REPLAYD_GAMES_CONTRAPTION_H
#define REPLAYD_GAMES_CONTRAPTION_H

#include "../../core/game.h"

extern const game contraption_game;

/* FNV-1a 32 of "contraption:Y-M-D" (no zero padding). */
uint32_t contraption_daily_seed(civil_date d);

#endif
