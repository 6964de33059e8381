/*
 * api_moderation: what an operator does, behind the admin token:
 * POST /v1/admin/scores/{id}/void|restore|approve and
 * POST /v1/admin/players/{id}/ban|unban|rename, and what an operator reads
 * to decide: GET /v1/admin/review (the queue, highest suspicion first;
 * its filters: api_review_items.c), /v1/admin/rejections and
 * /v1/admin/log (the append-only admin_log, either way, by action or
 * actor), and GET /v1/admin/players/{id}: the queries and their errors
 * here, the store's rows made JSON by api_admin_views.c.
 *
 * An action is one write handed to the store's writer like a submission
 * (store.h STORE_WRITE_ADMIN): its rows, the boards' rows and its admin_log
 * row commit in one transaction, and the boards in memory change in the
 * same writer step, so a board reader never sees half of it. The request
 * is suspended until the commit.
 *
 * Ownership: the write is owned by the request (req_own) and freed with
 * its board changes when the request ends.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "../trust/names.h"
#include "../base/parse.h"

#define PAGE_DEFAULT 50
#define PAGE_MAX 200

static void admin_write_free(void *p)
{
    store_write *w = p;
    if (w)
        store_admin_clear(w);
    free(w);
}

static const char *const action_names[] = {
    [ADMIN_VOID] = "void",   [ADMIN_RESTORE] = "restore", [ADMIN_APPROVE] = "approve",
    [ADMIN_BAN] = "ban",     [ADMIN_UNBAN] = "unban",     [ADMIN_RENAME] = "rename",
};

/* Resumed after the action's commit. */
static void action_committed(request *r)
{
    store_write *w = r->work;
    admin_action a = w->u.admin.action;
    bool on_score = a == ADMIN_VOID || a == ADMIN_RESTORE || a == ADMIN_APPROVE;
    switch (w->status) {
    case STORE_OK:
        break;
    case STORE_NOT_FOUND:
        reply_error(r, 404, "not_found", on_score ? "no such score" : "no such player");
        return;
    case STORE_CONFLICT: {
        static const char *const codes[][2] = {
            [ADMIN_VOID] = { "already_voided", "the score is voided already" },
            [ADMIN_RESTORE] = { "not_voided", "the score is not voided" },
            [ADMIN_APPROVE] = { "not_held", "the score is neither held nor waiting for review" },
            [ADMIN_BAN] = { "already_banned", "the player is banned already" },
            [ADMIN_UNBAN] = { "not_banned", "the player is not banned" },
            [ADMIN_RENAME] = { "conflict", "the player cannot be renamed" },
        };
        reply_error(r, 409, codes[a][0], codes[a][1]);
        return;
    }
    default:
        api_store_error(r, w->status);
        return;
    }
    json_t *boards = json_array();
    for (int i = 0; i < w->u.admin.n_changes; i++) {
        const store_board_change *ch = &w->u.admin.changes[i];
        json_t *b = json_object();
        if (ch->board.day >= 0) {
            play p = { .day = ch->board.day };
            char date[11];
            play_date(&p, date);
            json_object_set_new(b, "date", json_string(date));
        } else {
            json_object_set_new(b, "game", json_string(ch->board.g->name));
            json_object_set_new(b, "level", json_integer(ch->board.level));
        }
        if (ch->has_entry) {
            play p;
            memcpy(p.nonce, ch->nonce, PLAY_NONCE_BYTES);
            char id[PLAY_ID_LEN + 1];
            play_score_id(&p, id);
            json_object_set_new(b, "entry", json_pack("{s:s,s:I}", "score_id", id, "score", (json_int_t)ch->score));
        } else {
            json_object_set_new(b, "entry", json_null());
        }
        json_array_append_new(boards, b);
    }
    json_t *out = json_pack("{s:s,s:I,s:I,s:o}", "action", action_names[a], "log_id",
                            (json_int_t)w->u.admin.log_id, "player_id", (json_int_t)w->u.admin.player_id,
                            "boards", boards);
    if (on_score) {
        play p;
        memcpy(p.nonce, w->u.admin.nonce, PLAY_NONCE_BYTES);
        char id[PLAY_ID_LEN + 1];
        play_score_id(&p, id);
        json_object_set_new(out, "score_id", json_string(id));
    }
    reply_json(r, 200, out);
}

/* The optional body {"reason", "operator", "name"}: reason required for
 * void, ban and rename; name for rename. */
