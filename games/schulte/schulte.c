/*
 * schulte: level table, generation (one shuffle of 1..N), and the tap rules
 * of both spec versions. Every rule here is written down in spec.md; change
 * both together and bump the version. Rules 1-4 (ended, range, time) are
 * core/timed.h's prologue. Version 2 adds the human floors: a tap gap that
 * depends on the cell, and a finish floor from the level's N numbers.
 */
#include "schulte.h"

#include <string.h>

#include "../../core/rng.h"
#include "../../core/timed.h"

#define MAX_SIDE 7
#define MAX_CELLS (MAX_SIDE * MAX_SIDE)
#define MISTAKE_LIMIT 5
#define V1_TAP_GAP_MS 100 /* version 1: one floor between two counted taps */

/* Version 2 floors (spec.md, "Human floors"). */
static const timed_gaps v2_tap_gaps = { 100, 150 }; /* same cell again, another cell */
#define V2_NUMBER_MS 200           /* finish floor per number, fixed grid */
#define V2_NUMBER_RESHUFFLED_MS 300 /* per number when every find reshuffles */

typedef struct level_row {
    int side;
    bool count_down;
    bool reshuffle;
    int32_t limit_ms;
} level_row;

/* Reasons for each row are in spec.md, "Level table". */
static const level_row level_table[15] = {
    { 3, false, false, 30000 },  { 3, true, false, 30000 },  { 4, false, false, 60000 },
    { 4, true, false, 60000 },   { 5, false, false, 90000 }, { 5, true, false, 90000 },
    { 4, false, true, 60000 },   { 6, false, false, 120000 }, { 6, true, false, 120000 },
    { 5, false, true, 100000 },  { 7, false, false, 150000 }, { 7, true, false, 150000 },
    { 6, true, true, 140000 },   { 7, false, true, 180000 }, { 7, true, true, 180000 },
};

typedef struct schulte_level {
    int version;
    int level_no;
    uint32_t seed;
    level_row row;
    int cells;
    int32_t grid[MAX_CELLS];
    uint32_t rng_after; /* stream state after generation, for reshuffles */
    int32_t finish_floor_ms; /* version 2: the earliest a run may complete */
} schulte_level;

typedef struct schulte_state {
    const schulte_level *level;
    int32_t grid[MAX_CELLS]; /* 0 marks a found cell */
    uint32_t rng;
    int32_t expected;
    int found;
    int mistakes;
    timed_clock clock; /* counted_t: the previous counted tap (found or mistake) */
    int32_t finish_t;
    bool completed;
} schulte_state;

GAME_HANDLES(schulte_level, schulte_state)

enum {
    O_FOUND,
    O_MISTAKE,
    O_ALREADY_FOUND,
    O_AFTER_END,
    O_CELL_OUT_OF_RANGE,
    O_TIME_BACKWARDS,
    O_TOO_FAST,
    O_FINISH_BELOW_FLOOR,
    O_COUNT
};

