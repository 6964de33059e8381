/*
 * api_review_items: what GET /v1/admin/review adds to the store's queue
 * items for the operator's console and curl alike: each held run's
 * "held_reason" (the one word a player's app was answered,
 * fairplay_hold_reason; "twin" for either run of a twin pair, which the
 * earlier run's own answer could not know yet) and "would_be_rank" (the rank the run would take
 * on its board if approved now; null when its board cannot say).
 */
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "../trust/fairplay.h"

/* The board of a queue item: a daily by date, else game and level. */
static bool item_board(const json_t *item, store_board *b)
{
    const char *date = json_string_value(json_object_get(item, "date"));
    if (date) {
        civil_date d;
        if (!civil_parse(date, &d))
            return false;
        b->day = (int32_t)civil_to_days(d);
        b->g = NULL;
        b->level = 0;
        return true;
    }
    const game *g = game_find(json_string_value(json_object_get(item, "game")));
    if (!g)
        return false;
    b->day = -1;
    b->g = g;
    b->level = (int)json_integer_value(json_object_get(item, "level"));
    return true;
}

void api_review_enrich(request *r, json_t *page)
{
    json_t *items = json_object_get(page, "items");
    size_t i;
    json_t *item;
    json_array_foreach(items, i, item) {
        const char *status = json_string_value(json_object_get(item, "status"));
        bool held = status && strcmp(status, "held") == 0;
        json_t *reason = json_null(), *would = json_null();
        if (held) {
            char *signals = json_dumps(json_object_get(item, "signals"), JSON_COMPACT);
            const char *word = fairplay_hold_reason(signals ? signals : "{}",
                                                    json_object_get(item, "duplicate_of_seq") != NULL);
            free(signals);
            /* the earlier run of a twin pair carries no signals.twin (the
             * later run's pass found the pair): it is held as a twin too,
             * named in the same order as fairplay_hold_reason's */
            if (json_object_get(item, "twin") && strcmp(word, "identity") != 0 && strcmp(word, "duplicate") != 0)
                word = "twin";
            reason = json_string(word);
            store_board b;
            int64_t rank;
            if (item_board(item, &b) &&
                store_board_would_rank(r->app->db, &b, json_integer_value(json_object_get(item, "score")),
                                       &rank) == STORE_OK)
                would = json_integer(rank);
        }
        json_object_set_new(item, "held_reason", reason);
        json_object_set_new(item, "would_be_rank", would);
    }
}
