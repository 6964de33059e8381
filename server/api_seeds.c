/*
 * api_seeds: issuing seed tokens, for a level or for today's daily, and
 * GET /v1/daily. The level is generated here once (into the level cache),
 * so an expensive game costs its generation at issue, not at submission.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/daily.h"
#include "api.h"
#include "token.h"

#define DAY_MS 86400000LL

static void token_json(json_t *out, const store_token *t, const char *date)
{
    char exp[32], iss[32];
    api_format_time(t->expires_at, exp);
    api_format_time(t->issued_at, iss);
    json_object_set_new(out, "seed_token", json_string(t->text));
    json_object_set_new(out, "game", json_string(t->game));
    json_object_set_new(out, "level", json_integer(t->level));
    json_object_set_new(out, "seed", json_integer(t->seed));
    json_object_set_new(out, "version", json_integer(t->version));
    json_object_set_new(out, "issued_at", json_string(iss));
    json_object_set_new(out, "expires_at", json_string(exp));
    if (date && *date)
        json_object_set_new(out, "date", json_string(date));
}

/* Reads {"game","level"} or {"daily":true}. On success fills the token's
 * game, level, seed, version and daily day; else answers 400/404. */
static bool read_seed_request(request *r, const json_t *doc, int64_t now, seed_token *t,
                              const game **out_game)
{
    const json_t *daily = json_object_get(doc, "daily");
    const game *g;
    memset(t, 0, sizeof *t);
    t->daily_day = -1;
    if (daily) {
        if (!json_is_true(daily) || json_object_size(doc) != 1) {
            reply_error(r, 400, "bad_request", "a daily request is exactly {\"daily\":true}");
            return false;
        }
        daily_pick p;
        civil_date today = civil_from_unix(now / 1000);
        if (!daily_for_date(today, &p)) {
            reply_error(r, 404, "no_daily", "there is no daily challenge today");
            return false;
        }
        g = p.game;
        t->level = p.level;
        t->seed = p.seed;
        t->daily_day = (int32_t)civil_to_days(today);
    } else {
        const json_t *game_name = json_object_get(doc, "game"), *level = json_object_get(doc, "level");
        if (json_object_size(doc) != 2 || !json_is_string(game_name) || !json_is_integer(level)) {
            reply_error(r, 400, "bad_request", "expected {\"game\": string, \"level\": integer}");
            return false;
        }
        g = game_find(json_string_value(game_name));
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
        t->level = (int)lv;
        t->seed = randombytes_random();
    }
    snprintf(t->game, sizeof t->game, "%s", g->name);
    t->version = app_issue_version(r->app, g);
    *out_game = g;
    return true;
}

void api_seeds_create(request *r)
{
    store_player player;
    if (!api_auth(r, &player))
        return;
    char key[24];
    snprintf(key, sizeof key, "%lld", (long long)player.id);
    if (!ratelimit_allow(&r->app->limits, "seeds", key, r->app->cfg.rate_seeds_per_player,
                         r->started_us)) {
        reply_error(r, 429, "rate_limited", "too many seed requests");
        return;
    }
    json_t *doc = req_json_object(r);
    if (!doc)
        return;
    int64_t now = now_ms();
    seed_token t;
    const game *g = NULL;
    bool ok = read_seed_request(r, doc, now, &t, &g);
    json_decref(doc);
    if (!ok)
        return;

    game_level *level = malloc(g->level_size);
    if (!level || level_cache_get(&r->app->levels, g, t.version, t.level, t.seed, level) != GEN_OK) {
        free(level);
        reply_error(r, 500, "internal", "the level could not be generated");
        return;
    }
    free(level);

    t.player_id = player.id;
    t.issued_at = now;
    t.expires_at = now + (int64_t)r->app->cfg.token_lifetime_s * 1000;
    char date[11] = "";
    if (t.daily_day >= 0) {
        civil_format(civil_from_days(t.daily_day), date);
        t.expires_at = ((int64_t)t.daily_day + 1) * DAY_MS + (int64_t)r->app->cfg.daily_grace_s * 1000;
    }
    store_token rec;
    memset(&rec, 0, sizeof rec);
    if (!token_issue(&r->app->keys, &t, rec.text, sizeof rec.text)) {
        reply_error(r, 500, "internal", "the token could not be issued");
        return;
    }
    memcpy(rec.nonce, t.nonce, sizeof rec.nonce);
    rec.player_id = t.player_id;
    snprintf(rec.game, sizeof rec.game, "%s", t.game);
    rec.level = t.level;
    rec.seed = t.seed;
    rec.version = t.version;
    rec.issued_at = t.issued_at;
    rec.expires_at = t.expires_at;
    snprintf(rec.daily_date, sizeof rec.daily_date, "%s", date);

    store_token existing;
    store_status st = store_token_issue(r->app->db, &rec, r->app->cfg.max_outstanding_tokens, now, &existing);
    json_t *out = json_object();
    if (st == STORE_OK) {
        token_json(out, &rec, date);
        reply_json(r, 201, out);
    } else if (st == STORE_CONFLICT && !existing.redeemed) {
        token_json(out, &existing, date);
        reply_json(r, 200, out);
    } else if (st == STORE_CONFLICT) {
        json_decref(out);
        reply_error(r, 409, "daily_already_played", "today's daily was already played");
    } else if (st == STORE_LIMIT) {
        json_decref(out);
        reply_error(r, 429, "too_many_outstanding", "too many unredeemed seed tokens; play or let them expire");
    } else {
        json_decref(out);
        api_store_error(r, st);
    }
}

void api_daily(request *r)
{
    const char *q = req_query(r, "date");
    civil_date d = civil_from_unix(now_ms() / 1000);
    if (q && !civil_parse(q, &d)) {
        reply_error(r, 400, "bad_date", "date must be YYYY-MM-DD");
        return;
    }
    daily_pick p;
    if (!daily_for_date(d, &p)) {
        reply_error(r, 404, "no_daily", "there is no daily challenge on that date");
        return;
    }
    char date[11], resets[32];
    civil_format(d, date);
    api_format_time((civil_to_days(d) + 1) * DAY_MS, resets);
    reply_json(r, 200, json_pack("{s:s,s:s,s:i,s:I,s:i,s:s,s:i}", "date", date, "game", p.game->name,
                                 "level", p.level, "seed", (json_int_t)p.seed, "version",
                                 app_issue_version(r->app, p.game), "resets_at", resets, "schedule",
                                 p.schedule_version));
}
