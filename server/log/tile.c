/* tile: C2SP tlog-tiles paths, hash tile contents, entry bundles (tile.h). */
#include "tile.h"

#include <stdio.h>
#include <string.h>

/* How many stored hashes level 8 * tile_level has in a tree of 2^63
 * leaves (the entry bundles count as level 0). */
static uint64_t hashes_at_level_max(int tile_level)
{
    return MERKLE_SIZE_MAX >> (TILE_HEIGHT * tile_level);
}

int tile_check(const tile_id *t)
{
    int level = t->level == TILE_ENTRIES ? 0 : t->level;
    if (level < 0 || level > TILE_LEVEL_MAX || t->width < 1 || t->width > TILE_WIDTH)
        return TILE_ERANGE;
    uint64_t max = hashes_at_level_max(level);
    /* index * 256 + width <= max, without overflowing. */
    if ((uint64_t)t->width > max || t->index > (max - (uint64_t)t->width) / TILE_WIDTH)
        return TILE_ERANGE;
    return TILE_OK;
}

size_t tile_path(const tile_id *t, char *buf, size_t len)
{
    if (tile_check(t) != TILE_OK || len == 0)
        return 0;
    /* The index's 3-digit groups, most significant first. */
    unsigned groups[8];
    int count = 0;
    uint64_t n = t->index;
    do {
        groups[count++] = (unsigned)(n % 1000);
        n /= 1000;
    } while (n > 0);
    size_t at = 0;
    int w;
    if (t->level == TILE_ENTRIES)
        w = snprintf(buf, len, "tile/entries/");
    else
        w = snprintf(buf, len, "tile/%d/", t->level);
    if (w < 0 || (size_t)w >= len)
        return 0;
    at = (size_t)w;
    for (int k = count - 1; k >= 0; k--) {
        w = snprintf(buf + at, len - at, k > 0 ? "x%03u/" : "%03u", groups[k]);
        if (w < 0 || (size_t)w >= len - at)
            return 0;
        at += (size_t)w;
    }
    if (t->width != TILE_WIDTH) {
        w = snprintf(buf + at, len - at, ".p/%d", t->width);
        if (w < 0 || (size_t)w >= len - at)
            return 0;
        at += (size_t)w;
    }
    return at;
}

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* A decimal of 1..3 digits at s (of len bytes) without a leading zero
 * (but "0" itself), as tile levels and widths are written; -1 if not. */
static int small_decimal(const char *s, size_t len)
{
    if (len == 0 || len > 3 || (len > 1 && s[0] == '0'))
        return -1;
    int v = 0;
    for (size_t k = 0; k < len; k++) {
        if (!is_digit(s[k]))
            return -1;
        v = v * 10 + (s[k] - '0');
    }
    return v;
}

