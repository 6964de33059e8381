/*
 * api_scores: the submission path and the public audit read of a score.
 *
 * A submission flows one way: the bearer token, the ban and the rate
 * limit → decode (the seed token checked: ours, the player's, a game and
 * version served, the date's daily; the moves decoded and hashed) → an
 * expired token answers here (a retry of its recorded score, or
 * token_expired) → verify_submission (server/trust/verify.h, pure: the
 * level rebuilt, every move replayed, the run measured, the claimed time
 * against the time that passed, the new-account, identity and record
 * facts, the twin lookup over the candidates it can read through the
 * store reads handed to it, the record built and its receipt signed) →
 * one store_score record handed to the writer, with the connection
 * suspended → the writer's transaction makes the only redeem check,
 * compares the twin candidates committed since the read (holding both
 * runs of a pair) and commits → the request resumes, the run joins the
 * fairplay book, and the reply is built once from that row. A rejected
 * replay is a rejection record instead, answered after its commit.
 *
 * Ownership: a submission (one per request) is owned by its request and
 * freed when the request ends; it holds the decoded moves, the result as
 * JSON and the write handed to the store.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/daily.h"
#include "api.h"
#include "../trust/fairplay.h"
#include "../base/json_game.h"
#include "../trust/receipt.h"
#include "../trust/token.h"
#include "../trust/verify.h"

static int game_index(const game *g)
{
    for (size_t i = 0; i < game_catalog_count; i++)
        if (game_catalog[i] == g)
            return (int)i;
    return -1;
}

typedef struct submission {
    seed_token t;
    game_move *moves;
    long n;
    uint8_t hash[STORE_HASH_BYTES];
    json_t *result;   /* the verified result, kept as JSON for the reply */
    verify_book_facts book; /* for the population, history and form, once accepted (fairplay_book.h) */
    store_write w;    /* the record handed to the writer */
} submission;

static void submission_free(void *p)
{
    submission *s = p;
    if (!s)
        return;
    free(s->moves);
    json_decref(s->result);
    free(s->w.log_proof);
    if (s->w.kind == STORE_WRITE_SCORE) {
        store_score_clear(&s->w.u.score.score);
        store_score_clear(&s->w.u.score.existing);
    } else if (s->w.kind == STORE_WRITE_REJECTION) {
        free((char *)s->w.u.rejection.rejection.moves_json);
    }
    free(s);
}

/* The 200 answer for a recorded score: the first time and on every retry.
 * `result` is the score's result (borrowed); log_proof the score log's
 * tlog-proof of its leaf (the first time; NULL on a retry). */
static void answer_recorded(request *r, const store_score *sc, json_t *result, const char *log_proof)
{
    char hex[2 * STORE_HASH_BYTES + 1];
    sodium_bin2hex(hex, sizeof hex, sc->moves_hash, STORE_HASH_BYTES);
    json_t *out = json_pack("{s:b,s:s,s:I,s:b,s:s}", "verified", 1, "score_id", sc->score_id, "score",
                            (json_int_t)sc->score, "completed", sc->completed, "status",
                            sc->status == SCORE_RANKED ? "ranked" : "held");
    /* why, in one word, so an app can tell its player the run waits for review */
    if (sc->status == SCORE_HELD)
        json_object_set_new(out, "held_reason",
                            json_string(fairplay_hold_reason(sc->signals_json, sc->duplicate_of > 0)));
    store_board b = store_board_of(&sc->p);
    store_entry e;
    if (store_board_rank(r->app->db, &b, sc->p.player_id, &e) == STORE_OK) {
        json_object_set_new(out, "rank", json_integer(e.rank));
        json_object_set_new(out, "best", json_boolean(strcmp(e.score_id, sc->score_id) == 0));
    } else {
        json_object_set_new(out, "rank", json_null());
        json_object_set_new(out, "best", json_false());
    }
    /* a held run is pending review: the rank it would take if approved now */
    int64_t would;
    if (sc->status == SCORE_HELD && store_board_would_rank(r->app->db, &b, sc->score, &would) == STORE_OK)
        json_object_set_new(out, "would_be_rank", json_integer(would));
    json_object_set_new(out, "moves_hash", json_string(hex));
    /* with the answer's other fields, what a v2 receipt signs: an app can
     * check its receipt offline without reading the audit */
    json_object_set_new(out, "submitted_at_ms", json_integer((json_int_t)sc->received_at));
    json_object_set_new(out, "receipt", json_string(sc->receipt));
    if (play_is_daily(&sc->p)) {
        char date[11];
        play_date(&sc->p, date);
        json_object_set_new(out, "date", json_string(date));
    }
    json_object_set(out, "result", result ? result : json_null());
    /* the leaf in the score log, the checkpoint of its commit included:
     * checked offline with the log's key alone (docs/LOG.md section 8) */
    json_object_set_new(out, "log_proof", log_proof ? json_string(log_proof) : json_null());
    reply_json(r, 200, out);
}

