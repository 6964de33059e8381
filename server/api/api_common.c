/* api_common: what every handler shares: bearer auth, store errors, time. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "../../core/civil.h"
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

void api_format_time(int64_t unix_ms, char buf[32])
{
    int64_t secs = unix_ms >= 0 ? unix_ms / 1000 : -((-unix_ms + 999) / 1000);
    int64_t ms = unix_ms - secs * 1000;
    int64_t day_secs = ((secs % 86400) + 86400) % 86400;
    civil_date d = civil_from_unix(secs);
    snprintf(buf, 32, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", (int)d.year, (int)d.month, (int)d.day,
             (int)(day_secs / 3600), (int)(day_secs / 60 % 60), (int)(day_secs % 60), (int)ms);
}
