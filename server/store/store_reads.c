/*
 * store_reads: the reads of store_backend.h, once, for both backends
 * (store_rules.h), each on the reader connection it is given.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "play_time.h"
#include "store_backend.h"
#include "store_rules.h"

store_status store_read_player_by_token(const sd_db *x, const uint8_t hash[STORE_HASH_BYTES],
                                        store_player *out)
{
    const store_driver *d = x->d;
    sd_stmt *s = d->start(x->c, SD_PLAYER_BY_HASH);
    if (!s)
        return sd_failed(x, NULL, SD_PLAYER_BY_HASH);
    d->bind_blob(s, hash, STORE_HASH_BYTES);
    int rc = d->step(s);
    if (rc == SD_FAIL)
        return sd_failed(x, s, SD_PLAYER_BY_HASH);
    if (rc == SD_ROW) {
        memset(out, 0, sizeof *out);
        out->id = d->col_int(s, 0);
        const char *name = d->col_text(s, 1);
        snprintf(out->name, sizeof out->name, "%s", name ? name : "");
        out->created_at = d->col_int(s, 2);
        out->banned = d->col_int(s, 3) != 0;
        const char *provider = d->col_text(s, 4);
        snprintf(out->provider, sizeof out->provider, "%s", provider ? provider : "");
    }
    d->done(s);
    return rc == SD_ROW ? STORE_OK : STORE_NOT_FOUND;
}

/* One statement for all of them: the ids as a JSON array. */
store_status store_read_player_names(const sd_db *x, int n, const int64_t *ids,
                                     char (*names)[STORE_NAME_MAX + 1])
{
    const store_driver *d = x->d;
    for (int i = 0; i < n; i++)
        names[i][0] = '\0';
    if (n <= 0)
        return STORE_OK;
    char *list = malloc((size_t)n * 22 + 3);
    if (!list)
        return STORE_ERROR;
    size_t at = 0;
    list[at++] = '[';
    for (int i = 0; i < n; i++)
        at += (size_t)sprintf(list + at, i ? ",%lld" : "%lld", (long long)ids[i]);
    list[at++] = ']';
    list[at] = '\0';
    store_status st = STORE_OK;
    sd_stmt *s = d->start(x->c, SD_PLAYER_NAMES);
    if (!s) {
        free(list);
        return sd_failed(x, NULL, SD_PLAYER_NAMES);
    }
    d->bind_text(s, list);
    int rc;
    while ((rc = d->step(s)) == SD_ROW) {
        int64_t id = d->col_int(s, 0);
        const char *name = d->col_text(s, 1);
        for (int i = 0; i < n; i++)
            if (ids[i] == id)
                snprintf(names[i], STORE_NAME_MAX + 1, "%s", name ? name : "");
    }
    if (rc == SD_FAIL)
        st = sd_failed(x, s, SD_PLAYER_NAMES);
    else
        d->done(s);
    free(list);
    return st;
}

store_status store_read_player_approved(const sd_db *x, int64_t player_id, int64_t *count)
{
    const store_driver *d = x->d;
    sd_stmt *s = d->start(x->c, SD_PLAYER_APPROVED);
    if (!s)
        return sd_failed(x, NULL, SD_PLAYER_APPROVED);
    d->bind_int(s, player_id);
    if (d->step(s) != SD_ROW)
        return sd_failed(x, s, SD_PLAYER_APPROVED);
    *count = d->col_int(s, 0);
    d->done(s);
    return STORE_OK;
}

store_status store_read_daily_issued(const sd_db *x, const char *date, bool *issued)
{
    const store_driver *d = x->d;
    sd_stmt *s = d->start(x->c, SD_DAILY_ISSUED);
    if (!s)
        return sd_failed(x, NULL, SD_DAILY_ISSUED);
    d->bind_text(s, date);
    int rc = d->step(s);
    if (rc == SD_FAIL)
        return sd_failed(x, s, SD_DAILY_ISSUED);
    *issued = rc == SD_ROW;
    d->done(s);
    return STORE_OK;
}

store_status store_read_key_ids(const sd_db *x, int64_t *ids, int max, int *n)
{
    const store_driver *d = x->d;
    sd_stmt *s = d->start(x->c, SD_KEY_IDS);
    if (!s)
        return sd_failed(x, NULL, SD_KEY_IDS);
    int rc;
    *n = 0;
    while ((rc = d->step(s)) == SD_ROW) {
        if (*n < max)
            ids[*n] = d->col_int(s, 0);
        ++*n;
    }
    if (rc == SD_FAIL)
        return sd_failed(x, s, SD_KEY_IDS);
    d->done(s);
    return STORE_OK;
}

