/* prover: a batch's inclusion proofs and their tlog-proof text (prover.h). */
#include "prover.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

void prover_start(log_prover *p, const merkle_frontier *at)
{
    memset(p, 0, sizeof *p);
    p->base = *at;
}

static bool keep(prover_level *l, uint64_t index, const uint8_t h[MERKLE_HASH_BYTES])
{
    if (l->n > 0 && index != l->first + (uint64_t)l->n)
        return false;
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 16;
        void *grown = realloc(l->h, (size_t)cap * sizeof *l->h);
        if (!grown)
            return false;
        l->h = grown;
        l->cap = cap;
    }
    if (l->n == 0)
        l->first = index;
    memcpy(l->h[l->n++], h, MERKLE_HASH_BYTES);
    return true;
}

bool prover_add(log_prover *p, const merkle_stored *added, int count)
{
    for (int k = 0; k < count; k++)
        if (added[k].level < 0 || added[k].level >= MERKLE_PROOF_MAX ||
            !keep(&p->level[added[k].level], added[k].index, added[k].hash))
            return false;
    return true;
}

static int read_kept(void *ctx, int level, uint64_t index, uint8_t out[MERKLE_HASH_BYTES])
{
    const log_prover *p = ctx;
    if (level < 0 || level >= MERKLE_PROOF_MAX)
        return -1;
    const prover_level *l = &p->level[level];
    if (l->n > 0 && index >= l->first && index - l->first < (uint64_t)l->n) {
        memcpy(out, l->h[index - l->first], MERKLE_HASH_BYTES);
        return 0;
    }
    merkle_reader base = frontier_reader(&p->base);
    return base.read(base.ctx, level, index, out);
}

int prover_inclusion(const log_prover *p, uint64_t i, uint64_t n, merkle_proof *out)
{
    merkle_reader r = { read_kept, (void *)p };
    return merkle_inclusion_proof(&r, i, n, out);
}

void prover_free(log_prover *p)
{
    for (int l = 0; l < MERKLE_PROOF_MAX; l++)
        free(p->level[l].h);
    memset(p, 0, sizeof *p);
}

size_t tlog_proof_text(uint64_t index, const merkle_proof *proof, const char *note, char *out, size_t cap)
{
    int w = snprintf(out, cap, "c2sp.org/tlog-proof@v1\nindex %" PRIu64 "\n", index);
    if (w < 0 || (size_t)w >= cap)
        return 0;
    size_t at = (size_t)w;
    for (int k = 0; k < proof->len; k++) {
        char b64[sodium_base64_ENCODED_LEN(MERKLE_HASH_BYTES, sodium_base64_VARIANT_ORIGINAL)];
        sodium_bin2base64(b64, sizeof b64, proof->hash[k], MERKLE_HASH_BYTES, sodium_base64_VARIANT_ORIGINAL);
        w = snprintf(out + at, cap - at, "%s\n", b64);
        if (w < 0 || (size_t)w >= cap - at)
            return 0;
        at += (size_t)w;
    }
    w = snprintf(out + at, cap - at, "\n%s", note);
    if (w < 0 || (size_t)w >= cap - at)
        return 0;
    return at + (size_t)w;
}
