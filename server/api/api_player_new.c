/* api_player_new: what a new player is made of, shared by a registration
 * (api_players.c) and a sign-in that creates one (api_identity.c): the
 * name, checked and NFC-normalised by names.c (a 400 when it is not one),
 * and the bearer token, shown once, with its keyed BLAKE2b hash, the only
 * form the store keeps. The caller owns both buffers. */
#include <stdio.h>
#include <string.h>

#include "api.h"
#include "../trust/names.h"

bool api_player_name(request *r, const json_t *name, char out[STORE_NAME_MAX + 1])
{
    names_verdict verdict = names_normalize(json_string_value(name), json_string_length(name), out);
    if (verdict != NAME_OK) {
        char msg[160];
        snprintf(msg, sizeof msg, "name must be 1 to 64 bytes of visible text: %s", names_why(verdict));
        reply_error(r, 400, "bad_name", msg);
        return false;
    }
    return true;
}

void api_new_player_token(request *r, char token[API_PLAYER_TOKEN_LEN], uint8_t hash[STORE_HASH_BYTES])
{
    unsigned char raw[32];
    randombytes_buf(raw, sizeof raw);
    memcpy(token, "pt_", 3);
    sodium_bin2base64(token + 3, API_PLAYER_TOKEN_LEN - 3, raw, sizeof raw,
                      sodium_base64_VARIANT_URLSAFE_NO_PADDING);
    sodium_memzero(raw, sizeof raw);
    crypto_generichash(hash, STORE_HASH_BYTES, (const unsigned char *)token, strlen(token),
                       r->app->keys.token_hash_key, sizeof r->app->keys.token_hash_key);
}
