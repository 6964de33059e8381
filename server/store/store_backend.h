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
 * - commit() runs a batch of writes in one transaction, each through
 *   store_rules_write and isolated so that one write's failure leaves the
 *   others to commit, sets every w->status (and the write's outputs) and
 *   returns after the commit is durable. It runs on the one writer thread
 *   only.
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

typedef struct store_backend {
    const char *name;
    /* true when this backend serves that `database` setting */
    bool (*claims)(const char *database);
    store_status (*open)(const store_config *cfg, store_db **out, char *err, size_t err_len);
    void (*close)(store_db *db);
    int (*schema_version)(store_db *db);

    void (*commit)(store_db *db, store_write **batch, int n);

    /* Every read (store_reads.c, store_admin.c) runs once for all
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
        .commit = prefix##_commit, .driver = &prefix##_driver, .readers = prefix##_readers,   \
        __VA_ARGS__                                                                           \
    }

extern const store_backend store_sqlite_backend;
extern const store_backend store_pg_backend;

/* One JSON line on stderr: {"event":"store_error","where":...,"detail":...}
 * (store_log.c, a leaf the backends and the rules call). */
void store_log_error(const char *where, const char *detail);

#endif
