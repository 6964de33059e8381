/*
 * json_game: the bridge between JSON (jansson) and the game interface.
 * Games never see JSON; this file is the only place that turns a move
 * object into a game_move or a game_writer call into JSON.
 *
 * Ownership: every json_t* returned here is a new reference the caller
 * must json_decref.
 */
#ifndef REPLAYD_SERVER_JSON_GAME_H
#define REPLAYD_SERVER_JSON_GAME_H

#include <jansson.h>

#include "../../core/game.h"
#include "../../core/replay.h"

typedef struct move_error {
    long index;        /* the first bad move, or -1 for the array itself */
    bool too_many;     /* refused for its length (413 too_many_moves), not its content */
    char message[160];
} move_error;

/* Decode a JSON array of move objects of that spec version. Each object
 * must hold exactly the fields the version's moves carry, each an integer
 * within the field's range. The count is checked first: a list longer than
 * `cap` or the game's max_moves is refused before any move is decoded.
 * Returns the number of moves, or -1 with *err filled. */
long moves_from_json(const game *g, int version, const json_t *array, game_move *out, size_t cap,
                     move_error *err);

/* Moves of that version back to JSON, for audit output and vectors. */
json_t *moves_to_json(const game *g, int version, const game_move *moves, size_t n);

/* The game's describe_level / describe_state written into a new object. */
json_t *level_to_json(const game *g, const game_level *level);
json_t *state_to_json(const game *g, const game_state *state);

/* {"completed","score","duration_ms", extras...} */
json_t *result_to_json(const game *g, const game_result *r);

/* Outcome codes as a JSON array of strings. */
json_t *outcomes_to_json(const game *g, const int *outcomes, size_t n);

/* A game's catalogue entry: name, version, levels, move fields (a field
 * that only later versions carry has "since"). */
json_t *game_to_json(const game *g);

#endif
