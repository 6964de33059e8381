/*
 * bench_levels: per level of Schulte and Pipes, the time to generate a level
 * and to replay its typical full solution (median and worst over seeds), and
 * for Pipes the solver's nodes (median, max) and trees rejected per kept
 * board over seeds 0..1999, beside Simon Tatham's Net for scale.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../core/replay.h"
#include "solutions.h"

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

static void bench_game(const char *name)
{
    const game *g = game_find(name);
    bool pipes = strcmp(name, "pipes") == 0;
    static int64_t gen_ns[SEEDS], rep_ns[SEEDS], nodes[SEEDS];
    game_level *level = malloc(g->level_size);
    game_state *state = malloc(g->state_size);
    game_move *moves = malloc(MAX_MOVES * sizeof *moves);
    printf("\n== %s: per level over seeds 0..%d (us; a max far above the median is the\n"
           "   shared machine preempting us, not the work) ==\n", name, SEEDS - 1);
    printf("level %-8s | %9s %9s %9s | %9s %9s %6s", "board", "gen mean", "gen med", "gen max", "rep med",
           "rep max", "moves");
    if (pipes)
        printf(" | %6s %6s %9s", "nodes", "max", "rej/board");
    printf("\n");
    for (int lv = 1; lv <= g->levels; lv++) {
        int64_t rejected = 0, total_moves = 0, gen_total = 0;
        json_t *d = NULL;
        for (uint32_t s = 0; s < SEEDS; s++) {
            int64_t t0 = now_ns();
            game_generate(g, level, g->version, lv, s);
            gen_ns[s] = now_ns() - t0;
            gen_total += gen_ns[s];
            int n = typical(g, level, moves);
            total_moves += n;
            replay_report rep;
            t0 = now_ns();
            replay_run(g, level, state, moves, (size_t)n, NULL, &rep);
            rep_ns[s] = now_ns() - t0;
            if (!rep.result.completed)
                fprintf(stderr, "bench_levels: %s level %d seed %u: the typical solution did not complete\n", name, lv, s);
            if (pipes || s == 0) {
                json_decref(d);
                d = level_to_json(g, level);
                nodes[s] = json_integer_value(json_object_get(d, "nodes"));
                rejected += json_integer_value(json_object_get(d, "rejected"));
            }
        }
        char board[16];
        int side = (int)json_integer_value(json_object_get(d, pipes ? "width" : "size"));
        snprintf(board, sizeof board, "%dx%d%s", side, side,
                 json_is_true(json_object_get(d, "wrap")) ? " wrap" : "");
        json_decref(d);
        qsort(gen_ns, SEEDS, sizeof gen_ns[0], cmp_i64);
        qsort(rep_ns, SEEDS, sizeof rep_ns[0], cmp_i64);
        printf("%5d %-8s | %9.2f %9.2f %9.2f | %9.2f %9.2f %6.1f", lv, board, (double)gen_total / SEEDS / 1e3,
               gen_ns[SEEDS / 2] / 1e3,
               gen_ns[SEEDS - 1] / 1e3, rep_ns[SEEDS / 2] / 1e3, rep_ns[SEEDS - 1] / 1e3,
               (double)total_moves / SEEDS);
        if (pipes) {
            qsort(nodes, SEEDS, sizeof nodes[0], cmp_i64);
            printf(" | %6lld %6lld %9.3f", (long long)nodes[SEEDS / 2], (long long)nodes[SEEDS - 1],
                   (double)rejected / SEEDS);
        }
        printf("\n");
    }
    if (pipes)
        printf("for scale: Simon Tatham's Net makes a unique 7x7 wrapping board in ~130-170 us on\n"
               "average and replays a full 7x7 solution move by move in ~90 us on such a machine\n");
    free(level);
    free(state);
    free(moves);
}

int main(void)
{
    bench_game("schulte");
    bench_game("pipes");
    return 0;
}
