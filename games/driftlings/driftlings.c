/*
 * driftlings: the game table, skill assignment and the result of both spec
 * versions. The simulation is world.c; generation is generate.c with the
 * solver in solver.c. Every rule here is in spec.md; version 2 measures
 * the run's duration to its end, not to its last move.
 */
#include "driftlings.h"

#include <string.h>

#include "generate.h"

#define TICK_MS 25 /* the fastest a client may run the clock: 40 ticks a second */

enum {
    O_ASSIGNED,
    O_AFTER_END,
    O_WALKER_GONE,
    O_SKILL_EXHAUSTED,
    O_TRAIT_HELD,
    O_BUSY,
    O_TIME_BACKWARDS,
    O_NOT_SPAWNED,
    O_NO_SUCH_WALKER,
    O_COUNT
};

static const game_outcome outcomes[O_COUNT] = {
    [O_ASSIGNED] = { "assigned", OUTCOME_APPLIED, false },
    [O_AFTER_END] = { "after_end", OUTCOME_IGNORED, false },
    [O_WALKER_GONE] = { "walker_gone", OUTCOME_IGNORED, false },
    [O_SKILL_EXHAUSTED] = { "skill_exhausted", OUTCOME_IGNORED, false },
    [O_TRAIT_HELD] = { "trait_held", OUTCOME_IGNORED, false },
    [O_BUSY] = { "busy", OUTCOME_IGNORED, false },
    [O_TIME_BACKWARDS] = { "time_backwards", OUTCOME_REJECTED, false },
    [O_NOT_SPAWNED] = { "not_spawned", OUTCOME_REJECTED, false },
    [O_NO_SUCH_WALKER] = { "no_such_walker", OUTCOME_REJECTED, false },
};

static const game_field fields[3] = {
    { "tick", 0, INT32_MAX, 0 },
    { "walker", 0, DL_MAX_CROWD - 1, 0 },
    { "skill", 0, DL_SKILLS - 1, 0 },
};

static const char *const result_fields[DL_X_COUNT] = { "saved", "quota", "crowd",
                                                       "dead",  "ticks", "skills_used" };

GAME_HANDLES(dl_level, dl_state)

static const char *const skill_names[DL_SKILLS] = { "climber", "floater", "blocker", "basher",
                                                    "digger" };

void driftlings_world_init(dl_world *w, const dl_level *lv)
{
    memset(w, 0, sizeof *w);
    w->map = lv->map;
    w->crowd = lv->crowd;
    w->interval = lv->interval;
}

bool driftlings_level_from_ascii(dl_level *lv, const char *const *rows, int n_rows, int crowd,
                                 int quota, int interval, int32_t cap,
                                 const int inventory[DL_SKILLS])
{
    int entrances = 0, exits = 0;
    memset(lv, 0, sizeof *lv);
    if (n_rows < 1 || n_rows > DL_MAX_H || crowd < 1 || crowd > DL_MAX_CROWD || interval < 1 ||
        cap < 1 || quota < 0 || quota > crowd)
        return false;
    int w = (int)strlen(rows[0]);
    if (w < 1 || w > DL_MAX_W)
        return false;
    lv->version = 1;
    lv->map.w = w;
    lv->map.h = n_rows;
    for (int y = 0; y < n_rows; y++) {
        if ((int)strlen(rows[y]) != w)
            return false;
        for (int x = 0; x < w; x++) {
            char c = rows[y][x];
            uint8_t *cell = &lv->map.cell[y * w + x];
            *cell = DL_AIR;
            if (c == 'E') {
                lv->map.ex = x, lv->map.ey = y, entrances++;
            } else if (c == 'X') {
                lv->map.xx = x, lv->map.xy = y, exits++;
            } else if (c == DL_EARTH || c == DL_STEEL) {
                *cell = (uint8_t)c;
            } else if (c != DL_AIR) {
                return false;
            }
        }
    }
    if (entrances != 1 || exits != 1)
        return false;
    lv->crowd = crowd;
    lv->quota = quota;
    lv->interval = interval;
    lv->cap = cap;
    for (int s = 0; s < DL_SKILLS; s++)
        lv->inventory[s] = inventory[s];
    return true;
}