static bool read_action_body(request *r, store_write *w)
{
    admin_action a = w->u.admin.action;
    json_t *doc = NULL;
    if (r->body_len > 0) {
        doc = req_json_object(r);
        if (!doc)
            return false;
    }
    bool ok = false;
    const json_t *reason = json_object_get(doc, "reason"), *op = json_object_get(doc, "operator"),
                 *name = json_object_get(doc, "name");
    size_t known = (reason != NULL) + (op != NULL) + (name != NULL && a == ADMIN_RENAME);
    if (doc && json_object_size(doc) != known) {
        reply_error(r, 400, "bad_request", "the body may hold only reason, operator (and name for a rename)");
        goto done;
    }
    bool need_reason = a == ADMIN_VOID || a == ADMIN_BAN || a == ADMIN_RENAME;
    if ((reason && !json_is_string(reason)) || (need_reason && (!reason || !json_string_length(reason)))) {
        reply_error(r, 400, "reason_required", "a non-empty \"reason\" string is required");
        goto done;
    }
    /* admin_log is read by people: a reason says something, in text */
    if (reason && json_string_length(reason) &&
        !names_text_visible(json_string_value(reason), json_string_length(reason), false)) {
        reply_error(r, 400, "reason_required",
                    "the reason must hold visible text, and no control, bidi or blank-rendering character");
        goto done;
    }
    if (reason && json_string_length(reason) > STORE_REASON_TEXT_MAX) {
        reply_error(r, 400, "reason_too_long", "the reason is longer than 500 bytes");
        goto done;
    }
    if (op && (!json_is_string(op) || json_string_length(op) == 0 || json_string_length(op) > 64 ||
               !names_text_visible(json_string_value(op), json_string_length(op), true))) {
        reply_error(r, 400, "bad_operator",
                    "\"operator\" is a string of 1 to 64 bytes of visible characters (no control, bidi or ANSI escape)");
        goto done;
    }
    if (a == ADMIN_RENAME) {
        if (!json_is_string(name)) {
            reply_error(r, 400, "bad_name", "a \"name\" string is required");
            goto done;
        }
        names_verdict v = names_normalize(json_string_value(name), json_string_length(name), w->u.admin.name);
        if (v != NAME_OK) {
            reply_error(r, 400, "bad_name", names_why(v));
            goto done;
        }
    }
    snprintf(w->u.admin.reason, sizeof w->u.admin.reason, "%s", reason ? json_string_value(reason) : "");
    /* who: the operator's own name if given, and always the address */
    snprintf(w->u.admin.actor, sizeof w->u.admin.actor, "%s@%s", op ? json_string_value(op) : "admin", r->ip);
    ok = true;
done:
    json_decref(doc);
    return ok;
}

static void admin_action_run(request *r, admin_action a)
{
    if (!api_admin_ok(r))
        return;
    store_write *w = calloc(1, sizeof *w);
    if (!w) {
        reply_error(r, 500, "internal", "out of memory");
        return;
    }
    req_own(r, w, admin_write_free);
    w->kind = STORE_WRITE_ADMIN;
    w->u.admin.action = a;
    const char *id = r->seg[3];
    if (a == ADMIN_VOID || a == ADMIN_RESTORE || a == ADMIN_APPROVE) {
        if (strspn(id, "0123456789abcdef") != PLAY_ID_LEN || !play_nonce_from_id(id, w->u.admin.nonce)) {
            reply_error(r, 404, "not_found", "no such score");
            return;
        }
    } else if (!parse_i64(id, 1, INT64_MAX, &w->u.admin.player_id)) {
        reply_error(r, 404, "not_found", "no such player");
        return;
    }
    if (!read_action_body(r, w))
        return;
    w->u.admin.now = now_ms();
    api_write(r, w, action_committed);
}

void api_admin_void(request *r) { admin_action_run(r, ADMIN_VOID); }
void api_admin_restore(request *r) { admin_action_run(r, ADMIN_RESTORE); }
void api_admin_approve(request *r) { admin_action_run(r, ADMIN_APPROVE); }
void api_admin_ban(request *r) { admin_action_run(r, ADMIN_BAN); }
void api_admin_unban(request *r) { admin_action_run(r, ADMIN_UNBAN); }
void api_admin_rename(request *r) { admin_action_run(r, ADMIN_RENAME); }

/* ---- reads ---- */

/* limit and cursor from the query; false after a 400. */
static bool page_args(request *r, store_admin_query *q)
{
    const char *limit = req_query(r, "limit");
    int64_t n = PAGE_DEFAULT;
    if (limit && !parse_i64(limit, 1, PAGE_MAX, &n)) {
        reply_error(r, 400, "bad_limit", "limit must be 1..200");
        return false;
    }
    q->limit = (int)n;
    q->cursor = req_query(r, "cursor");
    q->now = now_ms();
    return true;
}

/* A read's answer: its rows from the store, the JSON built from them
 * (api_admin_views.c); enrich, when given, adds to the page from its rows
 * before it is sent. */
static void answer_read(request *r, const store_admin_query *q,
                        void (*enrich)(request *r, const store_admin_answer *a, json_t *page))
{
    store_admin_answer a;
    store_status st = store_admin_read(r->app->db, q, &a);
    json_t *out = st == STORE_OK ? api_admin_view(&a) : NULL;
    if (out) {
        if (enrich)
            enrich(r, &a, out);
        reply_json(r, 200, out);
    } else if (st == STORE_NOT_FOUND) {
        reply_error(r, 404, "not_found", "no such player");
    } else if (st == STORE_CONFLICT) {
        reply_error(r, 400, "bad_cursor", "the cursor is not one this endpoint gave");
    } else {
        api_store_error(r, st == STORE_OK ? STORE_ERROR : st);
    }
    store_admin_answer_clear(&a);
}