store_status store_read_token_stats(const sd_db *x, int64_t player_id, int64_t now,
                                    store_token_stats *out)
{
    const store_driver *d = x->d;
    sd_stmt *s = d->start(x->c, SD_TOKEN_STATS);
    if (!s)
        return sd_failed(x, NULL, SD_TOKEN_STATS);
    d->bind_int(s, now);
    d->bind_int(s, player_id);
    d->bind_int(s, now - now % 86400000); /* the UTC day's start: the draws */
    if (d->step(s) != SD_ROW)
        return sd_failed(x, s, SD_TOKEN_STATS);
    out->issued = d->col_int(s, 0);
    out->completed = d->col_int(s, 1);
    out->incomplete = d->col_int(s, 2);
    out->forfeited = d->col_int(s, 3);
    out->outstanding = d->col_int(s, 4);
    out->abandoned = d->col_int(s, 5);
    out->draws_today = d->col_int(s, 6);
    out->most_draws_one_level_today = d->col_int(s, 7);
    d->done(s);
    return STORE_OK;
}

/* The rows, at most STORE_PLAYED_RUNS_MAX, then their union (play_time.c). */
store_status store_read_play_time(const sd_db *x, int64_t player_id, store_play_time *out)
{
    const store_driver *d = x->d;
    memset(out, 0, sizeof *out);
    play_span *spans = malloc(STORE_PLAYED_RUNS_MAX * sizeof *spans);
    if (!spans)
        return STORE_ERROR;
    sd_stmt *s = d->start(x->c, SD_PLAYED_RUNS);
    if (!s) {
        free(spans);
        return sd_failed(x, NULL, SD_PLAYED_RUNS);
    }
    d->bind_int(s, player_id);
    d->bind_int(s, STORE_PLAYED_RUNS_MAX);
    size_t n = 0;
    int rc = SD_DONE;
    while (n < STORE_PLAYED_RUNS_MAX && (rc = d->step(s)) == SD_ROW) {
        play_span *o = &spans[n++];
        const char *board = d->col_text(s, 0);
        snprintf(o->game, sizeof o->game, "%s", board ? board : "");
        o->level = d->col_int(s, 1);
        o->start = d->col_int(s, 2);
        o->end = d->col_int(s, 3);
    }
    if (rc == SD_FAIL) {
        free(spans);
        return sd_failed(x, s, SD_PLAYED_RUNS);
    }
    d->done(s);
    play_time_sum(spans, n, &out->played_ms, &out->levels);
    out->runs = (int64_t)n;
    free(spans);
    return STORE_OK;
}

/* The rows (seq, player_id, twin_times) of the started statement s (id),
 * at most limit, into out[0..*n) with their times copied; on a failure
 * none are kept. Ends s. */
static store_status times_rows(const sd_db *x, sd_stmt *s, sd_id id, int limit, store_twin_candidate *out,
                               int *n)
{
    const store_driver *d = x->d;
    store_status st = STORE_OK;
    int rc = SD_DONE;
    while (*n < limit && (rc = d->step(s)) == SD_ROW) {
        store_twin_candidate *o = &out[*n];
        const char *times = d->col_text(s, 2);
        o->seq = d->col_int(s, 0);
        o->player_id = d->col_int(s, 1);
        o->times = strdup(times ? times : "");
        if (!o->times) {
            st = STORE_ERROR;
            break;
        }
        (*n)++;
    }
    if (rc == SD_FAIL)
        st = sd_failed(x, s, id);
    else
        d->done(s);
    if (st != STORE_OK) {
        store_twin_candidates_clear(out, *n);
        *n = 0;
    }
    return st;
}

store_status store_read_twin_candidates(const sd_db *x, const play *p,
                                        const uint8_t shape[STORE_HASH_BYTES], int64_t after_seq,
                                        int limit, store_twin_candidate *out, int *n)
{
    const store_driver *d = x->d;
    char date[11];
    play_date(p, date);
    *n = 0;
    sd_stmt *s = d->start(x->c, SD_TWIN_CANDIDATES);
    if (!s)
        return sd_failed(x, NULL, SD_TWIN_CANDIDATES);
    d->bind_int(s, p->seed);
    d->bind_blob(s, shape, STORE_HASH_BYTES);
    d->bind_text(s, p->g->name);
    d->bind_int(s, p->level);
    d->bind_int(s, p->version);
    d->bind_int(s, p->player_id);
    d->bind_int(s, limit);
    d->bind_int(s, after_seq);
    d->bind_text(s, date); /* short: copied */
    return times_rows(x, s, SD_TWIN_CANDIDATES, limit, out, n);
}

