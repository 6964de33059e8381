/*
 * reverify_db: builds a database of real verified scores from every game
 * for the re-verification test (tests/unit/test_reverify.c) and bench
 * (tests/bench/bench_reverify.c), through the store's own writes (players,
 * seed tokens, scores; group-committed). Each score is what the submission
 * path would record: a level rebuilt from (game, version, level, seed), a
 * run that replays without rejection (the game's typical solution, or a
 * random run cut before its first rejected move), its result, moves hash
 * and canonical moves. One in ten is a daily score of the day's pick. A
 * run identical to another player's is refused by the store (counted in
 * `refused`) and made up for: `count` are written.
 * Header-only so both binaries share it; deterministic from `seed`.
 */
#ifndef REPLAYD_TESTS_REVERIFY_DB_H
#define REPLAYD_TESTS_REVERIFY_DB_H

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../core/civil.h"
#include "../core/daily.h"
#include "../core/replay.h"
#include "../server/base/json_game.h"
#include "../server/trust/receipt.h"
#include "../server/store/store.h"
#include "bench/solutions.h"

#define RDB_PLAYERS 500
#define RDB_CHUNK 1024

typedef struct rdb_stats {
    long written[16]; /* by game_catalog index */
    long refused;     /* duplicates of another player's run (the store refuses or holds them) */
    long total;
} rdb_stats;

