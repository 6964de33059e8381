/*
 * game: the interface every game module implements.
 *
 * A game is a pure back end in the manner of Simon Tatham's `struct game`:
 * it never sees JSON, HTTP, the clock or malloc. The shell decodes each move
 * into a game_move (small integers named by the game's fields, in declared
 * order) and drives the game through this table.
 *
 * Handles: game_level and game_state are opaque types that are never
 * defined; a game converts them to its own private structs at its top. They
 * only keep a state from being passed where a level is expected.
 *
 * Memory: the caller owns every buffer. A level is `level_size` bytes that
 * generate() fills; a play state is `state_size` bytes that start() fills
 * (malloc'd storage is aligned for both).
 * start() may keep a pointer to the level, so the level must outlive every
 * state started from it. Both are plain bytes: copying one clones it.
 *
 * Versions and levels: `version` is the spec version new seed tokens are
 * issued under; every version from `min_version` up stays replayable for
 * scores recorded under it. The shell checks the version and level ranges
 * (game_generate); a game's generate() only ever gets valid input. The
 * level remembers its version.
 *
 * Move fields per version: a field a later version added names the first
 * version whose moves carry it (`since`); moves of an older version lack it
 * (the decoder refuses it there, and the game finds 0 in its slot). A
 * field's slot in game_move.v never moves, so old moves keep their layout,
 * their JSON and their hash.
 *
 * Generation parameters (vectors only): a game may name a few limits of its
 * generation step (a candidate cap, a node cap, a gate's threshold; its
 * spec.md says which, under "Generation parameters"). The level table's
 * values are the defaults. A vector case sets a small value so that a
 * fallback no natural seed reaches is pinned exactly. The server never sets
 * one: it calls game_generate, which is generate() with the defaults; only
 * the vector runner calls game_generate_with.
 */
#ifndef REPLAYD_CORE_GAME_H
#define REPLAYD_CORE_GAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "civil.h"

/* Opaque handles: declared here, defined nowhere. */
typedef struct game_level game_level;
typedef struct game_state game_state;

#define GAME_MAX_FIELDS 5
#define GAME_MAX_EXTRAS 8
#define GAME_MAX_PARAMS 8

typedef struct game_field {
    const char *name;
    int32_t min; /* the decoder rejects values outside [min, max] as malformed */
    int32_t max;
    int since;   /* the first version whose moves carry it; 0: every version */
} game_field;

/* One move: v[i] is the value of fields[i] (0 where the move's version
 * lacks that field). */
typedef struct game_move {
    int32_t v[GAME_MAX_FIELDS];
} game_move;

/* A named generation parameter: values outside [min, max] are refused. */
typedef struct game_param {
    const char *name;
    int32_t min;
    int32_t max;
} game_param;

/* Parameter values in the order of the game's params; set[i] false means
 * the spec's default (the level table's value). */
typedef struct game_params {
    bool set[GAME_MAX_PARAMS];
    int32_t v[GAME_MAX_PARAMS];
} game_params;

/* The value of parameter i, or `fallback` (the default) when p is NULL or
 * leaves it unset. */
static inline int32_t game_param_or(const game_params *p, int i, int32_t fallback)
{
    return p && p->set[i] ? p->v[i] : fallback;
}

typedef enum outcome_kind {
    OUTCOME_APPLIED,  /* the move changed the state (a mistake is applied too) */
    OUTCOME_IGNORED,  /* the spec says this move does nothing */
    OUTCOME_REJECTED  /* illegal: the whole replay is rejected at this move */
} outcome_kind;

typedef struct game_outcome {
    const char *code; /* stable name used in vectors and API reasons */
    outcome_kind kind;
    /* An applied move that made no progress toward the goal (a wrong tap,
     * a wrong or late answer): the rules count it, the server's twin
     * shape leaves it out (server/trust/twins.h). Not a rule: it changes
     * no replay. */
    bool slip;
} game_outcome;

typedef struct game_result {
    bool completed;
    int64_t score;       /* higher is better */
    int64_t duration_ms; /* time the run claims to have taken; -1 if untimed */
    int64_t extra[GAME_MAX_EXTRAS]; /* named by game.result_fields */
} game_result;

/* A neutral writer so a game can describe a level or a board without
 * knowing the output format. Inside an array, key is NULL. */
typedef struct game_writer {
    void *ctx;
    void (*put_int)(void *ctx, const char *key, int64_t value);
    void (*put_bool)(void *ctx, const char *key, bool value);
    void (*put_str)(void *ctx, const char *key, const char *value);
    /* rows x cols integers as an array of rows (cols == 0: one flat array
     * of `rows` values). */
    void (*put_int_rows)(void *ctx, const char *key, const int32_t *v, int rows, int cols);
    /* rows x cols characters as an array of strings, one per row. */
    void (*put_text_rows)(void *ctx, const char *key, const char *chars, int rows, int cols);
    void (*begin_object)(void *ctx, const char *key);
    void (*begin_array)(void *ctx, const char *key);
    void (*end)(void *ctx);
} game_writer;

typedef enum gen_status {
    GEN_OK = 0,
    GEN_BAD_LEVEL,   /* level number outside 1..levels */
    GEN_BAD_VERSION, /* version outside min_version..version */
    GEN_BAD_PARAMS   /* a parameter the game does not take, or out of its range */
} gen_status;

