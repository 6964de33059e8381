/*
 * api_seeds: issuing seed tokens, for a level or for today's daily, and
 * GET /v1/daily (sealed dailies: daily_seal.h). The level is generated here once (into the level cache),
 * so an expensive game costs its generation at issue, not at submission.
 * The token's record is a write: the request is suspended until it
 * committed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/daily.h"
#include "api.h"
#include "../trust/token.h"

#define DAY_MS 86400000LL
/* a sealed deployment's upgrade day (daily_seal_closed) */
#define CLOSED_TODAY                                                                            \
    "today's daily was published with its public seed before this server sealed its dailies; " \
    "sealed dailies start tomorrow, and tokens already drawn today still play"

bool api_served_daily(const app *a, civil_date d, daily_pick *p, daily_sealed *sealed,
                      bool *is_sealed)
{
    if (!daily_for_date(d, p))
        return false;
    *is_sealed = daily_seal_applies(&a->seal, d);
    if (*is_sealed) {
        daily_seal_derive(a->seal.key, d, sealed);
        p->seed = sealed->seed;
    }
    return true;
}

static void token_json(json_t *out, const store_token *t)
{
    char exp[32], iss[32];
    iso_time_format(t->expires_at, exp);
    iso_time_format(t->issued_at, iss);
    json_object_set_new(out, "seed_token", json_string(t->text));
    json_object_set_new(out, "game", json_string(t->p.g->name));
    json_object_set_new(out, "level", json_integer(t->p.level));
    json_object_set_new(out, "seed", json_integer(t->p.seed));
    json_object_set_new(out, "version", json_integer(t->p.version));
    json_object_set_new(out, "issued_at", json_string(iss));
    json_object_set_new(out, "expires_at", json_string(exp));
    if (play_is_daily(&t->p)) {
        char date[11];
        play_date(&t->p, date);
        json_object_set_new(out, "date", json_string(date));
    }
}

/* Reads {"game","level"} or {"daily":true} into the token's play (game,
 * level, seed, version, day); else answers 400/404. */
static bool read_seed_request(request *r, const json_t *doc, int64_t now, seed_token *t)
{
    const json_t *daily = json_object_get(doc, "daily");
    memset(t, 0, sizeof *t);
    t->p.day = -1;
    if (daily) {
        if (!json_is_true(daily) || json_object_size(doc) != 1) {
            reply_error(r, 400, "bad_request", "a daily request is exactly {\"daily\":true}");
            return false;
        }
        daily_pick p;
        daily_sealed sealed;
        bool is_sealed;
        civil_date today = civil_from_unix(now / 1000);
        if (daily_seal_closed(&r->app->seal, today, today)) {
            reply_error(r, 404, "no_daily", CLOSED_TODAY);
            return false;
        }
        if (!api_served_daily(r->app, today, &p, &sealed, &is_sealed)) {
            reply_error(r, 404, "no_daily", "there is no daily challenge today");
            return false;
        }
        t->p.g = p.game;
        t->p.level = p.level;
        t->p.seed = p.seed;
        t->p.day = (int32_t)civil_to_days(today);
    } else {
        const json_t *game_name = json_object_get(doc, "game"), *level = json_object_get(doc, "level");
        if (json_object_size(doc) != 2 || !json_is_string(game_name) || !json_is_integer(level)) {
            reply_error(r, 400, "bad_request", "expected {\"game\": string, \"level\": integer}");
            return false;
        }
        const game *g = game_find(json_string_value(game_name));
        if (!g) {
            reply_error(r, 404, "unknown_game", "no game of that name");
            return false;
        }
        json_int_t lv = json_integer_value(level);
        if (lv < 1 || lv > g->levels) {
            char msg[80];
            snprintf(msg, sizeof msg, "level must be 1..%d", g->levels);
            reply_error(r, 400, "bad_level", msg);
            return false;
        }
        t->p.g = g;
        t->p.level = (int)lv;
        t->p.seed = randombytes_random();
    }
    t->p.version = app_issue_version(r->app, t->p.g);
    return true;
}

/* Resumed after the token's record committed. */
static void token_committed(request *r)
{
    store_write *w = r->work;
    json_t *out;
    switch (w->status) {
    case STORE_OK:
        out = json_object();
        token_json(out, &w->u.token.token);
        reply_json(r, 201, out);
        break;
    case STORE_CONFLICT:
        if (!w->u.token.existing.redeemed) {
            out = json_object();
            token_json(out, &w->u.token.existing);
            reply_json(r, 200, out);
        } else {
            reply_error(r, 409, "daily_already_played", "today's daily was already played");
        }
        break;
    case STORE_LIMIT:
        /* the forfeit cap is per UTC day; an outstanding token frees up
         * when played, or at the latest when it expires */
        r->retry_after_s = w->u.token.limit != TOKEN_LIMIT_OUTSTANDING
                               ? (int)((w->u.token.day_start + DAY_MS - w->u.token.now + 999) / 1000)
                               : 60;
        if (w->u.token.limit == TOKEN_LIMIT_DRAWS)
            reply_error(r, 429, "too_many_draws",
                        "this level's seeds drawn today reached the daily cap, however their runs "
                        "ended; come back tomorrow (UTC)");
        else if (w->u.token.limit == TOKEN_LIMIT_FORFEITS)
            reply_error(r, 429, "too_many_forfeits",
                        "too many abandoned, forfeited or open attempts at this level today; "
                        "finish a run or come back tomorrow (UTC)");
        else
            reply_error(r, 429, "too_many_outstanding",
                        "too many unredeemed seed tokens; play or let them expire");
        break;
    default:
        api_store_error(r, w->status);
    }
}

