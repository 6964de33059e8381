/*
 * json_text: a game_writer that prints compact JSON into a caller's buffer,
 * byte for byte what jansson's compact dump of the same calls prints (so
 * rp_level_json matches `replayd gen`). No allocation and no libc: the
 * library must build for wasm32 with nothing but memcpy and memset.
 *
 * The text is cut at cap - 1 bytes (always NUL-terminated when cap > 0);
 * len counts every byte the whole text needs, so a caller can retry with a
 * buffer of len + 1.
 */
#ifndef REPLAYD_LIBREPLAY_JSON_TEXT_H
#define REPLAYD_LIBREPLAY_JSON_TEXT_H

#include "../core/game.h"

#define JSON_TEXT_DEPTH 16

typedef struct json_text {
    char *buf;
    size_t cap;
    size_t len;
    int depth;
    bool first[JSON_TEXT_DEPTH]; /* no element written yet at that depth */
    char close[JSON_TEXT_DEPTH]; /* the bracket that closes that depth */
} json_text;

/* Starts an object at depth 1 and returns the writer over it. */
game_writer json_text_start(json_text *t, char *buf, size_t cap);
/* Closes every open container, NUL-terminates, returns the needed length. */
long json_text_finish(json_text *t);

#endif
