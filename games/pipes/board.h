/*
 * board: the Pipes grid topology, tile masks and the solved test, shared by
 * the rules (pipes.c), the solver and the generator (generate.c).
 * Masks: up 1, right 2, down 4, left 8. Direction d in 0..3 is bit 1 << d.
 */
#ifndef REPLAYD_GAMES_PIPES_BOARD_H
#define REPLAYD_GAMES_PIPES_BOARD_H

#include <stdbool.h>
#include <stdint.h>

#define PIPES_MAX_SIDE 7
#define PIPES_MAX_CELLS (PIPES_MAX_SIDE * PIPES_MAX_SIDE)
#define PIPES_NODE_CAP 20000 /* the default node_cap (spec.md, "Generation parameters") */
#define PIPES_TREE_CAP 200   /* the default tree_cap */
#define PIPES_MAX_OPENINGS 3 /* the default max_openings */

/* The generation step's limits: the defaults above, or a vector's values. */
typedef struct pipes_limits {
    int tree_cap; /* trees grown before the fallback */
    int node_cap; /* countSolutions calls before it gives up */
    int max_openings; /* a tree cell with this many openings grows no further */
} pipes_limits;

#define PIPES_LIMITS_DEFAULT ((pipes_limits){ PIPES_TREE_CAP, PIPES_NODE_CAP, PIPES_MAX_OPENINGS })

typedef struct pipes_topo {
    int w, h, n;
    bool wrap;
    int source;                      /* row h/2, column w/2 */
    int8_t nb[PIPES_MAX_CELLS][4];   /* neighbour per direction, -1 = border */
} pipes_topo;

void pipes_topo_init(pipes_topo *t, int w, int h, bool wrap);

/* One quarter turn clockwise. */
static inline uint8_t pipes_rotate(uint8_t m)
{
    return (uint8_t)(((m << 1) | (m >> 3)) & 15);
}

/* Every opening meets an opening back and every tile is reachable from the
 * source through matched openings. */
bool pipes_solved(const pipes_topo *t, const uint8_t *tiles);

typedef struct pipes_count {
    int solutions; /* 0, 1 or 2 (2 means "two or more") */
    int nodes;     /* search calls, root included */
    bool capped;   /* stopped at the node cap: the answer is unknown */
} pipes_count;

/* countSolutions: how many ways the tiles can be turned into a solved
 * board, stopping at the second solution or after node_cap nodes. */
pipes_count pipes_count_solutions(const pipes_topo *t, const uint8_t *tiles, int node_cap);

typedef struct pipes_generated {
    uint8_t solution[PIPES_MAX_CELLS];
    uint8_t start[PIPES_MAX_CELLS];
    int nodes;     /* search nodes of the accepted tree */
    int rejected;  /* trees dropped before it */
    bool unique;   /* false only for the tree-cap fallback */
} pipes_generated;

void pipes_generate_board(const pipes_topo *t, uint32_t seed, const pipes_limits *lim,
                          pipes_generated *out);

#endif
