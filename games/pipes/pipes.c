/*
 * pipes: the level table and the rotation rules of both spec versions.
 * Generation and the solver live in generate.c and board.c. Every rule here
 * is in spec.md; rules 1-4 (ended, range, time) are core/timed.h's
 * prologue. Version 2 adds the human floors: a gap that depends on the
 * tile, and a finish floor from the level's min_turns and tiles to turn.
 */
#include "pipes.h"

#include <string.h>

#include "../../core/timed.h"
#include "board.h"

#define V1_ROTATION_GAP_MS 50 /* version 1: one floor between two rotations */
#define WASTED_TURN_PENALTY 5  /* deciseconds of bonus per extra quarter turn */

/* Version 2 floors (spec.md, "Human floors"). */
static const timed_gaps v2_turn_gaps = { 100, 150 }; /* same tile again, another tile */
#define V2_TILE_MS 300 /* finish floor per tile that needs turning */
#define V2_REPEAT_MS 100 /* per further quarter turn of such a tile */

typedef struct level_row {
    int side;
    bool wrap;
    int32_t limit_ms;
} level_row;

/* Reasons for each row are in spec.md, "Level table". */
static const level_row level_table[15] = {
    { 3, false, 60000 },  { 4, false, 90000 },  { 4, false, 75000 },  { 5, false, 120000 },
    { 5, false, 100000 }, { 6, false, 150000 }, { 3, true, 60000 },   { 6, false, 130000 },
    { 7, false, 180000 }, { 7, false, 160000 }, { 4, true, 120000 },  { 5, true, 180000 },
    { 6, true, 240000 },  { 6, true, 210000 },  { 7, true, 300000 },
};

typedef struct pipes_level {
    int version;
    int level_no;
    uint32_t seed;
    level_row row;
    pipes_topo topo;
    pipes_generated board;
    int min_turns; /* quarter turns from start to solution, tile by tile */
    int tiles_to_turn; /* tiles whose start is not their solution */
    int32_t finish_floor_ms; /* version 2: the earliest a run may complete */
} pipes_level;

typedef struct pipes_state {
    const pipes_level *level;
    uint8_t tiles[PIPES_MAX_CELLS];
    timed_clock clock; /* counted_t: the previous turn */
    int32_t finish_t;
    int turns;
    bool completed;
} pipes_state;

GAME_HANDLES(pipes_level, pipes_state)

enum {
    O_ROTATED,
    O_AFTER_END,
    O_CELL_OUT_OF_RANGE,
    O_TIME_BACKWARDS,
    O_TOO_FAST,
    O_FINISH_BELOW_FLOOR,
    O_COUNT
};

