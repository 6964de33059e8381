/*
 * store_admin_reads: the operators' reads, once, for both backends
 * (store.h "operators' reads", store_rules.h): a player as an operator
 * sees it, the rejections, the review queue and the admin log, each read
 * from one snapshot (SD_READ_BEGIN .. SD_READ_END) into rows. The store
 * never builds the answer: server/api/ (api_admin_views.c) does, from
 * these rows.
 *
 * The listings' statements are built at run time from the filters given
 * (start_sql), in SQL both dialects read; the rest are the driver's table.
 * Pages go by a cursor this file parses and makes ("N", or "S.N" for the
 * review queue: suspicion and seq).
 *
 * Ownership: every row and array goes into the caller's
 * store_admin_answer, freed with store_admin_answer_clear (store_clear.c);
 * after a failure the answer is cleared here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_backend.h"
#include "store_rules.h"

/* ---- columns into rows ---- */

static void copy_text(const sd_db *x, sd_stmt *s, int col, char *dst, size_t cap)
{
    const char *t = x->d->col_text(s, col);
    snprintf(dst, cap, "%s", t ? t : "");
}

/* A heap copy of a text column into *out (NULL for SQL NULL); false when
 * memory runs out. */
static bool dup_text(const sd_db *x, sd_stmt *s, int col, char **out)
{
    const char *t = x->d->col_text(s, col);
    *out = t ? strdup(t) : NULL;
    return !t || *out;
}

/* Keeps the first failure in *res. */
static void failed(store_status *res, store_status st)
{
    if (*res == STORE_OK)
        *res = st;
}

/* ---- the player ---- */

static store_status player_features(const sd_db *x, int64_t player, int64_t now, store_player_features *out)
{
    const store_driver *d = x->d;
    sd_stmt *s = d->start(x->c, SD_ADMIN_FEATURES);
    if (!s)
        return sd_failed(x, NULL, SD_ADMIN_FEATURES);
    d->bind_int(s, player);
    if (d->step(s) != SD_ROW)
        return sd_failed(x, s, SD_ADMIN_FEATURES);
    out->completed_runs = d->col_int(s, 0);
    out->perfect_runs = d->col_int(s, 1);
    d->done(s);
    s = d->start(x->c, SD_ADMIN_TOKENS);
    if (!s)
        return sd_failed(x, NULL, SD_ADMIN_TOKENS);
    d->bind_int(s, now);
    d->bind_int(s, player);
    if (d->step(s) != SD_ROW)
        return sd_failed(x, s, SD_ADMIN_TOKENS);
    out->forfeits = d->col_int(s, 0);
    out->abandons = d->col_int(s, 1);
    d->done(s);
    return STORE_OK;
}

/* Fills a row from the statement's current row; false when memory runs
 * out. */
typedef bool (*row_fill)(const sd_db *x, sd_stmt *s, void *row);

/* The rows of statement id (its parameters: the n_args integers, in
 * order) as a new heap array of rows of size bytes, zeroed and filled by
 * fill; *n rows. A failure sets *res (when it holds no earlier one) and
 * the rows read so far are returned (the caller frees them either way). */
static void *list_rows(const sd_db *x, sd_id id, const int64_t *args, int n_args, size_t size, row_fill fill,
                       int *n, store_status *res)
{
    const store_driver *d = x->d;
    char *rows = NULL;
    int rc, cap = 0;
    sd_stmt *s = d->start(x->c, id);
    if (!s) {
        failed(res, sd_failed(x, NULL, id));
        return NULL;
    }
    for (int i = 0; i < n_args; i++)
        d->bind_int(s, args[i]);
    while ((rc = d->step(s)) == SD_ROW) {
        if (*n == cap) {
            int c = cap ? cap * 2 : 8;
            char *m = realloc(rows, (size_t)c * size);
            if (!m)
                break;
            rows = m;
            cap = c;
        }
        void *row = rows + (size_t)*n * size;
        memset(row, 0, size);
        ++*n;
        if (!fill(x, s, row))
            break;
    }
    if (rc == SD_FAIL) {
        failed(res, sd_failed(x, s, id));
        return rows;
    }
    d->done(s);
    if (rc == SD_ROW)
        failed(res, STORE_ERROR); /* out of memory */
    return rows;
}

