/* Unit tests for the think floors of the placement games (issue 37): the
 * think_floor_ms and move_at_ms hooks of Contraption and Driftlings, each
 * against the formula its spec's "Fair play" section states, over every
 * level; and the server's measure (server/trust/fairplay.c, think_ms):
 * the midnight solver's plan placed at the part gap and sent at once is
 * under the floor, a person who reads the level first is not, a person
 * who reads it with the tick clock paused is not either, an untimed run
 * is measured by its elapsed time, think_floor_permille scales and turns
 * it off, and a think_time hold names itself after the twin rule. */
#include "../check.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/replay.h"
#include "../../games/contraption/contraption.h"
#include "../../games/contraption/level.h"
#include "../../games/driftlings/driftlings.h"
#include "../../games/driftlings/generate.h"
#include "../../server/base/config.h"
#include "../../server/trust/fairplay.h"

/* Contraption's formula (spec.md, "Fair play"). */
static int32_t ct_formula(const ct_level *lv)
{
    return 1500 + 250 * (lv->n_level_walls + lv->inventory[CT_RAMP] + lv->inventory[CT_FAN]) + 1000;
}

/* Driftlings' formula (spec.md, "Fair play"). */
static int32_t dl_formula(const dl_level *lv)
{
    int kinds = 0;
    for (int k = 0; k < DL_SKILLS; k++)
        kinds += lv->inventory[k] > 0;
    int spans = dl_level_table[lv->level_no - 1].bands * ((lv->map.w + 15) / 16);
    return 1500 + 250 * (spans + kinds) + 1000;
}

static void contraption_floors(void)
{
    const game *g = &contraption_game;
    ct_level *lv = malloc(sizeof *lv), *v1 = malloc(sizeof *v1);
    int32_t lo = INT32_MAX, hi = 0;
    for (int level = 1; level <= 15; level++)
        for (uint32_t seed = 0; seed < 12; seed++) {
            CHECK(game_generate(g, game_level_handle(lv), 2, level, seed) == GEN_OK);
            CHECK(game_generate(g, game_level_handle(v1), 1, level, seed) == GEN_OK);
            int32_t f = g->think_floor_ms(game_level_const_handle(lv));
            CHECK_EQ(f, ct_formula(lv));
            /* the level only: both versions generate the same level, the same floor */
            CHECK_EQ(g->think_floor_ms(game_level_const_handle(v1)), f);
            lo = f < lo ? f : lo;
            hi = f > hi ? f : hi;
        }
    /* the spec's stated range over these levels: level 1's open field to level 15's crowd */
    CHECK(lo >= 3000 && lo <= 3500);
    CHECK(hi >= 5500 && hi <= 6000);
    /* a placement's time: its t in version 2, none in version 1 */
    game_move m = { { 0, 50, 60, 450, 4321 } };
    CHECK_EQ(g->move_at_ms(game_level_const_handle(lv), &m), 4321);
    CHECK_EQ(g->move_at_ms(game_level_const_handle(v1), &m), -1);
    free(lv);
    free(v1);
}

static void driftlings_floors(void)
{
    const game *g = &driftlings_game;
    dl_level *lv = malloc(sizeof *lv);
    int32_t lo = INT32_MAX, hi = 0;
    for (int level = 1; level <= 15; level++)
        for (uint32_t seed = 0; seed < 4; seed++) {
            CHECK(game_generate(g, game_level_handle(lv), 2, level, seed) == GEN_OK);
            int32_t f = g->think_floor_ms(game_level_const_handle(lv));
            CHECK_EQ(f, dl_formula(lv));
            lo = f < lo ? f : lo;
            hi = f > hi ? f : hi;
            /* the plan's first skill comes within the first second of the clock */
            CHECK(lv->n_plan > 0 && (int64_t)lv->plan[0].v[0] * 25 < 1000);
        }
    CHECK_EQ(lo, 3000); /* level 1: one band of 16, one kind of skill */
    CHECK(hi >= 6000 && hi <= 6750);
    game_move m = { { 40, 0, 1 } };
    CHECK_EQ(g->move_at_ms(game_level_const_handle(lv), &m), 1000); /* 25 ms a tick */
    m.v[0] = INT32_MAX;
    CHECK_EQ(g->move_at_ms(game_level_const_handle(lv), &m), INT32_MAX); /* no overflow */
    /* a hand-built level has no row of the table, so no floor */
    static const char *const rows[] = { "E.....", "....X.", "======" };
    int inv[DL_SKILLS] = { 1, 0, 0, 0, 0 };
    CHECK(driftlings_level_from_ascii(lv, rows, 3, 1, 1, 4, 50, inv));
    CHECK_EQ(g->think_floor_ms(game_level_const_handle(lv)), 0);
    free(lv);
}

