/*
 * bench_sums_opposites: figures for Target Sums and Opposites.
 * Target Sums, per level over seeds 0..SEEDS-1: generation time median and
 * worst, solver nodes of the accepted board median and max, the most
 * nodes one generation spent (rejected candidates included), rejected
 * candidates per accepted board and fallbacks; replay time of a clean solution.
 * Opposites, per level: generation time median and worst, and the replay
 * time of a clean run (every prompt answered 400 ms after it appears).
 * Wall-clock figures are for comparison within one run only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../core/replay.h"
#include "../../games/opposites/opposites.h"
#include "../../games/target-sums/board.h"
#include "../../games/target-sums/target_sums.h"
#include "../../server/base/json_game.h"

#define SEEDS 2000

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static int64_t median(int64_t *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_i64);
    return v[n / 2];
}

static int64_t gen_ns[SEEDS], nodes[SEEDS], search[SEEDS];
static unsigned char level_buf[1 << 14];
static unsigned char state_buf[1 << 14];

static void bench_target_sums(void)
{
    const game *g = &target_sums_game;
    printf("target-sums: %d seeds per level (generation in us; nodes of the accepted board)\n", SEEDS);
    printf("level  gen_med  gen_max  nodes_med  nodes_max  search_max  rejected/accepted  fallbacks\n");
    for (int level = 1; level <= 15; level++) {
        long rejected = 0, fallbacks = 0;
        for (uint32_t s = 0; s < SEEDS; s++) {
            int64_t t0 = now_ns();
            game_generate(g, game_level_handle(level_buf), 1, level, s);
            gen_ns[s] = now_ns() - t0;
            json_t *j = level_to_json(g, game_level_handle(level_buf));
            nodes[s] = json_integer_value(json_object_get(j, "nodes"));
            search[s] = json_integer_value(json_object_get(j, "search_nodes"));
            rejected += (long)json_integer_value(json_object_get(j, "rejected"));
            fallbacks += json_is_true(json_object_get(j, "fallback"));
            json_decref(j);
        }
        int64_t gmax = 0, nmax = 0, smax = 0;
        for (int s = 0; s < SEEDS; s++) {
            gmax = gen_ns[s] > gmax ? gen_ns[s] : gmax;
            nmax = nodes[s] > nmax ? nodes[s] : nmax;
            smax = search[s] > smax ? search[s] : smax;
        }
        printf("%5d  %7.1f  %7.1f  %9lld  %9lld  %10lld  %17.3f  %9ld\n", level,
               (double)median(gen_ns, SEEDS) / 1e3, (double)gmax / 1e3,
               (long long)median(nodes, SEEDS), (long long)nmax, (long long)smax,
               (double)rejected / SEEDS, fallbacks);
    }
    /* Replay: the clean solution of level 14 seed s, toggles one second apart. */
    int64_t total = 0;
    int runs = 0;
    game_move moves[TS_MAX_CELLS];
    for (uint32_t s = 0; s < 200; s++) {
        game_generate(g, game_level_handle(level_buf), 1, 14, s);
        json_t *j = level_to_json(g, game_level_handle(level_buf));
        const json_t *sol = json_object_get(j, "solution");
        size_t n = 0;
        for (size_t r = 0; r < json_array_size(sol); r++)
            for (size_t c = 0; c < json_array_size(json_array_get(sol, r)); c++)
                if (json_integer_value(json_array_get(json_array_get(sol, r), c)) == 0) {
                    moves[n] = (game_move){ { (int32_t)(1000 * (n + 1)), (int32_t)(r * 7 + c) } };
                    n++;
                }
        json_decref(j);
        replay_report rep;
        int64_t t0 = now_ns();
        for (int k = 0; k < 100; k++)
            replay_run(g, game_level_handle(level_buf), game_state_handle(state_buf), moves, n,
                       NULL, &rep);
        total += now_ns() - t0;
        runs += 100;
        if (!rep.result.completed)
            printf("  replay did not complete at seed %u\n", (unsigned)s);
    }
    printf("replay (level 14 clean solution, without generation): %.2f us mean over %d runs\n",
           (double)total / runs / 1e3, runs);
}

static int64_t replay_ns[SEEDS];

static void bench_opposites(void)
{
    const game *g = &opposites_game;
    printf("opposites (version %d): %d seeds per level, times in us\n", g->version, SEEDS);
    printf("level  gen_med  gen_max  replay_med  replay_max\n");
    for (int level = 1; level <= 15; level++) {
        for (uint32_t s = 0; s < SEEDS; s++) {
            int64_t t0 = now_ns();
            game_generate(g, game_level_handle(level_buf), g->version, level, s);
            gen_ns[s] = now_ns() - t0;
            json_t *j = level_to_json(g, game_level_handle(level_buf));
            const json_t *ans = json_object_get(j, "answers");
            const json_t *at = json_object_get(j, "appear_ms");
            game_move moves[64];
            size_t n = json_array_size(ans);
            for (size_t i = 0; i < n && i < 64; i++)
                moves[i] = (game_move){ { (int32_t)json_integer_value(json_array_get(at, i)) + 400,
                                          (int32_t)json_integer_value(json_array_get(ans, i)) } };
            json_decref(j);
            replay_report rep;
            t0 = now_ns();
            replay_run(g, game_level_handle(level_buf), game_state_handle(state_buf), moves, n,
                       NULL, &rep);
            replay_ns[s] = now_ns() - t0;
            if (rep.rejected || !rep.result.completed)
                printf("  clean run failed at level %d seed %u\n", level, (unsigned)s);
        }
        int64_t gmax = 0, rmax = 0;
        for (int s = 0; s < SEEDS; s++) {
            gmax = gen_ns[s] > gmax ? gen_ns[s] : gmax;
            rmax = replay_ns[s] > rmax ? replay_ns[s] : rmax;
        }
        printf("%5d  %7.2f  %7.2f  %10.2f  %10.2f\n", level, (double)median(gen_ns, SEEDS) / 1e3,
               (double)gmax / 1e3, (double)median(replay_ns, SEEDS) / 1e3, (double)rmax / 1e3);
    }
}

int main(void)
{
    bench_target_sums();
    bench_opposites();
    return 0;
}
