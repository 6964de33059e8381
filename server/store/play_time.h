/*
 * play_time: a player's played time from their runs' intervals, pure (no
 * I/O, no allocation): the union of the intervals [issued_at, received_at]
 * on the server's clock, so that runs played in parallel count once, and
 * the number of distinct (game, level) boards among them. What the
 * new-account hold (server/store/store_ageing.c) weighs besides an
 * account's age; the store reads the runs (store_read_play_time).
 */
#ifndef REPLAYD_SERVER_STORE_PLAY_TIME_H
#define REPLAYD_SERVER_STORE_PLAY_TIME_H

#include <stddef.h>
#include <stdint.h>

#define PLAY_TIME_GAME_MAX 31

/* One run: its board and its interval on the server's clock (ms). */
typedef struct play_span {
    char game[PLAY_TIME_GAME_MAX + 1];
    int64_t level;
    int64_t start, end;
} play_span;

/* The union of the spans' intervals in ms (an interval whose end is not
 * after its start counts nothing) and the number of distinct (game,
 * level) boards among the spans with a positive interval. Reorders
 * spans. */
void play_time_sum(play_span *spans, size_t n, int64_t *played_ms, int64_t *levels);

#endif
