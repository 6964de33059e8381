/*
 * digest: one hash over what every game computes on a fixed corpus, so
 * builds with different compilers, optimisation levels and CPUs can be
 * compared (tests/sh/cross_build.sh). Uses only core/ and games/ (no
 * libraries), so it also cross-compiles for aarch64 and runs under qemu.
 *
 * Corpus per game: every replayable version x levels 1..15 x seeds 0..59; for each, the level's
 * description, then replays of no moves, of the level's own plan (where
 * the game prints one) and of 4 pseudo-random move lists; every outcome,
 * board and result goes into the hash.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/fnv.h"
#include "../../core/replay.h"
#include "../../core/rng.h"

#define SEEDS 60
#define MAX_MOVES 600

typedef struct hasher {
    uint32_t h;
    const game *g;
    /* Captures the "plan" array of a level description as moves. */
    int depth, plan_depth;
    game_move plan[MAX_MOVES];
    int n_plan;
} hasher;

static void mix(hasher *x, const void *p, size_t n)
{
    x->h = fnv1a32_update(x->h, p, n);
}

static void mix_key(hasher *x, const char *key)
{
    if (key)
        mix(x, key, strlen(key) + 1);
}

static void mix_i64(hasher *x, int64_t v)
{
    unsigned char b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (unsigned char)((uint64_t)v >> (8 * i));
    mix(x, b, 8);
}

static void w_int(void *ctx, const char *key, int64_t v)
{
    hasher *x = ctx;
    mix_key(x, key);
    mix_i64(x, v);
    if (x->plan_depth && x->depth == x->plan_depth + 1 && x->n_plan < MAX_MOVES)
        for (int f = 0; f < x->g->n_fields; f++)
            if (key && strcmp(key, x->g->fields[f].name) == 0)
                x->plan[x->n_plan].v[f] = (int32_t)v;
}

static void w_bool(void *ctx, const char *key, bool v)
{
    w_int(ctx, key, v);
}

static void w_str(void *ctx, const char *key, const char *v)
{
    hasher *x = ctx;
    mix_key(x, key);
    mix(x, v, strlen(v) + 1);
}

static void w_int_rows(void *ctx, const char *key, const int32_t *v, int rows, int cols)
{
    hasher *x = ctx;
    mix_key(x, key);
    for (int i = 0; i < rows * (cols ? cols : 1); i++)
        mix_i64(x, v[i]);
}

static void w_text_rows(void *ctx, const char *key, const char *chars, int rows, int cols)
{
    hasher *x = ctx;
    mix_key(x, key);
    mix(x, chars, (size_t)rows * (size_t)cols);
}

static void w_begin_object(void *ctx, const char *key)
{
    hasher *x = ctx;
    mix_key(x, key);
    x->depth++;
}

static void w_begin_array(void *ctx, const char *key)
{
    hasher *x = ctx;
    mix_key(x, key);
    x->depth++;
    if (key && strcmp(key, "plan") == 0)
        x->plan_depth = x->depth;
}

static void w_end(void *ctx)
{
    hasher *x = ctx;
    if (x->plan_depth && x->depth == x->plan_depth + 1 && x->n_plan < MAX_MOVES)
        x->n_plan++; /* one plan move object closed */
    if (x->depth == x->plan_depth)
        x->plan_depth = 0;
    x->depth--;
}

static void replay_into(hasher *x, const game_level *level, game_state *state, const game_move *m,
                        int n)
{
    static int outcomes[MAX_MOVES];
    const game *g = x->g;
    game_writer w = { x, w_int, w_bool, w_str, w_int_rows, w_text_rows, w_begin_object, w_begin_array, w_end };
    replay_report rep;
    replay_run(g, level, state, m, (size_t)n, outcomes, &rep);
    size_t shown = rep.rejected ? rep.rejected_move + 1 : (size_t)n;
    for (size_t i = 0; i < shown; i++)
        mix_i64(x, outcomes[i]);
    mix_i64(x, rep.rejected ? (int64_t)rep.rejected_move : -1);
    if (!rep.rejected) {
        g->describe_state(state, &w);
        mix_i64(x, rep.result.completed);
        mix_i64(x, rep.result.score);
        mix_i64(x, rep.result.duration_ms);
        for (int i = 0; i < g->n_extras; i++)
            mix_i64(x, rep.result.extra[i]);
    }
}

/* Pseudo-random moves: time-like fields grow, the others are small. */
static int random_moves(const game *g, int version, uint32_t *rng, game_move *out)
{
    int n = (int)rng_below(rng, 60);
    int32_t clock[GAME_MAX_FIELDS] = { 0 };
    for (int i = 0; i < n; i++) {
        for (int f = 0; f < g->n_fields; f++) {
            const char *name = g->fields[f].name;
            if (!game_field_in(&g->fields[f], version)) {
                out[i].v[f] = 0; /* the decoder's value for a field the version lacks */
                continue;
            }
            bool timeish = strcmp(name, "t") == 0 || strcmp(name, "tick") == 0;
            if (timeish) {
                clock[f] += (int32_t)rng_below(rng, strcmp(name, "t") == 0 ? 700 : 12);
                out[i].v[f] = clock[f];
            } else {
                int64_t span = (int64_t)g->fields[f].max - g->fields[f].min + 1;
                uint32_t limit = span > 64 ? 64 : (uint32_t)span;
                out[i].v[f] = g->fields[f].min + (int32_t)rng_below(rng, limit);
            }
        }
    }
    return n;
}

int main(void)
{
    static game_move moves[MAX_MOVES];
    uint32_t all = FNV1A32_OFFSET;
    for (size_t gi = 0; gi < game_catalog_count; gi++) {
        const game *g = game_catalog[gi];
        game_level *level = malloc(g->level_size);
        game_state *state = malloc(g->state_size);
        static hasher x;
        memset(&x, 0, sizeof x);
        x.h = FNV1A32_OFFSET;
        x.g = g;
        uint32_t rng = 12345;
        for (int version = g->min_version; version <= g->version; version++)
        for (int lv = 1; lv <= g->levels; lv++) {
            for (uint32_t seed = 0; seed < SEEDS; seed++) {
                if (game_generate(g, level, version, lv, seed * 2654435761u) != GEN_OK) {
                    printf("%s: generate failed\n", g->name);
                    return 1;
                }
                game_writer w = { &x, w_int, w_bool, w_str, w_int_rows, w_text_rows,
                                  w_begin_object, w_begin_array, w_end };
                x.n_plan = 0;
                x.depth = x.plan_depth = 0;
                g->describe_level(level, &w);
                replay_into(&x, level, state, moves, 0);
                if (x.n_plan > 0) {
                    memcpy(moves, x.plan, sizeof(game_move) * (size_t)x.n_plan);
                    replay_into(&x, level, state, moves, x.n_plan);
                }
                for (int k = 0; k < 4; k++)
                    replay_into(&x, level, state, moves, random_moves(g, version, &rng, moves));
            }
        }
        printf("%-12s %08x\n", g->name, (unsigned)x.h);
        all = fnv1a32_update(all, &x.h, sizeof x.h);
        free(level);
        free(state);
    }
    printf("%-12s %08x\n", "all", (unsigned)all);
    return 0;
}