void api_seeds_create(request *r)
{
    store_player player;
    if (!api_auth(r, &player))
        return;
    if (player.banned) {
        reply_error(r, 403, "banned", "this player is banned");
        return;
    }
    char key[24];
    snprintf(key, sizeof key, "%lld", (long long)player.id);
    if (!ratelimit_allow(&r->app->limits, "seeds", key, r->live->rate_seeds_per_player,
                         r->started_us)) {
        reply_rate_limited(r, r->live->rate_seeds_per_player, "too many seed requests");
        return;
    }
    json_t *doc = req_json_object(r);
    if (!doc)
        return;
    int64_t now = now_ms();
    seed_token t;
    bool ok = read_seed_request(r, doc, now, &t);
    json_decref(doc);
    if (!ok)
        return;
    /* generated once here, so an expensive game costs its generation at
     * issue, not at submission */
    if (level_cache_warm(&r->app->levels, t.p.g, t.p.version, t.p.level, t.p.seed) != GEN_OK) {
        reply_error(r, 500, "internal", "the level could not be generated");
        return;
    }
    t.p.player_id = player.id;
    t.issued_at = now;
    t.expires_at = now + (int64_t)r->app->cfg.token_lifetime_s * 1000;
    if (play_is_daily(&t.p))
        t.expires_at = ((int64_t)t.p.day + 1) * DAY_MS + (int64_t)r->app->cfg.daily_grace_s * 1000;
    store_write *w = calloc(1, sizeof *w);
    if (!w) {
        reply_error(r, 500, "internal", "out of memory");
        return;
    }
    req_own(r, w, free);
    if (!token_issue(&r->app->keys, &t, w->u.token.token.text, sizeof w->u.token.token.text)) {
        reply_error(r, 500, "internal", "the token could not be issued");
        return;
    }
    w->kind = STORE_WRITE_TOKEN;
    w->u.token.token.p = t.p;
    w->u.token.token.issued_at = t.issued_at;
    w->u.token.token.expires_at = t.expires_at;
    w->u.token.max_outstanding = r->app->cfg.max_outstanding_tokens;
    w->u.token.max_forfeits = r->app->cfg.max_forfeits_per_level_day;
    w->u.token.max_draws = r->app->cfg.max_draws_per_level_day;
    w->u.token.day_start = now - (now % DAY_MS + DAY_MS) % DAY_MS;
    w->u.token.now = now;
    api_write(r, w, token_committed);
}

static json_t *hex_json(const unsigned char *bin, size_t len)
{
    char hex[2 * DAILY_SEAL_HASH_BYTES + 1];
    sodium_bin2hex(hex, sizeof hex, bin, len);
    return json_string(hex);
}

/* A sealed date that has not opened on the server's clock shows only its
 * commitment and when it opens; an open one its seed, reveal and
 * commitment, so anyone can check the seed against what was published. */
void api_daily(request *r)
{
    const char *q = req_query(r, "date");
    int64_t now = now_ms();
    civil_date today = civil_from_unix(now / 1000), d = today;
    if (q && !civil_parse(q, &d)) {
        reply_error(r, 400, "bad_date", "date must be YYYY-MM-DD");
        return;
    }
    daily_pick p;
    daily_sealed sealed;
    bool is_sealed = false;
    if (daily_seal_closed(&r->app->seal, d, today)) {
        reply_error(r, 404, "no_daily", CLOSED_TODAY);
        return;
    }
    if (!api_served_daily(r->app, d, &p, &sealed, &is_sealed)) {
        reply_error(r, 404, "no_daily", "there is no daily challenge on that date");
        return;
    }
    char date[11], resets[32], opens[32];
    civil_format(d, date);
    iso_time_format((civil_to_days(d) + 1) * DAY_MS, resets);
    iso_time_format(civil_to_days(d) * DAY_MS, opens);
    if (is_sealed && civil_to_days(d) > civil_to_days(today)) {
        reply_json(r, 200, json_pack("{s:s,s:b,s:o,s:s}", "date", date, "sealed", 1, "commitment",
                                     hex_json(sealed.commitment, sizeof sealed.commitment),
                                     "opens_at", opens));
        sodium_memzero(&sealed, sizeof sealed);
        return;
    }
    json_t *out = json_pack("{s:s,s:s,s:i,s:I,s:i,s:s,s:i,s:b}", "date", date, "game", p.game->name,
                            "level", p.level, "seed", (json_int_t)p.seed, "version",
                            app_issue_version(r->app, p.game), "resets_at", resets, "schedule",
                            p.schedule_version, "sealed", is_sealed);
    if (is_sealed) {
        json_object_set_new(out, "commitment", hex_json(sealed.commitment, sizeof sealed.commitment));
        json_object_set_new(out, "reveal", hex_json(sealed.reveal, sizeof sealed.reveal));
    }
    reply_json(r, 200, out);
}
