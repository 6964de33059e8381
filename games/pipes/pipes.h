/*
 * pipes: rotate tiles until every opening meets another and all tiles form
 * one network (Simon Tatham's Net). Rules, scoring and generation:
 * games/pipes/spec.md. Pure; no I/O.
 */
#ifndef REPLAYD_GAMES_PIPES_H
#define REPLAYD_GAMES_PIPES_H

#include "../../core/game.h"

extern const game pipes_game;

#endif
