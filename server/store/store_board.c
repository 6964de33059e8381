/*
 * store_board: the board a play's score goes to (store.h, store_board_of).
 * A leaf: the store, the handlers and the verification path
 * (server/trust/verify.c, which the fuzzer links without the store) call
 * it and it calls nothing of theirs.
 */
#include "store.h"

store_board store_board_of(const play *p)
{
    store_board b = { -1, NULL, 0 };
    if (play_is_daily(p)) {
        b.day = p->day;
    } else {
        b.g = p->g;
        b.level = p->level;
    }
    return b;
}
