/* Unit tests for server/store/play_time.c: parallel runs count once,
 * disjoint ones add up, nested and touching intervals merge, empty or
 * backwards intervals count nothing, boards are counted once each. */
#include <stdio.h>
#include <string.h>

#include "../../server/store/play_time.h"
#include "../check.h"

static play_span span(const char *game, int64_t level, int64_t start, int64_t end)
{
    play_span s;
    memset(&s, 0, sizeof s);
    snprintf(s.game, sizeof s.game, "%s", game);
    s.level = level;
    s.start = start;
    s.end = end;
    return s;
}

static void nothing_is_nothing(void)
{
    int64_t ms = -1, lv = -1;
    play_time_sum(NULL, 0, &ms, &lv);
    CHECK_EQ(ms, 0);
    CHECK_EQ(lv, 0);
}

static void twenty_parallel_count_once(void)
{
    play_span s[20];
    for (int i = 0; i < 20; i++) /* twenty tokens drawn at once, each played 5 s */
        s[i] = span("schulte", 1, 1000 + i, 6000 + i);
    int64_t ms, lv;
    play_time_sum(s, 20, &ms, &lv);
    CHECK_EQ(ms, 5019);
    CHECK_EQ(lv, 1);
}

static void disjoint_add_up(void)
{
    play_span s[3] = { span("schulte", 2, 50000, 70000), span("schulte", 1, 0, 20000),
                       span("driftlings", 1, 100000, 130000) };
    int64_t ms, lv;
    play_time_sum(s, 3, &ms, &lv);
    CHECK_EQ(ms, 70000);
    CHECK_EQ(lv, 3);
}

static void nested_and_touching_merge(void)
{
    play_span s[4] = { span("schulte", 1, 0, 10000), span("schulte", 1, 2000, 3000),
                       span("schulte", 2, 10000, 15000), span("schulte", 2, 14000, 16000) };
    int64_t ms, lv;
    play_time_sum(s, 4, &ms, &lv);
    CHECK_EQ(ms, 16000);
    CHECK_EQ(lv, 2);
}

static void empty_intervals_count_nothing(void)
{
    play_span s[3] = { span("schulte", 1, 5000, 5000), span("schulte", 2, 9000, 1000),
                       span("schulte", 3, 100, 600) };
    int64_t ms, lv;
    play_time_sum(s, 3, &ms, &lv);
    CHECK_EQ(ms, 500);
    CHECK_EQ(lv, 1);
}

static void same_level_other_game_is_another_board(void)
{
    play_span s[2] = { span("schulte", 1, 0, 1000), span("driftlings", 1, 0, 1000) };
    int64_t ms, lv;
    play_time_sum(s, 2, &ms, &lv);
    CHECK_EQ(ms, 1000);
    CHECK_EQ(lv, 2);
}

int main(void)
{
    RUN(nothing_is_nothing);
    RUN(twenty_parallel_count_once);
    RUN(disjoint_add_up);
    RUN(nested_and_touching_merge);
    RUN(empty_intervals_count_nothing);
    RUN(same_level_other_game_is_another_board);
    CHECK_DONE();
}