void api_admin_review(request *r)
{
    if (!api_admin_ok(r))
        return;
    store_admin_query q = { .kind = ADMIN_Q_REVIEW,
                            .linked_window_ms = (int64_t)r->app->cfg.linked_window_s * 1000 };
    char date[11];
    if (page_args(r, &q) && api_review_filters(r, &q, date))
        answer_read(r, &q, api_review_enrich);
}

/* order, action and actor of GET /v1/admin/log; false after a 400. */
static bool log_filters(request *r, store_admin_query *q)
{
    const char *order = req_query(r, "order"), *action = req_query(r, "action"), *actor = req_query(r, "actor");
    if (order && strcmp(order, "asc") != 0 && strcmp(order, "desc") != 0) {
        reply_error(r, 400, "bad_query", "order must be asc or desc");
        return false;
    }
    q->newest_first = order && strcmp(order, "desc") == 0;
    bool known = false;
    for (size_t i = 0; action && i < sizeof action_names / sizeof action_names[0]; i++)
        known = known || strcmp(action, action_names[i]) == 0;
    if (action && !known) {
        reply_error(r, 400, "bad_query", "action must be one of void, restore, approve, ban, unban, rename");
        return false;
    }
    if (actor && (!actor[0] || strlen(actor) > STORE_ACTOR_MAX)) {
        reply_error(r, 400, "bad_query", "actor is 1 to 127 bytes (as the log shows it: operator@address)");
        return false;
    }
    q->action = action;
    q->actor = actor;
    return true;
}

void api_admin_log(request *r)
{
    if (!api_admin_ok(r))
        return;
    store_admin_query q = { .kind = ADMIN_Q_LOG };
    if (page_args(r, &q) && log_filters(r, &q))
        answer_read(r, &q, NULL);
}

void api_admin_rejections(request *r)
{
    if (!api_admin_ok(r))
        return;
    store_admin_query q = { .kind = ADMIN_Q_REJECTIONS };
    if (!page_args(r, &q))
        return;
    const char *player = req_query(r, "player"), *game_name = req_query(r, "game"),
               *since = req_query(r, "since");
    if (player && !parse_i64(player, 1, INT64_MAX, &q.player_id)) {
        reply_error(r, 400, "bad_player", "player must be a player id");
        return;
    }
    if (game_name && !(q.g = game_find(game_name))) {
        reply_error(r, 404, "unknown_game", "no game of that name");
        return;
    }
    if (since && !parse_i64(since, 0, INT64_MAX, &q.since)) {
        reply_error(r, 400, "bad_since", "since must be unix milliseconds");
        return;
    }
    answer_read(r, &q, NULL);
}

/* GET /v1/admin/players/{id}: 404 for an unknown player. */
void api_admin_player(request *r)
{
    if (!api_admin_ok(r))
        return;
    store_admin_query q = { .kind = ADMIN_Q_PLAYER, .now = now_ms(),
                            .linked_window_ms = (int64_t)r->app->cfg.linked_window_s * 1000 };
    if (!parse_i64(r->seg[3], 1, INT64_MAX, &q.player_id)) {
        reply_error(r, 404, "not_found", "no such player");
        return;
    }
    store_admin_answer a;
    store_status st = store_admin_read(r->app->db, &q, &a);
    json_t *out = st == STORE_OK ? api_admin_view(&a) : NULL;
    store_admin_answer_clear(&a);
    if (st == STORE_OK && !out)
        st = STORE_ERROR;
    store_token_stats ts;
    if (st == STORE_OK)
        st = store_token_stats_for(r->app->db, q.player_id, q.now, &ts);
    if (st != STORE_OK) {
        json_decref(out);
        if (st == STORE_NOT_FOUND)
            reply_error(r, 404, "not_found", "no such player");
        else
            api_store_error(r, st);
        return;
    }
    json_t *scores = json_object_get(out, "scores");
    json_object_set_new(out, "tokens",
                        json_pack("{s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I}", "issued", (json_int_t)ts.issued,
                                  "redeemed", (json_int_t)(ts.completed + ts.incomplete + ts.forfeited),
                                  "completed", (json_int_t)ts.completed, "incomplete",
                                  (json_int_t)ts.incomplete, "forfeited", (json_int_t)ts.forfeited,
                                  "outstanding", (json_int_t)ts.outstanding, "abandoned",
                                  (json_int_t)ts.abandoned, "draws_today", (json_int_t)ts.draws_today,
                                  "most_draws_one_level_today",
                                  (json_int_t)ts.most_draws_one_level_today));
    /* the counts an operator asks for first, in one place */
    json_object_set_new(out, "counts",
                        json_pack("{s:I,s:I,s:I,s:I,s:O,s:O}", "issued", (json_int_t)ts.issued, "completed",
                                  (json_int_t)ts.completed, "forfeited", (json_int_t)ts.forfeited,
                                  "abandoned", (json_int_t)ts.abandoned, "rejected",
                                  json_object_get(scores, "rejected"), "voided",
                                  json_object_get(scores, "voided")));
    json_object_set_new(out, "banned", json_boolean(!json_is_null(json_object_get(out, "banned_at_ms"))));
    reply_json(r, 200, out);
}
