/*
 * replay: run a move list through a game, from a generated level.
 *
 * Pure and allocation-free: the caller passes a level from game_generate,
 * a state buffer of g->state_size bytes (start() fills it) and
 * (optionally) an outcome array of n entries.
 */
#ifndef REPLAYD_CORE_REPLAY_H
#define REPLAYD_CORE_REPLAY_H

#include "game.h"

typedef struct replay_report {
    bool rejected;
    size_t rejected_move; /* index of the first rejected move, if rejected */
    int rejected_outcome; /* its outcome index */
    size_t applied;       /* moves whose outcome kind was APPLIED */
    size_t ignored;
    game_result result;   /* meaningful only when !rejected */
} replay_report;

/* outcomes may be NULL; otherwise it receives one outcome index per move
 * up to and including a rejected one. */
void replay_run(const game *g, const game_level *level, game_state *state,
                const game_move *moves, size_t n, int *outcomes, replay_report *report);

#endif
