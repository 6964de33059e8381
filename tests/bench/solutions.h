/*
 * solutions: the typical full solution of each game (docs/BENCH.md), built
 * from the level's description, for the benchmarks. Outside any timed loop.
 */
#ifndef REPLAYD_BENCH_SOLUTIONS_H
#define REPLAYD_BENCH_SOLUTIONS_H

#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "../../core/game.h"
#include "../../server/base/json_game.h"

#define MAX_MOVES 512

static inline int json_int(const json_t *o, const char *k)
{
    return (int)json_integer_value(json_object_get(o, k));
}

/* Builds the typical full solution from the level's description (and, for
 * Schulte's reshuffles, from the board as it stands before each tap), paced
 * to pass every version's human floors. */
static inline int typical(const game *g, const game_level *level, game_move *out)
{
    json_t *d = level_to_json(g, level);
    int n = 0;
    size_t i, j;
    json_t *row, *v;
    if (strcmp(g->name, "schulte") == 0) {
        game_state *st = malloc(g->state_size);
        g->start(st, level);
        for (;;) {
            json_t *b = state_to_json(g, st);
            int next = json_int(b, "next"), cell = 0, at = -1;
            json_array_foreach(json_object_get(b, "grid"), i, row) json_array_foreach(row, j, v)
            {
                if (json_integer_value(v) == next)
                    at = cell;
                cell++;
            }
            json_decref(b);
            if (next == 0 || at < 0)
                break;
            out[n] = (game_move){ { 300 * (n + 1), at } };
            g->apply(st, &out[n++]);
        }
        free(st);
    } else if (strcmp(g->name, "pipes") == 0) {
        const json_t *sol = json_object_get(d, "solution");
        int cell = 0, t = 0;
        json_array_foreach(json_object_get(d, "start"), i, row) json_array_foreach(row, j, v)
        {
            int m = (int)json_integer_value(v);
            int want = (int)json_integer_value(json_array_get(json_array_get(sol, i), j));
            while (m != want) {
                m = ((m << 1) | (m >> 3)) & 15;
                out[n++] = (game_move){ { t += 300, cell } };
            }
            cell++;
        }
    } else if (strcmp(g->name, "target-sums") == 0) {
        int cell = 0;
        json_array_foreach(json_object_get(d, "solution"), i, row) json_array_foreach(row, j, v)
        {
            if (json_integer_value(v) == 0) {
                out[n] = (game_move){ { 500 * (n + 1), cell } };
                n++;
            }
            cell++;
        }
    } else if (strcmp(g->name, "opposites") == 0) {
        const json_t *appear = json_object_get(d, "appear_ms");
        json_array_foreach(json_object_get(d, "answers"), i, v)
            out[n++] = (game_move){ { (int32_t)json_integer_value(json_array_get(appear, i)) + 400,
                                      (int32_t)json_integer_value(v) } };
    } else {
        json_array_foreach(json_object_get(d, "plan"), i, v) {
            for (int f = 0; f < g->n_fields; f++)
                out[n].v[f] = json_int(v, g->fields[f].name);
            n++;
        }
    }
    json_decref(d);
    return n;
}

#endif
