/*
 * target-sums: the level table and the toggle rules of both spec versions.
 * Generation and the solution counter live in generate.c and board.c. Every
 * rule here is in spec.md; rules 1-4 (ended, range, time) are
 * core/timed.h's prologue. Version 2 adds the human floors: a gap that
 * depends on the cell, and a finish floor from the level's min_toggles.
 */
#include "target_sums.h"

#include <string.h>

#include "../../core/timed.h"
#include "board.h"

#define V1_TOGGLE_GAP_MS 100  /* version 1: one floor between two toggles */
#define WASTED_TOGGLE_PENALTY 5 /* deciseconds of bonus per extra toggle */

/* Version 2 floors (spec.md, "Human floors"). */
static const timed_gaps v2_toggle_gaps = { 100, 150 }; /* same cell again, another cell */
#define V2_TOGGLE_MS 500 /* finish floor per toggle the solution needs */

typedef struct level_row {
    ts_shape shape;
    int32_t limit_ms;
} level_row;

/* Reasons for each row are in spec.md, "Level table". */
static const level_row level_table[15] = {
    { { 3, 3, 1, 5, 70 }, 60000 },   { { 3, 3, 1, 9, 60 }, 60000 },
    { { 4, 3, 1, 9, 60 }, 90000 },   { { 4, 4, 1, 9, 65 }, 90000 },
    { { 4, 4, 1, 9, 50 }, 120000 },  { { 5, 4, 1, 9, 55 }, 150000 },
    { { 5, 5, 1, 9, 60 }, 180000 },  { { 5, 5, 1, 9, 50 }, 210000 },
    { { 6, 5, 1, 9, 55 }, 240000 },  { { 6, 6, 1, 9, 60 }, 270000 },
    { { 6, 6, 1, 9, 50 }, 300000 },  { { 7, 6, 1, 9, 55 }, 330000 },
    { { 7, 7, 1, 9, 60 }, 360000 },  { { 7, 7, 1, 9, 50 }, 420000 },
    { { 7, 7, 1, 19, 50 }, 480000 },
};

typedef struct ts_level {
    int version;
    int level_no;
    uint32_t seed;
    level_row row;
    ts_generated board;
    int min_toggles; /* removed cells of the solution: the player starts all kept */
    int32_t finish_floor_ms; /* version 2: the earliest a run may complete */
} ts_level;

typedef struct ts_state {
    const ts_level *level;
    uint8_t kept[TS_MAX_CELLS];
    timed_clock clock; /* counted_t: the previous toggle */
    int32_t finish_t;
    int toggles;
    int32_t row_sum[TS_MAX_SIDE]; /* sums of kept cells, kept up to date */
    int32_t col_sum[TS_MAX_SIDE];
    int lines_off;                /* rows and columns not at their target */
    bool completed;
} ts_state;

GAME_HANDLES(ts_level, ts_state)

enum {
    O_REMOVED,
    O_RESTORED,
    O_AFTER_END,
    O_CELL_OUT_OF_RANGE,
    O_TIME_BACKWARDS,
    O_TOO_FAST,
    O_FINISH_BELOW_FLOOR,
    O_COUNT
};

static const game_outcome outcomes[O_COUNT] = {
    [O_REMOVED] = { "removed", OUTCOME_APPLIED, false },
    [O_RESTORED] = { "restored", OUTCOME_APPLIED, false },
    [O_AFTER_END] = { "after_end", OUTCOME_IGNORED, false },
    [O_CELL_OUT_OF_RANGE] = { "cell_out_of_range", OUTCOME_REJECTED, false },
    [O_TIME_BACKWARDS] = { "time_backwards", OUTCOME_REJECTED, false },
    [O_TOO_FAST] = { "too_fast", OUTCOME_REJECTED, false },
    [O_FINISH_BELOW_FLOOR] = { "finish_below_floor", OUTCOME_REJECTED, false },
};

static const game_field fields[2] = {
    { "t", 0, INT32_MAX, 0 },
    { "cell", 0, INT32_MAX, 0 },
};

enum { X_TOGGLES, X_MIN_TOGGLES, X_FINISH_MS, X_COUNT };
static const char *const result_fields[X_COUNT] = { "toggles", "min_toggles", "finish_ms" };

