/*
 * api_scores: the submission path and the public audit read of a score.
 *
 * A submission flows one way: decode (token, moves) → verify (pure: the
 * level rebuilt, every move replayed, the claimed time against the time
 * that passed, fairplay.h; the run's shape and progress times, twins.h)
 * → reads that may hold it (the new-account hold and the record review
 * for a daily, the twin lookup over the candidates it can read) → one
 * store_score record handed to the writer, with the connection suspended
 * → the writer's transaction makes the only redeem check, compares the
 * twin candidates committed since the read (holding both runs of a pair)
 * and commits →
 * the request resumes and the reply is built once from that row. A
 * rejected replay is a rejection record instead, answered after its commit.
 *
 * Ownership: a submission (one per request) is owned by its request and
 * freed when the request ends; it holds the decoded moves, the result as
 * JSON and the write handed to the store.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/daily.h"
#include "../../core/replay.h"
#include "api.h"
#include "../trust/fairplay.h"
#include "../base/json_game.h"
#include "../trust/receipt.h"
#include "../trust/token.h"
#include "../trust/twins.h"

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
    json_t *features; /* the review's features (fairplay_features) */
    int64_t suspicion;
    int64_t pace, slack; /* for the population and history, once accepted (fairplay_book.h) */
    int64_t search, search_se2; /* the search pace and its squared standard error, for the form (fairplay_book.h) */
    json_t *identity;    /* set when the board requires an identity the player lacks */
    json_t *record;      /* set when a daily run would enter the top review_top unreviewed */
    json_t *twin;        /* set when the run twins another player's (twins.h) */
    int64_t twin_of, twin_player, twin_seen; /* that run's seq and player; the newest candidate read */
    int twin_permille;
    uint8_t shape[TWIN_SHAPE_BYTES]; /* the progress moves without their times (twins.h) */
    char *times;         /* the progress moves' times in hex (twins.h); NULL: untimed */
    store_write w;    /* the record handed to the writer */
} submission;

static void submission_free(void *p)
{
    submission *s = p;
    if (!s)
        return;
    free(s->moves);
    json_decref(s->result);
    json_decref(s->features);
    json_decref(s->identity);
    json_decref(s->record);
    json_decref(s->twin);
    free(s->times);
    if (s->w.kind == STORE_WRITE_SCORE) {
        store_score_clear(&s->w.u.score.score);
        store_score_clear(&s->w.u.score.existing);
    } else if (s->w.kind == STORE_WRITE_REJECTION) {
        free((char *)s->w.u.rejection.rejection.moves_json);
    }
    free(s);
}

/* The 200 answer for a recorded score: the first time and on every retry.
 * `result` is the score's result (borrowed). */
static void answer_recorded(request *r, const store_score *sc, json_t *result)
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
    answer_recorded(r, existing, result);
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
            fairplay_book_add(&r->app->book, &b, s->t.p.player_id, ranked ? s->pace : -1, s->slack);
            fairplay_book_add_form(&r->app->book, &b, s->t.p.player_id, s->search, s->search_se2, ranked);
        }
        answer_recorded(r, &w->u.score.score, s->result);
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
 * conflict whatever these moves were; a rejection that could not be kept
 * is still a rejection (the store logged why). */
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
                               "token_burned", s->w.status == STORE_OK && rej->burned));
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

