/*
 * jwks_fetch: each identity provider's key set (JWKS) from a URL, fetched
 * with libcurl (http and https only, 10 s, at most JWKS_FETCH_MAX bytes,
 * only a 200 answer) and handed to identity_set_keys.
 *
 * At start every provider with a URL is fetched once, before serving; a
 * failure there is logged and not fatal (the provider keeps its file's keys,
 * or has none and answers identity_unavailable until a fetch succeeds). A
 * background thread then refreshes each one: after a success at 80% of the
 * answer's Cache-Control max-age, held between min_s and max_s (max_s when
 * the answer has none), so keys are replaced before they expire; after a
 * failure (no answer, not 200, too big, not a key set) the keys in use stay
 * and the next try comes after min_s, doubling up to max_s. Every fetch
 * logs one JSON line on stderr: {"event":"jwks_refreshed",...} or
 * {"event":"jwks_refresh_failed","provider":...,"why":...}.
 *
 * Owns: the thread, its libcurl handle and the URLs' copies; the caller
 * owns the identity, which must outlive jwks_fetch_stop. jwks_fetch_stop
 * wakes the thread (a condition variable; a transfer under way is aborted)
 * and joins it, then frees everything. Threads: start and stop on one
 * thread (the main one); identity_set_keys is the only thing shared.
 */
#ifndef REPLAYD_SERVER_JWKS_FETCH_H
#define REPLAYD_SERVER_JWKS_FETCH_H

#include <stdbool.h>
#include <stddef.h>

#include "identity.h"

#define JWKS_FETCH_MAX 65536       /* bytes of a key set */
#define JWKS_FETCH_TIMEOUT_S 10    /* a whole transfer */
#define JWKS_FETCH_MAX_AGE_MAX 999999999L /* a longer max-age counts as this */

typedef struct jwks_fetch jwks_fetch;

/* Fetches every provider whose urls[p] is not "" once, then starts the
 * refreshing thread. files[p] says whether that provider has a file loaded
 * (for the log). *out is NULL when no URL is set (nothing to stop). false
 * with a message in err only when the thread or libcurl cannot start. */
bool jwks_fetch_start(jwks_fetch **out, identity *id, const char *const urls[IDP_COUNT],
                      const char *const files[IDP_COUNT], int min_s, int max_s, char *err,
                      size_t err_len);

/* Stops and joins the thread; frees f. NULL is fine. */
void jwks_fetch_stop(jwks_fetch *f);

/* Cache-Control's max-age in seconds, or -1 when value has none (or a
 * malformed one): comma-separated directives, max-age=DIGITS exactly
 * (case-insensitive name, no quotes); more than 9 digits count as
 * JWKS_FETCH_MAX_AGE_MAX. For the tests. */
long jwks_max_age(const char *value);

#endif
