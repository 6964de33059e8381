/*
 * Unit tests for games/contraption: floor division and the shape of trig
 * (its vectors, the traces, levels, replays and daily seeds of
 * vectors/contraption.json run in test_vectors.c), every placement
 * rejection, the fallback path, the sweep over
 * every level and seeds 0..499 (the bare ball misses, the plan hits), and
 * the move fields of each version (version 2 adds t).
 */
#include "../check.h"

#include <jansson.h>
#include <stdlib.h>

#include "../../core/daily.h"
#include "../../core/fnv.h"
#include "../../core/replay.h"
#include "../../core/rng.h"
#include "../../games/contraption/contraption.h"
#include "../../games/contraption/level.h"
#include "../../server/base/json_game.h"
#include "../../server/trust/receipt.h"

#define SWEEP_SEEDS 500

static const game *G = &contraption_game;

static int64_t geti(const json_t *obj, const char *key)
{
    return (int64_t)json_integer_value(json_object_get(obj, key));
}

static void fdiv_floors(void)
{
    CHECK_EQ(ct_fdiv(7, 4), 1);
    CHECK_EQ(ct_fdiv(-7, 4), -2);
    CHECK_EQ(ct_fdiv(-8, 4), -2);
    CHECK_EQ(ct_fdiv(0, 4), 0);
    CHECK_EQ(ct_fdiv(-1, 268435456), -1);
    CHECK_EQ(ct_fdiv(-268435456, 268435456), -1);
}

static void trig_shape(void)
{
    /* Odd sine, even cosine, unit length within rounding, monotone sine. */
    int32_t prev = -CT_ONE;
    for (int32_t m = -CT_ANGLE_MAX; m <= CT_ANGLE_MAX; m++) {
        int32_t s, c, s2, c2;
        ct_trig(m, &s, &c);
        ct_trig(-m, &s2, &c2);
        CHECK_EQ(s, -s2);
        CHECK_EQ(c, c2);
        int64_t norm = (int64_t)s * s + (int64_t)c * c;
        CHECK(norm > (int64_t)(CT_ONE - 3) * (CT_ONE - 3) && norm < (int64_t)(CT_ONE + 3) * (CT_ONE + 3));
        CHECK(s >= prev);
        prev = s;
    }
}

static void *new_level(int version, int level, uint32_t seed)
{
    void *lv = calloc(1, G->level_size);
    if (lv && game_generate(G, lv, version, level, seed) != GEN_OK) {
        free(lv);
        return NULL;
    }
    return lv;
}

/* One placement on a fresh state; returns its outcome code. */
static const char *place_after(const ct_level *lv, const game_move *before, int n_before,
                               game_move m)
{
    static ct_state st;
    game_state *h = game_state_handle(&st);
    G->start(h, game_level_const_handle(lv));
    for (int i = 0; i < n_before; i++)
        if (G->apply(h, &before[i]) != CT_PLACED)
            return "setup rejected";
    return G->outcomes[G->apply(h, &m)].code;
}

