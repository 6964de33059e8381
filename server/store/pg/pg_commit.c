/*
 * pg_commit: the PostgreSQL backend's commit(): a batch of writes in one
 * transaction (one WAL flush for all: group commit), answered only after
 * COMMIT returned. The writes' rules are store_rules.c's; this file owns
 * what PostgreSQL adds around them: the batch's lock order, the rerun
 * without a failed write, and the NOTIFY to the other nodes. Runs on the
 * store's writer thread, on the writer connection.
 *
 * Every check that must hold across nodes is made by the database (the
 * row locks are the statements of pg_conn.c's table): the
 * token's row is locked (FOR UPDATE) before it is checked and redeemed, so
 * a second node redeeming it waits for the first commit and then reads it
 * redeemed (and scores_nonce, unique, refuses a second score whatever
 * happens); a player's row is locked before a score of theirs is checked
 * (the ban), before an operator's action on them, and before their token limits are
 * counted, so two nodes issuing to one player count each other's tokens;
 * rejection counts and quotas are updated in place under the token's lock.
 *
 * A write's expected refusals (conflict, limit, not found, banned) are
 * read before it writes anything, so no savepoint is needed on the way
 * that matters. A statement that fails aborts PostgreSQL's transaction,
 * and a write that answers STORE_ERROR or STORE_BUSY may have written
 * before it failed (an action that settles a board it cannot read): in
 * both cases the batch is rolled back and run again without that write
 * (which fails alone, nothing of it kept: what SQLite's savepoint gives),
 * or again whole after a deadlock between nodes' batches (at most
 * PG_ATTEMPTS times). Writes run in player order, the same on every node,
 * and each locks its player's row before any other row of theirs, so two
 * nodes' batches touching the same players wait for each other rather
 * than deadlock.
 *
 * Ownership: nothing outlives a call but what the writes' outputs hold
 * (an existing score's strings, the caller's to clear).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../store_rules.h"
#include "store_pg.h"

#define PG_ATTEMPTS 4

/* ---- the batch ---- */

/* The NOTIFY lines of one committed write, into out: a ranked score's
 * entry (after the board change of the twin it held, if any), or each
 * board change of an operator's action (and a rename).
 * Their count; a line that does not fit is left out (0 bytes). */
static int write_lines(const store_db *db, const store_write *w, char lines[][256], int max)
{
    if (w->status != STORE_OK)
        return 0;
    if (w->kind == STORE_WRITE_SCORE) {
        int k = 0; /* the earlier run of a twin pair leaves its board first */
        if (w->u.score.twin_changed && k < max)
            k += pg_notify_change(db, &w->u.score.twin_change, lines[k], sizeof lines[k]) > 0;
        if (w->u.score.score.status == SCORE_RANKED && k < max)
            k += pg_notify_line(db, &w->u.score.score, lines[k], sizeof lines[k]) > 0;
        return k;
    }
    if (w->kind != STORE_WRITE_ADMIN)
        return 0;
    int k = 0;
    for (int i = 0; i < w->u.admin.n_changes && k < max; i++)
        k += pg_notify_change(db, &w->u.admin.changes[i], lines[k], sizeof lines[k]) > 0;
    if (w->u.admin.action == ADMIN_RENAME && k < max)
        k += pg_notify_rename(db, w->u.admin.player_id, lines[k], sizeof lines[k]) > 0;
    return k;
}

/* Sends the payload gathered so far as one NOTIFY. */
static store_status notify_flush(pg_conn *c, char *payload, size_t *used)
{
    if (*used == 0)
        return STORE_OK;
    payload[*used] = '\0';
    *used = 0;
    pg_args a = { 0 };
    pa_text(&a, payload);
    store_status st = STORE_ERROR;
    PGresult *r = pg_run(c, PG_NOTIFY, &a, "notify", &st);
    if (!r)
        return st;
    PQclear(r);
    return STORE_OK;
}

