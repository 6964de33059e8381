/*
 * opposites: the level table, the prompt schedule (generation) and the
 * answer rules of every spec version. Every rule here is in spec.md; a
 * rule change adds a version, it never edits an old one. Rules 1-4 (ended,
 * range, time) are core/timed.h's prologue.
 */
#include "opposites.h"

#include <string.h>

#include "../../core/rng.h"
#include "../../core/timed.h"

#define MAX_PROMPTS 30
#define N_CODES_MAX 12
#define LEAD_MS 1000          /* before the first prompt's jitter */
#define V1_MIN_REACTION_MS 150 /* versions 1-2: one floor after a prompt appears */
#define CORRECT_POINTS 100
#define V2_WRONG_PENALTY 50     /* from version 2 */

/* Version 3: Hick's law, the floor grows with the bits of the choice
 * (spec.md, "Human floors"). */
#define V3_SIMPLE_REACTION_MS 150
#define V3_MS_PER_BIT 50

typedef struct level_row {
    int prompts;
    int codes; /* 4 directions, 8 with colour words, 12 with shapes */
    int32_t gap_ms;
    int32_t jitter_ms;
    int32_t window_ms; /* <= gap_ms, so windows never overlap */
} level_row;

/* Reasons for each row are in spec.md, "Level table". */
static const level_row level_table[15] = {
    { 8, 4, 2500, 500, 2000 },   { 10, 4, 2200, 500, 1800 },  { 12, 4, 2000, 400, 1500 },
    { 12, 8, 2200, 500, 1800 },  { 14, 8, 2000, 400, 1500 },  { 16, 8, 1800, 400, 1300 },
    { 16, 12, 2000, 400, 1600 }, { 18, 12, 1800, 400, 1400 }, { 20, 12, 1600, 400, 1200 },
    { 20, 12, 1500, 600, 1100 }, { 22, 12, 1400, 600, 1000 }, { 24, 12, 1300, 600, 900 },
    { 26, 12, 1200, 600, 800 },  { 28, 12, 1100, 600, 700 },  { 30, 12, 1000, 600, 600 },
};

typedef struct opp_level {
    int version;
    int level_no;
    uint32_t seed;
    level_row row;
    int32_t prompt[MAX_PROMPTS];
    int32_t appear_ms[MAX_PROMPTS];
    int32_t end_ms; /* the last prompt's window closes */
    int32_t min_reaction_ms; /* the version's reaction floor for this level */
} opp_level;

enum { ST_PENDING, ST_CORRECT, ST_WRONG };

typedef struct opp_state {
    const opp_level *level;
    int32_t status[MAX_PROMPTS];
    bool closed[MAX_PROMPTS];
    int open_prompts;
    timed_clock clock; /* counted_t unused: too_fast is per prompt here */
    int32_t finish_t;
    int64_t points; /* correct answers' points, before any penalty */
    int correct;
    int wrong;
    int late;
} opp_state;

GAME_HANDLES(opp_level, opp_state)

enum {
    O_CORRECT,
    O_WRONG,
    O_LATE,
    O_REPEATED,
    O_NO_PROMPT,
    O_AFTER_END,
    O_ANSWER_OUT_OF_RANGE,
    O_TIME_BACKWARDS,
    O_TOO_FAST,
    O_REACTION_BELOW_FLOOR,
    O_COUNT
};

static const game_outcome outcomes[O_COUNT] = {
    [O_CORRECT] = { "correct", OUTCOME_APPLIED, false },
    [O_WRONG] = { "wrong", OUTCOME_APPLIED, true },
    [O_LATE] = { "late", OUTCOME_APPLIED, true },
    [O_REPEATED] = { "repeated", OUTCOME_IGNORED, false },
    [O_NO_PROMPT] = { "no_prompt", OUTCOME_IGNORED, false },
    [O_AFTER_END] = { "after_end", OUTCOME_IGNORED, false },
    [O_ANSWER_OUT_OF_RANGE] = { "answer_out_of_range", OUTCOME_REJECTED, false },
    [O_TIME_BACKWARDS] = { "time_backwards", OUTCOME_REJECTED, false },
    [O_TOO_FAST] = { "too_fast", OUTCOME_REJECTED, false },
    [O_REACTION_BELOW_FLOOR] = { "reaction_below_floor", OUTCOME_REJECTED, false },
};