static void illegal_placements(void)
{
    const ct_level *lv = new_level(1, 1, 0); /* 3 ramps, no fan */
    CHECK(lv != NULL);
    if (!lv)
        return;
    game_move ok = { { CT_RAMP, 50, 50, 450 } };
    CHECK(strcmp(place_after(lv, NULL, 0, ok), "placed") == 0);
    CHECK(strcmp(place_after(lv, NULL, 0, (game_move){ { CT_FAN, 50, 50, 0 } }), "no_part_left") == 0);
    game_move three[3] = { { { 0, 20, 30, 0 } }, { { 0, 50, 30, 0 } }, { { 0, 80, 30, 0 } } };
    CHECK(strcmp(place_after(lv, three, 3, (game_move){ { 0, 50, 60, 0 } }), "no_part_left") == 0);
    CHECK(strcmp(place_after(lv, NULL, 0, (game_move){ { 0, 50, 50, 1401 } }), "bad_angle") == 0);
    CHECK(strcmp(place_after(lv, NULL, 0, (game_move){ { 0, 50, 50, -1401 } }), "bad_angle") == 0);
    CHECK(strcmp(place_after(lv, NULL, 0, (game_move){ { 0, 50, 50, 1400 } }), "placed") == 0);
    CHECK(strcmp(place_after(lv, NULL, 0, (game_move){ { 0, 101, 50, 0 } }), "out_of_field") == 0);
    CHECK(strcmp(place_after(lv, NULL, 0, (game_move){ { 0, 50, -1, 0 } }), "out_of_field") == 0);
    CHECK(strcmp(place_after(lv, NULL, 0, (game_move){ { 0, 11, 50, 0 } }), "out_of_field") == 0);
    CHECK(strcmp(place_after(lv, NULL, 0, (game_move){ { 0, 12, 50, 0 } }), "placed") == 0);
    CHECK(strcmp(place_after(lv, NULL, 0, (game_move){ { 0, 50, 1, 0 } }), "out_of_field") == 0);
    CHECK(strcmp(place_after(lv, NULL, 0, (game_move){ { 0, 50, 2, 0 } }), "placed") == 0);
    const ct_box *shelf = &lv->field.walls[3];
    int32_t sx = (shelf->x0 + shelf->x1) / 2 / CT_SUB, sy = shelf->y0 / CT_SUB;
    CHECK(strcmp(place_after(lv, NULL, 0, (game_move){ { 0, sx, sy, 0 } }), "overlaps_wall") == 0);
    CHECK(strcmp(place_after(lv, NULL, 0, (game_move){ { 0, sx, sy - 4, 0 } }), "placed") == 0);
    CHECK(strcmp(place_after(lv, &ok, 1, (game_move){ { 0, 52, 52, -450 } }), "overlaps_part") == 0);
    /* Footprints far enough apart do not overlap. */
    CHECK(strcmp(place_after(lv, &ok, 1, (game_move){ { 0, 50, 80, 0 } }), "placed") == 0);
    free((void *)lv);

    /* Fans: a level that grants one. */
    const ct_level *lf = new_level(1, 4, 0);
    CHECK(lf && lf->inventory[CT_FAN] == 1);
    if (lf) {
        game_move fan = { { CT_FAN, 50, 50, 0 } };
        CHECK(strcmp(place_after(lf, NULL, 0, fan), "placed") == 0);
        CHECK(strcmp(place_after(lf, &fan, 1, fan), "no_part_left") == 0);
        CHECK(strcmp(place_after(lf, NULL, 0, (game_move){ { 1, 50, 133, 0 } }), "out_of_field") == 0);
        CHECK(strcmp(place_after(lf, &fan, 1, (game_move){ { 0, 50, 59, 0 } }), "overlaps_part") == 0);
        CHECK(strcmp(place_after(lf, &fan, 1, (game_move){ { 0, 50, 60, 0 } }), "placed") == 0);
    }
    free((void *)lf);
}

static void generate_is_pure(void)
{
    game_level *a = calloc(1, G->level_size), *b = calloc(1, G->level_size);
    CHECK(a && b);
    if (a && b) {
        for (uint32_t s = 0; s < 20; s++) {
            memset(b, 0xa5, G->level_size);
            CHECK_EQ(game_generate(G, a, 1, 7, s), GEN_OK);
            CHECK_EQ(game_generate(G, b, 1, 7, s), GEN_OK);
            CHECK(memcmp(a, b, G->level_size) == 0);
        }
        CHECK_EQ(game_generate(G, a, 3, 1, 0), GEN_BAD_VERSION);
        CHECK_EQ(game_generate(G, a, 0, 1, 0), GEN_BAD_VERSION);
        CHECK_EQ(game_generate(G, a, 1, 0, 0), GEN_BAD_LEVEL);
        CHECK_EQ(game_generate(G, a, 1, 16, 0), GEN_BAD_LEVEL);
    }
    free(a);
    free(b);
}

