/*
 * Driftlings bench: solver expansions and time on the devlog's four cases
 * (printed beside the TypeScript figures), candidates per second and the
 * acceptance rate, level rebuild time per level (median, worst), and the
 * crowd simulation's ticks per second. Single-threaded, release build.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../core/replay.h"
#include "../../games/driftlings/driftlings.h"
#include "../../games/driftlings/generate.h"
#include "../../games/driftlings/solver.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* A hand-made two-band level: a basher wall, a climb, a dig. */
static const char *const hand_rows[] = {
    "........#...............", ".E......#...............", "........#...............",
    "........#......=........", "........#......=........", "........#......=........",
    "=====================#==", "........................", "........................",
    "........................", "........................", "........................",
    ".X......................", "========================",
};
/* The same level with the exit walled in. */
static const char *const sealed_rows[] = {
    "........#...............", ".E......#...............", "........#...............",
    "........#......=........", "........#......=........", "........#......=........",
    "=====================#==", "........................", "........................",
    "........................", "........................", "===.....................",
    ".X=.....................", "========================",
};

static dl_level lv;
static dl_state st;

static void time_solver(const char *name, const int inv[DL_SKILLS], const char *devlog)
{
    dl_solution s;
    double t[15];
    for (int r = 0; r < 15; r++) {
        double t0 = now_ms();
        dl_solve(&lv.map, inv, lv.cap, &DL_LIMITS_DEFAULT, false, &s);
        t[r] = now_ms() - t0;
    }
    qsort(t, 15, sizeof t[0], cmp_double);
    printf("  %-42s %-10s %7d exp  %8.3f ms   | devlog (TS): %s\n", name,
           s.solved ? "solved" : s.capped ? "capped" : "unsolvable", s.expansions, t[7], devlog);
}

static void solver_case(const char *name, const char *const *rows, int n_rows, int each,
                        const char *devlog)
{
    int inv[DL_SKILLS] = { each, each, 0, each, each };
    if (!driftlings_level_from_ascii(&lv, rows, n_rows, 1, 1, 1, 2000, inv)) {
        printf("bad level %s\n", name);
        exit(1);
    }
    time_solver(name, inv, devlog);
}

/* A generated top-size level with steel boxed round its exit: the search
 * must exhaust everything reachable. */
static void sealed_generated_case(int extra, const char *devlog)
{
    char name[64];
    int inv[DL_SKILLS];
    game_generate(&driftlings_game, game_level_handle(&lv), 1, 15, 0);
    dl_map *m = &lv.map;
    for (int dy = -1; dy <= 0; dy++)
        for (int dx = -1; dx <= 1; dx++)
            if (dx || dy)
                if (m->xx + dx >= 0 && m->xx + dx < m->w)
                    m->cell[(m->xy + dy) * m->w + m->xx + dx] = DL_STEEL;
    for (int k = 0; k < DL_SKILLS; k++)
        inv[k] = k == DL_BLOCKER ? 0 : lv.needs[k] + extra;
    snprintf(name, sizeof name, "level 15 seed 0 sealed, its needs + %d each", extra);
    time_solver(name, inv, devlog);
}

/* 40x40 of earth under a strip of air, the exit boxed in steel, ten of each
 * skill: the carved sets explode and the search stops at the node cap. */
static void capped_case(void)
{
    static char pic[40][41];
    const char *rows[40];
    for (int y = 0; y < 40; y++) {
        memset(pic[y], y < 3 ? '.' : '#', 40);
        pic[y][40] = '\0';
        rows[y] = pic[y];
    }
    pic[1][1] = 'E';
    memcpy(&pic[37][30], "===", 3);
    memcpy(&pic[38][30], "=X=", 3);
    memcpy(&pic[39][30], "===", 3);
    int inv[DL_SKILLS] = { 10, 10, 0, 10, 10 };
    if (!driftlings_level_from_ascii(&lv, rows, 40, 1, 1, 1, 1216, inv))
        exit(1);
    time_solver("40x40 earth, exit sealed, 10 of each", inv, "(node cap: one search's bound)");
}

static void solver_figures(void)
{
    char corridor[4][121];
    const char *crow[4];
    for (int y = 0; y < 4; y++) {
        memset(corridor[y], y == 3 ? '=' : '.', 120);
        corridor[y][120] = '\0';
        crow[y] = corridor[y];
    }
    corridor[0][0] = 'E';
    corridor[2][118] = 'X';
    printf("solver (one walker, uniform cost; median of 15 runs)\n");
    solver_case("hand-made level, solvable, 1 of each", hand_rows, 14, 1, "398 exp / 4 ms");
    solver_case("hand-made level, solvable, 4 of each", hand_rows, 14, 4, "398 exp / 4 ms");
    solver_case("flat corridor, width 120, 1 of each", crow, 4, 1, "123 exp / 1 ms");
    solver_case("unsolvable (sealed exit), 1 of each", sealed_rows, 14, 1, "7,738 exp / 15 ms");
    solver_case("unsolvable (sealed exit), 3 of each", sealed_rows, 14, 3, "26,580 exp / 33 ms");
    sealed_generated_case(0, "(no devlog figure)");
    sealed_generated_case(2, "(no devlog figure)");
    capped_case();
}

