/* identity: OpenID Connect ID tokens of Apple and Google (see the header). */
#include "identity.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <jose/b64.h>
#include <jose/jws.h>

static const char *const provider_names[IDP_COUNT] = { [IDP_APPLE] = "apple", [IDP_GOOGLE] = "google" };

/* Each provider's issuers (Google's ID tokens carry either form). */
static const char *const issuers[IDP_COUNT][2] = {
    [IDP_APPLE] = { "https://appleid.apple.com", NULL },
    [IDP_GOOGLE] = { "https://accounts.google.com", "accounts.google.com" },
};

identity_provider identity_provider_of(const char *name)
{
    for (int p = 0; name && p < IDP_COUNT; p++)
        if (strcmp(name, provider_names[p]) == 0)
            return (identity_provider)p;
    return IDP_COUNT;
}

const char *identity_provider_name(identity_provider p)
{
    return p < IDP_COUNT ? provider_names[p] : "";
}

/* A JWKS document's keys array: {"keys": [objects with a string kty]}. */
static json_t *parse_jwks(const char *text, size_t len, char *err, size_t err_len)
{
    json_error_t je;
    json_t *doc = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
    if (!doc) {
        snprintf(err, err_len, "not JSON (line %d: %s)", je.line, je.text);
        return NULL;
    }
    json_t *keys = json_object_get(doc, "keys");
    if (!json_is_array(keys) || json_array_size(keys) == 0) {
        snprintf(err, err_len, "expected {\"keys\": [...]} with at least one key");
        json_decref(doc);
        return NULL;
    }
    size_t i;
    json_t *k;
    json_array_foreach(keys, i, k) {
        if (!json_is_object(k) || !json_is_string(json_object_get(k, "kty"))) {
            snprintf(err, err_len, "key %zu is not a JWK (an object with a kty)", i);
            json_decref(doc);
            return NULL;
        }
    }
    json_incref(keys);
    json_decref(doc);
    return keys;
}

bool identity_set_keys(identity *id, identity_provider p, const char *jwks, size_t len, char *err,
                       size_t err_len)
{
    json_t *keys = parse_jwks(jwks, len, err, err_len);
    if (!keys)
        return false;
    pthread_mutex_lock(&id->lock);
    json_t *old = id->idp[p].keys;
    id->idp[p].keys = keys;
    pthread_mutex_unlock(&id->lock);
    json_decref(old);
    return true;
}

static bool load_file(identity *id, identity_provider p, const char *path, char *err, size_t err_len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, err_len, "identity_%s_jwks_file %s: %s", provider_names[p], path, strerror(errno));
        return false;
    }
    char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf, f);
    bool too_big = n == sizeof buf;
    fclose(f);
    if (too_big) {
        snprintf(err, err_len, "identity_%s_jwks_file %s: over %zu bytes", provider_names[p], path,
                 sizeof buf - 1);
        return false;
    }
    char why[160];
    if (!identity_set_keys(id, p, buf, n, why, sizeof why)) {
        snprintf(err, err_len, "identity_%s_jwks_file %s: %s", provider_names[p], path, why);
        return false;
    }
    return true;
}

/* Splits "a,b, c" into the provider's client ids. */
static bool parse_client_ids(identity_idp *d, identity_provider p, const char *list, char *err,
                             size_t err_len)
{
    const char *s = list ? list : "";
    while (*s) {
        while (*s == ',' || *s == ' ')
            s++;
        size_t n = strcspn(s, ", ");
        if (n == 0)
            break;
        if (d->n_client_ids == IDENTITY_CLIENT_IDS || n > IDENTITY_CLIENT_ID_MAX) {
            snprintf(err, err_len, "identity_%s_client_ids: at most %d ids of %d bytes",
                     provider_names[p], IDENTITY_CLIENT_IDS, IDENTITY_CLIENT_ID_MAX);
            return false;
        }
        memcpy(d->client_ids[d->n_client_ids], s, n);
        d->client_ids[d->n_client_ids++][n] = '\0';
        s += n;
    }
    return true;
}

bool identity_init(identity *id, const char *const client_ids[IDP_COUNT],
                   const char *const jwks_files[IDP_COUNT], int skew_s, char *err, size_t err_len)
{
    memset(id, 0, sizeof *id);
    pthread_mutex_init(&id->lock, NULL);
    id->skew_s = skew_s;
    for (int p = 0; p < IDP_COUNT; p++) {
        if (!parse_client_ids(&id->idp[p], (identity_provider)p, client_ids[p], err, err_len))
            return false;
        if (jwks_files[p] && jwks_files[p][0] &&
            !load_file(id, (identity_provider)p, jwks_files[p], err, err_len))
            return false;
    }
    return true;
}

