/*
 * bench_contraption: simulations and ticks per second, time to generate a
 * level (median and worst, every sweep included) and the share of levels
 * that needed the fallback, per level over seeds 0..SEEDS-1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "../../games/contraption/level.h"
#include "../../games/contraption/contraption.h"

#define SEEDS 500

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(void)
{
    const game *g = &contraption_game;
    static ct_level lv;
    static double times[SEEDS], all[15 * SEEDS];
    long fallbacks_total = 0, sims_total = 0, attempts_total = 0;
    printf("contraption: generation over seeds 0..%d per level (all gates and sweeps)\n",
           SEEDS - 1);
    printf("  level  median_ms  worst_ms  mean_sims  mean_attempts  fallback\n");
    for (int level = 1; level <= 15; level++) {
        int fallbacks = 0;
        long sims = 0, attempts = 0;
        for (int s = 0; s < SEEDS; s++) {
            double t0 = now_s();
            game_generate(g, game_level_handle(&lv), 1, level, (uint32_t)s);
            times[s] = (now_s() - t0) * 1e3;
            all[(level - 1) * SEEDS + s] = times[s];
            fallbacks += lv.fallback;
            sims += lv.sims;
            attempts += lv.attempts;
        }
        qsort(times, SEEDS, sizeof times[0], cmp_double);
        printf("  %5d  %9.3f  %8.3f  %9.1f  %13.2f  %7.1f%%\n", level, times[SEEDS / 2],
               times[SEEDS - 1], (double)sims / SEEDS, (double)attempts / SEEDS,
               100.0 * fallbacks / SEEDS);
        fallbacks_total += fallbacks;
        sims_total += sims;
        attempts_total += attempts;
    }
    qsort(all, 15 * SEEDS, sizeof all[0], cmp_double);
    printf("  all    %9.3f  %8.3f  %9.1f  %13.2f  %7.1f%%\n", all[15 * SEEDS / 2],
           all[15 * SEEDS - 1], (double)sims_total / (15 * SEEDS),
           (double)attempts_total / (15 * SEEDS), 100.0 * fallbacks_total / (15 * SEEDS));

    /* Raw simulate(): the sweep's own placements on a fixed set of levels. */
    long sims = 0, ticks = 0;
    double t0 = now_s(), elapsed;
    do {
        for (int level = 1; level <= 15; level++) {
            game_generate(g, game_level_handle(&lv), 1, level, 7);
            for (int32_t x = CT_SWEEP_X0; x <= CT_SWEEP_X1; x += CT_SWEEP_DX)
                for (int32_t y = CT_SWEEP_Y0; y <= CT_SWEEP_Y1; y += CT_SWEEP_DY)
                    for (int a = 0; a < 4; a++) {
                        ct_part p;
                        if (ct_check_placement(&lv, lv.inventory, NULL, 0, CT_RAMP, x, y,
                                               ct_sweep_angles[a], &p) != CT_PLACED)
                            continue;
                        ct_run run;
                        ct_simulate(&lv.field, &p, 1, NULL, 0, &run);
                        sims++;
                        ticks += run.ticks;
                    }
        }
        elapsed = now_s() - t0;
    } while (elapsed < 2.0);
    printf("contraption: simulate() %.0f sims/s, %.2f M ticks/s, %.1f ticks/sim (cap %d)\n",
           (double)sims / elapsed, (double)ticks / elapsed / 1e6, (double)ticks / (double)sims,
           CT_TICK_CAP);
    return 0;
}
