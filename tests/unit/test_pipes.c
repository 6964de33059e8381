/*
 * test_pipes: generation over every level and seeds 0..1999 (unique, not
 * solved at the start), checked against an independent brute-force counter
 * on the small levels, the published search figures, and the move rules.
 */
#include "../check.h"

#include <stdlib.h>

#include "../../core/replay.h"
#include "../../games/pipes/board.h"
#include "../../games/pipes/pipes.h"

#define SEEDS 2000

/* Brute force: try every rotation of every cell in index order, pruning
 * only on openings toward the border or toward an already placed
 * neighbour that does not open back, then test the full board with
 * pipes_solved. Shares nothing with the solver but the solved test. */
static int brute_count(const pipes_topo *t, const uint8_t *tiles, uint8_t *cur, int cell)
{
    if (cell == t->n)
        return pipes_solved(t, cur) ? 1 : 0;
    int count = 0;
    uint8_t m = tiles[cell];
    uint8_t tried[4];
    int n_tried = 0;
    for (int r = 0; r < 4; r++, m = pipes_rotate(m)) {
        bool dup = false;
        for (int k = 0; k < n_tried; k++)
            dup = dup || tried[k] == m;
        if (dup)
            continue;
        tried[n_tried++] = m;
        bool ok = true;
        for (int d = 0; d < 4 && ok; d++) {
            int nb = t->nb[cell][d];
            bool open = m & (1 << d);
            if (nb < 0)
                ok = !open;
            else if (nb < cell)
                ok = open == ((cur[nb] >> ((d + 2) & 3)) & 1);
        }
        if (!ok)
            continue;
        cur[cell] = m;
        count += brute_count(t, tiles, cur, cell + 1);
    }
    return count;
}

/* Through the game interface: no level starts solved. */
static void every_level_unsolved_at_start(void)
{
    game_level *level = malloc(pipes_game.level_size);
    game_state *state = malloc(pipes_game.state_size);
    for (int lv = 1; lv <= 15; lv++) {
        for (uint32_t seed = 0; seed < SEEDS; seed++) {
            CHECK_EQ(game_generate(&pipes_game, level, 1, lv, seed), GEN_OK);
            game_move none[1];
            replay_report rep;
            replay_run(&pipes_game, level, state, none, 0, NULL, &rep);
            CHECK(!rep.result.completed);
        }
    }
    free(level);
    free(state);
}

/* Rebuild a board through the public generator and check it directly. */
static void boards_unique_by_brute_force(void)
{
    static const struct { int side; bool wrap; } small[] = { { 3, false }, { 4, false }, { 3, true }, { 4, true } };
    for (size_t k = 0; k < sizeof small / sizeof small[0]; k++) {
        pipes_topo t;
        pipes_topo_init(&t, small[k].side, small[k].side, small[k].wrap);
        for (uint32_t seed = 0; seed < SEEDS; seed++) {
            pipes_generated g;
            pipes_generate_board(&t, seed, &PIPES_LIMITS_DEFAULT, &g);
            uint8_t cur[PIPES_MAX_CELLS];
            CHECK(g.unique);
            CHECK_EQ(brute_count(&t, g.start, cur, 0), 1);
            CHECK(!pipes_solved(&t, g.start));
            CHECK(pipes_solved(&t, g.solution));
        }
    }
}

static void larger_boards_unique_by_solver(void)
{
    for (int side = 5; side <= 7; side++) {
        for (int wrap = 0; wrap <= 1; wrap++) {
            pipes_topo t;
            pipes_topo_init(&t, side, side, wrap);
            for (uint32_t seed = 0; seed < SEEDS; seed++) {
                pipes_generated g;
                pipes_generate_board(&t, seed, &PIPES_LIMITS_DEFAULT, &g);
                CHECK(g.unique);
                CHECK(!pipes_solved(&t, g.start));
                pipes_count c = pipes_count_solutions(&t, g.start, PIPES_NODE_CAP);
                CHECK(c.solutions == 1 && !c.capped);
                CHECK_EQ(c.nodes, g.nodes);
            }
        }
    }
}

