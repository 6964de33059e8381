/*
 * sqlite_commit: the SQLite backend's commit(): a batch of writes in one
 * BEGIN IMMEDIATE transaction, each write inside its own SAVEPOINT (a
 * write's failure rolls back only its own work), one COMMIT (one fsync)
 * for all. Runs on the store's writer thread, on the writer connection.
 */
#include <stdio.h>
#include <string.h>

#include "store_sqlite.h"

/* A statement's failure as a status: BUSY stays BUSY, the rest is an error
 * logged here, once. */
static store_status failed(conn *c, int rc, const char *where)
{
    store_status st = sq_status(rc);
    if (st == STORE_BUSY)
        return STORE_BUSY;
    store_log_error(where, sqlite3_errmsg(c->db));
    return STORE_ERROR;
}

static store_status run_player(conn *c, store_write *w)
{
    if (strlen(w->u.player.name) > STORE_NAME_MAX)
        return STORE_ERROR;
    sqlite3_stmt *st = sq_stmt(c, ST_PLAYER_INSERT);
    if (!st)
        return failed(c, SQLITE_ERROR, "player_insert");
    sqlite3_bind_text(st, 1, w->u.player.name, -1, SQLITE_STATIC);
    sqlite3_bind_blob(st, 2, w->u.player.token_hash, STORE_HASH_BYTES, SQLITE_STATIC);
    sqlite3_bind_int64(st, 3, w->u.player.now);
    sqlite3_bind_text(st, 4, w->u.player.prefix, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    sq_done(st);
    if (rc != SQLITE_DONE)
        /* a repeated token hash is a unique-constraint conflict */
        return sq_status(rc) == STORE_CONFLICT ? STORE_CONFLICT : failed(c, rc, "player_insert");
    store_player *p = &w->u.player.created;
    memset(p, 0, sizeof *p);
    p->id = sqlite3_last_insert_rowid(c->db);
    snprintf(p->name, sizeof p->name, "%s", w->u.player.name);
    p->created_at = w->u.player.now;
    return STORE_OK;
}

/* One COUNT(*) row of a statement already bound; -1 after a failure.
 * *second, when not NULL, gets the row's second column. */
static int64_t count_row(conn *c, sqlite3_stmt *st, const char *where, int64_t *second)
{
    int rc = sqlite3_step(st);
    int64_t n = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
    if (second)
        *second = rc == SQLITE_ROW ? sqlite3_column_int64(st, 1) : -1;
    sq_done(st);
    if (rc != SQLITE_ROW)
        failed(c, rc, where);
    return n;
}

/* A level token's three caps: outstanding tokens, the day's forfeits,
 * abandons and open tokens of that game and level, and the day's draws of
 * that game and level however their runs ended (seed shopping). */
static store_status check_level_limits(conn *c, store_write *w)
{
    const store_token *t = &w->u.token.token;
    sqlite3_stmt *st = sq_stmt(c, ST_TOKEN_OUTSTANDING);
    if (!st)
        return failed(c, SQLITE_ERROR, "token_outstanding");
    sqlite3_bind_int64(st, 1, t->p.player_id);
    sqlite3_bind_int64(st, 2, w->u.token.now);
    int64_t outstanding = count_row(c, st, "token_outstanding", NULL);
    if (outstanding < 0)
        return STORE_ERROR;
    if (outstanding >= w->u.token.max_outstanding) {
        w->u.token.limit = TOKEN_LIMIT_OUTSTANDING;
        return STORE_LIMIT;
    }
    if (w->u.token.max_forfeits <= 0 && w->u.token.max_draws <= 0)
        return STORE_OK;
    st = sq_stmt(c, ST_TOKEN_FORFEITS);
    if (!st)
        return failed(c, SQLITE_ERROR, "token_forfeits");
    sqlite3_bind_int64(st, 1, t->p.player_id);
    sq_bind_game(st, 2, &t->p);
    sqlite3_bind_int(st, 3, t->p.level);
    sqlite3_bind_int64(st, 4, w->u.token.day_start);
    int64_t draws;
    int64_t shopped = count_row(c, st, "token_forfeits", &draws);
    if (shopped < 0)
        return STORE_ERROR;
    w->u.token.draws = draws;
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

static store_status run_token(conn *c, store_write *w)
{
    const store_token *t = &w->u.token.token;
    sqlite3_stmt *st;
    int rc;
    if (play_is_daily(&t->p)) {
        st = sq_stmt(c, ST_TOKEN_DAILY);
        if (!st)
            return failed(c, SQLITE_ERROR, "token_daily");
        sqlite3_bind_int64(st, 1, t->p.player_id);
        sq_bind_date(st, 2, &t->p);
        rc = sqlite3_step(st);
        bool readable = rc == SQLITE_ROW && sq_read_token(st, &w->u.token.existing);
        sq_done(st);
        if (rc == SQLITE_ROW)
            return readable ? STORE_CONFLICT : failed(c, SQLITE_CORRUPT, "token_daily");
        if (rc != SQLITE_DONE)
            return failed(c, rc, "token_daily");
    } else {
        store_status limited = check_level_limits(c, w);
        if (limited != STORE_OK)
            return limited;
    }
    st = sq_stmt(c, ST_TOKEN_INSERT);
    if (!st)
        return failed(c, SQLITE_ERROR, "token_insert");
    sqlite3_bind_blob(st, 1, t->p.nonce, PLAY_NONCE_BYTES, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, t->p.player_id);
    sq_bind_game(st, 3, &t->p);
    sqlite3_bind_int(st, 4, t->p.level);
    sqlite3_bind_int64(st, 5, t->p.seed);
    sqlite3_bind_int(st, 6, t->p.version);
    sqlite3_bind_int64(st, 7, t->issued_at);
    sqlite3_bind_int64(st, 8, t->expires_at);
    sq_bind_date(st, 9, &t->p);
    sqlite3_bind_text(st, 10, t->text, -1, SQLITE_STATIC);
    rc = sqlite3_step(st);
    sq_done(st);
    /* a repeated nonce is a caller bug, not a user conflict */
    return rc == SQLITE_DONE ? STORE_OK : failed(c, rc, "token_insert");
}

/* What the redeem check reads beside the token's row. */
typedef struct token_state {
    int64_t rejections; /* the token's rejected replays so far */
    bool banned;        /* its player is banned now */
} token_state;

/* The token's record, read inside the transaction: STORE_NOT_FOUND when
 * it is not on record, STORE_ERROR when it disagrees with the play (the
 * token text was MAC-checked upstream: that is a bug and must not reach a
 * board). */
static store_status token_record(conn *c, const play *p, store_token *tok, token_state *ts)
{
    sqlite3_stmt *st = sq_stmt(c, ST_TOKEN_GET);
    if (!st)
        return failed(c, SQLITE_ERROR, "token_get");
    sqlite3_bind_blob(st, 1, p->nonce, PLAY_NONCE_BYTES, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    bool readable = rc == SQLITE_ROW && sq_read_token(st, tok);
    if (rc == SQLITE_ROW) {
        ts->rejections = sqlite3_column_int64(st, 11);
        ts->banned = sqlite3_column_int(st, 12) != 0;
    }
    sq_done(st);
    if (rc == SQLITE_DONE)
        return STORE_NOT_FOUND;
    if (rc != SQLITE_ROW)
        return failed(c, rc, "token_get");
    if (!readable || tok->p.player_id != p->player_id || tok->p.g != p->g ||
        tok->p.level != p->level || tok->p.day != p->day || tok->p.seed != p->seed ||
        tok->p.version != p->version) {
        store_log_error("token_get", "a play does not match its token's record");
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
 * (taken here, in the writer's transaction, so it holds across requests). */
static store_status take_moves_quota(store_db *db, conn *c, const store_rejection *r,
                                     int64_t earlier, bool *keep)
{
    const store_config *cfg = &db->cfg;
    *keep = cfg->rejection_moves_per_token <= 0 || earlier < cfg->rejection_moves_per_token;
    if (!*keep || cfg->rejection_moves_per_player_day <= 0)
        return STORE_OK;
    int64_t day = r->received_at / 86400000;
    sqlite3_stmt *st = sq_stmt(c, ST_QUOTA_PRUNE); /* the player's earlier days */
    if (!st)
        return failed(c, SQLITE_ERROR, "quota_prune");
    sqlite3_bind_int64(st, 1, r->p.player_id);
    sqlite3_bind_int64(st, 2, day);
    int rc = sqlite3_step(st);
    sq_done(st);
    if (rc != SQLITE_DONE)
        return failed(c, rc, "quota_prune");
    st = sq_stmt(c, ST_QUOTA_TAKE);
    if (!st)
        return failed(c, SQLITE_ERROR, "quota_take");
    sqlite3_bind_int64(st, 1, r->p.player_id);
    sqlite3_bind_int64(st, 2, day);
    sqlite3_bind_int64(st, 3, cfg->rejection_moves_per_player_day);
    rc = sqlite3_step(st);
    sq_done(st);
    if (rc != SQLITE_DONE)
        return failed(c, rc, "quota_take");
    *keep = sqlite3_changes(c->db) == 1;
    return STORE_OK;
}

/* Keeps a rejection of an open token that had `earlier` rejections:
 * nothing on a burned token (limit); otherwise the reason, index and hash,
 * the moves within quota, and the token's count goes up (the last allowed
 * one burns it). */
static store_status record_rejection(store_db *db, conn *c, store_rejection *r, int64_t earlier)
{
    bool keep;
    if (burned(db, earlier))
        return STORE_LIMIT;
    store_status checked = take_moves_quota(db, c, r, earlier, &keep);
    if (checked != STORE_OK)
        return checked;
    sqlite3_stmt *st = sq_stmt(c, ST_REJECTION_INSERT);
    if (!st)
        return failed(c, SQLITE_ERROR, "rejection_insert");
    sqlite3_bind_blob(st, 1, r->p.nonce, PLAY_NONCE_BYTES, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, r->p.player_id);
    sq_bind_game(st, 3, &r->p);
    sqlite3_bind_int(st, 4, r->p.level);
    sqlite3_bind_int64(st, 5, r->p.seed);
    sqlite3_bind_int(st, 6, r->p.version);
    sqlite3_bind_text(st, 7, r->reason, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 8, r->move_index);
    sqlite3_bind_int64(st, 9, r->received_at);
    sqlite3_bind_blob(st, 10, r->moves_hash, STORE_HASH_BYTES, SQLITE_STATIC);
    sqlite3_bind_text(st, 11, keep && r->moves_json ? r->moves_json : "", -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    sq_done(st);
    if (rc != SQLITE_DONE)
        return failed(c, rc, "rejection_insert");
    st = sq_stmt(c, ST_TOKEN_REJECTED);
    if (!st)
        return failed(c, SQLITE_ERROR, "token_rejected");
    sqlite3_bind_blob(st, 1, r->p.nonce, PLAY_NONCE_BYTES, SQLITE_STATIC);
    rc = sqlite3_step(st);
    sq_done(st);
    if (rc != SQLITE_DONE)
        return failed(c, rc, "token_rejected");
    r->moves_kept = keep;
    r->burned = burned(db, earlier + 1);
    return STORE_OK;
}

/* A rejection on a token already redeemed is answered as a conflict and
 * not kept: the token's run is over. */
static store_status run_rejection(store_db *db, conn *c, store_write *w)
{
    store_rejection *r = &w->u.rejection.rejection;
    store_token tok;
    token_state ts = { 0, false };
    store_status checked = token_record(c, &r->p, &tok, &ts);
    if (checked != STORE_OK)
        return checked;
    if (tok.redeemed)
        return STORE_CONFLICT;
    return record_rejection(db, c, r, ts.rejections);
}

/* The one redeem check, inside the transaction: a burned token redeems
 * nothing, and a ban committed after the request was authenticated still
 * holds (the player's ban is read with the token's row). */
static store_status check_token(store_db *db, conn *c, const store_score *sc, store_score *existing,
                                token_state *ts)
{
    store_token tok;
    store_status checked = token_record(c, &sc->p, &tok, ts);
    if (checked != STORE_OK)
        return checked;
    if (!tok.redeemed)
        return burned(db, ts->rejections) ? STORE_LIMIT : ts->banned ? STORE_BANNED : STORE_OK;
    /* also the case for a second submission of one token in one batch:
     * the first one's row is visible inside the transaction */
    store_status got = sq_score_by_nonce(c, sc->p.nonce, existing);
    return got == STORE_OK ? STORE_CONFLICT : failed(c, SQLITE_ERROR, "score_by_nonce");
}

/* The seq of another player's earlier run identical to sc, 0 if none, -1
 * after a failure. */
static int64_t find_duplicate(conn *c, const store_score *sc)
{
    sqlite3_stmt *st = sq_stmt(c, ST_SCORE_DUPLICATE);
    if (!st) {
        failed(c, SQLITE_ERROR, "score_duplicate");
        return -1;
    }
    sqlite3_bind_int64(st, 1, sc->p.seed);
    sqlite3_bind_blob(st, 2, sc->moves_hash, STORE_HASH_BYTES, SQLITE_STATIC);
    sq_bind_game(st, 3, &sc->p);
    sqlite3_bind_int(st, 4, sc->p.level);
    sqlite3_bind_int(st, 5, sc->p.version);
    sqlite3_bind_int64(st, 6, sc->p.player_id);
    int rc = sqlite3_step(st);
    int64_t seq = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
    sq_done(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
        failed(c, rc, "score_duplicate");
        return -1;
    }
    return seq;
}

/* A run identical to another player's earlier one is never ranked above
 * or beside it: a timed one is refused and kept as a rejection (the token
 * stays open for a run of one's own), an untimed one is held for review. */
static store_status check_duplicate(store_db *db, conn *c, store_score *sc, const token_state *ts)
{
    int64_t original = find_duplicate(c, sc);
    if (original < 0)
        return STORE_ERROR;
    sc->duplicate_of = original;
    sc->status = original ? SCORE_HELD : SCORE_RANKED;
    if (!original || !sc->timed)
        return STORE_OK;
    store_rejection rej = { .p = sc->p, .reason = "duplicate_run", .move_index = -1,
                            .received_at = sc->received_at, .moves_json = sc->moves_json };
    memcpy(rej.moves_hash, sc->moves_hash, STORE_HASH_BYTES);
    store_status st = record_rejection(db, c, &rej, ts->rejections);
    return st == STORE_OK ? STORE_DUPLICATE : st;
}

static store_status run_score(store_db *db, conn *c, store_write *w)
{
    store_score *sc = &w->u.score.score;
    token_state ts = { 0, false };
    store_status checked = check_token(db, c, sc, &w->u.score.existing, &ts);
    if (checked != STORE_OK)
        return checked;
    checked = check_duplicate(db, c, sc, &ts);
    if (checked != STORE_OK)
        return checked;
    /* at review_hold_threshold: off the boards until approved */
    if (sc->duplicate_of)
        sc->suspicion += sc->duplicate_weight;
    if ((sc->review_threshold > 0 && sc->suspicion >= sc->review_threshold) || sc->hold)
        sc->status = SCORE_HELD;
    sqlite3_stmt *st = sq_stmt(c, ST_SCORE_INSERT);
    if (!st)
        return failed(c, SQLITE_ERROR, "score_insert");
    sqlite3_bind_text(st, 1, sc->score_id, -1, SQLITE_STATIC);
    sqlite3_bind_blob(st, 2, sc->p.nonce, PLAY_NONCE_BYTES, SQLITE_STATIC);
    sqlite3_bind_int64(st, 3, sc->p.player_id);
    sq_bind_game(st, 4, &sc->p);
    sqlite3_bind_int(st, 5, sc->p.level);
    sqlite3_bind_int64(st, 6, sc->p.seed);
    sqlite3_bind_int(st, 7, sc->p.version);
    sq_bind_date(st, 8, &sc->p);
    sqlite3_bind_int64(st, 9, sc->score);
    sqlite3_bind_int(st, 10, sc->completed ? 1 : 0);
    sqlite3_bind_int64(st, 11, sc->received_at);
    sqlite3_bind_blob(st, 12, sc->moves_hash, STORE_HASH_BYTES, SQLITE_STATIC);
    sqlite3_bind_text(st, 13, sc->receipt, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 14, sc->moves_json ? sc->moves_json : "", -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 15, sc->result_json ? sc->result_json : "", -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 16, sq_status_text(sc->status), -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 17, sc->signals_json ? sc->signals_json : "{}", -1, SQLITE_STATIC);
    if (sc->duplicate_of)
        sqlite3_bind_int64(st, 18, sc->duplicate_of);
    else
        sqlite3_bind_null(st, 18);
    sqlite3_bind_int64(st, 19, sc->suspicion);
    if (sc->has_shape)
        sqlite3_bind_blob(st, 20, sc->shape_hash, STORE_HASH_BYTES, SQLITE_STATIC);
    else
        sqlite3_bind_null(st, 20);
    if (sc->twin_of)
        sqlite3_bind_int64(st, 21, sc->twin_of);
    else
        sqlite3_bind_null(st, 21);
    int rc = sqlite3_step(st);
    sq_done(st);
    if (rc != SQLITE_DONE)
        return failed(c, rc, "score_insert");
    sc->seq = sqlite3_last_insert_rowid(c->db);
    if (sc->twin_of) {
        st = sq_stmt(c, ST_SCORE_TWIN);
        if (!st)
            return failed(c, SQLITE_ERROR, "score_twin");
        sqlite3_bind_int64(st, 1, sc->seq);
        sqlite3_bind_int64(st, 2, sc->twin_weight);
        sqlite3_bind_int64(st, 3, sc->twin_of);
        rc = sqlite3_step(st);
        sq_done(st);
        if (rc != SQLITE_DONE)
            return failed(c, rc, "score_twin");
    }

    st = sq_stmt(c, ST_TOKEN_REDEEM);
    if (!st)
        return failed(c, SQLITE_ERROR, "token_redeem");
    sqlite3_bind_int64(st, 1, sc->seq);
    sqlite3_bind_text(st, 2, sq_outcome_text(sc->outcome), -1, SQLITE_STATIC);
    sqlite3_bind_blob(st, 3, sc->p.nonce, PLAY_NONCE_BYTES, SQLITE_STATIC);
    rc = sqlite3_step(st);
    sq_done(st);
    if (rc != SQLITE_DONE)
        return failed(c, rc, "token_redeem");

    /* a daily score's board is read from the scores table itself; a level
     * score may become the player's best on its level board */
    if (play_is_daily(&sc->p) || sc->status != SCORE_RANKED)
        return STORE_OK;
    st = sq_stmt(c, ST_BEST_UPSERT);
    if (!st)
        return failed(c, SQLITE_ERROR, "best_upsert");
    sq_bind_game(st, 1, &sc->p);
    sqlite3_bind_int(st, 2, sc->p.level);
    sqlite3_bind_int64(st, 3, sc->score);
    sqlite3_bind_int64(st, 4, sc->seq);
    sqlite3_bind_int64(st, 5, sc->p.player_id);
    sqlite3_bind_int64(st, 6, sc->received_at);
    sqlite3_bind_blob(st, 7, sc->p.nonce, PLAY_NONCE_BYTES, SQLITE_STATIC);
    rc = sqlite3_step(st);
    sq_done(st);
    return rc == SQLITE_DONE ? STORE_OK : failed(c, rc, "best_upsert");
}

static store_status run_write(store_db *db, conn *c, store_write *w)
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
        return sqlite_run_admin(c, w);
    }
    return STORE_ERROR;
}

/* Drops what a write filled for its caller when its work is undone. */
static void forget_outputs(store_write *w)
{
    if (w->kind == STORE_WRITE_SCORE)
        store_score_clear(&w->u.score.existing);
    if (w->kind == STORE_WRITE_ADMIN)
        store_admin_clear(w);
}

void sqlite_commit(store_db *db, store_write **batch, int n)
{
    conn *c = &db->writer;
    int rc = sq_exec(c, ST_BEGIN);
    if (rc != SQLITE_OK) {
        store_status st = failed(c, rc, "begin");
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
        if (sq_exec(c, ST_SAVEPOINT) != SQLITE_OK) {
            w->status = failed(c, SQLITE_ERROR, "savepoint");
            aborted = sqlite3_get_autocommit(c->db) != 0;
            continue;
        }
        w->status = run_write(db, c, w);
        if (sqlite3_get_autocommit(c->db)) {
            /* SQLite rolled the whole transaction back (I/O error, full disk) */
            aborted = true;
            forget_outputs(w);
            w->status = STORE_ERROR;
            continue;
        }
        /* a refused duplicate keeps its rejection row */
        if (w->status != STORE_OK && w->status != STORE_DUPLICATE)
            sq_exec(c, ST_ROLLBACK_TO);
        sq_exec(c, ST_RELEASE);
    }
    rc = aborted ? SQLITE_ABORT : sq_exec(c, ST_COMMIT);
    if (rc == SQLITE_OK)
        return;
    if (!aborted)
        store_log_error("commit", sqlite3_errmsg(c->db));
    if (!sqlite3_get_autocommit(c->db))
        sq_exec(c, ST_ROLLBACK);
    store_status st = sq_status(rc) == STORE_BUSY ? STORE_BUSY : STORE_ERROR;
    for (int i = 0; i < n; i++) {
        store_write *w = batch[i];
        forget_outputs(w);
        if (w->status != STORE_ERROR && w->status != STORE_BUSY)
            w->status = st;
    }
}
