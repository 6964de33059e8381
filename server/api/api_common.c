/* api_common: what every handler shares: bearer auth, store errors, the
 * hand-off of a write. (Times are written by base/iso_time.c.) */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "api.h"

bool api_auth(request *r, store_player *out)
{
    const char *h = req_header(r, "Authorization");
    if (!h || strncasecmp(h, "Bearer ", 7) != 0 || strlen(h + 7) == 0 || strlen(h + 7) > 128) {
        reply_error(r, 401, "unauthorized", "a bearer token is required");
        return false;
    }
    const char *token = h + 7;
    uint8_t hash[STORE_HASH_BYTES];
    crypto_generichash(hash, sizeof hash, (const unsigned char *)token, strlen(token),
                       r->app->keys.token_hash_key, sizeof r->app->keys.token_hash_key);
    store_status st = store_player_by_token(r->app->db, hash, out);
    if (st == STORE_NOT_FOUND) {
        reply_error(r, 401, "unauthorized", "the bearer token is not valid");
        return false;
    }
    if (st != STORE_OK) {
        api_store_error(r, st);
        return false;
    }
    return true;
}

static void resume_writer(store_write *w)
{
    req_resume(w->ctx);
}

void api_write(request *r, store_write *w, void (*then)(request *r))
{
    w->done = resume_writer;
    w->ctx = r;
    req_defer(r, then); /* before the writer can finish and resume it */
    store_write_async(r->app->db, w);
}

void api_store_error(request *r, store_status st)
{
    if (st == STORE_BUSY)
        reply_error(r, 503, "busy", "storage is busy, retry shortly");
    else
        reply_error(r, 500, "internal", "storage failed");
}

