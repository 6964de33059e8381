/* verify_submission (server/trust/verify.c) called directly, without HTTP
 * or a store: a good Schulte run is a record with the replayed score and a
 * receipt that verifies; an illegal move is a rejection at its index; a run
 * claiming more time than has passed is duration_exceeds_elapsed at the
 * first move past the allowance; a store read that fails is an error with
 * its status, and a record review that finds a record holds the run. */
#include "../check.h"

#include <stdlib.h>
#include <string.h>

#include "../../core/replay.h"
#include "../../server/trust/fairplay.h"
#include "../../server/trust/receipt.h"
#include "../../server/trust/verify.h"

#define CELLS 16
#define MAX_MOVES (CELLS + 2)
#define HOUR_MS 3600000

typedef struct fixture {
    config cfg;
    keyring keys;
    level_cache levels;
    fairplay_book book;
    verify_ctx ctx;
    store_player player;
    seed_token t;
    game_move moves[MAX_MOVES];
    size_t n;
    int64_t score; /* the run's score as replay_run gives it */
} fixture;

static fixture fx;

/* The cell the next number is in: each cell tried on a copy of the state. */
static int found_cell(const game *g, const game_state *st, int32_t t)
{
    game_state *copy = malloc(g->state_size);
    int found = -1;
    for (int cell = 0; cell < 49 && found < 0 && copy; cell++) {
        memcpy(copy, st, g->state_size);
        game_move m = { { t, cell } };
        if (strcmp(g->outcomes[g->apply(copy, &m)].code, "found") == 0)
            found = cell;
    }
    free(copy);
    return found;
}

/* A person's pace on the 4 x 4 level: 16 numbers, gaps of 400 to 1000 ms. */
static void solve(const game *g, const game_level *lv)
{
    static const int32_t gaps[] = { 613, 487, 921, 402, 777, 531, 698, 847, 459, 1003, 566, 733 };
    game_state *st = malloc(g->state_size);
    g->start(st, lv);
    int32_t t = 0;
    fx.n = 0;
    for (int i = 0; i < CELLS; i++) {
        t += gaps[i % 12];
        fx.moves[fx.n] = (game_move){ { t, found_cell(g, st, t) } };
        g->apply(st, &fx.moves[fx.n++]);
    }
    free(st);
}

static void setup(void)
{
    memset(&fx, 0, sizeof fx);
    config_defaults(&fx.cfg);
    unsigned char seed[crypto_sign_SEEDBYTES] = { 1, 2, 3 };
    fx.keys.keys[0].id = 3;
    crypto_sign_seed_keypair(fx.keys.keys[0].sign_pk, fx.keys.keys[0].sign_sk, seed);
    fx.keys.count = 1;
    CHECK(level_cache_init(&fx.levels, 4));
    CHECK(fairplay_book_init(&fx.book));
    fx.ctx = (verify_ctx){ .cfg = &fx.cfg, .keys = &fx.keys, .levels = &fx.levels, .book = &fx.book };
    fx.player = (store_player){ .id = 42, .created_at = 1 };
    const game *g = game_find("schulte");
    fx.t.p = (play){ .player_id = 42, .g = g, .level = 3, .seed = 424242, .version = 2, .day = -1 };
    fx.t.issued_at = 1000;
    fx.t.expires_at = 1000 + HOUR_MS;
    game_level *lv = malloc(g->level_size);
    CHECK_EQ(game_generate(g, lv, 2, 3, 424242), GEN_OK); /* 4 x 4 */
    solve(g, lv);
    game_state *st = malloc(g->state_size);
    int outcomes[MAX_MOVES];
    replay_report rep;
    replay_run(g, lv, st, fx.moves, fx.n, outcomes, &rep);
    CHECK(!rep.rejected && rep.result.completed);
    fx.score = rep.result.score;
    free(st);
    free(lv);
}

static void teardown(void)
{
    level_cache_free(&fx.levels);
    fairplay_book_free(&fx.book);
}

/* Verified a minute after the seed was issued, received a second before. */
static verify_result verify(verify_out *out)
{
    int64_t now = fx.t.issued_at + 60000;
    return verify_submission(&fx.ctx, &fx.player, &fx.t, fx.moves, fx.n, now - 1000, now, out);
}

static void good_run_is_a_record(void)
{
    setup();
    verify_out out;
    CHECK_EQ(verify(&out), VERIFIED_SCORE);
    const store_score *sc = &out.score;
    CHECK_EQ(sc->score, fx.score);
    CHECK(sc->completed);
    CHECK_EQ(sc->received_at, fx.t.issued_at + 59000);
    CHECK(sc->p.player_id == 42 && sc->p.level == 3 && sc->p.seed == 424242);
    CHECK(out.result != NULL && sc->result_json != NULL && sc->moves_json != NULL);
    CHECK(sc->signals_json != NULL && strstr(sc->signals_json, "\"features\"") != NULL);
    CHECK(sc->has_shape && sc->twin_times != NULL && !sc->hold);
    uint8_t hash[STORE_HASH_BYTES];
    moves_hash(sc->p.g, 2, fx.moves, fx.n, hash);
    CHECK(memcmp(hash, sc->moves_hash, sizeof hash) == 0);
    /* receipt_version 3 (the default): no signature, the store names the leaf */
    CHECK_EQ(fx.cfg.receipt_version, 3);
    CHECK_EQ(sc->receipt[0], '\0');
    verify_out_clear(&out);
    /* receipt_version 2: signed here, one signature a score */
    fx.cfg.receipt_version = 2;
    CHECK_EQ(verify(&out), VERIFIED_SCORE);
    sc = &out.score;
    receipt_fields f = { &sc->p, sc->score_id, sc->score, sc->completed, sc->received_at, sc->moves_hash };
    CHECK(strncmp(sc->receipt, "v2.", 3) == 0);
    CHECK_EQ(receipt_verify(&fx.keys, &f, sc->receipt), 0);
    verify_out_clear(&out);
    teardown();
}

