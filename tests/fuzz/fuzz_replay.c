/*
 * fuzz_replay: libFuzzer target for everything a submission body reaches
 * before the database: the depth check, json_loadb, the move decoder and
 * verify_submission (server/trust/verify.h: the level rebuilt, the replay,
 * the fairplay measures, the claimed time, the record and its receipt)
 * for the game the first byte picks, without the store's reads, plus
 * seed-token parsing. Any crash, leak, sanitizer report or unbounded loop
 * is a bug.
 *
 * Build and run: make fuzz (clang -fsanitize=fuzzer,address,undefined).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "../../server/base/json_game.h"
#include "../../server/trust/token.h"
#include "../../server/trust/verify.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static keyring ring;
static config cfg;
static level_cache levels;
static fairplay_book book;
static verify_ctx ctx; /* no store reads: the record review and the twin lookup are skipped */
static bool ready;

static void setup(void)
{
    if (ready)
        return;
    ready = true;
    memset(&ring, 0, sizeof ring);
    if (sodium_init() < 0 || !level_cache_init(&levels, 64) || !fairplay_book_init(&book))
        abort();
    ring.count = 1;
    ring.keys[0].id = 1;
    crypto_auth_keygen(ring.keys[0].mac);
    crypto_sign_keypair(ring.keys[0].sign_pk, ring.keys[0].sign_sk);
    config_defaults(&cfg);
    ctx = (verify_ctx){ .cfg = &cfg, .keys = &ring, .levels = &levels, .book = &book };
}

/* The moves verified as the player's run of that level, seed and version,
 * received `elapsed` ms after its token was issued. */
static void verify(const game *g, int version, int level_no, uint32_t seed, const game_move *moves,
                   size_t n, int64_t elapsed)
{
    static const store_player player = { .id = 1, .created_at = 1 };
    seed_token t = { .key_id = 1, .issued_at = 1000, .expires_at = 1000 + elapsed };
    t.p = (play){ .player_id = player.id, .g = g, .level = level_no, .seed = seed, .version = version,
                  .day = -1 };
    verify_out out;
    (void)verify_submission(&ctx, &player, &t, moves, n, t.expires_at, t.expires_at, &out);
    verify_out_clear(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    setup();
    if (size < 3)
        return 0;
    const game *g = game_catalog[data[0] % game_catalog_count];
    int level_no = 1 + data[1] % g->levels;
    /* Every replayable version, chosen by what the level number leaves. */
    int version = g->min_version + (data[1] / g->levels) % (g->version - g->min_version + 1);
    uint32_t seed = data[2];
    data += 3;
    size -= 3;

    /* The seed-token parser sees the same bytes as text. */
    char text[TOKEN_TEXT_MAX + 1];
    size_t n = size < TOKEN_TEXT_MAX ? size : TOKEN_TEXT_MAX;
    memcpy(text, data, n);
    text[n] = '\0';
    seed_token t;
    (void)token_verify(&ring, text, &t);

    json_t *doc = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES, NULL);
    if (!doc)
        return 0;
    const json_t *moves_json = json_object_get(doc, "moves");
    size_t cap = (size_t)g->max_moves;
    game_move *moves = calloc(cap + 1, sizeof *moves);
    move_error err;
    long count = moves_from_json(g, version, moves_json ? moves_json : doc, moves, cap, &err);
    /* from 4 s to 17 min since the seed was issued: both sides of the claimed-time check */
    if (count >= 0)
        verify(g, version, level_no, seed, moves, (size_t)count, 4096 * ((int64_t)seed + 1));
    free(moves);
    json_decref(doc);
    return 0;
}
