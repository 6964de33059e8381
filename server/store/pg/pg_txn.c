/*
 * pg_txn: what the PostgreSQL backend gives the store's transaction loop
 * (store_txn.c): its writer connection, the row locks of the batch's
 * players, the transaction's state after a write, which failures a rerun
 * may pass (a deadlock, a serialization failure), and the NOTIFY to the
 * other nodes before COMMIT. No savepoint per write: a failed write
 * aborts the transaction and the loop runs the batch again without it
 * (what SQLite's savepoint gives, without two more round trips a write).
 *
 * Every check that must hold across nodes is made by the database (the
 * row locks are the statements of pg_conn.c's table): the
 * token's row is locked (FOR UPDATE) before it is checked and redeemed, so
 * a second node redeeming it waits for the first commit and then reads it
 * redeemed (and scores_nonce, unique, refuses a second score whatever
 * happens); a player's row is locked before a score of theirs is checked
 * (the ban), before an operator's action on them, and before their token
 * limits are counted, so two nodes issuing to one player count each
 * other's tokens; rejection counts and quotas are updated in place under
 * the token's lock. A batch locks the rows of all the players its writes
 * act on in id order, in one statement (the same order on every node), so
 * two nodes' batches touching the same players wait for each other rather
 * than deadlock.
 *
 * Ownership: nothing outlives a call.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../store_rules.h"
#include "store_pg.h"

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
static store_status notify_scores(store_db *db, store_write *const *batch, const int *order, int n)
{
    pg_conn *c = &db->writer;
    char payload[7600];
    const size_t cap = sizeof payload - 1; /* and a NUL */
    size_t used = 0;
    enum { LINES = 16 };
    char lines[LINES][256];
    for (int o = 0; o < n; o++) {
        const store_write *w = batch[order[o]];
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

/* The player of each score an operator acts on, read before the batch
 * (a token's player never changes), so the action takes its place in the
 * lock order; 0 when there is no such score (the action then finds none). */
static void admin_players(store_db *db, store_write **batch, int n)
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
        PGresult *r = pg_run(&db->writer, PG_ADMIN_PLAYER_OF, &a, "admin_player_of", NULL);
        if (r && PQntuples(r) == 1)
            w->u.admin.player_id = pg_int(r, 0, 0);
        PQclear(r);
    }
}

/* The players' rows, locked in id order by one statement taking them as
 * an array literal ("{3,7,12}"). */
static store_status lock_players(store_db *db, const int64_t *ids, int n)
{
    char *literal = malloc((size_t)n * 21 + 3);
    if (!literal)
        return STORE_ERROR;
    size_t used = 0;
    literal[used++] = '{';
    for (int i = 0; i < n; i++)
        used += (size_t)sprintf(literal + used, "%s%lld", i ? "," : "", (long long)ids[i]);
    literal[used++] = '}';
    literal[used] = '\0';
    store_status st = run_text(&db->writer, PG_LOCK_PLAYERS, literal, "lock_players");
    free(literal);
    return st;
}

static sd_db writer(store_db *db, const store_config **cfg)
{
    *cfg = &db->cfg;
    return pg_db(&db->writer);
}

static store_txn_state state(store_db *db)
{
    PGconn *pg = db->writer.pg;
    if (!pg || PQstatus(pg) != CONNECTION_OK)
        return STORE_TXN_LOST;
    switch (PQtransactionStatus(pg)) {
    case PQTRANS_INTRANS:
        return STORE_TXN_OPEN;
    case PQTRANS_INERROR:
        return STORE_TXN_FAILED;
    case PQTRANS_IDLE:
        return STORE_TXN_NONE;
    default:
        return STORE_TXN_LOST;
    }
}

static bool retryable(store_db *db)
{
    return db->writer.retry;
}

static bool usable(store_db *db)
{
    return pg_usable(&db->writer);
}

const store_txn_hooks pg_txn = {
    .savepoints = false,
    .writer = writer,
    .state = state,
    .retryable = retryable,
    .usable = usable,
    .prepare = admin_players,
    .lock_players = lock_players,
    .before_commit = notify_scores,
};