static void reply_burned(request *r)
{
    reply_error(r, 409, "token_burned",
                "this seed token was rejected too many times and can no longer be submitted");
}

/* A token already redeemed: same moves is a retry, other moves a conflict. */
static void answer_redeemed(request *r, const store_score *existing, const uint8_t *hash)
{
    int gi = game_index(existing->p.g);
    if (memcmp(existing->moves_hash, hash, STORE_HASH_BYTES) != 0) {
        metrics_verification(&r->app->stats, gi, VERIFY_CONFLICT);
        reply_error(r, 409, "token_used", "this seed token was already redeemed with other moves");
        return;
    }
    metrics_verification(&r->app->stats, gi, VERIFY_RETRY);
    json_t *result = existing->result_json ? json_loads(existing->result_json, 0, NULL) : NULL;
    answer_recorded(r, existing, result, NULL);
    json_decref(result);
}

/* Resumed after the score's commit. */
static void score_committed(request *r)
{
    submission *s = r->work;
    store_write *w = &s->w;
    switch (w->status) {
    case STORE_OK:
        metrics_verification(&r->app->stats, game_index(s->t.p.g), VERIFY_ACCEPTED);
        { /* a held run joins its player's history, not the board's population */
            store_board b = store_board_of(&s->t.p);
            bool ranked = w->u.score.score.status == SCORE_RANKED;
            fairplay_book_add(&r->app->book, &b, s->t.p.player_id, ranked ? s->book.pace : -1, s->book.slack);
            fairplay_book_add_form(&r->app->book, &b, s->t.p.player_id, s->book.search, s->book.search_se2,
                                   ranked);
        }
        answer_recorded(r, &w->u.score.score, s->result, w->log_proof);
        break;
    case STORE_CONFLICT:
        answer_redeemed(r, &w->u.score.existing, s->hash);
        break;
    case STORE_NOT_FOUND:
        reply_error(r, 400, "invalid_seed_token", "the seed token is not on record");
        break;
    case STORE_DUPLICATE:
        metrics_verification(&r->app->stats, game_index(s->t.p.g), VERIFY_REJECTED);
        reply_error(r, 409, "duplicate_run",
                    "these moves are another player's run on the same level and seed; play your own");
        break;
    case STORE_LIMIT:
        reply_burned(r);
        break;
    case STORE_BANNED: /* banned after this request was authenticated */
        reply_error(r, 403, "banned", "this player is banned");
        break;
    default:
        api_store_error(r, w->status);
    }
}

/* Resumed after a rejection's commit. A token already redeemed is a
 * conflict whatever these moves were. A rejection the store could not
 * record (busy, failed) is answered as that store error, without the
 * verdict: a verdict is what rejections_per_token bounds, and one not
 * counted would let a client that keeps the writer busy probe a seed's
 * rules without end. */
