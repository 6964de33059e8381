#include "json_game.h"

#include <stdio.h>
#include <string.h>

long moves_from_json(const game *g, int version, const json_t *array, game_move *out, size_t cap,
                     move_error *err)
{
    int n_fields = game_field_count(g, version);
    err->index = -1;
    err->too_many = false;
    err->message[0] = '\0';
    if (!json_is_array(array)) {
        snprintf(err->message, sizeof err->message, "moves must be an array");
        return -1;
    }
    size_t n = json_array_size(array);
    if (n > cap || n > (size_t)g->max_moves) {
        size_t limit = cap < (size_t)g->max_moves ? cap : (size_t)g->max_moves;
        snprintf(err->message, sizeof err->message, "too many moves: %zu (at most %zu)", n, limit);
        err->too_many = true;
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        const json_t *obj = json_array_get(array, i);
        err->index = (long)i;
        if (!json_is_object(obj)) {
            snprintf(err->message, sizeof err->message, "move %zu is not an object", i);
            return -1;
        }
        if (json_object_size(obj) != (size_t)n_fields) {
            snprintf(err->message, sizeof err->message,
                     "move %zu must have exactly the fields of %s version %d", i, g->name, version);
            return -1;
        }
        memset(&out[i], 0, sizeof out[i]);
        for (int f = 0; f < g->n_fields; f++) {
            const game_field *fd = &g->fields[f];
            if (!game_field_in(fd, version))
                continue;
            const json_t *v = json_object_get(obj, fd->name);
            if (!json_is_integer(v)) {
                snprintf(err->message, sizeof err->message, "move %zu: \"%s\" must be an integer", i,
                         fd->name);
                return -1;
            }
            json_int_t x = json_integer_value(v);
            if (x < fd->min || x > fd->max) {
                snprintf(err->message, sizeof err->message,
                         "move %zu: \"%s\" out of range %ld..%ld", i, fd->name, (long)fd->min,
                         (long)fd->max);
                return -1;
            }
            out[i].v[f] = (int32_t)x;
        }
    }
    err->index = -1;
    return (long)n;
}

json_t *moves_to_json(const game *g, int version, const game_move *moves, size_t n)
{
    json_t *arr = json_array();
    for (size_t i = 0; i < n; i++) {
        json_t *obj = json_object();
        for (int f = 0; f < g->n_fields; f++)
            if (game_field_in(&g->fields[f], version))
                json_object_set_new(obj, g->fields[f].name, json_integer(moves[i].v[f]));
        json_array_append_new(arr, obj);
    }
    return arr;
}

/* A game_writer over jansson: a stack of open containers. */
#define WRITER_DEPTH 16

typedef struct json_writer_ctx {
    json_t *stack[WRITER_DEPTH];
    int depth;
} json_writer_ctx;

static void jw_add(json_writer_ctx *c, const char *key, json_t *value)
{
    json_t *top = c->stack[c->depth - 1];
    if (json_is_array(top))
        json_array_append_new(top, value);
    else
        json_object_set_new(top, key ? key : "", value);
}

static void jw_int(void *ctx, const char *key, int64_t v)
{
    jw_add(ctx, key, json_integer((json_int_t)v));
}

static void jw_bool(void *ctx, const char *key, bool v)
{
    jw_add(ctx, key, json_boolean(v));
}

static void jw_str(void *ctx, const char *key, const char *v)
{
    jw_add(ctx, key, json_string(v));
}

static void jw_int_rows(void *ctx, const char *key, const int32_t *v, int rows, int cols)
{
    json_t *arr = json_array();
    if (cols == 0) {
        for (int i = 0; i < rows; i++)
            json_array_append_new(arr, json_integer(v[i]));
    } else {
        for (int r = 0; r < rows; r++) {
            json_t *row = json_array();
            for (int c = 0; c < cols; c++)
                json_array_append_new(row, json_integer(v[r * cols + c]));
            json_array_append_new(arr, row);
        }
    }
    jw_add(ctx, key, arr);
}

static void jw_text_rows(void *ctx, const char *key, const char *chars, int rows, int cols)
{
    json_t *arr = json_array();
    for (int r = 0; r < rows; r++)
        json_array_append_new(arr, json_stringn(chars + (size_t)r * (size_t)cols, (size_t)cols));
    jw_add(ctx, key, arr);
}

static void jw_open(json_writer_ctx *c, const char *key, json_t *container)
{
    if (c->depth >= WRITER_DEPTH) {
        json_decref(container);
        return;
    }
    jw_add(c, key, container);
    c->stack[c->depth++] = container;
}

static void jw_begin_object(void *ctx, const char *key)
{
    jw_open(ctx, key, json_object());
}

static void jw_begin_array(void *ctx, const char *key)
{
    jw_open(ctx, key, json_array());
}

static void jw_end(void *ctx)
{
    json_writer_ctx *c = ctx;
    if (c->depth > 1)
        c->depth--;
}

/* A writer that fills one new JSON object, c->stack[0]. */
static game_writer json_writer_start(json_writer_ctx *c)
{
    *c = (json_writer_ctx){ .depth = 1 };
    c->stack[0] = json_object();
    game_writer w = { c,           jw_int,          jw_bool,        jw_str, jw_int_rows,
                      jw_text_rows, jw_begin_object, jw_begin_array, jw_end };
    return w;
}

json_t *level_to_json(const game *g, const game_level *level)
{
    json_writer_ctx c;
    game_writer w = json_writer_start(&c);
    g->describe_level(level, &w);
    return c.stack[0];
}

json_t *state_to_json(const game *g, const game_state *state)
{
    json_writer_ctx c;
    game_writer w = json_writer_start(&c);
    g->describe_state(state, &w);
    return c.stack[0];
}

json_t *result_to_json(const game *g, const game_result *r)
{
    json_t *obj = json_object();
    json_object_set_new(obj, "completed", json_boolean(r->completed));
    json_object_set_new(obj, "score", json_integer(r->score));
    json_object_set_new(obj, "duration_ms", json_integer(r->duration_ms));
    for (int i = 0; i < g->n_extras; i++)
        json_object_set_new(obj, g->result_fields[i], json_integer(r->extra[i]));
    return obj;
}

json_t *outcomes_to_json(const game *g, const int *outcomes, size_t n)
{
    json_t *arr = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(arr, json_string(g->outcomes[outcomes[i]].code));
    return arr;
}

json_t *game_to_json(const game *g)
{
    json_t *fields = json_array();
    for (int f = 0; f < g->n_fields; f++) {
        const game_field *fd = &g->fields[f];
        json_t *one = json_pack("{s:s,s:I,s:I}", "name", fd->name, "min", (json_int_t)fd->min,
                                "max", (json_int_t)fd->max);
        if (fd->since > g->min_version)
            json_object_set_new(one, "since", json_integer(fd->since));
        json_array_append_new(fields, one);
    }
    return json_pack("{s:s,s:i,s:i,s:i,s:i,s:o}", "name", g->name, "version", g->version,
                     "min_version", g->min_version, "levels", g->levels, "max_moves", g->max_moves,
                     "move_fields", fields);
}