store_status store_read_board_times(const sd_db *x, const play *p, int64_t seq, int limit,
                                    store_twin_candidate *out, int *n)
{
    const store_driver *d = x->d;
    char date[11];
    play_date(p, date);
    *n = 0;
    sd_stmt *s = d->start(x->c, SD_ADMIN_BOARD_TIMES);
    if (!s)
        return sd_failed(x, NULL, SD_ADMIN_BOARD_TIMES);
    d->bind_text(s, p->g->name);
    d->bind_int(s, p->level);
    d->bind_int(s, p->version);
    d->bind_text(s, date); /* short: copied */
    d->bind_int(s, seq);
    d->bind_int(s, limit);
    return times_rows(x, s, SD_ADMIN_BOARD_TIMES, limit, out, n);
}

static void bind_scan(const sd_db *x, sd_stmt *s, const store_scan *scan)
{
    if (scan->g)
        x->d->bind_text(s, scan->g->name);
    else
        x->d->bind_null(s);
    x->d->bind_int(s, scan->since_ms);
}

store_status store_read_scores_page(const sd_db *x, const store_scan *scan, int64_t after_seq,
                                    int limit, store_score *out, int *n)
{
    const store_driver *d = x->d;
    *n = 0;
    sd_stmt *s = d->start(x->c, SD_SCORES_PAGE);
    if (!s)
        return sd_failed(x, NULL, SD_SCORES_PAGE);
    d->bind_int(s, after_seq);
    bind_scan(x, s, scan);
    d->bind_int(s, limit);
    store_status st = STORE_OK;
    int rc = SD_DONE;
    while (st == STORE_OK && *n < limit && (rc = d->step(s)) == SD_ROW) {
        st = store_read_score(x, s, &out[*n]);
        if (st == STORE_OK)
            (*n)++;
    }
    if (rc == SD_FAIL)
        st = sd_failed(x, s, SD_SCORES_PAGE);
    else
        d->done(s);
    if (st != STORE_OK) {
        for (int i = 0; i < *n; i++)
            store_score_clear(&out[i]);
        *n = 0;
    }
    return st;
}

store_status store_read_scores_count(const sd_db *x, const store_scan *scan, int64_t *out)
{
    const store_driver *d = x->d;
    *out = 0;
    sd_stmt *s = d->start(x->c, SD_SCORES_COUNT);
    if (!s)
        return sd_failed(x, NULL, SD_SCORES_COUNT);
    bind_scan(x, s, scan);
    if (d->step(s) != SD_ROW)
        return sd_failed(x, s, SD_SCORES_COUNT);
    *out = d->col_int(s, 0);
    d->done(s);
    return STORE_OK;
}

store_status store_read_board(const sd_db *x, const store_board *b, rank_board *into)
{
    const store_driver *d = x->d;
    bool daily = b->day >= 0;
    sd_id id = daily ? SD_LOAD_DAILY : SD_LOAD_LEVEL;
    sd_stmt *s = d->start(x->c, id);
    if (!s)
        return sd_failed(x, NULL, id);
    if (daily) {
        play p = { .day = b->day };
        char date[11];
        play_date(&p, date);
        d->bind_text(s, date);
    } else {
        d->bind_text(s, b->g->name);
        d->bind_int(s, b->level);
    }
    rank_entry e;
    memset(&e, 0, sizeof e);
    int rc;
    while ((rc = d->step(s)) == SD_ROW) {
        e.score = d->col_int(s, 0);
        e.seq = d->col_int(s, 1);
        e.player_id = d->col_int(s, 2);
        e.received_at = d->col_int(s, 3);
        d->col_blob(s, 4, e.nonce, PLAY_NONCE_BYTES);
        if (rank_offer(into, &e) < 0)
            break;
    }
    if (rc == SD_FAIL)
        return sd_failed(x, s, id);
    d->done(s);
    return rc == SD_DONE ? STORE_OK : STORE_ERROR;
}
