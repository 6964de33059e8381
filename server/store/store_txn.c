/*
 * store_txn: the store's one transaction loop, above both backends (see
 * store_txn.h). A batch of writes runs in one transaction:
 *
 *   order    writes that lock no player (a registration, a sign-in, a
 *            nonce, a key) first, then the rest, each group in arrival
 *            order; the batch's players' rows are locked in id order, all
 *            at once, between the two (the backend's lock_players hook:
 *            the same order on every node, so two nodes' batches wait for
 *            each other rather than deadlock);
 *   begin    SD_BEGIN;
 *   each     the write through store_rules_write, isolated: inside its own
 *            SD_SAVEPOINT when the backend has them per write (a failed or
 *            refused write rolls back to it; a refused duplicate keeps its
 *            rejection row), else a failed write aborts the transaction and
 *            the batch runs again without it;
 *   seal     when a write appended a score log leaf, the log's seal
 *            (store_logseal: the new checkpoint, in this transaction);
 *   before   the backend's before_commit hook (PostgreSQL's NOTIFY);
 *   commit   SD_COMMIT: every write's status was set by its rule and is
 *            kept; a failed commit turns them into its own failure.
 *
 * The engine itself may end the transaction under a write (SQLite after an
 * I/O error, PostgreSQL after any failed statement): the batch is then
 * rolled back and run again without that write; a deadlock between two
 * nodes' batches runs the whole batch again (STORE_TXN_ATTEMPTS in all);
 * a lost connection fails what is left STORE_BUSY. Each round commits,
 * drops one write or retries, so n + STORE_TXN_ATTEMPTS rounds bound it.
 */
#include "store_txn.h"

#include <stdlib.h>

#include "store_rules.h"

#define STORE_TXN_ATTEMPTS 4

typedef struct txn_run {
    const store_backend *be;
    store_db *db;
    sd_db x;
    const store_config *cfg;
    store_write **batch;
    int n;
    int *order;      /* the writes in the order they run */
    int locked_from; /* order[] from here locks a player */
    int64_t *ids;    /* the batch's players, sorted and distinct */
    int n_ids;
    bool *skip;      /* failed alone in an earlier round */
    store_write **logged; /* the writes that appended a leaf (logged()) */
    int retry_at;    /* the write a deadlock ended (-1: the players' lock) */
} txn_run;

/* Ends with the driver's status, logged under id's name. */
static store_status exec(const txn_run *t, sd_id id)
{
    sd_stmt *s = t->x.d->start(t->x.c, id);
    if (!s)
        return sd_failed(&t->x, NULL, id);
    return sd_run(&t->x, s, id);
}

/* The player whose row a write locks first (0: none; an operator's score
 * action's player is filled by the backend's prepare hook, or 0). */
static int64_t lock_player(const store_write *w)
{
    switch (w->kind) {
    case STORE_WRITE_TOKEN:
        return w->u.token.token.p.player_id;
    case STORE_WRITE_SCORE:
        return w->u.score.score.p.player_id;
    case STORE_WRITE_REJECTION:
        return w->u.rejection.rejection.p.player_id;
    case STORE_WRITE_ADMIN:
        return w->u.admin.player_id;
    case STORE_WRITE_PLAYER: /* a link locks its identity (SD_IDENTITY_LOCK), not the player */
    case STORE_WRITE_KEY:
    case STORE_WRITE_NONCE:
    case STORE_WRITE_LOG_SEAL:
        break;
    }
    return 0;
}

