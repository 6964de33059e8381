/* Unit tests for server/log/tile.c: paths as tests/unit/log-vectors.mjs
 * writes them from the C2SP spec, round trips, refused paths, random
 * paths that parse only in their one form, widths as
 * the spec's own example gives them, and every tile and entry bundle of a
 * 70000-leaf tree against the vectors' digests. */
#include "../check.h"

#include "log_fixture.h"
#include "../../server/log/tile.h"

static json_t *vectors;

static int parse(const char *s, tile_id *t)
{
    return tile_parse(s, strlen(s), t);
}

static void paths_from_the_vectors(void)
{
    size_t k;
    json_t *c;
    char buf[TILE_PATH_MAX];
    CHECK(json_array_size(json_object_get(vectors, "paths")) > 5);
    json_array_foreach(json_object_get(vectors, "paths"), k, c) {
        tile_id t = { (int)json_integer_value(json_object_get(c, "level")),
                      (uint64_t)json_integer_value(json_object_get(c, "index")),
                      (int)json_integer_value(json_object_get(c, "width")) };
        const char *want = json_string_value(json_object_get(c, "path"));
        size_t n = tile_path(&t, buf, sizeof buf);
        CHECK(want && n == strlen(want) && strcmp(buf, want) == 0);
        tile_id back;
        CHECK_EQ(parse(want, &back), TILE_OK);
        CHECK(back.level == t.level && back.index == t.index && back.width == t.width);
    }
    /* The spec's own example. */
    tile_id t = { 0, 1234067, 256 };
    CHECK(tile_path(&t, buf, sizeof buf) > 0 && strcmp(buf, "tile/0/x001/x234/067") == 0);
}

static void paths_round_trip(void)
{
    const uint64_t indices[] = { 0, 1, 9, 10, 99, 100, 999, 1000, 1001, 999999, 1000000, 123456789012ULL };
    const int widths[] = { 1, 2, 17, 255, 256 };
    int checked = 0;
    for (int level = TILE_ENTRIES; level <= TILE_LEVEL_MAX; level++)
        for (size_t a = 0; a < sizeof indices / sizeof indices[0]; a++)
            for (size_t b = 0; b < sizeof widths / sizeof widths[0]; b++) {
                tile_id t = { level, indices[a], widths[b] }, back;
                char buf[TILE_PATH_MAX];
                size_t n = tile_path(&t, buf, sizeof buf);
                if (tile_check(&t) != TILE_OK) {
                    CHECK_EQ(n, 0);
                    continue;
                }
                CHECK(n > 0 && n == strlen(buf));
                CHECK_EQ(parse(buf, &back), TILE_OK);
                CHECK(back.level == t.level && back.index == t.index && back.width == t.width);
                /* One byte short is refused, or another tile ("...p/17" to
                 * "...p/1"); a buffer one byte too small is refused. */
                int rc = tile_parse(buf, n - 1, &back);
                CHECK(rc != TILE_OK || (t.width >= 10 && t.width < 256 && back.width == t.width / 10));
                CHECK_EQ(tile_path(&t, buf, n), 0);
                checked++;
            }
    CHECK(checked > 400);
    /* The largest index each level can have, and one past it. */
    tile_id top = { 0, (UINT64_C(1) << 55) - 1, 256 };
    CHECK_EQ(tile_check(&top), TILE_OK);
    top.index++;
    CHECK_EQ(tile_check(&top), TILE_ERANGE);
    tile_id seven = { 7, 0, 128 };
    CHECK_EQ(tile_check(&seven), TILE_OK);
    seven.width = 129;
    CHECK_EQ(tile_check(&seven), TILE_ERANGE);
}

