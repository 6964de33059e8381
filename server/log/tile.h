/*
 * tile: the C2SP tlog-tiles layout of the score log (docs/LOG.md): which
 * tile a path names, the path of a tile, what a hash tile holds, and the
 * entry bundle encoding. Tile height 8, so a full tile is 256 hashes.
 *
 *   tile/<L>/<N>[.p/<W>]        hash tile: the stored hashes of level 8L,
 *                               indices N*256 .. N*256+W-1, 32 bytes each
 *   tile/entries/<N>[.p/<W>]    entry bundle: leaves N*256 .. N*256+W-1,
 *                               each a 2-byte big-endian length and its bytes
 *
 * <N> is written in 3-digit elements, all but the last prefixed by "x"
 * (1234067 is x001/x234/067); ".p/<W>" marks a partial tile of W (1..255)
 * hashes and is absent for a full one. Parsing is strict: a path is
 * accepted only in the one form tile_path writes for it.
 *
 * Pure: no I/O, no allocation, no state; hash tiles read stored hashes
 * through a merkle_reader (merkle.h). Every buffer is the caller's.
 */
#ifndef REPLAYD_SERVER_LOG_TILE_H
#define REPLAYD_SERVER_LOG_TILE_H

#include <stddef.h>
#include <stdint.h>

#include "merkle.h"

#define TILE_HEIGHT 8
#define TILE_WIDTH 256 /* hashes (or entries) in a full tile */
#define TILE_ENTRIES (-1) /* the level of an entry bundle */
/* The highest hash tile level a tree of at most 2^63 leaves has. */
#define TILE_LEVEL_MAX 7
/* The longest path tile_path writes, with its terminating NUL. */
#define TILE_PATH_MAX 64
#define TILE_ENTRY_MAX 65535 /* the longest entry a bundle can carry */

enum tile_result {
    TILE_OK = 0,
    TILE_EPATH = -1,  /* not a tile path in its one accepted form */
    TILE_ERANGE = -2, /* a tile no log of at most 2^63 leaves can have */
    TILE_EREAD = -3,  /* the reader returned an error */
    TILE_ESPACE = -4, /* the caller's buffer is too small */
    TILE_EENTRY = -5, /* an entry longer than TILE_ENTRY_MAX, or a bundle cut short */
};

/* A hash tile (level 0..TILE_LEVEL_MAX) or an entry bundle (TILE_ENTRIES). */
typedef struct tile_id {
    int level;
    uint64_t index;
    int width; /* 1..256; 256 is a full tile */
} tile_id;

/* TILE_OK when t can exist in a log of at most 2^63 leaves: its level and
 * width are in range and its last hash's subtree ends by leaf 2^63. */
int tile_check(const tile_id *t);

/* Writes t's path ("tile/0/x001/x234/067.p/5") with a NUL into buf and
 * returns its length; 0 when t fails tile_check or buf is too small. */
size_t tile_path(const tile_id *t, char *buf, size_t len);

/* Reads the len bytes at path (no NUL needed) into *out. TILE_EPATH for
 * anything tile_path would not write: a level with a leading zero or
 * above 63, an index element that is not 3 digits, a missing or extra
 * "x", a leading "x000", a width of 0, 256 or more or with a leading
 * zero, anything before, between or after; TILE_ERANGE for a well-formed
 * path beyond the log's 2^63 leaves (levels 8..63 included). */
int tile_parse(const char *path, size_t len, tile_id *out);

/* How many hashes (entries) tile (level, index) holds in a tree of
 * tree_size leaves: 256 for a full tile, 1..255 for the partial one,
 * 0 when the tree does not have it yet. */
int tile_width_at(uint64_t tree_size, int level, uint64_t index);

/* A hash tile's content: t->width * 32 bytes of stored hashes at level
 * 8 * t->level into out. Returns the byte count, or TILE_ERANGE (t fails
 * tile_check or is an entry bundle), TILE_ESPACE, TILE_EREAD. */
int tile_hashes(const merkle_reader *r, const tile_id *t, uint8_t *out, size_t out_len);

/* Appends one entry (2-byte big-endian length, then its bytes) to the
 * bundle of *used bytes in buf; TILE_EENTRY when entry_len exceeds
 * TILE_ENTRY_MAX, TILE_ESPACE when it does not fit (nothing is written). */
int tile_bundle_add(uint8_t *buf, size_t cap, size_t *used, const uint8_t *entry, size_t entry_len);

/* Reads the entry at *offset of a bundle of len bytes: 1 with *entry
 * (pointing into bundle) and *entry_len set and *offset moved past it,
 * 0 at the end, TILE_EENTRY when the bundle is cut short. */
int tile_bundle_next(const uint8_t *bundle, size_t len, size_t *offset, const uint8_t **entry,
                     size_t *entry_len);

#endif
