/*
 * test_vectors: runs every case of every vectors/ (every .json file) against the C code.
 * One PASS/FAIL line per case. Game files follow docs/VECTORS.md; prng.json
 * pins the shared core (docs/CORE.md).
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
#include "../../server/json_game.h"

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
    char msg[128];
    json_array_foreach(json_object_get(doc, "mulberry32"), i, c) {
        uint32_t s = (uint32_t)json_integer_value(json_object_get(c, "seed"));
        const json_t *first = json_object_get(c, "first");
        const char *bad = NULL;
        for (size_t k = 0; k < json_array_size(first); k++)
            if (rng_next(&s) != (uint32_t)json_integer_value(json_array_get(first, k)))
                bad = "value differs";
        report(file, c, bad);
    }
    json_array_foreach(json_object_get(doc, "below"), i, c) {
        uint32_t s = (uint32_t)json_integer_value(json_object_get(c, "seed"));
        uint32_t n = (uint32_t)json_integer_value(json_object_get(c, "n"));
        const json_t *first = json_object_get(c, "first");
        const char *bad = n == 0 ? "n is 0" : NULL;
        for (size_t k = 0; !bad && k < json_array_size(first); k++)
            if (rng_below(&s, n) != (uint32_t)json_integer_value(json_array_get(first, k)))
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
        uint32_t s = (uint32_t)json_integer_value(json_object_get(c, "seed"));
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
        report(file, c, h == (uint32_t)json_integer_value(json_object_get(c, "hash")) ? NULL : "hash differs");
    }
    json_array_foreach(json_object_get(doc, "days"), i, c) {
        civil_date d;
        const char *bad = NULL;
        if (!civil_parse(json_string_value(json_object_get(c, "date")), &d))
            bad = "date does not parse";
        else if (civil_to_days(d) != json_integer_value(json_object_get(c, "day")))
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
        else if (p.level != json_integer_value(json_object_get(c, "level")))
            bad = "level differs";
        else if (p.seed != (uint32_t)json_integer_value(json_object_get(c, "seed")))
            bad = "seed differs";
        else if (p.schedule_version != json_integer_value(json_object_get(c, "schedule")))
            bad = "schedule era differs";
        snprintf(msg, sizeof msg, "%s", bad ? bad : "");
        report(file, c, bad ? msg : NULL);
    }
}

/* Generate the case's level into a new buffer, or NULL with *why set. */
static game_level *case_level(const game *g, const json_t *c, const char **why)
{
    int version = (int)json_integer_value(json_object_get(c, "version"));
    int level_no = (int)json_integer_value(json_object_get(c, "level"));
    uint32_t seed = (uint32_t)json_integer_value(json_object_get(c, "seed"));
    game_level *level = calloc(1, g->level_size);
    gen_status st = game_generate(g, level, version, level_no, seed);
    if (st != GEN_OK) {
        free(level);
        *why = st == GEN_BAD_VERSION ? "version not supported" : "level out of range";
        return NULL;
    }
    return level;
}

static void check_level_case(const char *file, const game *g, const json_t *c)
{
    const char *why = NULL;
    game_level *level = case_level(g, c, &why);
    static char msg[160];
    if (level) {
        json_t *got = level_to_json(g, level);
        const char *key = subset_mismatch(json_object_get(c, "expect"), got);
        if (key) {
            snprintf(msg, sizeof msg, "level field \"%s\" differs", key);
            why = msg;
        }
        json_decref(got);
        free(level);
    }
    report(file, c, why);
}

static const char *run_replay_case(const game *g, const json_t *c, const game_level *level)
{
    static char msg[200];
    const json_t *moves_json = json_object_get(c, "moves");
    size_t cap = json_array_size(moves_json);
    game_move *moves = calloc(cap + 1, sizeof *moves);
    int *outcomes = calloc(cap + 1, sizeof *outcomes);
    game_state *state = calloc(1, g->state_size);
    const char *why = NULL;
    move_error err;
    json_t *got = NULL;

    g->start(state, level);
    got = state_to_json(g, state);
    if (!json_equal(got, json_object_get(c, "board_before"))) {
        why = "board_before differs";
        goto done;
    }
    json_decref(got);
    got = NULL;
    long n = moves_from_json(g, (int)json_integer_value(json_object_get(c, "version")), moves_json,
                             moves, cap, &err);
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
        else if ((json_int_t)rep.rejected_move != json_integer_value(json_object_get(want_rej, "move")) ||
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
    const char *why = NULL;
    game_level *level = case_level(g, c, &why);
    if (level) {
        why = run_replay_case(g, c, level);
        free(level);
    }
    report(file, c, why);
}

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
        if (len < 6 || strcmp(e->d_name + len - 5, ".json") != 0)
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
    return failed ? 1 : 0;
}
