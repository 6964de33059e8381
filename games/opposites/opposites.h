/*
 * opposites: a timed reaction game; each prompt (a direction, a colour
 * word or a shape) is answered with its opposite. Two spec versions stay
 * replayable: 1 (a wrong answer closes the prompt) and 2 (a wrong answer
 * costs points and the prompt stays open). Rules, scoring and generation:
 * games/opposites/spec.md. Pure; no I/O.
 */
#ifndef REPLAYD_GAMES_OPPOSITES_H
#define REPLAYD_GAMES_OPPOSITES_H

#include "../../core/game.h"

extern const game opposites_game;

#endif