static void bad_paths_are_refused(void)
{
    static const char *bad[] = {
        "", "tile", "tile/", "tile/0", "tile/0/", "/tile/0/000", "Tile/0/000", "tiles/0/000",
        "tile//000", "tile/00/000", "tile/01/000", "tile/64/000", "tile/100/000", "tile/-1/000",
        "tile/+1/000", "tile/ 1/000", "tile/1a/000", "tile/Entries/000", "tile/entry/000",
        "tile/0/00", "tile/0/0", "tile/0/0000", "tile/0/x000/001", "tile/0/x000/x001/002",
        "tile/0/001/002", "tile/0/x001", "tile/0/x001/", "tile/0/x1/001", "tile/0/x0001/001",
        "tile/0/X001/001", "tile/0/xx01/001", "tile/0/abc", "tile/0/0x1", "tile/0/-01",
        "tile/0/001/", "tile/0/001.p", "tile/0/001.p/", "tile/0/001.p/0", "tile/0/001.p/256",
        "tile/0/001.p/05", "tile/0/001.p/1000", "tile/0/001.p/5/", "tile/0/001.p/5x",
        "tile/0/001.q/5", "tile/0/001p/5", "tile/0/001.p//5", "tile/entries/001.p/1x",
        "tile/0/001?x=1", "tile/0/001#", "tile/0/../001",
        /* An index past 2^64. */
        "tile/0/x999/x999/x999/x999/x999/x999/999",
        "tile/0/x001/x001/x001/x001/x001/x001/x001/001",
    };
    tile_id t;
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
        if (parse(bad[k], &t) != TILE_EPATH)
            CHECK(!bad[k]); /* names the path in the failure line */
    /* A NUL inside the length given, and a path longer than any tile's. */
    CHECK_EQ(tile_parse("tile/0/000\0", 11, &t), TILE_EPATH);
    CHECK_EQ(tile_parse("tile/0\0/000", 11, &t), TILE_EPATH);
    char longer[200];
    memset(longer, 'x', sizeof longer);
    memcpy(longer, "tile/0/", 7);
    CHECK_EQ(tile_parse(longer, sizeof longer, &t), TILE_EPATH);
    /* Well formed, but no log of at most 2^63 leaves has them. */
    static const char *beyond[] = {
        "tile/8/000", "tile/63/000.p/1", "tile/7/000", "tile/7/001.p/1", "tile/7/000.p/129",
        "tile/0/x036/x028/x797/x018/x963/968", /* 2^55: past the last level-0 tile */
        "tile/entries/x036/x028/x797/x018/x963/968",
    };
    for (size_t k = 0; k < sizeof beyond / sizeof beyond[0]; k++)
        if (parse(beyond[k], &t) != TILE_ERANGE)
            CHECK(!beyond[k]);
    CHECK_EQ(parse("tile/7/000.p/128", &t), TILE_OK);
    CHECK_EQ(parse("tile/0/x036/x028/x797/x018/x963/967", &t), TILE_OK);
    CHECK_EQ(t.index, (UINT64_C(1) << 55) - 1);
}

/* Random strings over the paths' own alphabet: whatever parses is exactly
 * what tile_path writes for the tile it names (one form per tile). */
static void random_paths_parse_only_in_their_one_form(void)
{
    static const char alphabet[] = "tile/entries/0123456789x.p/";
    static const char *starts[] = { "tile/0/", "tile/1/", "tile/entries/", "tile/7/", "tile/" };
    uint64_t state = 0x9e3779b97f4a7c15ULL;
    int parsed = 0, mismatched = 0;
    for (int round = 0; round < 200000; round++) {
        char path[TILE_PATH_MAX + 8];
        const char *start = starts[round % 5];
        size_t n = strlen(start);
        memcpy(path, start, n);
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        size_t extra = (size_t)(state % 24);
        for (size_t k = 0; k < extra && n < sizeof path - 1; k++) {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            /* Mostly digits, so that some of them are tiles. */
            path[n++] = (state >> 32) % 4 ? (char)('0' + (state >> 40) % 10)
                                          : alphabet[(state >> 40) % (sizeof alphabet - 1)];
        }
        path[n] = '\0';
        tile_id t;
        int rc = tile_parse(path, n, &t);
        CHECK(rc == TILE_OK || rc == TILE_EPATH || rc == TILE_ERANGE);
        if (rc != TILE_OK)
            continue;
        parsed++;
        char again[TILE_PATH_MAX];
        if (tile_path(&t, again, sizeof again) != n || strcmp(again, path) != 0)
            mismatched++;
    }
    CHECK(parsed > 1000);
    CHECK_EQ(mismatched, 0);
}

