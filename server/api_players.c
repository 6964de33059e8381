/* api_players: registration. The bearer token is shown once and stored
 * only as a keyed BLAKE2b hash. */
#include <string.h>

#include "api.h"

static bool valid_name(const char *s, size_t len)
{
    if (len == 0 || len > STORE_NAME_MAX)
        return false;
    for (size_t i = 0; i < len; i++)
        if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
            return false;
    return true;
}

void api_players_create(request *r)
{
    if (!ratelimit_allow(&r->app->limits, "register", r->ip, r->app->cfg.rate_register_per_ip,
                         r->started_us)) {
        reply_error(r, 429, "rate_limited", "too many registrations from this address");
        return;
    }
    json_t *doc = req_json_object(r);
    if (!doc)
        return;
    const json_t *name = json_object_get(doc, "name");
    if (json_object_size(doc) != 1 || !json_is_string(name)) {
        json_decref(doc);
        reply_error(r, 400, "bad_request", "expected {\"name\": string}");
        return;
    }
    if (!valid_name(json_string_value(name), json_string_length(name)) ||
        strlen(json_string_value(name)) != json_string_length(name)) {
        json_decref(doc);
        reply_error(r, 400, "bad_name", "name must be 1 to 64 bytes of text without control characters");
        return;
    }
    unsigned char raw[32];
    randombytes_buf(raw, sizeof raw);
    char token[8 + sodium_base64_ENCODED_LEN(32, sodium_base64_VARIANT_URLSAFE_NO_PADDING)];
    memcpy(token, "pt_", 3);
    sodium_bin2base64(token + 3, sizeof token - 3, raw, sizeof raw,
                      sodium_base64_VARIANT_URLSAFE_NO_PADDING);
    uint8_t hash[STORE_HASH_BYTES];
    crypto_generichash(hash, sizeof hash, (const unsigned char *)token, strlen(token),
                       r->app->keys.token_hash_key, sizeof r->app->keys.token_hash_key);
    store_player p;
    store_status st = store_player_create(r->app->db, json_string_value(name), hash, now_ms(), &p);
    json_decref(doc);
    if (st != STORE_OK) {
        api_store_error(r, st);
        return;
    }
    reply_json(r, 201, json_pack("{s:I,s:s,s:s}", "player_id", (json_int_t)p.id, "name", p.name,
                                 "token", token));
    sodium_memzero(token, sizeof token);
}
