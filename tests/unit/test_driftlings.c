/*
 * Driftlings: the generated-level sweep (every level, seeds 0..499), the
 * corrupted-plan rules, the fallback designs and the solver. The traces
 * of vectors/driftlings.json (tick by tick) run in test_vectors.c.
 */
#include "../check.h"

#include <jansson.h>
#include <stdlib.h>

#include "../../core/fnv.h"
#include "../../core/replay.h"
#include "../../server/base/json_game.h"
#include "../../games/driftlings/driftlings.h"
#include "../../games/driftlings/generate.h"
#include "../../games/driftlings/solver.h"

/* The full sweep runs in both builds: about 5 s in release, 13 s under
 * ASan+UBSan, so no subset is needed. */
#define SWEEP_SEEDS 500

static const game *G = &driftlings_game;
static dl_level lv_buf, lv_buf2;
static dl_state st_buf;

static void ascii_rejects_bad_pictures(void)
{
    int inv[DL_SKILLS] = { 0 };
    const char *two_exits[] = { "E.X", "X..", "===" };
    const char *ragged[] = { "E.X", "..", "===" };
    const char *bad_char[] = { "E.X", ".?.", "===" };
    const char *fine[] = { "E.X", "...", "===" };
    CHECK(!driftlings_level_from_ascii(&lv_buf, two_exits, 3, 1, 1, 1, 10, inv));
    CHECK(!driftlings_level_from_ascii(&lv_buf, ragged, 3, 1, 1, 1, 10, inv));
    CHECK(!driftlings_level_from_ascii(&lv_buf, bad_char, 3, 1, 1, 1, 10, inv));
    CHECK(!driftlings_level_from_ascii(&lv_buf, fine, 3, 2, 3, 1, 10, inv));
    CHECK(driftlings_level_from_ascii(&lv_buf, fine, 3, 1, 1, 1, 10, inv));
}

static void hash_covers_terrain_and_bodies(void)
{
    int inv[DL_SKILLS] = { 0, 0, 0, 1, 0 };
    const char *rows[] = { "E.......", "...#....", "...#...X", "========" };
    CHECK(driftlings_level_from_ascii(&lv_buf, rows, 4, 1, 1, 1, 60, inv));
    dl_world a, b;
    driftlings_world_init(&a, &lv_buf);
    for (int i = 0; i < 5; i++)
        dl_tick(&a);
    b = a;
    CHECK_EQ(dl_hash(&a), dl_hash(&b));
    b.map.cell[2 * 8 + 3] = DL_AIR;
    CHECK(dl_hash(&a) != dl_hash(&b));
    b = a;
    b.walker[0].dir = -1;
    CHECK(dl_hash(&a) != dl_hash(&b));
    /* Two runs from the same state are byte-identical. */
    b = a;
    for (int i = 0; i < 40; i++) {
        dl_tick(&a);
        dl_tick(&b);
    }
    CHECK(memcmp(&a, &b, sizeof a) == 0);
}

static void solver_on_hand_levels(void)
{
    const char *rows[] = { "E.......", "...#....", "...#...X", "========" };
    const char *sealed[] = { "E....=..", "...#.=..", "...#.=.X", "========" };
    int inv[DL_SKILLS] = { 1, 1, 0, 1, 1 };
    dl_solution s;
    CHECK(driftlings_level_from_ascii(&lv_buf, rows, 4, 1, 1, 1, 60, inv));
    dl_solve(&lv_buf.map, inv, 60, &DL_LIMITS_DEFAULT, true, &s);
    CHECK(s.solved);
    CHECK_EQ(s.n_moves, 1);
    CHECK_EQ(s.moves[0].skill, DL_BASHER);
    CHECK_EQ(s.moves[0].tick, 5);
    CHECK_EQ(s.route_ticks, 11);
    CHECK(dl_replay_solution(&lv_buf.map, &s));
    /* A forged plan (the bash a tick early) does not replay. */
    s.moves[0].tick = 4;
    CHECK(!dl_replay_solution(&lv_buf.map, &s));

    CHECK(driftlings_level_from_ascii(&lv_buf, sealed, 4, 1, 1, 1, 60, inv));
    dl_solve(&lv_buf.map, inv, 60, &DL_LIMITS_DEFAULT, false, &s);
    CHECK(!s.solved);
    CHECK(!s.capped);
    CHECK(s.expansions > 10);
    /* With a tiny node cap the same search reports capped, not unsolvable. */
    dl_solve(&lv_buf.map, inv, 60, &(dl_limits){ 8, DL_CARVE_MAX, DL_ALT_BUDGET }, false, &s);
    CHECK(!s.solved);
    CHECK(s.capped);
}

