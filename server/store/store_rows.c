/*
 * store_rows: the rows every rule and read shares, decoded once: a game's
 * name and date into a play, the text columns of an outcome and a status,
 * a TOKEN_ROW and a SCORE_ROW (store_driver.h's columns), and the score
 * of a token. A leaf of the store: it calls the driver and store_log.c,
 * nothing above (store_rules.h declares it).
 *
 * Ownership: store_read_score fills heap strings (moves_json, result_json,
 * signals_json) the caller frees with store_score_clear; on a failure it
 * has freed them itself.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/civil.h"
#include "store_backend.h"
#include "store_rules.h"

bool store_game_day(const char *name, const char *date, play *p)
{
    p->g = name ? game_find(name) : NULL;
    p->day = -1;
    if (date && date[0]) {
        civil_date d;
        if (!civil_parse(date, &d))
            return false;
        p->day = (int32_t)civil_to_days(d);
    }
    return p->g != NULL;
}

const char *store_outcome_text(run_outcome o)
{
    return o == RUN_COMPLETED ? "completed" : o == RUN_FORFEIT ? "forfeit" : "incomplete";
}

const char *store_status_text(score_status s)
{
    return s == SCORE_RANKED ? "ranked" : "held";
}

static void col_copy(const sd_db *x, sd_stmt *s, int col, char *dst, size_t cap)
{
    const char *t = x->d->col_text(s, col);
    snprintf(dst, cap, "%s", t ? t : "");
}

static char *col_dup(const sd_db *x, sd_stmt *s, int col)
{
    const char *t = x->d->col_text(s, col);
    return strdup(t ? t : "");
}

bool store_read_token(const sd_db *x, sd_stmt *s, store_token *t, int64_t *rejections)
{
    const store_driver *d = x->d;
    memset(t, 0, sizeof *t);
    d->col_blob(s, 0, t->p.nonce, PLAY_NONCE_BYTES);
    t->p.player_id = d->col_int(s, 1);
    t->p.level = (int)d->col_int(s, 3);
    t->p.seed = (uint32_t)d->col_int(s, 4);
    t->p.version = (int)d->col_int(s, 5);
    t->issued_at = d->col_int(s, 6);
    t->expires_at = d->col_int(s, 7);
    col_copy(x, s, 9, t->text, sizeof t->text);
    t->redeemed = d->col_int(s, 10) != 0;
    if (rejections)
        *rejections = d->col_int(s, 11);
    return store_game_day(d->col_text(s, 2), d->col_text(s, 8), &t->p);
}

store_status store_read_score(const sd_db *x, sd_stmt *s, store_score *o)
{
    const store_driver *d = x->d;
    memset(o, 0, sizeof *o);
    col_copy(x, s, 0, o->score_id, sizeof o->score_id);
    d->col_blob(s, 1, o->p.nonce, PLAY_NONCE_BYTES);
    o->p.player_id = d->col_int(s, 2);
    col_copy(x, s, 3, o->player_name, sizeof o->player_name);
    o->p.level = (int)d->col_int(s, 5);
    o->p.seed = (uint32_t)d->col_int(s, 6);
    o->p.version = (int)d->col_int(s, 7);
    o->score = d->col_int(s, 9);
    o->completed = d->col_int(s, 10) != 0;
    o->received_at = d->col_int(s, 11);
    o->seq = d->col_int(s, 12);
    d->col_blob(s, 13, o->moves_hash, STORE_HASH_BYTES);
    col_copy(x, s, 14, o->receipt, sizeof o->receipt);
    if (!store_game_day(d->col_text(s, 4), d->col_text(s, 8), &o->p)) {
        store_log_error("read_score", "a score row names a game this build does not serve");
        return STORE_ERROR;
    }
    const char *status = d->col_text(s, 17);
    o->status = status && strcmp(status, "ranked") == 0 ? SCORE_RANKED : SCORE_HELD;
    o->duplicate_of = d->col_int(s, 19);
    o->suspicion = d->col_int(s, 21);
    o->voided_at = d->col_int(s, 22);
    col_copy(x, s, 23, o->void_reason, sizeof o->void_reason);
    const char *outcome = d->col_text(s, 20);
    o->outcome = !outcome                             ? (o->completed ? RUN_COMPLETED : RUN_INCOMPLETE)
                 : strcmp(outcome, "forfeit") == 0   ? RUN_FORFEIT
                 : strcmp(outcome, "completed") == 0 ? RUN_COMPLETED
                                                     : RUN_INCOMPLETE;
    o->moves_json = col_dup(x, s, 15);
    o->result_json = col_dup(x, s, 16);
    o->signals_json = col_dup(x, s, 18);
    if (!o->moves_json || !o->result_json || !o->signals_json) {
        store_score_clear(o);
        return STORE_ERROR;
    }
    return STORE_OK;
}

store_status store_score_by_nonce(const sd_db *x, const uint8_t nonce[PLAY_NONCE_BYTES],
                                  store_score *out)
{
    sd_stmt *s = x->d->start(x->c, SD_SCORE_BY_NONCE);
    if (!s)
        return sd_failed(x, NULL, SD_SCORE_BY_NONCE);
    x->d->bind_blob(s, nonce, PLAY_NONCE_BYTES);
    int rc = x->d->step(s);
    if (rc == SD_FAIL)
        return sd_failed(x, s, SD_SCORE_BY_NONCE);
    store_status res = rc == SD_ROW ? store_read_score(x, s, out) : STORE_NOT_FOUND;
    x->d->done(s);
    return res;
}
