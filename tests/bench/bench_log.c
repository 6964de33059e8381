/*
 * bench_log: what the score log's pure core (server/log/) costs, before
 * any storage: leaves appended per second (the leaf hash and the stored
 * hashes merkle_hashes_for_leaf adds, into memory), inclusion and
 * consistency proofs made and checked, checkpoints signed and opened, and,
 * measured side by side, one Ed25519 signature over a receipt-sized
 * message: the per-score cost a checkpoint per batch replaces.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "../unit/log_fixture.h"
#include "../../server/log/checkpoint.h"

#define LEAVES (1u << 17)
#define PROOFS 20000
#define SIGNS 2000

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A receipt-sized leaf: the planned score leaf is 92 bytes and a name. */
static size_t bench_leaf(uint64_t i, uint8_t *buf)
{
    memset(buf, 0, 100);
    buf[0] = 0x01;
    memcpy(buf + 1, &i, sizeof i);
    return 97;
}

int main(void)
{
    if (sodium_init() < 0)
        return 1;
    mem_store s;
    if (!mem_store_init(&s, LEAVES))
        return 1;
    int rc = 1;
    printf("\n== score log, pure core (server/log/, in memory): %u leaves ==\n", LEAVES);

    uint8_t leaf[100];
    double t0 = now_s();
    for (uint64_t i = 0; i < LEAVES; i++)
        if (!mem_append(&s, leaf, bench_leaf(i, leaf)))
            goto out;
    double append = (double)LEAVES / (now_s() - t0);
    printf("  append (leaf hash + stored hashes):   %10.0f leaves/s  (%.2f us each)\n", append,
           1e6 / append);

    merkle_reader r = { mem_read, &s };
    s.limit = LEAVES;
    uint8_t root[MERKLE_HASH_BYTES], h[MERKLE_HASH_BYTES];
    t0 = now_s();
    for (int k = 0; k < PROOFS; k++)
        if (merkle_tree_hash(&r, LEAVES - (uint64_t)k, h) != MERKLE_OK)
            goto out;
    double tree = PROOFS / (now_s() - t0);
    printf("  tree hash of a size:                  %10.0f /s\n", tree);
    if (merkle_tree_hash(&r, LEAVES - 3, root) != MERKLE_OK)
        goto out;

    merkle_proof p;
    uint64_t n = LEAVES - 3, sum = 0;
    t0 = now_s();
    for (int k = 0; k < PROOFS; k++) {
        if (merkle_inclusion_proof(&r, ((uint64_t)k * 7919) % n, n, &p) != MERKLE_OK)
            goto out;
        sum += (uint64_t)p.len;
    }
    double incl = PROOFS / (now_s() - t0);
    printf("  inclusion proof made (%2.0f hashes):    %10.0f /s\n", (double)sum / PROOFS, incl);
    if (merkle_inclusion_proof(&r, 12345, n, &p) != MERKLE_OK || mem_read(&s, 0, 12345, h) != 0)
        goto out;
    t0 = now_s();
    for (int k = 0; k < PROOFS; k++)
        if (merkle_verify_inclusion(12345, n, h, &p, root) != MERKLE_OK)
            goto out;
    printf("  inclusion proof checked:              %10.0f /s\n", PROOFS / (now_s() - t0));
    t0 = now_s();
    for (int k = 0; k < PROOFS; k++)
        if (merkle_consistency_proof(&r, 1 + ((uint64_t)k * 7919) % n, n, &p) != MERKLE_OK)
            goto out;
    printf("  consistency proof made:               %10.0f /s\n", PROOFS / (now_s() - t0));

    uint8_t seed[crypto_sign_SEEDBYTES], pk[crypto_sign_PUBLICKEYBYTES], sk[crypto_sign_SECRETKEYBYTES];
    memset(seed, 7, sizeof seed);
    crypto_sign_seed_keypair(pk, sk, seed);
    note_verifier v;
    if (note_verifier_make("log.replayd.example/bench", pk, &v) != NOTE_OK)
        goto out;
    note_signer signer = { v.name, sk };
    checkpoint cp;
    memset(&cp, 0, sizeof cp);
    snprintf(cp.origin, sizeof cp.origin, "%s", v.name);
    cp.size = n;
    memcpy(cp.root, root, sizeof root);
    char note[1024];
    size_t len = 0;
    t0 = now_s();
    for (int k = 0; k < SIGNS; k++)
        if (checkpoint_sign(&cp, &signer, 1, note, sizeof note, &len) != CHECKPOINT_OK)
            goto out;
    double sign = SIGNS / (now_s() - t0);
    printf("  checkpoint signed:                    %10.0f /s  (%.1f us each)\n", sign, 1e6 / sign);
    t0 = now_s();
    for (int k = 0; k < SIGNS; k++) {
        checkpoint back;
        if (checkpoint_open(note, len, v.name, &v, 1, &back) != CHECKPOINT_OK)
            goto out;
    }
    printf("  checkpoint opened and checked:        %10.0f /s\n", SIGNS / (now_s() - t0));

    /* The v2 receipt text is about 200 bytes; one signature per score. */
    uint8_t msg[200], sig[crypto_sign_BYTES];
    memset(msg, 'r', sizeof msg);
    t0 = now_s();
    for (int k = 0; k < SIGNS; k++) {
        msg[0] = (uint8_t)k;
        crypto_sign_detached(sig, NULL, msg, sizeof msg, sk);
    }
    double receipt = SIGNS / (now_s() - t0);
    printf("  Ed25519 receipt signature (reference): %9.0f /s  (%.1f us each)\n", receipt,
           1e6 / receipt);
    printf("  one append costs %.3f of one receipt signature; a checkpoint per batch of B\n"
           "  scores adds %.1f us / B to each\n",
           receipt / append, 1e6 / sign);
    rc = 0;
out:
    if (rc != 0)
        fprintf(stderr, "bench_log: a log call failed\n");
    mem_store_free(&s);
    return rc;
}