typedef struct game {
    const char *name;
    int version;
    int min_version;
    int levels; /* levels are numbered 1..levels */
    int max_moves; /* a replay longer than this is rejected before it runs */

    int n_fields;
    const game_field *fields;
    int n_outcomes;
    const game_outcome *outcomes;
    int n_extras;
    const char *const *result_fields;

    size_t level_size;
    size_t state_size;

    /* Only called through game_generate, so version is within
     * min_version..version and level_no within 1..levels. */
    void (*generate)(game_level *level, int version, int level_no, uint32_t seed);
    void (*start)(game_state *state, const game_level *level);
    /* Returns an index into outcomes. After a rejected move the state is
     * unspecified; the caller stops. */
    int (*apply)(game_state *state, const game_move *move);
    void (*result)(const game_state *state, game_result *out);
    void (*describe_level)(const game_level *level, const game_writer *w);
    /* The level's minimum work: the fewest applied moves of a run that
     * completes it with its best result, as far as the game knows (Schulte:
     * the N numbers; Pipes: min_turns; Target Sums: min_toggles; Opposites:
     * one correct answer per prompt; Contraption: the parts of the
     * generator's plan; Driftlings: the moves of the crowd plan), or -1
     * when the game cannot say (a Contraption fallback level, a hand-built
     * Driftlings level). It depends on the level only, so it is the same
     * for every version that generates the same level. The server's review
     * signals count applied moves beyond it as wasted; the specs' finish
     * floors derive from it. */
    int (*min_moves)(const game_level *level);
    /* Review features (optional, NULL for a game without time floors: the
     * server then measures no pace). How much later than the spec's floor
     * `move` came, in ms (0: exactly at the floor), given the move before
     * it (NULL for the first); -1 when no floor applies to it (a move the
     * rules will ignore or reject, a game whose moves carry no time). And
     * the earliest the level may complete, in ms (0: no finish floor).
     * Both read the level and the moves only, with integer arithmetic, and
     * change nothing: a run's result never depends on them. */
    int32_t (*move_slack_ms)(const game_level *level, const game_move *prev, const game_move *move);
    int32_t (*finish_floor_ms)(const game_level *level);
    /* Review feature (optional, NULL for a game without one): the think
     * floor, the least time in ms a person needs from the level's
     * appearing to the run's first decision (reading the level, then the
     * gesture that makes it), as the spec's "Fair play" section derives it
     * from the level's pieces and size (0: none for this level); and the
     * time a move claims since the run began (its "t", a tick clock's
     * ticks in ms), -1 when the moves carry no time (an untimed version).
     * The server holds a run whose first applied move came before the
     * floor (fairplay.h, think_ms). Level and move only, integer
     * arithmetic, nothing changed: never part of the rules. */
    int32_t (*think_floor_ms)(const game_level *level);
    int32_t (*move_at_ms)(const game_level *level, const game_move *move);
    /* Review feature: how many moves the rules ignore (a tap on something
     * already done, a move after the end) a person makes by slip in one
     * run, as the spec's "Fair play" section states it; the server counts
     * the ones beyond it toward a hold. 0: the game states none and they
     * are only counted. Never part of the rules: no replay depends on it. */
    int ignored_allowance;
    void (*describe_state)(const game_state *state, const game_writer *w);
    /* The game's own daily seed for a UTC date; NULL means the catalogue
     * derivation (core/daily.h). */
    uint32_t (*daily_seed)(civil_date date);

    /* Optional (NULL and 0 for a game without parameters): the generation
     * parameters, and generate() with them (params NULL: the defaults,
     * exactly generate()). Only game_generate_with calls it. */
    int n_params;
    const game_param *params;
    void (*generate_with)(game_level *level, int version, int level_no, uint32_t seed,
                          const game_params *params);
} game;

/* For a game's own .c file: defines level_of, level_view, state_of and
 * state_view, which turn the opaque handles into the game's private structs
 * (and nothing else into them). */
#define GAME_HANDLES(level_type, state_type)                                   \
    GAME_HANDLE_CASTS_(level_of, level_view, game_level, level_type)           \
    GAME_HANDLE_CASTS_(state_of, state_view, game_state, state_type)

#define GAME_HANDLE_CASTS_(of, view, handle_type, own_type)                    \
    static inline own_type *of(handle_type *p)                                 \
    {                                                                          \
        return (own_type *)(void *)p;                                          \
    }                                                                          \
    static inline const own_type *view(const handle_type *p)                   \
    {                                                                          \
        return (const own_type *)(const void *)p;                              \
    }

/* Caller-owned storage seen as a handle where it is not malloc's void *
 * (which converts by itself): a static byte buffer, or a game's own struct
 * in its generator, tests and benches. */
static inline game_level *game_level_handle(void *storage) { return storage; }
static inline const game_level *game_level_const_handle(const void *storage) { return storage; }
static inline game_state *game_state_handle(void *storage) { return storage; }

/* The catalogue: one static table, in core/catalog.c. */
extern const game *const game_catalog[];
extern const size_t game_catalog_count;

/* NULL when no game has that name. */
const game *game_find(const char *name);

/* The checked way to generate: GEN_BAD_VERSION for a version outside
 * min_version..version, else GEN_BAD_LEVEL for a level outside 1..levels
 * (`out` untouched), else the game fills `out` (level_size bytes). */
gen_status game_generate(const game *g, game_level *out, int version, int level_no,
                         uint32_t seed);

/* game_generate with generation parameters (vectors only; params NULL is
 * game_generate). GEN_BAD_PARAMS when a set parameter is outside its range
 * or the game takes none. */
gen_status game_generate_with(const game *g, game_level *out, int version, int level_no,
                              uint32_t seed, const game_params *params);

/* The index of the game's parameter of that name, or -1. */
int game_param_index(const game *g, const char *name);

/* Whether moves of that version carry the field. */
static inline bool game_field_in(const game_field *f, int version)
{
    return f->since <= version;
}

/* The number of fields the moves of that version carry. */
int game_field_count(const game *g, int version);

/* Outcome index for a code name, or -1. */
int game_outcome_index(const game *g, const char *code);

#endif
