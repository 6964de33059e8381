/*
 * verify: what makes one submission a score, from a seed token that is
 * known, the player's and not expired, to the record handed to the writer:
 * the level rebuilt (through the level cache), every move replayed, the
 * run measured (fairplay.h: its features and suspicion against the
 * board's population and the player's history; twins.h: its shape and
 * progress times), the claimed time against the time that passed since
 * the seed was issued (fairplay_allowed_ms), then the facts that may hold
 * it: a board that requires an identity, the new-account hold's
 * thresholds, the record review (a daily run that would enter the top
 * review_top from a player with no approved run), the twin lookup over
 * the candidates it can read; last the store_score record with its
 * signals, features and signed receipt. The checks run in that order and
 * the first that fails answers.
 *
 * Pure: no clock (the request's arrival and the time of the check are
 * passed in), no I/O and no HTTP of its own. What it reads of the server
 * comes in a verify_ctx handed down by the caller: the configuration, the
 * keyring (the receipt), the level cache, the fairplay book (read, not
 * added to: the caller adds the run once it is committed), and the two
 * store reads as function pointers with their ctx, each optional (NULL:
 * that check is skipped, as the fuzzer and the unit tests want). Token
 * decoding, authentication, rate limits, the expiry answer and the store
 * write stay with the caller (server/api/api_scores.c).
 *
 * Ownership: verify_out is the caller's; whatever the answer, its owned
 * parts (the score's strings, the result's JSON) are freed with
 * verify_out_clear, or the score is taken whole (a struct copy, then
 * out->score zeroed) and freed with store_score_clear. The token, the
 * moves and the player are borrowed for the call.
 */
#ifndef REPLAYD_SERVER_VERIFY_H
#define REPLAYD_SERVER_VERIFY_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "../../core/game.h"
#include "../../core/replay.h"
#include "../base/config.h"
#include "../base/level_cache.h"
#include "../store/store.h"
#include "fairplay_book.h"
#include "keys.h"
#include "token.h"

/* The record review's reads: the rank score would take on board b, and the
 * count of the player's runs an operator approved. */
typedef store_status (*verify_would_rank_fn)(void *ctx, const store_board *b, int64_t score, int64_t *rank);
typedef store_status (*verify_approved_fn)(void *ctx, int64_t player_id, int64_t *count);
/* The twin lookup's read: up to limit other players' runs of play p with
 * that shape, newest first, into out[0..*n) (store_twin_candidates; freed
 * with store_twin_candidates_clear). */
typedef store_status (*verify_twins_fn)(void *ctx, const play *p, const uint8_t shape[STORE_HASH_BYTES],
                                        int limit, store_twin_candidate *out, int *n);

typedef struct verify_ctx {
    const config *cfg;
    const keyring *keys;   /* signs the receipt */
    level_cache *levels;
    fairplay_book *book;   /* the population and history a run is measured against */
    void *reads;           /* handed to the read functions */
    verify_would_rank_fn would_rank; /* with approved: the record review (NULL: skipped) */
    verify_approved_fn approved;
    verify_twins_fn twins; /* the twin lookup (NULL: skipped) */
} verify_ctx;

typedef enum verify_result {
    VERIFIED_SCORE,     /* out->score is the record for the writer */
    VERIFIED_REJECTION, /* the replay is refused: out->reason at out->move */
    VERIFY_ERR_LEVEL,   /* the level could not be rebuilt (or its room allocated) */
    VERIFY_ERR_MEMORY,
    VERIFY_ERR_PREPARE, /* the record could not be built (its JSON or its receipt) */
    VERIFY_ERR_STORE    /* a read failed: out->store_error */
} verify_result;

/* A verified run's facts for the fairplay book, which the caller adds
 * once the run is committed (fairplay_book.h). */
typedef struct verify_book_facts {
    int64_t pace, slack;        /* fairplay_book_add */
    int64_t search, search_se2; /* fairplay_book_add_form */
} verify_book_facts;

typedef struct verify_out {
    uint8_t moves_hash[STORE_HASH_BYTES]; /* always */
    /* VERIFIED_SCORE */
    store_score score;   /* owned */
    json_t *result;      /* owned: the replay's result, for the reply */
    bool receipt_signed; /* a v2 receipt was signed for it (one Ed25519 signature) */
    verify_book_facts book;
    /* VERIFIED_REJECTION: the outcome's code (static) and the move's index */
    const char *reason;
    long move;
    store_status store_error; /* VERIFY_ERR_STORE */
} verify_out;

/* Verifies n moves of token t's play by player. received_ms is the
 * request's arrival (the record's received_at, which the receipt signs),
 * now_ms the time of the check (the elapsed time is now_ms - issued_at). */
verify_result verify_submission(const verify_ctx *ctx, const store_player *player, const seed_token *t,
                                const game_move *moves, size_t n, int64_t received_ms, int64_t now_ms,
                                verify_out *out);

void verify_out_clear(verify_out *out);

/* The replay every check of a score shares (a new submission here, a
 * stored score in reverify.c): play p's level rebuilt (from levels when
 * given, else by game_generate) into level, the n moves replayed from
 * state into rep, each move's outcome into outcomes (NULL: not kept).
 * false when the level could not be rebuilt. The buffers are the
 * caller's, sized for p's game (level_size, state_size, n + 1). */
bool verify_replay(level_cache *levels, const play *p, const game_move *moves, size_t n, game_level *level,
                   game_state *state, int *outcomes, replay_report *rep);

#endif