/* SD_ADMIN_LINKED: another account from the player's network prefix. */
static bool linked_row(const sd_db *x, sd_stmt *s, void *row)
{
    store_linked_account *a = row;
    a->player_id = x->d->col_int(s, 0);
    copy_text(x, s, 1, a->name, sizeof a->name);
    a->created_at = x->d->col_int(s, 2);
    return true;
}

/* Other accounts registered from the player's network prefix within
 * window ms of it, oldest first; none when window is 0. A failure sets
 * *res (when it holds no earlier one). */
static void linked_accounts(const sd_db *x, int64_t player, int64_t window, store_linked_account **list,
                            int *n, store_status *res)
{
    if (window > 0)
        *list = list_rows(x, SD_ADMIN_LINKED, (const int64_t[]){ player, window }, 2, sizeof **list, linked_row,
                          n, res);
}

/* SD_ADMIN_PLAYER_RUNS: one of the player's newest runs. */
static bool run_row(const sd_db *x, sd_stmt *s, void *row)
{
    const store_driver *d = x->d;
    store_player_run *run = row;
    copy_text(x, s, 0, run->score_id, sizeof run->score_id);
    copy_text(x, s, 1, run->game, sizeof run->game);
    run->level = d->col_int(s, 2);
    copy_text(x, s, 3, run->date, sizeof run->date);
    run->score = d->col_int(s, 4);
    copy_text(x, s, 5, run->status, sizeof run->status);
    run->suspicion = d->col_int(s, 6);
    run->received_at = d->col_int(s, 7);
    run->voided = d->col_int(s, 8) != 0;
    return true;
}

/* SD_IDENTITY_LIST: one of the player's identities (never a subject). */
static bool identity_row(const sd_db *x, sd_stmt *s, void *row)
{
    store_identity_row *id = row;
    copy_text(x, s, 0, id->provider, sizeof id->provider);
    id->bound_at = x->d->col_int(s, 1);
    return true;
}

/* The player's newest runs shown, for an operator weighing a held one. */
#define PLAYER_RUNS_SHOWN 50

static store_status read_player(const sd_db *x, const store_admin_query *q, store_player_view *v)
{
    const store_driver *d = x->d;
    sd_stmt *s = d->start(x->c, SD_ADMIN_PLAYER);
    if (!s)
        return sd_failed(x, NULL, SD_ADMIN_PLAYER);
    d->bind_int(s, q->player_id);
    int rc = d->step(s);
    if (rc != SD_ROW) {
        if (rc == SD_FAIL)
            return sd_failed(x, s, SD_ADMIN_PLAYER);
        d->done(s);
        return STORE_NOT_FOUND;
    }
    v->player_id = q->player_id;
    copy_text(x, s, 0, v->name, sizeof v->name);
    v->created_at = d->col_int(s, 1);
    v->banned = d->col_text(s, 2) != NULL;
    v->banned_at = v->banned ? d->col_int(s, 2) : 0;
    v->rejected = d->col_int(s, 3);
    v->voided = d->col_int(s, 4);
    v->held = d->col_int(s, 5);
    d->done(s);
    store_status res = player_features(x, q->player_id, q->now, &v->features);
    if (res == STORE_OK)
        linked_accounts(x, q->player_id, q->linked_window_ms, &v->linked, &v->n_linked, &res);
    if (res == STORE_OK)
        v->identities = list_rows(x, SD_IDENTITY_LIST, &v->player_id, 1, sizeof *v->identities, identity_row,
                                  &v->n_identities, &res);
    if (res == STORE_OK)
        v->runs = list_rows(x, SD_ADMIN_PLAYER_RUNS, (const int64_t[]){ v->player_id, PLAYER_RUNS_SHOWN }, 2,
                            sizeof *v->runs, run_row, &v->n_runs, &res);
    return res;
}

/* ---- pages ---- */