/* The first move whose "t" is later than the allowed elapsed time. */
static long first_move_after(const game *g, int version, const game_move *moves, size_t n,
                             int64_t allowed)
{
    for (int f = 0; f < g->n_fields; f++) {
        if (strcmp(g->fields[f].name, "t") != 0 || !game_field_in(&g->fields[f], version))
            continue;
        for (size_t i = 0; i < n; i++)
            if (moves[i].v[f] > allowed)
                return (long)i;
    }
    return n ? (long)n - 1 : 0;
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

/* The new-account hold (docs/OPERATIONS.md, New accounts): the
 * thresholds and the player's facts, handed to the store, which reads the
 * player's played time and decides inside the score's transaction
 * (server/store/store_ageing.c). */
static void check_new_account(request *r, const store_player *player, submission *s)
{
    const config *c = &r->app->cfg;
    s->w.u.score.score.new_account = (store_new_account){
        .hours = c->new_account_hours,
        .play_minutes = c->new_account_play_minutes,
        .levels = c->new_account_levels,
        .runs = c->new_account_runs,
        .created_at = player->created_at,
        .bound = player->provider[0] != 0, /* an Apple or Google identity costs more than a script's play */
    };
}

/* A board's requirement (daily_requires, level_requires): a player
 * without a bound identity on a board that requires one has the score
 * kept and held, held_reason "identity". */
static void check_identity(request *r, const store_player *player, submission *s)
{
    bool daily = play_is_daily(&s->t.p);
    const char *req = daily ? r->app->cfg.daily_requires : r->app->cfg.level_requires;
    if (strcmp(req, "identity") == 0 && !player->provider[0])
        s->identity = json_pack("{s:s,s:s}", "requires", "identity", "board", daily ? "daily" : "level");
}

/* Records are reviewed (review_top): a daily run that would enter the top
 * review_top of its board, from a player none of whose runs an operator
 * has approved yet, is held until one does (held_reason "record"); the
 * approval then counts as the player's history. Read outside the writer's
 * transaction, like the new-account count. false after answering. */
static bool check_record(request *r, const store_player *player, submission *s, int64_t score)
{
    int top = r->app->cfg.review_top;
    if (top <= 0 || !play_is_daily(&s->t.p))
        return true;
    store_board b = store_board_of(&s->t.p);
    int64_t would = 0, approved = 0;
    store_status st = store_board_would_rank(r->app->db, &b, score, &would);
    if (st == STORE_OK && would <= top)
        st = store_player_approved(r->app->db, player->id, &approved);
    if (st != STORE_OK) {
        api_store_error(r, st);
        return false;
    }
    if (would <= top && approved == 0)
        s->record = json_pack("{s:I,s:i,s:I}", "would_be_rank", (json_int_t)would, "review_top", top,
                              "approved_runs", (json_int_t)approved);
    return true;
}

/* Twin runs: another player's run on this board and seed with the same
 * progress (the same shape) whose gaps rank-correlate at
 * twin_correlation_permille or more; the best-correlated of the newest
 * TWIN_CANDIDATES such runs is linked. The runs committed after this read
 * are compared by the store inside the score's transaction (twin_match),
 * so two twins committed together still meet. false after answering. */
static bool find_twin(request *r, submission *s)
{
    int threshold = r->app->cfg.twin_correlation_permille;
    if (threshold <= 0 || !s->times)
        return true;
    size_t hex_len = strlen(s->times), mine_len = hex_len / 2;
    if (mine_len / TWIN_TIME_BYTES < TWIN_MIN_GAPS)
        return true;
    store_twin_candidate *cand = malloc(TWIN_CANDIDATES * sizeof *cand);
    uint8_t *mine = malloc(2 * mine_len + 1);
    if (!cand || !mine) {
        free(cand);
        free(mine);
        reply_error(r, 500, "internal", "out of memory");
        return false;
    }
    uint8_t *theirs = mine + mine_len;
    int n = 0;
    store_status st = store_twin_candidates(r->app->db, &s->t.p, s->shape, TWIN_CANDIDATES, cand, &n);
    if (st != STORE_OK) {
        free(cand);
        free(mine);
        api_store_error(r, st);
        return false;
    }
    size_t got;
    sodium_hex2bin(mine, mine_len, s->times, hex_len, NULL, &got, NULL);
    int best = -1001;
    const store_twin_candidate *pick = NULL;
    for (int k = 0; k < n; k++) {
        size_t len = 0;
        int corr;
        if (strlen(cand[k].times) == hex_len &&
            sodium_hex2bin(theirs, mine_len + 1, cand[k].times, hex_len, NULL, &len, NULL) == 0 &&
            twin_times_correlation(mine, mine_len, theirs, len, &corr) && corr >= threshold && corr > best) {
            best = corr;
            pick = &cand[k];
        }
    }
    s->twin_seen = n ? cand[0].seq : 0; /* newest first */
    if (pick) {
        s->twin_of = pick->seq;
        s->twin_player = pick->player_id;
        s->twin_permille = best;
        s->twin = json_pack("{s:I,s:I,s:i}", "of_seq", (json_int_t)pick->seq, "player_id",
                            (json_int_t)pick->player_id, "correlation_permille", best);
    }
    free(mine);
    store_twin_candidates_clear(cand, n);
    free(cand);
    return true;
}

/* Builds the score record from a verified replay; false after a 500. */
static bool build_score(request *r, submission *s, const game_result *res, int64_t elapsed_ms)
{
    const game *g = s->t.p.g;
    store_score *sc = &s->w.u.score.score;
    sc->p = s->t.p;
    play_score_id(&sc->p, sc->score_id);
    sc->score = res->score;
    sc->completed = res->completed;
    sc->outcome = fairplay_outcome(&r->app->cfg, res, elapsed_ms);
    sc->timed = res->duration_ms >= 0;
    json_t *signals = fairplay_signals(&r->app->cfg, res, elapsed_ms);
    if (signals && s->features)
        json_object_set(signals, "features", s->features);
    if (signals && s->identity)
        json_object_set(signals, "identity", s->identity);
    if (signals && s->record)
        json_object_set(signals, "record", s->record);
    if (signals && s->twin)
        json_object_set(signals, "twin", s->twin);
    /* a first decision before the level's think floor (fairplay.h) */
    bool think_early = fairplay_think_early(s->features);
    if (signals && think_early)
        json_object_set_new(signals, "think_time",
                            json_pack("{s:O,s:O}", "think_ms", json_object_get(s->features, "think_ms"),
                                      "think_floor_ms", json_object_get(s->features, "think_floor_ms")));
    /* both runs of a twin pair, a parallel run and a new account's daily
     * are held by the store (store.h) */
    sc->hold = s->identity != NULL || s->record != NULL || think_early;
    memcpy(sc->shape_hash, s->shape, sizeof sc->shape_hash);
    sc->has_shape = true;
    sc->twin_times = s->times;
    s->times = NULL;
    sc->twin_of = s->twin_of;
    sc->twin_player = s->twin_player;
    sc->twin_permille = s->twin_permille;
    sc->twin_seen = s->twin_seen;
    sc->twin_threshold = r->app->cfg.twin_correlation_permille;
    sc->twin_match = twin_times_correlation;
    sc->twin_weight = TWIN_WEIGHT;
    sc->claimed_ms = res->duration_ms; /* -1: untimed */
    sc->parallel_overlap_ms = r->app->cfg.parallel_overlap_ms;
    sc->signals_json = signals ? json_dumps(signals, JSON_COMPACT) : NULL;
    sc->suspicion = s->suspicion;
    sc->duplicate_weight = FAIRPLAY_W_DUPLICATE;
    sc->review_threshold = r->app->cfg.review_hold_threshold;
    json_decref(signals);
    sc->received_at = r->started_us / 1000;
    memcpy(sc->moves_hash, s->hash, sizeof sc->moves_hash);
    json_t *canon = moves_to_json(g, sc->p.version, s->moves, (size_t)s->n);
    sc->moves_json = json_dumps(canon, JSON_COMPACT);
    json_decref(canon);
    s->result = result_to_json(g, res);
    sc->result_json = json_dumps(s->result, JSON_COMPACT);
    receipt_fields f = { &sc->p, sc->score_id, sc->score, sc->completed, sc->received_at,
                         sc->moves_hash };
    if (!sc->moves_json || !sc->result_json || !sc->signals_json ||
        receipt_sign(&r->app->keys, &f, sc->receipt, sizeof sc->receipt) != 0) {
        reply_error(r, 500, "internal", "the score could not be prepared");
        return false;
    }
    return true;
}

/* The review's features and suspicion of a verified run, against the
 * board's population and the player's history (fairplay_book.h). */
/* The run's shape and progress times (twins.h), from its outcomes; false
 * when out of memory. */
static bool twin_measure(submission *s, const int *outcomes)
{
    const game *g = s->t.p.g;
    int v = s->t.p.version;
    twin_shape_hash(g, v, s->moves, outcomes, (size_t)s->n, s->shape);
    if (twin_time_field(g, v) < 0)
        return true;
    uint8_t *bytes = malloc((size_t)s->n * TWIN_TIME_BYTES + 1);
    size_t len = bytes ? twin_times_pack(g, v, s->moves, outcomes, (size_t)s->n, bytes) : 0;
    s->times = bytes ? malloc(2 * len + 1) : NULL;
    if (s->times)
        sodium_bin2hex(s->times, 2 * len + 1, bytes, len);
    free(bytes);
    return s->times != NULL;
}

static void measure(request *r, submission *s, const game_level *level, const int *outcomes,
                    const game_result *res, int64_t elapsed_ms)
{
    fairplay_points pts;
    s->features = fairplay_features(&r->app->cfg, s->t.p.g, level, s->t.p.version, s->moves,
                                    (size_t)s->n, outcomes, res, elapsed_ms, &pts);
    s->pace = fairplay_pace_of(s->features, res->completed);
    s->slack = fairplay_slack_of(s->features);
    store_board b = store_board_of(&s->t.p);
    fairplay_population(s->features, fairplay_book_percentile(&r->app->book, &b, s->pace),
                        fairplay_book_routine(&r->app->book, s->t.p.player_id, s->slack), &pts);
    s->search = fairplay_form_mean_of(s->features);
    s->search_se2 = fairplay_form_se2_of(s->features);
    int form_runs;
    int64_t form = fairplay_book_form(&r->app->book, &b, s->t.p.player_id, s->search, s->search_se2, &form_runs);
    fairplay_form(s->features, form, form_runs, &pts);
    s->suspicion = fairplay_total(s->features, &pts);
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
    if (s)
        s->w.kind = STORE_WRITE_SCORE; /* until it becomes a rejection */
    if (!s) {
        reply_error(r, 500, "internal", "out of memory");
        return;
    }
    req_own(r, s, submission_free);
    if (!decode(r, &player, s))
        return;
    const game *g = s->t.p.g;
    int64_t now = now_ms();
    if (now > s->t.expires_at) {
        answer_expired(r, s);
        return;
    }

    game_level *level = malloc(g->level_size);
    game_state *state = malloc(g->state_size);
    int *outcomes = malloc(((size_t)s->n + 1) * sizeof *outcomes);
    replay_report rep;
    bool measured = true;
    bool rebuilt = level && state && outcomes &&
                   level_cache_get(&r->app->levels, g, s->t.p.version, s->t.p.level, s->t.p.seed,
                                   level) == GEN_OK;
    if (rebuilt)
        replay_run(g, level, state, s->moves, (size_t)s->n, outcomes, &rep);
    /* measured here, while the level and the outcomes are at hand */
    if (rebuilt && !rep.rejected) {
        measure(r, s, level, outcomes, &rep.result, now - s->t.issued_at);
        measured = twin_measure(s, outcomes);
    }
    free(level);
    free(state);
    free(outcomes);
    if (!rebuilt) {
        reply_error(r, 500, "internal", "the level could not be rebuilt");
        return;
    }
    if (!measured) {
        reply_error(r, 500, "internal", "out of memory");
        return;
    }
    if (rep.rejected) {
        reject_replay(r, s, g->outcomes[rep.rejected_outcome].code, (long)rep.rejected_move);
        return;
    }
    int64_t elapsed = now - s->t.issued_at;
    int64_t allowed = fairplay_allowed_ms(&r->app->cfg, elapsed);
    if (rep.result.duration_ms > allowed) {
        reject_replay(r, s, "duration_exceeds_elapsed",
                      first_move_after(g, s->t.p.version, s->moves, (size_t)s->n, allowed));
        return;
    }
    check_identity(r, &player, s);
    check_new_account(r, &player, s);
    if (!check_record(r, &player, s, rep.result.score) ||
        !find_twin(r, s) ||
        !build_score(r, s, &rep.result, elapsed))
        return;
    s->w.kind = STORE_WRITE_SCORE;
    api_write(r, &s->w, score_committed);
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
