/* Unit tests for server/log/merkle.c against answers it did not compute:
 * Certificate Transparency's published RFC 6962 vectors, and the roots and
 * proofs of tests/unit/log-vectors.mjs (RFC 9162's recursive definitions
 * in node:crypto): every root of 1..300 leaves, every inclusion and
 * consistency proof up to 70 leaves (through their digests) with the
 * verifiers and tampered proofs, proofs in a 70000-leaf tree, the limits
 * at 2^63 leaves, and a reader that fails. */
#include "../check.h"

#include "log_fixture.h"

static json_t *vectors;

static merkle_reader reader_of(mem_store *s, uint64_t limit)
{
    s->limit = limit;
    return (merkle_reader){ mem_read, s };
}

/* Certificate Transparency's merkle_tree_test.cc leaves, roots and audit
 * paths (also in Trillian and certificate-transparency-go). */
static const char *ct_leaves[8] = { "", "00", "10", "2021", "3031", "40414243", "5051525354555657",
                                    "606162636465666768696a6b6c6d6e6f" };
static const char *ct_roots[8] = {
    "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
    "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
    "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
    "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
    "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
    "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
    "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
};
static const struct {
    uint64_t i, n;
    int len;
    const char *path[3];
} ct_paths[] = {
    { 0, 8, 3,
      { "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
        "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
        "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4" } },
    { 5, 8, 3,
      { "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
        "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
        "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7" } },
    { 2, 3, 1, { "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125" } },
    { 1, 5, 3,
      { "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
        "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
        "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b" } },
};

