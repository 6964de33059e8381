/*
 * store: the part of the store every backend shares (see store.h): picking
 * the backend, the writer queue, offering committed scores to the boards
 * in memory, answering board reads from them, and the names on entries.
 */
#include "store.h"

#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board_cache.h"
#include "name_cache.h"
#include "store_backend.h"
#include "store_rules.h"
#include "store_txn.h"
#include "write_queue.h"

#define NAME_SLOTS 8192
#define HELD_RING 256 /* the newest scores this node held as the earlier run of a twin pair */

static const store_backend *const store_backends[] = {
    &store_pg_backend, /* postgres:// URLs */
    &store_sqlite_backend, /* anything else: a file path */
};

struct store {
    const store_backend *be;
    store_db *db;
    board_cache *boards;
    name_cache *names;
    write_queue *queue;
    /* Scores this node held as the earlier run of a twin pair. Two twins
     * sent to two nodes race: the earlier commits on node A (its NOTIFY
     * ranks it everywhere), the later on node B holds it and B takes it
     * off its own board at once; A's notification can still reach B's
     * listener after that, and must not put it back (B's own lines are not
     * delivered to B). A held seq is never offered from a notification. */
    pthread_mutex_t held_lock;
    int64_t held[HELD_RING];
    unsigned held_next;
};

static void held_note(store *s, int64_t seq)
{
    pthread_mutex_lock(&s->held_lock);
    s->held[s->held_next++ % HELD_RING] = seq;
    pthread_mutex_unlock(&s->held_lock);
}

static bool held_here(store *s, int64_t seq)
{
    bool found = false;
    pthread_mutex_lock(&s->held_lock);
    for (int i = 0; i < HELD_RING && !found; i++)
        found = s->held[i] == seq;
    pthread_mutex_unlock(&s->held_lock);
    return found;
}

/* A reader connection of the backend's pool, seen through its driver,
 * and back. */
static sd_db reader_get(store *s)
{
    sd_db x = { s->be->driver, reader_pool_get(s->be->readers(s->db)) };
    return x;
}

static void reader_put(store *s, const sd_db *x)
{
    reader_pool_put(s->be->readers(s->db), x->c);
}

static store_status load_board(void *ctx, const store_board *b, rank_board *into)
{
    store *s = ctx;
    sd_db x = reader_get(s);
    store_status st = store_read_board(&x, b, into);
    reader_put(s, &x);
    return st;
}

/* Another node's committed score (the backend's watch): to its board if
 * that board is in memory, as this node's own commits are. */
static void remote_offer(void *ctx, const store_board *b, const rank_entry *e)
{
    store *s = ctx;
    if (!held_here(s, e->seq))
        board_cache_offer(s->boards, b, e);
}

/* Some of the other nodes' commits may have been missed: every board
 * reloads on its next read. */
static void remote_resync(void *ctx)
{
    store *s = ctx;
    board_cache_resync(s->boards);
}

/* Another node's operator action: the player's entry on a board in
 * memory replaced as one step, as this node's own actions are. */
static void remote_set(void *ctx, const store_board *b, int64_t player_id, const rank_entry *e)
{
    store *s = ctx;
    board_cache_set(s->boards, b, player_id, e);
}

static void remote_renamed(void *ctx, int64_t player_id)
{
    store *s = ctx;
    name_cache_forget(s->names, player_id);
}

static void entry_of(const store_score *sc, rank_entry *e)
{
    memset(e, 0, sizeof *e);
    e->score = sc->score;
    e->seq = sc->seq;
    e->player_id = sc->p.player_id;
    e->received_at = sc->received_at;
    memcpy(e->nonce, sc->p.nonce, PLAY_NONCE_BYTES);
}

/* A board as a committed write left it for one player: the old entry
 * out, the new one (if any) in, as one step. */
static void apply_change(store *s, const store_board_change *ch)
{
    rank_entry e;
    memset(&e, 0, sizeof e);
    e.score = ch->score;
    e.seq = ch->seq;
    e.player_id = ch->player_id;
    e.received_at = ch->received_at;
    memcpy(e.nonce, ch->nonce, PLAY_NONCE_BYTES);
    board_cache_set(s->boards, &ch->board, ch->player_id, ch->has_entry ? &e : NULL);
}

