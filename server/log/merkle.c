/* merkle: RFC 6962 hashing, stored hashes, tree hashes and proofs (merkle.h). */
#include "merkle.h"

#include <string.h>

#include <sodium.h>

void merkle_leaf_hash(const uint8_t *data, size_t len, uint8_t out[MERKLE_HASH_BYTES])
{
    static const uint8_t prefix = 0x00;
    crypto_hash_sha256_state st;
    crypto_hash_sha256_init(&st);
    crypto_hash_sha256_update(&st, &prefix, 1);
    if (len > 0)
        crypto_hash_sha256_update(&st, data, len);
    crypto_hash_sha256_final(&st, out);
}

void merkle_node_hash(const uint8_t left[MERKLE_HASH_BYTES], const uint8_t right[MERKLE_HASH_BYTES],
                      uint8_t out[MERKLE_HASH_BYTES])
{
    uint8_t buf[1 + 2 * MERKLE_HASH_BYTES];
    buf[0] = 0x01;
    memcpy(buf + 1, left, MERKLE_HASH_BYTES);
    memcpy(buf + 1 + MERKLE_HASH_BYTES, right, MERKLE_HASH_BYTES);
    crypto_hash_sha256(out, buf, sizeof buf);
}

void merkle_empty_root(uint8_t out[MERKLE_HASH_BYTES])
{
    crypto_hash_sha256(out, (const unsigned char *)"", 0);
}

/* The largest power of two strictly below x, for x >= 2: RFC 9162's k. */
static uint64_t split_point(uint64_t x)
{
    uint64_t k = 1;
    while (k < x - k)
        k <<= 1;
    return k;
}

/* MTH(D[lo:hi]) for a range the RFC's recursion produces: lo is a multiple
 * of the smallest power of two >= hi - lo, so the range is the complete
 * subtrees of its size's binary digits from the largest down, and the
 * RFC's hash folds them from the right. */
static int range_hash(const merkle_reader *r, uint64_t lo, uint64_t hi, uint8_t out[MERKLE_HASH_BYTES])
{
    uint8_t parts[MERKLE_PROOF_MAX][MERKLE_HASH_BYTES];
    int count = 0;
    uint64_t at = lo;
    for (int level = 63; level >= 0; level--) {
        uint64_t size = UINT64_C(1) << level;
        if (((hi - lo) & size) == 0)
            continue;
        if (r->read(r->ctx, level, at >> level, parts[count]) != 0)
            return MERKLE_EREAD;
        count++;
        at += size;
    }
    if (count == 0)
        return MERKLE_ERANGE;
    memcpy(out, parts[count - 1], MERKLE_HASH_BYTES);
    for (int k = count - 2; k >= 0; k--)
        merkle_node_hash(parts[k], out, out);
    return MERKLE_OK;
}

int merkle_hashes_for_leaf(const merkle_reader *r, uint64_t n,
                           const uint8_t leaf_hash[MERKLE_HASH_BYTES],
                           merkle_stored out[MERKLE_PROOF_MAX], int *count)
{
    *count = 0;
    if (n >= MERKLE_SIZE_MAX)
        return MERKLE_ERANGE;
    out[0].level = 0;
    out[0].index = n;
    memcpy(out[0].hash, leaf_hash, MERKLE_HASH_BYTES);
    int k = 1;
    /* Each trailing 1 bit of n is a complete left sibling that the new
     * subtree completes into one twice its size. */
    for (int level = 0; ((n >> level) & 1) != 0; level++) {
        uint8_t left[MERKLE_HASH_BYTES];
        if (r->read(r->ctx, level, (n >> level) - 1, left) != 0)
            return MERKLE_EREAD;
        out[k].level = level + 1;
        out[k].index = n >> (level + 1);
        merkle_node_hash(left, out[k - 1].hash, out[k].hash);
        k++;
    }
    *count = k;
    return MERKLE_OK;
}

int merkle_tree_hash(const merkle_reader *r, uint64_t n, uint8_t out[MERKLE_HASH_BYTES])
{
    if (n > MERKLE_SIZE_MAX)
        return MERKLE_ERANGE;
    if (n == 0) {
        merkle_empty_root(out);
        return MERKLE_OK;
    }
    return range_hash(r, 0, n, out);
}

/* The proofs are built from the root down and returned from the leaf up. */
static void reverse_proof(merkle_proof *p)
{
    for (int a = 0, b = p->len - 1; a < b; a++, b--) {
        uint8_t t[MERKLE_HASH_BYTES];
        memcpy(t, p->hash[a], MERKLE_HASH_BYTES);
        memcpy(p->hash[a], p->hash[b], MERKLE_HASH_BYTES);
        memcpy(p->hash[b], t, MERKLE_HASH_BYTES);
    }
}

int merkle_inclusion_proof(const merkle_reader *r, uint64_t i, uint64_t n, merkle_proof *out)
{
    out->len = 0;
    if (n > MERKLE_SIZE_MAX || i >= n)
        return MERKLE_ERANGE;
    uint64_t lo = 0, hi = n;
    /* PATH(m, D[lo:hi]) = PATH(m, D[lo:lo+k]) : MTH(D[lo+k:hi]) when m is
     * in the left part, PATH(m-k, D[lo+k:hi]) : MTH(D[lo:lo+k]) otherwise. */
    while (hi - lo > 1) {
        uint64_t k = split_point(hi - lo);
        int rc;
        if (i < lo + k) {
            rc = range_hash(r, lo + k, hi, out->hash[out->len]);
            hi = lo + k;
        } else {
            rc = range_hash(r, lo, lo + k, out->hash[out->len]);
            lo += k;
        }
        if (rc != MERKLE_OK) {
            out->len = 0;
            return rc;
        }
        out->len++;
    }
    reverse_proof(out);
    return MERKLE_OK;
}