static void certificate_transparency_vectors(void)
{
    mem_store s;
    CHECK(mem_store_init(&s, 8));
    uint8_t h[MERKLE_HASH_BYTES];
    merkle_empty_root(h);
    CHECK(hash_is(h, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
    for (int n = 0; n < 8; n++) {
        uint8_t data[16];
        size_t len = strlen(ct_leaves[n]) / 2;
        CHECK(len == 0 || unhex(ct_leaves[n], data, len));
        CHECK(mem_append(&s, data, len));
        merkle_reader r = reader_of(&s, (uint64_t)n + 1);
        CHECK_EQ(merkle_tree_hash(&r, (uint64_t)n + 1, h), MERKLE_OK);
        CHECK(hash_is(h, ct_roots[n]));
    }
    for (size_t c = 0; c < sizeof ct_paths / sizeof ct_paths[0]; c++) {
        merkle_reader r = reader_of(&s, ct_paths[c].n);
        merkle_proof p;
        CHECK_EQ(merkle_inclusion_proof(&r, ct_paths[c].i, ct_paths[c].n, &p), MERKLE_OK);
        CHECK_EQ(p.len, ct_paths[c].len);
        for (int k = 0; k < p.len && k < 3; k++)
            CHECK(hash_is(p.hash[k], ct_paths[c].path[k]));
        uint8_t root[MERKLE_HASH_BYTES], leaf[MERKLE_HASH_BYTES];
        CHECK(unhex(ct_roots[ct_paths[c].n - 1], root, sizeof root));
        CHECK_EQ(mem_read(&s, 0, ct_paths[c].i, leaf), 0);
        CHECK_EQ(merkle_verify_inclusion(ct_paths[c].i, ct_paths[c].n, leaf, &p, root), MERKLE_OK);
    }
    mem_store_free(&s);
}

static void every_root_up_to_300(void)
{
    json_t *roots = json_object_get(vectors, "roots");
    CHECK_EQ(json_array_size(roots), 301);
    mem_store s;
    CHECK(mem_store_init(&s, 300));
    uint8_t h[MERKLE_HASH_BYTES];
    merkle_reader r = reader_of(&s, 0);
    CHECK_EQ(merkle_tree_hash(&r, 0, h), MERKLE_OK);
    CHECK(hash_is(h, json_string_value(json_array_get(roots, 0))));
    for (uint64_t n = 1; n <= 300; n++) {
        char buf[64];
        size_t len = leaf_data(n - 1, buf, sizeof buf);
        CHECK(mem_append(&s, (const uint8_t *)buf, len));
        r = reader_of(&s, n);
        CHECK_EQ(merkle_tree_hash(&r, n, h), MERKLE_OK);
        if (!hash_is(h, json_string_value(json_array_get(roots, n))))
            CHECK_EQ(n, 0); /* names the first size whose root differs */
    }
    /* A tree hash never reads past its size. */
    r = reader_of(&s, 100);
    CHECK_EQ(merkle_tree_hash(&r, 101, h), MERKLE_EREAD);
    mem_store_free(&s);
}

/* SHA-256 over proofs as the vectors digest them. */
static void digest_add(crypto_hash_sha256_state *st, const merkle_proof *p)
{
    uint8_t len = (uint8_t)p->len;
    crypto_hash_sha256_update(st, &len, 1);
    for (int k = 0; k < p->len; k++)
        crypto_hash_sha256_update(st, p->hash[k], MERKLE_HASH_BYTES);
}

/* Each hash of p with one byte flipped, p one hash short, one hash long:
 * how many of those tampered proofs verify (zero is right). */
static int tampered_inclusion_accepted(uint64_t i, uint64_t n, const uint8_t *leaf,
                                       const merkle_proof *p, const uint8_t *root)
{
    int accepted = 0;
    merkle_proof t;
    for (int k = 0; k < p->len; k++) {
        t = *p;
        t.hash[k][(size_t)k % MERKLE_HASH_BYTES] ^= 0x01;
        accepted += merkle_verify_inclusion(i, n, leaf, &t, root) == MERKLE_OK;
    }
    if (p->len > 0) {
        t = *p;
        t.len--;
        accepted += merkle_verify_inclusion(i, n, leaf, &t, root) == MERKLE_OK;
    }
    if (p->len < MERKLE_PROOF_MAX) {
        t = *p;
        memcpy(t.hash[t.len], root, MERKLE_HASH_BYTES);
        t.len++;
        accepted += merkle_verify_inclusion(i, n, leaf, &t, root) == MERKLE_OK;
    }
    return accepted;
}

static void every_inclusion_proof_up_to_70(void)
{
    json_t *digests = json_object_get(vectors, "inclusion_digests");
    json_t *roots = json_object_get(vectors, "roots");
    CHECK_EQ(json_array_size(digests), 70);
    mem_store s;
    CHECK(mem_store_vectors(&s, 70));
    for (uint64_t n = 1; n <= 70; n++) {
        merkle_reader r = reader_of(&s, n);
        uint8_t root[MERKLE_HASH_BYTES], digest[MERKLE_HASH_BYTES];
        CHECK(unhex(json_string_value(json_array_get(roots, n)), root, sizeof root));
        crypto_hash_sha256_state st;
        crypto_hash_sha256_init(&st);
        for (uint64_t i = 0; i < n; i++) {
            merkle_proof p;
            uint8_t leaf[MERKLE_HASH_BYTES], other[MERKLE_HASH_BYTES];
            CHECK_EQ(merkle_inclusion_proof(&r, i, n, &p), MERKLE_OK);
            digest_add(&st, &p);
            CHECK_EQ(mem_read(&s, 0, i, leaf), 0);
            CHECK_EQ(merkle_verify_inclusion(i, n, leaf, &p, root), MERKLE_OK);
            CHECK_EQ(tampered_inclusion_accepted(i, n, leaf, &p, root), 0);
            /* Another leaf, another index, another root: refused. */
            memcpy(other, leaf, sizeof other);
            other[31] ^= 0x80;
            CHECK_EQ(merkle_verify_inclusion(i, n, other, &p, root), MERKLE_EPROOF);
            CHECK_EQ(merkle_verify_inclusion(i, n, leaf, &p, other), MERKLE_EPROOF);
            for (uint64_t j = 0; j < n; j++)
                if (j != i && merkle_verify_inclusion(j, n, leaf, &p, root) == MERKLE_OK)
                    CHECK_EQ(j, i);
            CHECK_EQ(merkle_verify_inclusion(n, n, leaf, &p, root), MERKLE_EPROOF);
        }
        crypto_hash_sha256_final(&st, digest);
        if (!hash_is(digest, json_string_value(json_array_get(digests, n - 1))))
            CHECK_EQ(n, 0); /* names the first size whose proofs differ */
    }
    mem_store_free(&s);
}

static int tampered_consistency_accepted(uint64_t m, uint64_t n, const uint8_t *root_m,
                                         const uint8_t *root_n, const merkle_proof *p)
{
    int accepted = 0;
    merkle_proof t;
    for (int k = 0; k < p->len; k++) {
        t = *p;
        t.hash[k][(size_t)(k * 7) % MERKLE_HASH_BYTES] ^= 0x40;
        accepted += merkle_verify_consistency(m, n, root_m, root_n, &t) == MERKLE_OK;
    }
    if (p->len > 0) {
        t = *p;
        t.len--;
        accepted += merkle_verify_consistency(m, n, root_m, root_n, &t) == MERKLE_OK;
    }
    if (p->len < MERKLE_PROOF_MAX) {
        t = *p;
        memcpy(t.hash[t.len], root_n, MERKLE_HASH_BYTES);
        t.len++;
        accepted += merkle_verify_consistency(m, n, root_m, root_n, &t) == MERKLE_OK;
    }
    return accepted;
}

static void every_consistency_proof_up_to_70(void)
{
    json_t *digests = json_object_get(vectors, "consistency_digests");
    json_t *roots = json_object_get(vectors, "roots");
    CHECK_EQ(json_array_size(digests), 70);
    mem_store s;
    CHECK(mem_store_vectors(&s, 70));
    for (uint64_t n = 1; n <= 70; n++) {
        merkle_reader r = reader_of(&s, n);
        uint8_t root_n[MERKLE_HASH_BYTES], digest[MERKLE_HASH_BYTES];
        CHECK(unhex(json_string_value(json_array_get(roots, n)), root_n, sizeof root_n));
        crypto_hash_sha256_state st;
        crypto_hash_sha256_init(&st);
        for (uint64_t m = 1; m <= n; m++) {
            merkle_proof p;
            uint8_t root_m[MERKLE_HASH_BYTES], other[MERKLE_HASH_BYTES];
            CHECK(unhex(json_string_value(json_array_get(roots, m)), root_m, sizeof root_m));
            CHECK_EQ(merkle_consistency_proof(&r, m, n, &p), MERKLE_OK);
            digest_add(&st, &p);
            CHECK_EQ(merkle_verify_consistency(m, n, root_m, root_n, &p), MERKLE_OK);
            CHECK_EQ(tampered_consistency_accepted(m, n, root_m, root_n, &p), 0);
            memcpy(other, root_m, sizeof other);
            other[0] ^= 0x01;
            CHECK_EQ(merkle_verify_consistency(m, n, other, root_n, &p), MERKLE_EPROOF);
            memcpy(other, root_n, sizeof other);
            other[0] ^= 0x01;
            CHECK_EQ(merkle_verify_consistency(m, n, root_m, other, &p), MERKLE_EPROOF);
            /* The proof claims other sizes with the same roots: refused. */
            for (uint64_t k = 1; k <= n; k++)
                if (k != m && merkle_verify_consistency(k, n, root_m, root_n, &p) == MERKLE_OK)
                    CHECK_EQ(k, m);
            CHECK_EQ(merkle_verify_consistency(0, n, root_m, root_n, &p), MERKLE_EPROOF);
            CHECK_EQ(merkle_verify_consistency(n + 1, n, root_m, root_n, &p), MERKLE_EPROOF);
        }
        crypto_hash_sha256_final(&st, digest);
        if (!hash_is(digest, json_string_value(json_array_get(digests, n - 1))))
            CHECK_EQ(n, 0);
    }
    mem_store_free(&s);
}

static bool proof_is(const merkle_proof *p, json_t *want)
{
    if (p->len != (int)json_array_size(want))
        return false;
    for (int k = 0; k < p->len; k++)
        if (!hash_is(p->hash[k], json_string_value(json_array_get(want, (size_t)k))))
            return false;
    return true;
}

static void proofs_in_a_70000_leaf_tree(void)
{
    uint64_t big = (uint64_t)json_integer_value(json_object_get(vectors, "big_size"));
    CHECK_EQ(big, 70000);
    mem_store s;
    CHECK(mem_store_vectors(&s, big));
    uint8_t h[MERKLE_HASH_BYTES];
    merkle_reader r = reader_of(&s, big);
    CHECK_EQ(merkle_tree_hash(&r, big, h), MERKLE_OK);
    CHECK(hash_is(h, json_string_value(json_object_get(vectors, "big_root"))));
    size_t k;
    json_t *c;
    json_array_foreach(json_object_get(vectors, "inclusion"), k, c) {
        uint64_t i = (uint64_t)json_integer_value(json_object_get(c, "i"));
        uint64_t n = (uint64_t)json_integer_value(json_object_get(c, "n"));
        uint8_t root[MERKLE_HASH_BYTES], leaf[MERKLE_HASH_BYTES];
        merkle_proof p;
        CHECK(unhex(json_string_value(json_object_get(c, "root")), root, sizeof root));
        CHECK(unhex(json_string_value(json_object_get(c, "leaf")), leaf, sizeof leaf));
        r = reader_of(&s, n);
        CHECK_EQ(merkle_inclusion_proof(&r, i, n, &p), MERKLE_OK);
        CHECK(proof_is(&p, json_object_get(c, "proof")));
        CHECK_EQ(merkle_verify_inclusion(i, n, leaf, &p, root), MERKLE_OK);
        CHECK_EQ(tampered_inclusion_accepted(i, n, leaf, &p, root), 0);
    }
    json_array_foreach(json_object_get(vectors, "consistency"), k, c) {
        uint64_t m = (uint64_t)json_integer_value(json_object_get(c, "m"));
        uint64_t n = (uint64_t)json_integer_value(json_object_get(c, "n"));
        uint8_t root_m[MERKLE_HASH_BYTES], root_n[MERKLE_HASH_BYTES];
        merkle_proof p;
        CHECK(unhex(json_string_value(json_object_get(c, "root_m")), root_m, sizeof root_m));
        CHECK(unhex(json_string_value(json_object_get(c, "root_n")), root_n, sizeof root_n));
        r = reader_of(&s, n);
        CHECK_EQ(merkle_consistency_proof(&r, m, n, &p), MERKLE_OK);
        CHECK(proof_is(&p, json_object_get(c, "proof")));
        CHECK_EQ(merkle_verify_consistency(m, n, root_m, root_n, &p), MERKLE_OK);
        CHECK_EQ(tampered_consistency_accepted(m, n, root_m, root_n, &p), 0);
    }
    mem_store_free(&s);
}

/* A tree of 2^63 equal leaves: every stored hash of level L is the same
 * hash, so a reader of 64 hashes holds the whole tree. */
static uint8_t uniform[64][MERKLE_HASH_BYTES];
static int uniform_reads;
static int uniform_read(void *ctx, int level, uint64_t index, uint8_t out[MERKLE_HASH_BYTES])
{
    (void)ctx;
    uniform_reads++;
    if (level < 0 || level > 63 || index >= (MERKLE_SIZE_MAX >> level))
        return 1;
    memcpy(out, uniform[level], MERKLE_HASH_BYTES);
    return 0;
}

static void limits_at_two_to_the_63(void)
{
    merkle_leaf_hash((const uint8_t *)"same", 4, uniform[0]);
    for (int l = 1; l < 64; l++)
        merkle_node_hash(uniform[l - 1], uniform[l - 1], uniform[l]);
    merkle_reader r = { uniform_read, NULL };
    const uint64_t max = MERKLE_SIZE_MAX;
    uint8_t root[MERKLE_HASH_BYTES], root_m[MERKLE_HASH_BYTES];
    merkle_proof p;

    CHECK_EQ(merkle_tree_hash(&r, max, root), MERKLE_OK);
    CHECK(memcmp(root, uniform[63], MERKLE_HASH_BYTES) == 0);
    CHECK_EQ(merkle_tree_hash(&r, max + 1, root_m), MERKLE_ERANGE);

    /* The last leaf of the largest tree: 63 hashes, bounded reads. */
    uniform_reads = 0;
    CHECK_EQ(merkle_inclusion_proof(&r, max - 1, max, &p), MERKLE_OK);
    CHECK_EQ(p.len, 63);
    CHECK(uniform_reads <= 64 * 64);
    CHECK_EQ(merkle_verify_inclusion(max - 1, max, uniform[0], &p, root), MERKLE_OK);
    CHECK_EQ(tampered_inclusion_accepted(max - 1, max, uniform[0], &p, root), 0);
    CHECK_EQ(merkle_inclusion_proof(&r, max, max, &p), MERKLE_ERANGE);
    CHECK_EQ(merkle_inclusion_proof(&r, 0, max + 1, &p), MERKLE_ERANGE);
    CHECK_EQ(merkle_verify_inclusion(0, max + 1, uniform[0], &p, root), MERKLE_EPROOF);

    /* The longest consistency proofs there are: from 2^63 - 1 and from 1. */
    uint64_t sizes[] = { max - 1, 1, (max >> 1) + 1, 3 };
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        CHECK_EQ(merkle_tree_hash(&r, sizes[k], root_m), MERKLE_OK);
        uniform_reads = 0;
        CHECK_EQ(merkle_consistency_proof(&r, sizes[k], max, &p), MERKLE_OK);
        CHECK(p.len >= 1 && p.len <= MERKLE_PROOF_MAX);
        CHECK(uniform_reads <= 64 * 64);
        CHECK_EQ(merkle_verify_consistency(sizes[k], max, root_m, root, &p), MERKLE_OK);
        CHECK_EQ(tampered_consistency_accepted(sizes[k], max, root_m, root, &p), 0);
    }
    CHECK_EQ(merkle_consistency_proof(&r, 1, max + 1, &p), MERKLE_ERANGE);

    /* Appending the last leaf there is closes 63 subtrees: 64 hashes. */
    merkle_stored add[MERKLE_PROOF_MAX];
    int count = 0;
    CHECK_EQ(merkle_hashes_for_leaf(&r, max - 1, uniform[0], add, &count), MERKLE_OK);
    CHECK_EQ(count, 64);
    CHECK_EQ(add[63].level, 63);
    CHECK_EQ(add[63].index, 0);
    CHECK(memcmp(add[63].hash, uniform[63], MERKLE_HASH_BYTES) == 0);
    CHECK_EQ(merkle_hashes_for_leaf(&r, max, uniform[0], add, &count), MERKLE_ERANGE);
    CHECK_EQ(count, 0);
}

static void bad_arguments_are_refused(void)
{
    mem_store s;
    CHECK(mem_store_vectors(&s, 8));
    merkle_reader r = reader_of(&s, 8);
    merkle_proof p;
    uint8_t root[MERKLE_HASH_BYTES], leaf[MERKLE_HASH_BYTES];
    CHECK_EQ(merkle_tree_hash(&r, 8, root), MERKLE_OK);
    CHECK_EQ(mem_read(&s, 0, 3, leaf), 0);
    CHECK_EQ(merkle_inclusion_proof(&r, 0, 0, &p), MERKLE_ERANGE);
    CHECK_EQ(merkle_inclusion_proof(&r, 8, 8, &p), MERKLE_ERANGE);
    CHECK_EQ(merkle_consistency_proof(&r, 0, 8, &p), MERKLE_ERANGE);
    CHECK_EQ(merkle_consistency_proof(&r, 9, 8, &p), MERKLE_ERANGE);
    /* A reader that fails is an error, with no half proof left behind. */
    r = reader_of(&s, 4);
    CHECK_EQ(merkle_inclusion_proof(&r, 3, 8, &p), MERKLE_EREAD);
    CHECK_EQ(p.len, 0);
    CHECK_EQ(merkle_consistency_proof(&r, 3, 8, &p), MERKLE_EREAD);
    CHECK_EQ(p.len, 0);
    merkle_stored add[MERKLE_PROOF_MAX];
    int count = 5;
    CHECK_EQ(merkle_hashes_for_leaf(&r, 7, leaf, add, &count), MERKLE_EREAD);
    CHECK_EQ(count, 0);
    /* Proof lengths outside 0..64 are refused before they are read. */
    r = reader_of(&s, 8);
    CHECK_EQ(merkle_inclusion_proof(&r, 3, 8, &p), MERKLE_OK);
    CHECK_EQ(merkle_verify_inclusion(3, 8, leaf, &p, root), MERKLE_OK);
    p.len = -1;
    CHECK_EQ(merkle_verify_inclusion(3, 8, leaf, &p, root), MERKLE_EPROOF);
    p.len = MERKLE_PROOF_MAX + 1;
    CHECK_EQ(merkle_verify_inclusion(3, 8, leaf, &p, root), MERKLE_EPROOF);
    CHECK_EQ(merkle_verify_consistency(3, 8, root, root, &p), MERKLE_EPROOF);
    /* Equal sizes: an empty proof and equal roots, nothing else. */
    p.len = 0;
    CHECK_EQ(merkle_verify_consistency(8, 8, root, root, &p), MERKLE_OK);
    CHECK_EQ(merkle_verify_consistency(8, 8, root, leaf, &p), MERKLE_EPROOF);
    CHECK_EQ(merkle_verify_consistency(3, 8, leaf, root, &p), MERKLE_EPROOF);
    p.len = 1;
    memcpy(p.hash[0], root, MERKLE_HASH_BYTES);
    CHECK_EQ(merkle_verify_consistency(8, 8, root, root, &p), MERKLE_EPROOF);
    mem_store_free(&s);
}

int main(void)
{
    if (sodium_init() < 0 || !(vectors = load_log_vectors()))
        return 1;
    RUN(certificate_transparency_vectors);
    RUN(every_root_up_to_300);
    RUN(every_inclusion_proof_up_to_70);
    RUN(every_consistency_proof_up_to_70);
    RUN(proofs_in_a_70000_leaf_tree);
    RUN(limits_at_two_to_the_63);
    RUN(bad_arguments_are_refused);
    json_decref(vectors);
    CHECK_DONE();
}