static void generation_figures(void)
{
    enum { SEEDS = 200 };
    static double t[SEEDS];
    long long cand_all = 0, levels_all = 0, fallback_all = 0;
    long long rej_all[DL_GATES] = { 0 };
    double ms_all = 0;
    printf("\nlevel rebuild (generate from (level, seed); seeds 0..%d)\n", SEEDS - 1);
    printf("  lvl  W x Hmax demands  median ms  worst ms  cand/level  accepted  fallbacks"
           "  max exp\n");
    for (int l = 1; l <= DL_LEVELS; l++) {
        long long cand = 0, fb = 0, max_exp = 0;
        int max_h = 0;
        for (int s = 0; s < SEEDS; s++) {
            double t0 = now_ms();
            game_generate(&driftlings_game, game_level_handle(&lv), 1, l, (uint32_t)s);
            t[s] = now_ms() - t0;
            ms_all += t[s];
            cand += lv.metrics.candidates;
            fb += lv.metrics.fallback;
            if (lv.map.h > max_h)
                max_h = lv.map.h;
            if (lv.metrics.expansions > max_exp)
                max_exp = lv.metrics.expansions;
            for (int g = 0; g < DL_GATES; g++)
                rej_all[g] += lv.rejected[g];
        }
        qsort(t, SEEDS, sizeof t[0], cmp_double);
        printf("  %3d  %2dx%-3d  %7d  %9.3f  %8.3f  %10.2f  %7.0f%%  %9lld  %7lld\n", l, lv.map.w,
               max_h, dl_level_table[l - 1].demands, t[SEEDS / 2], t[SEEDS - 1],
               (double)cand / SEEDS, 100.0 * (double)(SEEDS - fb) / (double)cand, fb, max_exp);
        cand_all += cand;
        levels_all += SEEDS;
        fallback_all += fb;
    }
    printf("  all: %lld candidates in %.0f ms = %.0f candidates/s; %lld accepted (%.0f%%), %lld "
           "fallbacks\n",
           cand_all, ms_all, (double)cand_all * 1000.0 / ms_all, levels_all - fallback_all,
           100.0 * (double)(levels_all - fallback_all) / (double)cand_all, fallback_all);
    printf("  rejected by gate: unsolvable %lld, slack %lld, shortcut %lld, thin %lld, "
           "back_loaded %lld, crowd %lld\n",
           rej_all[0], rej_all[1], rej_all[2], rej_all[3], rej_all[4], rej_all[5]);
    printf("  devlog (TS, one thread): ~20 ms per candidate, 65%% accepted (corridor), ~25%% "
           "(serpentine); 40x44 ~315 ms avg, ~680 ms worst\n");
}

static void crowd_figures(void)
{
    enum { LEVELS = 16 };
    static dl_level pack[LEVELS];
    for (int i = 0; i < LEVELS; i++)
        game_generate(&driftlings_game, game_level_handle(&pack[i]), 1, 15, (uint32_t)i);
    long long ticks = 0, steps = 0;
    int runs = 0;
    double t0 = now_ms();
    while (now_ms() - t0 < 1000) {
        const dl_level *p = &pack[runs % LEVELS];
        game_state *h = game_state_handle(&st);
        driftlings_game.start(h, game_level_const_handle(p));
        /* The plan, then run to the end: the whole replay a submission costs. */
        for (int i = 0; i < p->n_plan; i++)
            driftlings_game.apply(h, &p->plan[i]);
        game_result r;
        driftlings_game.result(h, &r);
        ticks += r.extra[4];
        steps += r.extra[4] * p->crowd;
        runs++;
    }
    double ms = now_ms() - t0;
    printf("\ncrowd simulation (level 15 plans, crowd %d, full replay to the end)\n",
           pack[0].crowd);
    printf("  %d replays, %lld ticks in %.0f ms: %.0f ticks/s (%.0f walker-steps/s), %.4f ms per "
           "replay\n",
           runs, ticks, ms, (double)ticks * 1000.0 / ms, (double)steps * 1000.0 / ms,
           ms / runs);
}

int main(void)
{
    printf("== driftlings bench ==\n");
    solver_figures();
    generation_figures();
    crowd_figures();
    return 0;
}
