/*
 * sqlite_commit: the SQLite backend's commit(): a batch of writes in one
 * BEGIN IMMEDIATE transaction, each write inside its own SAVEPOINT (a
 * write's failure rolls back only its own work), one COMMIT (one fsync)
 * for all. The writes' rules are store_rules.c's; this file owns only
 * the transaction around them. Runs on the store's writer thread, on the
 * writer connection.
 */
#include <stdio.h>
#include <string.h>

#include "../store_rules.h"
#include "store_sqlite.h"

void sqlite_commit(store_db *db, store_write **batch, int n)
{
    conn *c = &db->writer;
    sd_db x = sq_db(c);
    int rc = sq_exec(c, SD_BEGIN);
    if (rc != SQLITE_OK) {
        store_status st = sqlite_driver.failed(x.c, "begin");
        for (int i = 0; i < n; i++)
            batch[i]->status = st;
        return;
    }
    bool aborted = false;
    for (int i = 0; i < n; i++) {
        store_write *w = batch[i];
        if (aborted) {
            w->status = STORE_ERROR;
            continue;
        }
        if (sq_exec(c, SD_SAVEPOINT) != SQLITE_OK) {
            w->status = sqlite_driver.failed(x.c, "savepoint");
            aborted = sqlite3_get_autocommit(c->db) != 0;
            continue;
        }
        w->status = store_rules_write(&x, &db->cfg, w);
        if (sqlite3_get_autocommit(c->db)) {
            /* SQLite rolled the whole transaction back (I/O error, full disk) */
            aborted = true;
            store_rules_forget(w);
            w->status = STORE_ERROR;
            continue;
        }
        /* a refused duplicate keeps its rejection row */
        if (w->status != STORE_OK && w->status != STORE_DUPLICATE)
            sq_exec(c, SD_ROLLBACK_TO);
        sq_exec(c, SD_RELEASE);
    }
    rc = aborted ? SQLITE_ABORT : sq_exec(c, SD_COMMIT);
    if (rc == SQLITE_OK)
        return;
    if (!aborted)
        store_log_error("commit", sqlite3_errmsg(c->db));
    if (!sqlite3_get_autocommit(c->db))
        sq_exec(c, SD_ROLLBACK);
    store_status st = sq_status(rc) == STORE_BUSY ? STORE_BUSY : STORE_ERROR;
    for (int i = 0; i < n; i++) {
        store_write *w = batch[i];
        store_rules_forget(w);
        if (w->status != STORE_ERROR && w->status != STORE_BUSY)
            w->status = st;
    }
}
