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

#include "../reader_pool.h"
#include "../store_backend.h"
#include "pg_conn.h"

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
    reader_pool pool; /* the readers, for store.c's reads */
    pg_listener listen;
};

/* pg_txn.c: the backend's hooks for the store's transaction loop. */
extern const store_txn_hooks pg_txn;

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