/* spec.md, "Generation parameters": the vectors' way to reach the fallback. */
enum { P_CANDIDATE_CAP, P_NODE_CAP, P_COUNT };
static const game_param params[P_COUNT] = {
    [P_CANDIDATE_CAP] = { "candidate_cap", 1, TS_CANDIDATE_CAP },
    [P_NODE_CAP] = { "node_cap", 1, TS_NODE_CAP },
};

static void generate_with(game_level *out, int version, int level_no, uint32_t seed,
                          const game_params *p)
{
    ts_level *lv = level_of(out);
    ts_limits lim = { game_param_or(p, P_CANDIDATE_CAP, TS_CANDIDATE_CAP),
                      game_param_or(p, P_NODE_CAP, TS_NODE_CAP) };
    memset(lv, 0, sizeof *lv);
    lv->version = version;
    lv->level_no = level_no;
    lv->seed = seed;
    lv->row = level_table[level_no - 1];
    ts_generate_board(&lv->row.shape, seed, &lim, &lv->board);
    for (int i = 0; i < lv->board.grid.n; i++)
        lv->min_toggles += !lv->board.solution[i];
    lv->finish_floor_ms = V2_TOGGLE_MS * lv->min_toggles;
}

static void generate(game_level *out, int version, int level_no, uint32_t seed)
{
    generate_with(out, version, level_no, seed, NULL);
}

static void start(game_state *out, const game_level *level)
{
    ts_state *st = state_of(out);
    const ts_level *lv = level_view(level);
    memset(st, 0, sizeof *st);
    st->level = lv;
    const ts_grid *g = &lv->board.grid;
    memset(st->kept, 1, (size_t)g->n);
    st->finish_t = -1;
    for (int i = 0; i < g->n; i++) {
        st->row_sum[i / g->cols] += g->value[i];
        st->col_sum[i % g->cols] += g->value[i];
    }
    for (int r = 0; r < g->rows; r++)
        st->lines_off += st->row_sum[r] != g->row_target[r];
    for (int c = 0; c < g->cols; c++)
        st->lines_off += st->col_sum[c] != g->col_target[c];
}

/* Moves a line's sum by delta and keeps the count of lines off target. */
static void shift_line(int32_t *sum, int32_t target, int32_t delta, int *lines_off)
{
    *lines_off -= *sum != target;
    *sum += delta;
    *lines_off += *sum != target;
}

static const timed_outcomes prologue = { O_AFTER_END, O_CELL_OUT_OF_RANGE, O_TIME_BACKWARDS };

static int apply(game_state *state, const game_move *m)
{
    ts_state *st = state_of(state);
    const ts_level *lv = st->level;
    int32_t t = m->v[0];
    int32_t cell = m->v[1];

    int o = timed_prologue(&st->clock, &prologue, t, cell >= 0 && cell < lv->board.grid.n,
                           lv->row.limit_ms);
    if (o != TIMED_GO_ON)
        return o;
    bool slow_enough = lv->version == 1 ? timed_count(&st->clock, t, V1_TOGGLE_GAP_MS)
                                        : timed_count_at(&st->clock, t, cell, &v2_toggle_gaps);
    if (!slow_enough)
        return O_TOO_FAST;
    const ts_grid *g = &lv->board.grid;
    st->kept[cell] = !st->kept[cell];
    int32_t delta = st->kept[cell] ? g->value[cell] : -g->value[cell];
    shift_line(&st->row_sum[cell / g->cols], g->row_target[cell / g->cols], delta, &st->lines_off);
    shift_line(&st->col_sum[cell % g->cols], g->col_target[cell % g->cols], delta, &st->lines_off);
    st->toggles++;
    if (st->lines_off == 0) {
        if (lv->version >= 2 && t < lv->finish_floor_ms)
            return O_FINISH_BELOW_FLOOR;
        st->clock.ended = true;
        st->completed = true;
        st->finish_t = t;
    }
    return st->kept[cell] ? O_RESTORED : O_REMOVED;
}

