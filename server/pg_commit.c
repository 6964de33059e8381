/*
 * pg_commit: the PostgreSQL backend's commit(): a batch of writes in one
 * transaction (one WAL flush for all: group commit), answered only after
 * COMMIT returned. Runs on the store's writer thread, on the writer
 * connection.
 *
 * Every check that must hold across nodes is made by the database: the
 * token's row is locked (FOR UPDATE) before it is checked and redeemed, so
 * a second node redeeming it waits for the first commit and then reads it
 * redeemed (and scores_nonce, unique, refuses a second score whatever
 * happens); a player's row is locked before a score of theirs is checked
 * (the ban), before an operator's action on them, and before their token limits are
 * counted, so two nodes issuing to one player count each other's tokens;
 * rejection counts and quotas are updated in place under the token's lock.
 *
 * A write's expected refusals (conflict, limit, not found) are read before
 * it writes anything, so no savepoint is needed on the way that matters.
 * A statement that fails aborts PostgreSQL's transaction: the batch is
 * rolled back and run again without that write (which fails alone), or
 * again whole after a deadlock between nodes' batches (at most
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

#include "store_pg.h"

#define PG_ATTEMPTS 4

/* ---- players and tokens ---- */

static store_status run_player(pg_conn *c, store_write *w)
{
    if (strlen(w->u.player.name) > STORE_NAME_MAX)
        return STORE_ERROR;
    pg_args a = { 0 };
    pa_text(&a, w->u.player.name);
    pa_bytes(&a, w->u.player.token_hash, STORE_HASH_BYTES);
    pa_int(&a, w->u.player.now);
    pa_text(&a, w->u.player.prefix);
    store_status st = STORE_ERROR;
    PGresult *r = pg_run(c, PS_PLAYER_INSERT, &a, "player_insert", &st);
    if (!r)
        return st;
    bool inserted = PQntuples(r) == 1;
    store_player *p = &w->u.player.created;
    memset(p, 0, sizeof *p);
    if (inserted) {
        p->id = pg_int(r, 0, 0);
        snprintf(p->name, sizeof p->name, "%s", w->u.player.name);
        p->created_at = w->u.player.now;
    }
    PQclear(r);
    return inserted ? STORE_OK : STORE_CONFLICT; /* a taken token hash */
}

/* A level token's three caps (outstanding tokens; the day's forfeits,
 * abandons and open tokens of that game and level; the day's draws of that
 * game and level however their runs ended), counted under the player's
 * lock. */
static store_status check_level_limits(pg_conn *c, store_write *w)
{
    const store_token *t = &w->u.token.token;
    pg_args a = { 0 };
    pa_int(&a, t->p.player_id);
    pa_int(&a, w->u.token.now);
    pa_game(&a, &t->p);
    pa_int(&a, t->p.level);
    pa_int(&a, w->u.token.day_start);
    store_status st = STORE_ERROR;
    PGresult *r = pg_run(c, PS_TOKEN_LIMITS, &a, "token_limits", &st);
    if (!r)
        return st;
    int64_t outstanding = pg_int(r, 0, 0), shopped = pg_int(r, 0, 1), draws = pg_int(r, 0, 2);
    PQclear(r);
    w->u.token.draws = draws;
    if (outstanding >= w->u.token.max_outstanding) {
        w->u.token.limit = TOKEN_LIMIT_OUTSTANDING;
        return STORE_LIMIT;
    }
    /* the draw cap first: finishing a run does not lift it before the day ends */
    if (w->u.token.max_draws > 0 && draws >= w->u.token.max_draws) {
        w->u.token.limit = TOKEN_LIMIT_DRAWS;
        return STORE_LIMIT;
    }
    if (w->u.token.max_forfeits > 0 && shopped >= w->u.token.max_forfeits) {
        w->u.token.limit = TOKEN_LIMIT_FORFEITS;
        return STORE_LIMIT;
    }
    return STORE_OK;
}

