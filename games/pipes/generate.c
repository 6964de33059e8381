/*
 * generate: grow a random spanning tree from the source, keep it only if
 * countSolutions says exactly one, then turn every tile at random. The
 * draw order is the contract (spec.md, "Generation"); every draw counts,
 * skipped frontier edges included.
 */
#include <string.h>

#include "../../core/rng.h"
#include "board.h"

typedef struct edge {
    int8_t cell, dir, next;
} edge;

static void push_frontier(const pipes_topo *t, const bool *in_tree, int cell, edge *frontier, int *len)
{
    for (int d = 0; d < 4; d++) {
        int n = t->nb[cell][d];
        if (n < 0 || in_tree[n])
            continue;
        frontier[(*len)++] = (edge){ (int8_t)cell, (int8_t)d, (int8_t)n };
    }
}

static int openings(uint8_t m)
{
    return (m & 1) + ((m >> 1) & 1) + ((m >> 2) & 1) + ((m >> 3) & 1);
}

/* Returns false when the frontier ran dry before the tree spanned the
 * board (a rejected tree). */
static bool grow_tree(const pipes_topo *t, int max_openings, uint32_t *rng, uint8_t *tiles)
{
    bool in_tree[PIPES_MAX_CELLS] = { false };
    edge frontier[PIPES_MAX_CELLS * 4];
    int len = 0, size = 1;
    memset(tiles, 0, (size_t)t->n);
    in_tree[t->source] = true;
    push_frontier(t, in_tree, t->source, frontier, &len);
    while (size < t->n) {
        if (len == 0)
            return false;
        int i = (int)rng_below(rng, (uint32_t)len);
        edge e = frontier[i];
        frontier[i] = frontier[--len];
        if (in_tree[e.next] || openings(tiles[e.cell]) >= max_openings)
            continue;
        tiles[e.cell] |= (uint8_t)(1 << e.dir);
        tiles[e.next] |= (uint8_t)(1 << ((e.dir + 2) & 3));
        in_tree[e.next] = true;
        size++;
        push_frontier(t, in_tree, e.next, frontier, &len);
    }
    return true;
}

/* A boustrophedon path: always a spanning tree without four-way tiles. Used
 * only if tree_cap trees in a row failed to span, which never happens in
 * practice with the default cap but keeps the work bounded. */
static void snake_tree(const pipes_topo *t, uint8_t *tiles)
{
    memset(tiles, 0, (size_t)t->n);
    for (int i = 0; i + 1 < t->n; i++) {
        int r = i / t->w, k = i % t->w;
        int c = r * t->w + (r % 2 ? t->w - 1 - k : k);
        int d = k + 1 < t->w ? (r % 2 ? 3 : 1) : 2;
        int n = t->nb[c][d];
        tiles[c] |= (uint8_t)(1 << d);
        tiles[n] |= (uint8_t)(1 << ((d + 2) & 3));
    }
}

void pipes_generate_board(const pipes_topo *t, uint32_t seed, const pipes_limits *lim,
                          pipes_generated *out)
{
    uint32_t rng = seed;
    uint8_t last_spanned[PIPES_MAX_CELLS];
    int last_nodes = -1;
    memset(out, 0, sizeof *out);
    for (int tree = 0; tree < lim->tree_cap; tree++) {
        if (grow_tree(t, lim->max_openings, &rng, out->solution)) {
            pipes_count c = pipes_count_solutions(t, out->solution, lim->node_cap);
            if (c.solutions == 1 && !c.capped) {
                out->nodes = c.nodes;
                out->unique = true;
                break;
            }
            memcpy(last_spanned, out->solution, (size_t)t->n);
            last_nodes = c.nodes;
        }
        out->rejected++;
    }
    if (!out->unique) {
        /* Bounded fallback: keep the last spanning tree (not unique). */
        if (last_nodes >= 0) {
            memcpy(out->solution, last_spanned, (size_t)t->n);
            out->nodes = last_nodes;
        } else {
            snake_tree(t, out->solution);
        }
    }
    memcpy(out->start, out->solution, (size_t)t->n);
    do {
        for (int c = 0; c < t->n; c++) {
            uint32_t turns = rng_below(&rng, 4);
            for (uint32_t k = 0; k < turns; k++)
                out->start[c] = pipes_rotate(out->start[c]);
        }
    } while (pipes_solved(t, out->start));
}
