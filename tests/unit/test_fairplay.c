/* Unit tests for the review's features and suspicion (server/trust/fairplay.c,
 * server/trust/fairplay_book.c) and the games' move_slack_ms hooks
 * (core/timed.c): a floor-paced script and a jittered person on the same
 * Schulte level, the weights as documented in OPERATIONS.md, padding that
 * dilutes nothing, a run ahead of the server's clock, a 60 Hz frame clock,
 * the population and history, and the hooks changing no result. */
#include "../check.h"

#include <stdlib.h>
#include <string.h>

#include "../../core/replay.h"
#include "../../core/timed.h"
#include "../../server/base/config.h"
#include "../../server/trust/fairplay.h"
#include "../../server/trust/fairplay_book.h"

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
    int outcomes[MAX_MOVES];
    int n;
    replay_report rep;
} run;

static void replay(const game *g, const game_level *lv, run *r)
{
    game_state *st = malloc(g->state_size);
    replay_run(g, lv, st, r->moves, (size_t)r->n, r->outcomes, &r->rep);
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

/* Gaps of 400-1000 ms at millisecond resolution with two hesitations of
 * about 2 s (a person's searches vary), two mistakes. */
static void human_run(const game *g, const game_level *lv, int cells, run *r)
{
    static const int32_t gaps[] = { 613, 487, 1921, 402, 777, 531, 698, 2247, 459, 1003, 566, 733 };
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

/* The features of r with elapsed ms on the server's clock, and its
 * suspicion (no population, no history). */
static json_t *features(const config *c, const game *g, const game_level *lv, const run *r,
                        int64_t elapsed, int64_t *suspicion)
{
    fairplay_points pts;
    json_t *f = fairplay_features(c, g, lv, g->version, r->moves, (size_t)r->n, r->outcomes,
                                  &r->rep.result, elapsed, &pts);
    *suspicion = fairplay_total(f, &pts);
    return f;
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
    json_t *fb = features(&c, g, lv, &bot, claimed + 500, &sb);
    json_t *fh = features(&c, g, lv, &human, human.rep.result.duration_ms + 500, &sh);
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
    CHECK_EQ(feature(fb, "ahead_ms"), 0);
    CHECK(strcmp(json_string_value(json_object_get(fb, "reason")), "pace") == 0);
    /* its parts, by term: the pace's three and the round clock's */
    json_t *pb = json_object_get(fb, "points");
    CHECK_EQ(json_integer_value(json_object_get(pb, "pace")), 374 + 100 + 150);
    CHECK_EQ(json_integer_value(json_object_get(pb, "clock")), 300);
    CHECK_EQ(json_object_size(pb), 2);
    CHECK(sb > sh);
    /* a rehearsed run: idle beyond rehearsal_bound_ms */
    int64_t sr = -1;
    json_t *fr = features(&c, g, lv, &bot, claimed + c.rehearsal_bound_ms + 1, &sr);
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
    int64_t claimed = r.rep.result.duration_ms > 0 ? r.rep.result.duration_ms : 0;
    json_t *f = features(&c, g, lv, &r, claimed + 1000, &s);
    CHECK_EQ(feature(f, "paced_moves"), -1);
    CHECK_EQ(feature(f, "round_t_permille"), -1);
    CHECK_EQ(s, 0);
    json_decref(f);
    free(lv);
}

/* Taps on found cells between the bot's taps: ignored, so its pace is
 * measured as before, and past the allowance each one counts. */
static void padding_dilutes_nothing(void)
{
    const game *g = game_find("schulte");
    config c;
    config_defaults(&c);
    game_level *lv = malloc(g->level_size);
    CHECK_EQ(game_generate(g, lv, 2, 3, 424242), GEN_OK);
    run bot, padded = { .n = 0 };
    bot_run(g, lv, 16, &bot);
    for (int i = 0; i < bot.n; i++) {
        padded.moves[padded.n++] = bot.moves[i];
        if (i > 0 && i < bot.n - 1) /* the cell just found, 37 ms later */
            padded.moves[padded.n++] = (game_move){ { bot.moves[i].v[0] + 37, bot.moves[i].v[1] } };
    }
    replay(g, lv, &padded);
    CHECK(!padded.rep.rejected && padded.rep.result.completed);
    CHECK_EQ((int)padded.rep.ignored, 14);
    int64_t sb, sp;
    int64_t claimed = bot.rep.result.duration_ms;
    json_t *fb = features(&c, g, lv, &bot, claimed + 500, &sb);
    json_t *fp = features(&c, g, lv, &padded, claimed + 500, &sp);
    CHECK_EQ(feature(fp, "ignored"), 14);
    CHECK_EQ(feature(fp, "ignored_allowance"), g->ignored_allowance);
    CHECK_EQ(feature(fp, "at_floor_permille"), feature(fb, "at_floor_permille"));
    CHECK_EQ(feature(fp, "round_t_permille"), feature(fb, "round_t_permille"));
    int64_t extra = (14 - g->ignored_allowance) * FAIRPLAY_W_IGNORED;
    CHECK_EQ(sp, sb + (extra < FAIRPLAY_W_IGNORED_MAX ? extra : FAIRPLAY_W_IGNORED_MAX));
    json_decref(fb);
    json_decref(fp);
    free(lv);
}

/* A run claiming more than the server measured: within the clock-rate
 * allowance it is drift, past it a strong signal. */
static void ahead_of_the_clock(void)
{
    const game *g = game_find("schulte");
    config c;
    config_defaults(&c);
    game_level *lv = malloc(g->level_size);
    CHECK_EQ(game_generate(g, lv, 2, 3, 424242), GEN_OK);
    run human;
    human_run(g, lv, 16, &human);
    int64_t claimed = human.rep.result.duration_ms, s0, s1, s2;
    json_t *f0 = features(&c, g, lv, &human, claimed + 300, &s0);
    int64_t drift = claimed * c.plausibility_slack_permille / 1000 - 1;
    json_t *f1 = features(&c, g, lv, &human, claimed - drift, &s1);
    json_t *f2 = features(&c, g, lv, &human, claimed - drift - 50, &s2);
    CHECK_EQ(feature(f0, "ahead_ms"), 0);
    CHECK_EQ(feature(f1, "ahead_ms"), drift);
    CHECK_EQ(s1, s0);
    CHECK_EQ(feature(f2, "ahead_ms"), drift + 50);
    CHECK_EQ(s2, s0 + FAIRPLAY_W_AHEAD);
    CHECK(strcmp(json_string_value(json_object_get(f2, "reason")), "clock") == 0);
    json_decref(f0);
    json_decref(f1);
    json_decref(f2);
    free(lv);
}

/* The human's taps on a 60 Hz frame clock: a third of them end in 0, which
 * is that clock's nature and earns nothing; a script's 10 ms grid does. */
static void frame_clock_is_not_round(void)
{
    const game *g = game_find("schulte");
    config c;
    config_defaults(&c);
    game_level *lv = malloc(g->level_size);
    CHECK_EQ(game_generate(g, lv, 2, 3, 424242), GEN_OK);
    run human, framed = { .n = 0 };
    human_run(g, lv, 16, &human);
    for (int i = 0; i < human.n; i++) { /* the frame at or after each tap */
        int32_t t = human.moves[i].v[0];
        int32_t frame = (int32_t)(((int64_t)t * 60 + 999) / 1000);
        framed.moves[framed.n++] = (game_move){ { (int32_t)((frame * 1000 + 30) / 60), human.moves[i].v[1] } };
    }
    replay(g, lv, &framed);
    CHECK(!framed.rep.rejected && framed.rep.result.completed);
    int64_t sf;
    json_t *ff = features(&c, g, lv, &framed, framed.rep.result.duration_ms + 400, &sf);
    CHECK(json_is_true(json_object_get(ff, "frame_clock")));
    CHECK(feature(ff, "round_t_permille") >= 200);
    CHECK(sf < 100);
    json_decref(ff);
    free(lv);
}

/* An evenly jittered bot: every find 420-480 ms, never a pause. Its
 * searches barely vary (find_cv under 250), a person's do. */
static void even_searches(void)
{
    const game *g = game_find("schulte");
    config c;
    config_defaults(&c);
    game_level *lv = malloc(g->level_size);
    CHECK_EQ(game_generate(g, lv, 2, 3, 424242), GEN_OK);
    run bot = { .n = 0 }, human;
    int32_t t = 0;
    for (int i = 0; i < 16; i++) {
        t += 420 + (i * 37) % 61;
        bot.moves[bot.n] = (game_move){ { t, next_cell(g, lv, bot.moves, bot.n, t) } };
        bot.n++;
    }
    replay(g, lv, &bot);
    human_run(g, lv, 16, &human);
    CHECK(!bot.rep.rejected && bot.rep.result.completed);
    int64_t sb, sh;
    json_t *fb = features(&c, g, lv, &bot, bot.rep.result.duration_ms + 300, &sb);
    json_t *fh = features(&c, g, lv, &human, human.rep.result.duration_ms + 300, &sh);
    CHECK_EQ(feature(fb, "find_moves"), 16);
    CHECK(feature(fb, "find_cv_permille") < 250);
    CHECK(feature(fh, "find_cv_permille") > 500);
    CHECK_EQ(feature(fb, "at_floor_permille"), 0);
    CHECK(sb >= FAIRPLAY_W_EVEN + FAIRPLAY_W_PERFECT);
    CHECK(sb > sh);
    json_decref(fb);
    json_decref(fh);
    free(lv);
}

static void population_and_history(void)
{
    fairplay_book b;
    CHECK(fairplay_book_init(&b));
    const game *g = game_find("schulte");
    store_board board = { -1, g, 3 }, other = { -1, g, 4 };
    CHECK_EQ(fairplay_book_percentile(&b, &board, 1500), -1);
    for (int i = 0; i < 40; i++)
        fairplay_book_add(&b, &board, 100 + i, 1100 + 50 * i, -1);
    CHECK_EQ(fairplay_book_percentile(&b, &board, 1000), 1000); /* faster than all */
    CHECK_EQ(fairplay_book_percentile(&b, &board, 5000), 0);
    CHECK_EQ(fairplay_book_percentile(&b, &board, 2575), 250); /* 10 of 40 slower */
    CHECK_EQ(fairplay_book_percentile(&b, &board, 2600), 237); /* a tie counts half */
    CHECK_EQ(fairplay_book_percentile(&b, &other, 1000), -1);
    /* a player's history: the same mean slack every run is a routine */
    CHECK_EQ(fairplay_book_routine(&b, 7, 300), -1);
    for (int i = 0; i < 3; i++)
        fairplay_book_add(&b, &board, 7, -1, 300 + i);
    CHECK(fairplay_book_routine(&b, 7, 301) < 10);
    for (int i = 0; i < 3; i++)
        fairplay_book_add(&b, &board, 8, -1, 200 + 300 * i);
    CHECK(fairplay_book_routine(&b, 8, 500) > 300);
    json_t *f = json_object();
    fairplay_points pts = { { 0 } };
    fairplay_population(f, 1000, 0, &pts);
    CHECK_EQ(fairplay_total(f, &pts), FAIRPLAY_W_FASTEST + FAIRPLAY_W_ROUTINE);
    CHECK_EQ(feature(f, "pace_percentile"), 1000);
    CHECK_EQ(feature(f, "routine_cv"), 0);
    json_decref(f);
    fairplay_book_free(&b);
}

/* The form across runs: residuals against the board that vary only by
 * their noise are near 1000; a person's, whose form moves them, far more. */
static void form_across_runs(void)
{
    fairplay_book b;
    CHECK(fairplay_book_init(&b));
    const game *g = game_find("schulte");
    store_board boards[8], empty = { -1, g, 99 };
    int runs;
    for (int k = 0; k < 8; k++)
        boards[k] = (store_board){ -1, g, 3 + k };
    CHECK_EQ(fairplay_book_form(&b, &boards[0], 7, 6000, 10000, &runs), -1);
    CHECK_EQ(runs, 0); /* no board yet */
    /* a run recorded while its board knows too few runs counts once it knows enough */
    fairplay_book_add_form(&b, &boards[0], 9, 6300, 10000, false);
    for (int k = 0; k < 8; k++) /* boards whose mean log pace is 6000 */
        for (int i = 0; i < FAIRPLAY_BOOK_FORM_MIN_RUNS; i++)
            fairplay_book_add_form(&b, &boards[k], 100 + i, 5900 + 200 * (i % 2), 2500, true);
    CHECK_EQ(fairplay_book_form(&b, &empty, 7, 6000, 10000, &runs), -1);
    CHECK_EQ(fairplay_book_form(&b, &boards[1], 7, 6100, 10000, &runs), -1); /* one run is no history */
    CHECK_EQ(runs, 0);
    CHECK(fairplay_book_form(&b, &boards[1], 9, 5700, 10000, &runs) > 0);
    CHECK_EQ(runs, 2);
    /* a script: residuals spread by their noise alone (sd 100, se2 10000) */
    const int64_t even[] = { 100, -100, 0, 150, -50, -100, 100 };
    for (int i = 0; i < 7; i++)
        fairplay_book_add_form(&b, &boards[i], 7, 6000 + even[i], 10000, true);
    int64_t steady = fairplay_book_form(&b, &boards[7], 7, 6000, 10000, &runs);
    CHECK(steady >= 500 && steady < 1500);
    CHECK_EQ(runs, 8);
    /* a person: their form moves them by 300 from run to run */
    const int64_t form[] = { 300, -250, 50, 400, -300, 100, -200 };
    for (int i = 0; i < 7; i++)
        fairplay_book_add_form(&b, &boards[i], 8, 6000 + form[i], 10000, true);
    CHECK(fairplay_book_form(&b, &boards[7], 8, 6000, 10000, &runs) > 5000);
    /* the points: (runs - 1) x (FAIRPLAY_FORM_BELOW - form), full at FAIRPLAY_FORM_FULL */
    json_t *f = json_object();
    fairplay_points pts = { { 0 } };
    fairplay_form(f, FAIRPLAY_FORM_BELOW - FAIRPLAY_FORM_FULL / 6, 7, &pts); /* six degrees of freedom */
    CHECK_EQ(pts.term[FAIRPLAY_ROUTINE], FAIRPLAY_W_FORM);
    CHECK_EQ(feature(f, "form_permille"), FAIRPLAY_FORM_BELOW - FAIRPLAY_FORM_FULL / 6);
    CHECK_EQ(feature(f, "form_runs"), 7);
    memset(&pts, 0, sizeof pts);
    fairplay_form(f, FAIRPLAY_FORM_BELOW - FAIRPLAY_FORM_FULL / 6, 2, &pts); /* one: a sixth */
    CHECK_EQ(pts.term[FAIRPLAY_ROUTINE], FAIRPLAY_W_FORM / 6);
    memset(&pts, 0, sizeof pts);
    fairplay_form(f, FAIRPLAY_FORM_BELOW, 13, &pts);
    CHECK_EQ(pts.term[FAIRPLAY_ROUTINE], 0);
    fairplay_form(f, -1, 0, &pts); /* too few runs: nothing */
    CHECK_EQ(pts.term[FAIRPLAY_ROUTINE], 0);
    json_decref(f);
    fairplay_book_free(&b);
}

static void hold_reasons(void)
{
    CHECK(strcmp(fairplay_hold_reason("{\"features\":{\"reason\":\"padding\"}}", false), "padding") == 0);
    CHECK(strcmp(fairplay_hold_reason("{\"features\":{\"reason\":\"padding\"}}", true), "duplicate") == 0);
    CHECK(strcmp(fairplay_hold_reason("{\"features\":{\"reason\":\"x\"}}", false), "review") == 0);
    CHECK(strcmp(fairplay_hold_reason(NULL, false), "review") == 0);
    CHECK(strcmp(fairplay_hold_reason("not json", false), "review") == 0);
    /* the holds of the rules (twins, new accounts) name themselves over the features' word */
    CHECK(strcmp(fairplay_hold_reason("{\"features\":{\"reason\":\"pace\"},\"twin\":{}}", false), "twin") == 0);
    CHECK(strcmp(fairplay_hold_reason("{\"features\":{\"reason\":\"pace\"},\"new_account\":{}}", false),
                 "new_account") == 0);
    CHECK(strcmp(fairplay_hold_reason("{\"twin\":{},\"new_account\":{}}", false), "twin") == 0);
    /* parallel play after a twin, before the think floor and the new-account hold */
    CHECK(strcmp(fairplay_hold_reason("{\"parallel\":{},\"new_account\":{},\"think_time\":{}}", false), "parallel") == 0);
    CHECK(strcmp(fairplay_hold_reason("{\"twin\":{},\"parallel\":{}}", false), "twin") == 0);
    CHECK(strcmp(fairplay_hold_reason("{\"twin\":{}}", true), "duplicate") == 0);
    /* every word it gives is known (GET /v1/admin/review?reason= takes them), nothing else */
    static const char *const words[] = { "duplicate", "identity", "twin",      "parallel", "think_time",
                                         "new_account", "record", "pace",     "padding",  "clock",
                                         "rehearsal", "speed",    "routine",  "review" };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        CHECK(fairplay_hold_reason_known(words[i]));
    CHECK(!fairplay_hold_reason_known("bogus"));
    CHECK(!fairplay_hold_reason_known(""));
    CHECK(!fairplay_hold_reason_known(NULL));
    CHECK(!fairplay_hold_reason_known("Pace"));
}

int main(void)
{
    RUN(timed_slack_floors);
    RUN(bot_and_human_on_one_level);
    RUN(untimed_game_has_no_pace);
    RUN(padding_dilutes_nothing);
    RUN(ahead_of_the_clock);
    RUN(frame_clock_is_not_round);
    RUN(even_searches);
    RUN(population_and_history);
    RUN(form_across_runs);
    RUN(hold_reasons);
    CHECK_DONE();
}