/* A cursor of one or two integers ("N" or "N.M"); "" is the first page. */
static bool parse_cursor(const char *s, int64_t *a, int64_t *b)
{
    *a = *b = 0;
    if (!s || !*s)
        return true;
    char *end;
    long long v = strtoll(s, &end, 10);
    if (end == s || v < 0)
        return false;
    *a = v;
    if (*end == '.') {
        const char *m = end + 1;
        long long y = strtoll(m, &end, 10);
        if (end == m || y < 0)
            return false;
        *b = y;
    }
    return *end == '\0';
}

/* A listing's rows (the rejections', the log's: id first) into rows
 * (q->limit of size bytes), filled by fill; the one more row read sets
 * out->more, and the cursor is the last row's id. what names the listing
 * in a failure's log line. */
static store_status page_rows(const sd_db *x, sd_stmt *s, const store_admin_query *q, store_admin_answer *out,
                              void *rows, size_t size, row_fill fill, const char *what)
{
    const store_driver *d = x->d;
    int rc;
    int64_t last = 0;
    while ((rc = d->step(s)) == SD_ROW) {
        if (out->n == q->limit) {
            out->more = true;
            break;
        }
        last = d->col_int(s, 0);
        if (!fill(x, s, (char *)rows + (size_t)out->n++ * size)) {
            d->done(s);
            return STORE_ERROR;
        }
    }
    if (rc == SD_FAIL) {
        d->done(s);
        return d->failed(x->c, what);
    }
    d->done(s);
    snprintf(out->next_cursor, sizeof out->next_cursor, "%lld", (long long)last);
    return STORE_OK;
}

/* A rejections row (the statement read_rejections builds). */
static bool rejection_row(const sd_db *x, sd_stmt *s, void *row)
{
    const store_driver *d = x->d;
    store_rejection_row *r = row;
    r->id = d->col_int(s, 0);
    d->col_blob(s, 1, r->nonce, sizeof r->nonce);
    r->player_id = d->col_int(s, 2);
    copy_text(x, s, 3, r->game, sizeof r->game);
    r->level = (int)d->col_int(s, 4);
    r->seed = d->col_int(s, 5);
    r->version = (int)d->col_int(s, 6);
    copy_text(x, s, 7, r->reason, sizeof r->reason);
    r->move_index = d->col_int(s, 8);
    r->received_at = d->col_int(s, 9);
    d->col_blob(s, 10, r->moves_hash, sizeof r->moves_hash);
    return dup_text(x, s, 11, &r->moves_json);
}

/* An admin_log row (the statement log_sql builds). */
static bool log_row(const sd_db *x, sd_stmt *s, void *row)
{
    store_admin_log_row *r = row;
    r->id = x->d->col_int(s, 0);
    r->at = x->d->col_int(s, 1);
    return dup_text(x, s, 2, &r->actor) && dup_text(x, s, 3, &r->action) && dup_text(x, s, 4, &r->target) &&
           dup_text(x, s, 5, &r->reason) && dup_text(x, s, 6, &r->detail_json);
}

static store_status read_rejections(const sd_db *x, const store_admin_query *q, store_admin_answer *out)
{
    const store_driver *d = x->d;
    int64_t before, unused;
    if (!parse_cursor(q->cursor, &before, &unused))
        return STORE_CONFLICT;
    /* only the filters given, numbered as they come (so SQLite can pick
     * the player's index or walk ids backwards): the one statement built
     * at run time, in SQL both dialects read */
    char sql[768];
    int len = snprintf(sql, sizeof sql,
                       "SELECT id, nonce, player_id, game, level, seed, version, reason, move_index,"
                       " received_at, moves_hash, moves_json FROM rejections WHERE 1 = 1");
    int k = 0;
    if (q->player_id)
        len += snprintf(sql + len, sizeof sql - (size_t)len, " AND player_id = ?%d", ++k);
    if (q->g)
        len += snprintf(sql + len, sizeof sql - (size_t)len, " AND game = ?%d", ++k);
    if (q->since)
        len += snprintf(sql + len, sizeof sql - (size_t)len, " AND received_at >= ?%d", ++k);
    if (before)
        len += snprintf(sql + len, sizeof sql - (size_t)len, " AND id < ?%d", ++k);
    snprintf(sql + len, sizeof sql - (size_t)len, " ORDER BY id DESC LIMIT ?%d", ++k);
    if (!(out->rejections = calloc((size_t)q->limit, sizeof *out->rejections)))
        return STORE_ERROR;
    sd_stmt *s = d->start_sql(x->c, sql);
    if (!s)
        return d->failed(x->c, "admin_rejections");
    if (q->player_id)
        d->bind_int(s, q->player_id);
    if (q->g)
        d->bind_text(s, q->g->name);
    if (q->since)
        d->bind_int(s, q->since);
    if (before)
        d->bind_int(s, before);
    d->bind_int(s, q->limit + 1);
    return page_rows(x, s, q, out, out->rejections, sizeof *out->rejections, rejection_row, "admin_rejections");
}

