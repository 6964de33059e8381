/* Unit tests for server/log/prover.c: grown in batches of many sizes, a
 * prover started at each batch's first leaf proves every leaf of the
 * batch exactly as a store of every hash does (log_fixture's mem_store,
 * whose reader refuses what lies past the tree), and each proof verifies
 * against the root tests/unit/log-vectors.mjs computed; a leaf before the
 * start is not provable from what was kept; the tlog-proof text is the
 * C2SP form byte for byte. */
#include "../check.h"

#include "log_fixture.h"

#include "../../server/log/prover.h"

static json_t *vectors;

static void leaf_hash_of(uint64_t i, uint8_t out[MERKLE_HASH_BYTES])
{
    char data[64];
    size_t len = leaf_data(i, data, sizeof data);
    merkle_leaf_hash((const uint8_t *)data, len, out);
}

static void batches_of_every_size_prove_their_leaves(void)
{
    static const int sizes[] = { 1, 1, 2, 3, 1, 5, 8, 13, 1, 64, 7, 2, 30, 21, 1, 64, 50, 4 };
    json_t *roots = json_object_get(vectors, "roots");
    mem_store s;
    CHECK(mem_store_init(&s, 300));
    merkle_frontier f;
    frontier_decode(0, NULL, 0, &f);
    int proved = 0;
    for (size_t b = 0; b < sizeof sizes / sizeof sizes[0]; b++) {
        log_prover p;
        prover_start(&p, &f);
        uint64_t first = f.size;
        for (int k = 0; k < sizes[b]; k++) {
            uint8_t h[MERKLE_HASH_BYTES];
            char data[64];
            size_t len = leaf_data(f.size, data, sizeof data);
            leaf_hash_of(f.size, h);
            merkle_stored added[MERKLE_PROOF_MAX];
            int count;
            CHECK_EQ(frontier_append(&f, h, added, &count), MERKLE_OK);
            CHECK(prover_add(&p, added, count));
            CHECK(mem_append(&s, (const uint8_t *)data, len));
        }
        uint64_t n = f.size;
        uint8_t root[MERKLE_HASH_BYTES];
        frontier_root(&f, root);
        CHECK(hash_is(root, json_string_value(json_array_get(roots, (size_t)n))));
        s.limit = n;
        merkle_reader full = { mem_read, &s };
        for (uint64_t i = first; i < n; i++) {
            merkle_proof got, want;
            CHECK_EQ(prover_inclusion(&p, i, n, &got), MERKLE_OK);
            CHECK_EQ(merkle_inclusion_proof(&full, i, n, &want), MERKLE_OK);
            CHECK_EQ(got.len, want.len);
            CHECK(memcmp(got.hash, want.hash, (size_t)want.len * MERKLE_HASH_BYTES) == 0);
            uint8_t h[MERKLE_HASH_BYTES];
            leaf_hash_of(i, h);
            CHECK_EQ(merkle_verify_inclusion(i, n, h, &got, root), MERKLE_OK);
            proved++;
        }
        /* a leaf before the batch needs hashes it never kept */
        if (first > 1) {
            merkle_proof none;
            CHECK_EQ(prover_inclusion(&p, 0, n, &none), MERKLE_EREAD);
        }
        prover_free(&p);
    }
    CHECK_EQ(proved, 278); /* every leaf of every batch */
    mem_store_free(&s);
}

static void hashes_out_of_order_are_refused(void)
{
    merkle_frontier f;
    frontier_decode(0, NULL, 0, &f);
    log_prover p;
    prover_start(&p, &f);
    merkle_stored a = { .level = 0, .index = 5 }, b = { .level = 0, .index = 7 };
    CHECK(prover_add(&p, &a, 1));
    CHECK(!prover_add(&p, &b, 1));
    merkle_stored bad = { .level = 64, .index = 0 };
    CHECK(!prover_add(&p, &bad, 1));
    prover_free(&p);
}

static void the_tlog_proof_text(void)
{
    merkle_proof p = { .len = 2 };
    for (int i = 0; i < MERKLE_HASH_BYTES; i++) {
        p.hash[0][i] = (uint8_t)i;
        p.hash[1][i] = 0xff;
    }
    const char *note = "example.com/log\n3\nAAAA\n\n\xe2\x80\x94 example.com/log sig\n";
    char out[512];
    size_t len = tlog_proof_text(2, &p, note, out, sizeof out);
    const char *want = "c2sp.org/tlog-proof@v1\nindex 2\n"
                       "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=\n"
                       "//////////////////////////////////////////8=\n"
                       "\n"
                       "example.com/log\n3\nAAAA\n\n\xe2\x80\x94 example.com/log sig\n";
    CHECK_EQ(len, strlen(want));
    CHECK(strcmp(out, want) == 0);
    /* an empty proof (a tree of one leaf): the index line, then the blank line */
    merkle_proof none = { .len = 0 };
    len = tlog_proof_text(0, &none, "o\n1\nAAAA\n", out, sizeof out);
    CHECK(len > 0 && strcmp(out, "c2sp.org/tlog-proof@v1\nindex 0\n\no\n1\nAAAA\n") == 0);
    /* a buffer too small writes nothing it claims */
    CHECK_EQ(tlog_proof_text(2, &p, note, out, 40), 0);
    CHECK_EQ(tlog_proof_text(2, &p, note, out, strlen(want)), 0);
    CHECK_EQ(tlog_proof_text(2, &p, note, out, strlen(want) + 1), strlen(want));
}

int main(void)
{
    if (sodium_init() < 0 || !(vectors = load_log_vectors()))
        return 1;
    RUN(batches_of_every_size_prove_their_leaves);
    RUN(hashes_out_of_order_are_refused);
    RUN(the_tlog_proof_text);
    json_decref(vectors);
    CHECK_DONE();
}
