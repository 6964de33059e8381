/*
 * contraption: the level table, the placement moves and the score of both
 * spec versions. apply() only validates and records a placement; the one
 * simulation runs in result(), on a local copy, bounded by CT_TICK_CAP.
 * Version 2 gives each placement a time `t` with a floor between parts,
 * and the run's duration counts the simulation. Every rule here is in
 * spec.md; change both together and bump the version.
 */
#include "contraption.h"

#include <string.h>

#include "../../core/fnv.h"
#include "level.h"

#define SCORE_BASE 100000
#define SCORE_PER_PART 10000

/* Version 2 (spec.md, "Time"). */
#define V2_PART_GAP_MS 1000 /* floor between placements, and before the first */
#define V2_TICK_MS 20       /* the run is shown at most 50 ticks a second */

/* Reasons for each row are in spec.md, "Level table". */
static const ct_row level_table[15] = {
    /* walls    goal_w  goal_y_min  ramps fans */
    { 0, 1, 16, 110, 3, 0 }, { 1, 2, 14, 105, 3, 0 }, { 1, 3, 14, 100, 2, 0 },
    { 2, 3, 12, 100, 2, 1 }, { 2, 4, 12, 95, 2, 1 },  { 3, 4, 12, 95, 2, 0 },
    { 3, 5, 10, 95, 2, 1 },  { 3, 5, 10, 90, 1, 1 },  { 4, 5, 10, 90, 2, 2 },
    { 4, 6, 10, 90, 1, 1 },  { 4, 7, 8, 90, 2, 1 },   { 5, 7, 8, 90, 1, 1 },
    { 6, 8, 8, 90, 1, 2 },   { 7, 9, 8, 90, 1, 1 },   { 8, 10, 8, 90, 1, 1 },
};

static const game_outcome outcomes[CT_OUTCOMES] = {
    [CT_PLACED] = { "placed", OUTCOME_APPLIED, false },
    [CT_NO_PART_LEFT] = { "no_part_left", OUTCOME_REJECTED, false },
    [CT_BAD_ANGLE] = { "bad_angle", OUTCOME_REJECTED, false },
    [CT_OUT_OF_FIELD] = { "out_of_field", OUTCOME_REJECTED, false },
    [CT_OVERLAPS_WALL] = { "overlaps_wall", OUTCOME_REJECTED, false },
    [CT_OVERLAPS_PART] = { "overlaps_part", OUTCOME_REJECTED, false },
    [CT_TIME_BACKWARDS] = { "time_backwards", OUTCOME_REJECTED, false },
    [CT_TOO_FAST] = { "too_fast", OUTCOME_REJECTED, false },
};

/* Wide ranges so that the game, not the decoder, names what is wrong.
 * Version 1 moves have no time. */
enum { F_PART, F_X, F_Y, F_ANGLE, F_T, F_COUNT };
static const game_field fields[F_COUNT] = {
    [F_PART] = { "part", 0, CT_KINDS - 1, 0 },
    [F_X] = { "x", -10000, 10000, 0 },
    [F_Y] = { "y", -10000, 10000, 0 },
    [F_ANGLE] = { "angle", -100000, 100000, 0 },
    [F_T] = { "t", 0, INT32_MAX, 2 },
};

GAME_HANDLES(ct_level, ct_state)

enum { X_ARRIVAL_TICK, X_PARTS_USED, X_TICKS, X_END, X_COUNT };
static const char *const result_fields[X_COUNT] = { "arrival_tick", "parts_used", "ticks", "end" };

/* spec.md, "Generation parameters": the vectors' way to reach the fallbacks. */
enum { P_ATTEMPT_CAP, P_FALLBACK_AFTER, P_COUNT };
static const game_param params[P_COUNT] = {
    [P_ATTEMPT_CAP] = { "attempt_cap", 1, CT_ATTEMPT_CAP },
    [P_FALLBACK_AFTER] = { "fallback_after", 1, CT_ATTEMPT_CAP },
};

static void generate_with(game_level *out, int version, int level_no, uint32_t seed,
                          const game_params *p)
{
    ct_level *lv = level_of(out);
    ct_limits lim = { game_param_or(p, P_ATTEMPT_CAP, CT_ATTEMPT_CAP),
                      game_param_or(p, P_FALLBACK_AFTER, CT_ATTEMPTS) };
    memset(lv, 0, sizeof *lv);
    lv->version = version;
    lv->level_no = level_no;
    lv->seed = seed;
    ct_generate(lv, &level_table[level_no - 1], &lim);
}