/* One NOTIFY per up to ~7.5 kB of payload lines (PostgreSQL's limit is
 * 8000 bytes): every ranked score the batch committed and every board an
 * operator's action changed, in the order they ran, for the other nodes'
 * boards. Sent inside the transaction: delivered at its commit. */
static store_status notify_scores(store_db *db, pg_conn *c, store_write **batch, int n,
                                  const int *order, const bool *skip)
{
    char payload[7600];
    const size_t cap = sizeof payload - 1; /* and a NUL */
    size_t used = 0;
    enum { LINES = 16 };
    char lines[LINES][256];
    for (int o = 0; o < n; o++) {
        const store_write *w = batch[order[o]];
        if (skip[order[o]])
            continue;
        int k = write_lines(db, w, lines, LINES);
        /* an action on more boards than that: the other nodes resync */
        if (w->kind == STORE_WRITE_ADMIN && w->status == STORE_OK && w->u.admin.n_changes >= LINES)
            k = pg_notify_resync(db, lines[0], sizeof lines[0]) > 0;
        for (int j = 0; j < k; j++) {
            size_t len = strlen(lines[j]);
            if (used > 0 && used + len + 1 > cap) {
                store_status st = notify_flush(c, payload, &used);
                if (st != STORE_OK)
                    return st;
            }
            if (used)
                payload[used++] = '\n';
            memcpy(payload + used, lines[j], len);
            used += len;
        }
    }
    return notify_flush(c, payload, &used);
}

/* The player whose row a write locks first (0 for a registration): the
 * key of the batch's lock order. */
static int64_t lock_player(const store_write *w)
{
    switch (w->kind) {
    case STORE_WRITE_TOKEN:
        return w->u.token.token.p.player_id;
    case STORE_WRITE_SCORE:
        return w->u.score.score.p.player_id;
    case STORE_WRITE_REJECTION:
        return w->u.rejection.rejection.p.player_id;
    case STORE_WRITE_ADMIN: /* a score action's player: admin_players() */
        return w->u.admin.player_id;
    case STORE_WRITE_PLAYER: /* a link locks its identity (SD_IDENTITY_LOCK), not the player */
    case STORE_WRITE_KEY:
    case STORE_WRITE_NONCE:
        break;
    }
    return 0;
}

/* The player of each score an operator acts on, read before the batch
 * (a token's player never changes), so the action takes its place in the
 * lock order; 0 when there is no such score (the action then finds none). */
static void admin_players(pg_conn *c, store_write **batch, int n)
{
    for (int i = 0; i < n; i++) {
        store_write *w = batch[i];
        if (w->kind != STORE_WRITE_ADMIN || (w->u.admin.action != ADMIN_VOID &&
                                             w->u.admin.action != ADMIN_RESTORE &&
                                             w->u.admin.action != ADMIN_APPROVE))
            continue;
        w->u.admin.player_id = 0;
        pg_args a = { 0 };
        pa_bytes(&a, w->u.admin.nonce, PLAY_NONCE_BYTES);
        PGresult *r = pg_run(c, PG_ADMIN_PLAYER_OF, &a, "admin_player_of", NULL);
        if (r && PQntuples(r) == 1)
            w->u.admin.player_id = pg_int(r, 0, 0);
        PQclear(r);
    }
}

/* A write's place in the batch's lock order. */
typedef struct lock_key {
    int64_t player;
    int index;
} lock_key;

/* By player; one player's writes in the queue's order, which is the order
 * store.c applies their board changes in. */
