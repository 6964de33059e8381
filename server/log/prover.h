/*
 * prover: the inclusion proofs of a batch's own leaves, and their C2SP
 * tlog-proof text (docs/LOG.md section 8, c2sp.org/tlog-proof). A seal
 * starts a prover at the tree as it stood before the batch's first leaf
 * (its frontier), hands it every stored hash the appends return, and can
 * then prove any leaf from there on in the grown tree without reading
 * anything: every hash such a proof needs is either a complete subtree of
 * the starting frontier or one the appends made.
 *
 * Ownership: the prover owns its arrays (prover_free). Pure apart from
 * libsodium's SHA-256 and base64 (sodium_init first) and malloc.
 */
#ifndef REPLAYD_SERVER_LOG_PROVER_H
#define REPLAYD_SERVER_LOG_PROVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "frontier.h"
#include "merkle.h"

typedef struct prover_level {
    uint64_t first; /* the index of h[0] */
    int n, cap;
    uint8_t (*h)[MERKLE_HASH_BYTES];
} prover_level;

typedef struct log_prover {
    merkle_frontier base; /* the tree before the first leaf it proves */
    prover_level level[MERKLE_PROOF_MAX];
} log_prover;

/* Starts at the tree of `at` (copied). */
void prover_start(log_prover *p, const merkle_frontier *at);
/* Keeps the stored hashes one append returned (frontier_append's out[]);
 * false when memory runs out or they do not follow the ones kept (the
 * prover then proves nothing). */
bool prover_add(log_prover *p, const merkle_stored *added, int count);
/* The inclusion proof of leaf i (at or after the start) in the tree of
 * size n the appends grew; merkle.h's results (MERKLE_EREAD when a hash
 * it needs was not kept). */
int prover_inclusion(const log_prover *p, uint64_t i, uint64_t n, merkle_proof *out);
void prover_free(log_prover *p);

/* c2sp.org/tlog-proof@v1 text: the header, "index <i>", one base64 hash
 * per line from the leaf up, a blank line, then the checkpoint note as
 * it is. Written with a NUL into out; its length, 0 when it does not fit. */
size_t tlog_proof_text(uint64_t index, const merkle_proof *proof, const char *note, char *out, size_t cap);

#endif
