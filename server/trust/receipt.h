/*
 * receipt: the Ed25519-signed statement of a verified score, and the moves
 * hash it covers. Anyone holding /v1/keys can check one (docs/API.md gives
 * the exact bytes of both forms). Pure apart from libsodium.
 *
 * New scores get v2 receipts, "v2.<key_id>.<base64url signature>", over
 * everything a third party needs to check a board entry. v1 receipts,
 * "<key_id>.<base64url signature>", were issued before; they stay
 * verifiable (receipt_verify reads the form from the text).
 */
#ifndef REPLAYD_SERVER_RECEIPT_H
#define REPLAYD_SERVER_RECEIPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sodium.h>

#include "../../core/game.h"
#include "keys.h"
#include "../base/play.h"

#define MOVES_HASH_BYTES 32
/* The longest signed text of either form. */
#define RECEIPT_MESSAGE_MAX 512

/* BLAKE2b-256 over every move's fields (those its version carries) as
 * 32-bit big-endian integers, in field order: independent of how the JSON
 * was written. */
void moves_hash(const game *g, int version, const game_move *moves, size_t n,
                uint8_t out[MOVES_HASH_BYTES]);

/* The same bytes fed to a hash the caller started and finishes, leaving
 * out field skip_field (-1: none): a twin's shape is the moves without
 * their times (twins.c). */
void moves_hash_update(crypto_generichash_state *st, const game *g, int version,
                       const game_move *moves, size_t n, int skip_field);

/* What a receipt covers; every pointer is borrowed. */
typedef struct receipt_fields {
    const play *p;           /* player, game, level, seed, version, daily day */
    const char *score_id;
    int64_t score;
    bool completed;          /* v2 only */
    int64_t submitted_at_ms; /* v2 only: the server's receipt time, unix ms */
    const uint8_t *moves_hash;
} receipt_fields;

typedef enum receipt_form { RECEIPT_V1 = 1, RECEIPT_V2 = 2 } receipt_form;

/* The signed text of that form: its tag line ("replayd-receipt-v1" or
 * "-v2") and each field on its own line, joined by "\n" with no trailing
 * newline, integers in plain decimal, the moves hash in lowercase hex. v2
 * adds completed (1/0), the board ("daily:YYYY-MM-DD" or
 * "level:<game>:<level>") and submitted_at_ms before the hash. Returns its
 * length, 0 if it does not fit. */
size_t receipt_message(receipt_form form, const receipt_fields *f, char *buf, size_t len);

/* "v2.<key_id>.<base64url signature>" under the current key. */
int receipt_sign(const keyring *kr, const receipt_fields *f, char *out, size_t out_len);

/* 0 when the receipt (either form) verifies under the key it names, a
 * retired key included. */
int receipt_verify(const keyring *kr, const receipt_fields *f, const char *receipt);

#endif
