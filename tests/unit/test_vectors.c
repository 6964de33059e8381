/*
 * test_vectors: runs every case of every vectors/ JSON file against the C code, one
 * PASS/FAIL line per case: prng.json (docs/CORE.md), every game file's
 * levels[] and replays[] (docs/VECTORS.md, with their `params` and
 * `refused` forms), and the sections a game adds of its own (Contraption's
 * trig, traces and daily; Driftlings' traces), each by its game's spec. A
 * game file with a section no checker here knows fails, as in the port's
 * runner.
 *
 *   test_vectors [DIR [NAME...]]   DIR defaults to vectors; NAMEs (file
 *                                  stems: prng, schulte, ...) limit the run
 *                                  to those files (tools/mutate.py does)
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "../../core/civil.h"
#include "../../core/daily.h"
#include "../../core/fnv.h"
#include "../../core/replay.h"
#include "../../core/rng.h"
#include "../../games/contraption/contraption.h"
#include "../../games/contraption/physics.h"
#include "../../games/driftlings/driftlings.h"
#include "../../server/base/json_game.h"

static int passed, failed;

static void report(const char *file, const json_t *c, const char *problem)
{
    const char *name = json_string_value(json_object_get(c, "name"));
    if (problem) {
        printf("FAIL %s: %s: %s\n", file, name ? name : "?", problem);
        failed++;
    } else {
        printf("PASS %s: %s\n", file, name ? name : "?");
        passed++;
    }
}

static int64_t geti(const json_t *obj, const char *key)
{
    return (int64_t)json_integer_value(json_object_get(obj, key));
}

static int64_t at(const json_t *arr, size_t i)
{
    return (int64_t)json_integer_value(json_array_get(arr, i));
}

/* Every key of want must be present in got with an equal value. */
static const char *subset_mismatch(const json_t *want, const json_t *got)
{
    const char *key;
    const json_t *v;
    json_object_foreach((json_t *)want, key, v) {
        if (!json_equal(v, json_object_get(got, key)))
            return key;
    }
    return NULL;
}

static void check_prng(const char *file, const json_t *doc)
{
    size_t i;
    const json_t *c;
    json_array_foreach(json_object_get(doc, "mulberry32"), i, c) {
        uint32_t s = (uint32_t)geti(c, "seed");
        const json_t *first = json_object_get(c, "first");
        const char *bad = NULL;
        for (size_t k = 0; k < json_array_size(first); k++)
            if (rng_next(&s) != (uint32_t)at(first, k))
                bad = "value differs";
        report(file, c, bad);
    }
    json_array_foreach(json_object_get(doc, "below"), i, c) {
        uint32_t s = (uint32_t)geti(c, "seed");
        uint32_t n = (uint32_t)geti(c, "n");
        const json_t *first = json_object_get(c, "first");
        const char *bad = n == 0 ? "n is 0" : NULL;
        for (size_t k = 0; !bad && k < json_array_size(first); k++)
            if (rng_below(&s, n) != (uint32_t)at(first, k))
                bad = "draw differs";
        report(file, c, bad);
    }
    json_array_foreach(json_object_get(doc, "shuffle"), i, c) {
        const json_t *in = json_object_get(c, "input"), *out = json_object_get(c, "output");
        size_t n = json_array_size(in);
        /* Shuffle positions, so values of any size (and repeats) work. */
        int32_t *v = calloc(n + 1, sizeof *v);
        for (size_t k = 0; k < n; k++)
            v[k] = (int32_t)k;
        uint32_t s = (uint32_t)geti(c, "seed");
        rng_shuffle_i32(&s, v, n);
        const char *bad = json_array_size(out) == n ? NULL : "length differs";
        for (size_t k = 0; !bad && k < n; k++)
            if (!json_equal(json_array_get(in, (size_t)v[k]), json_array_get(out, k)))
                bad = "order differs";
        free(v);
        report(file, c, bad);
    }
    json_array_foreach(json_object_get(doc, "fnv1a32"), i, c) {
        const json_t *text = json_object_get(c, "text");
        uint32_t h = fnv1a32(json_string_value(text), json_string_length(text));
        report(file, c, h == (uint32_t)geti(c, "hash") ? NULL : "hash differs");
    }
    json_array_foreach(json_object_get(doc, "days"), i, c) {
        civil_date d;
        const char *bad = NULL;
        if (!civil_parse(json_string_value(json_object_get(c, "date")), &d))
            bad = "date does not parse";
        else if (civil_to_days(d) != geti(c, "day"))
            bad = "day number differs";
        report(file, c, bad);
    }
    json_array_foreach(json_object_get(doc, "daily"), i, c) {
        civil_date d;
        daily_pick p;
        const char *bad = NULL;
        if (!civil_parse(json_string_value(json_object_get(c, "date")), &d) || !daily_for_date(d, &p))
            bad = "no daily for that date";
        else if (strcmp(p.game->name, json_string_value(json_object_get(c, "game"))) != 0)
            bad = "game differs";
        else if (p.level != geti(c, "level"))
            bad = "level differs";
        else if (p.seed != (uint32_t)geti(c, "seed"))
            bad = "seed differs";
        else if (p.schedule_version != geti(c, "schedule"))
            bad = "schedule era differs";
        report(file, c, bad);
    }
}

