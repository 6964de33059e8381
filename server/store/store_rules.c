/*
 * store_rules: every write's rules, once, for both backends (see the
 * header). Each rule binds a named statement's parameters in the order
 * store_driver.h lists them and reads its columns by position.
 */
#include "store_rules.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/civil.h"
#include "store_backend.h"

static void bind_game(const sd_db *x, sd_stmt *s, const play *p)
{
    x->d->bind_text(s, p->g->name);
}

static void bind_date(const sd_db *x, sd_stmt *s, const play *p)
{
    char date[11];
    play_date(p, date);
    x->d->bind_text(s, date); /* short: copied */
}

/* ---- players and tokens ---- */

/* A level token's three caps: outstanding tokens; the day's forfeits,
 * abandons and open tokens of that game and level; and the day's draws of
 * that game and level however their runs ended (seed shopping). The day
 * caps are this function's, for both backends. */
static store_status check_level_limits(const sd_db *x, store_write *w)
{
    const store_token *t = &w->u.token.token;
    sd_stmt *s = x->d->start(x->c, SD_TOKEN_LIMITS);
    if (!s)
        return sd_failed(x, NULL, SD_TOKEN_LIMITS);
    x->d->bind_int(s, t->p.player_id);
    x->d->bind_int(s, w->u.token.now);
    bind_game(x, s, &t->p);
    x->d->bind_int(s, t->p.level);
    x->d->bind_int(s, w->u.token.day_start);
    if (x->d->step(s) != SD_ROW)
        return sd_failed(x, s, SD_TOKEN_LIMITS);
    int64_t outstanding = x->d->col_int(s, 0), shopped = x->d->col_int(s, 1);
    int64_t draws = x->d->col_int(s, 2);
    x->d->done(s);
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

/* A daily token when the player has one for that day already: a conflict
 * with the existing one filled. */
static store_status check_daily(const sd_db *x, store_write *w)
{
    const store_token *t = &w->u.token.token;
    sd_stmt *s = x->d->start(x->c, SD_TOKEN_DAILY);
    if (!s)
        return sd_failed(x, NULL, SD_TOKEN_DAILY);
    x->d->bind_int(s, t->p.player_id);
    bind_date(x, s, &t->p);
    int rc = x->d->step(s);
    if (rc == SD_FAIL)
        return sd_failed(x, s, SD_TOKEN_DAILY);
    bool readable = rc == SD_ROW && store_read_token(x, s, &w->u.token.existing, NULL);
    x->d->done(s);
    if (rc == SD_DONE)
        return STORE_OK;
    if (readable)
        return STORE_CONFLICT;
    store_log_error("token_daily", "a daily token row does not read back");
    return STORE_ERROR;
}

static store_status run_token(const sd_db *x, store_write *w)
{
    const store_token *t = &w->u.token.token;
    store_status st = sd_lock_player(x, t->p.player_id);
    if (st == STORE_OK)
        st = play_is_daily(&t->p) ? check_daily(x, w) : check_level_limits(x, w);
    if (st != STORE_OK)
        return st;
    sd_stmt *s = x->d->start(x->c, SD_TOKEN_INSERT);
    if (!s)
        return sd_failed(x, NULL, SD_TOKEN_INSERT);
    x->d->bind_blob(s, t->p.nonce, PLAY_NONCE_BYTES);
    x->d->bind_int(s, t->p.player_id);
    bind_game(x, s, &t->p);
    x->d->bind_int(s, t->p.level);
    x->d->bind_int(s, t->p.seed);
    x->d->bind_int(s, t->p.version);
    x->d->bind_int(s, t->issued_at);
    x->d->bind_int(s, t->expires_at);
    bind_date(x, s, &t->p);
    x->d->bind_text(s, t->text);
    /* a repeated nonce is a caller bug, not a user conflict */
    return sd_run(x, s, SD_TOKEN_INSERT);
}

/* ---- the token's record ---- */

/* What the redeem check reads with the token's row. */
typedef struct token_state {
    store_token tok;
    int64_t rejections;   /* the token's rejected replays so far */
    bool banned;          /* its player is banned now */
    int64_t duplicate_of; /* a score's: another player's identical run */
} token_state;

/* The token's record, held until the commit (SD_TOKEN_GET, or for a score
 * sc SD_SCORE_TOKEN with the duplicate check in the same statement):
 * STORE_NOT_FOUND when it is not on record, STORE_ERROR when it disagrees
 * with the play (the token text was MAC-checked upstream: that is a bug
 * and must not reach a board). */
static store_status token_record(const sd_db *x, const play *p, const store_score *sc,
                                 token_state *ts)
{
    sd_id id = sc ? SD_SCORE_TOKEN : SD_TOKEN_GET;
    sd_stmt *s = x->d->start(x->c, id);
    if (!s)
        return sd_failed(x, NULL, id);
    x->d->bind_blob(s, p->nonce, PLAY_NONCE_BYTES);
    if (sc) {
        x->d->bind_int(s, sc->p.seed);
        x->d->bind_blob(s, sc->moves_hash, STORE_HASH_BYTES);
        bind_game(x, s, &sc->p);
        x->d->bind_int(s, sc->p.level);
        x->d->bind_int(s, sc->p.version);
        x->d->bind_int(s, sc->p.player_id);
    }
    int rc = x->d->step(s);
    if (rc == SD_FAIL)
        return sd_failed(x, s, id);
    if (rc == SD_DONE) {
        x->d->done(s);
        return STORE_NOT_FOUND;
    }
    bool readable = store_read_token(x, s, &ts->tok, &ts->rejections);
    ts->banned = x->d->col_int(s, 12) != 0;
    ts->duplicate_of = sc ? x->d->col_int(s, 13) : 0;
    x->d->done(s);
    const store_token *tok = &ts->tok;
    if (!readable || tok->p.player_id != p->player_id || tok->p.g != p->g ||
        tok->p.level != p->level || tok->p.day != p->day || tok->p.seed != p->seed ||
        tok->p.version != p->version) {
        store_log_error(sd_names[id], "a play does not match its token's record");
        return STORE_ERROR;
    }
    return STORE_OK;
}

static bool burned(const store_config *cfg, int64_t rejections)
{
    return cfg->rejections_per_token > 0 && rejections >= cfg->rejections_per_token;
}

/* ---- rejections ---- */

/* Whether this rejection's moves are kept: within the token's first
 * rejection_moves_per_token, then a unit of the player's daily quota
 * (taken in the writer's transaction, so it holds across requests and
 * nodes). */
/* Then a unit of the client network's daily quota, when the player's had
 * room (the player's unit stays taken when the network's is spent). */
static store_status take_net_quota(const sd_db *x, const store_config *cfg,
                                   const store_rejection *r, int64_t day, bool *keep)
{
    if (cfg->rejection_moves_per_net_day <= 0 || !r->net[0])
        return STORE_OK;
    sd_stmt *s = x->d->start(x->c, SD_NET_QUOTA_PRUNE);
    if (!s)
        return sd_failed(x, NULL, SD_NET_QUOTA_PRUNE);
    x->d->bind_int(s, day);
    store_status st = sd_run(x, s, SD_NET_QUOTA_PRUNE);
    if (st != STORE_OK)
        return st;
    s = x->d->start(x->c, SD_NET_QUOTA_TAKE);
    if (!s)
        return sd_failed(x, NULL, SD_NET_QUOTA_TAKE);
    x->d->bind_int(s, day);
    x->d->bind_text(s, r->net);
    x->d->bind_int(s, cfg->rejection_moves_per_net_day);
    int rc = x->d->step(s);
    if (rc == SD_FAIL)
        return sd_failed(x, s, SD_NET_QUOTA_TAKE);
    x->d->done(s);
    *keep = rc == SD_ROW;
    return STORE_OK;
}

static store_status take_moves_quota(const sd_db *x, const store_config *cfg,
                                     const store_rejection *r, int64_t earlier, bool *keep)
{
    *keep = cfg->rejection_moves_per_token <= 0 || earlier < cfg->rejection_moves_per_token;
    if (!*keep || cfg->rejection_moves_per_player_day <= 0)
        return STORE_OK;
    int64_t day = r->received_at / 86400000;
    sd_stmt *s = x->d->start(x->c, SD_QUOTA_PRUNE); /* the player's earlier days */
    if (!s)
        return sd_failed(x, NULL, SD_QUOTA_PRUNE);
    x->d->bind_int(s, r->p.player_id);
    x->d->bind_int(s, day);
    store_status st = sd_run(x, s, SD_QUOTA_PRUNE);
    if (st != STORE_OK)
        return st;
    s = x->d->start(x->c, SD_QUOTA_TAKE);
    if (!s)
        return sd_failed(x, NULL, SD_QUOTA_TAKE);
    x->d->bind_int(s, r->p.player_id);
    x->d->bind_int(s, day);
    x->d->bind_int(s, cfg->rejection_moves_per_player_day);
    int rc = x->d->step(s);
    if (rc == SD_FAIL)
        return sd_failed(x, s, SD_QUOTA_TAKE);
    x->d->done(s);
    *keep = rc == SD_ROW;
    return *keep ? take_net_quota(x, cfg, r, day, keep) : STORE_OK;
}

/* Keeps a rejection of an open token that had `earlier` rejections:
 * nothing on a burned token (limit); otherwise the reason, index and hash,
 * the moves within quota, and the token's count goes up (the last allowed
 * one burns it). */
static store_status record_rejection(const sd_db *x, const store_config *cfg, store_rejection *r,
                                     int64_t earlier)
{
    if (burned(cfg, earlier))
        return STORE_LIMIT;
    bool keep;
    store_status st = take_moves_quota(x, cfg, r, earlier, &keep);
    if (st != STORE_OK)
        return st;
    sd_stmt *s = x->d->start(x->c, SD_REJECTION_INSERT);
    if (!s)
        return sd_failed(x, NULL, SD_REJECTION_INSERT);
    x->d->bind_blob(s, r->p.nonce, PLAY_NONCE_BYTES);
    x->d->bind_int(s, r->p.player_id);
    bind_game(x, s, &r->p);
    x->d->bind_int(s, r->p.level);
    x->d->bind_int(s, r->p.seed);
    x->d->bind_int(s, r->p.version);
    x->d->bind_text(s, r->reason);
    x->d->bind_int(s, r->move_index);
    x->d->bind_int(s, r->received_at);
    x->d->bind_blob(s, r->moves_hash, STORE_HASH_BYTES);
    x->d->bind_text(s, keep && r->moves_json ? r->moves_json : "");
    st = sd_run(x, s, SD_REJECTION_INSERT);
    if (st != STORE_OK)
        return st;
    s = x->d->start(x->c, SD_TOKEN_REJECTED);
    if (!s)
        return sd_failed(x, NULL, SD_TOKEN_REJECTED);
    x->d->bind_blob(s, r->p.nonce, PLAY_NONCE_BYTES);
    st = sd_run(x, s, SD_TOKEN_REJECTED);
    if (st != STORE_OK)
        return st;
    r->moves_kept = keep;
    r->burned = burned(cfg, earlier + 1);
    return STORE_OK;
}

/* A rejection on a token already redeemed is answered as a conflict and
 * not kept: the token's run is over. */
static store_status run_rejection(const sd_db *x, const store_config *cfg, store_write *w)
{
    store_rejection *r = &w->u.rejection.rejection;
    token_state ts = { .rejections = 0 };
    store_status st = sd_lock_player(x, r->p.player_id);
    if (st == STORE_OK)
        st = token_record(x, &r->p, NULL, &ts);
    if (st != STORE_OK)
        return st;
    if (ts.tok.redeemed)
        return STORE_CONFLICT;
    return record_rejection(x, cfg, r, ts.rejections);
}

/* ---- scores ---- */

/* The one redeem check, inside the transaction: a redeemed token answers
 * with its score (also a second submission of one token in one batch, or
 * one that waited for another node's commit), a burned token redeems
 * nothing, and a ban committed after the request was authenticated still
 * holds (read with the token's row, after the player's lock). */
static store_status check_token(const sd_db *x, const store_config *cfg, store_write *w,
                                token_state *ts)
{
    store_score *sc = &w->u.score.score;
    store_status st = sd_lock_player(x, sc->p.player_id);
    if (st == STORE_OK)
        st = token_record(x, &sc->p, sc, ts);
    if (st != STORE_OK)
        return st;
    if (ts->tok.redeemed) {
        st = store_score_by_nonce(x, sc->p.nonce, &w->u.score.existing);
        if (st == STORE_OK)
            return STORE_CONFLICT;
        if (st == STORE_NOT_FOUND)
            store_log_error("score_by_nonce", "a redeemed token has no score");
        return st == STORE_BUSY ? STORE_BUSY : STORE_ERROR;
    }
    return burned(cfg, ts->rejections) ? STORE_LIMIT : ts->banned ? STORE_BANNED : STORE_OK;
}

/* A run identical to another player's earlier one is never ranked above
 * or beside it: a timed one is refused and kept as a rejection (the token
 * stays open for a run of one's own), an untimed one is held for review. */
static store_status check_duplicate(const sd_db *x, const store_config *cfg, store_score *sc,
                                    const token_state *ts)
{
    sc->duplicate_of = ts->duplicate_of;
    sc->status = ts->duplicate_of ? SCORE_HELD : SCORE_RANKED;
    if (!ts->duplicate_of || !sc->timed)
        return STORE_OK;
    store_rejection rej = { .p = sc->p, .reason = "duplicate_run", .move_index = -1,
                            .received_at = sc->received_at, .moves_json = sc->moves_json };
    memcpy(rej.moves_hash, sc->moves_hash, STORE_HASH_BYTES);
    store_status st = record_rejection(x, cfg, &rej, ts->rejections);
    return st == STORE_OK ? STORE_DUPLICATE : st;
}

static store_status run_score(const sd_db *x, const store_config *cfg, store_write *w)
{
    store_score *sc = &w->u.score.score;
    token_state ts = { .rejections = 0 };
    store_status st = check_token(x, cfg, w, &ts);
    if (st == STORE_OK)
        st = check_duplicate(x, cfg, sc, &ts);
    if (st == STORE_OK)
        st = store_rules_twin_pass(x, sc);
    if (st == STORE_OK)
        st = store_rules_parallel_pass(x, sc);
    if (st == STORE_OK)
        st = store_rules_new_account_pass(x, sc);
    if (st != STORE_OK)
        return st;
    /* at review_hold_threshold: off the boards until approved; a twin
     * pair's run, a parallel one and a new account's daily are held
     * whatever their suspicion. Summed here, not into sc->suspicion: a
     * batch rerun (PostgreSQL) judges the write again from what it was. */
    int64_t suspicion = sc->suspicion + (sc->duplicate_of ? sc->duplicate_weight : 0) +
                        (sc->twin_of ? sc->twin_weight : 0);
    if ((sc->review_threshold > 0 && suspicion >= sc->review_threshold) || sc->hold || sc->twin_of ||
        sc->parallel_found || sc->new_account_found)
        sc->status = SCORE_HELD;
    const store_driver *d = x->d;
    /* the score's leaf index, taken now and its leaf appended at it after
     * the row (a twin hold between them names it): a v3 receipt (the
     * caller left it empty, or a rerun of the batch finds the one an
     * undone try wrote) is that index */
    int64_t log_idx = -1;
    st = store_scorelog_reserve(x, &log_idx);
    if (st != STORE_OK)
        return st;
    if (sc->receipt[0] == '\0' || strncmp(sc->receipt, "v3.", 3) == 0)
        snprintf(sc->receipt, sizeof sc->receipt, "v3.%lld", (long long)log_idx);
    sd_stmt *s = d->start(x->c, SD_SCORE_RECORD);
    if (!s)
        return sd_failed(x, NULL, SD_SCORE_RECORD);
    d->bind_text(s, sc->score_id);
    d->bind_blob(s, sc->p.nonce, PLAY_NONCE_BYTES);
    d->bind_int(s, sc->p.player_id);
    bind_game(x, s, &sc->p);
    d->bind_int(s, sc->p.level);
    d->bind_int(s, sc->p.seed);
    d->bind_int(s, sc->p.version);
    bind_date(x, s, &sc->p);
    d->bind_int(s, sc->score);
    d->bind_int(s, sc->completed ? 1 : 0);
    d->bind_int(s, sc->received_at);
    d->bind_blob(s, sc->moves_hash, STORE_HASH_BYTES);
    d->bind_text(s, sc->receipt);
    d->bind_text(s, sc->moves_json ? sc->moves_json : "");
    d->bind_text(s, sc->result_json ? sc->result_json : "");
    d->bind_text(s, store_status_text(sc->status));
    d->bind_text(s, sc->signals_json ? sc->signals_json : "{}");
    if (sc->duplicate_of)
        d->bind_int(s, sc->duplicate_of);
    else
        d->bind_null(s);
    d->bind_text(s, store_outcome_text(sc->outcome));
    /* a daily score's board is read from the scores table itself; a level
     * score may become the player's best on its level board */
    d->bind_int(s, !play_is_daily(&sc->p) && sc->status == SCORE_RANKED);
    d->bind_int(s, suspicion);
    if (sc->has_shape)
        d->bind_blob(s, sc->shape_hash, STORE_HASH_BYTES);
    else
        d->bind_null(s);
    if (sc->twin_of)
        d->bind_int(s, sc->twin_of);
    else
        d->bind_null(s);
    if (sc->twin_times)
        d->bind_text(s, sc->twin_times);
    else
        d->bind_null(s);
    if (sc->claimed_ms >= 0)
        d->bind_int(s, sc->claimed_ms);
    else
        d->bind_null(s);
    int rc = d->step(s);
    if (rc == SD_FAIL)
        return sd_failed(x, s, SD_SCORE_RECORD);
    sc->seq = rc == SD_ROW ? d->col_int(s, 0) : 0;
    d->done(s);
    if (rc != SD_ROW) { /* cannot happen while the token is held: the loop undoes it all */
        store_log_error("score_record", "the held token was redeemed meanwhile");
        return STORE_ERROR;
    }
    st = store_rules_twin_hold(x, w, log_idx);
    return st == STORE_OK ? store_scorelog_score(x, w, log_idx) : st;
}

/* A key's fingerprint: recorded when the id has none (the first node to
 * start with it), then compared with what the database holds. */
static store_status run_key(const sd_db *x, store_write *w)
{
    sd_stmt *s = x->d->start(x->c, SD_KEY_RECORD);
    if (!s)
        return sd_failed(x, NULL, SD_KEY_RECORD);
    x->d->bind_int(s, w->u.key.key_id);
    x->d->bind_text(s, w->u.key.fingerprint);
    x->d->bind_int(s, w->u.key.now);
    store_status st = sd_run(x, s, SD_KEY_RECORD);
    if (st != STORE_OK)
        return st;
    s = x->d->start(x->c, SD_KEY_GET);
    if (!s)
        return sd_failed(x, NULL, SD_KEY_GET);
    x->d->bind_int(s, w->u.key.key_id);
    int rc = x->d->step(s);
    if (rc == SD_FAIL)
        return sd_failed(x, s, SD_KEY_GET);
    if (rc == SD_ROW) {
        const char *fp = x->d->col_text(s, 0);
        snprintf(w->u.key.recorded, sizeof w->u.key.recorded, "%s", fp ? fp : "");
        w->u.key.matches = strcmp(w->u.key.recorded, w->u.key.fingerprint) == 0;
    }
    x->d->done(s);
    return STORE_OK;
}

store_status store_rules_write(const sd_db *x, const store_config *cfg, store_write *w)
{
    w->logged = false;
    switch (w->kind) {
    case STORE_WRITE_SCORE:
        return run_score(x, cfg, w);
    case STORE_WRITE_PLAYER:
        return w->u.player.provider[0] ? store_rules_identity(x, w) : store_rules_player(x, w);
    case STORE_WRITE_NONCE:
        return store_rules_nonce(x, w);
    case STORE_WRITE_TOKEN:
        return run_token(x, w);
    case STORE_WRITE_REJECTION:
        return run_rejection(x, cfg, w);
    case STORE_WRITE_ADMIN:
        return store_rules_admin(x, w);
    case STORE_WRITE_KEY:
        return run_key(x, w);
    case STORE_WRITE_LOG_SEAL:
        return store_logseal_take(x, w);
    }
    return STORE_ERROR;
}

void store_rules_forget(store_write *w)
{
    w->logged = false;
    free(w->log_proof);
    w->log_proof = NULL;
    if (w->kind == STORE_WRITE_SCORE) {
        store_score_clear(&w->u.score.existing);
        w->u.score.score.seq = 0;
        store_rules_twin_forget(w);
        store_rules_parallel_forget(w);
        store_rules_new_account_forget(w);
    }
    if (w->kind == STORE_WRITE_ADMIN)
        store_admin_clear(w);
}
