/* Unit tests for server/log/frontier.c: a tree grown a leaf at a time
 * from its frontier alone has, at every size up to 300, the root that
 * tests/unit/log-vectors.mjs computed (RFC 9162's definitions in
 * node:crypto) and adds exactly the stored hashes a full store of every
 * hash does (log_fixture's mem_store); its encoded form round-trips and a
 * decoded copy grows the same; the 70000-leaf root; lengths that do not
 * match the size are refused; a full tree refuses a leaf. */
#include "../check.h"

#include "log_fixture.h"

#include "../../server/log/frontier.h"

static json_t *vectors;

static void leaf_hash_of(uint64_t i, uint8_t out[MERKLE_HASH_BYTES])
{
    char data[64];
    size_t len = leaf_data(i, data, sizeof data);
    merkle_leaf_hash((const uint8_t *)data, len, out);
}

static void every_root_up_to_300_and_the_stored_hashes(void)
{
    json_t *roots = json_object_get(vectors, "roots");
    CHECK_EQ(json_array_size(roots), 301);
    merkle_frontier f;
    CHECK_EQ(frontier_decode(0, NULL, 0, &f), MERKLE_OK);
    uint8_t root[MERKLE_HASH_BYTES];
    frontier_root(&f, root);
    CHECK(hash_is(root, json_string_value(json_array_get(roots, 0))));
    mem_store s;
    CHECK(mem_store_init(&s, 300));
    for (uint64_t i = 0; i < 300; i++) {
        uint8_t h[MERKLE_HASH_BYTES];
        leaf_hash_of(i, h);
        merkle_stored out[MERKLE_PROOF_MAX];
        int count = 0;
        CHECK_EQ(frontier_append(&f, h, out, &count), MERKLE_OK);
        CHECK_EQ(f.size, i + 1);
        char data[64];
        size_t len = leaf_data(i, data, sizeof data);
        CHECK(mem_append(&s, (const uint8_t *)data, len));
        /* the same hashes a store of every hash holds, at the same addresses */
        int trailing = 0;
        while ((i >> trailing) & 1)
            trailing++;
        CHECK_EQ(count, 1 + trailing);
        for (int k = 0; k < count; k++) {
            uint8_t want[MERKLE_HASH_BYTES];
            CHECK_EQ(out[k].level, k);
            CHECK_EQ(out[k].index, i >> k);
            s.limit = i + 1;
            CHECK_EQ(mem_read(&s, out[k].level, out[k].index, want), 0);
            CHECK(memcmp(want, out[k].hash, MERKLE_HASH_BYTES) == 0);
        }
        frontier_root(&f, root);
        CHECK(hash_is(root, json_string_value(json_array_get(roots, (size_t)i + 1))));
    }
    mem_store_free(&s);
}