static const char *const gen_refusals[] = {
    [GEN_OK] = "", [GEN_BAD_LEVEL] = "bad_level", [GEN_BAD_VERSION] = "bad_version",
    [GEN_BAD_PARAMS] = "bad_params",
};

/* Generate the case's level into a new buffer (filled with a pattern
 * first: a game must not rely on zeroed storage), or NULL with *status. A
 * parameter the game does not take (or not an integer) is bad_params. */
static game_level *case_level(const game *g, const json_t *c, gen_status *status)
{
    game_params params;
    memset(&params, 0, sizeof params);
    const char *key;
    const json_t *v;
    json_object_foreach((json_t *)json_object_get(c, "params"), key, v) {
        int i = game_param_index(g, key);
        if (i < 0 || !json_is_integer(v)) {
            *status = GEN_BAD_PARAMS;
            return NULL;
        }
        params.set[i] = true;
        params.v[i] = (int32_t)json_integer_value(v);
    }
    game_level *level = malloc(g->level_size);
    memset(level, 0xa5, g->level_size);
    *status = game_generate_with(g, level, (int)geti(c, "version"), (int)geti(c, "level"),
                                 (uint32_t)geti(c, "seed"), &params);
    if (*status != GEN_OK) {
        free(level);
        return NULL;
    }
    return level;
}

/* A level case whose generation must fail names why in `refused`. */
static const char *generation_differs(gen_status st, const json_t *c)
{
    const char *refused = json_string_value(json_object_get(c, "refused"));
    if (st == GEN_OK)
        return refused ? "generated, expected a refusal" : NULL;
    if (refused && strcmp(refused, gen_refusals[st]) == 0)
        return NULL;
    return refused ? "refused for another reason" : "generation refused the level";
}

static void check_level_case(const char *file, const game *g, const json_t *c)
{
    gen_status st;
    game_level *level = case_level(g, c, &st);
    const char *why = generation_differs(st, c);
    static char msg[160];
    if (level && !why) {
        json_t *got = level_to_json(g, level);
        const char *key = subset_mismatch(json_object_get(c, "expect"), got);
        size_t i;
        const json_t *absent;
        json_array_foreach(json_object_get(c, "absent"), i, absent) {
            if (json_object_get(got, json_string_value(absent)))
                key = json_string_value(absent);
        }
        if (key) {
            snprintf(msg, sizeof msg, "level field \"%s\" differs", key);
            why = msg;
        }
        json_decref(got);
    }
    free(level);
    report(file, c, why);
}

/* A replay refused before it runs: `refused` names why (too_many_moves
 * when the list is longer than the game's max_moves, whatever it holds;
 * bad_moves when a move is malformed). */
static const char *refusal_differs(const move_error *err, long n, const char *want)
{
    if (n >= 0)
        return "the moves were accepted, expected a refusal";
    const char *got = err->too_many ? "too_many_moves" : "bad_moves";
    return strcmp(got, want) == 0 ? NULL : "refused for another reason";
}

