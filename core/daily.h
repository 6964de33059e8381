/*
 * daily: which game, level and seed a UTC date plays.
 *
 * The catalogue seed of a day is the value of nextUint32(dayNumber). The
 * game and level come from a versioned schedule of eras (core/daily.c): an
 * era fixes, from its first day on, the rotation of games and the level
 * range. Adding a game means appending an era that starts on a future day,
 * so no past day ever changes. A game may define its own daily seed
 * (game.daily_seed); the game and level still come from the schedule.
 */
#ifndef REPLAYD_CORE_DAILY_H
#define REPLAYD_CORE_DAILY_H

#include <stdbool.h>
#include <stdint.h>

#include "civil.h"
#include "game.h"

typedef struct daily_pick {
    const game *game;
    int level;
    uint32_t seed;
    int schedule_version; /* the era that chose it, 1-based */
} daily_pick;

/* nextUint32(dayNumber).value */
uint32_t daily_catalogue_seed(int64_t day_number);

/* The daily seed of game g on date d: its own derivation or the catalogue's. */
uint32_t daily_seed_for(const game *g, civil_date d);

/* false for a date before the first era or an invalid date. */
bool daily_for_date(civil_date d, daily_pick *out);

/* The first date that has a daily. */
civil_date daily_first_date(void);

#endif
