/*
 * store_scorelog: the score log's leaves, appended by the writer's
 * transaction with the rows they describe, and read back in order (see
 * store_rules.h). The leaves' bytes are server/log/entry.c's; the index
 * comes from log_head, whose one row the UPDATE holds until the commit:
 * on PostgreSQL a second node's transaction waits there, so indexes
 * follow commits with no gap and no double.
 */
#include <string.h>

#include "store_backend.h"
#include "store_rules.h"

/* The next index (log_head's row held until the commit). */
static store_status next_index(const sd_db *x, int64_t *idx)
{
    const store_driver *d = x->d;
    sd_stmt *s = d->start(x->c, SD_LOG_NEXT);
    if (!s)
        return sd_failed(x, NULL, SD_LOG_NEXT);
    int rc = d->step(s);
    if (rc == SD_FAIL)
        return sd_failed(x, s, SD_LOG_NEXT);
    *idx = rc == SD_ROW ? d->col_int(s, 0) : -1;
    d->done(s);
    if (*idx < 0) { /* log_head's row is missing: the migration's, never deleted */
        store_log_error("log_next", "log_head has no row");
        return STORE_ERROR;
    }
    return STORE_OK;
}

/* The leaf at idx (-1: the next index), which w's outputs record; a leaf
 * of length 0 (one the layout cannot hold: entry.h) is an error logged
 * under `where`. */
static store_status append(const sd_db *x, store_write *w, int64_t idx, const uint8_t *leaf, size_t len,
                           const char *where)
{
    if (len == 0) {
        store_log_error(where, "a leaf the log's layout cannot hold");
        return STORE_ERROR;
    }
    store_status st = idx < 0 ? next_index(x, &idx) : STORE_OK;
    if (st != STORE_OK)
        return st;
    const store_driver *d = x->d;
    sd_stmt *s = d->start(x->c, SD_LOG_APPEND);
    if (!s)
        return sd_failed(x, NULL, SD_LOG_APPEND);
    d->bind_int(s, idx);
    d->bind_blob(s, leaf, len);
    st = sd_run(x, s, SD_LOG_APPEND);
    if (st == STORE_OK) {
        w->logged = true;
        w->log_index = idx;
    }
    return st;
}

size_t store_score_leaf(const store_score *sc, bool held, uint8_t *out, size_t cap)
{
    log_score_leaf e = {
        .player_id = sc->p.player_id,
        .level = (uint32_t)sc->p.level,
        .seed = sc->p.seed,
        .version = (uint32_t)sc->p.version,
        .day = sc->p.day,
        .score = sc->score,
        .completed = sc->completed,
        .held = held,
        .submitted_at_ms = sc->received_at,
        .game = sc->p.g ? sc->p.g->name : NULL,
    };
    memcpy(e.score_id, sc->p.nonce, LOG_ENTRY_ID_BYTES);
    memcpy(e.moves_hash, sc->moves_hash, LOG_ENTRY_HASH_BYTES);
    return log_entry_score(&e, out, cap);
}

store_status store_scorelog_reserve(const sd_db *x, int64_t *idx)
{
    return next_index(x, idx);
}

store_status store_scorelog_score(const sd_db *x, store_write *w, int64_t idx)
{
    const store_score *sc = &w->u.score.score;
    uint8_t leaf[LOG_ENTRY_MAX];
    return append(x, w, idx, leaf, store_score_leaf(sc, sc->status == SCORE_HELD, leaf, sizeof leaf),
                  "scorelog_score");
}

store_status store_scorelog_action(const sd_db *x, store_write *w, log_kind kind, int64_t action_id, int64_t at_ms,
                                   int64_t player_id, const uint8_t *score_id, const char *name)
{
    log_action_leaf a = { .kind = kind, .action_id = action_id, .at_ms = at_ms, .player_id = player_id,
                          .name = name };
    if (score_id)
        memcpy(a.score_id, score_id, LOG_ENTRY_ID_BYTES);
    uint8_t leaf[LOG_ENTRY_MAX];
    return append(x, w, -1, leaf, log_entry_action(&a, leaf, sizeof leaf), "scorelog_action");
}

store_status store_read_log_entries(const sd_db *x, int64_t from, int max, store_log_entry *out,
                                    int *n)
{
    const store_driver *d = x->d;
    *n = 0;
    sd_stmt *s = d->start(x->c, SD_LOG_ENTRIES);
    if (!s)
        return sd_failed(x, NULL, SD_LOG_ENTRIES);
    d->bind_int(s, from);
    d->bind_int(s, max);
    int rc;
    while ((rc = d->step(s)) == SD_ROW && *n < max) {
        store_log_entry *e = &out[*n];
        int64_t len = d->col_int(s, 2);
        if (len < 1 || len > LOG_ENTRY_MAX) {
            d->done(s);
            store_log_error("log_entries", "a leaf of impossible length in log_entries");
            return STORE_ERROR;
        }
        e->idx = d->col_int(s, 0);
        e->len = (size_t)len;
        d->col_blob(s, 1, e->bytes, e->len);
        ++*n;
    }
    if (rc == SD_FAIL)
        return sd_failed(x, s, SD_LOG_ENTRIES);
    d->done(s);
    return STORE_OK;
}
