/* Unit tests for the review's features and suspicion (server/trust/fairplay.c)
 * and the games' move_slack_ms hooks (core/timed.c): a floor-paced script
 * and a jittered person on the same Schulte level, the weights as
 * documented in OPERATIONS.md, and the hooks changing no result. */
#include "../check.h"

#include <stdlib.h>
#include <string.h>

#include "../../core/replay.h"
#include "../../core/timed.h"
#include "../../server/base/config.h"
#include "../../server/trust/fairplay.h"

#define MAX_MOVES 64

static int outcome_of(const game *g, const game_level *lv, const game_move *moves, int n,
                      const game_move *next)
{
    game_state *st = malloc(g->state_size);
    g->start(st, lv);
    for (int i = 0; i < n; i++)
        g->apply(st, &moves[i]);
    int o = g->apply(st, next);
    free(st);
    return o;
}

/* The cell holding the next number: found by trying each cell on a copy
 * of the run so far (the test needs no knowledge of the level's layout). */
static int cell_with(const game *g, const game_level *lv, const game_move *moves, int n, int32_t t,
                     const char *code)
{
    for (int cell = 0; cell < 49; cell++) {
        game_move m = { { t, cell } };
        int o = outcome_of(g, lv, moves, n, &m);
        if (strcmp(g->outcomes[o].code, code) == 0)
            return cell;
    }
    return -1;
}

static int next_cell(const game *g, const game_level *lv, const game_move *moves, int n, int32_t t)
{
    return cell_with(g, lv, moves, n, t, "found");
}

typedef struct run {
    game_move moves[MAX_MOVES];
    int n;
    replay_report rep;
} run;

static void replay(const game *g, const game_level *lv, run *r)
{
    game_state *st = malloc(g->state_size);
    replay_run(g, lv, st, r->moves, (size_t)r->n, NULL, &r->rep);
    free(st);
}

/* 16 numbers at the 150 ms floor, the last one held to the finish floor. */
static void bot_run(const game *g, const game_level *lv, int cells, run *r)
{
    r->n = 0;
    int32_t floor = g->finish_floor_ms(lv);
    for (int i = 0; i < cells; i++) {
        int32_t t = i == cells - 1 ? floor : 150 * (i + 1);
        int cell = next_cell(g, lv, r->moves, r->n, t);
        r->moves[r->n++] = (game_move){ { t, cell } };
    }
    replay(g, lv, r);
}

/* Gaps of 400-1000 ms at millisecond resolution, two mistakes. */
static void human_run(const game *g, const game_level *lv, int cells, run *r)
{
    static const int32_t gaps[] = { 613, 487, 921, 402, 777, 531, 698, 847, 459, 1003, 566, 733 };
    r->n = 0;
    int32_t t = 0;
    for (int i = 0, k = 0; i < cells; i++) {
        t += gaps[k++ % 12];
        if (i == 2 || i == 7) { /* a wrong cell first: a mistake */
            r->moves[r->n] = (game_move){ { t, cell_with(g, lv, r->moves, r->n, t, "mistake") } };
            r->n++;
            t += gaps[k++ % 12];
        }
        int cell = next_cell(g, lv, r->moves, r->n, t);
        r->moves[r->n++] = (game_move){ { t, cell } };
    }
    replay(g, lv, r);
}

static int64_t feature(json_t *f, const char *key)
{
    json_t *v = json_object_get(f, key);
    return json_is_integer(v) ? (int64_t)json_integer_value(v) : -1;
}

static void timed_slack_floors(void)
{
    static const timed_gaps gaps = { 100, 150 };
    game_move a = { { 1000, 3 } }, same = { { 1100, 3 } }, other = { { 1149, 4 } }, later = { { 1175, 4 } },
              back = { { 900, 4 } }, first = { { 150, 4 } };
    CHECK_EQ(timed_slack(2, 100, &gaps, &a, &same), 0);
    CHECK_EQ(timed_slack(2, 100, &gaps, &a, &other), 0); /* below the floor: 0 (the rules reject it) */
    CHECK_EQ(timed_slack(2, 100, &gaps, &a, &later), 25);
    CHECK_EQ(timed_slack(2, 100, &gaps, &a, &back), -1);
    CHECK_EQ(timed_slack(2, 100, &gaps, NULL, &first), 0);
    CHECK_EQ(timed_slack(1, 100, &gaps, &a, &later), 75); /* version 1: one floor */
}

