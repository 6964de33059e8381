/*
 * api_scores: the submission path (check the seed token, rebuild the
 * level, replay every move, check plausibility, record, sign) and the
 * public audit read of a recorded score.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/daily.h"
#include "../core/replay.h"
#include "api.h"
#include "json_game.h"
#include "receipt.h"
#include "token.h"

static int game_index(const game *g)
{
    for (size_t i = 0; i < game_catalog_count; i++)
        if (game_catalog[i] == g)
            return (int)i;
    return -1;
}

static void board_of(const store_score *sc, store_board *b)
{
    memset(b, 0, sizeof *b);
    snprintf(b->daily_date, sizeof b->daily_date, "%s", sc->daily_date);
    snprintf(b->game, sizeof b->game, "%s", sc->game);
    b->level = sc->level;
}

/* The 200 answer for a recorded score: the first time and on every retry. */
static void answer_recorded(request *r, const store_score *sc)
{
    store_board b;
    store_entry e;
    board_of(sc, &b);
    json_t *out = json_pack("{s:b,s:s,s:I,s:b}", "verified", 1, "score_id", sc->score_id, "score",
                            (json_int_t)sc->score, "completed", sc->completed);
    store_status st = store_board_rank(r->app->db, &b, sc->player_id, &e);
    if (st == STORE_OK) {
        json_object_set_new(out, "rank", json_integer(e.rank));
        json_object_set_new(out, "best", json_boolean(strcmp(e.score_id, sc->score_id) == 0));
    } else {
        json_object_set_new(out, "rank", json_null());
    }
    char hex[2 * STORE_HASH_BYTES + 1];
    sodium_bin2hex(hex, sizeof hex, sc->moves_hash, STORE_HASH_BYTES);
    json_object_set_new(out, "moves_hash", json_string(hex));
    json_object_set_new(out, "receipt", json_string(sc->receipt));
    if (sc->daily_date[0])
        json_object_set_new(out, "date", json_string(sc->daily_date));
    json_t *result = sc->result_json ? json_loads(sc->result_json, 0, NULL) : NULL;
    json_object_set_new(out, "result", result ? result : json_null());
    reply_json(r, 200, out);
}

/* A token already redeemed: same moves is a retry, other moves a conflict. */
static void answer_redeemed(request *r, const game *g, const store_score *existing,
                            const uint8_t *hash)
{
    if (memcmp(existing->moves_hash, hash, STORE_HASH_BYTES) == 0) {
        metrics_verification(&r->app->stats, game_index(g), VERIFY_RETRY);
        answer_recorded(r, existing);
    } else {
        metrics_verification(&r->app->stats, game_index(g), VERIFY_CONFLICT);
        reply_error(r, 409, "token_used", "this seed token was already redeemed with other moves");
    }
}

static void reject_replay(request *r, const game *g, const seed_token *t, const uint8_t *hash,
                          const json_t *moves_json, const char *reason, long move)
{
    metrics_verification(&r->app->stats, game_index(g), VERIFY_REJECTED);
    store_rejection rej;
    memset(&rej, 0, sizeof rej);
    memcpy(rej.nonce, t->nonce, sizeof rej.nonce);
    rej.player_id = t->player_id;
    snprintf(rej.game, sizeof rej.game, "%s", t->game);
    rej.level = t->level;
    rej.seed = t->seed;
    rej.version = t->version;
    snprintf(rej.reason, sizeof rej.reason, "%s", reason);
    rej.move_index = move;
    rej.received_at = now_ms();
    memcpy(rej.moves_hash, hash, STORE_HASH_BYTES);
    char *text = json_dumps(moves_json, JSON_COMPACT);
    rej.moves_json = text ? text : "[]";
    (void)store_rejection_add(r->app->db, &rej); /* best effort: the answer does not depend on it */
    free(text);
    char msg[120];
    snprintf(msg, sizeof msg, "the replay was rejected at move %ld: %s", move, reason);
    reply_error_with(r, 422, "replay_rejected", msg,
                     json_pack("{s:s,s:I}", "reason", reason, "move", (json_int_t)move));
}

/* The first move whose "t" is later than the allowed elapsed time. */
static long first_move_after(const game *g, const game_move *moves, size_t n, int64_t allowed)
{
    for (int f = 0; f < g->n_fields; f++) {
        if (strcmp(g->fields[f].name, "t") != 0)
            continue;
        for (size_t i = 0; i < n; i++)
            if (moves[i].v[f] > allowed)
                return (long)i;
    }
    return n ? (long)n - 1 : 0;
}

