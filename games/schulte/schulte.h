/*
 * schulte: find the numbers of a shuffled grid in order, against the clock.
 * Rules, scoring and generation: games/schulte/spec.md. Pure; no I/O.
 */
#ifndef REPLAYD_GAMES_SCHULTE_H
#define REPLAYD_GAMES_SCHULTE_H

#include "../../core/game.h"

extern const game schulte_game;

#endif
