/*
 * sqlite_txn: what the SQLite backend gives the store's transaction loop
 * (store_txn.c): its writer connection, a SAVEPOINT per write (a write's
 * failure rolls back only its own work; the statements are SD_BEGIN's
 * BEGIN IMMEDIATE and the rest of sqlite_conn.c's table), and the
 * transaction's state after a write. One writer holds the whole file, so
 * there is no row to lock and nothing to tell other processes.
 */
#include "store_sqlite.h"

static sd_db writer(store_db *db, const store_config **cfg)
{
    *cfg = &db->cfg;
    return sq_db(&db->writer);
}

/* SQLite ends the transaction itself after an I/O error or a full disk. */
static store_txn_state state(store_db *db)
{
    return sqlite3_get_autocommit(db->writer.db) ? STORE_TXN_NONE : STORE_TXN_OPEN;
}

/* BEGIN IMMEDIATE took the file: no deadlock to run again from. */
static bool retryable(store_db *db)
{
    (void)db;
    return false;
}

const store_txn_hooks sqlite_txn = {
    .savepoints = true,
    .writer = writer,
    .state = state,
    .retryable = retryable,
};