/* notes/pipes.md: 4x4 wrapping seeds 0..999 reject 2.24 trees per board, at
 * most 21, longest accepted search 77 nodes (seed 160); 7x7 wrapping seeds
 * 0..1999: longest accepted search 927 nodes (seed 143), 0.554 rejected. */
static void published_search_figures(void)
{
    pipes_topo t;
    pipes_generated g;
    int rejected = 0, most = 0, longest = 0;
    uint32_t longest_seed = 0;
    pipes_topo_init(&t, 4, 4, true);
    for (uint32_t seed = 0; seed < 1000; seed++) {
        pipes_generate_board(&t, seed, &PIPES_LIMITS_DEFAULT, &g);
        rejected += g.rejected;
        if (g.rejected > most)
            most = g.rejected;
        if (g.nodes > longest) {
            longest = g.nodes;
            longest_seed = seed;
        }
    }
    CHECK_EQ(rejected, 2240);
    CHECK_EQ(most, 21);
    CHECK_EQ(longest, 77);
    CHECK_EQ(longest_seed, 160);
    rejected = longest = 0;
    pipes_topo_init(&t, 7, 7, true);
    for (uint32_t seed = 0; seed < 2000; seed++) {
        pipes_generate_board(&t, seed, &PIPES_LIMITS_DEFAULT, &g);
        rejected += g.rejected;
        if (g.nodes > longest) {
            longest = g.nodes;
            longest_seed = seed;
        }
    }
    CHECK_EQ(longest, 927);
    CHECK_EQ(longest_seed, 143);
    CHECK_EQ(rejected, 1108); /* 0.554 per board */
}

static void solver_counts_small_cases(void)
{
    pipes_topo t;
    pipes_topo_init(&t, 3, 3, false);
    /* A straight line of straights through the middle row cannot be one
     * network on 3x3: the other cells are dead ends with no partner. */
    uint8_t bad[9] = { 5, 5, 5, 5, 5, 5, 5, 5, 5 };
    pipes_count c = pipes_count_solutions(&t, bad, PIPES_NODE_CAP);
    CHECK_EQ(c.solutions, 0);
    CHECK(c.nodes >= 1);
    uint8_t cur[9];
    CHECK_EQ(brute_count(&t, bad, cur, 0), 0);
}

static void rotate_is_clockwise(void)
{
    CHECK_EQ(pipes_rotate(1), 2);
    CHECK_EQ(pipes_rotate(2), 4);
    CHECK_EQ(pipes_rotate(4), 8);
    CHECK_EQ(pipes_rotate(8), 1);
    CHECK_EQ(pipes_rotate(5), 10);
    CHECK_EQ(pipes_rotate(13), 11);
}

static void bad_level_and_version(void)
{
    game_level *level = malloc(pipes_game.level_size);
    CHECK_EQ(game_generate(&pipes_game, level, 1, 0, 1), GEN_BAD_LEVEL);
    CHECK_EQ(game_generate(&pipes_game, level, 1, 16, 1), GEN_BAD_LEVEL);
    CHECK_EQ(game_generate(&pipes_game, level, 2, 1, 1), GEN_OK);
    CHECK_EQ(game_generate(&pipes_game, level, 3, 1, 1), GEN_BAD_VERSION);
    CHECK_EQ(game_generate(&pipes_game, level, 0, 1, 1), GEN_BAD_VERSION);
    free(level);
}

int main(void)
{
    RUN(rotate_is_clockwise);
    RUN(solver_counts_small_cases);
    RUN(bad_level_and_version);
    RUN(every_level_unsolved_at_start);
    RUN(boards_unique_by_brute_force);
    RUN(larger_boards_unique_by_solver);
    RUN(published_search_figures);
    CHECK_DONE();
}
