/*
 * api_review_items: what GET /v1/admin/review adds, from the store's queue
 * rows, to the items api_admin_views.c builds, for the operator's console
 * and curl alike: each held run's
 * "held_reason" (the one word a player's app was answered,
 * fairplay_hold_reason; "twin" for either run of a twin pair, which the
 * earlier run's own answer could not know yet) and "would_be_rank" (the
 * rank the run would take on its board if approved now; null when its
 * board cannot say); and the queue's filters (game, level, date, status
 * in the store's SQL; reason as the store's row filter, since the word is
 * computed here from the signals, never stored).
 */
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "../base/parse.h"
#include "../trust/fairplay.h"

/* A filtered page reads at most this many rows per item asked for, and
 * never more than REVIEW_SCAN_MAX (limit is at most 200). */
#define REVIEW_SCAN_PER_ITEM 10
#define REVIEW_SCAN_MAX 2000

/* A held row's one word (fairplay_hold_reason); NULL for a ranked one.
 * The word is static. */
static const char *item_reason(const store_review_item *row)
{
    if (strcmp(row->status, "held") != 0)
        return NULL;
    const char *word = fairplay_hold_reason(row->signals_json && row->signals_json[0] ? row->signals_json : "{}",
                                            row->duplicate_of != 0);
    /* the earlier run of a twin pair carries no signals.twin (the later
     * run's pass found the pair): it is held as a twin too, named in
     * fairplay_hold_reason's order. A row has a twin exactly when its
     * twin_of is set, already when the reason filter reads it, before
     * the twin's row is read. */
    if (row->twin_of && strcmp(word, "identity") != 0 && strcmp(word, "duplicate") != 0)
        word = "twin";
    return word;
}

/* store_review_keep for reason=: ctx is the word asked for. */
static bool keep_reason(const store_review_item *row, void *ctx)
{
    const char *word = item_reason(row);
    return word && strcmp(word, ctx) == 0;
}

/* game, level (with game; never with date), date; false after a 400/404. */
static bool board_filters(request *r, store_admin_query *q, char date[11])
{
    const char *game_name = req_query(r, "game"), *level = req_query(r, "level"), *day = req_query(r, "date");
    if (game_name && !(q->g = game_find(game_name))) {
        reply_error(r, 404, "unknown_game", "no game of that name");
        return false;
    }
    civil_date d;
    if (day && !civil_parse(day, &d)) {
        reply_error(r, 400, "bad_date", "date must be YYYY-MM-DD");
        return false;
    }
    if (day) {
        civil_format(d, date);
        q->date = date;
    }
    int64_t n = 0;
    if (level && (!q->g || day || !parse_i64(level, 1, q->g->levels, &n))) {
        reply_error(r, 400, "bad_level",
                    !q->g ? "level goes with game" : day ? "level names a level board, date a daily's: give one"
                                                         : "no such level in that game");
        return false;
    }
    q->level = (int)n;
    return true;
}

bool api_review_filters(request *r, store_admin_query *q, char date[11])
{
    if (!board_filters(r, q, date))
        return false;
    const char *status = req_query(r, "status"), *reason = req_query(r, "reason");
    if (status && strcmp(status, "held") != 0 && strcmp(status, "ranked") != 0) {
        reply_error(r, 400, "bad_query", "status must be held or ranked");
        return false;
    }
    if (reason && !fairplay_hold_reason_known(reason)) {
        reply_error(r, 400, "bad_query", "reason must be a held_reason word (docs/API.md)");
        return false;
    }
    if (reason && status && strcmp(status, "ranked") == 0) {
        reply_error(r, 400, "bad_query", "a reason is a held run's: give it with status=held or alone");
        return false;
    }
    q->status = reason ? "held" : status;
    if (reason) {
        q->keep = keep_reason;
        q->keep_ctx = (void *)reason;
        q->scan_max = q->limit * REVIEW_SCAN_PER_ITEM < REVIEW_SCAN_MAX ? q->limit * REVIEW_SCAN_PER_ITEM
                                                                         : REVIEW_SCAN_MAX;
    }
    return true;
}

/* The board of a queue row: a daily by date, else game and level. */
static bool item_board(const store_review_item *row, store_board *b)
{
    if (row->date[0]) {
        civil_date d;
        if (!civil_parse(row->date, &d))
            return false;
        b->day = (int32_t)civil_to_days(d);
        b->g = NULL;
        b->level = 0;
        return true;
    }
    const game *g = game_find(row->game);
    if (!g)
        return false;
    b->day = -1;
    b->g = g;
    b->level = row->level;
    return true;
}

void api_review_enrich(request *r, const store_admin_answer *a, json_t *page)
{
    json_t *items = json_object_get(page, "items");
    for (int i = 0; i < a->n; i++) {
        const store_review_item *row = &a->review[i];
        json_t *item = json_array_get(items, (size_t)i);
        bool held = strcmp(row->status, "held") == 0;
        json_t *reason = json_null(), *would = json_null();
        if (held) {
            reason = json_string(item_reason(row));
            store_board b;
            int64_t rank;
            if (item_board(row, &b) && store_board_would_rank(r->app->db, &b, row->score, &rank) == STORE_OK)
                would = json_integer(rank);
        }
        json_object_set_new(item, "held_reason", reason);
        json_object_set_new(item, "would_be_rank", would);
    }
}