/* The features of moves on a level, received elapsed_ms after the token. */
static json_t *features_of(const config *c, const game *g, const game_level *lv, int version,
                           const game_move *moves, int n, int64_t elapsed_ms)
{
    game_state *st = malloc(g->state_size);
    int outcomes[128];
    replay_report rep;
    replay_run(g, lv, st, moves, (size_t)n, outcomes, &rep);
    free(st);
    CHECK(!rep.rejected);
    fairplay_points pts;
    return fairplay_features(c, g, lv, version, moves, (size_t)n, outcomes, &rep.result, elapsed_ms, &pts);
}

static int64_t feature(const json_t *f, const char *key)
{
    const json_t *v = json_object_get(f, key);
    return json_is_integer(v) ? (int64_t)json_integer_value(v) : -1;
}

/* The generator's plan as a version 2 move at t. */
static game_move ct_plan_at(const ct_level *lv, int32_t t)
{
    game_move m = { { lv->plan.kind, lv->plan.x, lv->plan.y, lv->plan.angle, t } };
    return m;
}

static void contraption_measure(void)
{
    const game *g = &contraption_game;
    config c;
    config_defaults(&c);
    ct_level *lv = malloc(sizeof *lv);
    CHECK(game_generate(g, game_level_handle(lv), 2, 15, 0) == GEN_OK);
    CHECK(lv->has_plan);
    const game_level *h = game_level_const_handle(lv);
    int32_t floor = g->think_floor_ms(h);
    int64_t run_ms = 20LL * lv->plan_run.ticks; /* the simulation the player watches */

    /* the midnight solver: the plan at the part gap, sent once its claim has passed */
    game_move m = ct_plan_at(lv, 1000);
    json_t *f = features_of(&c, g, h, 2, &m, 1, 1000 + run_ms + 40);
    CHECK_EQ(feature(f, "think_floor_ms"), floor);
    CHECK_EQ(feature(f, "think_ms"), 1040);
    CHECK(fairplay_think_early(f));
    json_decref(f);
    /* ... that searched 2.1 s after the token before placing (the issue's
     * bot): its search is idle time, counted as think time, still short */
    f = features_of(&c, g, h, 2, &m, 1, 2100 + 1000 + run_ms);
    CHECK_EQ(feature(f, "think_ms"), 3100);
    CHECK(fairplay_think_early(f));
    json_decref(f);
    /* a person: read the level, then placed, at the floor exactly and past it */
    m = ct_plan_at(lv, floor);
    f = features_of(&c, g, h, 2, &m, 1, floor + run_ms);
    CHECK_EQ(feature(f, "think_ms"), floor);
    CHECK(!fairplay_think_early(f));
    json_decref(f);
    m = ct_plan_at(lv, floor - 1);
    f = features_of(&c, g, h, 2, &m, 1, floor - 1 + run_ms);
    CHECK(fairplay_think_early(f)); /* 1 ms under */
    json_decref(f);
    /* a person whose app showed the level 3 s late: the wait counts */
    m = ct_plan_at(lv, floor - 2500);
    f = features_of(&c, g, h, 2, &m, 1, floor - 2500 + run_ms + 3000);
    CHECK_EQ(feature(f, "think_ms"), floor + 500);
    CHECK(!fairplay_think_early(f));
    json_decref(f);
    /* a run that claims a little more than passed (the clock-rate slack): no negative idle */
    m = ct_plan_at(lv, 1000);
    f = features_of(&c, g, h, 2, &m, 1, 1000 + run_ms - 30);
    CHECK_EQ(feature(f, "think_ms"), 1000);
    json_decref(f);
    /* no decision (the bare ball): nothing to time, nothing held */
    f = features_of(&c, g, h, 2, NULL, 0, 100);
    CHECK(!json_object_get(f, "think_ms") && !fairplay_think_early(f));
    json_decref(f);
    /* the setting: 500 halves the floor, 0 turns it off */
    c.think_floor_permille = 500;
    m = ct_plan_at(lv, 1000);
    f = features_of(&c, g, h, 2, &m, 1, 1000 + run_ms);
    CHECK_EQ(feature(f, "think_floor_ms"), floor / 2);
    json_decref(f);
    c.think_floor_permille = 0;
    f = features_of(&c, g, h, 2, &m, 1, 1000 + run_ms);
    CHECK(!json_object_get(f, "think_ms") && !json_object_get(f, "think_floor_ms"));
    CHECK(!fairplay_think_early(f));
    json_decref(f);
    /* version 1 is untimed: the whole run came within its elapsed time */
    config_defaults(&c);
    CHECK(game_generate(g, game_level_handle(lv), 1, 15, 0) == GEN_OK);
    game_move m1 = { { lv->plan.kind, lv->plan.x, lv->plan.y, lv->plan.angle, 0 } };
    f = features_of(&c, g, h, 1, &m1, 1, 900);
    CHECK_EQ(feature(f, "think_ms"), 900);
    CHECK(fairplay_think_early(f));
    json_decref(f);
    f = features_of(&c, g, h, 1, &m1, 1, 30000);
    CHECK(!fairplay_think_early(f));
    json_decref(f);
    free(lv);
}

