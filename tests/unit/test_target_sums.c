/*
 * Unit tests for games/target-sums: the uniqueness sweep (every level,
 * seeds 0..1999) against two counters written here independently of
 * board.c, the toggle rules, scoring, and vectors/target-sums.json.
 *
 * The full sweep runs in every build: about 7 s in release and 20 s under
 * ASan on the shared machine.
 */
#include "../check.h"

#include <jansson.h>
#include <stdlib.h>

#include "../../core/replay.h"
#include "../../core/rng.h"
#include "../../games/target-sums/board.h"
#include "../../games/target-sums/target_sums.h"
#include "../../server/base/json_game.h"

#define SWEEP_SEEDS 2000
#define BRUTE_MAX_CELLS 16 /* 2^16 patterns per board at most */

static const game *G = &target_sums_game;

/* The level struct is private to target_sums.c; read it back through gen's
 * description so the tests see what a client sees. */
typedef struct board_view {
    int rows, cols, n;
    int32_t value[TS_MAX_CELLS];
    int32_t row_target[TS_MAX_SIDE], col_target[TS_MAX_SIDE];
    uint8_t solution[TS_MAX_CELLS];
    int nodes;
    bool fallback;
} board_view;

static void read_int_rows(const json_t *arr, int32_t *out, int *rows, int *cols)
{
    *rows = (int)json_array_size(arr);
    *cols = 0;
    for (size_t r = 0; r < json_array_size(arr); r++) {
        const json_t *row = json_array_get(arr, r);
        if (!json_is_array(row)) {
            out[r] = (int32_t)json_integer_value(row);
            continue;
        }
        *cols = (int)json_array_size(row);
        for (size_t c = 0; c < json_array_size(row); c++)
            out[r * (size_t)*cols + c] = (int32_t)json_integer_value(json_array_get(row, c));
    }
}

static bool view_level(int level_no, uint32_t seed, board_view *b)
{
    static unsigned char level[1 << 14];
    if (G->level_size > sizeof level ||
        game_generate(G, game_level_handle(level), 1, level_no, seed) != GEN_OK)
        return false;
    json_t *j = level_to_json(G, game_level_handle(level));
    int32_t sol[TS_MAX_CELLS];
    int r, c;
    memset(b, 0, sizeof *b);
    read_int_rows(json_object_get(j, "grid"), b->value, &b->rows, &b->cols);
    b->n = b->rows * b->cols;
    read_int_rows(json_object_get(j, "row_targets"), b->row_target, &r, &c);
    read_int_rows(json_object_get(j, "col_targets"), b->col_target, &r, &c);
    read_int_rows(json_object_get(j, "solution"), sol, &r, &c);
    for (int i = 0; i < b->n; i++)
        b->solution[i] = (uint8_t)sol[i];
    b->nodes = (int)json_integer_value(json_object_get(j, "nodes"));
    b->fallback = json_is_true(json_object_get(j, "fallback"));
    json_decref(j);
    return true;
}

static bool lines_meet(const board_view *b, const uint8_t *kept)
{
    for (int r = 0; r < b->rows; r++) {
        int32_t s = 0;
        for (int c = 0; c < b->cols; c++)
            s += kept[r * b->cols + c] ? b->value[r * b->cols + c] : 0;
        if (s != b->row_target[r])
            return false;
    }
    for (int c = 0; c < b->cols; c++) {
        int32_t s = 0;
        for (int r = 0; r < b->rows; r++)
            s += kept[r * b->cols + c] ? b->value[r * b->cols + c] : 0;
        if (s != b->col_target[c])
            return false;
    }
    return true;
}

/* Independent counter 1: every one of the 2^n patterns, no pruning. */
static int brute_force_count(const board_view *b, uint32_t *found)
{
    int count = 0;
    uint8_t kept[TS_MAX_CELLS];
    for (uint32_t mask = 0; mask < (1u << b->n); mask++) {
        for (int i = 0; i < b->n; i++)
            kept[i] = (uint8_t)((mask >> i) & 1u);
        if (lines_meet(b, kept)) {
            count++;
            *found = mask;
        }
    }
    return count;
}

/* Independent counter 2: row by row over the subsets of each row that hit
 * the row target, checking columns only as an upper bound and at the end.
 * Counts every solution (no early stop below `limit`). */
