/* api_identity: Sign in with Apple and Google (issue 36).
 *
 *   POST /v1/identity/nonce        a single-use sign-in nonce, to put in
 *                                  the provider's sign-in request
 *   POST /v1/players {"identity"}  sign in: the identity's player (made on
 *                                  its first sign-in) and a new bearer token
 *   POST /v1/players/me/identity   a guest binds an identity to itself
 *
 * The ID token is verified by trust/identity.c; the store decides the rest
 * in one write (store.h: the player write with an identity). Bearer tokens
 * and nonces are kept only as hashes. */
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "../trust/identity.h"

#define NONCE_TEXT_LEN (2 + sodium_base64_ENCODED_LEN(32, sodium_base64_VARIANT_URLSAFE_NO_PADDING))

/* What a sign-in or link keeps until its commit. */
typedef struct sign_in {
    store_write w;
    char name[STORE_NAME_MAX + 1];
    char token[API_PLAYER_TOKEN_LEN];
} sign_in;

static void sign_in_free(void *p)
{
    sign_in *si = p;
    if (si)
        sodium_memzero(si->token, sizeof si->token);
    free(si);
}

static int verdict_status(identity_verdict v)
{
    return v == ID_MALFORMED || v == ID_UNKNOWN_PROVIDER || v == ID_OFF || v == ID_SUBJECT ? 400 : 401;
}

/* Verifies {"provider", "id_token"} of obj into the write's identity
 * fields (the nonce as its hash); false after answering. */
static bool read_identity(request *r, const json_t *obj, store_write *w)
{
    const json_t *provider = json_object_get(obj, "provider"), *tok = json_object_get(obj, "id_token");
    if (!json_is_object(obj) || json_object_size(obj) != 2 || !json_is_string(provider) ||
        !json_is_string(tok)) {
        reply_error(r, 400, "bad_request", "expected {\"provider\": \"apple\" | \"google\", \"id_token\": string}");
        return false;
    }
    identity_claims c;
    identity_verdict v = identity_verify(&r->app->ident, json_string_value(provider), json_string_value(tok),
                                         json_string_length(tok), now_ms() / 1000, &c);
    if (v != ID_OK) {
        reply_error(r, verdict_status(v), identity_code(v), identity_why(v));
        return false;
    }
    if (!c.nonce[0] && r->app->cfg.identity_require_nonce) {
        reply_error(r, 401, "nonce_required",
                    "id_token must carry a nonce from POST /v1/identity/nonce (identity_require_nonce)");
        return false;
    }
    snprintf(w->u.player.provider, sizeof w->u.player.provider, "%s", identity_provider_name(c.provider));
    snprintf(w->u.player.subject, sizeof w->u.player.subject, "%s", c.subject);
    w->u.player.has_nonce = c.nonce[0] != '\0';
    if (w->u.player.has_nonce)
        crypto_hash_sha256(w->u.player.nonce_hash, (const unsigned char *)c.nonce, strlen(c.nonce));
    return true;
}

/* The refusals a sign-in or a link shares; false when st is STORE_OK. */
static bool answer_refusal(request *r, const store_write *w, store_status st)
{
    switch (st) {
    case STORE_OK:
        return false;
    case STORE_BANNED:
        reply_error(r, 403, "banned", "this identity belongs to a banned player");
        break;
    case STORE_NOT_FOUND:
        reply_error(r, 401, "bad_nonce", "the id_token's nonce was not issued here, was used, or has expired");
        break;
    case STORE_CONFLICT:
        if (w->u.player.refused == IDENTITY_TAKEN)
            reply_error(r, 409, "identity_taken", "this identity is bound to another player");
        else if (w->u.player.refused == IDENTITY_PROVIDER_BOUND)
            reply_error(r, 409, "provider_bound", "this player is bound to another identity of that provider");
        else
            api_store_error(r, STORE_ERROR);
        break;
    default:
        api_store_error(r, st);
    }
    return true;
}

static void signed_in(request *r)
{
    sign_in *si = r->work;
    if (answer_refusal(r, &si->w, si->w.status))
        return;
    const store_player *p = &si->w.u.player.created;
    reply_json(r, si->w.u.player.existed ? 200 : 201,
               json_pack("{s:I,s:s,s:s,s:s,s:b}", "player_id", (json_int_t)p->id, "name", p->name, "token",
                         si->token, "provider", p->provider, "created", !si->w.u.player.existed));
}