/* An operator's action, committed: each board it touched takes the
 * player's entry as the action left it, in one step per board, in batch
 * order with the scores around it (all on this one writer thread). */
static void apply_admin(store *s, const store_write *w)
{
    for (int i = 0; i < w->u.admin.n_changes; i++)
        apply_change(s, &w->u.admin.changes[i]);
    if (w->u.admin.action == ADMIN_RENAME)
        name_cache_forget(s->names, w->u.admin.player_id);
}

/* After the commit: offer each new score to the boards in memory, then
 * answer every write. A board that cannot take a durable score is out of
 * memory and says so on its next read. */
static void run_batch(void *ctx, store_write **batch, int n)
{
    store *s = ctx;
    store_txn_run(s->be, s->db, batch, n);
    for (int i = 0; i < n; i++) {
        const store_write *w = batch[i];
        if (w->kind == STORE_WRITE_ADMIN && w->status == STORE_OK) {
            apply_admin(s, w);
            continue;
        }
        if (w->kind != STORE_WRITE_SCORE || w->status != STORE_OK)
            continue;
        /* the earlier run of a twin pair, held with this one */
        if (w->u.score.twin_changed) {
            held_note(s, w->u.score.score.twin_of);
            apply_change(s, &w->u.score.twin_change);
        }
        const store_score *sc = &w->u.score.score;
        if (sc->status != SCORE_RANKED)
            continue;
        /* a level score goes to its level board, a daily one to its day's */
        rank_entry e;
        entry_of(sc, &e);
        store_board b = store_board_of(&sc->p);
        board_cache_offer(s->boards, &b, &e);
    }
    for (int i = 0; i < n; i++)
        batch[i]->done(batch[i]);
}

store_status store_open(const store_config *cfg, store **out, char *err, size_t err_len)
{
    *out = NULL;
    if (err_len)
        err[0] = '\0';
    if (!cfg || !cfg->database || !cfg->database[0]) {
        snprintf(err, err_len, "no database configured");
        return STORE_ERROR;
    }
    store *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, err_len, "out of memory");
        return STORE_ERROR;
    }
    pthread_mutex_init(&s->held_lock, NULL);
    for (size_t i = 0; i < sizeof store_backends / sizeof store_backends[0] && !s->be; i++)
        if (store_backends[i]->claims(cfg->database))
            s->be = store_backends[i];
    store_status st = STORE_ERROR;
    if (!s->be) {
        snprintf(err, err_len, "%s: no storage backend serves that database", cfg->database);
        goto fail;
    }
    st = s->be->open(cfg, &s->db, err, err_len);
    if (st != STORE_OK)
        goto fail;
    st = STORE_ERROR;
    s->boards = board_cache_new(load_board, s,
                                cfg->board_cache_bytes ? cfg->board_cache_bytes : (size_t)256 << 20);
    s->names = name_cache_new(NAME_SLOTS);
    if (!s->boards || !s->names) {
        snprintf(err, err_len, "out of memory");
        goto fail;
    }
    int max_batch = cfg->group_commit_max > 0 ? cfg->group_commit_max : 64;
    s->queue = write_queue_start(max_batch, cfg->group_commit_wait_us, run_batch, s, err, err_len);
    if (!s->queue)
        goto fail;
    if (s->be->watch) {
        store_watch w = { remote_offer, remote_resync, remote_set, remote_renamed, s };
        st = s->be->watch(s->db, &w, err, err_len);
        if (st != STORE_OK)
            goto fail;
    }
    *out = s;
    return STORE_OK;
fail:
    store_close(s);
    return st;
}

void store_close(store *s)
{
    if (!s)
        return;
    write_queue_stop(s->queue); /* commits what it holds first */
    if (s->db)
        s->be->close(s->db);
    board_cache_free(s->boards);
    name_cache_free(s->names);
    pthread_mutex_destroy(&s->held_lock);
    free(s);
}