int merkle_consistency_proof(const merkle_reader *r, uint64_t m, uint64_t n, merkle_proof *out)
{
    out->len = 0;
    if (n > MERKLE_SIZE_MAX || m == 0 || m > n)
        return MERKLE_ERANGE;
    uint64_t lo = 0, hi = n;
    int whole = 1; /* RFC 9162's b: the old tree is still a whole subtree */
    for (;;) {
        int rc = MERKLE_OK;
        if (m == hi - lo) {
            /* SUBPROOF(m, D[m], b): nothing when the verifier knows this
             * subtree's hash (the old root), MTH(D[m]) otherwise. */
            if (!whole) {
                rc = range_hash(r, lo, hi, out->hash[out->len]);
                out->len++;
            }
            if (rc != MERKLE_OK)
                break;
            reverse_proof(out);
            return MERKLE_OK;
        }
        uint64_t k = split_point(hi - lo);
        if (m <= k) {
            rc = range_hash(r, lo + k, hi, out->hash[out->len]);
            hi = lo + k;
        } else {
            rc = range_hash(r, lo, lo + k, out->hash[out->len]);
            lo += k;
            m -= k;
            whole = 0;
        }
        if (rc != MERKLE_OK)
            break;
        out->len++;
    }
    out->len = 0;
    return MERKLE_EREAD;
}

int merkle_verify_inclusion(uint64_t i, uint64_t n, const uint8_t leaf_hash[MERKLE_HASH_BYTES],
                            const merkle_proof *proof, const uint8_t root[MERKLE_HASH_BYTES])
{
    if (n > MERKLE_SIZE_MAX || i >= n || proof->len < 0 || proof->len > MERKLE_PROOF_MAX)
        return MERKLE_EPROOF;
    uint64_t fn = i, sn = n - 1;
    uint8_t r[MERKLE_HASH_BYTES];
    memcpy(r, leaf_hash, MERKLE_HASH_BYTES);
    for (int k = 0; k < proof->len; k++) {
        if (sn == 0)
            return MERKLE_EPROOF;
        if ((fn & 1) != 0 || fn == sn) {
            merkle_node_hash(proof->hash[k], r, r);
            while ((fn & 1) == 0 && fn != 0) {
                fn >>= 1;
                sn >>= 1;
            }
        } else {
            merkle_node_hash(r, proof->hash[k], r);
        }
        fn >>= 1;
        sn >>= 1;
    }
    if (sn != 0 || sodium_memcmp(r, root, MERKLE_HASH_BYTES) != 0)
        return MERKLE_EPROOF;
    return MERKLE_OK;
}

int merkle_verify_consistency(uint64_t m, uint64_t n, const uint8_t root_m[MERKLE_HASH_BYTES],
                              const uint8_t root_n[MERKLE_HASH_BYTES], const merkle_proof *proof)
{
    if (n > MERKLE_SIZE_MAX || m == 0 || m > n || proof->len < 0 || proof->len > MERKLE_PROOF_MAX)
        return MERKLE_EPROOF;
    if (m == n) {
        if (proof->len != 0 || sodium_memcmp(root_m, root_n, MERKLE_HASH_BYTES) != 0)
            return MERKLE_EPROOF;
        return MERKLE_OK;
    }
    if (proof->len == 0)
        return MERKLE_EPROOF;
    /* When m is a power of two the old root is the path's first hash. */
    const uint8_t *first = proof->hash[0];
    int next = 1;
    if ((m & (m - 1)) == 0) {
        first = root_m;
        next = 0;
    }
    uint64_t fn = m - 1, sn = n - 1;
    while ((fn & 1) != 0) {
        fn >>= 1;
        sn >>= 1;
    }
    uint8_t fr[MERKLE_HASH_BYTES], sr[MERKLE_HASH_BYTES];
    memcpy(fr, first, MERKLE_HASH_BYTES);
    memcpy(sr, first, MERKLE_HASH_BYTES);
    for (int k = next; k < proof->len; k++) {
        const uint8_t *c = proof->hash[k];
        if (sn == 0)
            return MERKLE_EPROOF;
        if ((fn & 1) != 0 || fn == sn) {
            merkle_node_hash(c, fr, fr);
            merkle_node_hash(c, sr, sr);
            while ((fn & 1) == 0 && fn != 0) {
                fn >>= 1;
                sn >>= 1;
            }
        } else {
            merkle_node_hash(sr, c, sr);
        }
        fn >>= 1;
        sn >>= 1;
    }
    if (sn != 0 || sodium_memcmp(fr, root_m, MERKLE_HASH_BYTES) != 0 ||
        sodium_memcmp(sr, root_n, MERKLE_HASH_BYTES) != 0)
        return MERKLE_EPROOF;
    return MERKLE_OK;
}
