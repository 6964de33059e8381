/*
 * test_schulte: the level table, generation over every level and many
 * seeds, reshuffles, full solutions, and the move decoder's handling of
 * malformed moves (shared by the CLI and the server).
 */
#include "../check.h"

#include <stdlib.h>

#include <jansson.h>

#include "../../core/replay.h"
#include "../../games/schulte/schulte.h"
#include "../../server/base/json_game.h"

static json_t *describe(const game_level *level)
{
    return level_to_json(&schulte_game, level);
}

static void grids_are_permutations(void)
{
    game_level *level = malloc(schulte_game.level_size);
    for (int lv = 1; lv <= 15; lv++) {
        for (uint32_t seed = 0; seed < 500; seed++) {
            CHECK_EQ(game_generate(&schulte_game, level, 1, lv, seed * 2654435761u), GEN_OK);
            json_t *d = describe(level);
            int side = (int)json_integer_value(json_object_get(d, "size"));
            bool seen[50] = { false };
            int count = 0;
            size_t r, c;
            json_t *row, *v;
            json_array_foreach(json_object_get(d, "grid"), r, row) json_array_foreach(row, c, v)
            {
                json_int_t x = json_integer_value(v);
                CHECK(x >= 1 && x <= side * side && !seen[x]);
                if (x >= 1 && x <= 49)
                    seen[x] = true;
                count++;
            }
            CHECK_EQ(count, side * side);
            json_decref(d);
        }
    }
    free(level);
}

static void table_shape(void)
{
    game_level *level = malloc(schulte_game.level_size);
    int sides[16];
    for (int lv = 1; lv <= 15; lv++) {
        game_generate(&schulte_game, level, 1, lv, 7);
        json_t *d = describe(level);
        sides[lv] = (int)json_integer_value(json_object_get(d, "size"));
        json_decref(d);
    }
    CHECK_EQ(sides[1], 3);
    CHECK_EQ(sides[15], 7);
    for (int lv = 1; lv <= 15; lv++)
        CHECK(sides[lv] >= 3 && sides[lv] <= 7);
    CHECK_EQ(game_generate(&schulte_game, level, 1, 16, 7), GEN_BAD_LEVEL);
    CHECK_EQ(game_generate(&schulte_game, level, 2, 1, 7), GEN_OK);
    CHECK_EQ(game_generate(&schulte_game, level, 3, 1, 7), GEN_BAD_VERSION);
    free(level);
}

/* Tap the expected number wherever it is now, 150 ms apart. */
static int solve(const game_level *level, game_state *state, game_move *moves, int *outcomes,
                 replay_report *rep)
{
    int n = 0;
    schulte_game.start(state, level);
    for (;;) {
        json_t *b = state_to_json(&schulte_game, state);
        json_int_t next = json_integer_value(json_object_get(b, "next"));
        int cell = -1, i = 0;
        size_t r, c;
        json_t *row, *v;
        json_array_foreach(json_object_get(b, "grid"), r, row) json_array_foreach(row, c, v)
        {
            if (json_integer_value(v) == next)
                cell = i;
            i++;
        }
        json_decref(b);
        if (next == 0 || cell < 0)
            break;
        moves[n] = (game_move){ { 150 * (n + 1), cell } };
        schulte_game.apply(state, &moves[n]);
        n++;
    }
    replay_run(&schulte_game, level, state, moves, (size_t)n, outcomes, rep);
    return n;
}

static void every_level_solves(void)
{
    game_level *level = malloc(schulte_game.level_size);
    game_state *state = malloc(schulte_game.state_size);
    game_move moves[64];
    int outcomes[64];
    for (int lv = 1; lv <= 15; lv++) {
        for (uint32_t seed = 0; seed < 200; seed++) {
            game_generate(&schulte_game, level, 1, lv, seed);
            replay_report rep;
            int n = solve(level, state, moves, outcomes, &rep);
            json_t *d = describe(level);
            int side = (int)json_integer_value(json_object_get(d, "size"));
            int64_t limit = json_integer_value(json_object_get(d, "limit_ms"));
            json_decref(d);
            CHECK_EQ(n, side * side);
            CHECK(!rep.rejected && rep.result.completed);
            CHECK_EQ(rep.result.score, 1000 + (limit - 150 * n) / 100);
        }
    }
    free(level);
    free(state);
}

