/*
 * play_time: the union of runs' intervals and their distinct boards
 * (play_time.h). Two sorts, O(n log n): by board to count the boards, by
 * start to merge the intervals.
 */
#include "play_time.h"

#include <stdlib.h>
#include <string.h>

static int by_board(const void *a, const void *b)
{
    const play_span *x = a, *y = b;
    int c = strcmp(x->game, y->game);
    if (c)
        return c;
    return (x->level > y->level) - (x->level < y->level);
}

static int by_start(const void *a, const void *b)
{
    const play_span *x = a, *y = b;
    return (x->start > y->start) - (x->start < y->start);
}

void play_time_sum(play_span *spans, size_t n, int64_t *played_ms, int64_t *levels)
{
    *played_ms = 0;
    *levels = 0;
    /* empty intervals go to the back and are forgotten */
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (spans[i].end > spans[i].start) {
            play_span t = spans[m];
            spans[m++] = spans[i];
            spans[i] = t;
        }
    if (m == 0)
        return;
    qsort(spans, m, sizeof *spans, by_board);
    int64_t boards = 1;
    for (size_t i = 1; i < m; i++)
        if (by_board(&spans[i - 1], &spans[i]) != 0)
            boards++;
    qsort(spans, m, sizeof *spans, by_start);
    int64_t total = 0, lo = spans[0].start, hi = spans[0].end;
    for (size_t i = 1; i < m; i++) {
        if (spans[i].start > hi) {
            total += hi - lo;
            lo = spans[i].start;
            hi = spans[i].end;
        } else if (spans[i].end > hi) {
            hi = spans[i].end;
        }
    }
    total += hi - lo;
    *played_ms = total;
    *levels = boards;
}
