/*
 * Unit tests for games/opposites: the schedule, the answer rules, both spec
 * versions side by side (the same level, seed and moves under version 1
 * and version 2 give the results spec.md says for each), the version
 * bounds, and vectors/opposites.json (version 1 and 2 cases).
 */
#include "../check.h"

#include <jansson.h>

#include "../../core/replay.h"
#include "../../games/opposites/opposites.h"
#include "../../server/base/json_game.h"

static const game *G = &opposites_game;

typedef struct schedule {
    int n, codes;
    int32_t window, end;
    int32_t prompt[64], answer[64], appear[64];
} schedule;

static unsigned char level_buf[1 << 14];
static unsigned char state_buf[1 << 14];
static int outcome_buf[512];
static replay_report rep;

static void read_flat(const json_t *arr, int32_t *out, int *n)
{
    *n = (int)json_array_size(arr);
    for (int i = 0; i < *n && i < 64; i++)
        out[i] = (int32_t)json_integer_value(json_array_get(arr, (size_t)i));
}

static bool load(int version, int level_no, uint32_t seed, schedule *s)
{
    if (G->level_size > sizeof level_buf || G->state_size > sizeof state_buf)
        return false;
    if (game_generate(G, game_level_handle(level_buf), version, level_no, seed) != GEN_OK)
        return false;
    json_t *j = level_to_json(G, game_level_handle(level_buf));
    int n;
    memset(s, 0, sizeof *s);
    s->codes = (int)json_integer_value(json_object_get(j, "codes"));
    s->window = (int32_t)json_integer_value(json_object_get(j, "window_ms"));
    s->end = (int32_t)json_integer_value(json_object_get(j, "end_ms"));
    read_flat(json_object_get(j, "prompts"), s->prompt, &s->n);
    read_flat(json_object_get(j, "answers"), s->answer, &n);
    read_flat(json_object_get(j, "appear_ms"), s->appear, &n);
    json_decref(j);
    return true;
}

static void play(const game_move *moves, size_t n)
{
    replay_run(G, game_level_handle(level_buf), game_state_handle(state_buf), moves, n,
               outcome_buf, &rep);
}

static int code(const char *name)
{
    return game_outcome_index(G, name);
}

static int64_t pts(const schedule *s, int32_t r)
{
    return 100 + (s->window - r) / 10;
}

/* The issue: a v1 score still replays to the same result while new
 * levels are generated at v2. */
static void versions_declared_and_bounded(void)
{
    CHECK_EQ(G->version, 3);
    CHECK_EQ(G->min_version, 1);
    game_level *lv = game_level_handle(level_buf);
    CHECK(game_generate(G, lv, 1, 1, 0) == GEN_OK);
    CHECK(game_generate(G, lv, 2, 1, 0) == GEN_OK);
    CHECK(game_generate(G, lv, 3, 1, 0) == GEN_OK);
    CHECK(game_generate(G, lv, 0, 1, 0) == GEN_BAD_VERSION);
    CHECK(game_generate(G, lv, 4, 1, 0) == GEN_BAD_VERSION);
    CHECK(game_generate(G, lv, 2, 0, 0) == GEN_BAD_LEVEL);
    CHECK(game_generate(G, lv, 2, 16, 0) == GEN_BAD_LEVEL);
}

static void schedule_shape_every_level(void)
{
    static const int32_t gap[15] = { 2500, 2200, 2000, 2200, 2000, 1800, 2000, 1800,
                                     1600, 1500, 1400, 1300, 1200, 1100, 1000 };
    static const int32_t jitter[15] = { 500, 500, 400, 500, 400, 400, 400, 400,
                                        400, 600, 600, 600, 600, 600, 600 };
    for (int level = 1; level <= 15; level++) {
        for (uint32_t seed = 0; seed < 300; seed++) {
            schedule a, b;
            CHECK(load(1, level, seed, &a));
            CHECK(load(2, level, seed, &b));
            CHECK(memcmp(&a, &b, sizeof a) == 0); /* both versions, one schedule */
            CHECK(a.window <= gap[level - 1]);
            CHECK(a.appear[0] >= 1000 && a.appear[0] <= 1000 + jitter[level - 1]);
            for (int i = 0; i < a.n; i++) {
                CHECK(a.prompt[i] >= 0 && a.prompt[i] < a.codes);
                CHECK_EQ(a.answer[i], a.prompt[i] ^ 1);
                if (i > 0) {
                    int32_t d = a.appear[i] - a.appear[i - 1];
                    CHECK(d >= gap[level - 1] && d <= gap[level - 1] + jitter[level - 1]);
                }
            }
            CHECK_EQ(a.end, a.appear[a.n - 1] + a.window);
        }
    }
}

/* The same level, seed and moves under each version: a slip on prompt 0
 * corrected 300 ms later, every other prompt clean at 400 ms. */