/* spec.md, "Generation parameters": the vectors' way to reach the
 * fallback, the solver's caps and the gates no natural seed fires. */
enum { P_CANDIDATE_CAP, P_NODE_CAP, P_CARVE_CAP, P_ALT_WINDOW, P_SHORTCUT_BANDS, P_THIN_DEMANDS,
       P_BACK_LOADED_AT, P_COUNT };
static const game_param params[P_COUNT] = {
    [P_CANDIDATE_CAP] = { "candidate_cap", 1, DL_CANDIDATE_CAP },
    [P_NODE_CAP] = { "node_cap", 1, DL_NODE_MAX },
    [P_CARVE_CAP] = { "carve_cap", 0, DL_CARVE_MAX },
    [P_ALT_WINDOW] = { "alt_window", 0, DL_ALT_BUDGET },
    [P_SHORTCUT_BANDS] = { "shortcut_bands", 1, 8 },
    [P_THIN_DEMANDS] = { "thin_demands", 0, 64 },
    [P_BACK_LOADED_AT] = { "back_loaded_at", 0, 1000 },
};

static void generate_with(game_level *out, int version, int level_no, uint32_t seed,
                          const game_params *p)
{
    dl_gen_limits lim = dl_default_limits(&dl_level_table[level_no - 1]);
    lim.candidate_cap = game_param_or(p, P_CANDIDATE_CAP, lim.candidate_cap);
    lim.search.node_cap = game_param_or(p, P_NODE_CAP, lim.search.node_cap);
    lim.search.carve_cap = game_param_or(p, P_CARVE_CAP, lim.search.carve_cap);
    lim.search.alt_window = game_param_or(p, P_ALT_WINDOW, lim.search.alt_window);
    lim.shortcut_bands = game_param_or(p, P_SHORTCUT_BANDS, lim.shortcut_bands);
    lim.thin_demands = game_param_or(p, P_THIN_DEMANDS, lim.thin_demands);
    lim.back_loaded_at = game_param_or(p, P_BACK_LOADED_AT, lim.back_loaded_at);
    dl_generate(level_of(out), version, level_no, seed, &lim);
}

static void generate(game_level *out, int version, int level_no, uint32_t seed)
{
    dl_generate(level_of(out), version, level_no, seed, NULL);
}

static void start(game_state *out, const game_level *level)
{
    dl_state *st = state_of(out);
    const dl_level *lv = level_view(level);
    memset(st, 0, sizeof *st);
    st->level = lv;
    driftlings_world_init(&st->world, lv);
    for (int s = 0; s < DL_SKILLS; s++)
        st->left[s] = lv->inventory[s];
}

/* Advance the world until it reaches tick t, settles or hits the cap. */
static void run_until(dl_state *st, int64_t t)
{
    while (!st->ended && st->world.tick < t) {
        dl_tick(&st->world);
        if (dl_settled(&st->world) || st->world.tick >= st->level->cap)
            st->ended = true;
    }
}

static int apply(game_state *state, const game_move *m)
{
    dl_state *st = state_of(state);
    int32_t t = m->v[0];
    int k = m->v[1], skill = m->v[2];

    /* Not core/timed.h's prologue: here the walker check comes before the
     * ended check, and the run ends by simulation after the time check. */
    if (k >= st->level->crowd)
        return O_NO_SUCH_WALKER;
    if (t < st->last_tick)
        return O_TIME_BACKWARDS;
    st->last_tick = t;
    run_until(st, t);
    if (st->ended)
        return O_AFTER_END;
    if (k >= st->world.spawned)
        return O_NOT_SPAWNED;
    dl_walker *wk = &st->world.walker[k];
    int why = dl_check_assign(wk, skill);
    if (why == DL_ASSIGN_GONE)
        return O_WALKER_GONE;
    if (st->left[skill] == 0)
        return O_SKILL_EXHAUSTED;
    if (why == DL_ASSIGN_HELD)
        return O_TRAIT_HELD;
    if (why == DL_ASSIGN_BUSY)
        return O_BUSY;
    dl_assign(wk, skill);
    st->left[skill]--;
    st->used++;
    return O_ASSIGNED;
}

