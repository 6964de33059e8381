#include "board_list.h"

#include "../../core/game.h"

bool board_list_init(board_list *l)
{
    l->boards = NULL;
    l->read_at_ms = 0;
    return pthread_mutex_init(&l->lock, NULL) == 0;
}

void board_list_free(board_list *l)
{
    json_decref(l->boards);
    l->boards = NULL;
    pthread_mutex_destroy(&l->lock);
}

/* One board-cache read per level of every game (a board with no entries
 * costs a backend query, as reading it does). */
static store_status read_boards(store *db, json_t **out)
{
    json_t *boards = json_array();
    if (!boards)
        return STORE_ERROR;
    for (size_t i = 0; i < game_catalog_count; i++) {
        const game *g = game_catalog[i];
        for (int level = 1; level <= g->levels; level++) {
            store_board b = { .day = -1, .g = g, .level = level };
            int64_t total = 0;
            store_status st = store_board_size(db, &b, &total);
            if (st != STORE_OK) {
                json_decref(boards);
                return st;
            }
            if (total > 0 && json_array_append_new(boards, json_pack("{s:s,s:i,s:I}", "game", g->name, "level", level,
                                                                     "total", (json_int_t)total)) != 0) {
                json_decref(boards);
                return STORE_ERROR;
            }
        }
    }
    *out = boards;
    return STORE_OK;
}

store_status board_list_get(board_list *l, store *db, int64_t now_ms, json_t **out)
{
    store_status st = STORE_OK;
    pthread_mutex_lock(&l->lock);
    if (!l->boards || now_ms - l->read_at_ms >= BOARD_LIST_TTL_MS || now_ms < l->read_at_ms) {
        json_t *fresh = NULL;
        st = read_boards(db, &fresh);
        if (st == STORE_OK) {
            json_decref(l->boards);
            l->boards = fresh;
            l->read_at_ms = now_ms;
        }
    }
    /* A copy: serialising one json_t from two threads at once is not safe. */
    if (st == STORE_OK && !(*out = json_deep_copy(l->boards)))
        st = STORE_ERROR;
    pthread_mutex_unlock(&l->lock);
    return st;
}