int tile_parse(const char *path, size_t len, tile_id *out)
{
    static const char prefix[] = "tile/";
    const size_t plen = sizeof prefix - 1;
    const char *end = path + len;
    memset(out, 0, sizeof *out);
    if (len < plen || len >= TILE_PATH_MAX || memcmp(path, prefix, plen) != 0)
        return TILE_EPATH;
    const char *p = path + plen;
    const char *slash = memchr(p, '/', (size_t)(end - p));
    if (!slash)
        return TILE_EPATH;
    int level;
    if ((size_t)(slash - p) == 7 && memcmp(p, "entries", 7) == 0) {
        level = TILE_ENTRIES;
    } else {
        level = small_decimal(p, (size_t)(slash - p));
        if (level < 0 || level > 63)
            return TILE_EPATH;
    }
    p = slash + 1;
    /* "xDDD/" groups, then the last "DDD". */
    uint64_t index = 0;
    int groups = 0, leading_zero_group = 0;
    for (;;) {
        int prefixed = p < end && *p == 'x';
        const char *d = p + prefixed;
        if (end - d < 3 || !is_digit(d[0]) || !is_digit(d[1]) || !is_digit(d[2]))
            return TILE_EPATH;
        uint64_t g = (uint64_t)((d[0] - '0') * 100 + (d[1] - '0') * 10 + (d[2] - '0'));
        if (++groups > 7 || index > (UINT64_MAX - g) / 1000)
            return TILE_EPATH;
        if (groups == 1 && prefixed && g == 0)
            leading_zero_group = 1;
        index = index * 1000 + g;
        p = d + 3;
        if (!prefixed)
            break;
        if (p >= end || *p != '/')
            return TILE_EPATH;
        p++;
    }
    int width = TILE_WIDTH;
    if (p < end) {
        if (end - p < 4 || memcmp(p, ".p/", 3) != 0)
            return TILE_EPATH;
        width = small_decimal(p + 3, (size_t)(end - p - 3));
        if (width < 1 || width > 255)
            return TILE_EPATH;
    }
    if (leading_zero_group)
        return TILE_EPATH;
    tile_id t = { level, index, width };
    if (level > TILE_LEVEL_MAX)
        return TILE_ERANGE;
    int rc = tile_check(&t);
    if (rc != TILE_OK)
        return rc;
    /* One form per tile: what tile_path writes (this refuses "x000/001"). */
    char canon[TILE_PATH_MAX];
    size_t clen = tile_path(&t, canon, sizeof canon);
    if (clen != len || memcmp(canon, path, len) != 0)
        return TILE_EPATH;
    *out = t;
    return TILE_OK;
}

int tile_width_at(uint64_t tree_size, int level, uint64_t index)
{
    if (level == TILE_ENTRIES)
        level = 0;
    if (level < 0 || level > TILE_LEVEL_MAX || tree_size > MERKLE_SIZE_MAX)
        return 0;
    uint64_t count = tree_size >> (TILE_HEIGHT * level); /* hashes at that level */
    uint64_t full = count / TILE_WIDTH;
    if (index < full)
        return TILE_WIDTH;
    if (index == full)
        return (int)(count % TILE_WIDTH);
    return 0;
}

int tile_hashes(const merkle_reader *r, const tile_id *t, uint8_t *out, size_t out_len)
{
    if (t->level == TILE_ENTRIES || tile_check(t) != TILE_OK)
        return TILE_ERANGE;
    size_t need = (size_t)t->width * MERKLE_HASH_BYTES;
    if (out_len < need)
        return TILE_ESPACE;
    uint64_t first = t->index * TILE_WIDTH;
    for (int k = 0; k < t->width; k++)
        if (r->read(r->ctx, TILE_HEIGHT * t->level, first + (uint64_t)k,
                    out + (size_t)k * MERKLE_HASH_BYTES) != 0)
            return TILE_EREAD;
    return (int)need;
}

int tile_bundle_add(uint8_t *buf, size_t cap, size_t *used, const uint8_t *entry, size_t entry_len)
{
    if (entry_len > TILE_ENTRY_MAX)
        return TILE_EENTRY;
    if (*used > cap || cap - *used < 2 + entry_len)
        return TILE_ESPACE;
    buf[*used] = (uint8_t)(entry_len >> 8);
    buf[*used + 1] = (uint8_t)(entry_len & 0xff);
    if (entry_len > 0)
        memcpy(buf + *used + 2, entry, entry_len);
    *used += 2 + entry_len;
    return TILE_OK;
}

int tile_bundle_next(const uint8_t *bundle, size_t len, size_t *offset, const uint8_t **entry,
                     size_t *entry_len)
{
    size_t at = *offset;
    if (at == len)
        return 0;
    if (at > len || len - at < 2)
        return TILE_EENTRY;
    size_t n = ((size_t)bundle[at] << 8) | bundle[at + 1];
    if (len - at - 2 < n)
        return TILE_EENTRY;
    *entry = bundle + at + 2;
    *entry_len = n;
    *offset = at + 2 + n;
    return 1;
}
