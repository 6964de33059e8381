/*
 * store_backend: what a database must provide to be replayd's store, as a
 * struct of function pointers in the manner of sqlite3_vfs. store.c picks
 * the first backend in store_backends[] that claims the configured
 * `database` and calls nothing else of it; the handlers above never see a
 * backend at all.
 *
 * A backend keeps the rows; store.c keeps what is shared above them (the
 * writer queue and its batching, the boards in memory, the name cache).
 * Contract:
 * - commit() runs a batch of writes in one transaction, each isolated so
 *   that one write's failure leaves the others to commit, sets every
 *   w->status (and the write's outputs) and returns after the commit is
 *   durable. It runs on the one writer thread only.
 * - Every other function may be called from any thread at once.
 * - A failure a backend reports as STORE_ERROR is logged by the backend,
 *   once, where it happened (store_log_error).
 * - A backend that several nodes share offers the others' committed scores
 *   through watch() (the PostgreSQL backend: LISTEN/NOTIFY).
 *
 * Ownership: the backend owns its store_db and everything in it; close()
 * frees it all. load_board fills a caller-owned rank_board.
 */
#ifndef REPLAYD_SERVER_STORE_BACKEND_H
#define REPLAYD_SERVER_STORE_BACKEND_H

#include "rank.h"
#include "store.h"

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

    store_status (*player_by_token)(store_db *db, const uint8_t token_hash[STORE_HASH_BYTES],
                                    store_player *out);
    /* names[i] for ids[i]; "" for an id with no player */
    store_status (*player_names)(store_db *db, int n, const int64_t *ids,
                                 char (*names)[STORE_NAME_MAX + 1]);
    store_status (*score_get)(store_db *db, const uint8_t nonce[PLAY_NONCE_BYTES], store_score *out);
    store_status (*token_stats)(store_db *db, int64_t player_id, int64_t now,
                                store_token_stats *out);
    /* store_twin_candidates (store.h) */
    store_status (*twin_candidates)(store_db *db, const play *p,
                                    const uint8_t shape[STORE_HASH_BYTES], int limit,
                                    store_twin_candidate *out, int *n);
    /* store_scores_page and store_scores_count (store.h); a backend
     * without them leaves them NULL and re-verification answers STORE_ERROR */
    store_status (*scores_page)(store_db *db, const store_scan *scan, int64_t after_seq, int limit,
                                store_score *out, int *n);
    store_status (*scores_count)(store_db *db, const store_scan *scan, int64_t *out);
    /* every entry of board b as committed now, in any order */
    store_status (*load_board)(store_db *db, const store_board *b, rank_board *into);
    /* the operators' reads (store.h), answered from one snapshot */
    store_status (*admin_read)(store_db *db, const store_admin_query *q, json_t **out);
    /* Optional (NULL: only this process writes the database). Starts
     * telling w about other nodes' commits, until close(). */
    store_status (*watch)(store_db *db, const store_watch *w, char *err, size_t err_len);
} store_backend;

extern const store_backend store_sqlite_backend;
extern const store_backend store_pg_backend;

/* One JSON line on stderr: {"event":"store_error","where":...,"detail":...}. */
void store_log_error(const char *where, const char *detail);

#endif
