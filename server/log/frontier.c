/* frontier: the right edge of a Merkle tree (frontier.h). */
#include "frontier.h"

#include <string.h>

static int popcount64(uint64_t v)
{
    int n = 0;
    for (; v; v &= v - 1)
        n++;
    return n;
}

int frontier_decode(uint64_t size, const uint8_t *blob, size_t len, merkle_frontier *out)
{
    memset(out, 0, sizeof *out);
    if (size > MERKLE_SIZE_MAX || len != (size_t)popcount64(size) * MERKLE_HASH_BYTES)
        return MERKLE_ERANGE;
    out->size = size;
    size_t at = 0;
    for (int level = MERKLE_PROOF_MAX - 1; level >= 0; level--)
        if ((size >> level) & 1) {
            memcpy(out->hash[level], blob + at, MERKLE_HASH_BYTES);
            at += MERKLE_HASH_BYTES;
        }
    return MERKLE_OK;
}

size_t frontier_encode(const merkle_frontier *f, uint8_t *out, size_t cap)
{
    size_t at = 0;
    for (int level = MERKLE_PROOF_MAX - 1; level >= 0; level--)
        if (((f->size >> level) & 1) && at + MERKLE_HASH_BYTES <= cap) {
            memcpy(out + at, f->hash[level], MERKLE_HASH_BYTES);
            at += MERKLE_HASH_BYTES;
        }
    return at;
}

static int read_frontier(void *ctx, int level, uint64_t index, uint8_t out[MERKLE_HASH_BYTES])
{
    const merkle_frontier *f = ctx;
    if (level < 0 || level >= MERKLE_PROOF_MAX || ((f->size >> level) & 1) == 0 ||
        index != (f->size >> level) - 1)
        return -1;
    memcpy(out, f->hash[level], MERKLE_HASH_BYTES);
    return 0;
}

merkle_reader frontier_reader(const merkle_frontier *f)
{
    merkle_reader r = { read_frontier, (void *)f };
    return r;
}

int frontier_append(merkle_frontier *f, const uint8_t leaf_hash[MERKLE_HASH_BYTES],
                    merkle_stored out[MERKLE_PROOF_MAX], int *count)
{
    merkle_reader r = frontier_reader(f);
    int rc = merkle_hashes_for_leaf(&r, f->size, leaf_hash, out, count);
    if (rc != MERKLE_OK)
        return rc;
    /* the last hash is the complete subtree the new size's lowest 1 bit
     * names; the subtrees below it merged into it */
    const merkle_stored *top = &out[*count - 1];
    memcpy(f->hash[top->level], top->hash, MERKLE_HASH_BYTES);
    f->size++;
    return MERKLE_OK;
}

void frontier_root(const merkle_frontier *f, uint8_t out[MERKLE_HASH_BYTES])
{
    merkle_reader r = frontier_reader(f);
    if (merkle_tree_hash(&r, f->size, out) != MERKLE_OK) /* cannot fail: f holds every hash it reads */
        merkle_empty_root(out);
}