static void same_moves_v1_and_v2(void)
{
    schedule s;
    game_move m[64];
    size_t n = 0;
    CHECK(load(1, 3, 11, &s));
    m[n++] = (game_move){ { s.appear[0] + 310, s.prompt[0] } }; /* the prompt itself: wrong */
    m[n++] = (game_move){ { s.appear[0] + 610, s.answer[0] } };
    for (int p = 1; p < s.n; p++)
        m[n++] = (game_move){ { s.appear[p] + 400, s.answer[p] } };
    int64_t clean = (s.n - 1) * pts(&s, 400);

    CHECK(load(1, 3, 11, &s));
    play(m, n);
    CHECK(!rep.rejected);
    CHECK_EQ(outcome_buf[0], code("wrong"));
    CHECK_EQ(outcome_buf[1], code("repeated"));
    CHECK_EQ(rep.result.score, clean);
    CHECK_EQ(rep.result.extra[0], s.n - 1); /* correct */
    CHECK_EQ(rep.result.extra[1], 1);       /* wrong */
    CHECK_EQ(rep.result.extra[3], 1);       /* missed */
    CHECK(rep.result.completed);
    CHECK_EQ(rep.result.duration_ms, s.appear[s.n - 1] + 400);
    game_result v1 = rep.result;

    CHECK(load(2, 3, 11, &s));
    play(m, n);
    CHECK(!rep.rejected);
    CHECK_EQ(outcome_buf[0], code("wrong"));
    CHECK_EQ(outcome_buf[1], code("correct"));
    CHECK_EQ(rep.result.score, clean + pts(&s, 610) - 50);
    CHECK_EQ(rep.result.extra[0], s.n);
    CHECK_EQ(rep.result.extra[3], 0);
    CHECK(rep.result.score != v1.score);

    /* Replaying the v1 run again still gives the recorded v1 result. */
    CHECK(load(1, 3, 11, &s));
    play(m, n);
    CHECK(memcmp(&rep.result, &v1, sizeof v1) == 0);
}

/* Version 1: every prompt answered wrong closes them all and ends the run;
 * version 2 keeps them open, so the run lasts to end_ms. */
static void all_wrong_v1_ends_v2_floors(void)
{
    schedule s;
    game_move m[64];
    CHECK(load(1, 2, 5, &s));
    for (int p = 0; p < s.n; p++)
        m[p] = (game_move){ { s.appear[p] + 300, s.prompt[p] } };
    m[s.n] = (game_move){ { s.appear[s.n - 1] + 500, s.answer[s.n - 1] } };
    play(m, (size_t)s.n + 1);
    CHECK(!rep.rejected);
    CHECK_EQ(outcome_buf[s.n], code("after_end"));
    CHECK_EQ(rep.result.score, 0);
    CHECK_EQ(rep.result.duration_ms, s.appear[s.n - 1] + 300);
    CHECK(!rep.result.completed);

    CHECK(load(2, 2, 5, &s));
    play(m, (size_t)s.n + 1);
    CHECK(!rep.rejected);
    CHECK_EQ(outcome_buf[s.n], code("correct"));
    /* One correct (r = 500) against s.n wrong: floored at zero. */
    CHECK_EQ(rep.result.score, 0);
    CHECK_EQ(rep.result.duration_ms, s.end);
    CHECK_EQ(rep.result.extra[4], -1);
}

static void timing_rules(void)
{
    schedule s;
    CHECK(load(2, 5, 99, &s));
    game_move m[8] = {
        { { s.appear[0] - 1, s.answer[0] } },             /* no_prompt */
        { { s.appear[0] + 150, s.answer[0] } },           /* correct, fastest allowed */
        { { s.appear[0] + 200, s.answer[0] } },           /* repeated */
        { { s.appear[0] + s.window, s.answer[0] } },      /* late (window closed) */
        { { s.appear[1] + s.window - 1, s.answer[1] } },  /* correct, last moment */
        { { s.end, s.answer[2] } },                       /* after_end, ends */
        { { s.end + 1, 99 } },                            /* after_end before range check */
    };
    play(m, 7);
    CHECK(!rep.rejected);
    const char *want[7] = { "no_prompt", "correct", "repeated", "late", "correct", "after_end",
                            "after_end" };
    for (int i = 0; i < 7; i++)
        CHECK_EQ(outcome_buf[i], code(want[i]));
    CHECK_EQ(rep.result.score, pts(&s, 150) + pts(&s, s.window - 1));
    CHECK_EQ(rep.result.extra[2], 1); /* late */
    CHECK_EQ(rep.ignored, 4); /* no_prompt, repeated, two after_end */
    CHECK_EQ(rep.applied, 3); /* late is applied: it counts */

    game_move fast[1] = { { { s.appear[3] + 149, s.answer[3] } } };
    play(fast, 1);
    CHECK(rep.rejected && rep.rejected_outcome == code("too_fast"));
    game_move back[2] = { { { s.appear[1] + 300, s.answer[1] } }, { { s.appear[1] + 299, 0 } } };
    play(back, 2);
    CHECK(rep.rejected && rep.rejected_move == 1 && rep.rejected_outcome == code("time_backwards"));
    game_move range[1] = { { { s.appear[0] + 300, s.codes } } };
    play(range, 1);
    CHECK(rep.rejected && rep.rejected_outcome == code("answer_out_of_range"));
}

/* ---- vectors/opposites.json (until the generic runner lands) ---- */

/* Every case of the vector file runs in tests/unit/test_vectors.c. */

int main(void)
{
    RUN(versions_declared_and_bounded);
    RUN(schedule_shape_every_level);
    RUN(same_moves_v1_and_v2);
    RUN(all_wrong_v1_ends_v2_floors);
    RUN(timing_rules);
    CHECK_DONE();
}