static void run_moves(const dl_level *lv, const game_move *m, size_t n, replay_report *rep)
{
    replay_run(G, game_level_const_handle(lv), game_state_handle(&st_buf), m, n, NULL, rep);
}

static void fallbacks_pass_every_gate(void)
{
    for (int version = G->min_version; version <= G->version; version++) {
        for (int l = 1; l <= DL_LEVELS; l++) {
            CHECK(dl_generate_fallback(&lv_buf, version, l));
            replay_report rep;
            run_moves(&lv_buf, lv_buf.plan, (size_t)lv_buf.n_plan, &rep);
            CHECK(!rep.rejected && rep.result.completed);
            CHECK(version < 2 || rep.result.extra[DL_X_SAVED] == lv_buf.crowd);
        }
    }
}

/* Every generated plan wins: version 1 by the quota, version 2 by saving
 * the whole crowd (its crowd gate). */
static void generated_plans_win_at(int version)
{
    int fallbacks = 0, levels = 0;
    long long candidates = 0, crowd_rejected = 0;
    for (int l = 1; l <= DL_LEVELS; l++) {
        for (uint32_t seed = 0; seed < SWEEP_SEEDS; seed++) {
            dl_level *lv = &lv_buf;
            CHECK_EQ(game_generate(G, game_level_handle(lv), version, l, seed), GEN_OK);
            levels++;
            fallbacks += lv->metrics.fallback;
            candidates += lv->metrics.candidates;
            crowd_rejected += lv->rejected[DL_GATE_CROWD];
            replay_report rep;
            run_moves(lv, lv->plan, (size_t)lv->n_plan, &rep);
            if (rep.rejected || !rep.result.completed || rep.applied != (size_t)lv->n_plan) {
                printf("  level %d seed %u: plan does not win\n", l, seed);
                CHECK(false);
            }
            CHECK(rep.result.extra[DL_X_SAVED] >= (version >= 2 ? lv->crowd : lv->quota));
            CHECK_EQ(G->min_moves(game_level_const_handle(lv)), lv->n_plan);
            run_moves(lv, NULL, 0, &rep);
            if (rep.result.completed) {
                printf("  level %d seed %u: the empty list wins\n", l, seed);
                CHECK(false);
            }
            CHECK(lv->metrics.slack == 0 || lv->metrics.fallback);
        }
    }
    printf("  sweep, version %d: %d levels, %lld candidates (%lld turned down by the crowd gate), "
           "%d fallbacks\n",
           version, levels, candidates, crowd_rejected, fallbacks);
    CHECK(fallbacks * 20 < levels); /* the fallback is rare */
}

static void generated_plans_win(void)
{
    for (int version = G->min_version; version <= G->version; version++)
        generated_plans_win_at(version);
}

static void generation_is_deterministic(void)
{
    for (int l = 1; l <= DL_LEVELS; l += 7) {
        game_generate(G, game_level_handle(&lv_buf), 1, l, 1234u);
        game_generate(G, game_level_handle(&lv_buf2), 1, l, 1234u);
        CHECK(memcmp(&lv_buf, &lv_buf2, sizeof lv_buf) == 0);
        game_generate(G, game_level_handle(&lv_buf2), 1, l, 1235u);
        CHECK(dl_terrain_hash(&lv_buf.map) != dl_terrain_hash(&lv_buf2.map) ||
              lv_buf.n_plan != lv_buf2.n_plan);
    }
    CHECK_EQ(game_generate(G, game_level_handle(&lv_buf), 3, 1, 0), GEN_BAD_VERSION);
    CHECK_EQ(game_generate(G, game_level_handle(&lv_buf), 1, 16, 0), GEN_BAD_LEVEL);
    CHECK_EQ(game_generate(G, game_level_handle(&lv_buf), 1, 0, 0), GEN_BAD_LEVEL);
}

