/*
 * sqlite_checkpoint: WAL checkpoints in their own thread on their own
 * connection, so a commit never waits for one. The writer connection's WAL
 * hook (which replaces SQLite's auto-checkpoint) wakes the thread once the
 * WAL holds `wal_checkpoint_frames` frames. Ten times SQLite's own default
 * of 1000: a submission dirties a few pages, the same hot pages (the
 * scores table's tail, index interiors, the level bests) recur in many
 * commits, and a checkpoint copies each page once however often the WAL
 * holds it; at 1000 the checkpointer cost about a third as much CPU as
 * the writer (docs/BENCH.md).
 */
#include <stdio.h>

#include "store_sqlite.h"

#define CHECKPOINT_FRAMES_DEFAULT 10000

/* Called by SQLite on the writer connection after each commit. */
static int wal_hook(void *arg, sqlite3 *db, const char *name, int frames)
{
    (void)db;
    (void)name;
    sqlite_checkpointer *k = arg;
    if (frames >= k->frames) {
        pthread_mutex_lock(&k->mu);
        k->pending = true;
        pthread_cond_signal(&k->cv);
        pthread_mutex_unlock(&k->mu);
    }
    return SQLITE_OK;
}

static void *checkpointer_main(void *arg)
{
    sqlite_checkpointer *k = arg;
    pthread_mutex_lock(&k->mu);
    for (;;) {
        while (!k->pending && !k->stopping)
            pthread_cond_wait(&k->cv, &k->mu);
        if (k->stopping)
            break;
        k->pending = false;
        pthread_mutex_unlock(&k->mu);
        /* PASSIVE: copies what it can without blocking the writer; the
         * next commit after a complete one restarts the WAL */
        int rc = sqlite3_wal_checkpoint_v2(k->c.db, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
        if (rc != SQLITE_OK && sq_status(rc) != STORE_BUSY)
            store_log_error("sqlite_checkpoint", sqlite3_errmsg(k->c.db));
        pthread_mutex_lock(&k->mu);
    }
    pthread_mutex_unlock(&k->mu);
    return NULL;
}

store_status sqlite_checkpointer_start(store_db *db, const store_config *cfg, char *err,
                                       size_t err_len)
{
    sqlite_checkpointer *k = &db->ckpt;
    pthread_mutex_init(&k->mu, NULL);
    pthread_cond_init(&k->cv, NULL);
    k->initialized = true;
    k->frames = cfg->wal_checkpoint_frames > 0 ? cfg->wal_checkpoint_frames : CHECKPOINT_FRAMES_DEFAULT;
    store_status st = sq_open(&k->c, cfg, SQ_CHECKPOINTER, err, err_len);
    if (st != STORE_OK)
        return st;
    if (pthread_create(&k->thread, NULL, checkpointer_main, k) != 0) {
        snprintf(err, err_len, "cannot start the checkpointer thread");
        return STORE_ERROR;
    }
    k->started = true;
    sqlite3_wal_hook(db->writer.db, wal_hook, k);
    return STORE_OK;
}

void sqlite_checkpointer_stop(store_db *db)
{
    sqlite_checkpointer *k = &db->ckpt;
    if (!k->initialized)
        return;
    if (k->started) {
        pthread_mutex_lock(&k->mu);
        k->stopping = true;
        pthread_cond_signal(&k->cv);
        pthread_mutex_unlock(&k->mu);
        pthread_join(k->thread, NULL);
        k->started = false;
        if (db->writer.db)
            sqlite3_wal_hook(db->writer.db, NULL, NULL);
    }
    sq_close(&k->c);
    pthread_cond_destroy(&k->cv);
    pthread_mutex_destroy(&k->mu);
    k->initialized = false;
}