static bool token_checks(request *r, const store_player *player, const char *text, seed_token *t,
                         const game **out)
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
    }
    if (t->player_id != player->id) {
        reply_error(r, 403, "not_your_token", "this seed token was issued to another player");
        return false;
    }
    const game *g = game_find(t->game);
    if (!g || t->version < g->min_version || t->version > g->version) {
        reply_error(r, 400, "invalid_seed_token", "the seed token names a game or version not served");
        return false;
    }
    if (t->daily_day >= 0) {
        daily_pick p;
        if (!daily_for_date(civil_from_days(t->daily_day), &p) || p.game != g || p.level != t->level ||
            p.seed != t->seed) {
            reply_error(r, 400, "bad_daily", "the token does not match that date's daily challenge");
            return false;
        }
    }
    *out = g;
    return true;
}

typedef struct submission {
    seed_token t;
    const game *g;
    game_move *moves;
    long n;
    uint8_t hash[STORE_HASH_BYTES];
    game_level *level;
    game_state *state;
    store_score sc, existing;
} submission;

static void submission_free(submission *s)
{
    free(s->moves);
    free(s->level);
    free(s->state);
    store_score_clear(&s->sc);
    store_score_clear(&s->existing);
}

static void record_verified(request *r, submission *s, const game_result *res)
{
    store_score *sc = &s->sc;
    sodium_bin2hex(sc->score_id, sizeof sc->score_id, s->t.nonce, sizeof s->t.nonce);
    memcpy(sc->nonce, s->t.nonce, sizeof sc->nonce);
    sc->player_id = s->t.player_id;
    snprintf(sc->game, sizeof sc->game, "%s", s->t.game);
    sc->level = s->t.level;
    sc->seed = s->t.seed;
    sc->version = s->t.version;
    if (s->t.daily_day >= 0)
        civil_format(civil_from_days(s->t.daily_day), sc->daily_date);
    sc->score = res->score;
    sc->completed = res->completed;
    sc->received_at = r->started_us / 1000;
    memcpy(sc->moves_hash, s->hash, sizeof sc->moves_hash);
    json_t *canon = moves_to_json(s->g, s->moves, (size_t)s->n);
    sc->moves_json = json_dumps(canon, JSON_COMPACT);
    json_decref(canon);
    json_t *rj = result_to_json(s->g, res);
    sc->result_json = json_dumps(rj, JSON_COMPACT);
    json_decref(rj);
    receipt_fields f = { sc->score_id, sc->player_id, sc->game, sc->level, sc->seed, sc->version,
                         sc->score, sc->moves_hash };
    if (!sc->moves_json || !sc->result_json ||
        receipt_sign(&r->app->keys, &f, sc->receipt, sizeof sc->receipt) != 0) {
        reply_error(r, 500, "internal", "the score could not be prepared");
        return;
    }
    store_status st = store_submit(r->app->db, sc, &s->existing);
    if (st == STORE_OK) {
        metrics_verification(&r->app->stats, game_index(s->g), VERIFY_ACCEPTED);
        answer_recorded(r, sc);
    } else if (st == STORE_CONFLICT) {
        answer_redeemed(r, s->g, &s->existing, s->hash);
    } else {
        api_store_error(r, st);
    }
}

