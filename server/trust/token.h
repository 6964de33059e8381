/*
 * token: seed tokens, the server-issued proof of (player, game, level,
 * seed, version, issue time, expiry, nonce), MAC'd with crypto_auth under
 * the key named by the token's key id (never by trying every key).
 *
 * Text form: "st1." + base64url(payload || mac), no padding. The payload is
 * big-endian binary (token.c lists the layout). Pure apart from libsodium.
 */
#ifndef REPLAYD_SERVER_TOKEN_H
#define REPLAYD_SERVER_TOKEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "keys.h"
#include "../base/play.h"

#define TOKEN_GAME_MAX 31
#define TOKEN_TEXT_MAX 255

typedef struct seed_token {
    uint32_t key_id;
    play p;
    int64_t issued_at;  /* unix ms */
    int64_t expires_at; /* unix ms */
} seed_token;

typedef enum token_status {
    TOKEN_OK,
    TOKEN_MALFORMED,    /* not a token at all */
    TOKEN_UNKNOWN_KEY,  /* key id we do not hold */
    TOKEN_BAD_MAC,      /* forged or altered */
    TOKEN_UNKNOWN_GAME  /* ours, but it names a game this build does not serve */
} token_status;

/* Fills a fresh random nonce into t->p, MACs under the current key, writes
 * the text (at most TOKEN_TEXT_MAX bytes + NUL). Sets t->key_id. */
bool token_issue(const keyring *kr, seed_token *t, char *text, size_t text_len);

token_status token_verify(const keyring *kr, const char *text, seed_token *out);

#endif
