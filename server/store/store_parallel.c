/*
 * store_parallel: parallel play, judged inside the score's transaction,
 * once for both backends (store_rules.h).
 *
 * A timed run claims its play: [received_at - claimed_ms, received_at] on
 * the server's clock. One person plays one level at a time, so a run whose
 * claimed play overlaps one of the same player's other runs of the last
 * PARALLEL_WINDOW_MS by more than parallel_overlap_ms is held ("parallel":
 * twenty tokens drawn at once and played by a script). The player's row is
 * held by then (run_score locks it first), so on PostgreSQL two nodes'
 * runs of one player are judged one after the other, and runs of one
 * batch see each other. Prefetching the next level's token while playing
 * is not parallel play: only claimed play counts, not the time a token
 * waited.
 *
 * Ownership: signals_json is replaced (the store's malloc'd text) when a
 * run is found parallel.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "store_backend.h"
#include "store_rules.h"

#define PARALLEL_WINDOW_MS 3600000 /* runs received this long before are not compared */
#define PARALLEL_RUNS 256          /* the player's newest runs compared: bounded work */

store_status store_rules_parallel_pass(const sd_db *x, store_score *sc)
{
    if (sc->parallel_overlap_ms <= 0 || sc->claimed_ms <= sc->parallel_overlap_ms)
        return STORE_OK;
    const store_driver *d = x->d;
    sd_stmt *s = d->start(x->c, SD_PLAYER_WINDOWS);
    if (!s)
        return sd_failed(x, NULL, SD_PLAYER_WINDOWS);
    d->bind_int(s, sc->p.player_id);
    d->bind_int(s, sc->received_at - PARALLEL_WINDOW_MS);
    d->bind_int(s, PARALLEL_RUNS);
    int64_t start = sc->received_at - sc->claimed_ms, end = sc->received_at;
    int64_t runs = 0, most = 0, with = 0;
    int rc;
    while ((rc = d->step(s)) == SD_ROW) {
        int64_t seq = d->col_int(s, 0), their_end = d->col_int(s, 1), claimed = d->col_int(s, 2);
        int64_t lo = start > their_end - claimed ? start : their_end - claimed;
        int64_t hi = end < their_end ? end : their_end;
        if (hi - lo > sc->parallel_overlap_ms) {
            runs++;
            if (hi - lo > most) {
                most = hi - lo;
                with = seq;
            }
        }
    }
    if (rc == SD_FAIL)
        return sd_failed(x, s, SD_PLAYER_WINDOWS);
    d->done(s);
    if (!runs)
        return STORE_OK;
    sc->parallel_found = true;
    return store_signal_set(sc, "parallel",
                            json_pack("{s:I,s:I,s:I}", "runs", (json_int_t)runs, "overlap_ms", (json_int_t)most,
                                      "with_seq", (json_int_t)with));
}

void store_rules_parallel_forget(store_write *w)
{
    store_score *sc = &w->u.score.score;
    if (!sc->parallel_found)
        return;
    sc->parallel_found = false;
    store_signal_drop(sc, "parallel");
}