static int by_lock_key(const void *a, const void *b)
{
    const lock_key *x = a, *y = b;
    if (x->player != y->player)
        return x->player < y->player ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

/* One try of the batch, skipping the writes marked in skip. Returns the
 * index of a write whose statement failed (the transaction is then
 * rolled back), n when the batch committed, or -1 when the whole
 * transaction failed (every write's status says how). */
static int attempt(store_db *db, pg_conn *c, store_write **batch, int n, const int *order,
                   const bool *skip, bool *retry)
{
    *retry = false;
    sd_db x = pg_db(c);
    store_status st = pg_exec(c, "BEGIN", "begin");
    if (st != STORE_OK) {
        for (int i = 0; i < n; i++)
            if (!skip[i])
                batch[i]->status = st;
        return -1;
    }
    for (int o = 0; o < n; o++) {
        int i = order[o];
        if (skip[i])
            continue;
        batch[i]->status = store_rules_write(&x, &db->cfg, batch[i]);
        /* a statement failed (PostgreSQL aborted the transaction), or the
         * write failed after it may have written (store_rules.h: only a
         * refusal is decided before any row changes): undo the batch and
         * run it again without this write, as SQLite's savepoint undoes
         * it alone */
        bool failed = batch[i]->status == STORE_ERROR || batch[i]->status == STORE_BUSY;
        if (PQtransactionStatus(c->pg) != PQTRANS_INTRANS || failed) {
            *retry = c->retry;
            pg_exec(c, "ROLLBACK", "rollback");
            for (int k = 0; k <= o; k++)
                if (!skip[order[k]])
                    store_rules_forget(batch[order[k]]);
            if (PQstatus(c->pg) != CONNECTION_OK) {
                for (int k = 0; k < n; k++)
                    if (!skip[k])
                        batch[k]->status = STORE_BUSY;
                return -1;
            }
            return i;
        }
    }
    st = notify_scores(db, c, batch, n, order, skip);
    if (st == STORE_OK)
        st = pg_exec(c, "COMMIT", "commit");
    if (st == STORE_OK)
        return n;
    /* COMMIT failed or never ran: nothing of the batch is durable (or, when
     * the connection broke during COMMIT, unknown: the client's retry
     * finds the score and is answered as a retry) */
    if (PQtransactionStatus(c->pg) != PQTRANS_IDLE)
        pg_exec(c, "ROLLBACK", "rollback");
    for (int k = 0; k < n; k++) {
        if (skip[k])
            continue;
        store_rules_forget(batch[k]);
        batch[k]->status = st == STORE_BUSY ? STORE_BUSY : STORE_ERROR;
    }
    return -1;
}

void pg_commit(store_db *db, store_write **batch, int n)
{
    pg_conn *c = &db->writer;
    bool *skip = calloc((size_t)n, sizeof *skip);
    int *order = calloc((size_t)n, sizeof *order);
    lock_key *keys = calloc((size_t)n, sizeof *keys);
    if (!skip || !order || !keys || !pg_usable(c)) {
        for (int i = 0; i < n; i++)
            batch[i]->status = skip && order && keys ? STORE_BUSY : STORE_ERROR;
        free(skip);
        free(order);
        free(keys);
        return;
    }
    /* Every node's batches take their row locks in one order: by player,
     * each write locking its player's row before anything else of theirs
     * (a token, a score), so two batches touching the same players wait
     * for each other instead of deadlocking. Within a batch the seq order
     * follows it. */
    admin_players(c, batch, n);
    for (int i = 0; i < n; i++) {
        keys[i].player = lock_player(batch[i]);
        keys[i].index = i;
    }
    qsort(keys, (size_t)n, sizeof *keys, by_lock_key);
    for (int i = 0; i < n; i++)
        order[i] = keys[i].index;
    free(keys);
    /* each round either commits, drops one failing write, or retries a
     * deadlocked batch: n + PG_ATTEMPTS rounds at most */
    int deadlocks = 0;
    for (int round = 0; round < n + PG_ATTEMPTS; round++) {
        bool retry;
        int at = attempt(db, c, batch, n, order, skip, &retry);
        if (at == n || at < 0)
            break;
        if (retry && ++deadlocks < PG_ATTEMPTS)
            continue;
        /* that write fails alone (its status says how); the rest again */
        skip[at] = true;
        if (batch[at]->status == STORE_OK)
            batch[at]->status = STORE_ERROR;
    }
    free(skip);
    free(order);
}