static void rejection_committed(request *r)
{
    submission *s = r->work;
    const store_rejection *rej = &s->w.u.rejection.rejection;
    if (s->w.status == STORE_CONFLICT) {
        metrics_verification(&r->app->stats, game_index(s->t.p.g), VERIFY_CONFLICT);
        reply_error(r, 409, "token_used", "this seed token was already redeemed with other moves");
        return;
    }
    if (s->w.status == STORE_NOT_FOUND) {
        reply_error(r, 400, "invalid_seed_token", "the seed token is not on record");
        return;
    }
    if (s->w.status == STORE_LIMIT) {
        reply_burned(r);
        return;
    }
    if (s->w.status != STORE_OK) {
        api_store_error(r, s->w.status);
        return;
    }
    metrics_verification(&r->app->stats, game_index(s->t.p.g), VERIFY_REJECTED);
    char text[120];
    const char *msg = text;
    /* The elapsed-time check is of the whole run: no move index in its text
     * (error.move still names the first move past the allowance). */
    if (strcmp(rej->reason, "duration_exceeds_elapsed") == 0)
        msg = "the run claims more time than has passed since its seed was issued "
              "(duration_exceeds_elapsed): submit it once its claimed time has passed";
    else
        snprintf(text, sizeof text, "the replay was rejected at move %ld: %s", rej->move_index, rej->reason);
    /* token_burned: this was the token's last allowed rejection */
    reply_error_with(r, 422, "replay_rejected", msg,
                     json_pack("{s:s,s:I,s:b}", "reason", rej->reason, "move", (json_int_t)rej->move_index,
                               "token_burned", rej->burned));
}

static void reject_replay(request *r, submission *s, const char *reason, long move)
{
    s->w.kind = STORE_WRITE_REJECTION;
    store_rejection *rej = &s->w.u.rejection.rejection;
    rej->p = s->t.p;
    snprintf(rej->reason, sizeof rej->reason, "%s", reason);
    rej->move_index = move;
    rej->received_at = r->started_us / 1000;
    char net[NETADDR_TEXT + 4];
    netaddr_prefix_of(r->ip, net);
    snprintf(rej->net, sizeof rej->net, "%s", net);
    memcpy(rej->moves_hash, s->hash, STORE_HASH_BYTES);
    json_t *canon = moves_to_json(s->t.p.g, s->t.p.version, s->moves, (size_t)s->n);
    rej->moves_json = json_dumps(canon, JSON_COMPACT);
    json_decref(canon);
    api_write(r, &s->w, rejection_committed);
}

static bool token_checks(request *r, const store_player *player, const char *text, seed_token *t)
{
    switch (token_verify(&r->app->keys, text, t)) {
    case TOKEN_OK:
        break;
    case TOKEN_UNKNOWN_KEY:
        reply_error(r, 400, "unknown_key", "the seed token names a key this server does not hold");
        return false;
    case TOKEN_MALFORMED:
    case TOKEN_BAD_MAC:
        reply_error(r, 400, "invalid_seed_token", "the seed token is not one this server issued");
        return false;
    case TOKEN_UNKNOWN_GAME:
        reply_error(r, 400, "invalid_seed_token", "the seed token names a game or version not served");
        return false;
    }
    if (t->p.player_id != player->id) {
        reply_error(r, 403, "not_your_token", "this seed token was issued to another player");
        return false;
    }
    const game *g = t->p.g;
    if (t->p.version < g->min_version || t->p.version > g->version || t->p.level < 1 ||
        t->p.level > g->levels) {
        reply_error(r, 400, "invalid_seed_token", "the seed token names a game or version not served");
        return false;
    }
    if (play_is_daily(&t->p)) {
        daily_pick p;
        daily_sealed sealed;
        bool is_sealed;
        if (!api_served_daily(r->app, civil_from_days(t->p.day), &p, &sealed, &is_sealed) ||
            p.game != g || p.level != t->p.level || p.seed != t->p.seed) {
            reply_error(r, 400, "bad_daily", "the token does not match that date's daily challenge");
            return false;
        }
    }
    return true;
}

/* An expired token: its score, if it was redeemed, still answers a retry. */
static void answer_expired(request *r, submission *s)
{
    store_score existing;
    memset(&existing, 0, sizeof existing);
    store_status st = store_score_get(r->app->db, s->t.p.nonce, &existing);
    if (st == STORE_OK)
        answer_redeemed(r, &existing, s->hash);
    else if (st == STORE_NOT_FOUND)
        reply_error(r, 400, "token_expired", "the seed token has expired");
    else
        api_store_error(r, st);
    store_score_clear(&existing);
}