static void illegal_moves_are_rejected_at_their_index(void)
{
    setup();
    verify_out out;
    fx.moves[5].v[1] = 99; /* no such cell */
    CHECK_EQ(verify(&out), VERIFIED_REJECTION);
    CHECK(strcmp(out.reason, "cell_out_of_range") == 0);
    CHECK_EQ(out.move, 5);
    CHECK(out.result == NULL && out.score.signals_json == NULL);
    verify_out_clear(&out);
    teardown();
    setup();
    fx.moves[9].v[0] = fx.moves[8].v[0] - 10;
    CHECK_EQ(verify(&out), VERIFIED_REJECTION);
    CHECK(strcmp(out.reason, "time_backwards") == 0);
    CHECK_EQ(out.move, 9);
    verify_out_clear(&out);
    teardown();
}

/* A 10.5 s run verified 2 s after its seed was issued: refused at the first
 * move later than the allowance (fairplay_allowed_ms). */
static void claimed_time_past_elapsed(void)
{
    setup();
    verify_out out;
    int64_t now = fx.t.issued_at + 2000;
    int64_t allowed = fairplay_allowed_ms(&fx.cfg, 2000);
    long first = -1;
    for (size_t i = 0; i < fx.n && first < 0; i++)
        if (fx.moves[i].v[0] > allowed)
            first = (long)i;
    CHECK(first > 0);
    verify_result v = verify_submission(&fx.ctx, &fx.player, &fx.t, fx.moves, fx.n, now, now, &out);
    CHECK_EQ(v, VERIFIED_REJECTION);
    CHECK(strcmp(out.reason, "duration_exceeds_elapsed") == 0);
    CHECK_EQ(out.move, first);
    verify_out_clear(&out);
    teardown();
}

static int64_t would_be; /* the rank the stub read answers */

static store_status rank_fails(void *ctx, const store_board *b, int64_t score, int64_t *rank)
{
    (void)ctx, (void)b, (void)score, (void)rank;
    return STORE_BUSY;
}

static store_status rank_stub(void *ctx, const store_board *b, int64_t score, int64_t *rank)
{
    (void)ctx, (void)score;
    *rank = b->day == 20000 ? would_be : -1;
    return STORE_OK;
}

static store_status none_approved(void *ctx, int64_t player_id, int64_t *count)
{
    (void)ctx;
    *count = player_id == 42 ? 0 : -1;
    return STORE_OK;
}

static store_status twins_fail(void *ctx, const play *p, const uint8_t shape[STORE_HASH_BYTES], int limit,
                               store_twin_candidate *out, int *n)
{
    (void)ctx, (void)p, (void)shape, (void)limit, (void)out;
    *n = 0;
    return STORE_ERROR;
}

/* A daily, whose record is reviewed: the reads' answers decide. */
static void reads_decide(void)
{
    setup();
    verify_out out;
    fx.t.p.day = 20000;
    fx.cfg.review_top = 10;
    fx.ctx.would_rank = rank_fails;
    fx.ctx.approved = none_approved;
    CHECK_EQ(verify(&out), VERIFY_ERR_STORE);
    CHECK_EQ(out.store_error, STORE_BUSY);
    CHECK(out.result == NULL && out.score.signals_json == NULL);
    fx.ctx.would_rank = rank_stub;
    would_be = 1; /* a record from a player with nothing approved: held */
    CHECK_EQ(verify(&out), VERIFIED_SCORE);
    CHECK(out.score.hold && strstr(out.score.signals_json, "\"record\"") != NULL);
    verify_out_clear(&out);
    would_be = 11; /* outside the top: ranked */
    CHECK_EQ(verify(&out), VERIFIED_SCORE);
    CHECK(!out.score.hold && strstr(out.score.signals_json, "\"record\"") == NULL);
    verify_out_clear(&out);
    fx.cfg.twin_correlation_permille = 900;
    fx.ctx.twins = twins_fail;
    CHECK_EQ(verify(&out), VERIFY_ERR_STORE);
    CHECK_EQ(out.store_error, STORE_ERROR);
    verify_out_clear(&out);
    fx.ctx = (verify_ctx){ .cfg = &fx.cfg, .keys = &fx.keys, .levels = &fx.levels, .book = &fx.book };
    CHECK_EQ(verify(&out), VERIFIED_SCORE); /* no reads: both checks skipped */
    CHECK(!out.score.hold && out.score.twin_seen == 0);
    verify_out_clear(&out);
    teardown();
}

int main(void)
{
    if (sodium_init() < 0)
        return 1;
    RUN(good_run_is_a_record);
    RUN(illegal_moves_are_rejected_at_their_index);
    RUN(claimed_time_past_elapsed);
    RUN(reads_decide);
    CHECK_DONE();
}
