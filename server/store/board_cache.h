/*
 * board_cache: the leaderboards of one store held in memory.
 *
 * Each board is a rank_board behind its own rwlock. A board is loaded from
 * the backend the first time it is read (through the board_load_fn given at
 * creation) and kept current after that by board_cache_offer, which the
 * store calls after each commit, and board_cache_set, which puts an
 * operator's change (a void, a ban) in place in one step. Offers that arrive while a board is
 * loading are kept and applied to it once the load returns; because an
 * offer keeps a player's best, applying one twice or out of order gives the
 * same board, so a load that already saw a commit is not hurt by its offer.
 *
 * Memory is bounded by the budget given at creation, not by traffic: a
 * board with no entries is not kept (reading one costs a backend query
 * and leaves nothing behind; all such reads share one empty board), and
 * loaded boards are evicted least recently used first once their bytes
 * (rank_bytes plus the slot) pass the budget. A board in use (being read
 * or offered to) is never evicted, so the budget can be passed by the
 * boards in use at one moment. An evicted board reloads on demand.
 *
 * Ownership: the cache owns every board and frees them in board_cache_free.
 * A reader holds a board (read-locked and pinned) from board_cache_acquire
 * until board_cache_release and must not keep the pointer after that.
 */
#ifndef REPLAYD_SERVER_BOARD_CACHE_H
#define REPLAYD_SERVER_BOARD_CACHE_H

#include "rank.h"
#include "store.h"

/* Fills `into` with every entry of board b as committed now. */
typedef store_status (*board_load_fn)(void *ctx, const store_board *b, rank_board *into);

typedef struct board_cache board_cache;
typedef struct board_slot board_slot;

/* NULL when out of memory. */
board_cache *board_cache_new(board_load_fn load, void *ctx, size_t budget_bytes);
/* Bytes the loaded boards hold now. */
size_t board_cache_bytes(board_cache *c);
void board_cache_free(board_cache *c);

/* On STORE_OK, *rb is the board, read-locked until board_cache_release(*slot). */
store_status board_cache_acquire(board_cache *c, const store_board *b, board_slot **slot,
                                 const rank_board **rb);
void board_cache_release(board_slot *slot);

/* Offers a committed entry to board b if it is loaded or loading; a board
 * not in memory is left alone (its load will read the entry from SQL). */
store_status board_cache_offer(board_cache *c, const store_board *b, const rank_entry *e);

/* Sets the player's entry on board b to e (NULL: off the board) as one
 * step under the board's write lock: a reader sees the board before or
 * after, never without the old entry and without the new one. A board
 * being loaded is loaded again once its load returns (that load may have
 * read the rows before the change); a board not in memory is left alone. */
store_status board_cache_set(board_cache *c, const store_board *b, int64_t player_id,
                             const rank_entry *e);

/* Every board in memory is out of date (another node's commits may have
 * been missed): each reloads from the backend on its next read. A board
 * being read now is read to its end, then replaced. */
void board_cache_resync(board_cache *c);

#endif
