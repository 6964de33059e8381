/*
 * Payload layout (big-endian): u8 format=1, u32 key_id, i64 player_id,
 * u8 game_len, game bytes, u16 level, u32 seed, u16 version, i64 issued_at,
 * i64 expires_at, i32 daily_day, 16 bytes nonce; then the 32-byte MAC.
 */
#include "token.h"

#include <string.h>

#define TOKEN_PREFIX "st1."
#define PAYLOAD_MAX (1 + 4 + 8 + 1 + TOKEN_GAME_MAX + 2 + 4 + 2 + 8 + 8 + 4 + PLAY_NONCE_BYTES)

typedef struct buf {
    unsigned char *p;
    size_t len, cap;
    bool ok;
} buf;

static void put_be(buf *b, uint64_t v, int bytes)
{
    if (b->len + (size_t)bytes > b->cap) {
        b->ok = false;
        return;
    }
    for (int i = bytes - 1; i >= 0; i--)
        b->p[b->len++] = (unsigned char)(v >> (8 * i));
}

static uint64_t get_be(buf *b, int bytes)
{
    uint64_t v = 0;
    if (b->len + (size_t)bytes > b->cap) {
        b->ok = false;
        return 0;
    }
    for (int i = 0; i < bytes; i++)
        v = (v << 8) | b->p[b->len++];
    return v;
}

static size_t encode_payload(const seed_token *t, unsigned char *out)
{
    buf b = { out, 0, PAYLOAD_MAX, true };
    const char *game_name = t->p.g->name;
    size_t game_len = strlen(game_name);
    put_be(&b, 1, 1);
    put_be(&b, t->key_id, 4);
    put_be(&b, (uint64_t)t->p.player_id, 8);
    put_be(&b, game_len, 1);
    for (size_t i = 0; i < game_len; i++)
        put_be(&b, (unsigned char)game_name[i], 1);
    put_be(&b, (uint64_t)t->p.level, 2);
    put_be(&b, t->p.seed, 4);
    put_be(&b, (uint64_t)t->p.version, 2);
    put_be(&b, (uint64_t)t->issued_at, 8);
    put_be(&b, (uint64_t)t->expires_at, 8);
    put_be(&b, (uint32_t)t->p.day, 4);
    for (int i = 0; i < PLAY_NONCE_BYTES; i++)
        put_be(&b, t->p.nonce[i], 1);
    return b.ok ? b.len : 0;
}

/* The game's name is returned apart: it is resolved only after the MAC. */
static bool decode_payload(const unsigned char *p, size_t len, seed_token *t,
                           char game_name[TOKEN_GAME_MAX + 1])
{
    buf b = { (unsigned char *)p, 0, len, true };
    memset(t, 0, sizeof *t);
    memset(game_name, 0, TOKEN_GAME_MAX + 1);
    if (get_be(&b, 1) != 1)
        return false;
    t->key_id = (uint32_t)get_be(&b, 4);
    t->p.player_id = (int64_t)get_be(&b, 8);
    size_t game_len = (size_t)get_be(&b, 1);
    if (!b.ok || game_len == 0 || game_len > TOKEN_GAME_MAX)
        return false;
    for (size_t i = 0; i < game_len; i++)
        game_name[i] = (char)get_be(&b, 1);
    t->p.level = (int)get_be(&b, 2);
    t->p.seed = (uint32_t)get_be(&b, 4);
    t->p.version = (int)get_be(&b, 2);
    t->issued_at = (int64_t)get_be(&b, 8);
    t->expires_at = (int64_t)get_be(&b, 8);
    t->p.day = (int32_t)(uint32_t)get_be(&b, 4);
    for (int i = 0; i < PLAY_NONCE_BYTES; i++)
        t->p.nonce[i] = (unsigned char)get_be(&b, 1);
    return b.ok && b.len == len;
}

bool token_issue(const keyring *kr, seed_token *t, char *text, size_t text_len)
{
    const key_entry *k = keys_current(kr);
    unsigned char raw[PAYLOAD_MAX + crypto_auth_BYTES];
    if (!k || !t->p.g || strlen(t->p.g->name) > TOKEN_GAME_MAX)
        return false;
    t->key_id = k->id;
    randombytes_buf(t->p.nonce, sizeof t->p.nonce);
    size_t n = encode_payload(t, raw);
    if (n == 0)
        return false;
    crypto_auth(raw + n, raw, n, k->mac);
    size_t prefix = strlen(TOKEN_PREFIX);
    size_t need = prefix + sodium_base64_ENCODED_LEN(n + crypto_auth_BYTES,
                                                     sodium_base64_VARIANT_URLSAFE_NO_PADDING);
    if (need > text_len || need > TOKEN_TEXT_MAX + 1)
        return false;
    memcpy(text, TOKEN_PREFIX, prefix);
    sodium_bin2base64(text + prefix, text_len - prefix, raw, n + crypto_auth_BYTES,
                      sodium_base64_VARIANT_URLSAFE_NO_PADDING);
    return true;
}

token_status token_verify(const keyring *kr, const char *text, seed_token *out)
{
    unsigned char raw[PAYLOAD_MAX + crypto_auth_BYTES];
    size_t prefix = strlen(TOKEN_PREFIX), raw_len = 0;
    if (!text || strlen(text) > TOKEN_TEXT_MAX || strncmp(text, TOKEN_PREFIX, prefix) != 0)
        return TOKEN_MALFORMED;
    const char *end = NULL;
    if (sodium_base642bin(raw, sizeof raw, text + prefix, strlen(text + prefix), NULL, &raw_len,
                          &end, sodium_base64_VARIANT_URLSAFE_NO_PADDING) != 0 ||
        *end != '\0' || raw_len <= crypto_auth_BYTES)
        return TOKEN_MALFORMED;
    size_t n = raw_len - crypto_auth_BYTES;
    seed_token t;
    char game_name[TOKEN_GAME_MAX + 1];
    if (!decode_payload(raw, n, &t, game_name))
        return TOKEN_MALFORMED;
    const key_entry *k = keys_by_id(kr, t.key_id);
    if (!k)
        return TOKEN_UNKNOWN_KEY;
    if (crypto_auth_verify(raw + n, raw, n, k->mac) != 0)
        return TOKEN_BAD_MAC;
    t.p.g = game_find(game_name);
    if (!t.p.g)
        return TOKEN_UNKNOWN_GAME;
    *out = t;
    return TOKEN_OK;
}