void api_identity_sign_in(request *r, json_t *doc, const char *prefix)
{
    const json_t *name = json_object_get(doc, "name");
    size_t keys = json_object_size(doc);
    if (keys != (name ? 2u : 1u) || (name && !json_is_string(name))) {
        json_decref(doc);
        reply_error(r, 400, "bad_request", "expected {\"identity\": {...}, \"name\"?: string}");
        return;
    }
    char normal[STORE_NAME_MAX + 1] = "player";
    if (name && !api_player_name(r, name, normal)) {
        json_decref(doc);
        return;
    }
    sign_in *si = calloc(1, sizeof *si);
    if (!si) {
        json_decref(doc);
        reply_error(r, 500, "internal", "out of memory");
        return;
    }
    req_own(r, si, sign_in_free);
    bool ok = read_identity(r, json_object_get(doc, "identity"), &si->w);
    json_decref(doc);
    if (!ok)
        return;
    memcpy(si->name, normal, sizeof si->name);
    api_new_player_token(r, si->token, si->w.u.player.token_hash);
    si->w.kind = STORE_WRITE_PLAYER;
    si->w.u.player.name = si->name;
    si->w.u.player.now = now_ms();
    snprintf(si->w.u.player.prefix, sizeof si->w.u.player.prefix, "%s", prefix);
    api_write(r, &si->w, signed_in);
}

static void linked(request *r)
{
    sign_in *si = r->work;
    if (answer_refusal(r, &si->w, si->w.status))
        return;
    reply_json(r, 200, json_pack("{s:I,s:s,s:b}", "player_id", (json_int_t)si->w.u.player.link_to, "provider",
                                 si->w.u.player.provider, "already_linked", si->w.u.player.existed));
}

void api_players_link(request *r)
{
    store_player me;
    if (!api_auth(r, &me))
        return;
    if (me.banned) {
        reply_error(r, 403, "banned", "this player is banned");
        return;
    }
    json_t *doc = req_json_object(r);
    if (!doc)
        return;
    sign_in *si = calloc(1, sizeof *si);
    if (!si) {
        json_decref(doc);
        reply_error(r, 500, "internal", "out of memory");
        return;
    }
    req_own(r, si, sign_in_free);
    bool ok = read_identity(r, doc, &si->w);
    json_decref(doc);
    if (!ok)
        return;
    /* the write outlives this handler: the name is the request's copy, not me's */
    memcpy(si->name, me.name, sizeof si->name);
    si->w.kind = STORE_WRITE_PLAYER;
    si->w.u.player.name = si->name;
    si->w.u.player.link_to = me.id;
    si->w.u.player.now = now_ms();
    api_write(r, &si->w, linked);
}

/* ---- nonces ---- */

typedef struct nonce_issue {
    store_write w;
    char text[NONCE_TEXT_LEN];
} nonce_issue;

static void nonce_recorded(request *r)
{
    nonce_issue *n = r->work;
    if (n->w.status != STORE_OK) {
        api_store_error(r, n->w.status);
        return;
    }
    char at[32];
    iso_time_format(n->w.u.nonce.expires_at, at);
    reply_json(r, 201, json_pack("{s:s,s:s}", "nonce", n->text, "expires_at", at));
}

void api_identity_nonce(request *r)
{
    if (!ratelimit_allow(&r->app->limits, "nonce", r->ip_key, r->app->cfg.rate_nonces_per_ip, r->started_us)) {
        reply_rate_limited(r, r->app->cfg.rate_nonces_per_ip, "too many sign-in nonces from this address");
        return;
    }
    nonce_issue *n = calloc(1, sizeof *n);
    if (!n) {
        reply_error(r, 500, "internal", "out of memory");
        return;
    }
    req_own(r, n, free);
    unsigned char raw[32];
    randombytes_buf(raw, sizeof raw);
    memcpy(n->text, "n_", 2);
    sodium_bin2base64(n->text + 2, sizeof n->text - 2, raw, sizeof raw, sodium_base64_VARIANT_URLSAFE_NO_PADDING);
    crypto_hash_sha256(n->w.u.nonce.nonce_hash, (const unsigned char *)n->text, strlen(n->text));
    n->w.kind = STORE_WRITE_NONCE;
    n->w.u.nonce.now = now_ms();
    n->w.u.nonce.expires_at = n->w.u.nonce.now + (int64_t)r->app->cfg.identity_nonce_ttl_s * 1000;
    api_write(r, &n->w, nonce_recorded);
}