static const char *run_replay_case(const game *g, const json_t *c, const game_level *level)
{
    static char msg[200];
    const json_t *moves_json = json_object_get(c, "moves");
    const char *refused = json_string_value(json_object_get(c, "refused"));
    size_t cap = json_array_size(moves_json);
    game_move *moves = calloc(cap + 1, sizeof *moves);
    int *outcomes = calloc(cap + 1, sizeof *outcomes);
    game_state *state = malloc(g->state_size);
    const char *why = NULL;
    move_error err;
    json_t *got = NULL;

    memset(state, 0xa5, g->state_size); /* start() must set all it reads */
    g->start(state, level);
    got = state_to_json(g, state);
    if (!json_equal(got, json_object_get(c, "board_before"))) {
        why = "board_before differs";
        goto done;
    }
    json_decref(got);
    got = NULL;
    long n = moves_from_json(g, (int)geti(c, "version"), moves_json, moves, cap, &err);
    if (refused) {
        why = refusal_differs(&err, n, refused);
        goto done;
    }
    if (n < 0) {
        snprintf(msg, sizeof msg, "moves do not decode: %s", err.message);
        why = msg;
        goto done;
    }
    replay_report rep;
    replay_run(g, level, state, moves, (size_t)n, outcomes, &rep);
    size_t shown = rep.rejected ? rep.rejected_move + 1 : (size_t)n;
    got = outcomes_to_json(g, outcomes, shown);
    if (!json_equal(got, json_object_get(c, "outcomes"))) {
        char *text = json_dumps(got, JSON_COMPACT);
        snprintf(msg, sizeof msg, "outcomes differ: got %.150s", text ? text : "?");
        free(text);
        why = msg;
        goto done;
    }
    json_decref(got);
    got = NULL;
    const json_t *want_rej = json_object_get(c, "rejected");
    if (want_rej) {
        if (!rep.rejected)
            why = "expected a rejection";
        else if ((json_int_t)rep.rejected_move != geti(want_rej, "move") ||
                 strcmp(g->outcomes[rep.rejected_outcome].code,
                        json_string_value(json_object_get(want_rej, "reason"))) != 0)
            why = "rejection differs";
        goto done;
    }
    if (rep.rejected) {
        why = "unexpected rejection";
        goto done;
    }
    got = state_to_json(g, state);
    if (!json_equal(got, json_object_get(c, "board_after"))) {
        why = "board_after differs";
        goto done;
    }
    json_decref(got);
    got = result_to_json(g, &rep.result);
    const char *key = subset_mismatch(json_object_get(c, "result"), got);
    if (key) {
        snprintf(msg, sizeof msg, "result field \"%s\" differs", key);
        why = msg;
    }
done:
    json_decref(got);
    free(moves);
    free(outcomes);
    free(state);
    return why;
}

static void check_replay_case(const char *file, const game *g, const json_t *c)
{
    gen_status st;
    game_level *level = case_level(g, c, &st);
    const char *why = level ? run_replay_case(g, c, level) : "generation refused the level";
    free(level);
    report(file, c, why);
}

/* ---- Contraption's own sections (games/contraption/spec.md, 12) ---- */

static const char *contraption_trig(const json_t *c)
{
    int32_t s, co;
    ct_trig((int32_t)geti(c, "mrad"), &s, &co);
    return s == geti(c, "sin") && co == geti(c, "cos") ? NULL : "sin or cos differs";
}

