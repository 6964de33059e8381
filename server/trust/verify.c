/*
 * verify: one submission made a score record or refused (verify.h). The
 * order of the checks is the answer's: the level, the replay, the
 * measures, the claimed time, then the holds' facts and the record.
 */
#include "verify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "../../core/replay.h"
#include "../base/json_game.h"
#include "fairplay.h"
#include "receipt.h"
#include "twins.h"

/* One verification's working state: what it found on the way to the record. */
typedef struct run {
    const verify_ctx *ctx;
    const store_player *player;
    const seed_token *t;
    const game_move *moves;
    size_t n;
    int64_t elapsed;  /* ms since the seed was issued, at the check */
    json_t *features; /* the review's features (fairplay_features) */
    int64_t suspicion;
    json_t *identity; /* set when the board requires an identity the player lacks */
    json_t *record;   /* set when a daily run would enter the top review_top unreviewed */
    json_t *twin;     /* set when the run twins another player's (twins.h) */
    int64_t twin_of, twin_player, twin_seen; /* that run's seq and player; the newest candidate read */
    int twin_permille;
    uint8_t shape[TWIN_SHAPE_BYTES]; /* the progress moves without their times (twins.h) */
    char *times;                     /* the progress moves' times in hex (twins.h); NULL: untimed */
    verify_out *out;
} run;

static void run_free(run *r)
{
    json_decref(r->features);
    json_decref(r->identity);
    json_decref(r->record);
    json_decref(r->twin);
    free(r->times);
}

void verify_out_clear(verify_out *out)
{
    store_score_clear(&out->score);
    json_decref(out->result);
    out->result = NULL;
}

