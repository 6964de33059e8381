/*
 * api_boards: daily and per-level leaderboards, cursor pages, around-me
 * (bearer), around a player by id (public: every entry is public already),
 * and the list of level boards that have entries. Cursors are
 * "n.<score>.<seq>" (the page after that entry) or "p.<score>.<seq>" (the
 * page before it); clients treat them as opaque.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/daily.h"
#include "api.h"
#include "../base/parse.h"

#define PAGE_DEFAULT 50
#define PAGE_MAX 200
#define AROUND_DEFAULT 5
#define AROUND_MAX 50

static json_t *entry_json(const store_entry *e)
{
    char at[32];
    iso_time_format(e->submitted_at, at);
    return json_pack("{s:I,s:I,s:s,s:I,s:s,s:s}", "rank", (json_int_t)e->rank, "player_id",
                     (json_int_t)e->player_id, "name", e->player_name, "score", (json_int_t)e->score,
                     "submitted_at", at, "score_id", e->score_id);
}

static json_t *entries_json(const store_entry *entries, int n)
{
    json_t *list = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(list, entry_json(&entries[i]));
    return list;
}

static json_t *cursor_json(char dir, const store_entry *e)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%c.%lld.%lld", dir, (long long)e->score, (long long)e->seq);
    return json_string(buf);
}

static bool parse_cursor(const char *text, store_board_key *key, bool *backwards)
{
    char buf[64];
    if (!text || strlen(text) >= sizeof buf || (text[0] != 'n' && text[0] != 'p') || text[1] != '.')
        return false;
    snprintf(buf, sizeof buf, "%s", text + 2);
    char *dot = strchr(buf, '.');
    if (!dot)
        return false;
    *dot = '\0';
    int64_t score, seq;
    if (!parse_i64(buf, INT64_MIN + 1, INT64_MAX, &score) || !parse_i64(dot + 1, 0, INT64_MAX, &seq))
        return false;
    key->score = score;
    key->seq = seq;
    *backwards = text[0] == 'p';
    return true;
}

static bool query_int(request *r, const char *name, int64_t lo, int64_t hi, int64_t dflt, int64_t *out)
{
    const char *v = req_query(r, name);
    *out = dflt;
    if (!v)
        return true;
    if (parse_i64(v, lo, hi, out))
        return true;
    char msg[96];
    snprintf(msg, sizeof msg, "%s must be an integer in %lld..%lld", name, (long long)lo, (long long)hi);
    reply_error(r, 400, "bad_query", msg);
    return false;
}

static void board_page(request *r, const store_board *b, json_t *out)
{
    int64_t limit;
    if (!query_int(r, "limit", 1, PAGE_MAX, PAGE_DEFAULT, &limit)) {
        json_decref(out);
        return;
    }
    store_board_key key;
    bool backwards = false;
    const char *cursor = req_query(r, "cursor");
    if (cursor && !parse_cursor(cursor, &key, &backwards)) {
        json_decref(out);
        reply_error(r, 400, "bad_cursor", "the cursor is not one this server gave");
        return;
    }
    store_entry *entries = calloc((size_t)limit, sizeof *entries);
    int n = 0;
    bool more = false;
    int64_t total = 0;
    store_status st = entries ? store_board_page(r->app->db, b, cursor ? &key : NULL, backwards,
                                                 (int)limit, entries, &n, &more, &total)
                              : STORE_ERROR;
    if (st != STORE_OK) {
        free(entries);
        json_decref(out);
        api_store_error(r, st);
        return;
    }
    json_object_set_new(out, "entries", entries_json(entries, n));
    /* Forwards, "more" is about what follows; backwards, about what precedes. */
    bool has_next = backwards ? (n > 0) : more;
    bool has_prev = backwards ? more : (cursor != NULL && n > 0);
    json_object_set_new(out, "next_cursor", has_next && n ? cursor_json('n', &entries[n - 1]) : json_null());
    json_object_set_new(out, "prev_cursor", has_prev && n ? cursor_json('p', &entries[0]) : json_null());
    json_object_set_new(out, "total", json_integer(total));
    free(entries);
    reply_json(r, 200, out);
}

/* The entry of player_id with up to ?around entries either side, under
 * `key` ("me" or "player"); `missing` is the 404's message. */