/* A field in the gen format: ball [x, y, vx], goal and level walls in units. */
static bool field_from_json(const json_t *j, ct_field *f)
{
    const json_t *ball = json_object_get(j, "ball"), *goal = json_object_get(j, "goal");
    const json_t *walls = json_object_get(j, "walls");
    if (!json_is_array(ball) || !json_is_array(goal) || !json_is_array(walls) ||
        json_array_size(walls) + 3 > CT_MAX_WALLS)
        return false;
    memset(f, 0, sizeof *f);
    f->ball_x = (int32_t)at(ball, 0) * CT_SUB;
    f->ball_y = (int32_t)at(ball, 1) * CT_SUB;
    f->ball_vx = (int32_t)at(ball, 2);
    f->goal = (ct_box){ (int32_t)at(goal, 0) * CT_SUB, (int32_t)at(goal, 1) * CT_SUB,
                        (int32_t)at(goal, 2) * CT_SUB, (int32_t)at(goal, 3) * CT_SUB };
    f->walls[f->n_walls++] = (ct_box){ -8 * CT_SUB, -8 * CT_SUB, 0, 148 * CT_SUB };
    f->walls[f->n_walls++] = (ct_box){ 100 * CT_SUB, -8 * CT_SUB, 108 * CT_SUB, 148 * CT_SUB };
    f->walls[f->n_walls++] = (ct_box){ -8 * CT_SUB, -8 * CT_SUB, 108 * CT_SUB, 0 };
    size_t i;
    json_t *w;
    json_array_foreach(walls, i, w) {
        f->walls[f->n_walls++] = (ct_box){ (int32_t)at(w, 0) * CT_SUB, (int32_t)at(w, 1) * CT_SUB,
                                           (int32_t)at(w, 2) * CT_SUB, (int32_t)at(w, 3) * CT_SUB };
    }
    return true;
}

static const char *contraption_trace(const json_t *c)
{
    static ct_tick tr[CT_TICK_CAP];
    ct_field f;
    if (!field_from_json(json_object_get(c, "field"), &f))
        return "field does not parse";
    ct_part parts[CT_MAX_PARTS];
    int n = 0;
    size_t k;
    json_t *m;
    json_array_foreach(json_object_get(c, "moves"), k, m) {
        if (n == CT_MAX_PARTS)
            return "more placements than a field holds";
        ct_part_init(&parts[n++], (int32_t)geti(m, "part"), (int32_t)geti(m, "x"),
                     (int32_t)geti(m, "y"), (int32_t)geti(m, "angle"));
    }
    ct_run run;
    ct_simulate(&f, parts, n, tr, CT_TICK_CAP, &run);
    const json_t *want = json_object_get(c, "run");
    if (run.reached != json_is_true(json_object_get(want, "reached")) ||
        run.arrival_tick != geti(want, "arrival_tick") || run.ticks != geti(want, "ticks") ||
        run.end != geti(want, "end"))
        return "run differs";
    const json_t *ticks = json_object_get(c, "ticks");
    if ((int64_t)json_array_size(ticks) != run.ticks)
        return "tick count differs";
    for (size_t t = 0; t < json_array_size(ticks); t++) {
        const json_t *row = json_array_get(ticks, t);
        if (tr[t].x != at(row, 0) || tr[t].y != at(row, 1) || tr[t].vx != at(row, 2) ||
            tr[t].vy != at(row, 3))
            return "a tick differs";
    }
    return NULL;
}

static const char *contraption_daily(const json_t *c)
{
    civil_date d;
    if (!civil_parse(json_string_value(json_object_get(c, "date")), &d))
        return "date does not parse";
    uint32_t want = (uint32_t)geti(c, "seed");
    const char *text = json_string_value(json_object_get(c, "text"));
    if (!text || fnv1a32_str(text) != want)
        return "text does not hash to the seed";
    if (contraption_daily_seed(d) != want || daily_seed_for(&contraption_game, d) != want)
        return "seed differs";
    return NULL;
}

/* ---- Driftlings' traces (games/driftlings/spec.md, "Vectors") ---- */

static const char *const skill_keys[DL_SKILLS] = { "climber", "floater", "blocker", "basher",
                                                   "digger" };

