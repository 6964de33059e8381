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
 * PG_ATTEMPTS times). A batch first locks the rows of all the players its
 * writes act on, in id order (one statement; the same order on every
 * node), then runs its writes in arrival order, so two nodes' batches
 * touching the same players wait for each other rather than deadlock, and
 * the scores of one batch take their seq in the order the server received
 * them (ties are listed by arrival, as on SQLite). Writes that lock no
 * player (a registration, a sign-in, a nonce, a key) run before the lock,
 * in arrival order.
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

/* Runs the backend's statement id with one text parameter, its rows
 * dropped: a NOTIFY, the batch's player lock. */
static store_status run_text(pg_conn *c, int id, const char *text, const char *name)
{
    pg_args a = { 0 };
    pa_text(&a, text);
    store_status st = STORE_ERROR;
    PGresult *r = pg_run(c, id, &a, name, &st);
    if (!r)
        return st;
    PQclear(r);
    return STORE_OK;
}

/* Sends the payload gathered so far as one NOTIFY. */
static store_status notify_flush(pg_conn *c, char *payload, size_t *used)
{
    if (*used == 0)
        return STORE_OK;
    payload[*used] = '\0';
    *used = 0;
    return run_text(c, PG_NOTIFY, payload, "notify");
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

/* The batch's players (lock_player of each write, 0s left out), sorted
 * and distinct, as a PostgreSQL array literal ("{3,7,12}") into *out
 * (malloc'd; NULL when there is none or memory runs out: *oom). */
static int by_id(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static char *players_literal(store_write **batch, int n, bool *oom)
{
    *oom = false;
    int64_t *ids = malloc((size_t)n * sizeof *ids);
    char *out = malloc((size_t)n * 21 + 3);
    if (!ids || !out) {
        free(ids);
        free(out);
        *oom = true;
        return NULL;
    }
    int m = 0;
    for (int i = 0; i < n; i++) {
        int64_t id = lock_player(batch[i]);
        if (id > 0)
            ids[m++] = id;
    }
    qsort(ids, (size_t)m, sizeof *ids, by_id);
    size_t used = 0;
    out[used++] = '{';
    for (int i = 0; i < m; i++)
        if (i == 0 || ids[i] != ids[i - 1])
            used += (size_t)sprintf(out + used, "%s%lld", used > 1 ? "," : "", (long long)ids[i]);
    out[used++] = '}';
    out[used] = '\0';
    free(ids);
    if (m == 0) {
        free(out);
        return NULL;
    }
    return out;
}

/* One try of the batch in order[], skipping the writes marked in skip,
 * with the batch's players locked (players, an array literal, or NULL)
 * before order[locked_from]. Returns the index of a write that failed (the
 * transaction is then rolled back), n when the batch committed, n + 1
 * when the players' lock deadlocked (*retry; rolled back), or -1 when the
 * whole transaction failed (every write's status says how). */
static int attempt(store_db *db, pg_conn *c, store_write **batch, int n, const int *order, int locked_from,
                   const char *players, const bool *skip, bool *retry)
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
        if (o == locked_from && players) {
            st = run_text(c, PG_LOCK_PLAYERS, players, "lock_players"); /* id order */
            if (st != STORE_OK) { /* a lock timeout or a broken connection: the batch is not run */
                *retry = c->retry;
                if (PQtransactionStatus(c->pg) != PQTRANS_IDLE)
                    pg_exec(c, "ROLLBACK", "rollback");
                for (int k = 0; k < o; k++)
                    if (!skip[order[k]])
                        store_rules_forget(batch[order[k]]);
                if (*retry)
                    return n + 1; /* a deadlock: the whole batch again */
                for (int k = 0; k < n; k++)
                    if (!skip[k])
                        batch[k]->status = st == STORE_BUSY ? STORE_BUSY : STORE_ERROR;
                return -1;
            }
        }
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
    if (!skip || !order || !pg_usable(c)) {
        for (int i = 0; i < n; i++)
            batch[i]->status = skip && order ? STORE_BUSY : STORE_ERROR;
        free(skip);
        free(order);
        return;
    }
    /* Every node's batches take their player locks in one order (id
     * order, all at once, before the writes that act on a player), so two
     * batches touching the same players wait for each other instead of
     * deadlocking; the writes then run in arrival order, and so the seq
     * of a batch's scores follows it. */
    admin_players(c, batch, n);
    int locked_from = 0;
    for (int i = 0; i < n; i++)
        if (lock_player(batch[i]) == 0)
            order[locked_from++] = i;
    for (int i = 0, k = locked_from; i < n; i++)
        if (lock_player(batch[i]) != 0)
            order[k++] = i;
    bool oom;
    char *players = players_literal(batch, n, &oom);
    if (oom) {
        for (int i = 0; i < n; i++)
            batch[i]->status = STORE_ERROR;
        free(skip);
        free(order);
        return;
    }
    /* each round either commits, drops one failing write, or retries a
     * deadlocked batch: n + PG_ATTEMPTS rounds at most */
    int deadlocks = 0;
    for (int round = 0; round < n + PG_ATTEMPTS; round++) {
        bool retry;
        int at = attempt(db, c, batch, n, order, locked_from, players, skip, &retry);
        if (at == n || at < 0)
            break;
        if (retry && ++deadlocks < PG_ATTEMPTS)
            continue;
        if (at > n) { /* the lock deadlocked past PG_ATTEMPTS: the batch fails busy */
            for (int i = 0; i < n; i++)
                if (!skip[i])
                    batch[i]->status = STORE_BUSY;
            break;
        }
        /* that write fails alone (its status says how); the rest again */
        skip[at] = true;
        if (batch[at]->status == STORE_OK)
            batch[at]->status = STORE_ERROR;
    }
    free(players);
    free(skip);
    free(order);
}