/* Decodes the body into s: the token checked, the moves decoded and
 * hashed. false after answering. */
static bool decode(request *r, const store_player *player, submission *s)
{
    json_t *doc = req_json_object(r);
    if (!doc)
        return false;
    bool ok = false;
    const json_t *tok = json_object_get(doc, "seed_token"), *moves_json = json_object_get(doc, "moves");
    if (json_object_size(doc) != 2 || !json_is_string(tok) || !json_is_array(moves_json)) {
        reply_error(r, 400, "bad_request", "expected {\"seed_token\": string, \"moves\": [...]}");
        goto done;
    }
    if (!token_checks(r, player, json_string_value(tok), &s->t))
        goto done;
    const game *g = s->t.p.g;
    size_t cap = (size_t)r->app->cfg.max_moves < (size_t)g->max_moves ? (size_t)r->app->cfg.max_moves
                                                                       : (size_t)g->max_moves;
    if (json_array_size(moves_json) > cap) {
        char msg[80];
        snprintf(msg, sizeof msg, "at most %zu moves", cap);
        reply_error(r, 413, "too_many_moves", msg);
        goto done;
    }
    s->moves = calloc(json_array_size(moves_json) + 1, sizeof *s->moves);
    if (!s->moves) {
        reply_error(r, 500, "internal", "out of memory");
        goto done;
    }
    move_error merr;
    s->n = moves_from_json(g, s->t.p.version, moves_json, s->moves, cap, &merr);
    if (s->n < 0) {
        reply_error_with(r, 400, "bad_moves", merr.message, json_pack("{s:I}", "move", (json_int_t)merr.index));
        goto done;
    }
    moves_hash(g, s->t.p.version, s->moves, (size_t)s->n, s->hash);
    ok = true;
done:
    json_decref(doc);
    return ok;
}

/* The store reads verify_submission makes, on the app's store (verify.h). */
static store_status read_would_rank(void *db, const store_board *b, int64_t score, int64_t *rank)
{
    return store_board_would_rank(db, b, score, rank);
}

static store_status read_approved(void *db, int64_t player_id, int64_t *count)
{
    return store_player_approved(db, player_id, count);
}

static store_status read_twins(void *db, const play *p, const uint8_t shape[STORE_HASH_BYTES], int limit,
                               store_twin_candidate *out, int *n)
{
    return store_twin_candidates(db, p, shape, limit, out, n);
}

/* The verified score taken into the submission and handed to the writer. */
static void write_score(request *r, submission *s, verify_out *out)
{
    s->w.kind = STORE_WRITE_SCORE;
    s->w.u.score.score = out->score;
    memset(&out->score, 0, sizeof out->score);
    s->result = out->result;
    out->result = NULL;
    s->book = out->book;
    api_write(r, &s->w, score_committed);
}

/* The submission verified (verify.h) and its answer: the score or the
 * rejection handed to the writer, or a 500. */
static void verify(request *r, const store_player *player, submission *s, int64_t now)
{
    app *a = r->app;
    verify_ctx ctx = { .cfg = &a->cfg, .keys = &a->keys, .levels = &a->levels, .book = &a->book,
                       .reads = a->db, .would_rank = read_would_rank, .approved = read_approved,
                       .twins = read_twins };
    verify_out out;
    verify_result v = verify_submission(&ctx, player, &s->t, s->moves, (size_t)s->n, r->started_us / 1000, now, &out);
    if (out.receipt_signed)
        metrics_receipt_signed(&a->stats);
    switch (v) {
    case VERIFIED_SCORE:
        write_score(r, s, &out);
        break;
    case VERIFIED_REJECTION:
        reject_replay(r, s, out.reason, out.move);
        break;
    case VERIFY_ERR_LEVEL:
        reply_error(r, 500, "internal", "the level could not be rebuilt");
        break;
    case VERIFY_ERR_MEMORY:
        reply_error(r, 500, "internal", "out of memory");
        break;
    case VERIFY_ERR_PREPARE:
        reply_error(r, 500, "internal", "the score could not be prepared");
        break;
    case VERIFY_ERR_STORE:
        api_store_error(r, out.store_error);
        break;
    }
    verify_out_clear(&out);
}