static bool trace_level(const json_t *tr, dl_level *lv)
{
    const json_t *rows = json_object_get(tr, "rows");
    const char *r[DL_MAX_H];
    int n = (int)json_array_size(rows);
    if (n < 1 || n > DL_MAX_H)
        return false;
    for (int i = 0; i < n; i++)
        r[i] = json_string_value(json_array_get(rows, (size_t)i));
    int inv[DL_SKILLS];
    for (int s = 0; s < DL_SKILLS; s++)
        inv[s] = (int)geti(json_object_get(tr, "inventory"), skill_keys[s]);
    if (!driftlings_level_from_ascii(lv, r, n, (int)geti(tr, "crowd"), (int)geti(tr, "quota"),
                                     (int)geti(tr, "interval"), (int32_t)geti(tr, "cap"), inv))
        return false;
    /* A trace is played under version 1 unless it names another. */
    if (json_object_get(tr, "version"))
        lv->version = (int)geti(tr, "version");
    return true;
}

static bool walkers_match(const dl_world *w, const json_t *want)
{
    if ((int)json_array_size(want) != w->spawned)
        return false;
    for (int i = 0; i < w->spawned; i++) {
        const json_t *a = json_array_get(want, (size_t)i);
        const dl_walker *k = &w->walker[i];
        int32_t got[6] = { k->x, k->y, k->dir, k->act, k->traits, k->fall };
        for (int f = 0; f < 6; f++)
            if (at(a, (size_t)f) != got[f])
                return false;
    }
    return true;
}

static game_move trace_move(const json_t *m)
{
    game_move out;
    memset(&out, 0, sizeof out);
    out.v[0] = (int32_t)geti(m, "tick");
    out.v[1] = (int32_t)geti(m, "walker");
    out.v[2] = (int32_t)geti(m, "skill");
    return out;
}

static const char *trace_terrain_differs(const dl_state *st, const json_t *after)
{
    dl_state end = *st;
    const dl_map *m = &end.level->map;
    while (end.world.tick < end.level->cap && !dl_settled(&end.world))
        dl_tick(&end.world);
    for (int y = 0; y < m->h; y++) {
        const char *row = json_string_value(json_array_get(after, (size_t)y));
        if (!row || (int)strlen(row) != m->w)
            return "terrain_after has another shape";
        for (int x = 0; x < m->w; x++) {
            char ch = (char)end.world.map.cell[y * m->w + x];
            if (x == m->ex && y == m->ey)
                ch = 'E';
            if (x == m->xx && y == m->xy)
                ch = 'X';
            if (ch != row[x])
                return "terrain_after differs";
        }
    }
    return NULL;
}

/* One trace: moves through apply(), the world checked at each listed tick
 * before the moves of that tick, then the result (run on to the end). */
static const char *driftlings_trace(const json_t *tr)
{
    static dl_level lv;
    static dl_state st;
    const game *g = &driftlings_game;
    game_state *h = game_state_handle(&st);
    if (!trace_level(tr, &lv))
        return "rows do not make a level";
    g->start(h, game_level_handle(&lv));
    const json_t *moves = json_object_get(tr, "moves"), *outs = json_object_get(tr, "outcomes");
    const json_t *ticks = json_object_get(tr, "ticks");
    size_t nm = json_array_size(moves), nt = json_array_size(ticks), ti = 0, mi = 0;
    for (;;) {
        const json_t *mv = json_array_get(moves, mi), *cp = json_array_get(ticks, ti);
        int64_t next_move = mi < nm ? geti(mv, "tick") : INT64_MAX;
        int64_t next_cp = ti < nt ? geti(cp, "tick") : INT64_MAX;
        if (next_move == INT64_MAX && next_cp == INT64_MAX)
            break;
        if (next_cp <= next_move) {
            /* advance as the game's own run does, noticing the end */
            while (!st.ended && st.world.tick < next_cp) {
                dl_tick(&st.world);
                if (dl_settled(&st.world) || st.world.tick >= st.level->cap)
                    st.ended = true;
            }
            while (st.world.tick < next_cp)
                dl_tick(&st.world); /* past the end: the tick rules run the world on */
            if (!walkers_match(&st.world, json_object_get(cp, "walkers")))
                return "the walkers of a listed tick differ";
            ti++;
            continue;
        }
        game_move m = trace_move(mv);
        int o = g->apply(h, &m);
        const char *want = json_string_value(json_array_get(outs, mi));
        if (!want || strcmp(g->outcomes[o].code, want) != 0)
            return "an outcome differs";
        mi++;
        if (g->outcomes[o].kind == OUTCOME_REJECTED) {
            const json_t *rj = json_object_get(tr, "rejected");
            if (ti < nt)
                return "a listed tick after the rejected move"; /* nothing after it runs */
            return rj && geti(rj, "move") == (int64_t)(mi - 1) ? NULL : "unexpected rejection";
        }
    }
    if (json_object_get(tr, "rejected"))
        return "expected a rejection";
    /* The result from the apply()-only path, on a fresh state. */
    g->start(h, game_level_handle(&lv));
    for (size_t i = 0; i < nm; i++) {
        game_move m = trace_move(json_array_get(moves, i));
        g->apply(h, &m);
    }
    game_result r;
    g->result(h, &r);
    json_t *got = result_to_json(g, &r);
    const char *key = subset_mismatch(json_object_get(tr, "result"), got);
    json_decref(got);
    if (key)
        return "a result field differs";
    const json_t *after = json_object_get(tr, "terrain_after");
    return after ? trace_terrain_differs(&st, after) : NULL;
}

