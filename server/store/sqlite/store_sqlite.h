/*
 * store_sqlite (internal): what the SQLite backend's files share: its
 * store_db (connections and the checkpointer) and their entry points.
 *
 * Connections: one writer (used only on the store's writer thread), a pool
 * of SQLITE_READERS read connections (WAL lets them read while the writer
 * writes, so a read never waits for a commit), and one for the
 * checkpointer thread, which keeps WAL checkpoints off the commit path.
 *
 * Ownership: the store_db owns every connection, statement and thread;
 * sqlite_close frees them all.
 */
#ifndef REPLAYD_SERVER_STORE_SQLITE_H
#define REPLAYD_SERVER_STORE_SQLITE_H

#include <pthread.h>
#include <stdbool.h>

#include "../reader_pool.h"
#include "../store_backend.h"
#include "sqlite_conn.h"

#define SQLITE_READERS 4

typedef struct sqlite_checkpointer {
    conn c;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool initialized, pending, stopping, started;
    int frames; /* the WAL size that wakes the thread */
    pthread_t thread;
} sqlite_checkpointer;

struct store_db {
    store_config cfg; /* cfg.database is not kept (the caller's string) */
    conn writer;
    conn readers[SQLITE_READERS];
    reader_pool pool; /* the readers, for store.c's reads */
    sqlite_checkpointer ckpt;
};

/* sqlite_txn.c: the backend's hooks for the store's transaction loop. */
extern const store_txn_hooks sqlite_txn;

/* sqlite_checkpoint.c: opens the checkpointer's connection on `path` and
 * starts its thread; hooks the writer's commits. */
store_status sqlite_checkpointer_start(store_db *db, const store_config *cfg, char *err,
                                       size_t err_len);
/* Stops and joins the thread, closes its connection; safe when never started. */
void sqlite_checkpointer_stop(store_db *db);

#endif