static void generate(game_level *out, int version, int level_no, uint32_t seed)
{
    generate_with(out, version, level_no, seed, NULL);
}

static void start(game_state *out, const game_level *level)
{
    ct_state *st = state_of(out);
    const ct_level *lv = level_view(level);
    memset(st, 0, sizeof *st);
    st->level = lv;
    memcpy(st->left, lv->inventory, sizeof st->left);
}

static int apply(game_state *state, const game_move *m)
{
    ct_state *st = state_of(state);
    ct_part p;
    if (st->n_placed >= CT_MAX_PARTS)
        return CT_NO_PART_LEFT;
    int o = ct_check_placement(st->level, st->left, st->placed, st->n_placed, m->v[F_PART],
                               m->v[F_X], m->v[F_Y], m->v[F_ANGLE], &p);
    if (o != CT_PLACED)
        return o;
    int32_t t = m->v[F_T]; /* 0 in version 1 */
    if (st->level->version >= 2) {
        int32_t prev_t = st->n_placed > 0 ? st->placed_t[st->n_placed - 1] : 0;
        if (t < prev_t)
            return CT_TIME_BACKWARDS;
        if (t - prev_t < V2_PART_GAP_MS)
            return CT_TOO_FAST;
    }
    st->placed_t[st->n_placed] = t;
    st->placed[st->n_placed++] = p;
    st->left[p.kind]--;
    return CT_PLACED;
}

static void result(const game_state *state, game_result *out)
{
    const ct_state *st = state_view(state);
    ct_run run;
    ct_simulate(&st->level->field, st->placed, st->n_placed, NULL, 0, &run);
    memset(out, 0, sizeof *out);
    out->completed = run.reached;
    if (run.reached)
        out->score = SCORE_BASE - (int64_t)SCORE_PER_PART * st->n_placed - run.arrival_tick;
    /* Version 1 is untimed; version 2 counts to the end of the run shown. */
    out->duration_ms = -1;
    if (st->level->version >= 2)
        out->duration_ms = (st->n_placed > 0 ? st->placed_t[st->n_placed - 1] : 0) +
                           (int64_t)V2_TICK_MS * run.ticks;
    out->extra[X_ARRIVAL_TICK] = run.arrival_tick;
    out->extra[X_PARTS_USED] = st->n_placed;
    out->extra[X_TICKS] = run.ticks;
    out->extra[X_END] = run.end;
}

static void put_box(const game_writer *w, const char *key, const ct_box *b)
{
    int32_t v[4] = { b->x0 / CT_SUB, b->y0 / CT_SUB, b->x1 / CT_SUB, b->y1 / CT_SUB };
    w->put_int_rows(w->ctx, key, v, 4, 0);
}

/* A placement as a move of the level's version (t only from version 2). */
static void put_move(const game_writer *w, int version, const ct_part *p, int32_t t)
{
    w->begin_object(w->ctx, NULL);
    w->put_int(w->ctx, "part", p->kind);
    w->put_int(w->ctx, "x", p->x);
    w->put_int(w->ctx, "y", p->y);
    w->put_int(w->ctx, "angle", p->angle);
    if (game_field_in(&fields[F_T], version))
        w->put_int(w->ctx, "t", t);
    w->end(w->ctx);
}