static const game_outcome outcomes[O_COUNT] = {
    [O_ROTATED] = { "rotated", OUTCOME_APPLIED, false },
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

enum { X_TURNS, X_MIN_TURNS, X_FINISH_MS, X_COUNT };
static const char *const result_fields[X_COUNT] = { "turns", "min_turns", "finish_ms" };

static int turns_between(uint8_t from, uint8_t to)
{
    for (int k = 0; k < 4; k++) {
        if (from == to)
            return k;
        from = pipes_rotate(from);
    }
    return 0; /* unreachable for tiles of the same shape */
}

/* spec.md, "Generation parameters": the vectors' way to reach the fallback. */
enum { P_TREE_CAP, P_NODE_CAP, P_MAX_OPENINGS, P_COUNT };
static const game_param params[P_COUNT] = {
    [P_TREE_CAP] = { "tree_cap", 1, PIPES_TREE_CAP },
    [P_NODE_CAP] = { "node_cap", 1, PIPES_NODE_CAP },
    [P_MAX_OPENINGS] = { "max_openings", 1, PIPES_MAX_OPENINGS },
};

static void generate_with(game_level *out, int version, int level_no, uint32_t seed,
                          const game_params *p)
{
    pipes_level *lv = level_of(out);
    pipes_limits lim = { game_param_or(p, P_TREE_CAP, PIPES_TREE_CAP),
                         game_param_or(p, P_NODE_CAP, PIPES_NODE_CAP),
                         game_param_or(p, P_MAX_OPENINGS, PIPES_MAX_OPENINGS) };
    memset(lv, 0, sizeof *lv);
    lv->version = version;
    lv->level_no = level_no;
    lv->seed = seed;
    lv->row = level_table[level_no - 1];
    pipes_topo_init(&lv->topo, lv->row.side, lv->row.side, lv->row.wrap);
    pipes_generate_board(&lv->topo, seed, &lim, &lv->board);
    for (int c = 0; c < lv->topo.n; c++) {
        int k = turns_between(lv->board.start[c], lv->board.solution[c]);
        lv->min_turns += k;
        lv->tiles_to_turn += k > 0;
    }
    lv->finish_floor_ms =
        V2_TILE_MS * lv->tiles_to_turn + V2_REPEAT_MS * (lv->min_turns - lv->tiles_to_turn);
}

static void generate(game_level *out, int version, int level_no, uint32_t seed)
{
    generate_with(out, version, level_no, seed, NULL);
}

static void start(game_state *out, const game_level *level)
{
    pipes_state *st = state_of(out);
    const pipes_level *lv = level_view(level);
    memset(st, 0, sizeof *st);
    st->level = lv;
    memcpy(st->tiles, lv->board.start, sizeof st->tiles);
    st->finish_t = -1;
}

static const timed_outcomes prologue = { O_AFTER_END, O_CELL_OUT_OF_RANGE, O_TIME_BACKWARDS };

static int apply(game_state *state, const game_move *m)
{
    pipes_state *st = state_of(state);
    const pipes_level *lv = st->level;
    int32_t t = m->v[0];
    int32_t cell = m->v[1];

    int o = timed_prologue(&st->clock, &prologue, t, cell >= 0 && cell < lv->topo.n,
                           lv->row.limit_ms);
    if (o != TIMED_GO_ON)
        return o;
    bool slow_enough = lv->version == 1 ? timed_count(&st->clock, t, V1_ROTATION_GAP_MS)
                                        : timed_count_at(&st->clock, t, cell, &v2_turn_gaps);
    if (!slow_enough)
        return O_TOO_FAST;
    st->tiles[cell] = pipes_rotate(st->tiles[cell]);
    st->turns++;
    if (pipes_solved(&lv->topo, st->tiles)) {
        if (lv->version >= 2 && t < lv->finish_floor_ms)
            return O_FINISH_BELOW_FLOOR;
        st->clock.ended = true;
        st->completed = true;
        st->finish_t = t;
    }
    return O_ROTATED;
}

static void result(const game_state *state, game_result *out)
{
    const pipes_state *st = state_view(state);
    const pipes_level *lv = st->level;
    memset(out, 0, sizeof *out);
    out->completed = st->completed;
    if (st->completed) {
        int64_t wasted = st->turns > lv->min_turns ? st->turns - lv->min_turns : 0;
        int64_t bonus = (lv->row.limit_ms - st->finish_t) / 100 - WASTED_TURN_PENALTY * wasted;
        out->score = 1000 + (bonus > 0 ? bonus : 0);
    }
    out->duration_ms = st->clock.counted_t;
    out->extra[X_TURNS] = st->turns;
    out->extra[X_MIN_TURNS] = lv->min_turns;
    out->extra[X_FINISH_MS] = st->finish_t;
}

static void put_tiles(const game_writer *w, const char *key, const uint8_t *tiles, int side)
{
    int32_t v[PIPES_MAX_CELLS];
    for (int i = 0; i < side * side; i++)
        v[i] = tiles[i];
    w->put_int_rows(w->ctx, key, v, side, side);
}

static void describe_level(const game_level *level, const game_writer *w)
{
    const pipes_level *lv = level_view(level);
    int side = lv->row.side;
    w->put_int(w->ctx, "width", side);
    w->put_int(w->ctx, "height", side);
    w->put_bool(w->ctx, "wrap", lv->row.wrap);
    w->put_int(w->ctx, "source", lv->topo.source);
    w->put_int(w->ctx, "limit_ms", lv->row.limit_ms);
    put_tiles(w, "start", lv->board.start, side);
    put_tiles(w, "solution", lv->board.solution, side);
    w->put_int(w->ctx, "nodes", lv->board.nodes);
    w->put_int(w->ctx, "rejected", lv->board.rejected);
    w->put_bool(w->ctx, "unique", lv->board.unique);
    w->put_int(w->ctx, "min_turns", lv->min_turns);
    if (lv->version >= 2) {
        w->put_int(w->ctx, "tiles_to_turn", lv->tiles_to_turn);
        timed_put_floors(w, &v2_turn_gaps, lv->finish_floor_ms);
    }
}

static int min_moves(const game_level *level)
{
    return level_view(level)->min_turns;
}

/* Review features (game.h): the tap gaps' floors and the finish floor. */
static int32_t move_slack_ms(const game_level *level, const game_move *prev, const game_move *move)
{
    return timed_slack(level_view(level)->version, V1_ROTATION_GAP_MS, &v2_turn_gaps, prev, move);
}

static int32_t finish_floor(const game_level *level)
{
    const pipes_level *lv = level_view(level);
    return lv->version >= 2 ? lv->finish_floor_ms : 0;
}

static void describe_state(const game_state *state, const game_writer *w)
{
    const pipes_state *st = state_view(state);
    put_tiles(w, "tiles", st->tiles, st->level->row.side);
}

const game pipes_game = {
    .name = "pipes",
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
    .level_size = sizeof(pipes_level),
    .state_size = sizeof(pipes_state),
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
