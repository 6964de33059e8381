/*
 * identity: Sign in with Apple and Google. Verifies an OpenID Connect ID
 * token (a compact JWS) against its provider's key set (JWKS):
 *
 *   - the signature, RS256 (an RSA key) or ES256 (an EC P-256 key) only,
 *     with the key the header's kid names; alg "none", HS256 and every
 *     other alg are refused before any key is used;
 *   - iss: the provider's ("https://appleid.apple.com"; Google's
 *     "https://accounts.google.com" or "accounts.google.com");
 *   - aud: one of the provider's configured client ids (a string, or an
 *     array holding one);
 *   - exp, nbf and iat against now with skew_s seconds either way;
 *   - sub: 1 to IDENTITY_SUBJECT_MAX bytes; nonce, when present, up to
 *     IDENTITY_NONCE_MAX bytes (whether it was issued here is the store's
 *     to say: it is single use).
 *
 * JWS and JWK come from libjose (jansson objects); base64url, RSA and EC are
 * its, never parsed here. A provider is on when it has a key set and at
 * least one client id. Key sets come from files at start (a file that does
 * not parse stops the server, naming it) and may be replaced while serving
 * (identity_set_keys: a refresh, jwks_fetch.h); a verification holds its own reference to
 * the set it used.
 *
 * Owns: every provider's client ids and key set. identity_free releases
 * them. Thread-safe: verifications run on any thread, beside a replacement.
 */
#ifndef REPLAYD_SERVER_IDENTITY_H
#define REPLAYD_SERVER_IDENTITY_H

#include <jansson.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define IDENTITY_TOKEN_MAX 16384 /* bytes of a compact ID token */
#define IDENTITY_SUBJECT_MAX 255
#define IDENTITY_NONCE_MAX 128
#define IDENTITY_CLIENT_IDS 8 /* per provider */
#define IDENTITY_CLIENT_ID_MAX 255

typedef enum identity_provider { IDP_APPLE = 0, IDP_GOOGLE, IDP_COUNT } identity_provider;

typedef enum identity_verdict {
    ID_OK = 0,
    ID_UNKNOWN_PROVIDER, /* not "apple" or "google" */
    ID_OFF,              /* that provider is not configured here */
    ID_MALFORMED,        /* not three base64url segments of JSON objects, or too long */
    ID_ALG,              /* an alg other than RS256 and ES256, or not the key's */
    ID_KID,              /* no key of the provider's set has that kid */
    ID_SIGNATURE,        /* the signature does not verify */
    ID_ISSUER,           /* iss is not the provider's */
    ID_AUDIENCE,         /* aud is none of the client ids */
    ID_EXPIRED,          /* exp is past (beyond the skew), or missing */
    ID_NOT_YET_VALID,    /* nbf or iat is ahead (beyond the skew), or iat missing */
    ID_SUBJECT           /* sub missing, empty or too long; a nonce too long */
} identity_verdict;

typedef struct identity_claims {
    identity_provider provider;
    char subject[IDENTITY_SUBJECT_MAX + 1];
    char nonce[IDENTITY_NONCE_MAX + 1]; /* "" when the token has none */
    int64_t expires_at;                 /* exp, seconds */
} identity_claims;

typedef struct identity_idp {
    char client_ids[IDENTITY_CLIENT_IDS][IDENTITY_CLIENT_ID_MAX + 1];
    int n_client_ids;
    json_t *keys; /* the JWKS's "keys" array; NULL: none loaded */
} identity_idp;

typedef struct identity {
    pthread_mutex_t lock; /* guards each idp's keys pointer */
    identity_idp idp[IDP_COUNT];
    int skew_s;
} identity;

/* Sets up every provider from its client ids (comma-separated, "" for
 * none) and its JWKS file ("" for none). false with a message in err that
 * names the file or setting at fault. identity_free is safe after a false. */
bool identity_init(identity *id, const char *const client_ids[IDP_COUNT],
                   const char *const jwks_files[IDP_COUNT], int skew_s, char *err, size_t err_len);
void identity_free(identity *id);

/* "apple" -> IDP_APPLE, ...; IDP_COUNT for anything else. */
identity_provider identity_provider_of(const char *name);
const char *identity_provider_name(identity_provider p);
/* Whether that provider is configured (client ids and keys). */
bool identity_enabled(identity *id, identity_provider p);

/* Parses a JWKS document ({"keys": [...]}, each key an object with a kty)
 * and, when it does, replaces the provider's key set with it. false with a
 * message in err (the set in use stays). */
bool identity_set_keys(identity *id, identity_provider p, const char *jwks, size_t len, char *err,
                       size_t err_len);

/* Verifies token (len bytes) as an ID token of the named provider at
 * now_s (seconds since the epoch). ID_OK fills out. */
identity_verdict identity_verify(identity *id, const char *provider, const char *token, size_t len,
                                 int64_t now_s, identity_claims *out);

/* The error code and a sentence for an answer. */
const char *identity_code(identity_verdict v);
const char *identity_why(identity_verdict v);

#endif