static store_status run_token(pg_conn *c, store_write *w)
{
    const store_token *t = &w->u.token.token;
    store_status st = STORE_ERROR;
    pg_args a = { 0 };
    pa_int(&a, t->p.player_id);
    PGresult *r = pg_run(c, PS_PLAYER_LOCK, &a, "player_lock", &st);
    if (!r)
        return st;
    PQclear(r);
    if (play_is_daily(&t->p)) {
        a = (pg_args){ 0 };
        pa_int(&a, t->p.player_id);
        pa_date(&a, &t->p);
        r = pg_run(c, PS_TOKEN_DAILY, &a, "token_daily", &st);
        if (!r)
            return st;
        bool exists = PQntuples(r) > 0;
        bool readable = exists && pg_read_token(r, 0, &w->u.token.existing, NULL);
        PQclear(r);
        if (exists) {
            if (readable)
                return STORE_CONFLICT;
            store_log_error("token_daily", "a daily token row does not read back");
            return STORE_ERROR;
        }
    } else {
        st = check_level_limits(c, w);
        if (st != STORE_OK)
            return st;
    }
    a = (pg_args){ 0 };
    pa_bytes(&a, t->p.nonce, PLAY_NONCE_BYTES);
    pa_int(&a, t->p.player_id);
    pa_game(&a, &t->p);
    pa_int(&a, t->p.level);
    pa_int(&a, t->p.seed);
    pa_int(&a, t->p.version);
    pa_int(&a, t->issued_at);
    pa_int(&a, t->expires_at);
    pa_date(&a, &t->p);
    pa_text(&a, t->text);
    /* a repeated nonce is a caller bug, not a user conflict */
    r = pg_run(c, PS_TOKEN_INSERT, &a, "token_insert", &st);
    if (!r)
        return st;
    PQclear(r);
    return STORE_OK;
}

/* ---- rejections ---- */

/* The token's row, locked until the commit, its rejection count and, for
 * a score (sc), the seq of another player's earlier identical run (0 if
 * none):
 * STORE_NOT_FOUND when it is not on record, STORE_ERROR when it disagrees
 * with the play (the token was MAC-checked upstream: a bug that must not
 * reach a board). */
static store_status token_locked(pg_conn *c, const play *p, store_token *tok, int64_t *rejections,
                                 const store_score *sc, int64_t *duplicate_of)
{
    pg_args a = { 0 };
    pa_bytes(&a, p->nonce, PLAY_NONCE_BYTES);
    if (sc) { /* a score: the duplicate check in the same round trip */
        pa_int(&a, sc->p.seed);
        pa_bytes(&a, sc->moves_hash, STORE_HASH_BYTES);
        pa_game(&a, &sc->p);
        pa_int(&a, sc->p.level);
        pa_int(&a, sc->p.version);
        pa_int(&a, sc->p.player_id);
    }
    store_status st = STORE_ERROR;
    PGresult *r = pg_run(c, sc ? PS_SCORE_LOCK : PS_TOKEN_LOCK, &a, "token_lock", &st);
    if (!r)
        return st;
    if (PQntuples(r) == 0) {
        PQclear(r);
        return STORE_NOT_FOUND;
    }
    bool readable = pg_read_token(r, 0, tok, rejections);
    if (sc)
        *duplicate_of = pg_int(r, 0, 12);
    PQclear(r);
    if (!readable || tok->p.player_id != p->player_id || tok->p.g != p->g ||
        tok->p.level != p->level || tok->p.day != p->day || tok->p.seed != p->seed ||
        tok->p.version != p->version) {
        store_log_error("token_lock", "a play does not match its token's record");
        return STORE_ERROR;
    }
    return STORE_OK;
}

static bool burned(const store_db *db, int64_t rejections)
{
    return db->cfg.rejections_per_token > 0 && rejections >= db->cfg.rejections_per_token;
}

/* Whether this rejection's moves are kept: within the token's first
 * rejection_moves_per_token, then a unit of the player's daily quota
 * (taken in the database, so it holds across nodes). */
static store_status take_moves_quota(store_db *db, pg_conn *c, const store_rejection *r,
                                     int64_t earlier, bool *keep)
{
    const store_config *cfg = &db->cfg;
    *keep = cfg->rejection_moves_per_token <= 0 || earlier < cfg->rejection_moves_per_token;
    if (!*keep || cfg->rejection_moves_per_player_day <= 0)
        return STORE_OK;
    int64_t day = r->received_at / 86400000;
    pg_args a = { 0 };
    pa_int(&a, r->p.player_id);
    pa_int(&a, day);
    store_status st = STORE_ERROR;
    PGresult *res = pg_run(c, PS_QUOTA_PRUNE, &a, "quota_prune", &st); /* earlier days */
    if (!res)
        return st;
    PQclear(res);
    pa_int(&a, cfg->rejection_moves_per_player_day);
    res = pg_run(c, PS_QUOTA_TAKE, &a, "quota_take", &st);
    if (!res)
        return st;
    *keep = PQntuples(res) == 1;
    PQclear(res);
    return STORE_OK;
}

/* Keeps a rejection of an open token whose row this transaction holds:
 * nothing on a burned token (limit); otherwise the reason, index and hash,
 * the moves within quota, and the token's count goes up. */