int store_schema_version(store *s)
{
    return s->be->schema_version(s->db);
}

/* ---- writes ---- */

void store_write_async(store *s, store_write *w)
{
    w->status = STORE_ERROR;
    write_queue_push(s->queue, w);
}

typedef struct waiter {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool done;
} waiter;

static void wake(store_write *w)
{
    waiter *wt = w->ctx;
    pthread_mutex_lock(&wt->mu);
    wt->done = true;
    pthread_cond_signal(&wt->cv);
    pthread_mutex_unlock(&wt->mu);
}

store_status store_write_wait(store *s, store_write *w)
{
    waiter wt = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, false };
    store_write_done done = w->done;
    void *ctx = w->ctx;
    w->done = wake;
    w->ctx = &wt;
    store_write_async(s, w);
    pthread_mutex_lock(&wt.mu);
    while (!wt.done)
        pthread_cond_wait(&wt.cv, &wt.mu);
    pthread_mutex_unlock(&wt.mu);
    pthread_cond_destroy(&wt.cv);
    pthread_mutex_destroy(&wt.mu);
    w->done = done;
    w->ctx = ctx;
    if (done)
        done(w);
    return w->status;
}

store_status store_key_check(store *s, int64_t key_id, const char *fingerprint, int64_t now,
                             bool *matches, char recorded[STORE_KEY_FP_HEX + 1])
{
    store_write w;
    memset(&w, 0, sizeof w);
    w.kind = STORE_WRITE_KEY;
    w.u.key.key_id = key_id;
    snprintf(w.u.key.fingerprint, sizeof w.u.key.fingerprint, "%s", fingerprint);
    w.u.key.now = now;
    store_status st = store_write_wait(s, &w);
    *matches = st == STORE_OK && w.u.key.matches;
    memcpy(recorded, w.u.key.recorded, STORE_KEY_FP_HEX + 1);
    return st;
}

store_status store_log_seal(store *s)
{
    store_write w;
    memset(&w, 0, sizeof w);
    w.kind = STORE_WRITE_LOG_SEAL;
    return store_write_wait(s, &w);
}

/* ---- reads ---- */

store_status store_player_by_token(store *s, const uint8_t token_hash[STORE_HASH_BYTES],
                                   store_player *out)
{
    sd_db x = reader_get(s);
    store_status st = store_read_player_by_token(&x, token_hash, out);
    reader_put(s, &x);
    return st;
}

store_status store_score_get(store *s, const uint8_t nonce[PLAY_NONCE_BYTES], store_score *out)
{
    out->moves_json = NULL;
    out->result_json = NULL;
    out->signals_json = NULL;
    sd_db x = reader_get(s);
    store_status st = store_score_by_nonce(&x, nonce, out);
    reader_put(s, &x);
    return st;
}

store_status store_twin_candidates(store *s, const play *p, const uint8_t shape[STORE_HASH_BYTES],
                                   int limit, store_twin_candidate *out, int *n)
{
    sd_db x = reader_get(s);
    store_status st = store_read_twin_candidates(&x, p, shape, 0, limit, out, n);
    reader_put(s, &x);
    return st;
}

store_status store_token_stats_for(store *s, int64_t player_id, int64_t now,
                                   store_token_stats *out)
{
    sd_db x = reader_get(s);
    store_status st = store_read_token_stats(&x, player_id, now, out);
    reader_put(s, &x);
    return st;
}

store_status store_player_approved(store *s, int64_t player_id, int64_t *count)
{
    sd_db x = reader_get(s);
    store_status st = store_read_player_approved(&x, player_id, count);
    reader_put(s, &x);
    return st;
}

store_status store_daily_issued(store *s, const char *date, bool *issued)
{
    sd_db x = reader_get(s);
    store_status st = store_read_daily_issued(&x, date, issued);
    reader_put(s, &x);
    return st;
}

store_status store_key_ids(store *s, int64_t *ids, int max, int *n)
{
    sd_db x = reader_get(s);
    store_status st = store_read_key_ids(&x, ids, max, n);
    reader_put(s, &x);
    return st;
}