typedef struct rows_ctx {
    const board_view *b;
    uint32_t options[TS_MAX_SIDE][1 << TS_MAX_SIDE];
    int n_options[TS_MAX_SIDE];
    int32_t col[TS_MAX_SIDE];
    int count;
} rows_ctx;

static void rows_search(rows_ctx *x, int r)
{
    const board_view *b = x->b;
    if (x->count >= 10)
        return;
    if (r == b->rows) {
        for (int c = 0; c < b->cols; c++)
            if (x->col[c] != b->col_target[c])
                return;
        x->count++;
        return;
    }
    for (int k = 0; k < x->n_options[r]; k++) {
        uint32_t m = x->options[r][k];
        bool over = false;
        for (int c = 0; c < b->cols; c++) {
            if (m >> c & 1u)
                x->col[c] += b->value[r * b->cols + c];
            over |= x->col[c] > b->col_target[c];
        }
        if (!over)
            rows_search(x, r + 1);
        for (int c = 0; c < b->cols; c++)
            if (m >> c & 1u)
                x->col[c] -= b->value[r * b->cols + c];
    }
}

static int rows_count(const board_view *b)
{
    static rows_ctx x;
    memset(&x, 0, sizeof x);
    x.b = b;
    for (int r = 0; r < b->rows; r++) {
        for (uint32_t m = 0; m < (1u << b->cols); m++) {
            int32_t s = 0;
            for (int c = 0; c < b->cols; c++)
                if (m >> c & 1u)
                    s += b->value[r * b->cols + c];
            if (s == b->row_target[r])
                x.options[r][x.n_options[r]++] = m;
        }
    }
    rows_search(&x, 0);
    return x.count;
}

static void view_to_grid(const board_view *b, ts_grid *g)
{
    memset(g, 0, sizeof *g);
    g->rows = b->rows;
    g->cols = b->cols;
    g->n = b->n;
    memcpy(g->value, b->value, sizeof g->value);
    memcpy(g->row_target, b->row_target, sizeof g->row_target);
    memcpy(g->col_target, b->col_target, sizeof g->col_target);
}

/* The sweep: every level, seeds 0..1999, exactly one solution. */
static void sweep_unique_every_level(void)
{
    int brute_boards = 0, fallbacks = 0;
    for (int level = 1; level <= 15; level++) {
        for (uint32_t seed = 0; seed < SWEEP_SEEDS; seed++) {
            board_view b;
            CHECK(view_level(level, seed, &b));
            CHECK(lines_meet(&b, b.solution));
            ts_grid g;
            view_to_grid(&b, &g);
            ts_count own = ts_count_solutions(&g, TS_NODE_CAP);
            CHECK_EQ(own.solutions, 1);
            CHECK(!own.capped);
            CHECK_EQ(own.nodes, b.nodes);
            CHECK_EQ(rows_count(&b), 1);
            fallbacks += b.fallback;
            if (b.n <= BRUTE_MAX_CELLS) {
                uint32_t mask = 0;
                CHECK_EQ(brute_force_count(&b, &mask), 1);
                for (int i = 0; i < b.n; i++)
                    CHECK_EQ((mask >> i) & 1u, b.solution[i]);
                brute_boards++;
            }
            if (check_failed_) {
                printf("  at level %d seed %u\n", level, (unsigned)seed);
                return;
            }
        }
    }
    CHECK_EQ(brute_boards, 5 * SWEEP_SEEDS); /* levels 1..5 are small */
    CHECK_EQ(fallbacks, 0);
}

/* The counters must be able to say "two": a hand board with two answers. */
static void counters_see_two_solutions(void)
{
    /* 1 1 / 1 1 with targets 1,1 / 1,1: both diagonals work. */
    board_view b = { .rows = 2, .cols = 2, .n = 4, .value = { 1, 1, 1, 1 },
                     .row_target = { 1, 1 }, .col_target = { 1, 1 } };
    uint32_t mask;
    CHECK_EQ(brute_force_count(&b, &mask), 2);
    CHECK_EQ(rows_count(&b), 2);
    ts_grid g;
    view_to_grid(&b, &g);
    ts_count c = ts_count_solutions(&g, TS_NODE_CAP);
    CHECK_EQ(c.solutions, 2);
    CHECK(!c.capped);
    /* Unsatisfiable targets: zero. */
    g.row_target[0] = 5;
    CHECK_EQ(ts_count_solutions(&g, TS_NODE_CAP).solutions, 0);
}