static verify_result reject(run *r, const char *reason, long move)
{
    r->out->reason = reason;
    r->out->move = move;
    return VERIFIED_REJECTION;
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

/* The review's features and suspicion of a verified run, against the
 * board's population and the player's history (fairplay_book.h). */
static void measure(run *r, const game_level *level, const int *outcomes, const game_result *res)
{
    const config *c = r->ctx->cfg;
    const play *p = &r->t->p;
    verify_out *o = r->out;
    fairplay_points pts;
    r->features =
        fairplay_features(c, p->g, level, p->version, r->moves, r->n, outcomes, res, r->elapsed, &pts);
    o->book.pace = fairplay_pace_of(r->features, res->completed);
    o->book.slack = fairplay_slack_of(r->features);
    store_board b = store_board_of(p);
    fairplay_population(r->features, fairplay_book_percentile(r->ctx->book, &b, o->book.pace),
                        fairplay_book_routine(r->ctx->book, p->player_id, o->book.slack), &pts);
    o->book.search = fairplay_form_mean_of(r->features);
    o->book.search_se2 = fairplay_form_se2_of(r->features);
    int form_runs;
    int64_t form =
        fairplay_book_form(r->ctx->book, &b, p->player_id, o->book.search, o->book.search_se2, &form_runs);
    fairplay_form(r->features, form, form_runs, &pts);
    r->suspicion = fairplay_total(r->features, &pts);
}

/* The run's shape and progress times (twins.h), from its outcomes; false
 * when out of memory. */
static bool twin_measure(run *r, const int *outcomes)
{
    const game *g = r->t->p.g;
    int v = r->t->p.version;
    twin_shape_hash(g, v, r->moves, outcomes, r->n, r->shape);
    if (twin_time_field(g, v) < 0)
        return true;
    uint8_t *bytes = malloc(r->n * TWIN_TIME_BYTES + 1);
    size_t len = bytes ? twin_times_pack(g, v, r->moves, outcomes, r->n, bytes) : 0;
    r->times = bytes ? malloc(2 * len + 1) : NULL;
    if (r->times)
        sodium_bin2hex(r->times, 2 * len + 1, bytes, len);
    free(bytes);
    return r->times != NULL;
}

bool verify_replay(level_cache *levels, const play *p, const game_move *moves, size_t n, game_level *level,
                   game_state *state, int *outcomes, replay_report *rep)
{
    const game *g = p->g;
    gen_status gs = levels ? level_cache_get(levels, g, p->version, p->level, p->seed, level)
                           : game_generate(g, level, p->version, p->level, p->seed);
    if (gs != GEN_OK)
        return false;
    replay_run(g, level, state, moves, n, outcomes, rep);
    return true;
}

/* The level rebuilt and the moves replayed into rep; a run the rules
 * accept is measured while the level and the outcomes are at hand. */
static verify_result replay(run *r, replay_report *rep)
{
    const play *p = &r->t->p;
    const game *g = p->g;
    game_level *level = malloc(g->level_size);
    game_state *state = malloc(g->state_size);
    int *outcomes = malloc((r->n + 1) * sizeof *outcomes);
    bool measured = true;
    bool rebuilt = level && state && outcomes &&
                   verify_replay(r->ctx->levels, p, r->moves, r->n, level, state, outcomes, rep);
    if (rebuilt && !rep->rejected) {
        measure(r, level, outcomes, &rep->result);
        measured = twin_measure(r, outcomes);
    }
    free(level);
    free(state);
    free(outcomes);
    if (!rebuilt)
        return VERIFY_ERR_LEVEL;
    return measured ? VERIFIED_SCORE : VERIFY_ERR_MEMORY;
}

/* The new-account hold (docs/OPERATIONS.md, New accounts): the
 * thresholds and the player's facts, handed to the store, which reads the
 * player's played time and decides inside the score's transaction
 * (server/store/store_ageing.c). */
static void check_new_account(run *r)
{
    const config *c = r->ctx->cfg;
    r->out->score.new_account = (store_new_account){
        .hours = c->new_account_hours,
        .play_minutes = c->new_account_play_minutes,
        .levels = c->new_account_levels,
        .runs = c->new_account_runs,
        .created_at = r->player->created_at,
        /* an Apple or Google identity costs more than a script's play */
        .bound = r->player->provider[0] != 0,
    };
}

/* A board's requirement (daily_requires, level_requires): a player
 * without a bound identity on a board that requires one has the score
 * kept and held, held_reason "identity". */
static void check_identity(run *r)
{
    bool daily = play_is_daily(&r->t->p);
    const char *req = daily ? r->ctx->cfg->daily_requires : r->ctx->cfg->level_requires;
    if (strcmp(req, "identity") == 0 && !r->player->provider[0])
        r->identity = json_pack("{s:s,s:s}", "requires", "identity", "board", daily ? "daily" : "level");
}

/* Records are reviewed (review_top): a daily run that would enter the top
 * review_top of its board, from a player none of whose runs an operator
 * has approved yet, is held until one does (held_reason "record"); the
 * approval then counts as the player's history. Read outside the writer's
 * transaction, like the new-account count. */
static verify_result check_record(run *r, int64_t score)
{
    const verify_ctx *x = r->ctx;
    int top = x->cfg->review_top;
    if (top <= 0 || !play_is_daily(&r->t->p) || !x->would_rank || !x->approved)
        return VERIFIED_SCORE;
    store_board b = store_board_of(&r->t->p);
    int64_t would = 0, approved = 0;
    store_status st = x->would_rank(x->reads, &b, score, &would);
    if (st == STORE_OK && would <= top)
        st = x->approved(x->reads, r->player->id, &approved);
    if (st != STORE_OK) {
        r->out->store_error = st;
        return VERIFY_ERR_STORE;
    }
    if (would <= top && approved == 0)
        r->record = json_pack("{s:I,s:i,s:I}", "would_be_rank", (json_int_t)would, "review_top", top,
                              "approved_runs", (json_int_t)approved);
    return VERIFIED_SCORE;
}

/* The best-correlated of the n candidates at threshold or more, linked
 * into r; mine and theirs have room for the run's times. */
static void pick_twin(run *r, const store_twin_candidate *cand, int n, int threshold, uint8_t *mine,
                      uint8_t *theirs)
{
    size_t hex_len = strlen(r->times), mine_len = hex_len / 2;
    size_t got;
    sodium_hex2bin(mine, mine_len, r->times, hex_len, NULL, &got, NULL);
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
    r->twin_seen = n ? cand[0].seq : 0; /* newest first */
    if (pick) {
        r->twin_of = pick->seq;
        r->twin_player = pick->player_id;
        r->twin_permille = best;
        r->twin = json_pack("{s:I,s:I,s:i}", "of_seq", (json_int_t)pick->seq, "player_id",
                            (json_int_t)pick->player_id, "correlation_permille", best);
    }
}

/* Twin runs: another player's run on this board and seed with the same
 * progress (the same shape) whose gaps rank-correlate at
 * twin_correlation_permille or more; the best-correlated of the newest
 * TWIN_CANDIDATES such runs is linked. The runs committed after this read
 * are compared by the store inside the score's transaction (twin_match),
 * so two twins committed together still meet. */
static verify_result find_twin(run *r)
{
    const verify_ctx *x = r->ctx;
    int threshold = x->cfg->twin_correlation_permille;
    if (threshold <= 0 || !r->times || !x->twins)
        return VERIFIED_SCORE;
    size_t mine_len = strlen(r->times) / 2;
    if (mine_len / TWIN_TIME_BYTES < TWIN_MIN_GAPS)
        return VERIFIED_SCORE;
    store_twin_candidate *cand = malloc(TWIN_CANDIDATES * sizeof *cand);
    uint8_t *mine = malloc(2 * mine_len + 1);
    int n = 0;
    store_status st =
        cand && mine ? x->twins(x->reads, &r->t->p, r->shape, TWIN_CANDIDATES, cand, &n) : STORE_OK;
    verify_result v = !cand || !mine ? VERIFY_ERR_MEMORY : st != STORE_OK ? VERIFY_ERR_STORE : VERIFIED_SCORE;
    if (v == VERIFIED_SCORE) {
        pick_twin(r, cand, n, threshold, mine, mine + mine_len);
        store_twin_candidates_clear(cand, n);
    }
    r->out->store_error = st;
    free(mine);
    free(cand);
    return v;
}

/* The run's signals: the facts measured at verification (fairplay.h) with
 * the features and the holds' records found on the way; NULL when out of
 * memory. *think_early: a first decision before the level's think floor. */
static json_t *signals_of(const run *r, const game_result *res, bool *think_early)
{
    json_t *signals = fairplay_signals(r->ctx->cfg, res, r->elapsed);
    if (signals && r->features)
        json_object_set(signals, "features", r->features);
    if (signals && r->identity)
        json_object_set(signals, "identity", r->identity);
    if (signals && r->record)
        json_object_set(signals, "record", r->record);
    if (signals && r->twin)
        json_object_set(signals, "twin", r->twin);
    *think_early = fairplay_think_early(r->features);
    if (signals && *think_early)
        json_object_set_new(signals, "think_time",
                            json_pack("{s:O,s:O}", "think_ms", json_object_get(r->features, "think_ms"),
                                      "think_floor_ms", json_object_get(r->features, "think_floor_ms")));
    return signals;
}

/* The twin facts the store compares and links by (store.h). */
static void set_twin(run *r, store_score *sc)
{
    memcpy(sc->shape_hash, r->shape, sizeof sc->shape_hash);
    sc->has_shape = true;
    sc->twin_times = r->times;
    r->times = NULL;
    sc->twin_of = r->twin_of;
    sc->twin_player = r->twin_player;
    sc->twin_permille = r->twin_permille;
    sc->twin_seen = r->twin_seen;
    sc->twin_threshold = r->ctx->cfg->twin_correlation_permille;
    sc->twin_match = twin_times_correlation;
    sc->twin_weight = TWIN_WEIGHT;
}

/* Builds the score record from a verified replay and signs its receipt. */
static verify_result build_score(run *r, const game_result *res, int64_t received_ms)
{
    const config *c = r->ctx->cfg;
    const game *g = r->t->p.g;
    store_score *sc = &r->out->score;
    sc->p = r->t->p;
    play_score_id(&sc->p, sc->score_id);
    sc->score = res->score;
    sc->completed = res->completed;
    sc->outcome = fairplay_outcome(c, res, r->elapsed);
    sc->timed = res->duration_ms >= 0;
    bool think_early;
    json_t *signals = signals_of(r, res, &think_early);
    /* both runs of a twin pair, a parallel run and a new account's daily
     * are held by the store (store.h) */
    sc->hold = r->identity != NULL || r->record != NULL || think_early;
    set_twin(r, sc);
    sc->claimed_ms = res->duration_ms; /* -1: untimed */
    sc->parallel_overlap_ms = c->parallel_overlap_ms;
    sc->signals_json = signals ? json_dumps(signals, JSON_COMPACT) : NULL;
    sc->suspicion = r->suspicion;
    sc->duplicate_weight = FAIRPLAY_W_DUPLICATE;
    sc->review_threshold = c->review_hold_threshold;
    json_decref(signals);
    sc->received_at = received_ms;
    moves_hash(g, sc->p.version, r->moves, r->n, sc->moves_hash);
    json_t *canon = moves_to_json(g, sc->p.version, r->moves, r->n);
    sc->moves_json = json_dumps(canon, JSON_COMPACT);
    json_decref(canon);
    r->out->result = result_to_json(g, res);
    sc->result_json = json_dumps(r->out->result, JSON_COMPACT);
    if (!sc->moves_json || !sc->result_json || !sc->signals_json)
        return VERIFY_ERR_PREPARE;
    /* a v3 receipt is the score's leaf in the log: the store names it
     * (an empty receipt); a v2 one is signed here, one signature a score */
    sc->receipt[0] = '\0';
    receipt_fields f = { &sc->p, sc->score_id, sc->score, sc->completed, sc->received_at, sc->moves_hash };
    if (r->ctx->cfg->receipt_version == 2) {
        if (receipt_sign(r->ctx->keys, &f, sc->receipt, sizeof sc->receipt) != 0)
            return VERIFY_ERR_PREPARE;
        r->out->receipt_signed = true;
    }
    return VERIFIED_SCORE;
}

/* The checks after the replay, in order: the claimed time, the holds'
 * facts, the record review, the twin lookup, the record. */
static verify_result accept(run *r, const game_result *res, int64_t received_ms)
{
    const play *p = &r->t->p;
    int64_t allowed = fairplay_allowed_ms(r->ctx->cfg, r->elapsed);
    if (res->duration_ms > allowed)
        return reject(r, "duration_exceeds_elapsed",
                      first_move_after(p->g, p->version, r->moves, r->n, allowed));
    check_identity(r);
    check_new_account(r);
    verify_result v = check_record(r, res->score);
    if (v == VERIFIED_SCORE)
        v = find_twin(r);
    return v == VERIFIED_SCORE ? build_score(r, res, received_ms) : v;
}

verify_result verify_submission(const verify_ctx *ctx, const store_player *player, const seed_token *t,
                                const game_move *moves, size_t n, int64_t received_ms, int64_t now_ms,
                                verify_out *out)
{
    memset(out, 0, sizeof *out);
    run r = { .ctx = ctx, .player = player, .t = t, .moves = moves, .n = n,
              .elapsed = now_ms - t->issued_at, .out = out };
    replay_report rep;
    verify_result v = replay(&r, &rep);
    if (v == VERIFIED_SCORE && rep.rejected)
        v = reject(&r, t->p.g->outcomes[rep.rejected_outcome].code, (long)rep.rejected_move);
    else if (v == VERIFIED_SCORE)
        v = accept(&r, &rep.result, received_ms);
    run_free(&r);
    if (v != VERIFIED_SCORE)
        verify_out_clear(out);
    return v;
}