static void fallback_after_40(void)
{
    /* No ramp granted: every swept placement is illegal, so no candidate
     * can pass the sweep and the first non-trivial one must be issued. */
    static ct_level lv, first;
    const ct_row row = { 2, 4, 12, 95, 0, 1 };
    memset(&lv, 0, sizeof lv);
    lv.seed = 99;
    ct_generate(&lv, &row, &CT_LIMITS_DEFAULT);
    CHECK(lv.fallback);
    CHECK(!lv.has_plan);
    CHECK(!lv.trivial);
    CHECK_EQ(lv.attempts, CT_ATTEMPTS);
    CHECK_EQ(lv.pre_solved + lv.no_sweep_solution, CT_ATTEMPTS);
    CHECK_EQ(lv.sims, CT_ATTEMPTS); /* only the bare balls ran */
    CHECK(lv.issued >= 1 && lv.issued <= lv.pre_solved + 1);
    ct_run bare;
    ct_simulate(&lv.field, NULL, 0, NULL, 0, &bare);
    CHECK(!bare.reached);
    json_t *out = level_to_json(G, game_level_const_handle(&lv));
    CHECK(json_is_true(json_object_get(out, "fallback")));
    CHECK(json_is_array(json_object_get(out, "plan")) &&
          json_array_size(json_object_get(out, "plan")) == 0);
    CHECK_EQ(geti(out, "plan_arrival_tick"), -1);
    CHECK_EQ(geti(json_object_get(out, "discarded"), "no_sweep_solution"), lv.no_sweep_solution);
    json_decref(out);
    /* The issued field is the issued attempt's candidate. */
    memset(&first, 0, sizeof first);
    first.seed = 99;
    const ct_row one_ramp = { 2, 4, 12, 95, 1, 1 };
    ct_generate(&first, &one_ramp, &CT_LIMITS_DEFAULT);
    if (first.issued == lv.issued)
        CHECK(memcmp(&first.field, &lv.field, sizeof lv.field) == 0);
}

/* Random machines on random levels: every simulation is bounded, its end
 * code consistent, and the ball is never inside a wall after any tick (the
 * invariant spec.md section 6 relies on). */
static void random_machines(void)
{
    static ct_level lv;
    static ct_state st;
    static ct_tick tr[CT_TICK_CAP];
    game_level *lh = game_level_handle(&lv);
    game_state *sh = game_state_handle(&st);
    uint32_t rng = 2026;
    int placed = 0, completed = 0;
    for (int round = 0; round < 400; round++) {
        int level = 1 + (int)rng_below(&rng, 15);
        CHECK_EQ(game_generate(G, lh, 1, level, rng_next(&rng)), GEN_OK);
        G->start(sh, lh);
        int n = (int)rng_below(&rng, 9);
        for (int i = 0; i < n; i++) {
            game_move m = { { (int32_t)rng_below(&rng, 2), (int32_t)rng_below(&rng, 101),
                              (int32_t)rng_below(&rng, 141), (int32_t)rng_below(&rng, 2801) - 1400 } };
            int o = G->apply(sh, &m);
            CHECK(o >= 0 && o < G->n_outcomes);
            placed += o == CT_PLACED;
        }
        game_result r;
        G->result(sh, &r);
        const ct_state *v = &st;
        ct_run run;
        ct_simulate(&lv.field, v->placed, v->n_placed, tr, CT_TICK_CAP, &run);
        CHECK_EQ(r.completed, run.reached);
        CHECK(run.ticks >= 1 && run.ticks <= CT_TICK_CAP);
        CHECK(run.end >= CT_END_GOAL && run.end <= CT_END_CAP);
        CHECK_EQ(run.reached, run.end == CT_END_GOAL);
        CHECK_EQ(r.extra[0], run.reached ? run.ticks : -1);
        completed += run.reached;
        for (int t = 0; t < run.ticks; t++)
            for (int w = 0; w < lv.field.n_walls; w++) {
                const ct_box *b = &lv.field.walls[w];
                CHECK(!(b->x0 <= tr[t].x && tr[t].x < b->x1 && b->y0 <= tr[t].y && tr[t].y < b->y1));
            }
    }
    printf("  random machines: 400 runs, %d parts placed, %d reached the goal\n", placed, completed);
    CHECK(placed > 100);
}

/* Every level, seeds 0..499, through the game interface: the bare ball
 * (no moves) never completes, and the plan completes at the tick the
 * generator reported. Cheap enough to run in full under ASan too. */