/* On a reshuffle level the unfound numbers move but found cells stay found. */
static void reshuffle_moves_only_unfound(void)
{
    game_level *level = malloc(schulte_game.level_size);
    game_state *state = malloc(schulte_game.state_size);
    game_generate(&schulte_game, level, 1, 7, 99);
    schulte_game.start(state, level);
    json_t *before = state_to_json(&schulte_game, state);
    int cell_of_1 = -1, i = 0;
    size_t r, c;
    json_t *row, *v;
    json_array_foreach(json_object_get(before, "grid"), r, row) json_array_foreach(row, c, v)
    {
        if (json_integer_value(v) == 1)
            cell_of_1 = i;
        i++;
    }
    game_move tap = { { 500, cell_of_1 } };
    CHECK_EQ(schulte_game.apply(state, &tap), game_outcome_index(&schulte_game, "found"));
    json_t *after = state_to_json(&schulte_game, state);
    i = 0;
    int moved = 0;
    json_t *grid_b = json_object_get(before, "grid"), *grid_a = json_object_get(after, "grid");
    json_array_foreach(grid_a, r, row) json_array_foreach(row, c, v)
    {
        json_int_t was = json_integer_value(json_array_get(json_array_get(grid_b, r), c));
        json_int_t now = json_integer_value(v);
        if (i == cell_of_1)
            CHECK_EQ(now, 0);
        else
            CHECK(now >= 2 && now <= 16);
        moved += was != now && i != cell_of_1;
        i++;
    }
    CHECK(moved > 0);
    json_decref(before);
    json_decref(after);
    free(level);
    free(state);
}

static long decode(const char *text, game_move *out, move_error *err)
{
    json_t *arr = json_loads(text, 0, NULL);
    long n = moves_from_json(&schulte_game, 1, arr, out, 8, err);
    json_decref(arr);
    return n;
}

static void malformed_moves_name_the_first_bad_one(void)
{
    game_move m[8];
    move_error err;
    CHECK_EQ(decode("[{\"t\":1,\"cell\":2}]", m, &err), 1);
    CHECK(m[0].v[0] == 1 && m[0].v[1] == 2);
    CHECK_EQ(decode("[{\"cell\":2,\"t\":1}]", m, &err), 1); /* field order in JSON is free */
    CHECK(m[0].v[0] == 1 && m[0].v[1] == 2);
    CHECK_EQ(decode("[{\"t\":1,\"cell\":2},{\"t\":1}]", m, &err), -1);
    CHECK_EQ(err.index, 1);
    CHECK_EQ(decode("[{\"t\":1,\"cell\":2},{\"t\":1,\"cell\":2,\"x\":0}]", m, &err), -1);
    CHECK_EQ(err.index, 1);
    CHECK_EQ(decode("[{\"t\":1.5,\"cell\":2}]", m, &err), -1);
    CHECK_EQ(err.index, 0);
    CHECK_EQ(decode("[{\"t\":\"1\",\"cell\":2}]", m, &err), -1);
    CHECK_EQ(decode("[{\"t\":-1,\"cell\":2}]", m, &err), -1);
    CHECK_EQ(decode("[{\"t\":2147483648,\"cell\":2}]", m, &err), -1);
    CHECK_EQ(decode("[{\"t\":1,\"cell\":null}]", m, &err), -1);
    CHECK_EQ(decode("[[1,2]]", m, &err), -1);
    CHECK_EQ(decode("{\"t\":1}", m, &err), -1);
    CHECK_EQ(err.index, -1);
    CHECK_EQ(decode("[{},{},{},{},{},{},{},{},{}]", m, &err), -1); /* over the cap */
    CHECK_EQ(err.index, -1);
    CHECK_EQ(decode("[]", m, &err), 0);
}

int main(void)
{
    RUN(table_shape);
    RUN(grids_are_permutations);
    RUN(every_level_solves);
    RUN(reshuffle_moves_only_unfound);
    RUN(malformed_moves_name_the_first_bad_one);
    CHECK_DONE();
}
