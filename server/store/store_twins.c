/*
 * store_twins: a twin pair judged inside the score's transaction, once for
 * both backends (store_rules.h).
 *
 * The caller compared its run with the candidates it could read before
 * the write (store_twin_candidates, up to the newest, twin_seen); here,
 * under the shape's lock (SD_TWIN_LOCK: on PostgreSQL two nodes' runs of
 * one shape commit one after the other; SQLite has one writer), the runs
 * of that shape committed since are compared too, so two twins committed
 * at the same instant, or in one batch, still meet. The comparison is the
 * caller's (store_score.twin_match, handed down): the store knows no
 * timing rule.
 *
 * Once linked, both runs of the pair are held, whichever came first: this
 * one as it is recorded (run_score), the other here, after its player's
 * row lock, with twin_weight more suspicion and this run as its twin_of
 * unless it has one; its board is settled (store_rules_settle) and the
 * change goes back in the write (twin_change) for the boards in memory.
 *
 * Ownership: candidates are freed here; signals_json is replaced (the
 * store's malloc'd text) when this pass is the one that found the twin.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <sodium.h>

#include "store_backend.h"
#include "store_rules.h"

#define LATER_CANDIDATES 64 /* committed between the caller's read and its write: few */

/* The hex times of a run into bytes (malloc'd, *len); NULL when not hex. */
static uint8_t *times_bytes(const char *hex, size_t *len)
{
    size_t n = hex ? strlen(hex) : 0;
    uint8_t *out = malloc(n / 2 + 1);
    if (out && sodium_hex2bin(out, n / 2 + 1, hex ? hex : "", n, NULL, len, NULL) == 0 && *len * 2 == n)
        return out;
    free(out);
    return NULL;
}

store_status store_rules_twin_pass(const sd_db *x, store_score *sc)
{
    if (!sc->twin_match || !sc->has_shape || !sc->twin_times || sc->twin_threshold <= 0)
        return STORE_OK;
    sd_stmt *s = x->d->start(x->c, SD_TWIN_LOCK);
    if (!s)
        return sd_failed(x, NULL, SD_TWIN_LOCK);
    x->d->bind_blob(s, sc->shape_hash, STORE_HASH_BYTES);
    x->d->bind_int(s, sc->p.seed);
    store_status st = sd_run(x, s, SD_TWIN_LOCK);
    if (st != STORE_OK)
        return st;
    store_twin_candidate cand[LATER_CANDIDATES];
    int n = 0;
    st = store_read_twin_candidates(x, &sc->p, sc->shape_hash, sc->twin_seen, LATER_CANDIDATES, cand, &n);
    if (st != STORE_OK)
        return st;
    size_t mine_len = 0;
    uint8_t *mine = n ? times_bytes(sc->twin_times, &mine_len) : NULL;
    int best = sc->twin_of ? sc->twin_permille : -1001;
    const store_twin_candidate *pick = NULL;
    for (int k = 0; mine && k < n; k++) {
        size_t len = 0;
        uint8_t *theirs = times_bytes(cand[k].times, &len);
        int corr;
        if (theirs && sc->twin_match(mine, mine_len, theirs, len, &corr) && corr >= sc->twin_threshold &&
            corr > best) {
            best = corr;
            pick = &cand[k];
        }
        free(theirs);
    }
    if (pick) {
        sc->twin_of = pick->seq;
        sc->twin_player = pick->player_id;
        sc->twin_permille = best;
        sc->twin_found_here = true;
    }
    free(mine);
    store_twin_candidates_clear(cand, n);
    if (!pick)
        return STORE_OK;
    return store_signal_set(sc, "twin",
                            json_pack("{s:I,s:I,s:i}", "of_seq", (json_int_t)sc->twin_of, "player_id",
                                      (json_int_t)sc->twin_player, "correlation_permille", sc->twin_permille));
}

store_status store_rules_twin_hold(const sd_db *x, store_write *w, int64_t cause)
{
    const store_score *sc = &w->u.score.score;
    if (!sc->twin_of)
        return STORE_OK;
    store_status st = sd_lock_player(x, sc->twin_player);
    if (st != STORE_OK)
        return st;
    sd_stmt *s = x->d->start(x->c, SD_SCORE_TWIN);
    if (!s)
        return sd_failed(x, NULL, SD_SCORE_TWIN);
    x->d->bind_int(s, sc->seq);
    x->d->bind_int(s, sc->twin_weight);
    x->d->bind_int(s, sc->twin_of);
    int rc = x->d->step(s);
    if (rc == SD_FAIL)
        return sd_failed(x, s, SD_SCORE_TWIN);
    uint8_t nonce[PLAY_NONCE_BYTES];
    if (rc == SD_ROW)
        x->d->col_blob(s, 0, nonce, sizeof nonce);
    x->d->done(s);
    if (rc != SD_ROW) { /* the candidate was read in this transaction */
        store_log_error("score_twin", "the earlier run of a twin pair is gone");
        return STORE_ERROR;
    }
    /* the score log's leaf of the hold: off its board without an operator */
    st = store_scorelog_action(x, w, LOG_KIND_HOLD, cause, sc->received_at, sc->twin_player, nonce, NULL);
    if (st != STORE_OK)
        return st;
    /* a candidate is on this run's board (same game, level, seed, day) */
    char date[11];
    play_date(&sc->p, date);
    st = store_rules_settle(x, sc->p.g->name, sc->p.level, date, sc->twin_player, &w->u.score.twin_change);
    w->u.score.twin_changed = st == STORE_OK;
    return st;
}

void store_rules_twin_forget(store_write *w)
{
    store_score *sc = &w->u.score.score;
    w->u.score.twin_changed = false;
    if (!sc->twin_found_here)
        return;
    /* the pair this pass found may have been undone with the batch */
    sc->twin_found_here = false;
    sc->twin_of = 0;
    sc->twin_player = 0;
    sc->twin_permille = 0;
    store_signal_drop(sc, "twin");
}