/* The spec's corrupted-plan rules on generated levels. */
static void corrupted_plans(void)
{
    game_move m[DL_MAX_PLAN + 1];
    replay_report base, rep;
    int lowered = 0, tried = 0;
    for (int l = 1; l <= DL_LEVELS; l++) {
        for (uint32_t seed = 0; seed < 6; seed++) {
            dl_level *lv = &lv_buf;
            game_generate(G, game_level_handle(lv), 1, l, seed);
            size_t n = (size_t)lv->n_plan;
            run_moves(lv, lv->plan, n, &base);
            CHECK(base.result.completed);

            /* An extra basher or digger the level does not stock: ignored,
             * same score. A walker index past the crowd: rejected. */
            memcpy(m, lv->plan, n * sizeof m[0]);
            m[n] = m[n - 1];
            m[n].v[2] = lv->inventory[DL_BASHER] ? DL_BASHER : DL_DIGGER;
            run_moves(lv, m, n + 1, &rep);
            CHECK(!rep.rejected);
            CHECK(rep.result.score <= base.result.score);
            m[n].v[1] = lv->crowd;
            run_moves(lv, m, n + 1, &rep);
            CHECK(rep.rejected && rep.rejected_move == n);
            CHECK_EQ(rep.rejected_outcome, game_outcome_index(G, "no_such_walker"));

            /* The pioneer's first move given to the last walker before it has
             * spawned: rejected, not_spawned. */
            memcpy(m, lv->plan, n * sizeof m[0]);
            m[0].v[1] = lv->crowd - 1;
            run_moves(lv, m, n, &rep);
            CHECK(rep.rejected && rep.rejected_move == 0);
            CHECK_EQ(rep.rejected_outcome, game_outcome_index(G, "not_spawned"));

            /* Every terrain move one tick early: the plan no longer wins or
             * scores strictly lower. */
            memcpy(m, lv->plan, n * sizeof m[0]);
            int shifted = 0;
            for (size_t i = 0; i < n; i++)
                if (m[i].v[2] == DL_BASHER || m[i].v[2] == DL_DIGGER)
                    m[i].v[0]--, shifted++;
            if (shifted == 0)
                continue; /* traits only: a tick early is usually harmless */
            tried++;
            run_moves(lv, m, n, &rep);
            if (!(rep.rejected || rep.result.score < base.result.score))
                printf("  level %d seed %u: early terrain moves still score %lld\n", l, seed,
                       (long long)rep.result.score);
            CHECK(rep.rejected || rep.result.score < base.result.score);
            lowered += rep.rejected || !rep.result.completed;

            /* Swapping the last two moves' ticks makes time run backwards. */
            if (n >= 2 && lv->plan[n - 1].v[0] > lv->plan[n - 2].v[0]) {
                memcpy(m, lv->plan, n * sizeof m[0]);
                int32_t t = m[n - 1].v[0];
                m[n - 1].v[0] = m[n - 2].v[0];
                m[n - 2].v[0] = t;
                run_moves(lv, m, n, &rep);
                CHECK(rep.rejected && rep.rejected_move == n - 1);
                CHECK_EQ(rep.rejected_outcome, game_outcome_index(G, "time_backwards"));
            }
        }
    }
    CHECK(lowered > 0 && tried > 0);
}

/* What `gen` prints: every key the issue names, and a plan `replay` takes. */
static void gen_output_replays(void)
{
    static const char *const keys[] = { "terrain", "terrain_hash", "inventory", "quota", "plan",
                                        "alternatives", "first_decision_at", "critical", "slack",
                                        "expansions", "candidates", "fallback", "rejected" };
    static game_move moves[DL_MAX_PLAN];
    for (int l = 1; l <= DL_LEVELS; l++) {
        for (uint32_t seed = 0; seed < 20; seed++) {
            game_generate(G, game_level_handle(&lv_buf), 1, l, seed);
            json_t *o = level_to_json(G, game_level_const_handle(&lv_buf));
            for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
                CHECK(json_object_get(o, keys[k]) != NULL);
            const json_t *rows = json_object_get(o, "terrain");
            CHECK_EQ(json_array_size(rows), lv_buf.map.h);
            uint32_t h = FNV1A32_OFFSET;
            for (size_t y = 0; y < json_array_size(rows); y++) {
                const char *r = json_string_value(json_array_get(rows, y));
                CHECK_EQ(strlen(r), lv_buf.map.w);
                h = fnv1a32_update(h, r, strlen(r));
            }
            CHECK_EQ(json_integer_value(json_object_get(o, "terrain_hash")), h);
            move_error err;
            long n = moves_from_json(G, 1, json_object_get(o, "plan"), moves, DL_MAX_PLAN, &err);
            CHECK_EQ(n, lv_buf.n_plan);
            if (n > 0) {
                replay_report rep;
                replay_run(G, game_level_handle(&lv_buf), game_state_handle(&st_buf), moves,
                           (size_t)n, NULL, &rep);
                CHECK(!rep.rejected && rep.result.completed);
                json_t *sj = state_to_json(G, game_state_handle(&st_buf));
                CHECK(json_is_integer(json_object_get(sj, "hash")));
                CHECK(json_is_array(json_object_get(sj, "walkers")));
                json_decref(sj);
            }
            json_decref(o);
        }
    }
}

int main(void)
{
    RUN(ascii_rejects_bad_pictures);
    RUN(hash_covers_terrain_and_bodies);
    RUN(solver_on_hand_levels);
    RUN(fallbacks_pass_every_gate);
    RUN(generation_is_deterministic);
    RUN(corrupted_plans);
    RUN(gen_output_replays);
    RUN(generated_plans_win);
    CHECK_DONE();
}
