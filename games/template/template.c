/*
 * template: a level table, generation from the seed, the move rules, the
 * result and the two descriptions: every part of core/game.h a game fills,
 * at its smallest. One cell of a row of cells hides the prize; tap cells
 * until you find it. Every rule is written down in spec.md; change both
 * together and bump the version.
 *
 * To start a game from this file: make new-game NAME=yourgame (it copies
 * this folder, renames template to yourgame and adds the catalogue row).
 */
#include "template.h"

#include <string.h>

#include "../../core/rng.h"
#include "../../core/timed.h"

#define LEVELS 15
#define MAX_CELLS (LEVELS + 3)
#define MISS_PENALTY 10 /* points per miss (spec.md, "Scoring") */
#define PLAN_T 1000      /* when the plan taps the prize */

typedef struct level_row {
    int cells;
    int32_t limit_ms;
} level_row;

/* spec.md, "Level table": a row per level; a real game writes its table
 * out, each row with its reason. */
static level_row level_row_of(int level_no)
{
    level_row r = { level_no + 3, 10000 + 2000 * (level_no - 1) };
    return r;
}

/* The level: plain bytes, everything start() and describe_level need. */
typedef struct template_level {
    int version;
    int level_no;
    uint32_t seed;
    level_row row;
    int32_t prize; /* the hidden cell */
} template_level;

/* The play state: plain bytes; start() sets every byte apply() reads. */
typedef struct template_state {
    const template_level *level;
    int32_t cell[MAX_CELLS]; /* 0 untouched, 1 missed, 2 the prize found */
    int misses;
    timed_clock clock;
    bool completed;
} template_state;

GAME_HANDLES(template_level, template_state)

/* Outcomes: the stable codes of vectors and API reasons. */
enum { O_HIT, O_MISS, O_AGAIN, O_AFTER_END, O_CELL_OUT_OF_RANGE, O_TIME_BACKWARDS, O_COUNT };

static const game_outcome outcomes[O_COUNT] = {
    [O_HIT] = { "hit", OUTCOME_APPLIED, false },
    [O_MISS] = { "miss", OUTCOME_APPLIED, true },
    [O_AGAIN] = { "again", OUTCOME_IGNORED, false },
    [O_AFTER_END] = { "after_end", OUTCOME_IGNORED, false },
    [O_CELL_OUT_OF_RANGE] = { "cell_out_of_range", OUTCOME_REJECTED, false },
    [O_TIME_BACKWARDS] = { "time_backwards", OUTCOME_REJECTED, false },
};

/* Move fields: the decoder refuses values outside [min, max]. */
static const game_field fields[2] = {
    { "t", 0, INT32_MAX, 0 },
    { "cell", 0, MAX_CELLS - 1, 0 },
};

enum { X_MISSES, X_COUNT };
static const char *const result_fields[X_COUNT] = { "misses" };

static void generate(game_level *out, int version, int level_no, uint32_t seed)
{
    template_level *lv = level_of(out);
    memset(lv, 0, sizeof *lv);
    lv->version = version;
    lv->level_no = level_no;
    lv->seed = seed;
    lv->row = level_row_of(level_no);
    uint32_t rng = seed;
    lv->prize = (int32_t)rng_below(&rng, (uint32_t)lv->row.cells);
}

static void start(game_state *out, const game_level *level)
{
    template_state *st = state_of(out);
    memset(st, 0, sizeof *st);
    st->level = level_view(level);
}

static const timed_outcomes prologue = { O_AFTER_END, O_CELL_OUT_OF_RANGE, O_TIME_BACKWARDS };

static int apply(game_state *state, const game_move *m)
{
    template_state *st = state_of(state);
    const template_level *lv = st->level;
    int32_t t = m->v[0];
    int32_t cell = m->v[1];

    /* Rules 1-4 (spec.md): ended, range, time, the limit. */
    int o = timed_prologue(&st->clock, &prologue, t, cell < lv->row.cells, lv->row.limit_ms);
    if (o != TIMED_GO_ON)
        return o;
    if (st->cell[cell] != 0)
        return O_AGAIN;
    st->clock.counted_t = t;
    if (cell != lv->prize) {
        st->cell[cell] = 1;
        st->misses++;
        return O_MISS;
    }
    st->cell[cell] = 2;
    st->completed = true;
    st->clock.ended = true;
    return O_HIT;
}

static void result(const game_state *state, game_result *out)
{
    const template_state *st = state_view(state);
    memset(out, 0, sizeof *out);
    out->completed = st->completed;
    int64_t score = 100 - MISS_PENALTY * (int64_t)st->misses;
    out->score = st->completed ? (score > 1 ? score : 1) : 0;
    out->duration_ms = st->clock.counted_t;
    out->extra[X_MISSES] = st->misses;
}

static void describe_level(const game_level *level, const game_writer *w)
{
    const template_level *lv = level_view(level);
    w->put_int(w->ctx, "cells", lv->row.cells);
    w->put_int(w->ctx, "limit_ms", lv->row.limit_ms);
    w->put_int(w->ctx, "prize", lv->prize);
    /* The level's shortest winning run, as moves (apps and tests replay it). */
    w->begin_array(w->ctx, "plan");
    w->begin_object(w->ctx, NULL);
    w->put_int(w->ctx, "t", PLAN_T);
    w->put_int(w->ctx, "cell", lv->prize);
    w->end(w->ctx);
    w->end(w->ctx);
}

static int min_moves(const game_level *level)
{
    (void)level;
    return 1; /* the prize, first tap */
}

static void describe_state(const game_state *state, const game_writer *w)
{
    const template_state *st = state_view(state);
    w->put_int_rows(w->ctx, "cells", st->cell, st->level->row.cells, 0);
    w->put_int(w->ctx, "misses", st->misses);
}

const game template_game = {
    .name = "template",
    .version = 1,
    .min_version = 1,
    .levels = LEVELS,
    .max_moves = 100,
    .n_fields = 2,
    .fields = fields,
    .n_outcomes = O_COUNT,
    .outcomes = outcomes,
    .n_extras = X_COUNT,
    .result_fields = result_fields,
    .level_size = sizeof(template_level),
    .state_size = sizeof(template_state),
    .generate = generate,
    .start = start,
    .apply = apply,
    .result = result,
    .describe_level = describe_level,
    .describe_state = describe_state,
    .min_moves = min_moves,
    .daily_seed = NULL,
};