static void sweep_all_levels(void)
{
    const uint32_t step = 1;
    static ct_level lv;
    static ct_state st;
    CHECK_EQ(G->state_size, sizeof st);
    game_level *lh = game_level_handle(&lv);
    game_state *sh = game_state_handle(&st);
    int plans = 0, fallbacks = 0, levels = 0;
    for (int level = 1; level <= 15; level++)
        for (uint32_t seed = 0; seed < SWEEP_SEEDS; seed += step) {
            CHECK_EQ(game_generate(G, lh, 1, level, seed), GEN_OK);
            levels++;
            CHECK(!lv.trivial);
            game_result r;
            G->start(sh, lh);
            G->result(sh, &r);
            CHECK(!r.completed);
            CHECK_EQ(r.score, 0);
            CHECK_EQ(r.duration_ms, -1);
            CHECK_EQ(lv.has_plan, !lv.fallback);
            if (!lv.has_plan) {
                fallbacks++;
                continue;
            }
            plans++;
            game_move m = { { lv.plan.kind, lv.plan.x, lv.plan.y, lv.plan.angle } };
            G->start(sh, lh);
            CHECK_EQ(G->apply(sh, &m), CT_PLACED);
            G->result(sh, &r);
            CHECK(r.completed);
            CHECK_EQ(r.extra[0], lv.plan_run.arrival_tick);
            CHECK_EQ(r.score, 100000 - 10000 - lv.plan_run.arrival_tick);
        }
    printf("  sweep: %d levels, %d with a plan, %d fallbacks (seed step %u)\n", levels, plans,
           fallbacks, step);
    CHECK(plans > 0);
}

static long decode_text(int version, const char *text, game_move *out, move_error *err)
{
    json_t *arr = json_loads(text, 0, NULL);
    long n = moves_from_json(G, version, arr, out, CT_MAX_PARTS, err);
    json_decref(arr);
    return n;
}

/* Version 1 moves have no t; version 2 moves must carry it. The JSON and
 * the hash of a version 1 move are what they were before t existed. */
static void fields_by_version(void)
{
    game_move m[2];
    move_error err;
    const char *v1 = "[{\"part\":0,\"x\":50,\"y\":60,\"angle\":450}]";
    const char *v2 = "[{\"part\":0,\"x\":50,\"y\":60,\"angle\":450,\"t\":1000}]";
    CHECK_EQ(decode_text(1, v1, m, &err), 1);
    CHECK_EQ(m[0].v[4], 0);
    CHECK_EQ(decode_text(1, v2, m, &err), -1); /* t is not a version 1 field */
    CHECK_EQ(err.index, 0);
    CHECK_EQ(decode_text(2, v1, m, &err), -1); /* version 2 needs t */
    CHECK_EQ(decode_text(2, v2, m, &err), 1);
    CHECK_EQ(m[0].v[4], 1000);

    json_t *back = moves_to_json(G, 1, m, 1);
    CHECK_EQ(json_object_size(json_array_get(back, 0)), 4);
    CHECK(json_object_get(json_array_get(back, 0), "t") == NULL);
    json_decref(back);
    back = moves_to_json(G, 2, m, 1);
    CHECK_EQ(json_integer_value(json_object_get(json_array_get(back, 0), "t")), 1000);
    json_decref(back);

    /* The version 1 hash covers 16 bytes a move, as it always did. */
    uint8_t got[MOVES_HASH_BYTES], want[MOVES_HASH_BYTES];
    const unsigned char bytes[16] = { 0, 0, 0, 0, 0, 0, 0, 50, 0, 0, 0, 60, 0, 0, 1, 194 };
    moves_hash(G, 1, m, 1, got);
    crypto_generichash(want, sizeof want, bytes, sizeof bytes, NULL, 0);
    CHECK(memcmp(got, want, sizeof got) == 0);
    moves_hash(G, 2, m, 1, want);
    CHECK(memcmp(got, want, sizeof got) != 0); /* t counts in version 2 */

    json_t *entry = game_to_json(G);
    const json_t *fields = json_object_get(entry, "move_fields");
    CHECK_EQ(json_array_size(fields), 5);
    CHECK_EQ(json_integer_value(json_object_get(json_array_get(fields, 4), "since")), 2);
    CHECK(json_object_get(json_array_get(fields, 0), "since") == NULL);
    json_decref(entry);
    CHECK_EQ(decode_text(2, "[{\"part\":0,\"x\":50,\"y\":60,\"angle\":450,\"t\":-1}]", m, &err), -1);
}

int main(void)
{
    RUN(fdiv_floors);
    RUN(trig_shape);
    RUN(illegal_placements);
    RUN(generate_is_pure);
    RUN(fallback_after_40);
    RUN(random_machines);
    RUN(sweep_all_levels);
    RUN(fields_by_version);
    CHECK_DONE();
}