static void result(const game_state *state, game_result *out)
{
    const ts_state *st = state_view(state);
    const ts_level *lv = st->level;
    memset(out, 0, sizeof *out);
    out->completed = st->completed;
    if (st->completed) {
        int64_t wasted = st->toggles - lv->min_toggles;
        int64_t bonus = (lv->row.limit_ms - st->finish_t) / 100 - WASTED_TOGGLE_PENALTY * wasted;
        out->score = 1000 + (bonus > 0 ? bonus : 0);
    }
    out->duration_ms = st->clock.counted_t;
    out->extra[X_TOGGLES] = st->toggles;
    out->extra[X_MIN_TOGGLES] = lv->min_toggles;
    out->extra[X_FINISH_MS] = st->finish_t;
}

static void put_cells(const game_writer *w, const char *key, const uint8_t *cells, const ts_grid *g)
{
    int32_t v[TS_MAX_CELLS];
    for (int i = 0; i < g->n; i++)
        v[i] = cells[i];
    w->put_int_rows(w->ctx, key, v, g->rows, g->cols);
}

static void describe_level(const game_level *level, const game_writer *w)
{
    const ts_level *lv = level_view(level);
    const ts_grid *g = &lv->board.grid;
    w->put_int(w->ctx, "rows", g->rows);
    w->put_int(w->ctx, "cols", g->cols);
    w->put_int(w->ctx, "min_value", lv->row.shape.min_value);
    w->put_int(w->ctx, "max_value", lv->row.shape.max_value);
    w->put_int(w->ctx, "keep_percent", lv->row.shape.keep_percent);
    w->put_int(w->ctx, "limit_ms", lv->row.limit_ms);
    w->put_int_rows(w->ctx, "grid", g->value, g->rows, g->cols);
    w->put_int_rows(w->ctx, "row_targets", g->row_target, g->rows, 0);
    w->put_int_rows(w->ctx, "col_targets", g->col_target, g->cols, 0);
    put_cells(w, "solution", lv->board.solution, g);
    w->put_int(w->ctx, "nodes", lv->board.nodes);
    w->put_int(w->ctx, "search_nodes", lv->board.search_nodes);
    w->put_int(w->ctx, "rejected", lv->board.rejected);
    w->put_bool(w->ctx, "fallback", lv->board.fallback);
    w->put_int(w->ctx, "min_toggles", lv->min_toggles);
    if (lv->version >= 2)
        timed_put_floors(w, &v2_toggle_gaps, lv->finish_floor_ms);
}

static int min_moves(const game_level *level)
{
    return level_view(level)->min_toggles;
}

/* Review features (game.h): the tap gaps' floors and the finish floor. */
static int32_t move_slack_ms(const game_level *level, const game_move *prev, const game_move *move)
{
    return timed_slack(level_view(level)->version, V1_TOGGLE_GAP_MS, &v2_toggle_gaps, prev, move);
}

static int32_t finish_floor(const game_level *level)
{
    const ts_level *lv = level_view(level);
    return lv->version >= 2 ? lv->finish_floor_ms : 0;
}

static void describe_state(const game_state *state, const game_writer *w)
{
    const ts_state *st = state_view(state);
    const ts_grid *g = &st->level->board.grid;
    int32_t rs[TS_MAX_SIDE] = { 0 }, cs[TS_MAX_SIDE] = { 0 };
    for (int i = 0; i < g->n; i++) {
        if (!st->kept[i])
            continue;
        rs[i / g->cols] += g->value[i];
        cs[i % g->cols] += g->value[i];
    }
    put_cells(w, "kept", st->kept, g);
    w->put_int_rows(w->ctx, "row_sums", rs, g->rows, 0);
    w->put_int_rows(w->ctx, "col_sums", cs, g->cols, 0);
}

const game target_sums_game = {
    .name = "target-sums",
    .version = 2,
    .min_version = 1,
    .levels = 15,
    .max_moves = 2000,
    .n_fields = 2,
    .fields = fields,
    .n_outcomes = O_COUNT,
    .outcomes = outcomes,
    .n_extras = X_COUNT,
    .result_fields = result_fields,
    .level_size = sizeof(ts_level),
    .state_size = sizeof(ts_state),
    .generate = generate,
    .start = start,
    .apply = apply,
    .result = result,
    .describe_level = describe_level,
    .describe_state = describe_state,
    .min_moves = min_moves,
    .move_slack_ms = move_slack_ms,
    .finish_floor_ms = finish_floor,
    .ignored_allowance = 3, /* spec.md, "Fair play" */
    .daily_seed = NULL,
    .n_params = P_COUNT,
    .params = params,
    .generate_with = generate_with,
};