store_status store_log_entries(store *s, int64_t from, int max, store_log_entry *out, int *n)
{
    sd_db x = reader_get(s);
    store_status st = store_read_log_entries(&x, from, max, out, n);
    reader_put(s, &x);
    return st;
}

store_status store_log_checkpoint(store *s, int64_t *size, char *note, size_t cap)
{
    sd_db x = reader_get(s);
    store_status st = store_read_log_checkpoint(&x, size, note, cap);
    reader_put(s, &x);
    return st;
}

store_status store_log_hashes(store *s, int level, int64_t from, int max, uint8_t (*out)[32], int *n)
{
    sd_db x = reader_get(s);
    store_status st = store_read_log_hashes(&x, level, from, max, out, n);
    reader_put(s, &x);
    return st;
}

store_status store_board_times(store *s, const play *p, int64_t seq, int limit, store_twin_candidate *out,
                               int *n)
{
    sd_db x = reader_get(s);
    store_status st = store_read_board_times(&x, p, seq, limit, out, n);
    reader_put(s, &x);
    return st;
}

store_status store_scores_page(store *s, const store_scan *scan, int64_t after_seq, int limit,
                               store_score *out, int *n)
{
    sd_db x = reader_get(s);
    store_status st = store_read_scores_page(&x, scan, after_seq, limit, out, n);
    reader_put(s, &x);
    return st;
}

store_status store_scores_count(store *s, const store_scan *scan, int64_t *out)
{
    sd_db x = reader_get(s);
    store_status st = store_read_scores_count(&x, scan, out);
    reader_put(s, &x);
    return st;
}

/* ---- leaderboards ---- */

static void entry_out(const rank_entry *e, int64_t rank, store_entry *o)
{
    memset(o, 0, sizeof *o);
    o->rank = rank;
    o->player_id = e->player_id;
    o->score = e->score;
    o->seq = e->seq;
    o->submitted_at = e->received_at;
    play p;
    memcpy(p.nonce, e->nonce, PLAY_NONCE_BYTES);
    play_score_id(&p, o->score_id);
}

/* Fills the names of n entries: from the cache, the rest in one backend
 * call. A failed lookup leaves names empty rather than failing the page. */
static void fill_names(store *s, store_entry *out, int n)
{
    enum { CHUNK = 64 };
    int64_t ids[CHUNK];
    int where[CHUNK];
    char names[CHUNK][STORE_NAME_MAX + 1];
    int k = 0;
    for (int i = 0; i <= n; i++) {
        if (i < n && !name_cache_get(s->names, out[i].player_id, out[i].player_name)) {
            ids[k] = out[i].player_id;
            where[k++] = i;
        }
        if (k == CHUNK || (i == n && k > 0)) {
            sd_db x = reader_get(s);
            store_status got = store_read_player_names(&x, k, ids, names);
            reader_put(s, &x);
            if (got == STORE_OK) {
                for (int j = 0; j < k; j++) {
                    memcpy(out[where[j]].player_name, names[j], sizeof names[j]);
                    if (names[j][0])
                        name_cache_put(s->names, ids[j], names[j]);
                }
            }
            k = 0;
        }
    }
}

/* The rank shown for a score: equal scores share one (1 + the entries
 * with a strictly higher score), so a tie never goes to whoever submitted
 * first. (score, INT64_MIN) sorts before every entry of that score. */
static int64_t shared_rank(const rank_board *rb, int64_t score)
{
    return rank_count_before(rb, score, INT64_MIN, false) + 1;
}

/* Copies positions first.. (up to n) into out with their shared ranks; a
 * small stack buffer at a time. An entry whose score differs from the one
 * before it ranks at its position, since every entry above it scores
 * higher. */
