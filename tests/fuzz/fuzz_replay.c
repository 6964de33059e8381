/*
 * fuzz_replay: libFuzzer target for everything a submission body reaches
 * before the database: the depth check, json_loadb, the move decoder and a
 * replay through the game the first byte picks, plus seed-token parsing.
 * Any crash, leak, sanitizer report or unbounded loop is a bug.
 *
 * Build and run: make fuzz (clang -fsanitize=fuzzer,address,undefined).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "../../core/replay.h"
#include "../../server/base/json_game.h"
#include "../../server/trust/token.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static keyring ring;
static bool ready;

static void setup(void)
{
    if (ready)
        return;
    ready = true;
    memset(&ring, 0, sizeof ring);
    if (sodium_init() < 0)
        abort();
    ring.count = 1;
    ring.keys[0].id = 1;
    crypto_auth_keygen(ring.keys[0].mac);
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
    if (count >= 0) {
        game_level *level = malloc(g->level_size);
        game_state *state = malloc(g->state_size);
        int *outcomes = calloc((size_t)count + 1, sizeof *outcomes);
        if (game_generate(g, level, version, level_no, seed) == GEN_OK) {
            replay_report rep;
            replay_run(g, level, state, moves, (size_t)count, outcomes, &rep);
            json_decref(result_to_json(g, &rep.result));
            json_decref(state_to_json(g, state));
        }
        free(outcomes);
        free(level);
        free(state);
    }
    free(moves);
    json_decref(doc);
    return 0;
}
