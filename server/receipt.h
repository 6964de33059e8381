/*
 * receipt: the Ed25519-signed statement of a verified score, and the moves
 * hash it covers. Anyone holding /v1/keys can check one (docs/API.md gives
 * the exact message). Pure apart from libsodium.
 */
#ifndef REPLAYD_SERVER_RECEIPT_H
#define REPLAYD_SERVER_RECEIPT_H

#include <stddef.h>
#include <stdint.h>

#include "../core/game.h"
#include "keys.h"

#define MOVES_HASH_BYTES 32

/* BLAKE2b-256 over every move's fields (those its version carries) as
 * 32-bit big-endian integers, in field order: independent of how the JSON
 * was written. */
void moves_hash(const game *g, int version, const game_move *moves, size_t n,
                uint8_t out[MOVES_HASH_BYTES]);

typedef struct receipt_fields {
    const char *score_id;
    int64_t player_id;
    const char *game;
    int level;
    uint32_t seed;
    int version;
    int64_t score;
    const uint8_t *moves_hash;
} receipt_fields;

/* The signed message: "replayd-receipt-v1\n" then each field on its own
 * line, the moves hash in lowercase hex. Returns its length. */
size_t receipt_message(const receipt_fields *f, char *buf, size_t len);

/* "<key_id>.<base64url signature>" under the current key. */
int receipt_sign(const keyring *kr, const receipt_fields *f, char *out, size_t out_len);

/* 0 when the receipt verifies under the key it names. */
int receipt_verify(const keyring *kr, const receipt_fields *f, const char *receipt);

#endif
