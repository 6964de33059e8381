/*
 * merkle: the score log's Merkle tree, RFC 6962 / RFC 9162 hashing over
 * SHA-256 (libsodium), with Go tlog's "stored hash" addressing
 * (docs/LOG.md gives every byte).
 *
 *   leaf hash  = SHA-256(0x00 || data)
 *   node hash  = SHA-256(0x01 || left || right)
 *   empty tree = SHA-256("")
 *
 * A stored hash (level L, index N) is the hash of the complete subtree of
 * 2^L leaves that starts at leaf N * 2^L: level 0 holds the leaf hashes,
 * and a log keeps every stored hash it has (merkle_hashes_for_leaf says
 * which ones appending a leaf adds). Everything else (tree hashes of any
 * size, inclusion and consistency proofs) is computed from stored hashes
 * through a reader the caller supplies, so this module does no I/O, keeps
 * no state and allocates nothing; the verifiers need no reader at all.
 *
 * Sizes go up to MERKLE_SIZE_MAX (2^63) leaves, so a path or proof is at
 * most MERKLE_PROOF_MAX hashes and every call does bounded work (at most
 * 64 * 64 reads for a proof). Every buffer is the caller's. libsodium must
 * have been initialised (sodium_init) before any call.
 */
#ifndef REPLAYD_SERVER_LOG_MERKLE_H
#define REPLAYD_SERVER_LOG_MERKLE_H

#include <stddef.h>
#include <stdint.h>

#define MERKLE_HASH_BYTES 32
#define MERKLE_PROOF_MAX 64
#define MERKLE_SIZE_MAX (UINT64_C(1) << 63)

/* Results: 0, or one of these. A reader's own failure is MERKLE_EREAD; the
 * reader keeps whatever detail it wants in its context. */
enum merkle_result {
    MERKLE_OK = 0,
    MERKLE_ERANGE = -1, /* a size or index outside what the call accepts */
    MERKLE_EREAD = -2,  /* the reader returned an error */
    MERKLE_EPROOF = -3, /* a proof that does not verify */
};

/* Reads the stored hash (level, index) into out; returns 0, or non-zero
 * when it cannot (missing, I/O error). */
typedef int (*merkle_read_fn)(void *ctx, int level, uint64_t index,
                              uint8_t out[MERKLE_HASH_BYTES]);

typedef struct merkle_reader {
    merkle_read_fn read;
    void *ctx; /* borrowed: handed to read unchanged */
} merkle_reader;

/* A proof: len hashes, in the order RFC 9162 gives them. */
typedef struct merkle_proof {
    int len;
    uint8_t hash[MERKLE_PROOF_MAX][MERKLE_HASH_BYTES];
} merkle_proof;

/* One stored hash and its address. */
typedef struct merkle_stored {
    int level;
    uint64_t index;
    uint8_t hash[MERKLE_HASH_BYTES];
} merkle_stored;

void merkle_leaf_hash(const uint8_t *data, size_t len, uint8_t out[MERKLE_HASH_BYTES]);
void merkle_node_hash(const uint8_t left[MERKLE_HASH_BYTES], const uint8_t right[MERKLE_HASH_BYTES],
                      uint8_t out[MERKLE_HASH_BYTES]);
void merkle_empty_root(uint8_t out[MERKLE_HASH_BYTES]);

/* The stored hashes that appending leaf n (0-based; the tree had n leaves
 * and gets n + 1) adds, lowest level first: (0, n) = leaf_hash, then one
 * per complete subtree the leaf closes, (L + 1, n >> (L + 1)) from the
 * left sibling (L, (n >> L) - 1) read from the reader and the hash below.
 * *count gets how many (1..64).
 * MERKLE_ERANGE when n >= MERKLE_SIZE_MAX. */
int merkle_hashes_for_leaf(const merkle_reader *r, uint64_t n,
                           const uint8_t leaf_hash[MERKLE_HASH_BYTES],
                           merkle_stored out[MERKLE_PROOF_MAX], int *count);

/* The root of the tree of the first n leaves (n = 0: the empty root);
 * n <= MERKLE_SIZE_MAX and the reader must hold that tree's stored hashes. */
int merkle_tree_hash(const merkle_reader *r, uint64_t n, uint8_t out[MERKLE_HASH_BYTES]);

/* RFC 9162 PATH(i, D[0:n]): the inclusion proof of leaf i in the tree of
 * size n, from the leaf up (empty when n = 1). MERKLE_ERANGE unless
 * i < n <= MERKLE_SIZE_MAX. */
int merkle_inclusion_proof(const merkle_reader *r, uint64_t i, uint64_t n, merkle_proof *out);

/* RFC 9162 PROOF(m, D[0:n]): the consistency proof from the tree of size m
 * to the tree of size n; empty when m = n. MERKLE_ERANGE unless
 * 0 < m <= n <= MERKLE_SIZE_MAX. */
int merkle_consistency_proof(const merkle_reader *r, uint64_t m, uint64_t n, merkle_proof *out);

/* RFC 9162 section 2.1.3.2: 0 when proof shows that leaf_hash is leaf i of
 * the tree of size n whose root is root; MERKLE_EPROOF otherwise (an index
 * out of range, a proof too short or too long, a wrong hash). */
int merkle_verify_inclusion(uint64_t i, uint64_t n, const uint8_t leaf_hash[MERKLE_HASH_BYTES],
                            const merkle_proof *proof, const uint8_t root[MERKLE_HASH_BYTES]);

/* RFC 9162 section 2.1.4.2: 0 when proof shows that the tree of size m
 * with root root_m is a prefix of the tree of size n with root root_n;
 * MERKLE_EPROOF otherwise. m = n needs an empty proof and equal roots;
 * m = 0 or m > n is refused (there is nothing to prove). */
int merkle_verify_consistency(uint64_t m, uint64_t n, const uint8_t root_m[MERKLE_HASH_BYTES],
                              const uint8_t root_n[MERKLE_HASH_BYTES], const merkle_proof *proof);

#endif
