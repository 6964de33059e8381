/*
 * store_txn: the store's one transaction loop, run on the writer thread
 * for each batch the write queue hands over, the same for every backend:
 * the batch's order (writes that lock no player first, then the rest, in
 * arrival order within each; the players locked in id order between
 * them), BEGIN, each write through store_rules_write isolated from the
 * others, the backend's before-commit hook, COMMIT. The backend gives
 * hooks (store_backend.h, store_txn_hooks) and runs the transaction's
 * statements (SD_BEGIN ... SD_ROLLBACK_TO) through its driver; it never
 * calls up into this loop.
 *
 * After it returns every write's status is set: what its rule answered
 * when the batch committed; STORE_ERROR or STORE_BUSY for a write that
 * failed alone (nothing of it kept) or for all when the transaction did
 * not commit. A write's outputs for its caller (store_rules.h) are
 * dropped whenever its work is undone.
 */
#ifndef REPLAYD_SERVER_STORE_TXN_H
#define REPLAYD_SERVER_STORE_TXN_H

#include "store_backend.h"

void store_txn_run(const store_backend *be, store_db *db, store_write **batch, int n);

#endif