static store_status record_rejection(store_db *db, pg_conn *c, store_rejection *r, int64_t earlier)
{
    if (burned(db, earlier))
        return STORE_LIMIT;
    bool keep;
    store_status st = take_moves_quota(db, c, r, earlier, &keep);
    if (st != STORE_OK)
        return st;
    pg_args a = { 0 };
    pa_bytes(&a, r->p.nonce, PLAY_NONCE_BYTES);
    pa_int(&a, r->p.player_id);
    pa_game(&a, &r->p);
    pa_int(&a, r->p.level);
    pa_int(&a, r->p.seed);
    pa_int(&a, r->p.version);
    pa_text(&a, r->reason);
    pa_int(&a, r->move_index);
    pa_int(&a, r->received_at);
    pa_bytes(&a, r->moves_hash, STORE_HASH_BYTES);
    pa_text(&a, keep && r->moves_json ? r->moves_json : "");
    PGresult *res = pg_run(c, PS_REJECTION_INSERT, &a, "rejection_insert", &st);
    if (!res)
        return st;
    PQclear(res);
    a = (pg_args){ 0 };
    pa_bytes(&a, r->p.nonce, PLAY_NONCE_BYTES);
    res = pg_run(c, PS_TOKEN_REJECTED, &a, "token_rejected", &st);
    if (!res)
        return st;
    PQclear(res);
    r->moves_kept = keep;
    r->burned = burned(db, earlier + 1);
    return STORE_OK;
}

/* A rejection on a token already redeemed is a conflict and not kept. */
static store_status run_rejection(store_db *db, pg_conn *c, store_write *w)
{
    store_rejection *r = &w->u.rejection.rejection;
    store_token tok;
    int64_t earlier = 0;
    /* the player's row first, as every write of theirs (the lock order) */
    pg_args a = { 0 };
    pa_int(&a, r->p.player_id);
    store_status st = STORE_ERROR;
    PGresult *res = pg_run(c, PS_PLAYER_LOCK, &a, "player_lock", &st);
    if (!res)
        return st;
    PQclear(res);
    st = token_locked(c, &r->p, &tok, &earlier, NULL, NULL);
    if (st != STORE_OK)
        return st;
    if (tok.redeemed)
        return STORE_CONFLICT;
    return record_rejection(db, c, r, earlier);
}

/* ---- scores ---- */

/* Locks the player's row and reads whether the player is banned. A ban
 * committed after the request was authenticated still holds: the check is
 * in the transaction, and a ban being committed on another node is waited
 * for. The player before the token, as the batch's lock order has it. */
static store_status lock_banned(pg_conn *c, int64_t player_id, bool *banned)
{
    pg_args a = { 0 };
    pa_int(&a, player_id);
    store_status st = STORE_ERROR;
    PGresult *r = pg_run(c, PS_PLAYER_BANNED, &a, "player_banned", &st);
    if (!r)
        return st;
    *banned = PQntuples(r) == 1 && pg_bool(r, 0, 0);
    PQclear(r);
    return STORE_OK;
}

