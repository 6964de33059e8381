/* Unit tests for board_cache_set (server/store/board_cache.c): an operator's
 * change to a board in memory is one step (the old entry out, the new one
 * in), a board being loaded when a change commits is loaded again, and a
 * board not in memory is left alone. The loads are fakes that play the
 * database's part. */
#include "../check.h"

#include <string.h>

#include "../../server/store/board_cache.h"

typedef struct fake_db {
    int loads;
    board_cache *cache;        /* set once the cache exists */
    int stale_on_loads;        /* the first this-many loads see a change commit while they run */
    bool player7_voided;       /* the "database": player 7's entry is gone once the change committed */
} fake_db;

static rank_entry entry(int64_t player, int64_t score, int64_t seq)
{
    rank_entry e;
    memset(&e, 0, sizeof e);
    e.player_id = player;
    e.score = score;
    e.seq = seq;
    e.received_at = seq;
    return e;
}

static store_board level_board(void)
{
    store_board b = { -1, game_find("schulte"), 1 };
    return b;
}

/* Reads players 7, 8 and 9 as the database holds them; while a change
 * "commits" during the load, the load has already read the old rows. */
static store_status fake_load(void *ctx, const store_board *b, rank_board *into)
{
    fake_db *db = ctx;
    db->loads++;
    bool old_rows = db->player7_voided == false;
    if (db->loads <= db->stale_on_loads) {
        /* the change commits now, after this load read its rows */
        db->player7_voided = true;
        board_cache_set(db->cache, b, 7, NULL);
    }
    rank_entry e[3] = { entry(7, 100, 1), entry(8, 90, 2), entry(9, 80, 3) };
    for (int i = old_rows ? 0 : 1; i < 3; i++)
        if (rank_offer(into, &e[i]) < 0)
            return STORE_ERROR;
    return STORE_OK;
}

static int64_t size_of(board_cache *c, const store_board *b, store_status *st)
{
    board_slot *slot;
    const rank_board *rb;
    *st = board_cache_acquire(c, b, &slot, &rb);
    if (*st != STORE_OK)
        return -1;
    int64_t n = rank_size(rb);
    board_cache_release(slot);
    return n;
}

static void change_during_load_reloads(void)
{
    fake_db db = { .stale_on_loads = 1 };
    db.cache = board_cache_new(fake_load, &db, 1 << 20);
    CHECK(db.cache != NULL);
    store_board b = level_board();
    store_status st;
    CHECK_EQ(size_of(db.cache, &b, &st), 2); /* not 3: the stale load was thrown away */
    CHECK_EQ(st, STORE_OK);
    CHECK_EQ(db.loads, 2);
    board_cache_free(db.cache);
}

static void changes_forever_give_up_busy(void)
{
    fake_db db = { .stale_on_loads = 1000 };
    db.cache = board_cache_new(fake_load, &db, 1 << 20);
    store_board b = level_board();
    store_status st;
    CHECK_EQ(size_of(db.cache, &b, &st), -1);
    CHECK_EQ(st, STORE_BUSY);
    CHECK_EQ(db.loads, 8); /* bounded: LOAD_ATTEMPTS */
    /* the next read loads afresh */
    db.stale_on_loads = 0;
    CHECK_EQ(size_of(db.cache, &b, &st), 2);
    board_cache_free(db.cache);
}

static void set_replaces_in_one_step(void)
{
    fake_db db = { 0 };
    db.cache = board_cache_new(fake_load, &db, 1 << 20);
    store_board b = level_board();
    store_status st;
    CHECK_EQ(size_of(db.cache, &b, &st), 3);
    /* player 7's best (100) is voided; its next best (85) takes its place */
    rank_entry next = entry(7, 85, 4);
    CHECK_EQ(board_cache_set(db.cache, &b, 7, &next), STORE_OK);
    board_slot *slot;
    const rank_board *rb;
    CHECK_EQ(board_cache_acquire(db.cache, &b, &slot, &rb), STORE_OK);
    rank_entry got[4];
    CHECK_EQ(rank_range(rb, 1, 4, got), 3);
    CHECK_EQ(got[0].player_id, 8);
    CHECK_EQ(got[1].player_id, 7);
    CHECK_EQ(got[1].score, 85);
    CHECK_EQ(got[2].player_id, 9);
    board_cache_release(slot);
    /* a lower replacement than the old entry still replaces it (a plain
     * offer would keep the old best) */
    rank_entry low = entry(8, 10, 5);
    CHECK_EQ(board_cache_set(db.cache, &b, 8, &low), STORE_OK);
    CHECK_EQ(board_cache_acquire(db.cache, &b, &slot, &rb), STORE_OK);
    rank_entry me;
    CHECK_EQ(rank_of_player(rb, 8, &me), 3);
    CHECK_EQ(me.score, 10);
    board_cache_release(slot);
    /* off the board */
    CHECK_EQ(board_cache_set(db.cache, &b, 9, NULL), STORE_OK);
    CHECK_EQ(size_of(db.cache, &b, &st), 2);
    CHECK_EQ(db.loads, 1);
    board_cache_free(db.cache);
}

static void set_on_a_board_not_in_memory_is_left_alone(void)
{
    fake_db db = { 0 };
    db.cache = board_cache_new(fake_load, &db, 1 << 20);
    store_board b = level_board();
    CHECK_EQ(board_cache_set(db.cache, &b, 7, NULL), STORE_OK);
    CHECK_EQ(db.loads, 0);
    board_cache_free(db.cache);
}

int main(void)
{
    RUN(change_during_load_reloads);
    RUN(changes_forever_give_up_busy);
    RUN(set_replaces_in_one_step);
    RUN(set_on_a_board_not_in_memory_is_left_alone);
    CHECK_DONE();
}
