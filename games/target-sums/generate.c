/*
 * generate: draw a candidate (every value, then every keep/remove choice),
 * keep it only if countSolutions says exactly one, otherwise draw the next
 * candidate from the same stream. The draw order is the contract (spec.md,
 * "Generation"); a pre-solved candidate still used its draws.
 */
#include <string.h>

#include "../../core/rng.h"
#include "board.h"

/* Returns the number of removed cells. */
static int draw_candidate(const ts_shape *s, uint32_t *rng, ts_grid *g, uint8_t *kept)
{
    uint32_t span = (uint32_t)(s->max_value - s->min_value + 1);
    int removed = 0;
    for (int i = 0; i < g->n; i++)
        g->value[i] = s->min_value + (int32_t)rng_below(rng, span);
    for (int i = 0; i < g->n; i++) {
        kept[i] = rng_below(rng, 100) < (uint32_t)s->keep_percent;
        removed += !kept[i];
    }
    return removed;
}

void ts_generate_board(const ts_shape *shape, uint32_t seed, const ts_limits *lim,
                       ts_generated *out)
{
    uint32_t rng = seed;
    ts_grid *g = &out->grid;
    memset(out, 0, sizeof *out);
    g->rows = shape->rows;
    g->cols = shape->cols;
    g->n = shape->rows * shape->cols;
    for (int k = 0; k < lim->candidate_cap; k++) {
        /* A candidate with nothing removed would start solved. */
        if (draw_candidate(shape, &rng, g, out->solution) > 0) {
            ts_set_targets(g, out->solution);
            ts_count c = ts_count_solutions(g, lim->node_cap);
            out->search_nodes += c.nodes;
            if (c.solutions == 1 && !c.capped) {
                out->nodes = c.nodes;
                return;
            }
        }
        out->rejected++;
    }
    /* Bounded fallback: the last values with only cell 0 removed. With
     * positive values every other line must keep all its cells, so this
     * board has exactly one solution. */
    out->fallback = true;
    memset(out->solution, 1, (size_t)g->n);
    out->solution[0] = 0;
    ts_set_targets(g, out->solution);
    out->nodes = ts_count_solutions(g, lim->node_cap).nodes;
    out->search_nodes += out->nodes;
}
