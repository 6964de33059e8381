/*
 * replay.h: libreplay, the server's game code as a library (ABI version 1).
 *
 * The same pure C the server replays scores with: list the games and their
 * move fields, generate a level from (game, version, level, seed), describe
 * it (the fields `replayd gen` prints), play moves on a state, read the
 * outcome of each move and the result, describe a state for drawing.
 *
 * Stability: every name starts with rp_ (types) or rp_/RP_ (functions,
 * constants). ABI version 1 only ever grows: new functions may be added,
 * nothing here changes meaning, layout or signature. rp_abi_version() tells
 * a program which version it runs against.
 *
 * Memory: the library never allocates. A level lives in a caller-owned
 * buffer of rp_level_size(game) bytes, a play state in one of
 * rp_state_size(game) bytes, both aligned to RP_ALIGN (malloc's storage
 * is). The handles the library hands back point into those buffers; the
 * caller frees the buffer when done. A state refers to its level, so the
 * level's buffer must outlive every state started from it. Strings the
 * library returns (names, codes) are static and never freed.
 *
 * Threads: there is no global mutable state. Any number of threads may use
 * the library at once, each on its own levels and states; one level may be
 * shared by states on several threads (levels are read-only once built).
 *
 * Errors: functions that can fail return an int, RP_OK (0) or a negative
 * RP_E* code; rp_apply returns an outcome index (>= 0) or a negative code.
 */
#ifndef REPLAY_H
#define REPLAY_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(REPLAY_BUILD) && defined(__GNUC__)
#define RP_API __attribute__((visibility("default")))
#else
#define RP_API
#endif

#define RP_ABI_VERSION 1
/* Buffers for levels and states must be aligned to this many bytes. */
#define RP_ALIGN 16
/* At most this many extra result fields and move fields per game. */
#define RP_MAX_EXTRAS 8
#define RP_MAX_FIELDS 5

enum {
    RP_OK = 0,
    RP_EBADLEVEL = -1,   /* level number outside 1..levels */
    RP_EBADVERSION = -2, /* version outside min_version..version */
    RP_EBADPARAMS = -3,  /* a parameter index or value the game does not take */
    RP_EBUFFER = -4,     /* buffer too small or misaligned */
    RP_EARG = -5,        /* a NULL or foreign handle, an index out of range */
    RP_EBADMOVE = -6,    /* wrong number of values, or a value outside its field's range */
    RP_ESTOPPED = -7,    /* the state already had a rejected move: the replay is over */
    RP_ETOOMANY = -8     /* more moves than the game's max_moves */
};

/* The kind of an outcome (rp_outcome_kind). */
enum { RP_APPLIED = 0, RP_IGNORED = 1, RP_REJECTED = 2 };

typedef struct rp_game rp_game;   /* static: one per game, never freed */
typedef struct rp_level rp_level; /* in a caller's buffer */
typedef struct rp_state rp_state; /* in a caller's buffer */

RP_API int rp_abi_version(void);

/* ---- the catalogue ---------------------------------------------------- */

RP_API int rp_game_count(void);
RP_API const rp_game *rp_game_at(int index);        /* NULL outside 0..count-1 */
RP_API const rp_game *rp_game_find(const char *name); /* NULL for an unknown name */
RP_API const char *rp_game_name(const rp_game *g);
RP_API int rp_game_version(const rp_game *g);     /* the version new seeds are issued under */
RP_API int rp_game_min_version(const rp_game *g); /* the oldest version still replayable */
RP_API int rp_game_levels(const rp_game *g);      /* levels are numbered 1..levels */
RP_API int rp_game_max_moves(const rp_game *g);   /* longer move lists are refused */

/* Move fields, in declared order. A field names the first version whose
 * moves carry it (since; 0: every version). */
RP_API int rp_field_count(const rp_game *g);
RP_API const char *rp_field_name(const rp_game *g, int i);
RP_API int32_t rp_field_min(const rp_game *g, int i);
RP_API int32_t rp_field_max(const rp_game *g, int i);
RP_API int rp_field_since(const rp_game *g, int i);
/* How many fields the moves of that version carry. */
RP_API int rp_fields_in_version(const rp_game *g, int version);

/* Named generation parameters (vectors only; the server never sets one). */
RP_API int rp_param_count(const rp_game *g);
RP_API const char *rp_param_name(const rp_game *g, int i);
RP_API int32_t rp_param_min(const rp_game *g, int i);
RP_API int32_t rp_param_max(const rp_game *g, int i);
RP_API int rp_param_index(const rp_game *g, const char *name); /* -1 if none */

/* Outcome codes a move can get, and the result's extra fields. */
RP_API int rp_outcome_count(const rp_game *g);
RP_API const char *rp_outcome_code(const rp_game *g, int i);
RP_API int rp_outcome_kind(const rp_game *g, int i); /* RP_APPLIED, RP_IGNORED, RP_REJECTED */
RP_API int rp_extra_count(const rp_game *g);
RP_API const char *rp_extra_name(const rp_game *g, int i);

/* ---- levels ----------------------------------------------------------- */

RP_API size_t rp_level_size(const rp_game *g);

/* Builds the level in buf (size bytes, RP_ALIGN-aligned) and sets *out.
 * rp_generate_with also takes n generation parameters: param_index[k] is
 * an index of rp_param_name, param_value[k] its value. */
RP_API int rp_generate(const rp_game *g, void *buf, size_t size, int version, int level,
                       uint32_t seed, rp_level **out);
