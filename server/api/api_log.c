/*
 * api_log: the score log, served (docs/LOG.md section 8): the latest
 * checkpoint and the C2SP tlog-tiles under /v1/log/. Every tile is read
 * from the rows the writer's transactions sealed (store.h): an entry
 * bundle from the leaves, a level-0 hash tile from their hashes, a higher
 * one from the stored hashes; none is built past the latest checkpoint's
 * tree, so a request costs at most one tile's 256 rows.
 */
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "../log/merkle.h"
#include "../log/tile.h"
#include "../store/store.h"

#define LOG_PREFIX "/v1/log/"

void api_log_checkpoint(request *r)
{
    char note[STORE_LOG_NOTE_MAX];
    int64_t size = 0;
    if (store_log_checkpoint(r->app->db, &size, note, sizeof note) != STORE_OK) {
        reply_error(r, 500, "internal", "the log's checkpoint cannot be read");
        return;
    }
    if (note[0] == '\0') { /* only before the server's first seal at start */
        r->retry_after_s = 1;
        reply_error(r, 503, "no_checkpoint", "the log has no checkpoint yet");
        return;
    }
    char *text = strdup(note);
    if (!text) {
        reply_error(r, 500, "internal", "out of memory");
        return;
    }
    reply_header(r, "Cache-Control", "public, max-age=1");
    reply_text(r, 200, "text/plain; charset=utf-8", text, strlen(text));
}

/* The leaves of bundle t into *out (malloc'd, *len bytes): as an entry
 * bundle, or (hashes) as their leaf hashes. */
static store_status read_leaves(store *db, const tile_id *t, bool hashes, uint8_t **out, size_t *len)
{
    store_log_entry *e = malloc((size_t)t->width * sizeof *e);
    size_t cap = (size_t)t->width * (hashes ? MERKLE_HASH_BYTES : 2 + LOG_ENTRY_MAX);
    uint8_t *buf = malloc(cap);
    int n = 0;
    store_status st = e && buf ? store_log_entries(db, (int64_t)t->index * TILE_WIDTH, t->width, e, &n)
                               : STORE_ERROR;
    if (st == STORE_OK && n != t->width)
        st = STORE_ERROR; /* the checkpoint's tree has them all */
    size_t used = 0;
    for (int i = 0; st == STORE_OK && i < n; i++) {
        if (hashes) {
            merkle_leaf_hash(e[i].bytes, e[i].len, buf + used);
            used += MERKLE_HASH_BYTES;
        } else if (tile_bundle_add(buf, cap, &used, e[i].bytes, e[i].len) != TILE_OK) {
            st = STORE_ERROR;
        }
    }
    free(e);
    if (st != STORE_OK) {
        free(buf);
        return st;
    }
    *out = buf;
    *len = used;
    return STORE_OK;
}

static store_status read_hashes(store *db, const tile_id *t, uint8_t **out, size_t *len)
{
    uint8_t(*h)[32] = malloc((size_t)t->width * sizeof *h);
    int n = 0;
    store_status st = h ? store_log_hashes(db, t->level * TILE_HEIGHT, (int64_t)t->index * TILE_WIDTH,
                                           t->width, h, &n)
                        : STORE_ERROR;
    if (st == STORE_OK && n != t->width)
        st = STORE_ERROR;
    if (st != STORE_OK) {
        free(h);
        return st;
    }
    *out = (uint8_t *)h;
    *len = (size_t)t->width * MERKLE_HASH_BYTES;
    return STORE_OK;
}

void api_log_tile(request *r)
{
    const char *path = r->path + strlen(LOG_PREFIX);
    tile_id t;
    int rc = strncmp(r->path, LOG_PREFIX, strlen(LOG_PREFIX)) == 0 ? tile_parse(path, strlen(path), &t)
                                                                    : TILE_EPATH;
    if (rc == TILE_EPATH) {
        reply_error(r, 400, "bad_tile_path",
                    "not a tile path: tile/<L>/<N>[.p/<W>] or tile/entries/<N>[.p/<W>], each number in "
                    "its one canonical form (docs/LOG.md section 4)");
        return;
    }
    char note[STORE_LOG_NOTE_MAX];
    int64_t size = 0;
    if (rc == TILE_OK && store_log_checkpoint(r->app->db, &size, note, sizeof note) != STORE_OK) {
        reply_error(r, 500, "internal", "the log's checkpoint cannot be read");
        return;
    }
    /* a tile no log of 2^63 leaves has, or one past the checkpoint's tree
     * (a partial tile narrower than the tree's is a prefix of it: served) */
    int level = t.level == TILE_ENTRIES ? 0 : t.level;
    if (rc != TILE_OK || note[0] == '\0' || tile_width_at((uint64_t)size, level, t.index) < t.width) {
        reply_error(r, 404, "not_in_log", "the log's latest checkpoint has no such tile");
        return;
    }
    uint8_t *body = NULL;
    size_t len = 0;
    store_status st = t.level == TILE_ENTRIES ? read_leaves(r->app->db, &t, false, &body, &len)
                      : t.level == 0          ? read_leaves(r->app->db, &t, true, &body, &len)
                                              : read_hashes(r->app->db, &t, &body, &len);
    if (st != STORE_OK) {
        reply_error(r, st == STORE_BUSY ? 503 : 500, st == STORE_BUSY ? "busy" : "internal",
                    "the tile cannot be read");
        return;
    }
    reply_header(r, "Cache-Control",
                 t.width == TILE_WIDTH ? "public, max-age=31536000, immutable" : "public, max-age=5");
    reply_text(r, 200, "application/octet-stream", (char *)body, len);
}
