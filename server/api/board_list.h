/*
 * board_list: the answer of GET /v1/leaderboards (the level boards that
 * have entries), built here in api/ from the store's board sizes
 * (store_board_size), read at most once per BOARD_LIST_TTL_MS and shared by
 * every request in between: a flood of list requests costs one pass over
 * the catalogue's boards per interval, not one per request. One request
 * reads while the others wait for its answer. Thread-safe.
 *
 * Ownership: the list owns its last answer and frees it in board_list_free;
 * board_list_get hands the caller a copy of its own to free.
 */
#ifndef REPLAYD_SERVER_API_BOARD_LIST_H
#define REPLAYD_SERVER_API_BOARD_LIST_H

#include <jansson.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "../store/store.h"

#define BOARD_LIST_TTL_MS 1000

typedef struct board_list {
    pthread_mutex_t lock;
    json_t *boards; /* the last answer, an array of {game, level, total}; NULL before the first */
    int64_t read_at_ms;
} board_list;

bool board_list_init(board_list *l);
void board_list_free(board_list *l);

/* On STORE_OK, *out is a new array (the caller's) at most BOARD_LIST_TTL_MS
 * older than now_ms: every level board with entries, in catalogue order. */
store_status board_list_get(board_list *l, store *db, int64_t now_ms, json_t **out);

#endif
