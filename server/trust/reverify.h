/*
 * reverify: the check that nothing stored ever changed meaning. Every
 * stored score's moves are replayed again, with this binary, under the
 * spec version they were recorded under, on the level rebuilt from (game,
 * level, seed, version); a score whose moves no longer decode, hash or
 * replay to what was recorded (score, completed, the whole result) is a
 * divergence, and so is one whose receipt no longer verifies over its
 * recorded fields (when a keyring is given: a row edited consistently,
 * a whole other run with its own hash and score, still breaks the
 * signature). Used by `replayd reverify` and POST /v1/admin/reverify.
 * The replay is the one a new submission's verification runs
 * (verify_replay in verify.h); the rest of verify_submission (the time
 * that passed, fair play, the holds) is about a run as it arrives and is
 * not asked of a stored one.
 *
 * Scores are read a page at a time in seq order and each page is checked
 * by `jobs` threads; divergences are reported in seq order on the calling
 * thread. Memory is bounded by the page, whatever the database holds.
 *
 * Ownership: a divergence handed to `found` is borrowed for the call
 * (json_incref to keep it). The counts are the caller's; they may be read
 * from any thread while the run goes on.
 */
#ifndef REPLAYD_SERVER_REVERIFY_H
#define REPLAYD_SERVER_REVERIFY_H

#include <stdatomic.h>
#include <stdint.h>

#include <jansson.h>

#include "keys.h"
#include "../store/store.h"

#define REVERIFY_MAX_JOBS 64

typedef struct reverify_counts {
    atomic_int_fast64_t total;     /* scores in the scan when it began */
    atomic_int_fast64_t checked;   /* replayed so far */
    atomic_int_fast64_t divergent; /* of those, differing from the record */
    atomic_bool cancel;            /* set by anyone: the run stops after its page */
} reverify_counts;

typedef void (*reverify_found)(void *ctx, const json_t *divergence);
/* After each page, on the calling thread (progress reports). */
typedef void (*reverify_tick)(void *ctx, const reverify_counts *c);

/* NULL when sc replays to exactly what was recorded; otherwise a new
 * object: {"score_id","seq","player_id","game","level","seed","version",
 * ("date"), "differs": [field names: moves_hash, rejected, score, completed,
 * result, receipt], "stored": {...}, "replayed": {...}}
 * or, when it cannot be replayed at all, "differs": ["replay"] and
 * "detail".
 * A v3 receipt ("v3.<index>") is checked against leaf, the score log's
 * leaf at its index as the store holds it (NULL: none there): it must be
 * the leaf of sc's fields (docs/LOG.md section 7), held or not at its
 * commit; v1 and v2 receipts against keys (NULL: not checked). */
json_t *reverify_score(const store_score *sc, const keyring *keys, const store_log_entry *leaf);

/* Replays every score of the scan; keys (NULL: receipts unchecked) checks
 * each receipt, v1 or v2, with the key it names. STORE_OK when all were
 * checked (a cancelled run answers STORE_OK with checked < total), else
 * the store's error. Divergences go to found, in seq order. */
store_status reverify_run(store *s, const store_scan *scan, int jobs, const keyring *keys,
                          reverify_counts *c, reverify_found found, reverify_tick tick, void *ctx);

#endif