void identity_free(identity *id)
{
    for (int p = 0; p < IDP_COUNT; p++) {
        json_decref(id->idp[p].keys);
        id->idp[p].keys = NULL;
    }
    pthread_mutex_destroy(&id->lock);
}

bool identity_enabled(identity *id, identity_provider p)
{
    if (p >= IDP_COUNT)
        return false;
    pthread_mutex_lock(&id->lock);
    bool on = id->idp[p].keys && id->idp[p].n_client_ids > 0;
    pthread_mutex_unlock(&id->lock);
    return on;
}

/* The provider's key whose kid is kid, with a reference of its own. */
static json_t *key_for(identity *id, identity_provider p, const char *kid)
{
    json_t *found = NULL;
    pthread_mutex_lock(&id->lock);
    size_t i;
    json_t *k;
    json_array_foreach(id->idp[p].keys, i, k) {
        const char *kk = json_string_value(json_object_get(k, "kid"));
        if (kk && strcmp(kk, kid) == 0) {
            found = json_incref(k);
            break;
        }
    }
    pthread_mutex_unlock(&id->lock);
    return found;
}

/* Whether the key can verify alg: RS256 an RSA key, ES256 an EC P-256 key;
 * a key that names its own alg names this one. */
static bool key_fits(const json_t *k, const char *alg)
{
    const char *kty = json_string_value(json_object_get(k, "kty"));
    const char *kalg = json_string_value(json_object_get(k, "alg"));
    if (kalg && strcmp(kalg, alg) != 0)
        return false;
    if (strcmp(alg, "RS256") == 0)
        return kty && strcmp(kty, "RSA") == 0;
    const char *crv = json_string_value(json_object_get(k, "crv"));
    return kty && crv && strcmp(kty, "EC") == 0 && strcmp(crv, "P-256") == 0;
}

/* A base64url segment decoded as a JSON object (libjose's decoder). */
static json_t *segment_object(const char *s, size_t n)
{
    json_t *text = json_stringn(s, n);
    json_t *o = text ? jose_b64_dec_load(text) : NULL;
    json_decref(text);
    if (o && !json_is_object(o)) {
        json_decref(o);
        return NULL;
    }
    return o;
}

static bool audience_ok(const identity_idp *d, const json_t *aud)
{
    for (int c = 0; c < d->n_client_ids; c++) {
        if (json_is_string(aud) && strcmp(json_string_value(aud), d->client_ids[c]) == 0)
            return true;
        size_t i;
        json_t *a;
        json_array_foreach(aud, i, a)
            if (json_is_string(a) && strcmp(json_string_value(a), d->client_ids[c]) == 0)
                return true;
    }
    return false;
}

/* The payload's claims, checked; ID_OK fills out. */
static identity_verdict check_claims(const identity *id, identity_provider p, const json_t *c,
                                     int64_t now, identity_claims *out)
{
    const char *iss = json_string_value(json_object_get(c, "iss"));
    if (!iss || !((issuers[p][0] && strcmp(iss, issuers[p][0]) == 0) ||
                  (issuers[p][1] && strcmp(iss, issuers[p][1]) == 0)))
        return ID_ISSUER;
    if (!audience_ok(&id->idp[p], json_object_get(c, "aud")))
        return ID_AUDIENCE;
    const json_t *exp = json_object_get(c, "exp"), *iat = json_object_get(c, "iat"),
                 *nbf = json_object_get(c, "nbf");
    if (!json_is_integer(exp) || json_integer_value(exp) + id->skew_s < now)
        return ID_EXPIRED;
    if (!json_is_integer(iat) || json_integer_value(iat) > now + id->skew_s)
        return ID_NOT_YET_VALID;
    if (nbf && (!json_is_integer(nbf) || json_integer_value(nbf) > now + id->skew_s))
        return ID_NOT_YET_VALID;
    const json_t *sub = json_object_get(c, "sub"), *nonce = json_object_get(c, "nonce");
    if (!json_is_string(sub) || json_string_length(sub) == 0 ||
        json_string_length(sub) > IDENTITY_SUBJECT_MAX || strlen(json_string_value(sub)) != json_string_length(sub))
        return ID_SUBJECT;
    if (nonce && (!json_is_string(nonce) || json_string_length(nonce) > IDENTITY_NONCE_MAX ||
                  strlen(json_string_value(nonce)) != json_string_length(nonce)))
        return ID_SUBJECT;
    memset(out, 0, sizeof *out);
    out->provider = p;
    memcpy(out->subject, json_string_value(sub), json_string_length(sub));
    if (nonce)
        memcpy(out->nonce, json_string_value(nonce), json_string_length(nonce));
    out->expires_at = json_integer_value(exp);
    return ID_OK;
}