void api_scores_submit(request *r)
{
    store_player player;
    if (!api_auth(r, &player))
        return;
    char key[24];
    snprintf(key, sizeof key, "%lld", (long long)player.id);
    if (!ratelimit_allow(&r->app->limits, "scores", key, r->app->cfg.rate_scores_per_player,
                         r->started_us)) {
        reply_error(r, 429, "rate_limited", "too many submissions");
        return;
    }
    json_t *doc = req_json_object(r);
    if (!doc)
        return;
    submission s;
    memset(&s, 0, sizeof s);
    const json_t *tok = json_object_get(doc, "seed_token"), *moves_json = json_object_get(doc, "moves");
    if (json_object_size(doc) != 2 || !json_is_string(tok) || !json_is_array(moves_json)) {
        reply_error(r, 400, "bad_request", "expected {\"seed_token\": string, \"moves\": [...]}");
        goto done;
    }
    if (!token_checks(r, &player, json_string_value(tok), &s.t, &s.g))
        goto done;

    size_t cap = (size_t)r->app->cfg.max_moves < (size_t)s.g->max_moves ? (size_t)r->app->cfg.max_moves
                                                                         : (size_t)s.g->max_moves;
    if (json_array_size(moves_json) > cap) {
        char msg[80];
        snprintf(msg, sizeof msg, "at most %zu moves", cap);
        reply_error(r, 413, "too_many_moves", msg);
        goto done;
    }
    s.moves = calloc(json_array_size(moves_json) + 1, sizeof *s.moves);
    move_error merr;
    if (!s.moves) {
        reply_error(r, 500, "internal", "out of memory");
        goto done;
    }
    s.n = moves_from_json(s.g, moves_json, s.moves, cap, &merr);
    if (s.n < 0) {
        reply_error_with(r, 400, "bad_moves", merr.message, json_pack("{s:I}", "move", (json_int_t)merr.index));
        goto done;
    }
    moves_hash(s.g, s.moves, (size_t)s.n, s.hash);

    store_token rec;
    store_status st = store_token_get(r->app->db, s.t.nonce, &rec);
    if (st == STORE_NOT_FOUND) {
        reply_error(r, 400, "invalid_seed_token", "the seed token is not on record");
        goto done;
    }
    if (st != STORE_OK) {
        api_store_error(r, st);
        goto done;
    }
    if (rec.redeemed) {
        char id[33];
        sodium_bin2hex(id, sizeof id, s.t.nonce, sizeof s.t.nonce);
        st = store_score_get(r->app->db, id, &s.existing);
        if (st == STORE_OK)
            answer_redeemed(r, s.g, &s.existing, s.hash);
        else
            api_store_error(r, st);
        goto done;
    }
    int64_t now = now_ms();
    if (now > s.t.expires_at) {
        reply_error(r, 400, "token_expired", "the seed token has expired");
        goto done;
    }

    s.level = malloc(s.g->level_size);
    s.state = malloc(s.g->state_size);
    if (!s.level || !s.state ||
        level_cache_get(&r->app->levels, s.g, s.t.version, s.t.level, s.t.seed, s.level) != GEN_OK) {
        reply_error(r, 500, "internal", "the level could not be rebuilt");
        goto done;
    }
    replay_report rep;
    replay_run(s.g, s.level, s.state, s.moves, (size_t)s.n, NULL, &rep);
    if (rep.rejected) {
        reject_replay(r, s.g, &s.t, s.hash, moves_json, s.g->outcomes[rep.rejected_outcome].code,
                      (long)rep.rejected_move);
        goto done;
    }
    int64_t allowed = now - s.t.issued_at + r->app->cfg.plausibility_slack_ms;
    if (rep.result.duration_ms > allowed) {
        reject_replay(r, s.g, &s.t, s.hash, moves_json, "duration_exceeds_elapsed",
                      first_move_after(s.g, s.moves, (size_t)s.n, allowed));
        goto done;
    }
    record_verified(r, &s, &rep.result);
done:
    submission_free(&s);
    json_decref(doc);
}

void api_score_get(request *r)
{
    const char *id = r->seg[2];
    if (strlen(id) != 32 || strspn(id, "0123456789abcdef") != 32) {
        reply_error(r, 404, "not_found", "no such score");
        return;
    }
    store_score sc;
    memset(&sc, 0, sizeof sc);
    store_status st = store_score_get(r->app->db, id, &sc);
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
    api_format_time(sc.received_at, at);
    json_t *moves = sc.moves_json ? json_loads(sc.moves_json, 0, NULL) : NULL;
    json_t *result = sc.result_json ? json_loads(sc.result_json, 0, NULL) : NULL;
    json_t *out = json_pack("{s:s,s:I,s:s,s:s,s:i,s:I,s:i,s:I,s:b,s:s,s:s,s:s,s:o,s:o}", "score_id",
                            sc.score_id, "player_id", (json_int_t)sc.player_id, "name", sc.player_name,
                            "game", sc.game, "level", sc.level, "seed", (json_int_t)sc.seed, "version",
                            sc.version, "score", (json_int_t)sc.score, "completed", sc.completed,
                            "submitted_at", at, "moves_hash", hex, "receipt", sc.receipt, "moves",
                            moves ? moves : json_array(), "result", result ? result : json_null());
    if (sc.daily_date[0])
        json_object_set_new(out, "date", json_string(sc.daily_date));
    store_score_clear(&sc);
    reply_json(r, 200, out);
}