/* The review twin of a kept item: the other run of the pair and its
 * player (nothing when that run is gone). */
static store_status add_twin(const sd_db *x, store_review_item *it)
{
    const store_driver *d = x->d;
    sd_stmt *s = d->start(x->c, SD_ADMIN_TWIN);
    if (!s)
        return sd_failed(x, NULL, SD_ADMIN_TWIN);
    d->bind_int(s, it->twin_of);
    int rc = d->step(s);
    if (rc == SD_FAIL)
        return sd_failed(x, s, SD_ADMIN_TWIN);
    bool ok = true;
    if (rc == SD_ROW) {
        store_review_twin *t = &it->twin;
        it->has_twin = true;
        copy_text(x, s, 0, t->score_id, sizeof t->score_id);
        t->player_id = d->col_int(s, 1);
        copy_text(x, s, 2, t->name, sizeof t->name);
        t->score = d->col_int(s, 3);
        copy_text(x, s, 4, t->status, sizeof t->status);
        t->suspicion = d->col_int(s, 5);
        t->received_at = d->col_int(s, 6);
        t->voided = d->col_int(s, 7) != 0;
        ok = dup_text(x, s, 8, &t->times);
    }
    d->done(s);
    return ok ? STORE_OK : STORE_ERROR;
}

/* The queue's statement for the filters given, each numbered as it comes
 * after the cursor's two (?1 suspicion, ?2 seq), then the row limit: built
 * at run time like the rejections' in SQL both dialects read. Binds in
 * that order: review_bind. */
static void review_sql(const store_admin_query *q, char *sql, size_t cap)
{
    int len = snprintf(sql, cap,
                       "SELECT s.seq, s.score_id, s.player_id, p.name, s.game, s.level,"
                       " s.daily_date, s.score, s.status, s.suspicion, s.signals, s.received_at,"
                       " p.banned_at IS NOT NULL, COALESCE(s.duplicate_of, 0), COALESCE(s.twin_of, 0),"
                       " COALESCE((SELECT i.provider FROM identities i WHERE i.player_id = s.player_id"
                       " ORDER BY i.provider LIMIT 1), ''), s.twin_times"
                       " FROM scores s JOIN players p ON p.id = s.player_id"
                       " WHERE s.reviewed_at IS NULL AND s.voided_at IS NULL"
                       " AND (s.suspicion < ?1 OR (s.suspicion = ?1 AND s.seq > ?2))");
    int k = 2;
    if (q->g)
        len += snprintf(sql + len, cap - (size_t)len, " AND s.game = ?%d", ++k);
    if (q->g && q->level > 0)
        len += snprintf(sql + len, cap - (size_t)len, " AND s.level = ?%d AND s.daily_date = ''", ++k);
    if (q->date)
        len += snprintf(sql + len, cap - (size_t)len, " AND s.daily_date = ?%d", ++k);
    if (q->status)
        len += snprintf(sql + len, cap - (size_t)len, " AND s.status = ?%d", ++k);
    snprintf(sql + len, cap - (size_t)len, " ORDER BY s.suspicion DESC, s.seq ASC LIMIT ?%d", ++k);
}

