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

#include "sqlite_conn.h"
#include "../store_backend.h"

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
    bool reader_busy[SQLITE_READERS];
    pthread_mutex_t pool_mu;
    pthread_cond_t pool_cv;
    sqlite_checkpointer ckpt;
};

/* sqlite_commit.c: the backend's commit() (one transaction per batch). */
void sqlite_commit(store_db *db, store_write **batch, int n);

/* sqlite_admin.c: an operator's action inside the commit's transaction
 * (on the writer connection), and the operators' reads. */
store_status sqlite_run_admin(conn *c, store_write *w);
store_status sqlite_admin_read(store_db *db, const store_admin_query *q, json_t **out);

/* A reader connection from the pool (waits for one), and back. */
conn *sqlite_reader_get(store_db *db);
void sqlite_reader_put(store_db *db, conn *c);

/* sqlite_checkpoint.c: opens the checkpointer's connection on `path` and
 * starts its thread; hooks the writer's commits. */
store_status sqlite_checkpointer_start(store_db *db, const store_config *cfg, char *err,
                                       size_t err_len);
/* Stops and joins the thread, closes its connection; safe when never started. */
void sqlite_checkpointer_stop(store_db *db);

#endif