/* The fallback shape (only cell 0 removed) has exactly one solution. */
static void fallback_shape_is_unique(void)
{
    uint32_t rng = 7;
    for (int k = 0; k < 50; k++) {
        ts_grid g;
        uint8_t kept[TS_MAX_CELLS];
        memset(&g, 0, sizeof g);
        g.rows = 3 + k % 3;
        g.cols = 3 + k % 2;
        g.n = g.rows * g.cols;
        for (int i = 0; i < g.n; i++) {
            rng = rng * 1103515245u + 12345u;
            g.value[i] = 1 + (int32_t)((rng >> 16) % 9);
            kept[i] = i != 0;
        }
        ts_set_targets(&g, kept);
        CHECK_EQ(ts_count_solutions(&g, TS_NODE_CAP).solutions, 1);
    }
}

/* The fallback path itself: a shape that keeps every cell makes every
 * candidate pre-solved, so all 500 are rejected. */
static void fallback_path_after_candidate_cap(void)
{
    ts_shape shape = { 3, 4, 1, 9, 100 };
    ts_generated out;
    ts_generate_board(&shape, 5, &TS_LIMITS_DEFAULT, &out);
    CHECK(out.fallback);
    CHECK_EQ(out.rejected, TS_CANDIDATE_CAP);
    /* The values are those of the last candidate drawn. */
    uint32_t rng = 5;
    int32_t last[12];
    for (int k = 0; k < TS_CANDIDATE_CAP; k++) {
        for (int i = 0; i < 12; i++)
            last[i] = 1 + (int32_t)rng_below(&rng, 9);
        for (int i = 0; i < 12; i++)
            (void)rng_below(&rng, 100);
    }
    board_view b = { .rows = 3, .cols = 4, .n = 12 };
    for (int i = 0; i < 12; i++) {
        CHECK_EQ(out.grid.value[i], last[i]);
        CHECK_EQ(out.solution[i], i != 0);
        b.value[i] = out.grid.value[i];
    }
    memcpy(b.row_target, out.grid.row_target, sizeof b.row_target);
    memcpy(b.col_target, out.grid.col_target, sizeof b.col_target);
    uint32_t mask = 0;
    CHECK_EQ(brute_force_count(&b, &mask), 1);
    CHECK_EQ(mask, 0xffeu);
    CHECK_EQ(out.search_nodes, out.nodes); /* pre-solved candidates are never counted */
}

typedef struct run {
    unsigned char level[1 << 14];
    unsigned char state[1 << 14];
    replay_report rep;
    int outcomes[64];
} run;

static run R;

static void play(int level_no, uint32_t seed, const game_move *moves, size_t n)
{
    game_level *lv = game_level_handle(R.level);
    CHECK(game_generate(G, lv, 1, level_no, seed) == GEN_OK);
    replay_run(G, lv, game_state_handle(R.state), moves, n, R.outcomes, &R.rep);
}

static int out_code(const char *code)
{
    return game_outcome_index(G, code);
}

static void clean_solution_scores(void)
{
    board_view b;
    CHECK(view_level(3, 5, &b));
    game_move moves[TS_MAX_CELLS];
    size_t n = 0;
    for (int i = 0; i < b.n; i++)
        if (!b.solution[i]) {
            moves[n] = (game_move){ { (int32_t)(1000 * (n + 1)), i } };
            n++;
        }
    play(3, 5, moves, n);
    CHECK(!R.rep.rejected);
    CHECK(R.rep.result.completed);
    int32_t finish = (int32_t)(1000 * n);
    CHECK_EQ(R.rep.result.score, 1000 + (90000 - finish) / 100);
    CHECK_EQ(R.rep.result.duration_ms, finish);
    CHECK_EQ(R.rep.result.extra[0], (int64_t)n);
    CHECK_EQ(R.rep.result.extra[1], (int64_t)n);
    CHECK_EQ(R.rep.result.extra[2], finish);
    for (size_t i = 0; i < n; i++)
        CHECK_EQ(R.outcomes[i], out_code("removed"));
}