static const game_field fields[2] = {
    { "t", 0, INT32_MAX, 0 },
    { "answer", 0, 255, 0 },
};

enum { X_CORRECT, X_WRONG, X_LATE, X_MISSED, X_FINISH_MS, X_COUNT };
static const char *const result_fields[X_COUNT] = { "correct", "wrong", "late", "missed",
                                                    "finish_ms" };

/* Codes come in pairs (0 up, 1 down, ...): the opposite flips the low bit. */
static int32_t opposite(int32_t code)
{
    return code ^ 1;
}

/* Binary digits of n (0 for 0): bits(codes - 1) names one of `codes`
 * buttons, the ceiling of log2(codes). */
static int32_t bits(int32_t n)
{
    int32_t b = 0;
    for (; n > 0; n >>= 1)
        b++;
    return b;
}

/* The schedule is the same under every version: per prompt, the code
 * draw, then the delay draw. */
static void generate(game_level *out, int version, int level_no, uint32_t seed)
{
    opp_level *lv = level_of(out);
    memset(lv, 0, sizeof *lv);
    lv->version = version;
    lv->level_no = level_no;
    lv->seed = seed;
    lv->row = level_table[level_no - 1];
    uint32_t rng = seed;
    int32_t at = LEAD_MS - lv->row.gap_ms;
    for (int i = 0; i < lv->row.prompts; i++) {
        lv->prompt[i] = (int32_t)rng_below(&rng, (uint32_t)lv->row.codes);
        at += lv->row.gap_ms + (int32_t)rng_below(&rng, (uint32_t)lv->row.jitter_ms + 1);
        lv->appear_ms[i] = at;
    }
    lv->end_ms = at + lv->row.window_ms;
    lv->min_reaction_ms = version >= 3
                              ? V3_SIMPLE_REACTION_MS + V3_MS_PER_BIT * bits(lv->row.codes - 1)
                              : V1_MIN_REACTION_MS;
}

static void start(game_state *out, const game_level *level)
{
    opp_state *st = state_of(out);
    const opp_level *lv = level_view(level);
    memset(st, 0, sizeof *st);
    st->level = lv;
    st->open_prompts = lv->row.prompts;
    st->finish_t = -1;
}

/* The last prompt shown at or before t, or -1 before the first. */
static int prompt_at(const opp_level *lv, int32_t t)
{
    int p = -1;
    for (int i = 0; i < lv->row.prompts && lv->appear_ms[i] <= t; i++)
        p = i;
    return p;
}

static void close_prompt(opp_state *st, int p, int32_t t)
{
    st->closed[p] = true;
    if (--st->open_prompts == 0) {
        st->clock.ended = true;
        st->finish_t = t;
    }
}

static const timed_outcomes prologue = { O_AFTER_END, O_ANSWER_OUT_OF_RANGE, O_TIME_BACKWARDS };

static int apply(game_state *state, const game_move *m)
{
    opp_state *st = state_of(state);
    const opp_level *lv = st->level;
    int32_t t = m->v[0];
    int32_t answer = m->v[1];

    /* The run ends at t >= end_ms (rule 4): end_ms - 1 is the last t that counts. */
    int o = timed_prologue(&st->clock, &prologue, t, answer >= 0 && answer < lv->row.codes,
                           lv->end_ms - 1);
    if (o != TIMED_GO_ON)
        return o;
    int p = prompt_at(lv, t);
    if (p < 0)
        return O_NO_PROMPT;
    int32_t reaction = t - lv->appear_ms[p];
    if (reaction >= lv->row.window_ms) {
        st->late++;
        return O_LATE;
    }
    if (st->closed[p])
        return O_REPEATED;
    if (reaction < lv->min_reaction_ms)
        return lv->version >= 3 ? O_REACTION_BELOW_FLOOR : O_TOO_FAST;
    if (answer == opposite(lv->prompt[p])) {
        st->status[p] = ST_CORRECT;
        st->correct++;
        st->points += CORRECT_POINTS + (lv->row.window_ms - reaction) / 10;
        close_prompt(st, p, t);
        return O_CORRECT;
    }
    st->status[p] = ST_WRONG;
    st->wrong++;
    /* Version 1: a wrong answer loses the prompt. Version 2 (2026-09-26):
     * the prompt stays open and the wrong answer costs points instead. */
    if (lv->version == 1)
        close_prompt(st, p, t);
    return O_WRONG;
}