static void board_around(request *r, const store_board *b, json_t *out, int64_t player_id,
                         const char *key, const char *missing)
{
    int64_t around;
    if (!query_int(r, "around", 0, AROUND_MAX, AROUND_DEFAULT, &around)) {
        json_decref(out);
        return;
    }
    store_entry *entries = calloc((size_t)(2 * around + 1), sizeof *entries);
    int n = 0, self = 0;
    store_status st = entries ? store_board_around(r->app->db, b, player_id, (int)around, entries, &n, &self)
                              : STORE_ERROR;
    if (st == STORE_NOT_FOUND) {
        free(entries);
        json_decref(out);
        reply_error(r, 404, "not_on_board", missing);
        return;
    }
    if (st != STORE_OK) {
        free(entries);
        json_decref(out);
        api_store_error(r, st);
        return;
    }
    json_object_set_new(out, "rank", json_integer(entries[self].rank));
    json_object_set_new(out, key, entry_json(&entries[self]));
    json_object_set_new(out, "entries", entries_json(entries, n));
    free(entries);
    reply_json(r, 200, out);
}

static void board_me(request *r, const store_board *b, json_t *out)
{
    store_player player;
    if (!api_auth(r, &player)) {
        json_decref(out);
        return;
    }
    board_around(r, b, out, player.id, "me", "you have no score on this board");
}

/* The path's last segment is a player id: digits only, as the API prints them. */
static void board_player(request *r, const store_board *b, json_t *out)
{
    const char *text = r->seg[r->n_seg - 1];
    int64_t id;
    if (strspn(text, "0123456789") != strlen(text) || !parse_i64(text, 1, INT64_MAX, &id)) {
        json_decref(out);
        reply_error(r, 404, "not_on_board", "a player id is a positive integer");
        return;
    }
    board_around(r, b, out, id, "player", "that player has no score on this board");
}

/* Fills a daily board from the path's date, or answers 400/404. */
static json_t *daily_board(request *r, store_board *b)
{
    civil_date d;
    daily_pick p;
    if (!civil_parse(r->seg[3], &d)) {
        reply_error(r, 400, "bad_date", "date must be YYYY-MM-DD");
        return NULL;
    }
    if (!daily_for_date(d, &p)) {
        reply_error(r, 404, "no_daily", "there is no daily challenge on that date");
        return NULL;
    }
    char date[11];
    civil_format(d, date);
    b->day = (int32_t)civil_to_days(d);
    b->g = NULL;
    b->level = 0;
    return json_pack("{s:s,s:s,s:i}", "date", date, "game", p.game->name, "level", p.level);
}

static json_t *level_board(request *r, store_board *b)
{
    const game *g = game_find(r->seg[2]);
    int64_t level;
    if (!g) {
        reply_error(r, 404, "unknown_game", "no game of that name");
        return NULL;
    }
    if (!parse_i64(r->seg[3], 1, g->levels, &level)) {
        reply_error(r, 404, "bad_level", "no such level");
        return NULL;
    }
    b->day = -1;
    b->g = g;
    b->level = (int)level;
    return json_pack("{s:s,s:i}", "game", g->name, "level", (int)level);
}

void api_board_daily(request *r)
{
    store_board b;
    json_t *out = daily_board(r, &b);
    if (out)
        board_page(r, &b, out);
}

void api_board_daily_me(request *r)
{
    store_board b;
    json_t *out = daily_board(r, &b);
    if (out)
        board_me(r, &b, out);
}

void api_board_level(request *r)
{
    store_board b;
    json_t *out = level_board(r, &b);
    if (out)
        board_page(r, &b, out);
}

void api_board_level_me(request *r)
{
    store_board b;
    json_t *out = level_board(r, &b);
    if (out)
        board_me(r, &b, out);
}

void api_board_daily_player(request *r)
{
    store_board b;
    json_t *out = daily_board(r, &b);
    if (out)
        board_player(r, &b, out);
}

void api_board_level_player(request *r)
{
    store_board b;
    json_t *out = level_board(r, &b);
    if (out)
        board_player(r, &b, out);
}

/* Every level board with entries, in catalogue order (board_list.h: at
 * most one pass over the catalogue's boards a second). */
void api_boards_list(request *r)
{
    json_t *boards = NULL;
    store_status st = board_list_get(&r->app->boards, r->app->db, now_ms(), &boards);
    if (st != STORE_OK) {
        api_store_error(r, st);
        return;
    }
    reply_json(r, 200, json_pack("{s:o}", "boards", boards));
}