static void bot_and_human_on_one_level(void)
{
    const game *g = game_find("schulte");
    config c;
    config_defaults(&c);
    game_level *lv = malloc(g->level_size);
    CHECK_EQ(game_generate(g, lv, 2, 3, 424242), GEN_OK); /* 4 x 4, fixed */
    CHECK_EQ(g->min_moves(lv), 16);
    CHECK_EQ(g->finish_floor_ms(lv), 3200);
    run bot, human;
    bot_run(g, lv, 16, &bot);
    human_run(g, lv, 16, &human);
    CHECK(!bot.rep.rejected && bot.rep.result.completed);
    CHECK(!human.rep.rejected && human.rep.result.completed);
    int64_t sb = -1, sh = -1;
    int64_t claimed = bot.rep.result.duration_ms;
    json_t *fb = fairplay_features(&c, g, lv, 2, bot.moves, (size_t)bot.n, bot.rep.applied, &bot.rep.result,
                                   claimed + 500, &sb);
    json_t *fh = fairplay_features(&c, g, lv, 2, human.moves, (size_t)human.n, human.rep.applied,
                                   &human.rep.result, human.rep.result.duration_ms + 500, &sh);
    CHECK_EQ(feature(fb, "wasted"), 0);
    CHECK_EQ(feature(fh, "wasted"), 2);
    CHECK_EQ(feature(fb, "paced_moves"), 16);
    CHECK_EQ(feature(fb, "at_floor_permille"), 937); /* 15 of 16: the last waits for the finish floor */
    CHECK_EQ(feature(fb, "round_t_permille"), 1000);
    CHECK_EQ(feature(fb, "floor_ratio_permille"), 1000);
    CHECK_EQ(feature(fb, "claimed_per_min_move_ms"), 200);
    CHECK_EQ(feature(fh, "at_floor_permille"), 0);
    CHECK(feature(fh, "slack_sd_ms") > 100);
    /* the documented weights: at floor 400 x 0.937, round 300, perfect 100,
     * on the finish floor 150; the last tap's wait makes the pace unsteady */
    CHECK_EQ(sb, 374 + 300 + 100 + 150);
    CHECK(sh < 100);
    CHECK(sb > sh);
    /* a rehearsed run: idle beyond rehearsal_bound_ms */
    int64_t sr = -1;
    json_t *fr = fairplay_features(&c, g, lv, 2, bot.moves, (size_t)bot.n, bot.rep.applied, &bot.rep.result,
                                   claimed + c.rehearsal_bound_ms + 1, &sr);
    CHECK_EQ(sr, sb + FAIRPLAY_W_REHEARSAL);
    /* the hooks change nothing: the same moves replay to the same result */
    run again = bot;
    replay(g, lv, &again);
    CHECK_EQ(again.rep.result.score, bot.rep.result.score);
    json_decref(fb);
    json_decref(fh);
    json_decref(fr);
    free(lv);
}

static void untimed_game_has_no_pace(void)
{
    const game *g = game_find("contraption");
    config c;
    config_defaults(&c);
    game_level *lv = malloc(g->level_size);
    CHECK_EQ(game_generate(g, lv, g->version, 1, 7), GEN_OK);
    CHECK(g->move_slack_ms == NULL);
    run r = { .n = 0 };
    replay(g, lv, &r);
    int64_t s = -1;
    json_t *f = fairplay_features(&c, g, lv, g->version, r.moves, 0, r.rep.applied, &r.rep.result, 1000, &s);
    CHECK_EQ(feature(f, "paced_moves"), -1);
    CHECK_EQ(feature(f, "round_t_permille"), -1);
    CHECK_EQ(s, 0);
    json_decref(f);
    free(lv);
}

int main(void)
{
    RUN(timed_slack_floors);
    RUN(bot_and_human_on_one_level);
    RUN(untimed_game_has_no_pace);
    CHECK_DONE();
}