static void driftlings_measure(void)
{
    const game *g = &driftlings_game;
    config c;
    config_defaults(&c);
    dl_level *lv = malloc(sizeof *lv);
    CHECK(game_generate(g, game_level_handle(lv), 2, 5, 7) == GEN_OK);
    const game_level *h = game_level_const_handle(lv);
    int32_t floor = g->think_floor_ms(h);
    /* the plan at the fastest clock, sent the moment its claim has passed */
    json_t *f = features_of(&c, g, h, 2, lv->plan, lv->n_plan, 0);
    int64_t claimed = feature(f, "ahead_ms"); /* elapsed 0: all of it ahead */
    json_decref(f);
    CHECK(claimed > 0);
    int64_t first = 25LL * lv->plan[0].v[0];
    f = features_of(&c, g, h, 2, lv->plan, lv->n_plan, claimed + 60);
    CHECK_EQ(feature(f, "think_ms"), first + 60);
    CHECK_EQ(feature(f, "think_floor_ms"), floor);
    CHECK(fairplay_think_early(f));
    json_decref(f);
    /* a person who read the level with the clock paused, then played at full speed */
    f = features_of(&c, g, h, 2, lv->plan, lv->n_plan, claimed + floor);
    CHECK_EQ(feature(f, "think_ms"), first + floor);
    CHECK(!fairplay_think_early(f));
    json_decref(f);
    /* a first move the game ignores is no decision: the first applied one is timed */
    game_move moves[DL_MAX_PLAN + 1];
    moves[0] = lv->plan[0];
    moves[0].v[1] = 0;
    moves[0].v[2] = DL_BLOCKER; /* none granted: skill_exhausted, ignored */
    memcpy(moves + 1, lv->plan, sizeof *moves * (size_t)lv->n_plan);
    CHECK(lv->inventory[DL_BLOCKER] == 0);
    f = features_of(&c, g, h, 2, moves, lv->n_plan + 1, claimed + 60);
    CHECK_EQ(feature(f, "ignored"), 1);
    CHECK_EQ(feature(f, "think_ms"), first + 60);
    json_decref(f);
    free(lv);
}

static void hold_reason_think_time(void)
{
    CHECK(strcmp(fairplay_hold_reason("{\"features\":{\"reason\":\"pace\"},\"think_time\":{}}", false),
                 "think_time") == 0);
    CHECK(strcmp(fairplay_hold_reason("{\"think_time\":{},\"new_account\":{},\"record\":{}}", false),
                 "think_time") == 0);
    CHECK(strcmp(fairplay_hold_reason("{\"think_time\":{},\"twin\":{}}", false), "twin") == 0);
    CHECK(strcmp(fairplay_hold_reason("{\"think_time\":{}}", true), "duplicate") == 0);
}

int main(void)
{
    RUN(contraption_floors);
    RUN(driftlings_floors);
    RUN(contraption_measure);
    RUN(driftlings_measure);
    RUN(hold_reason_think_time);
    CHECK_DONE();
}