static uint32_t rdb_next(uint32_t *s)
{
    /* xorshift32: the test's own randomness, not the games' */
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

static void rdb_done(store_write *w)
{
    atomic_fetch_add((atomic_long *)w->ctx, 1);
}

/* A run on that level that replays without rejection; its length. */
static size_t rdb_run(const game *g, int version, const game_level *level, game_state *state,
                      uint32_t *rnd, game_move *moves, size_t cap, bool typical_ok, replay_report *rep)
{
    size_t n;
    if (typical_ok && version == g->version && rdb_next(rnd) % 2 == 0) {
        n = (size_t)typical(g, level, moves);
        if (n > cap)
            n = cap;
        n = n ? rdb_next(rnd) % 4 ? n : rdb_next(rnd) % n : 0; /* some runs stop early */
    } else {
        n = 1 + rdb_next(rnd) % (cap < 40 ? cap : 40);
        int32_t t = 0;
        for (size_t i = 0; i < n; i++) {
            t += 450 + (int32_t)(rdb_next(rnd) % 900);
            memset(&moves[i], 0, sizeof moves[i]);
            for (int f = 0; f < g->n_fields; f++) {
                const game_field *fd = &g->fields[f];
                if (!game_field_in(fd, version))
                    continue;
                int64_t span = (int64_t)fd->max - fd->min + 1;
                moves[i].v[f] = strcmp(fd->name, "t") == 0 ? t
                                                           : (int32_t)(fd->min + (int64_t)(rdb_next(rnd) % (uint32_t)(span > 64 ? 64 : span)));
            }
        }
    }
    replay_run(g, level, state, moves, n, NULL, rep);
    if (rep->rejected) {
        n = rep->rejected_move;
        replay_run(g, level, state, moves, n, NULL, rep);
    }
    return n;
}

/* Writes `count` scores spread over every game into s, each with a v2
 * receipt signed by kr's current key. Returns false when a write failed
 * for another reason than a duplicate. */
static bool rdb_build(store *s, long count, uint32_t seed, const keyring *kr, rdb_stats *out)
{
    memset(out, 0, sizeof *out);
    uint32_t rnd = seed ? seed : 1;
    atomic_long done = 0;
    size_t lsz = 1, ssz = 1;
    for (size_t i = 0; i < game_catalog_count; i++) {
        lsz = game_catalog[i]->level_size > lsz ? game_catalog[i]->level_size : lsz;
        ssz = game_catalog[i]->state_size > ssz ? game_catalog[i]->state_size : ssz;
    }
    game_level *level = malloc(lsz);
    game_state *state = malloc(ssz);
    game_move *moves = calloc(MAX_MOVES, sizeof *moves);
    store_write *players = calloc(RDB_PLAYERS, sizeof *players);
    store_write *w = calloc(2 * RDB_CHUNK, sizeof *w);
    bool ok = level && state && moves && players && w;
    /* players 1..RDB_PLAYERS */
    for (long i = 0; ok && i < RDB_PLAYERS; i++) {
        char *name = malloc(24);
        snprintf(name, 24, "rv%ld", i + 1);
        players[i].kind = STORE_WRITE_PLAYER;
        players[i].u.player.name = name;
        memcpy(players[i].u.player.token_hash, &i, sizeof i);
        players[i].u.player.token_hash[31] = 0x5a;
        players[i].u.player.now = 1;
        players[i].done = rdb_done;
        players[i].ctx = &done;
        store_write_async(s, &players[i]);
    }
    while (ok && atomic_load(&done) < RDB_PLAYERS)
        nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
    for (long i = 0; ok && i < RDB_PLAYERS; i++) {
        if (players[i].status != STORE_OK) {
            fprintf(stderr, "reverify_db: a player write failed (%d)\n", (int)players[i].status);
            ok = false;
        }
        free((char *)players[i].u.player.name);
    }
    int32_t today = (int32_t)civil_to_days((civil_date){ 2026, 12, 2 });
    long dailies = 0;
    /* until count are written (a bounded number of tries) */
    for (long base = 0; ok && out->total < count && base < 2 * count; ) {
        long n = count - out->total < RDB_CHUNK ? count - out->total : RDB_CHUNK;
        atomic_store(&done, 0);
        for (long k = 0; k < n; k++) {
            long i = base + k;
            store_write *tw = &w[2 * k], *sw = &w[2 * k + 1];
            memset(tw, 0, sizeof *tw);
            memset(sw, 0, sizeof *sw);
            play p;
            memset(&p, 0, sizeof p);
            for (int b = 0; b < PLAY_NONCE_BYTES; b++)
                p.nonce[b] = (uint8_t)rdb_next(&rnd);
            p.day = -1;
            if (i % 10 == 9) {
                /* a daily: one per player and day */
                daily_pick pick;
                p.day = today - (int32_t)(dailies / RDB_PLAYERS);
                p.player_id = 1 + dailies % RDB_PLAYERS;
                dailies++;
                if (!daily_for_date(civil_from_days(p.day), &pick)) {
                    fprintf(stderr, "reverify_db: no daily on day %d\n", (int)p.day);
                    ok = false;
                    break;
                }
                p.g = pick.game;
                p.level = pick.level;
                p.seed = pick.seed;
                p.version = pick.game->version;
            } else {
                p.player_id = 1 + (int64_t)(rdb_next(&rnd) % RDB_PLAYERS);
                p.g = game_catalog[i % (long)game_catalog_count];
                p.version = p.g->min_version + (int)(rdb_next(&rnd) % (uint32_t)(p.g->version - p.g->min_version + 1));
                p.level = 1 + (int)(rdb_next(&rnd) % (uint32_t)p.g->levels);
                p.seed = rdb_next(&rnd);
            }
            const game *g = p.g;
            if (game_generate(g, level, p.version, p.level, p.seed) != GEN_OK) {
                fprintf(stderr, "reverify_db: %s v%d level %d seed %u not generated\n", g->name,
                        p.version, p.level, (unsigned)p.seed);
                ok = false;
                break;
            }
            replay_report rep;
            size_t cap = (size_t)g->max_moves < MAX_MOVES ? (size_t)g->max_moves : MAX_MOVES;
            /* a daily's players share one level: their typical runs would be
             * copies of each other, which the store refuses */
            size_t nm = rdb_run(g, p.version, level, state, &rnd, moves, cap, !play_is_daily(&p), &rep);
            tw->kind = STORE_WRITE_TOKEN;
            tw->u.token.token.p = p;
            tw->u.token.token.issued_at = 1000;
            tw->u.token.token.expires_at = 4000000000000LL;
            snprintf(tw->u.token.token.text, sizeof tw->u.token.token.text, "t%ld", i);
            tw->u.token.now = 1000;
            tw->u.token.max_outstanding = 1 << 30; /* no caps here */
            tw->u.token.max_forfeits = 1 << 30;
            tw->done = rdb_done;
            tw->ctx = &done;
            store_score *sc = &sw->u.score.score;
            sc->p = p;
            play_score_id(&p, sc->score_id);
            sc->score = rep.result.score;
            sc->completed = rep.result.completed;
            sc->outcome = rep.result.completed ? RUN_COMPLETED : RUN_INCOMPLETE;
            sc->timed = rep.result.duration_ms >= 0;
            sc->received_at = 1700000000000LL + i * 1000;
            moves_hash(g, p.version, moves, nm, sc->moves_hash);
            json_t *mj = moves_to_json(g, p.version, moves, nm), *rj = result_to_json(g, &rep.result);
            sc->moves_json = json_dumps(mj, JSON_COMPACT);
            sc->result_json = json_dumps(rj, JSON_COMPACT);
            sc->signals_json = strdup("{}");
            json_decref(mj);
            json_decref(rj);
            receipt_fields rf = { &sc->p, sc->score_id, sc->score, sc->completed, sc->received_at,
                                  sc->moves_hash };
            if (receipt_sign(kr, &rf, sc->receipt, sizeof sc->receipt) != 0) {
                fprintf(stderr, "reverify_db: cannot sign\n");
                ok = false;
                break;
            }
            sw->kind = STORE_WRITE_SCORE;
            sw->done = rdb_done;
            sw->ctx = &done;
            store_write_async(s, tw);
            store_write_async(s, sw);
        }
        while (atomic_load(&done) < 2 * n)
            nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
        for (long k = 0; k < n; k++) {
            store_write *tw = &w[2 * k], *sw = &w[2 * k + 1];
            store_score *sc = &sw->u.score.score;
            if (tw->status != STORE_OK && tw->status != STORE_CONFLICT) {
                fprintf(stderr, "reverify_db: a token write failed (%d)\n", (int)tw->status);
                ok = false;
            }
            if (sw->status == STORE_OK) {
                for (size_t gi = 0; gi < game_catalog_count; gi++)
                    if (game_catalog[gi] == sc->p.g)
                        out->written[gi]++;
                out->total++;
            } else if (sw->status == STORE_DUPLICATE || sw->status == STORE_CONFLICT ||
                       sw->status == STORE_NOT_FOUND) {
                out->refused++;
            } else {
                fprintf(stderr, "reverify_db: a score write failed (%d)\n", (int)sw->status);
                ok = false;
            }
            store_score_clear(sc);
            store_score_clear(&sw->u.score.existing);
        }
        base += n;
    }
    free(level);
    free(state);
    free(moves);
    free(players);
    free(w);
    return ok;
}

#endif
