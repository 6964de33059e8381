/*
 * bench_peer: the peer corpus of docs/BENCH.md through the C game code:
 * for each game, levels 1..15 x seeds 0..39, nanoseconds per generated
 * level and per replay of the typical full solution (median of 7 passes).
 * Prints one JSON line per game, the same shape vectors/port/bench.mjs
 * prints, so tests/bench/peer.sh can set them side by side.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "../../core/game.h"
#include "../../core/replay.h"
#include "../../server/base/json_game.h"
#include "solutions.h"

#define SEEDS 40
#define PASSES 7

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

typedef struct corpus_case {
    game_level *level;
    game_move moves[MAX_MOVES];
    int n;
} corpus_case;

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static void bench_game(const game *g)
{
    enum { N = 15 * SEEDS };
    corpus_case *cases = calloc(N, sizeof *cases);
    game_state *state = malloc(g->state_size);
    for (int k = 0; k < N; k++) {
        cases[k].level = malloc(g->level_size);
        game_generate(g, cases[k].level, g->version, k / SEEDS + 1, (uint32_t)(k % SEEDS));
        cases[k].n = typical(g, cases[k].level, cases[k].moves);
    }
    int64_t gen_pass[PASSES], rep_pass[PASSES];
    game_level *scratch = malloc(g->level_size);
    volatile int64_t sink = 0;
    for (int p = 0; p < PASSES; p++) {
        int64_t t0 = now_ns();
        for (int k = 0; k < N; k++)
            game_generate(g, scratch, g->version, k / SEEDS + 1, (uint32_t)(k % SEEDS));
        gen_pass[p] = (now_ns() - t0) / N;
        t0 = now_ns();
        for (int k = 0; k < N; k++) {
            replay_report rep;
            replay_run(g, cases[k].level, state, cases[k].moves, (size_t)cases[k].n, NULL, &rep);
            sink += rep.result.score;
        }
        rep_pass[p] = (now_ns() - t0) / N;
    }
    qsort(gen_pass, PASSES, sizeof gen_pass[0], cmp_i64);
    qsort(rep_pass, PASSES, sizeof rep_pass[0], cmp_i64);
    printf("{\"game\":\"%s\",\"gen_ns\":%lld,\"replay_ns\":%lld,\"levels\":%d}\n", g->name,
           (long long)gen_pass[PASSES / 2], (long long)rep_pass[PASSES / 2], N);
    for (int k = 0; k < N; k++)
        free(cases[k].level);
    free(cases);
    free(scratch);
    free(state);
    (void)sink;
}

int main(int argc, char **argv)
{
    for (size_t i = 0; i < game_catalog_count; i++) {
        const game *g = game_catalog[i];
        bool wanted = argc < 2;
        for (int a = 1; a < argc; a++)
            wanted = wanted || strcmp(argv[a], g->name) == 0;
        if (wanted)
            bench_game(g);
    }
    return 0;
}