static int copy_range(const rank_board *rb, int64_t first, int n, store_entry *out)
{
    rank_entry buf[32];
    int done = 0;
    while (done < n) {
        int want = n - done < 32 ? n - done : 32;
        int got = rank_range(rb, first + done, want, buf);
        for (int i = 0; i < got; i++) {
            int64_t at = first + done + i;
            int64_t rank = done + i == 0 ? shared_rank(rb, buf[i].score)
                           : out[done + i - 1].score == buf[i].score ? out[done + i - 1].rank
                                                                      : at;
            entry_out(&buf[i], rank, &out[done + i]);
        }
        done += got;
        if (got < want)
            break;
    }
    return done;
}

store_status store_board_page(store *s, const store_board *b, const store_board_key *after,
                              bool backwards, int limit, store_entry *out, int *n, bool *more,
                              int64_t *total)
{
    *n = 0;
    *more = false;
    board_slot *slot;
    const rank_board *rb;
    store_status st = board_cache_acquire(s->boards, b, &slot, &rb);
    if (st != STORE_OK)
        return st;
    if (limit < 0)
        limit = 0;
    int64_t size = rank_size(rb);
    if (!backwards) {
        int64_t before = after ? rank_count_before(rb, after->score, after->seq, true) : 0;
        *n = copy_range(rb, before + 1, limit, out);
        *more = before + *n < size;
    } else {
        int64_t end = after ? rank_count_before(rb, after->score, after->seq, false) : size;
        int64_t first = end - limit + 1 < 1 ? 1 : end - limit + 1;
        *n = end >= first ? copy_range(rb, first, (int)(end - first + 1), out) : 0;
        *more = first > 1;
    }
    board_cache_release(slot);
    if (total)
        *total = size;
    fill_names(s, out, *n);
    return STORE_OK;
}

store_status store_board_rank(store *s, const store_board *b, int64_t player_id,
                              store_entry *out)
{
    board_slot *slot;
    const rank_board *rb;
    store_status st = board_cache_acquire(s->boards, b, &slot, &rb);
    if (st != STORE_OK)
        return st;
    rank_entry e;
    int64_t r = rank_of_player(rb, player_id, &e);
    if (r != 0)
        r = shared_rank(rb, e.score);
    board_cache_release(slot);
    if (r == 0)
        return STORE_NOT_FOUND;
    entry_out(&e, r, out);
    fill_names(s, out, 1);
    return STORE_OK;
}

store_status store_board_would_rank(store *s, const store_board *b, int64_t score, int64_t *rank)
{
    board_slot *slot;
    const rank_board *rb;
    store_status st = board_cache_acquire(s->boards, b, &slot, &rb);
    if (st != STORE_OK)
        return st;
    *rank = shared_rank(rb, score);
    board_cache_release(slot);
    return STORE_OK;
}

store_status store_board_around(store *s, const store_board *b, int64_t player_id, int around,
                                store_entry *out, int *n, int *self)
{
    *n = 0;
    *self = -1;
    if (around < 0)
        around = 0;
    board_slot *slot;
    const rank_board *rb;
    store_status st = board_cache_acquire(s->boards, b, &slot, &rb);
    if (st != STORE_OK)
        return st;
    int64_t r = rank_of_player(rb, player_id, NULL);
    if (r == 0) {
        board_cache_release(slot);
        return STORE_NOT_FOUND;
    }
    int64_t first = r - around < 1 ? 1 : r - around;
    int64_t last = r + around > rank_size(rb) ? rank_size(rb) : r + around;
    *n = copy_range(rb, first, (int)(last - first + 1), out);
    *self = (int)(r - first);
    board_cache_release(slot);
    fill_names(s, out, *n);
    return STORE_OK;
}

size_t store_board_bytes(store *s)
{
    return board_cache_bytes(s->boards);
}

store_status store_board_size(store *s, const store_board *b, int64_t *out)
{
    board_slot *slot;
    const rank_board *rb;
    store_status st = board_cache_acquire(s->boards, b, &slot, &rb);
    if (st != STORE_OK)
        return st;
    *out = rank_size(rb);
    board_cache_release(slot);
    return STORE_OK;
}

store_status store_admin_read(store *s, const store_admin_query *q, store_admin_answer *out)
{
    sd_db x = reader_get(s);
    store_status st = store_rules_admin_read(&x, q, out);
    reader_put(s, &x);
    return st;
}