static void widths_as_the_spec_says(void)
{
    /* "a tree of size 70,000 will be represented by 273 full level 0
     * tiles, one partial level 0 tile of width 112, one full level 1 tile,
     * one partial level 1 tile of width 17, and one partial level 2 tile of
     * width 1. [...] a tree of size 256 will be represented by a full level
     * 0 tile and a partial level 1 tile of width 1." */
    CHECK_EQ(tile_width_at(70000, 0, 0), 256);
    CHECK_EQ(tile_width_at(70000, 0, 272), 256);
    CHECK_EQ(tile_width_at(70000, 0, 273), 112);
    CHECK_EQ(tile_width_at(70000, 0, 274), 0);
    CHECK_EQ(tile_width_at(70000, TILE_ENTRIES, 273), 112);
    CHECK_EQ(tile_width_at(70000, 1, 0), 256);
    CHECK_EQ(tile_width_at(70000, 1, 1), 17);
    CHECK_EQ(tile_width_at(70000, 1, 2), 0);
    CHECK_EQ(tile_width_at(70000, 2, 0), 1);
    CHECK_EQ(tile_width_at(70000, 3, 0), 0);
    CHECK_EQ(tile_width_at(256, 0, 0), 256);
    CHECK_EQ(tile_width_at(256, 0, 1), 0);
    CHECK_EQ(tile_width_at(256, 1, 0), 1);
    CHECK_EQ(tile_width_at(0, 0, 0), 0);
    CHECK_EQ(tile_width_at(MERKLE_SIZE_MAX, 7, 0), 128);
    CHECK_EQ(tile_width_at(MERKLE_SIZE_MAX, 8, 0), 0);
    CHECK_EQ(tile_width_at(MERKLE_SIZE_MAX + 1, 0, 0), 0);
}

static void every_tile_of_70000_leaves(void)
{
    const uint64_t size = 70000;
    mem_store s;
    CHECK(mem_store_vectors(&s, size));
    merkle_reader r = { mem_read, &s };
    static uint8_t content[TILE_WIDTH * (2 + 64)];
    size_t k;
    json_t *c;
    int tiles = 0;
    json_array_foreach(json_object_get(vectors, "tiles"), k, c) {
        const char *path = json_string_value(json_object_get(c, "path"));
        tile_id t;
        CHECK(path && parse(path, &t) == TILE_OK);
        CHECK_EQ(t.width, json_integer_value(json_object_get(c, "width")));
        CHECK_EQ(tile_width_at(size, t.level, t.index), t.width);
        uint8_t digest[MERKLE_HASH_BYTES];
        if (t.level == TILE_ENTRIES) {
            size_t used = 0;
            for (int e = 0; e < t.width; e++) {
                char data[64];
                size_t len = leaf_data(t.index * TILE_WIDTH + (uint64_t)e, data, sizeof data);
                CHECK_EQ(tile_bundle_add(content, sizeof content, &used, (const uint8_t *)data, len),
                         TILE_OK);
            }
            crypto_hash_sha256(digest, content, used);
            /* Each entry hashes to its leaf's stored hash. */
            size_t off = 0, len = 0;
            const uint8_t *entry = NULL;
            for (int e = 0; e < t.width; e++) {
                uint8_t leaf[MERKLE_HASH_BYTES], stored[MERKLE_HASH_BYTES];
                CHECK_EQ(tile_bundle_next(content, used, &off, &entry, &len), 1);
                merkle_leaf_hash(entry, len, leaf);
                CHECK_EQ(mem_read(&s, 0, t.index * TILE_WIDTH + (uint64_t)e, stored), 0);
                CHECK(memcmp(leaf, stored, sizeof leaf) == 0);
            }
            CHECK_EQ(tile_bundle_next(content, used, &off, &entry, &len), 0);
        } else {
            int n = tile_hashes(&r, &t, content, sizeof content);
            CHECK_EQ(n, t.width * MERKLE_HASH_BYTES);
            crypto_hash_sha256(digest, content, n > 0 ? (size_t)n : 0);
        }
        if (!hash_is(digest, json_string_value(json_object_get(c, "sha256"))))
            CHECK(!path);
        tiles++;
    }
    /* Every tile the tree has, counted from the widths: 274 + 274 + 2 + 1. */
    int count = 0;
    for (int level = TILE_ENTRIES; level <= TILE_LEVEL_MAX; level++)
        for (uint64_t index = 0; tile_width_at(size, level, index) > 0; index++)
            count++;
    CHECK_EQ(count, 551);
    CHECK_EQ(tiles, count);

    tile_id t = { 0, 273, 112 };
    CHECK_EQ(tile_hashes(&r, &t, content, 112 * MERKLE_HASH_BYTES - 1), TILE_ESPACE);
    t.width = 113; /* past the tree's last leaf: the reader refuses */
    CHECK_EQ(tile_hashes(&r, &t, content, sizeof content), TILE_EREAD);
    t.level = TILE_ENTRIES;
    CHECK_EQ(tile_hashes(&r, &t, content, sizeof content), TILE_ERANGE);
    t.level = 8;
    CHECK_EQ(tile_hashes(&r, &t, content, sizeof content), TILE_ERANGE);
    mem_store_free(&s);
}