void api_scores_submit(request *r)
{
    store_player player;
    if (!api_auth(r, &player))
        return;
    if (player.banned) {
        reply_error(r, 403, "banned", "this player is banned");
        return;
    }
    char key[24];
    snprintf(key, sizeof key, "%lld", (long long)player.id);
    if (!ratelimit_allow(&r->app->limits, "scores", key, r->live->rate_scores_per_player,
                         r->started_us)) {
        reply_rate_limited(r, r->live->rate_scores_per_player, "too many submissions");
        return;
    }
    submission *s = calloc(1, sizeof *s);
    if (!s) {
        reply_error(r, 500, "internal", "out of memory");
        return;
    }
    s->w.kind = STORE_WRITE_SCORE; /* until it becomes a rejection */
    req_own(r, s, submission_free);
    if (!decode(r, &player, s))
        return;
    int64_t now = now_ms();
    if (now > s->t.expires_at)
        answer_expired(r, s);
    else
        verify(r, &player, s, now);
}

void api_score_get(request *r)
{
    uint8_t nonce[PLAY_NONCE_BYTES];
    const char *id = r->seg[2];
    if (strspn(id, "0123456789abcdef") != PLAY_ID_LEN || !play_nonce_from_id(id, nonce)) {
        reply_error(r, 404, "not_found", "no such score");
        return;
    }
    store_score sc;
    memset(&sc, 0, sizeof sc);
    store_status st = store_score_get(r->app->db, nonce, &sc);
    if (st == STORE_NOT_FOUND) {
        reply_error(r, 404, "not_found", "no such score");
        return;
    }
    if (st != STORE_OK) {
        api_store_error(r, st);
        return;
    }
    char hex[2 * STORE_HASH_BYTES + 1], at[32];
    sodium_bin2hex(hex, sizeof hex, sc.moves_hash, STORE_HASH_BYTES);
    iso_time_format(sc.received_at, at);
    /* a daily run's moves stay private while others can still play that
     * daily, so nobody can copy the leader's run */
    int64_t public_at = fairplay_moves_public_at(&r->app->cfg, &sc.p);
    bool moves_public = now_ms() >= public_at;
    json_t *moves = moves_public && sc.moves_json ? json_loads(sc.moves_json, 0, NULL) : NULL;
    json_t *result = sc.result_json ? json_loads(sc.result_json, 0, NULL) : NULL;
    json_t *out = json_pack("{s:s,s:I,s:s,s:s,s:i,s:I,s:i,s:I,s:b,s:s,s:s,s:I,s:s,s:s,s:b,s:o,s:o}",
                            "score_id", sc.score_id, "player_id", (json_int_t)sc.p.player_id, "name",
                            sc.player_name, "game", sc.p.g->name, "level", sc.p.level, "seed",
                            (json_int_t)sc.p.seed, "version", sc.p.version, "score", (json_int_t)sc.score,
                            "completed", sc.completed, "status",
                            sc.status == SCORE_RANKED ? "ranked" : "held", "submitted_at", at,
                            "submitted_at_ms", (json_int_t)sc.received_at, "moves_hash", hex, "receipt",
                            sc.receipt, "moves_public", moves_public, "moves",
                            moves ? moves : moves_public ? json_array() : json_null(), "result",
                            result ? result : json_null());
    /* an operator's void shows, with its reason: the audit hides nothing */
    if (sc.voided_at) {
        json_object_set_new(out, "status", json_string("voided"));
        json_object_set_new(out, "void_reason", json_string(sc.void_reason));
    }
    if (play_is_daily(&sc.p)) {
        char date[11], when[32];
        play_date(&sc.p, date);
        iso_time_format(public_at, when);
        json_object_set_new(out, "date", json_string(date));
        json_object_set_new(out, "moves_public_at", json_string(when));
    }
    store_score_clear(&sc);
    reply_json(r, 200, out);
}