static void wasted_toggles_cost_and_end_is_ignored(void)
{
    board_view b;
    CHECK(view_level(2, 9, &b));
    game_move moves[TS_MAX_CELLS + 4];
    size_t n = 0;
    int first = -1;
    for (int i = 0; i < b.n; i++)
        if (!b.solution[i] && first < 0)
            first = i;
    /* Remove a kept cell of the solution and put it back: two wasted. */
    int keeper = 0;
    while (!b.solution[keeper])
        keeper++;
    moves[n++] = (game_move){ { 500, keeper } };
    moves[n++] = (game_move){ { 700, keeper } };
    for (int i = 0; i < b.n; i++)
        if (!b.solution[i]) {
            moves[n] = (game_move){ { (int32_t)(1000 * n), i } };
            n++;
        }
    int32_t finish = moves[n - 1].v[0];
    moves[n++] = (game_move){ { finish + 10, first } }; /* after the end */
    play(2, 9, moves, n);
    CHECK(!R.rep.rejected);
    CHECK(R.rep.result.completed);
    CHECK_EQ(R.outcomes[0], out_code("removed"));
    CHECK_EQ(R.outcomes[1], out_code("restored"));
    CHECK_EQ(R.outcomes[n - 1], out_code("after_end"));
    CHECK_EQ(R.rep.ignored, 1);
    CHECK_EQ(R.rep.result.score, 1000 + (60000 - finish) / 100 - 5 * 2);
}

static void rejections_and_timeout(void)
{
    game_move fast[2] = { { { 300, 0 } }, { { 399, 1 } } };
    play(1, 0, fast, 2);
    CHECK(R.rep.rejected);
    CHECK_EQ(R.rep.rejected_move, 1);
    CHECK_EQ(R.rep.rejected_outcome, out_code("too_fast"));

    game_move first_fast[1] = { { { 99, 0 } } };
    play(1, 0, first_fast, 1);
    CHECK(R.rep.rejected && R.rep.rejected_outcome == out_code("too_fast"));

    game_move back[2] = { { { 500, 0 } }, { { 400, 1 } } };
    play(1, 0, back, 2);
    CHECK(R.rep.rejected && R.rep.rejected_move == 1);
    CHECK_EQ(R.rep.rejected_outcome, out_code("time_backwards"));

    game_move range[1] = { { { 500, 9 } } };
    play(1, 0, range, 1);
    CHECK(R.rep.rejected && R.rep.rejected_outcome == out_code("cell_out_of_range"));

    /* A toggle after the limit ends the run: not completed, score 0. */
    game_move late[3] = { { { 500, 1 } }, { { 60001, 6 } }, { { 60002, 6 } } };
    play(1, 0, late, 3);
    CHECK(!R.rep.rejected);
    CHECK(!R.rep.result.completed);
    CHECK_EQ(R.rep.result.score, 0);
    CHECK_EQ(R.rep.result.duration_ms, 500);
    CHECK_EQ(R.outcomes[1], out_code("after_end"));
    CHECK_EQ(R.outcomes[2], out_code("after_end"));
    CHECK_EQ(R.rep.ignored, 2);
}

static void version_and_level_bounds(void)
{
    game_level *lv = game_level_handle(R.level);
    CHECK(game_generate(G, lv, 2, 1, 0) == GEN_OK);
    CHECK(game_generate(G, lv, 3, 1, 0) == GEN_BAD_VERSION);
    CHECK(game_generate(G, lv, 0, 1, 0) == GEN_BAD_VERSION);
    CHECK(game_generate(G, lv, 1, 0, 0) == GEN_BAD_LEVEL);
    CHECK(game_generate(G, lv, 1, 16, 0) == GEN_BAD_LEVEL);
    CHECK(G->level_size <= sizeof R.level && G->state_size <= sizeof R.state);
}

/* ---- vectors/target-sums.json (until the generic runner lands) ---- */

/* Every case of the vector file runs in tests/unit/test_vectors.c. */

int main(void)
{
    RUN(counters_see_two_solutions);
    RUN(fallback_shape_is_unique);
    RUN(fallback_path_after_candidate_cap);
    RUN(sweep_unique_every_level);
    RUN(clean_solution_scores);
    RUN(wasted_toggles_cost_and_end_is_ignored);
    RUN(rejections_and_timeout);
    RUN(version_and_level_bounds);
    CHECK_DONE();
}
