/*
 * api_admin: what an operator reviews, behind the admin token (config
 * admin_token; empty disables these endpoints, which then answer 404).
 * GET /v1/admin/players/{id}: the player's seed-token accounting, where
 * drawing seeds until an easy one comes up shows as abandoned attempts.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "api.h"
#include "parse.h"

/* Compares hashes, so neither the length nor the content of the admin token
 * leaks through timing. */
bool api_admin_ok(request *r)
{
    const char *want = r->app->cfg.admin_token;
    const char *h = req_header(r, "Authorization");
    if (!want[0]) {
        reply_error(r, 404, "not_found", "no such endpoint");
        return false;
    }
    unsigned char a[32], b[32];
    const char *got = h && strncasecmp(h, "Bearer ", 7) == 0 ? h + 7 : "";
    crypto_generichash(a, sizeof a, (const unsigned char *)got, strlen(got), NULL, 0);
    crypto_generichash(b, sizeof b, (const unsigned char *)want, strlen(want), NULL, 0);
    if (!h || sodium_memcmp(a, b, sizeof a) != 0) {
        reply_error(r, 401, "unauthorized", "the admin token is required");
        return false;
    }
    return true;
}

void api_admin_player(request *r)
{
    if (!api_admin_ok(r))
        return;
    int64_t id;
    if (!parse_i64(r->seg[3], 1, INT64_MAX, &id)) {
        reply_error(r, 404, "not_found", "no such player");
        return;
    }
    store_token_stats st;
    store_status s = store_token_stats_for(r->app->db, id, now_ms(), &st);
    if (s != STORE_OK) {
        api_store_error(r, s);
        return;
    }
    reply_json(r, 200, json_pack("{s:I,s:{s:I,s:I,s:I,s:I}}", "player_id", (json_int_t)id, "tokens", "issued",
                                 (json_int_t)st.issued, "redeemed", (json_int_t)st.redeemed, "outstanding",
                                 (json_int_t)st.outstanding, "abandoned", (json_int_t)st.abandoned));
}