static void the_encoded_form_round_trips_and_grows_the_same(void)
{
    merkle_frontier f;
    frontier_decode(0, NULL, 0, &f);
    for (uint64_t i = 0; i < 260; i++) {
        uint8_t blob[FRONTIER_BYTES_MAX];
        size_t len = frontier_encode(&f, blob, sizeof blob);
        int bits = 0;
        for (uint64_t v = f.size; v; v &= v - 1)
            bits++;
        CHECK_EQ(len, (size_t)bits * MERKLE_HASH_BYTES);
        merkle_frontier g;
        CHECK_EQ(frontier_decode(f.size, blob, len, &g), MERKLE_OK);
        /* one byte more or less, or another size, is not this frontier */
        if (len > 0)
            CHECK_EQ(frontier_decode(f.size, blob, len - 1, &g), MERKLE_ERANGE);
        CHECK_EQ(frontier_decode(f.size, blob, len + MERKLE_HASH_BYTES, &g), MERKLE_ERANGE);
        CHECK_EQ(frontier_decode(f.size, blob, len, &g), MERKLE_OK);
        uint8_t h[MERKLE_HASH_BYTES], a[MERKLE_HASH_BYTES], b[MERKLE_HASH_BYTES];
        leaf_hash_of(i, h);
        merkle_stored out[MERKLE_PROOF_MAX];
        int count;
        CHECK_EQ(frontier_append(&f, h, out, &count), MERKLE_OK);
        CHECK_EQ(frontier_append(&g, h, out, &count), MERKLE_OK);
        frontier_root(&f, a);
        frontier_root(&g, b);
        CHECK(memcmp(a, b, sizeof a) == 0);
    }
    /* the highest level first: size 5 is (2,0) then (0,4) */
    merkle_frontier five;
    frontier_decode(0, NULL, 0, &five);
    for (uint64_t i = 0; i < 5; i++) {
        uint8_t h[MERKLE_HASH_BYTES];
        merkle_stored out[MERKLE_PROOF_MAX];
        int count;
        leaf_hash_of(i, h);
        frontier_append(&five, h, out, &count);
    }
    uint8_t blob[FRONTIER_BYTES_MAX], leaf4[MERKLE_HASH_BYTES];
    CHECK_EQ(frontier_encode(&five, blob, sizeof blob), 2 * MERKLE_HASH_BYTES);
    leaf_hash_of(4, leaf4);
    CHECK(memcmp(blob + MERKLE_HASH_BYTES, leaf4, MERKLE_HASH_BYTES) == 0);
    CHECK(memcmp(blob, five.hash[2], MERKLE_HASH_BYTES) == 0);
}

static void the_70000_leaf_root(void)
{
    merkle_frontier f;
    frontier_decode(0, NULL, 0, &f);
    uint64_t n = (uint64_t)json_integer_value(json_object_get(vectors, "big_size"));
    CHECK_EQ(n, 70000);
    for (uint64_t i = 0; i < n; i++) {
        uint8_t h[MERKLE_HASH_BYTES];
        merkle_stored out[MERKLE_PROOF_MAX];
        int count;
        leaf_hash_of(i, h);
        if (frontier_append(&f, h, out, &count) != MERKLE_OK) {
            CHECK(false);
            break;
        }
    }
    uint8_t root[MERKLE_HASH_BYTES];
    frontier_root(&f, root);
    CHECK(hash_is(root, json_string_value(json_object_get(vectors, "big_root"))));
}

static void limits(void)
{
    merkle_frontier f;
    uint8_t blob[FRONTIER_BYTES_MAX] = { 0 };
    /* 2^63 leaves is one subtree: a full tree takes no more */
    CHECK_EQ(frontier_decode(MERKLE_SIZE_MAX, blob, MERKLE_HASH_BYTES, &f), MERKLE_OK);
    uint8_t h[MERKLE_HASH_BYTES] = { 0 };
    merkle_stored out[MERKLE_PROOF_MAX];
    int count = 7;
    CHECK_EQ(frontier_append(&f, h, out, &count), MERKLE_ERANGE);
    CHECK_EQ(f.size, MERKLE_SIZE_MAX);
    CHECK_EQ(frontier_decode(MERKLE_SIZE_MAX + 1, blob, 2 * MERKLE_HASH_BYTES, &f), MERKLE_ERANGE);
    /* the reader answers only the frontier's own subtrees */
    CHECK_EQ(frontier_decode(6, blob, 2 * MERKLE_HASH_BYTES, &f), MERKLE_OK);
    merkle_reader r = frontier_reader(&f);
    CHECK_EQ(r.read(r.ctx, 2, 0, h), 0);
    CHECK_EQ(r.read(r.ctx, 1, 2, h), 0);
    CHECK(r.read(r.ctx, 0, 5, h) != 0);
    CHECK(r.read(r.ctx, 1, 1, h) != 0);
    CHECK(r.read(r.ctx, 64, 0, h) != 0);
}

int main(void)
{
    if (sodium_init() < 0 || !(vectors = load_log_vectors()))
        return 1;
    RUN(every_root_up_to_300_and_the_stored_hashes);
    RUN(the_encoded_form_round_trips_and_grows_the_same);
    RUN(the_70000_leaf_root);
    RUN(limits);
    json_decref(vectors);
    CHECK_DONE();
}