static int by_id(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* order[], locked_from and the sorted, distinct ids[]. */
static void plan(txn_run *t)
{
    int k = 0;
    for (int i = 0; i < t->n; i++)
        if (lock_player(t->batch[i]) == 0)
            t->order[k++] = i;
    t->locked_from = k;
    for (int i = 0; i < t->n; i++)
        if (lock_player(t->batch[i]) != 0)
            t->order[k++] = i;
    int m = 0;
    for (int i = 0; i < t->n; i++)
        if (lock_player(t->batch[i]) != 0)
            t->ids[m++] = lock_player(t->batch[i]);
    qsort(t->ids, (size_t)m, sizeof *t->ids, by_id);
    t->n_ids = 0;
    for (int i = 0; i < m; i++)
        if (i == 0 || t->ids[i] != t->ids[i - 1])
            t->ids[t->n_ids++] = t->ids[i];
}

/* Every write not skipped: its work undone (the first `upto` of order[],
 * or all when upto is n) and, when st is not OK, its status. */
static void undo(const txn_run *t, int upto, store_status st)
{
    for (int o = 0; o < t->n; o++) {
        store_write *w = t->batch[t->order[o]];
        if (t->skip[t->order[o]])
            continue;
        if (o < upto)
            store_rules_forget(w);
        if (st != STORE_OK)
            w->status = st;
    }
}

/* Rolls back whatever the engine still holds open. */
static void rollback(const txn_run *t)
{
    if (t->be->txn->state(t->db) != STORE_TXN_NONE)
        exec(t, SD_ROLLBACK);
}

enum { TXN_COMMITTED = -1, TXN_FAILED = -2, TXN_RETRY = -3 };

/* The write at order[o] has run (or its savepoint failed) and the
 * transaction cannot go on with it: TXN_RETRY after a deadlock, else the
 * index of the write that fails alone; TXN_FAILED when the connection is
 * lost. Everything run so far is undone. */
static int abandon(txn_run *t, int o, store_txn_state state)
{
    bool retry = t->be->txn->retryable(t->db);
    t->retry_at = t->order[o];
    if (state == STORE_TXN_LOST) {
        undo(t, o + 1, STORE_BUSY);
        return TXN_FAILED;
    }
    rollback(t);
    undo(t, o + 1, STORE_OK);
    return retry ? TXN_RETRY : t->order[o];
}

/* One write in the open transaction; -1 to go on, else as abandon(). */
static int run_one(txn_run *t, int o)
{
    const store_txn_hooks *h = t->be->txn;
    store_write *w = t->batch[t->order[o]];
    if (h->savepoints) {
        store_status st = exec(t, SD_SAVEPOINT);
        if (st != STORE_OK) {
            w->status = st;
            return abandon(t, o, h->state(t->db));
        }
    }
    w->status = store_rules_write(&t->x, t->cfg, w);
    store_txn_state state = h->state(t->db);
    bool failed = w->status == STORE_ERROR || w->status == STORE_BUSY;
    if (state != STORE_TXN_OPEN || (failed && !h->savepoints))
        return abandon(t, o, state);
    if (h->savepoints) {
        if (w->status != STORE_OK && w->status != STORE_DUPLICATE)
            exec(t, SD_ROLLBACK_TO);
        exec(t, SD_RELEASE);
    }
    return -1;
}

/* The batch's players locked, before order[locked_from]; -1 to go on,
 * else TXN_RETRY after a deadlock or TXN_FAILED (every write's status
 * says how). */
static int lock_players(txn_run *t, int o)
{
    const store_txn_hooks *h = t->be->txn;
    if (!h->lock_players || t->n_ids == 0)
        return -1;
    store_status st = h->lock_players(t->db, t->ids, t->n_ids);
    if (st == STORE_OK)
        return -1;
    bool retry = h->retryable(t->db);
    t->retry_at = -1;
    if (h->state(t->db) != STORE_TXN_LOST)
        rollback(t);
    undo(t, o, retry ? STORE_OK : st == STORE_BUSY ? STORE_BUSY : STORE_ERROR);
    return retry ? TXN_RETRY : TXN_FAILED;
}

/* The writes that will commit and appended a score log leaf, into
 * t->logged; when there is one the transaction holds log_head's row and
 * seals (store_logseal). */
static int logged(txn_run *t)
{
    int n = 0;
    for (int i = 0; i < t->n; i++) {
        store_write *w = t->batch[i];
        if (!t->skip[i] && w->logged && (w->status == STORE_OK || w->status == STORE_DUPLICATE))
            t->logged[n++] = w;
    }
    return n;
}

/* One try of the batch: TXN_COMMITTED, TXN_FAILED (every write's status
 * says how), TXN_RETRY (rolled back: a deadlock) or the index of a write
 * that fails alone (rolled back: the batch runs again without it). */
static int attempt(txn_run *t)
{
    const store_txn_hooks *h = t->be->txn;
    store_status st = exec(t, SD_BEGIN);
    if (st != STORE_OK) {
        rollback(t);
        undo(t, 0, st);
        return TXN_FAILED;
    }
    for (int o = 0; o < t->n; o++) {
        int at = o == t->locked_from ? lock_players(t, o) : -1;
        if (at == -1 && !t->skip[t->order[o]])
            at = run_one(t, o);
        if (at != -1)
            return at;
    }
    int n_logged = logged(t);
    st = n_logged ? store_logseal(&t->x, &t->cfg->log, t->logged, n_logged) : STORE_OK;
    if (st == STORE_OK && h->before_commit)
        st = h->before_commit(t->db, t->batch, t->order, t->n);
    if (st == STORE_OK)
        st = exec(t, SD_COMMIT);
    if (st == STORE_OK)
        return TXN_COMMITTED;
    /* nothing of the batch is durable (or, when the connection broke
     * during COMMIT, unknown: a client's retry finds its score and is
     * answered as a retry); a write that failed alone keeps its status */
    if (h->state(t->db) != STORE_TXN_LOST)
        rollback(t);
    for (int i = 0; i < t->n; i++) {
        store_write *w = t->batch[i];
        if (t->skip[i])
            continue;
        store_rules_forget(w);
        if (w->status != STORE_ERROR && w->status != STORE_BUSY)
            w->status = st == STORE_BUSY ? STORE_BUSY : STORE_ERROR;
    }
    return TXN_FAILED;
}

void store_txn_run(const store_backend *be, store_db *db, store_write **batch, int n)
{
    const store_txn_hooks *h = be->txn;
    txn_run t = { .be = be, .db = db, .batch = batch, .n = n };
    t.x = h->writer(db, &t.cfg);
    t.order = calloc((size_t)n, sizeof *t.order);
    t.ids = calloc((size_t)n, sizeof *t.ids);
    t.skip = calloc((size_t)n, sizeof *t.skip);
    t.logged = calloc((size_t)n, sizeof *t.logged);
    bool usable = !h->usable || h->usable(db);
    if (!t.order || !t.ids || !t.skip || !t.logged || !usable) {
        for (int i = 0; i < n; i++)
            batch[i]->status = usable ? STORE_ERROR : STORE_BUSY;
        goto out;
    }
    if (h->prepare)
        h->prepare(db, batch, n);
    plan(&t);
    int deadlocks = 0;
    for (int round = 0; round < n + STORE_TXN_ATTEMPTS; round++) {
        int at = attempt(&t);
        if (at == TXN_COMMITTED || at == TXN_FAILED)
            break;
        if (at == TXN_RETRY && ++deadlocks < STORE_TXN_ATTEMPTS)
            continue;
        if (at == TXN_RETRY && t.retry_at < 0) { /* the lock deadlocked past the attempts */
            undo(&t, 0, STORE_BUSY);
            break;
        }
        if (at == TXN_RETRY) /* a write deadlocked past them: it fails alone */
            at = t.retry_at;
        /* that write fails alone (its status says how); the rest again */
        t.skip[at] = true;
        if (batch[at]->status == STORE_OK || batch[at]->status == STORE_DUPLICATE)
            batch[at]->status = STORE_ERROR;
    }
out:
    free(t.order);
    free(t.ids);
    free(t.skip);
    free(t.logged);
}