static store_status run_score(store_db *db, pg_conn *c, store_write *w)
{
    store_score *sc = &w->u.score.score;
    store_token tok;
    int64_t rejections = 0, original = 0;
    bool banned = false;
    store_status st = lock_banned(c, sc->p.player_id, &banned);
    if (st != STORE_OK)
        return st;
    st = token_locked(c, &sc->p, &tok, &rejections, sc, &original);
    if (st != STORE_OK)
        return st;
    if (tok.redeemed) {
        /* also a second submission of one token in one batch, or one that
         * waited here for another node's commit */
        st = pg_score_by_nonce(c, sc->p.nonce, &w->u.score.existing, "score_by_nonce");
        if (st == STORE_OK)
            return STORE_CONFLICT;
        if (st == STORE_NOT_FOUND)
            store_log_error("score_by_nonce", "a redeemed token has no score");
        return st == STORE_BUSY ? STORE_BUSY : STORE_ERROR;
    }
    if (burned(db, rejections))
        return STORE_LIMIT;
    /* after the token's own refusals, as on SQLite */
    if (banned)
        return STORE_BANNED;
    /* a run identical to another player's earlier one: a timed one is
     * refused and kept as a rejection, an untimed one held for review */
    sc->duplicate_of = original;
    sc->status = original ? SCORE_HELD : SCORE_RANKED;
    if (original && sc->timed) {
        store_rejection rej = { .p = sc->p, .reason = "duplicate_run", .move_index = -1,
                                .received_at = sc->received_at, .moves_json = sc->moves_json };
        memcpy(rej.moves_hash, sc->moves_hash, STORE_HASH_BYTES);
        st = record_rejection(db, c, &rej, rejections);
        return st == STORE_OK ? STORE_DUPLICATE : st;
    }
    /* at review_hold_threshold: off the boards until approved */
    if (sc->duplicate_of)
        sc->suspicion += sc->duplicate_weight;
    if ((sc->review_threshold > 0 && sc->suspicion >= sc->review_threshold) || sc->hold)
        sc->status = SCORE_HELD;
    pg_args a = { 0 };
    pa_text(&a, sc->score_id);
    pa_bytes(&a, sc->p.nonce, PLAY_NONCE_BYTES);
    pa_int(&a, sc->p.player_id);
    pa_game(&a, &sc->p);
    pa_int(&a, sc->p.level);
    pa_int(&a, sc->p.seed);
    pa_int(&a, sc->p.version);
    pa_date(&a, &sc->p);
    pa_int(&a, sc->score);
    pa_bool(&a, sc->completed);
    pa_int(&a, sc->received_at);
    pa_bytes(&a, sc->moves_hash, STORE_HASH_BYTES);
    pa_text(&a, sc->receipt);
    pa_text(&a, sc->moves_json ? sc->moves_json : "");
    pa_text(&a, sc->result_json ? sc->result_json : "");
    pa_text(&a, pg_status_text(sc->status));
    pa_text(&a, sc->signals_json ? sc->signals_json : "{}");
    if (sc->duplicate_of)
        pa_int(&a, sc->duplicate_of);
    else
        pa_null(&a);
    pa_text(&a, pg_outcome_text(sc->outcome));
    /* a daily score's board is read from the scores table itself; a level
     * score may become the player's best on its level board */
    pa_bool(&a, !play_is_daily(&sc->p) && sc->status == SCORE_RANKED);
    pa_int(&a, sc->suspicion);
    if (sc->has_shape)
        pa_bytes(&a, sc->shape_hash, STORE_HASH_BYTES);
    else
        pa_null(&a);
    if (sc->twin_of)
        pa_int(&a, sc->twin_of);
    else
        pa_null(&a);
    PGresult *r = pg_run(c, PS_SCORE_REDEEM, &a, "score_redeem", &st);
    if (!r)
        return st;
    bool redeemed = PQntuples(r) == 1;
    sc->seq = redeemed ? pg_int(r, 0, 0) : 0;
    PQclear(r);
    if (redeemed && sc->twin_of) {
        pg_args ta = { 0 };
        pa_int(&ta, sc->seq);
        pa_int(&ta, sc->twin_weight);
        pa_int(&ta, sc->twin_of);
        PGresult *tr = pg_run(c, PS_SCORE_TWIN, &ta, "score_twin", &st);
        if (!tr)
            return st;
        PQclear(tr);
    }
    if (!redeemed) { /* cannot happen under the row lock: say so, undo it all */
        store_log_error("score_redeem", "the locked token was redeemed meanwhile");
        pg_exec(c, "SELECT 1/0", "score_redeem_abort");
        return STORE_ERROR;
    }
    return STORE_OK;
}

static store_status run_write(store_db *db, pg_conn *c, store_write *w)
{
    switch (w->kind) {
    case STORE_WRITE_SCORE:
        return run_score(db, c, w);
    case STORE_WRITE_PLAYER:
        return run_player(c, w);
    case STORE_WRITE_TOKEN:
        return run_token(c, w);
    case STORE_WRITE_REJECTION:
        return run_rejection(db, c, w);
    case STORE_WRITE_ADMIN:
        return pg_run_admin(c, w);
    }
    return STORE_ERROR;
}

/* Drops what a write filled for its caller when its work is undone. */
static void forget_outputs(store_write *w)
{
    if (w->kind == STORE_WRITE_SCORE) {
        store_score_clear(&w->u.score.existing);
        w->u.score.score.seq = 0;
    }
    if (w->kind == STORE_WRITE_ADMIN)
        store_admin_clear(w);
}

/* ---- the batch ---- */

/* The NOTIFY lines of one committed write, into out: a ranked score's
 * entry, or each board change of an operator's action (and a rename).
 * Their count; a line that does not fit is left out (0 bytes). */
static int write_lines(const store_db *db, const store_write *w, char lines[][256], int max)
{
    if (w->status != STORE_OK)
        return 0;
    if (w->kind == STORE_WRITE_SCORE)
        return w->u.score.score.status == SCORE_RANKED &&
               pg_notify_line(db, &w->u.score.score, lines[0], sizeof lines[0]) > 0;
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
    PGresult *r = pg_run(c, PS_NOTIFY, &a, "notify", &st);
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
    case STORE_WRITE_PLAYER:
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
        PGresult *r = pg_query(c, "SELECT player_id FROM seed_tokens WHERE nonce = $1", &a,
                               "admin_player_of", NULL);
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
        batch[i]->status = run_write(db, c, batch[i]);
        if (PQtransactionStatus(c->pg) != PQTRANS_INTRANS) {
            /* a statement failed: PostgreSQL aborted the transaction */
            *retry = c->retry;
            pg_exec(c, "ROLLBACK", "rollback");
            for (int k = 0; k <= o; k++)
                if (!skip[order[k]])
                    forget_outputs(batch[order[k]]);
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
        forget_outputs(batch[k]);
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