static void result(const game_state *state, game_result *out)
{
    const opp_state *st = state_view(state);
    const opp_level *lv = st->level;
    memset(out, 0, sizeof *out);
    int64_t score = st->points;
    if (lv->version >= 2)
        score -= V2_WRONG_PENALTY * (int64_t)st->wrong;
    out->score = score > 0 ? score : 0;
    out->completed = 2 * st->correct >= lv->row.prompts;
    out->duration_ms = st->finish_t >= 0 ? st->finish_t : lv->end_ms;
    out->extra[X_CORRECT] = st->correct;
    out->extra[X_WRONG] = st->wrong;
    out->extra[X_LATE] = st->late;
    out->extra[X_MISSED] = lv->row.prompts - st->correct;
    out->extra[X_FINISH_MS] = st->finish_t;
}

static void describe_level(const game_level *level, const game_writer *w)
{
    const opp_level *lv = level_view(level);
    int32_t answers[MAX_PROMPTS];
    for (int i = 0; i < lv->row.prompts; i++)
        answers[i] = opposite(lv->prompt[i]);
    w->put_int(w->ctx, "codes", lv->row.codes);
    w->put_int(w->ctx, "window_ms", lv->row.window_ms);
    w->put_int(w->ctx, "min_reaction_ms", lv->min_reaction_ms);
    w->put_int(w->ctx, "end_ms", lv->end_ms);
    w->put_int_rows(w->ctx, "prompts", lv->prompt, lv->row.prompts, 0);
    w->put_int_rows(w->ctx, "answers", answers, lv->row.prompts, 0);
    w->put_int_rows(w->ctx, "appear_ms", lv->appear_ms, lv->row.prompts, 0);
}

static void describe_state(const game_state *state, const game_writer *w)
{
    const opp_state *st = state_view(state);
    w->put_int_rows(w->ctx, "status", st->status, st->level->row.prompts, 0);
    w->put_int(w->ctx, "points", st->points);
}

static int min_moves(const game_level *level)
{
    return level_view(level)->row.prompts;
}

/* Review features (game.h): an answer's reaction beyond the level's
 * reaction floor (the prompt it answers is the one open at its t). No
 * finish floor: the run's length is the prompts' schedule. */
static int32_t move_slack_ms(const game_level *level, const game_move *prev, const game_move *move)
{
    (void)prev;
    const opp_level *lv = level_view(level);
    int32_t t = move->v[0];
    if (t < 0 || t >= lv->end_ms)
        return -1;
    int p = prompt_at(lv, t);
    if (p < 0)
        return -1;
    int32_t slack = t - lv->appear_ms[p] - lv->min_reaction_ms;
    return slack < 0 ? 0 : slack;
}

static int32_t finish_floor(const game_level *level)
{
    (void)level;
    return 0;
}

const game opposites_game = {
    .name = "opposites",
    .version = 3,
    .min_version = 1,
    .levels = 15,
    .max_moves = 500,
    .n_fields = 2,
    .fields = fields,
    .n_outcomes = O_COUNT,
    .outcomes = outcomes,
    .n_extras = X_COUNT,
    .result_fields = result_fields,
    .level_size = sizeof(opp_level),
    .state_size = sizeof(opp_state),
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
