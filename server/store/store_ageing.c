/*
 * store_ageing: the new-account hold (docs/OPERATIONS.md, New accounts),
 * judged inside the score's transaction, once for both backends
 * (store_rules.h).
 *
 * A guest's daily score is held for an operator until the account is old
 * enough (hours since registration) AND has played long enough: the union
 * of its completed, unheld, unvoided level runs' intervals on the
 * server's clock (play_time.h; twenty tokens played at once count once),
 * across enough distinct boards in enough such runs. A player with an
 * Apple or Google identity skips it. The runs are read after run_score
 * has locked the player's row, so a level run committed earlier in the
 * same batch (or on another node, before this one's lock) counts, and one
 * this batch held (parallel play, a twin) does not: what the hold weighs
 * is what the database holds when the daily is recorded.
 *
 * Ownership: signals_json is replaced (the store's malloc'd text) when
 * the run is held.
 */
#include <jansson.h>

#include "store_backend.h"
#include "store_rules.h"

store_status store_rules_new_account_pass(const sd_db *x, store_score *sc)
{
    const store_new_account *na = &sc->new_account;
    if (!play_is_daily(&sc->p) || na->runs <= 0 || na->hours <= 0 || na->bound)
        return STORE_OK;
    int64_t age = sc->received_at - na->created_at;
    store_play_time pt;
    store_status st = store_read_play_time(x, sc->p.player_id, &pt);
    if (st != STORE_OK)
        return st;
    if (age >= na->hours * 3600000 && pt.played_ms >= na->play_minutes * 60000 && pt.levels >= na->levels &&
        pt.runs >= na->runs)
        return STORE_OK;
    sc->new_account_found = true;
    return store_signal_set(
        sc, "new_account",
        json_pack("{s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I}", "age_ms", (json_int_t)(age > 0 ? age : 0),
                  "completed_runs", (json_int_t)pt.runs, "runs_needed", (json_int_t)na->runs, "hours_needed",
                  (json_int_t)na->hours, "played_ms", (json_int_t)pt.played_ms, "play_minutes_needed",
                  (json_int_t)na->play_minutes, "levels", (json_int_t)pt.levels, "levels_needed",
                  (json_int_t)na->levels));
}

void store_rules_new_account_forget(store_write *w)
{
    store_score *sc = &w->u.score.score;
    if (!sc->new_account_found)
        return;
    sc->new_account_found = false;
    store_signal_drop(sc, "new_account");
}
