/*
 * store_writer: the one writer of the SQLite store and its checkpointer.
 *
 * Every write is a job queued here. The writer thread takes up to
 * group_commit_max jobs, runs each inside its own SAVEPOINT of one BEGIN
 * IMMEDIATE transaction (a job's failure rolls back only its own work),
 * commits once, offers the new scores to the boards in memory, and only
 * then wakes each caller. WAL checkpoints run in a second thread on its own
 * connection, so a commit never waits for one.
 *
 * Ownership: threads and queue belong to the store (store_sqlite.h); jobs
 * belong to their callers.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store_sqlite.h"

#define CHECKPOINT_FRAMES 1000 /* SQLite's own auto-checkpoint threshold */

static int64_t mono_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static store_status run_player(conn *c, job *j)
{
    if (strlen(j->name) > STORE_NAME_MAX)
        return STORE_ERROR;
    sqlite3_stmt *st = sq_stmt(c, ST_PLAYER_INSERT);
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_text(st, 1, j->name, -1, SQLITE_STATIC);
    sqlite3_bind_blob(st, 2, j->hash, STORE_HASH_BYTES, SQLITE_STATIC);
    sqlite3_bind_int64(st, 3, j->now);
    int rc = sqlite3_step(st);
    sq_done(st);
    if (rc != SQLITE_DONE)
        return sq_status(rc) == STORE_OK ? STORE_ERROR : sq_status(rc);
    if (j->player) {
        memset(j->player, 0, sizeof *j->player);
        j->player->id = sqlite3_last_insert_rowid(c->db);
        snprintf(j->player->name, sizeof j->player->name, "%s", j->name);
        j->player->created_at = j->now;
    }
    return STORE_OK;
}

static store_status run_token(conn *c, job *j)
{
    const store_token *t = j->token;
    sqlite3_stmt *st;
    int rc;
    if (t->daily_date[0]) {
        st = sq_stmt(c, ST_TOKEN_DAILY);
        if (!st)
            return STORE_ERROR;
        sqlite3_bind_int64(st, 1, t->player_id);
        sqlite3_bind_text(st, 2, t->daily_date, -1, SQLITE_STATIC);
        rc = sqlite3_step(st);
        if (rc == SQLITE_ROW && j->token_existing)
            sq_read_token(st, j->token_existing);
        sq_done(st);
        if (rc == SQLITE_ROW)
            return STORE_CONFLICT;
        if (rc != SQLITE_DONE)
            return sq_status(rc) == STORE_OK ? STORE_ERROR : sq_status(rc);
    }
    st = sq_stmt(c, ST_TOKEN_OUTSTANDING);
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_int64(st, 1, t->player_id);
    sqlite3_bind_int64(st, 2, j->now);
    rc = sqlite3_step(st);
    int64_t outstanding = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
    sq_done(st);
    if (rc != SQLITE_ROW)
        return STORE_ERROR;
    if (outstanding >= j->max_outstanding)
        return STORE_LIMIT;
    st = sq_stmt(c, ST_TOKEN_INSERT);
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_blob(st, 1, t->nonce, STORE_NONCE_BYTES, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, t->player_id);
    sqlite3_bind_text(st, 3, t->game, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 4, t->level);
    sqlite3_bind_int64(st, 5, t->seed);
    sqlite3_bind_int(st, 6, t->version);
    sqlite3_bind_int64(st, 7, t->issued_at);
    sqlite3_bind_int64(st, 8, t->expires_at);
    sqlite3_bind_text(st, 9, t->daily_date, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 10, t->text, -1, SQLITE_STATIC);
    rc = sqlite3_step(st);
    sq_done(st);
    /* a repeated nonce is a caller bug, not a user conflict */
    return rc == SQLITE_DONE ? STORE_OK : STORE_ERROR;
}