/* The sections a game adds of its own, each case checked by its game's
 * spec; any other array in a game file is a section nothing checks. */
typedef struct game_section {
    const char *game, *key;
    const char *(*check)(const json_t *c);
} game_section;

static const game_section game_sections[] = {
    { "contraption", "trig", contraption_trig },
    { "contraption", "traces", contraption_trace },
    { "contraption", "daily", contraption_daily },
    { "driftlings", "traces", driftlings_trace },
};

static void check_game_file(const char *file, const json_t *doc)
{
    const game *g = game_find(json_string_value(json_object_get(doc, "game")));
    if (!g) {
        printf("FAIL %s: no game of that name in the catalogue\n", file);
        failed++;
        return;
    }
    size_t i;
    const json_t *c;
    json_array_foreach(json_object_get(doc, "levels"), i, c)
        check_level_case(file, g, c);
    json_array_foreach(json_object_get(doc, "replays"), i, c)
        check_replay_case(file, g, c);
    const char *key;
    const json_t *section;
    json_object_foreach((json_t *)doc, key, section) {
        if (!json_is_array(section) || strcmp(key, "levels") == 0 || strcmp(key, "replays") == 0)
            continue;
        const game_section *gs = NULL;
        for (size_t k = 0; k < sizeof game_sections / sizeof game_sections[0]; k++)
            if (strcmp(game_sections[k].game, g->name) == 0 && strcmp(game_sections[k].key, key) == 0)
                gs = &game_sections[k];
        if (!gs) {
            printf("FAIL %s: section \"%s\" has no checker\n", file, key);
            failed++;
            continue;
        }
        json_array_foreach(section, i, c)
            report(file, c, gs->check(c));
    }
}

/* Whether a file (NAME.json) is among the NAMEs asked for (all when none). */
static bool wanted(const char *file, int n_names, char **names)
{
    if (n_names == 0)
        return true;
    size_t stem = strlen(file) - 5;
    for (int i = 0; i < n_names; i++)
        if (strlen(names[i]) == stem && strncmp(file, names[i], stem) == 0)
            return true;
    return false;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "vectors";
    DIR *d = opendir(dir);
    if (!d) {
        printf("FAIL test_vectors: cannot open %s\n", dir);
        return 1;
    }
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".json") != 0 ||
            !wanted(e->d_name, argc > 2 ? argc - 2 : 0, argv + 2))
            continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        json_error_t jerr;
        json_t *doc = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
        if (!doc) {
            printf("FAIL %s: does not parse: %s (line %d)\n", path, jerr.text, jerr.line);
            failed++;
            continue;
        }
        if (strcmp(e->d_name, "prng.json") == 0)
            check_prng(path, doc);
        else
            check_game_file(path, doc);
        json_decref(doc);
    }
    closedir(d);
    if (passed + failed == 0) {
        printf("FAIL test_vectors: no case ran\n");
        return 1;
    }
    return failed ? 1 : 0;
}