static void review_bind(const sd_db *x, sd_stmt *s, const store_admin_query *q, int64_t below, int64_t after,
                        int rows)
{
    const store_driver *d = x->d;
    d->bind_int(s, below);
    d->bind_int(s, after);
    if (q->g)
        d->bind_text(s, q->g->name);
    if (q->g && q->level > 0)
        d->bind_int(s, q->level);
    if (q->date)
        d->bind_text(s, q->date);
    if (q->status)
        d->bind_text(s, q->status);
    d->bind_int(s, rows);
}

/* The rows one page reads at most: limit (and one more to know there are
 * more), or with a filter scan_max, never under limit. */
static int review_scan(const store_admin_query *q)
{
    return q->keep && q->scan_max > q->limit ? q->scan_max : q->limit;
}

/* A queue row, before what other statements add; false when memory runs
 * out (it is then cleared). */
static bool review_item(const sd_db *x, sd_stmt *s, store_review_item *it)
{
    const store_driver *d = x->d;
    memset(it, 0, sizeof *it);
    it->seq = d->col_int(s, 0);
    copy_text(x, s, 1, it->score_id, sizeof it->score_id);
    it->player_id = d->col_int(s, 2);
    copy_text(x, s, 3, it->name, sizeof it->name);
    copy_text(x, s, 4, it->game, sizeof it->game);
    it->level = (int)d->col_int(s, 5);
    copy_text(x, s, 6, it->date, sizeof it->date);
    it->score = d->col_int(s, 7);
    copy_text(x, s, 8, it->status, sizeof it->status);
    it->suspicion = d->col_int(s, 9);
    it->received_at = d->col_int(s, 11);
    it->banned = d->col_int(s, 12) != 0;
    it->duplicate_of = d->col_int(s, 13);
    it->twin_of = d->col_int(s, 14);
    copy_text(x, s, 15, it->provider, sizeof it->provider);
    if (dup_text(x, s, 10, &it->signals_json) && dup_text(x, s, 16, &it->times))
        return true;
    store_review_item_clear(it);
    return false;
}

/* A page's rows: up to limit kept ones into out->review (out->n), at most
 * review_scan(q) read. out->more when a row is left: past the budget, or
 * a kept one after a full page (rows skipped before it are read past).
 * The cursor (*last_s, *last_seq) is the last row read and not left. */
static store_status review_rows(const sd_db *x, sd_stmt *s, const store_admin_query *q,
                                store_admin_answer *out, int64_t *last_s, int64_t *last_seq)
{
    const store_driver *d = x->d;
    int rc, scanned = 0, budget = review_scan(q);
    while ((rc = d->step(s)) == SD_ROW) {
        if (scanned++ == budget) {
            out->more = true;
            break;
        }
        store_review_item it;
        if (!review_item(x, s, &it)) {
            d->done(s);
            return STORE_ERROR;
        }
        bool kept = !q->keep || q->keep(&it, q->keep_ctx);
        if (kept && out->n == q->limit) {
            store_review_item_clear(&it);
            out->more = true;
            break;
        }
        *last_s = it.suspicion;
        *last_seq = it.seq;
        if (kept)
            out->review[out->n++] = it;
        else
            store_review_item_clear(&it);
    }
    if (rc == SD_FAIL) {
        d->done(s);
        return d->failed(x->c, "admin_review");
    }
    d->done(s);
    return STORE_OK;
}

/* What a kept item gets from other statements: the player's features, the
 * twin beside it, linked accounts. */
static store_status review_add(const sd_db *x, const store_admin_query *q, store_review_item *it)
{
    store_status res = player_features(x, it->player_id, q->now, &it->features);
    if (res == STORE_OK && it->twin_of)
        res = add_twin(x, it);
    if (res == STORE_OK)
        linked_accounts(x, it->player_id, q->linked_window_ms, &it->linked, &it->n_linked, &res);
    return res;
}