static const game_outcome outcomes[O_COUNT] = {
    [O_FOUND] = { "found", OUTCOME_APPLIED, false },
    [O_MISTAKE] = { "mistake", OUTCOME_APPLIED, true },
    [O_ALREADY_FOUND] = { "already_found", OUTCOME_IGNORED, false },
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

enum { X_FOUND, X_MISTAKES, X_FINISH_MS, X_COUNT };
static const char *const result_fields[X_COUNT] = { "found", "mistakes", "finish_ms" };

static void generate(game_level *out, int version, int level_no, uint32_t seed)
{
    schulte_level *lv = level_of(out);
    memset(lv, 0, sizeof *lv);
    lv->version = version;
    lv->level_no = level_no;
    lv->seed = seed;
    lv->row = level_table[level_no - 1];
    lv->cells = lv->row.side * lv->row.side;
    for (int i = 0; i < lv->cells; i++)
        lv->grid[i] = i + 1;
    uint32_t rng = seed;
    rng_shuffle_i32(&rng, lv->grid, (size_t)lv->cells);
    lv->rng_after = rng;
    lv->finish_floor_ms =
        lv->cells * (lv->row.reshuffle ? V2_NUMBER_RESHUFFLED_MS : V2_NUMBER_MS);
}

static void start(game_state *out, const game_level *level)
{
    schulte_state *st = state_of(out);
    const schulte_level *lv = level_view(level);
    memset(st, 0, sizeof *st);
    st->level = lv;
    memcpy(st->grid, lv->grid, sizeof st->grid);
    st->rng = lv->rng_after;
    st->expected = lv->row.count_down ? lv->cells : 1;
    st->finish_t = -1;
}

/* Permute the unfound numbers among the unfound cells (row-major order). */
static void reshuffle_remaining(schulte_state *st)
{
    int32_t cell_of[MAX_CELLS];
    int32_t values[MAX_CELLS];
    int n = 0;
    for (int i = 0; i < st->level->cells; i++) {
        if (st->grid[i] != 0) {
            cell_of[n] = i;
            values[n] = st->grid[i];
            n++;
        }
    }
    rng_shuffle_i32(&st->rng, values, (size_t)n);
    for (int k = 0; k < n; k++)
        st->grid[cell_of[k]] = values[k];
}

static const timed_outcomes prologue = { O_AFTER_END, O_CELL_OUT_OF_RANGE, O_TIME_BACKWARDS };

static int apply(game_state *state, const game_move *m)
{
    schulte_state *st = state_of(state);
    const schulte_level *lv = st->level;
    int32_t t = m->v[0];
    int32_t cell = m->v[1];

    int o = timed_prologue(&st->clock, &prologue, t, cell >= 0 && cell < lv->cells,
                           lv->row.limit_ms);
    if (o != TIMED_GO_ON)
        return o;
    if (st->grid[cell] == 0)
        return O_ALREADY_FOUND;
    bool slow_enough = lv->version == 1 ? timed_count(&st->clock, t, V1_TAP_GAP_MS)
                                        : timed_count_at(&st->clock, t, cell, &v2_tap_gaps);
    if (!slow_enough)
        return O_TOO_FAST;

    if (st->grid[cell] != st->expected) {
        st->mistakes++;
        if (st->mistakes >= MISTAKE_LIMIT)
            st->clock.ended = true;
        return O_MISTAKE;
    }
    if (lv->version >= 2 && st->found + 1 == lv->cells && t < lv->finish_floor_ms)
        return O_FINISH_BELOW_FLOOR;
    st->grid[cell] = 0;
    st->found++;
    st->expected += lv->row.count_down ? -1 : 1;
    if (st->found == lv->cells) {
        st->clock.ended = true;
        st->completed = true;
        st->finish_t = t;
    } else if (lv->row.reshuffle && lv->cells - st->found >= 2) {
        reshuffle_remaining(st);
    }
    return O_FOUND;
}

static void result(const game_state *state, game_result *out)
{
    const schulte_state *st = state_view(state);
    memset(out, 0, sizeof *out);
    out->completed = st->completed;
    if (st->completed) {
        int64_t bonus = (st->level->row.limit_ms - st->finish_t) / 100 - 10 * (int64_t)st->mistakes;
        out->score = 1000 + (bonus > 0 ? bonus : 0);
    } else {
        out->score = st->found;
    }
    out->duration_ms = st->clock.counted_t;
    out->extra[X_FOUND] = st->found;
    out->extra[X_MISTAKES] = st->mistakes;
    out->extra[X_FINISH_MS] = st->finish_t;
}

static void describe_level(const game_level *level, const game_writer *w)
{
    const schulte_level *lv = level_view(level);
    w->put_int(w->ctx, "size", lv->row.side);
    w->put_str(w->ctx, "order", lv->row.count_down ? "down" : "up");
    w->put_bool(w->ctx, "reshuffle", lv->row.reshuffle);
    w->put_int(w->ctx, "limit_ms", lv->row.limit_ms);
    w->put_int(w->ctx, "mistake_limit", MISTAKE_LIMIT);
    w->put_int_rows(w->ctx, "grid", lv->grid, lv->row.side, lv->row.side);
    if (lv->version >= 2)
        timed_put_floors(w, &v2_tap_gaps, lv->finish_floor_ms);
}

static int min_moves(const game_level *level)
{
    return level_view(level)->cells;
}

/* Review features (game.h): the tap gaps' floors and the finish floor. */
static int32_t move_slack_ms(const game_level *level, const game_move *prev, const game_move *move)
{
    return timed_slack(level_view(level)->version, V1_TAP_GAP_MS, &v2_tap_gaps, prev, move);
}

static int32_t finish_floor(const game_level *level)
{
    const schulte_level *lv = level_view(level);
    return lv->version >= 2 ? lv->finish_floor_ms : 0;
}

static void describe_state(const game_state *state, const game_writer *w)
{
    const schulte_state *st = state_view(state);
    int side = st->level->row.side;
    w->put_int_rows(w->ctx, "grid", st->grid, side, side);
    w->put_int(w->ctx, "next", st->found == st->level->cells ? 0 : st->expected);
}

const game schulte_game = {
    .name = "schulte",
    .version = 2,
    .min_version = 1,
    .levels = 15,
    .max_moves = 1000,
    .n_fields = 2,
    .fields = fields,
    .n_outcomes = O_COUNT,
    .outcomes = outcomes,
    .n_extras = X_COUNT,
    .result_fields = result_fields,
    .level_size = sizeof(schulte_level),
    .state_size = sizeof(schulte_state),
    .generate = generate,
    .start = start,
    .apply = apply,
    .result = result,
    .describe_level = describe_level,
    .describe_state = describe_state,
    .min_moves = min_moves,
    .move_slack_ms = move_slack_ms,
    .finish_floor_ms = finish_floor,
    .ignored_allowance = 5, /* spec.md, "Fair play" */
    .daily_seed = NULL,
};