static void result(const game_state *state, game_result *out)
{
    dl_state end = *state_view(state);
    run_until(&end, end.level->cap);
    int saved = 0, dead = 0;
    for (int i = 0; i < end.world.spawned; i++) {
        saved += end.world.walker[i].act == DL_SAVED;
        dead += end.world.walker[i].act == DL_DEAD;
    }
    memset(out, 0, sizeof *out);
    out->completed = saved >= end.level->quota;
    if (out->completed)
        out->score = 1000000LL * saved - 1000LL * end.used - end.world.tick;
    /* Version 1: to the last move's tick; version 2: to the end of the run. */
    int32_t last = end.level->version >= 2 ? end.world.tick : end.last_tick;
    out->duration_ms = (int64_t)last * TICK_MS;
    out->extra[DL_X_SAVED] = saved;
    out->extra[DL_X_QUOTA] = end.level->quota;
    out->extra[DL_X_CROWD] = end.level->crowd;
    out->extra[DL_X_DEAD] = dead;
    out->extra[DL_X_TICKS] = end.world.tick;
    out->extra[DL_X_SKILLS_USED] = end.used;
}

static void put_terrain(const game_writer *w, const dl_map *m)
{
    char rows[DL_MAX_CELLS];
    memcpy(rows, m->cell, (size_t)(m->w * m->h));
    rows[m->ey * m->w + m->ex] = 'E';
    rows[m->xy * m->w + m->xx] = 'X';
    w->put_text_rows(w->ctx, "terrain", rows, m->h, m->w);
}

static void put_skills(const game_writer *w, const char *key, const int *count)
{
    w->begin_object(w->ctx, key);
    for (int s = 0; s < DL_SKILLS; s++)
        w->put_int(w->ctx, skill_names[s], count[s]);
    w->end(w->ctx);
}

static void describe_level(const game_level *level, const game_writer *w)
{
    const dl_level *lv = level_view(level);
    const dl_metrics *mt = &lv->metrics;
    w->put_int(w->ctx, "width", lv->map.w);
    w->put_int(w->ctx, "height", lv->map.h);
    put_terrain(w, &lv->map);
    w->put_int(w->ctx, "terrain_hash", dl_terrain_hash(&lv->map));
    w->put_int(w->ctx, "crowd", lv->crowd);
    w->put_int(w->ctx, "quota", lv->quota);
    w->put_int(w->ctx, "interval", lv->interval);
    w->put_int(w->ctx, "cap", lv->cap);
    put_skills(w, "inventory", lv->inventory);
    put_skills(w, "needs", lv->needs);
    w->begin_array(w->ctx, "plan");
    for (int i = 0; i < lv->n_plan; i++) {
        w->begin_object(w->ctx, NULL);
        for (int f = 0; f < 3; f++)
            w->put_int(w->ctx, fields[f].name, lv->plan[i].v[f]);
        w->end(w->ctx);
    }
    w->end(w->ctx);
    w->put_int(w->ctx, "demands", mt->demands);
    w->put_int(w->ctx, "route_ticks", mt->route_ticks);
    w->put_int(w->ctx, "alternatives", mt->alternatives);
    w->put_int(w->ctx, "first_decision_at", mt->first_decision_at);
    w->put_int(w->ctx, "critical", mt->critical);
    w->put_int(w->ctx, "slack", mt->slack);
    w->put_int(w->ctx, "expansions", mt->expansions);
    w->put_int(w->ctx, "candidates", mt->candidates);
    w->put_bool(w->ctx, "fallback", mt->fallback);
    static const char *const gate_names[DL_GATES] = { "unsolvable", "slack", "shortcut",
                                                      "thin", "back_loaded", "crowd" };
    w->begin_object(w->ctx, "rejected");
    for (int g = 0; g < DL_GATES; g++)
        w->put_int(w->ctx, gate_names[g], lv->rejected[g]);
    w->end(w->ctx);
}

