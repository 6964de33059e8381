/*
 * store_pg (internal): what the PostgreSQL backend's files share: its
 * store_db (connections, the reader pool, the listener) and their entry
 * points. It claims every `database` that starts with postgres:// or
 * postgresql://.
 *
 * Connections: one writer (used only on the store's writer thread: a batch
 * is one transaction), a pool of PG_READERS read connections, and one for
 * the listener thread (LISTEN replayd_scores), which offers other nodes'
 * committed scores to this node's boards.
 *
 * Ownership: the store_db owns every connection and the listener thread;
 * pg_close frees them all. url is a copy.
 */
#ifndef REPLAYD_SERVER_STORE_PG_H
#define REPLAYD_SERVER_STORE_PG_H

#include <pthread.h>
#include <stdbool.h>

#include "pg_conn.h"
#include "../store_backend.h"

#define PG_READERS 4

typedef struct pg_listener {
    pthread_t thread;
    bool started;
    int wake[2]; /* a pipe: a byte on it stops the thread */
    store_watch w;
    pg_conn c;
} pg_listener;

struct store_db {
    store_config cfg; /* cfg.database is not kept */
    char *url;
    /* this node's id in NOTIFY payloads: its own commits are offered by
     * store.c already, and are skipped when they come back */
    char node[17];
    pg_conn writer;
    pg_conn readers[PG_READERS];
    bool reader_busy[PG_READERS];
    pthread_mutex_t pool_mu;
    pthread_cond_t pool_cv;
    pg_listener listen;
};

/* pg_commit.c: the backend's commit() (one transaction per batch). */
void pg_commit(store_db *db, store_write **batch, int n);

/* store_pg.c: a reader connection of the pool (waits for a free one). */
pg_conn *pg_reader_get(store_db *db);
void pg_reader_put(store_db *db, pg_conn *c);

/* pg_admin.c: an operator's action inside the batch's transaction (the
 * player's row locked first), and the operators' reads and the
 * re-verification scan (store_backend.h). */
store_status pg_run_admin(pg_conn *c, store_write *w);
store_status pg_admin_read(store_db *db, const store_admin_query *q, json_t **out);
store_status pg_scores_page(store_db *db, const store_scan *scan, int64_t after_seq, int limit,
                            store_score *out, int *n);
store_status pg_scores_count(store_db *db, const store_scan *scan, int64_t *out);

/* pg_listen.c: starts the listener thread (its own connection); stops it. */
store_status pg_listen_start(store_db *db, const store_watch *w, char *err, size_t err_len);
void pg_listen_stop(store_db *db);
/* A NOTIFY payload line for a committed ranked score, into out (cap bytes);
 * its length, or 0 when it does not fit. */
size_t pg_notify_line(const store_db *db, const store_score *sc, char *out, size_t cap);
/* The same for an operator's action: a board change, a rename, or "every
 * board resyncs" (an action on more boards than one NOTIFY carries). */
size_t pg_notify_change(const store_db *db, const store_board_change *ch, char *out, size_t cap);
size_t pg_notify_rename(const store_db *db, int64_t player_id, char *out, size_t cap);
size_t pg_notify_resync(const store_db *db, char *out, size_t cap);

#endif
