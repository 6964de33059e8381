/*
 * template: the smallest complete game, the starting point of a new one
 * (make new-game NAME=..., docs/NEW-GAME.md). Find the hidden cell.
 * Rules, scoring and generation: games/template/spec.md. Pure; no I/O.
 */
#ifndef REPLAYD_GAMES_TEMPLATE_H
#define REPLAYD_GAMES_TEMPLATE_H

#include "../../core/game.h"

extern const game template_game;

#endif
