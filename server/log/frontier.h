/*
 * frontier: the right edge of a Merkle tree (docs/LOG.md section 2),
 * everything needed to append to it and to sign its root without reading
 * anything else: for a tree of `size` leaves, the hash of each complete
 * subtree its binary digits name, (L, (size >> L) - 1) for each 1 bit L.
 * Appending a leaf is a binary counter's carry: the new leaf's hash
 * merges with the subtrees it completes, and each merge is a stored hash
 * the log keeps (merkle_hashes_for_leaf's list, which the append returns).
 *
 * The encoded form (log_checkpoint.frontier, docs/STORAGE.md) is the
 * hashes from the highest 1 bit down, 32 bytes each: popcount(size) * 32
 * bytes, nothing else (the size is stored beside it).
 *
 * Pure apart from libsodium's SHA-256 (sodium_init first): no I/O, no
 * allocation, no state outside the caller's struct.
 */
#ifndef REPLAYD_SERVER_LOG_FRONTIER_H
#define REPLAYD_SERVER_LOG_FRONTIER_H

#include <stddef.h>
#include <stdint.h>

#include "merkle.h"

#define FRONTIER_BYTES_MAX (MERKLE_PROOF_MAX * MERKLE_HASH_BYTES)

typedef struct merkle_frontier {
    uint64_t size;
    /* hash[L]: the subtree of bit L of size; meaningless where the bit is 0 */
    uint8_t hash[MERKLE_PROOF_MAX][MERKLE_HASH_BYTES];
} merkle_frontier;

/* The frontier of the tree of size leaves from its encoded form (len
 * bytes); MERKLE_ERANGE when len is not popcount(size) * 32 or size
 * exceeds MERKLE_SIZE_MAX. The empty tree's is size 0, len 0. */
int frontier_decode(uint64_t size, const uint8_t *blob, size_t len, merkle_frontier *out);

/* f's encoded form into out (cap bytes, FRONTIER_BYTES_MAX always fits);
 * its length. */
size_t frontier_encode(const merkle_frontier *f, uint8_t *out, size_t cap);

/* Appends the leaf whose hash is leaf_hash: f grows by one, out[] gets the
 * stored hashes the leaf adds (merkle_hashes_for_leaf's, lowest level
 * first) and *count how many. MERKLE_ERANGE when f is full (2^63). */
int frontier_append(merkle_frontier *f, const uint8_t leaf_hash[MERKLE_HASH_BYTES],
                    merkle_stored out[MERKLE_PROOF_MAX], int *count);

/* The root of f's tree (the empty root for size 0). */
void frontier_root(const merkle_frontier *f, uint8_t out[MERKLE_HASH_BYTES]);

/* A merkle_reader over f that answers the hashes f holds (the complete
 * subtrees of its size) and fails every other read. */
merkle_reader frontier_reader(const merkle_frontier *f);

#endif