static void entry_bundles(void)
{
    static uint8_t buf[2 * (TILE_ENTRY_MAX + 2) + 16];
    static uint8_t big[TILE_ENTRY_MAX + 1];
    memset(big, 0xab, sizeof big);
    size_t used = 0;
    CHECK_EQ(tile_bundle_add(buf, sizeof buf, &used, NULL, 0), TILE_OK);
    CHECK_EQ(tile_bundle_add(buf, sizeof buf, &used, (const uint8_t *)"a", 1), TILE_OK);
    CHECK_EQ(used, 5);
    CHECK(memcmp(buf, "\x00\x00\x00\x01" "a", 5) == 0);
    CHECK_EQ(tile_bundle_add(buf, sizeof buf, &used, big, TILE_ENTRY_MAX), TILE_OK);
    CHECK(buf[5] == 0xff && buf[6] == 0xff);
    size_t before = used;
    CHECK_EQ(tile_bundle_add(buf, sizeof buf, &used, big, TILE_ENTRY_MAX + 1), TILE_EENTRY);
    CHECK_EQ(tile_bundle_add(buf, used + 2, &used, (const uint8_t *)"b", 1), TILE_ESPACE);
    CHECK_EQ(used, before);

    size_t off = 0, len = 99;
    const uint8_t *e = NULL;
    CHECK_EQ(tile_bundle_next(buf, used, &off, &e, &len), 1);
    CHECK_EQ(len, 0);
    CHECK_EQ(tile_bundle_next(buf, used, &off, &e, &len), 1);
    CHECK(len == 1 && e[0] == 'a');
    CHECK_EQ(tile_bundle_next(buf, used, &off, &e, &len), 1);
    CHECK(len == TILE_ENTRY_MAX && memcmp(e, big, len) == 0);
    CHECK_EQ(tile_bundle_next(buf, used, &off, &e, &len), 0);
    /* Cut anywhere inside an entry: refused, never read past the end. */
    for (size_t cut = 1; cut < 5; cut++) {
        if (cut == 2)
            continue; /* the empty entry ends there */
        off = 0;
        int rc;
        while ((rc = tile_bundle_next(buf, cut, &off, &e, &len)) == 1)
            ;
        CHECK_EQ(rc, TILE_EENTRY);
    }
    off = 0;
    CHECK_EQ(tile_bundle_next(buf, used - 1, &off, &e, &len), 1);
    CHECK_EQ(tile_bundle_next(buf, used - 1, &off, &e, &len), 1);
    CHECK_EQ(tile_bundle_next(buf, used - 1, &off, &e, &len), TILE_EENTRY);
    off = used + 1;
    CHECK_EQ(tile_bundle_next(buf, used, &off, &e, &len), TILE_EENTRY);
}

int main(void)
{
    if (sodium_init() < 0 || !(vectors = load_log_vectors()))
        return 1;
    RUN(paths_from_the_vectors);
    RUN(paths_round_trip);
    RUN(bad_paths_are_refused);
    RUN(random_paths_parse_only_in_their_one_form);
    RUN(widths_as_the_spec_says);
    RUN(every_tile_of_70000_leaves);
    RUN(entry_bundles);
    json_decref(vectors);
    CHECK_DONE();
}