static store_status read_review(const sd_db *x, const store_admin_query *q, store_admin_answer *out)
{
    const store_driver *d = x->d;
    int64_t below, after;
    if (!parse_cursor(q->cursor, &below, &after))
        return STORE_CONFLICT;
    if (!q->cursor || !q->cursor[0])
        below = INT64_MAX;
    char sql[1024];
    review_sql(q, sql, sizeof sql);
    /* the page's rows first: the features are read on the same connection */
    if (!(out->review = calloc((size_t)q->limit, sizeof *out->review)))
        return STORE_ERROR;
    sd_stmt *s = d->start_sql(x->c, sql);
    if (!s)
        return d->failed(x->c, "admin_review");
    review_bind(x, s, q, below, after, review_scan(q) + 1);
    int64_t last_s = 0, last_seq = 0;
    store_status res = review_rows(x, s, q, out, &last_s, &last_seq);
    for (int i = 0; i < out->n && res == STORE_OK; i++)
        res = review_add(x, q, &out->review[i]);
    snprintf(out->next_cursor, sizeof out->next_cursor, "%lld.%lld", (long long)last_s, (long long)last_seq);
    return res;
}

/* The log's statement for the filters given, numbered as they come (the
 * cursor's id, action, actor), then the row limit. */
static void log_sql(const store_admin_query *q, bool from_cursor, char *sql, size_t cap)
{
    int len = snprintf(sql, cap, "SELECT id, at, actor, action, target, reason, detail FROM admin_log WHERE 1 = 1");
    int k = 0;
    if (from_cursor)
        len += snprintf(sql + len, cap - (size_t)len, " AND id %s ?%d", q->newest_first ? "<" : ">", ++k);
    if (q->action)
        len += snprintf(sql + len, cap - (size_t)len, " AND action = ?%d", ++k);
    if (q->actor)
        len += snprintf(sql + len, cap - (size_t)len, " AND actor = ?%d", ++k);
    snprintf(sql + len, cap - (size_t)len, " ORDER BY id%s LIMIT ?%d", q->newest_first ? " DESC" : "", ++k);
}

static store_status read_log(const sd_db *x, const store_admin_query *q, store_admin_answer *out)
{
    const store_driver *d = x->d;
    int64_t from, unused;
    if (!parse_cursor(q->cursor, &from, &unused))
        return STORE_CONFLICT;
    bool from_cursor = q->cursor && q->cursor[0];
    char sql[512];
    log_sql(q, from_cursor, sql, sizeof sql);
    if (!(out->log = calloc((size_t)q->limit, sizeof *out->log)))
        return STORE_ERROR;
    sd_stmt *s = d->start_sql(x->c, sql);
    if (!s)
        return d->failed(x->c, "admin_log");
    if (from_cursor)
        d->bind_int(s, from);
    if (q->action)
        d->bind_text(s, q->action);
    if (q->actor)
        d->bind_text(s, q->actor);
    d->bind_int(s, q->limit + 1);
    return page_rows(x, s, q, out, out->log, sizeof *out->log, log_row, "admin_log");
}

store_status store_rules_admin_read(const sd_db *x, const store_admin_query *q, store_admin_answer *out)
{
    memset(out, 0, sizeof *out);
    out->kind = q->kind;
    /* one snapshot for the whole answer */
    sd_stmt *s = x->d->start(x->c, SD_READ_BEGIN);
    store_status res = s ? sd_run(x, s, SD_READ_BEGIN) : sd_failed(x, NULL, SD_READ_BEGIN);
    if (res != STORE_OK)
        return res;
    switch (q->kind) {
    case ADMIN_Q_PLAYER:
        res = read_player(x, q, &out->player);
        break;
    case ADMIN_Q_REJECTIONS:
        res = read_rejections(x, q, out);
        break;
    case ADMIN_Q_REVIEW:
        res = read_review(x, q, out);
        break;
    case ADMIN_Q_LOG:
        res = read_log(x, q, out);
        break;
    }
    s = x->d->start(x->c, SD_READ_END);
    if (s)
        sd_run(x, s, SD_READ_END);
    if (res != STORE_OK) {
        store_admin_query_kind k = out->kind;
        store_admin_answer_clear(out);
        out->kind = k;
    }
    return res;
}