identity_verdict identity_verify(identity *id, const char *provider, const char *token, size_t len,
                                 int64_t now_s, identity_claims *out)
{
    identity_provider p = identity_provider_of(provider);
    if (p == IDP_COUNT)
        return ID_UNKNOWN_PROVIDER;
    if (!identity_enabled(id, p))
        return ID_OFF;
    if (!token || len == 0 || len > IDENTITY_TOKEN_MAX || memchr(token, '\0', len))
        return ID_MALFORMED;
    const char *dot1 = memchr(token, '.', len);
    const char *dot2 = dot1 ? memchr(dot1 + 1, '.', len - (size_t)(dot1 + 1 - token)) : NULL;
    const char *end = token + len;
    if (!dot2 || memchr(dot2 + 1, '.', (size_t)(end - dot2 - 1)) || dot1 == token ||
        dot2 == dot1 + 1 || dot2 + 1 == end)
        return ID_MALFORMED;
    json_t *hdr = segment_object(token, (size_t)(dot1 - token));
    json_t *claims = segment_object(dot1 + 1, (size_t)(dot2 - dot1 - 1));
    identity_verdict v = ID_MALFORMED;
    json_t *key = NULL, *jws = NULL;
    if (!hdr || !claims)
        goto out;
    const char *alg = json_string_value(json_object_get(hdr, "alg"));
    const char *kid = json_string_value(json_object_get(hdr, "kid"));
    v = ID_ALG;
    if (!alg || (strcmp(alg, "RS256") != 0 && strcmp(alg, "ES256") != 0) ||
        json_object_get(hdr, "crit"))
        goto out;
    v = ID_KID;
    if (!kid || !(key = key_for(id, p, kid)))
        goto out;
    v = ID_ALG;
    if (!key_fits(key, alg))
        goto out;
    v = ID_SIGNATURE;
    jws = json_pack("{s:s%,s:s%,s:s%}", "protected", token, (size_t)(dot1 - token), "payload",
                    dot1 + 1, (size_t)(dot2 - dot1 - 1), "signature", dot2 + 1,
                    (size_t)(end - dot2 - 1));
    if (!jws || !jose_jws_ver(NULL, jws, NULL, key, false))
        goto out;
    v = check_claims(id, p, claims, now_s, out);
out:
    json_decref(jws);
    json_decref(key);
    json_decref(hdr);
    json_decref(claims);
    return v;
}

const char *identity_code(identity_verdict v)
{
    switch (v) {
    case ID_OK: return "ok";
    case ID_UNKNOWN_PROVIDER: return "bad_request";
    case ID_OFF: return "identity_unavailable";
    case ID_MALFORMED: return "bad_id_token";
    case ID_ALG: return "bad_id_token_alg";
    case ID_KID: return "unknown_key";
    case ID_SIGNATURE: return "bad_signature";
    case ID_ISSUER: return "wrong_issuer";
    case ID_AUDIENCE: return "wrong_audience";
    case ID_EXPIRED: return "id_token_expired";
    case ID_NOT_YET_VALID: return "id_token_not_yet_valid";
    case ID_SUBJECT: return "bad_id_token";
    }
    return "bad_id_token";
}

const char *identity_why(identity_verdict v)
{
    switch (v) {
    case ID_OK: return "ok";
    case ID_UNKNOWN_PROVIDER: return "identity.provider must be \"apple\" or \"google\"";
    case ID_OFF: return "sign-in with that provider is not set up on this server";
    case ID_MALFORMED: return "id_token is not a compact JWS of three base64url JSON segments";
    case ID_ALG: return "id_token must be signed RS256 or ES256 with a key of that type";
    case ID_KID: return "id_token names a key (kid) its provider's key set does not have";
    case ID_SIGNATURE: return "id_token's signature does not verify";
    case ID_ISSUER: return "id_token's iss is not the provider's";
    case ID_AUDIENCE: return "id_token's aud is not a client id of this app";
    case ID_EXPIRED: return "id_token has expired (exp)";
    case ID_NOT_YET_VALID: return "id_token is not valid yet (nbf or iat ahead of the server's clock)";
    case ID_SUBJECT: return "id_token's sub (or nonce) is missing or too long";
    }
    return "bad id_token";
}
