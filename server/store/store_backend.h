/*
 * store_backend: what a database must provide to be replayd's store, as a
 * struct of function pointers in the manner of sqlite3_vfs. store.c picks
 * the first backend in store_backends[] that claims the configured
 * `database` and calls nothing else of it; the handlers above never see a
 * backend at all.
 *
 * A backend keeps the rows and the SQL; above it the store keeps what
 * is shared: the writer queue and its batching, the boards in memory, the
 * name cache (store.c), and every rule and read, written once over the
 * backend's driver (store_rules.h, store_driver.h). Contract:
 * - The writes of a batch run in the store's one transaction loop
 *   (store_txn.c) on the one writer thread, over the backend's writer
 *   connection, its driver and its transaction hooks (store_txn_hooks).
 * - Every other function may be called from any thread at once.
 * - A failure a backend reports as STORE_ERROR is logged by the backend,
 *   once, where it happened (store_log_error).
 * - A backend that several nodes share offers the others' committed scores
 *   through watch() (the PostgreSQL backend: LISTEN/NOTIFY).
 *
 * Ownership: the backend owns its store_db and everything in it (its
 * reader pool's connections too); close() frees it all.
 */
#ifndef REPLAYD_SERVER_STORE_BACKEND_H
#define REPLAYD_SERVER_STORE_BACKEND_H

#include "rank.h"
#include "reader_pool.h"
#include "store.h"
#include "store_driver.h"

typedef struct store_db store_db;

/* What a backend shared by several processes (nodes) calls to keep this
 * process's boards current: offer() for each score another node committed
 * (from any one thread of the backend's), resync() when some may have been
 * missed (a dropped connection: every board then reloads on its next read),
 * set() and renamed() for another node's operator actions. */
typedef struct store_watch {
    void (*offer)(void *ctx, const store_board *b, const rank_entry *e);
    void (*resync)(void *ctx);
    /* another node's operator action: the player's entry on b as it now
     * stands (NULL: off it), and a renamed player */
    void (*set)(void *ctx, const store_board *b, int64_t player_id, const rank_entry *e);
    void (*renamed)(void *ctx, int64_t player_id);
    void *ctx;
} store_watch;

/* The writer's transaction after a write or a failed statement. */
typedef enum store_txn_state {
    STORE_TXN_OPEN,   /* usable: the next write may run */
    STORE_TXN_FAILED, /* aborted by the engine: only a rollback runs */
    STORE_TXN_NONE,   /* no transaction (the engine rolled it back itself) */
    STORE_TXN_LOST,   /* the connection is gone */
} store_txn_state;

/* What a backend gives the transaction loop (store_txn.h). */
typedef struct store_txn_hooks {
    /* Each write in its own savepoint (SD_SAVEPOINT, SD_RELEASE,
     * SD_ROLLBACK_TO): a failed write is undone alone. false: a failed
     * write aborts the transaction and the batch runs again without it
     * (PostgreSQL: a savepoint would cost a round trip or two a write). */
    bool savepoints;
    /* The writer connection, as the rules take it, and the store's config
     * (the rejection caps). */
    sd_db (*writer)(store_db *db, const store_config **cfg);
    store_txn_state (*state)(store_db *db);
    /* true when the last failure may pass if the whole batch runs again
     * (a deadlock or a serialization failure between nodes) */
    bool (*retryable)(store_db *db);
    /* Optional (NULL: always). Before a batch, outside any transaction:
     * false when the database cannot be reached (the batch fails busy). */
    bool (*usable)(store_db *db);
    /* Optional. Before the first try, outside any transaction: what the
     * lock order needs (PostgreSQL: the player of each operator's score
     * action, into w->u.admin.player_id). */
    void (*prepare)(store_db *db, store_write **batch, int n);
    /* Optional (NULL: one writer holds the whole database). Locks these
     * players' rows (sorted, distinct) until the transaction ends. */
    store_status (*lock_players)(store_db *db, const int64_t *ids, int n);
    /* Optional. Inside the transaction after the writes, before COMMIT;
     * each write's status says whether it will commit, order[] the order
     * they ran in (PostgreSQL: the NOTIFY to the other nodes). A failure
     * fails the batch. */
    store_status (*before_commit)(store_db *db, store_write *const *batch, const int *order, int n);
} store_txn_hooks;

typedef struct store_backend {
    const char *name;
    /* true when this backend serves that `database` setting */
    bool (*claims)(const char *database);
    store_status (*open)(const store_config *cfg, store_db **out, char *err, size_t err_len);
    void (*close)(store_db *db);
    int (*schema_version)(store_db *db);

    const store_txn_hooks *txn;

    /* Every read (store_reads.c, store_admin_reads.c) runs once for all
     * backends on a connection of this pool, through this driver. */
    const store_driver *driver;
    reader_pool *(*readers)(store_db *db);
    /* Optional (NULL: only this process writes the database). Starts
     * telling w about other nodes' commits, until close(). */
    store_status (*watch)(store_db *db, const store_watch *w, char *err, size_t err_len);
} store_backend;

/* A backend's table, from its functions named prefix_claims, prefix_open,
 * ...; the rest (.watch) given after the name. */
#define STORE_BACKEND_OF(prefix, label, ...)                                                  \
    {                                                                                         \
        .name = label, .claims = prefix##_claims, .open = prefix##_open,                      \
        .close = prefix##_close, .schema_version = prefix##_schema_version,                   \
        .txn = &prefix##_txn, .driver = &prefix##_driver, .readers = prefix##_readers,   \
        __VA_ARGS__                                                                           \
    }

extern const store_backend store_sqlite_backend;
extern const store_backend store_pg_backend;

/* One JSON line on stderr: {"event":"store_error","where":...,"detail":...}
 * (store_log.c, a leaf the backends and the rules call). */
void store_log_error(const char *where, const char *detail);

#endif