static void describe_level(const game_level *level, const game_writer *w)
{
    const ct_level *lv = level_view(level);
    const ct_field *f = &lv->field;
    w->put_int(w->ctx, "width", CT_FIELD_W);
    w->put_int(w->ctx, "height", CT_FIELD_H);
    int32_t ball[3] = { lv->start_x, lv->start_y, lv->start_vx };
    w->put_int_rows(w->ctx, "ball", ball, 3, 0);
    put_box(w, "goal", &f->goal);
    int32_t walls[CT_MAX_WALLS * 4];
    for (int i = 3; i < f->n_walls; i++) {
        const ct_box *b = &f->walls[i];
        int32_t *r = &walls[(i - 3) * 4];
        r[0] = b->x0 / CT_SUB;
        r[1] = b->y0 / CT_SUB;
        r[2] = b->x1 / CT_SUB;
        r[3] = b->y1 / CT_SUB;
    }
    w->put_int_rows(w->ctx, "walls", walls, f->n_walls - 3, 4);
    w->put_int(w->ctx, "dropped_walls", lv->dropped_walls);
    w->begin_object(w->ctx, "inventory");
    w->put_int(w->ctx, "ramp", lv->inventory[CT_RAMP]);
    w->put_int(w->ctx, "fan", lv->inventory[CT_FAN]);
    w->end(w->ctx);
    w->put_int(w->ctx, "attempts", lv->attempts);
    w->put_int(w->ctx, "issued", lv->issued);
    w->begin_object(w->ctx, "discarded");
    w->put_int(w->ctx, "pre_solved", lv->pre_solved);
    w->put_int(w->ctx, "no_sweep_solution", lv->no_sweep_solution);
    w->end(w->ctx);
    w->put_int(w->ctx, "sims", lv->sims);
    w->put_bool(w->ctx, "fallback", lv->fallback);
    if (lv->trivial)
        w->put_bool(w->ctx, "trivial", true);
    w->begin_array(w->ctx, "plan");
    if (lv->has_plan)
        put_move(w, lv->version, &lv->plan, V2_PART_GAP_MS); /* placed at the floor */
    w->end(w->ctx);
    w->put_int(w->ctx, "plan_arrival_tick", lv->has_plan ? lv->plan_run.arrival_tick : -1);
    if (lv->version >= 2) {
        w->put_int(w->ctx, "part_gap_ms", V2_PART_GAP_MS);
        w->put_int(w->ctx, "tick_ms", V2_TICK_MS);
    }
}

/* The generator's plan: one placement, or none on a fallback level. */
static int min_moves(const game_level *level)
{
    return level_view(level)->has_plan ? 1 : -1;
}

/* The think floor (spec.md, "Fair play"): reading the level, one look
 * per piece, then the placement gesture. Version 1 too: the gesture and
 * the reading do not depend on the clock. */
#define THINK_SEE_MS 1500   /* the ball, its start, the goal and the way between */
#define THINK_PIECE_MS 250  /* one fixation per level wall and per part granted */
#define THINK_GESTURE_MS 1000 /* the first placement's drag and rotate: the part gap */

static int32_t think_floor_ms(const game_level *level)
{
    const ct_level *lv = level_view(level);
    int pieces = lv->n_level_walls + lv->inventory[CT_RAMP] + lv->inventory[CT_FAN];
    return THINK_SEE_MS + THINK_PIECE_MS * pieces + THINK_GESTURE_MS;
}

/* A placement's t (version 2); version 1 carries no time. */
static int32_t move_at_ms(const game_level *level, const game_move *move)
{
    return level_view(level)->version >= 2 ? move->v[F_T] : -1;
}

static void describe_state(const game_state *state, const game_writer *w)
{
    const ct_state *st = state_view(state);
    w->begin_array(w->ctx, "placed");
    for (int i = 0; i < st->n_placed; i++)
        put_move(w, st->level->version, &st->placed[i], st->placed_t[i]);
    w->end(w->ctx);
    w->begin_object(w->ctx, "left");
    w->put_int(w->ctx, "ramp", st->left[CT_RAMP]);
    w->put_int(w->ctx, "fan", st->left[CT_FAN]);
    w->end(w->ctx);
}

/* Decimal digits of a non-negative int, most significant first. */
static char *put_uint(char *p, int32_t v)
{
    char tmp[12];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v > 0);
    while (n > 0)
        *p++ = tmp[--n];
    return p;
}

uint32_t contraption_daily_seed(civil_date d)
{
    char buf[64] = "contraption:";
    char *p = buf + 12;
    p = put_uint(p, d.year < 0 ? 0 : d.year);
    *p++ = '-';
    p = put_uint(p, d.month < 0 ? 0 : d.month);
    *p++ = '-';
    p = put_uint(p, d.day < 0 ? 0 : d.day);
    return fnv1a32(buf, (size_t)(p - buf));
}

const game contraption_game = {
    .name = "contraption",
    .version = 2,
    .min_version = 1,
    .levels = 15,
    .max_moves = CT_MAX_PARTS,
    .n_fields = F_COUNT,
    .fields = fields,
    .n_outcomes = CT_OUTCOMES,
    .outcomes = outcomes,
    .n_extras = X_COUNT,
    .result_fields = result_fields,
    .level_size = sizeof(ct_level),
    .state_size = sizeof(ct_state),
    .generate = generate,
    .start = start,
    .apply = apply,
    .result = result,
    .describe_level = describe_level,
    .describe_state = describe_state,
    .min_moves = min_moves,
    .think_floor_ms = think_floor_ms,
    .move_at_ms = move_at_ms,
    .daily_seed = contraption_daily_seed,
    .n_params = P_COUNT,
    .params = params,
    .generate_with = generate_with,
};