static store_status run_rejection(conn *c, job *j)
{
    const store_rejection *r = j->rejection;
    sqlite3_stmt *st = sq_stmt(c, ST_REJECTION_INSERT);
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_blob(st, 1, r->nonce, STORE_NONCE_BYTES, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, r->player_id);
    sqlite3_bind_text(st, 3, r->game, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 4, r->level);
    sqlite3_bind_int64(st, 5, r->seed);
    sqlite3_bind_int(st, 6, r->version);
    sqlite3_bind_text(st, 7, r->reason, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 8, r->move_index);
    sqlite3_bind_int64(st, 9, r->received_at);
    sqlite3_bind_blob(st, 10, r->moves_hash, STORE_HASH_BYTES, SQLITE_STATIC);
    sqlite3_bind_text(st, 11, r->moves_json ? r->moves_json : "", -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    sq_done(st);
    return rc == SQLITE_DONE ? STORE_OK : STORE_ERROR;
}

static store_status run_submit(conn *c, job *j)
{
    store_score *sc = j->sc;
    char score_id[2 * STORE_NONCE_BYTES + 1];
    sq_hex(sc->nonce, STORE_NONCE_BYTES, score_id);

    sqlite3_stmt *st = sq_stmt(c, ST_TOKEN_GET);
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_blob(st, 1, sc->nonce, STORE_NONCE_BYTES, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    store_token tok;
    if (rc == SQLITE_ROW)
        sq_read_token(st, &tok);
    sq_done(st);
    if (rc == SQLITE_DONE)
        return STORE_NOT_FOUND;
    if (rc != SQLITE_ROW)
        return STORE_ERROR;
    bool redeemed = tok.redeemed;
    /* the caller checked the token; a score that does not match it is a
     * bug upstream and must not reach a board */
    if (tok.player_id != sc->player_id || strcmp(tok.game, sc->game) != 0 ||
        tok.level != sc->level || strcmp(tok.daily_date, sc->daily_date) != 0)
        return STORE_ERROR;
    if (redeemed) {
        /* also the case for a second submission of one token in one batch:
         * the first one's row is visible inside the transaction */
        store_score tmp;
        store_status got = sq_score_by_nonce(c, sc->nonce, &tmp);
        if (got != STORE_OK)
            return STORE_ERROR;
        if (j->existing)
            *j->existing = tmp;
        else
            store_score_clear(&tmp);
        return STORE_CONFLICT;
    }
    st = sq_stmt(c, ST_SCORE_INSERT);
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_text(st, 1, score_id, -1, SQLITE_STATIC);
    sqlite3_bind_blob(st, 2, sc->nonce, STORE_NONCE_BYTES, SQLITE_STATIC);
    sqlite3_bind_int64(st, 3, sc->player_id);
    sqlite3_bind_text(st, 4, sc->game, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 5, sc->level);
    sqlite3_bind_int64(st, 6, sc->seed);
    sqlite3_bind_int(st, 7, sc->version);
    sqlite3_bind_text(st, 8, sc->daily_date, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 9, sc->score);
    sqlite3_bind_int(st, 10, sc->completed ? 1 : 0);
    sqlite3_bind_int64(st, 11, sc->received_at);
    sqlite3_bind_blob(st, 12, sc->moves_hash, STORE_HASH_BYTES, SQLITE_STATIC);
    sqlite3_bind_text(st, 13, sc->receipt, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 14, sc->moves_json ? sc->moves_json : "", -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 15, sc->result_json ? sc->result_json : "", -1, SQLITE_STATIC);
    rc = sqlite3_step(st);
    sq_done(st);
    if (rc != SQLITE_DONE)
        return STORE_ERROR;
    int64_t seq = sqlite3_last_insert_rowid(c->db);

    st = sq_stmt(c, ST_TOKEN_REDEEM);
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_int64(st, 1, seq);
    sqlite3_bind_blob(st, 2, sc->nonce, STORE_NONCE_BYTES, SQLITE_STATIC);
    rc = sqlite3_step(st);
    sq_done(st);
    if (rc != SQLITE_DONE)
        return STORE_ERROR;

    rank_entry *e = &j->entry;
    memset(e, 0, sizeof *e);
    st = sq_stmt(c, ST_PLAYER_NAME);
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_int64(st, 1, sc->player_id);
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        sq_text(e->name, sizeof e->name, st, 0);
    sq_done(st);
    if (rc != SQLITE_ROW)
        return STORE_ERROR;

    /* every score counts for its level board; a daily one also for its date */
    st = sq_stmt(c, ST_BEST_UPSERT);
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_text(st, 1, sc->game, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 2, sc->level);
    sqlite3_bind_int64(st, 3, sc->score);
    sqlite3_bind_int64(st, 4, seq);
    sqlite3_bind_int64(st, 5, sc->player_id);
    sqlite3_bind_int64(st, 6, sc->received_at);
    sqlite3_bind_blob(st, 7, sc->nonce, STORE_NONCE_BYTES, SQLITE_STATIC);
    rc = sqlite3_step(st);
    sq_done(st);
    if (rc != SQLITE_DONE)
        return STORE_ERROR;

    e->score = sc->score;
    e->seq = seq;
    e->player_id = sc->player_id;
    e->received_at = sc->received_at;
    memcpy(e->nonce, sc->nonce, STORE_NONCE_BYTES);
    return STORE_OK;
}

static store_status run_job(conn *c, job *j)
{
    switch (j->kind) {
    case JOB_SUBMIT:
        return run_submit(c, j);
    case JOB_PLAYER:
        return run_player(c, j);
    case JOB_TOKEN:
        return run_token(c, j);
    case JOB_REJECTION:
        return run_rejection(c, j);
    }
    return STORE_ERROR;
}

/* After the commit: offer each new score to the boards in memory. */
static void offer_scores(store *s, job **batch, int n)
{
    for (int i = 0; i < n; i++) {
        job *j = batch[i];
        if (j->kind != JOB_SUBMIT || j->st != STORE_OK)
            continue;
        store_board b;
        memset(&b, 0, sizeof b);
        snprintf(b.game, sizeof b.game, "%s", j->sc->game);
        b.level = j->sc->level;
        /* the score is durable already; a board that cannot take it is
         * out of memory and says so on its next read */
        board_cache_offer(s->boards, &b, &j->entry);
        if (j->sc->daily_date[0]) {
            memset(&b, 0, sizeof b);
            snprintf(b.daily_date, sizeof b.daily_date, "%s", j->sc->daily_date);
            board_cache_offer(s->boards, &b, &j->entry);
        }
        j->sc->seq = j->entry.seq;
        sq_hex(j->sc->nonce, STORE_NONCE_BYTES, j->sc->score_id);
    }
}

/* One transaction for the whole batch; each job in its own savepoint. */
static void run_batch(store *s, job **batch, int n)
{
    conn *c = &s->writer;
    int rc = sq_exec(c, ST_BEGIN);
    if (rc != SQLITE_OK) {
        store_status st = sq_status(rc) == STORE_BUSY ? STORE_BUSY : STORE_ERROR;
        for (int i = 0; i < n; i++)
            batch[i]->st = st;
        return;
    }
    bool aborted = false;
    for (int i = 0; i < n; i++) {
        job *j = batch[i];
        if (aborted) {
            j->st = STORE_ERROR;
            continue;
        }
        if (sq_exec(c, ST_SAVEPOINT) != SQLITE_OK) {
            j->st = STORE_ERROR;
            aborted = sqlite3_get_autocommit(c->db) != 0;
            continue;
        }
        j->st = run_job(c, j);
        if (sqlite3_get_autocommit(c->db)) {
            /* SQLite rolled the whole transaction back (I/O error, full disk) */
            aborted = true;
            j->st = STORE_ERROR;
            continue;
        }
        if (j->st == STORE_OK) {
            sq_exec(c, ST_RELEASE);
        } else {
            sq_exec(c, ST_ROLLBACK_TO);
            sq_exec(c, ST_RELEASE);
        }
    }
    rc = aborted ? SQLITE_ABORT : sq_exec(c, ST_COMMIT);
    if (rc != SQLITE_OK) {
        if (!sqlite3_get_autocommit(c->db))
            sq_exec(c, ST_ROLLBACK);
        store_status st = sq_status(rc) == STORE_BUSY ? STORE_BUSY : STORE_ERROR;
        for (int i = 0; i < n; i++) {
            job *j = batch[i];
            if (j->kind == JOB_SUBMIT && j->existing && j->st == STORE_CONFLICT)
                store_score_clear(j->existing);
            if (j->st == STORE_OK || j->st == STORE_CONFLICT || j->st == STORE_LIMIT ||
                j->st == STORE_NOT_FOUND)
                j->st = st;
        }
        return;
    }
    offer_scores(s, batch, n);
}

/* Takes up to room queued jobs into out; called with q_mu held. */
static int take_jobs(store *s, job **out, int room)
{
    int n = 0;
    while (s->q_head && n < room) {
        job *j = s->q_head;
        s->q_head = j->next;
        if (!s->q_head)
            s->q_tail = NULL;
        out[n++] = j;
    }
    return n;
}

static void *writer_main(void *arg)
{
    store *s = arg;
    int max = s->cfg.group_commit_max;
    int prev = 0; /* the size of the last batch */
    pthread_mutex_lock(&s->q_mu);
    for (;;) {
        while (!s->q_head && !s->stopping)
            pthread_cond_wait(&s->q_cv, &s->q_mu);
        if (!s->q_head)
            break; /* stopping, and the queue is drained */
        int n = take_jobs(s, s->batch, max);
        /* Wait for more only when the last batch shows concurrent callers
         * (a lone caller gains nothing from waiting), until as many as last
         * time are here (its callers are back), and only while they keep
         * arriving: stop after a quarter of the wait with no new job. */
        int64_t wait = s->cfg.group_commit_wait_us;
        if (n < max && n < prev && wait > 0 && prev > 1 && !s->stopping) {
            int64_t start = mono_us(), last = start;
            while (n < max && n < prev && !s->stopping) {
                if (s->q_head) {
                    n += take_jobs(s, s->batch + n, max - n);
                    last = mono_us();
                    continue;
                }
                int64_t until = last + wait / 4 < start + wait ? last + wait / 4 : start + wait;
                struct timespec ts = { (time_t)(until / 1000000), (long)(until % 1000000) * 1000 };
                if (pthread_cond_timedwait(&s->q_cv, &s->q_mu, &ts) == ETIMEDOUT) {
                    n += take_jobs(s, s->batch + n, max - n);
                    break;
                }
            }
        }
        prev = n;
        pthread_mutex_unlock(&s->q_mu);
        run_batch(s, s->batch, n);
        pthread_mutex_lock(&s->q_mu);
        for (int i = 0; i < n; i++) {
            s->batch[i]->done = true;
            pthread_cond_signal(&s->batch[i]->cv);
        }
    }
    pthread_mutex_unlock(&s->q_mu);
    return NULL;
}

store_status store_writer_run(store *s, job *j)
{
    pthread_cond_init(&j->cv, NULL);
    j->done = false;
    j->next = NULL;
    pthread_mutex_lock(&s->q_mu);
    if (s->stopping) {
        pthread_mutex_unlock(&s->q_mu);
        pthread_cond_destroy(&j->cv);
        return STORE_ERROR;
    }
    if (s->q_tail)
        s->q_tail->next = j;
    else
        s->q_head = j;
    s->q_tail = j;
    pthread_cond_signal(&s->q_cv);
    while (!j->done)
        pthread_cond_wait(&j->cv, &s->q_mu);
    pthread_mutex_unlock(&s->q_mu);
    pthread_cond_destroy(&j->cv);
    return j->st;
}

/* ---- the checkpointer ---- */

/* Called by SQLite on the writer connection after each commit. */
static int wal_hook(void *arg, sqlite3 *db, const char *name, int frames)
{
    (void)db;
    (void)name;
    store *s = arg;
    if (frames >= CHECKPOINT_FRAMES) {
        pthread_mutex_lock(&s->ck_mu);
        s->ck_pending = true;
        pthread_cond_signal(&s->ck_cv);
        pthread_mutex_unlock(&s->ck_mu);
    }
    return SQLITE_OK;
}

static void *checkpointer_main(void *arg)
{
    store *s = arg;
    pthread_mutex_lock(&s->ck_mu);
    for (;;) {
        while (!s->ck_pending && !s->ck_stopping)
            pthread_cond_wait(&s->ck_cv, &s->ck_mu);
        if (s->ck_stopping)
            break;
        s->ck_pending = false;
        pthread_mutex_unlock(&s->ck_mu);
        /* PASSIVE: copies what it can without blocking the writer; the
         * next commit after a complete one restarts the WAL */
        sqlite3_wal_checkpoint_v2(s->ckpt.db, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
        pthread_mutex_lock(&s->ck_mu);
    }
    pthread_mutex_unlock(&s->ck_mu);
    return NULL;
}

store_status store_writer_start(store *s, char *err, size_t err_len)
{
    s->batch = calloc((size_t)s->cfg.group_commit_max, sizeof *s->batch);
    if (!s->batch) {
        snprintf(err, err_len, "out of memory");
        return STORE_ERROR;
    }
    if (pthread_create(&s->ck_thread, NULL, checkpointer_main, s) != 0) {
        snprintf(err, err_len, "cannot start the checkpointer thread");
        return STORE_ERROR;
    }
    s->ck_started = true;
    sqlite3_wal_hook(s->writer.db, wal_hook, s); /* replaces auto-checkpoint */
    if (pthread_create(&s->thread, NULL, writer_main, s) != 0) {
        snprintf(err, err_len, "cannot start the writer thread");
        return STORE_ERROR;
    }
    s->thread_started = true;
    return STORE_OK;
}

void store_writer_stop(store *s)
{
    if (s->thread_started) {
        pthread_mutex_lock(&s->q_mu);
        s->stopping = true;
        pthread_cond_signal(&s->q_cv);
        pthread_mutex_unlock(&s->q_mu);
        pthread_join(s->thread, NULL);
        s->thread_started = false;
    }
    if (s->ck_started) {
        pthread_mutex_lock(&s->ck_mu);
        s->ck_stopping = true;
        pthread_cond_signal(&s->ck_cv);
        pthread_mutex_unlock(&s->ck_mu);
        pthread_join(s->ck_thread, NULL);
        s->ck_started = false;
    }
    free(s->batch);
    s->batch = NULL;
}