static void describe_state(const game_state *state, const game_writer *w)
{
    const dl_state *st = state_view(state);
    const dl_world *wd = &st->world;
    w->put_int(w->ctx, "tick", wd->tick);
    w->put_bool(w->ctx, "ended", st->ended);
    w->put_int(w->ctx, "hash", dl_hash(wd));
    put_skills(w, "left", st->left);
    w->begin_array(w->ctx, "walkers");
    for (int i = 0; i < wd->spawned; i++) {
        const dl_walker *k = &wd->walker[i];
        w->begin_object(w->ctx, NULL);
        w->put_int(w->ctx, "x", k->x);
        w->put_int(w->ctx, "y", k->y);
        w->put_int(w->ctx, "dir", k->dir);
        w->put_int(w->ctx, "act", k->act);
        w->put_int(w->ctx, "traits", k->traits);
        w->put_int(w->ctx, "fall", k->fall);
        w->end(w->ctx);
    }
    w->end(w->ctx);
    put_terrain(w, &wd->map);
}

/* The crowd plan of a generated level; a hand-built level has none. */
static int min_moves(const game_level *level)
{
    const dl_level *lv = level_view(level);
    return lv->level_no > 0 ? lv->n_plan : -1;
}

/* The think floor (spec.md, "Fair play"): the level read (its entrance,
 * exit and first walker's way; one look along each band per 16 columns;
 * one at each kind of skill offered), then the gesture of a skill. A
 * hand-built level (the traces) has no table row and no floor. */
#define THINK_SEE_MS 1500    /* the entrance, the exit, the first walker's way */
#define THINK_LOOK_MS 250    /* one fixation */
#define THINK_SPAN_COLS 16   /* columns of a band one fixation takes in */
#define THINK_GESTURE_MS 1000 /* the skill in the panel, then the walker */

static int32_t think_floor_ms(const game_level *level)
{
    const dl_level *lv = level_view(level);
    if (lv->level_no < 1 || lv->level_no > DL_LEVELS)
        return 0;
    int bands = dl_level_table[lv->level_no - 1].bands, kinds = 0;
    for (int k = 0; k < DL_SKILLS; k++)
        kinds += lv->inventory[k] > 0;
    int spans = bands * ((lv->map.w + THINK_SPAN_COLS - 1) / THINK_SPAN_COLS);
    return THINK_SEE_MS + THINK_LOOK_MS * (spans + kinds) + THINK_GESTURE_MS;
}

/* A move's tick at the fastest clock. */
static int32_t move_at_ms(const game_level *level, const game_move *move)
{
    (void)level;
    int64_t ms = (int64_t)move->v[0] * TICK_MS;
    return ms > INT32_MAX ? INT32_MAX : (int32_t)ms;
}

const game driftlings_game = {
    .name = "driftlings",
    .version = 2,
    .min_version = 1,
    .levels = DL_LEVELS,
    .max_moves = 2000,
    .n_fields = 3,
    .fields = fields,
    .n_outcomes = O_COUNT,
    .outcomes = outcomes,
    .n_extras = DL_X_COUNT,
    .result_fields = result_fields,
    .level_size = sizeof(dl_level),
    .state_size = sizeof(dl_state),
    .generate = generate,
    .start = start,
    .apply = apply,
    .result = result,
    .describe_level = describe_level,
    .describe_state = describe_state,
    .min_moves = min_moves,
    .think_floor_ms = think_floor_ms,
    .move_at_ms = move_at_ms,
    .daily_seed = NULL,
    .n_params = P_COUNT,
    .params = params,
    .generate_with = generate_with,
};