RP_API int rp_generate_with(const rp_game *g, void *buf, size_t size, int version, int level,
                            uint32_t seed, const int *param_index, const int32_t *param_value,
                            int n, rp_level **out);

RP_API const rp_game *rp_level_game(const rp_level *lv);
RP_API int rp_level_version(const rp_level *lv);
RP_API int rp_level_number(const rp_level *lv);
RP_API uint32_t rp_level_seed(const rp_level *lv);
/* The fewest applied moves of a best run, or -1 when the game cannot say. */
RP_API int rp_level_min_moves(const rp_level *lv);

/* A writer: the library calls these to describe a level or a state. Inside
 * an array key is NULL. put_int_rows: rows x cols integers as an array of
 * rows (cols == 0: one flat array of rows values). put_text_rows: rows x
 * cols characters as an array of strings, one per row (not NUL-terminated).
 * Every pointer is valid only during the call. All members are required. */
typedef struct rp_writer {
    void *ctx;
    void (*put_int)(void *ctx, const char *key, int64_t value);
    void (*put_bool)(void *ctx, const char *key, int value); /* 0 or 1 */
    void (*put_str)(void *ctx, const char *key, const char *value);
    void (*put_int_rows)(void *ctx, const char *key, const int32_t *v, int rows, int cols);
    void (*put_text_rows)(void *ctx, const char *key, const char *chars, int rows, int cols);
    void (*begin_object)(void *ctx, const char *key);
    void (*begin_array)(void *ctx, const char *key);
    void (*end)(void *ctx);
} rp_writer;

/* The level as `replayd gen` prints it: game, version, level, seed, then
 * the game's own fields, in that order. */
RP_API int rp_describe_level(const rp_level *lv, const rp_writer *w);

/* The same as one line of compact JSON, the bytes `replayd gen` prints
 * (without the newline). Writes at most cap bytes including a NUL and
 * returns the length the whole text needs (excluding the NUL): when that
 * is >= cap the text was cut; call again with a larger buffer. Negative on
 * a bad handle. */
RP_API long rp_level_json(const rp_level *lv, char *buf, size_t cap);

/* ---- play ------------------------------------------------------------- */

RP_API size_t rp_state_size(const rp_game *g);

/* A fresh state for the level in buf (size bytes, RP_ALIGN-aligned). */
RP_API int rp_start(const rp_level *lv, void *buf, size_t size, rp_state **out);

/* Applies one move: values are the fields the level's version carries
 * (rp_fields_in_version), in declared order. Returns the outcome index
 * (rp_outcome_code / rp_outcome_kind), or RP_EBADMOVE (state unchanged),
 * RP_ETOOMANY, RP_ESTOPPED. After a rejected outcome the replay is over. */
RP_API int rp_apply(rp_state *st, const int32_t *values, int n);

RP_API const rp_level *rp_state_level(const rp_state *st);
RP_API long rp_state_moves(const rp_state *st);  /* moves applied so far (every outcome) */
RP_API int rp_state_stopped(const rp_state *st); /* 1 after a rejected move */

typedef struct rp_result {
    int32_t completed;   /* 0 or 1 */
    int32_t n_extras;    /* rp_extra_count */
    int64_t score;       /* higher is better */
    int64_t duration_ms; /* the time the run claims to have taken; -1 if untimed */
    int64_t extra[RP_MAX_EXTRAS]; /* named by rp_extra_name */
} rp_result;

/* The result so far (RP_ESTOPPED after a rejected move: a rejected replay
 * has no result). */
RP_API int rp_result_get(const rp_state *st, rp_result *out);
/* {"completed":..,"score":..,"duration_ms":.., extras...} as compact JSON
 * (the return value as rp_level_json). */
RP_API long rp_result_json(const rp_state *st, char *buf, size_t cap);

/* The board for drawing: the `board` of `replayd replay`, the
 * board_before / board_after of the vectors. */
RP_API int rp_describe_state(const rp_state *st, const rp_writer *w);
RP_API long rp_state_json(const rp_state *st, char *buf, size_t cap);

/* ---- the shared core (what vectors/prng.json pins) --------------------- */

/* mulberry32: the next value, advancing *state. */
RP_API uint32_t rp_rng_next(uint32_t *state);
/* A draw in 0..n-1 (n >= 1) as the games make them. */
RP_API uint32_t rp_rng_below(uint32_t *state, uint32_t n);
/* Fisher-Yates over v[0..n-1] with draws from *state. */
RP_API void rp_rng_shuffle(uint32_t *state, int32_t *v, size_t n);
RP_API uint32_t rp_fnv1a32(const void *data, size_t len);
/* Days since 1970-01-01 of a proleptic Gregorian date, and back. */
RP_API int64_t rp_days_from_civil(int year, int month, int day);
RP_API void rp_civil_from_days(int64_t days, int *year, int *month, int *day);
/* The daily challenge of a UTC date: game, level, seed and the schedule
 * era (1-based). RP_EARG for a date before the first daily. The seed is the
 * public derivation (docs/CORE.md), which a server with daily_seeds =
 * public serves; a sealed server's daily seed comes only from it (GET
 * /v1/daily: the seed, or the first four bytes, big-endian, of "reveal"),
 * never from the date alone. The game and level are the same either way. */
RP_API int rp_daily(int year, int month, int day, const rp_game **game, int *level,
                    uint32_t *seed, int *schedule);

#ifdef __cplusplus
}
#endif

#endif
