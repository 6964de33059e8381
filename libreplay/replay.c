/*
 * libreplay: the public ABI (include/replay.h) over core/ and the games.
 *
 * Handles are caller-owned buffers with a small header in front of the
 * game's own bytes: a level's header names its game and how it was made, a
 * state's names its level and whether a move was rejected. A magic number
 * in each header catches a level passed as a state and most stray pointers.
 * Nothing here allocates or keeps state between calls.
 */
#include "../include/replay.h"

#include "../core/civil.h"
#include "../core/daily.h"
#include "../core/fnv.h"
#include "../core/game.h"
#include "../core/rng.h"
#include "json_text.h"

#define LEVEL_MAGIC 0x4c565231u /* "LVR1" */
#define STATE_MAGIC 0x53545231u /* "STR1" */

typedef struct level_head {
    uint32_t magic;
    int32_t version;
    int32_t level_no;
    uint32_t seed;
    const game *g;
} level_head;

typedef struct state_head {
    uint32_t magic;
    int32_t stopped;
    int64_t moves;
    const game *g;
    const level_head *level;
} state_head;

/* Headers take a whole number of RP_ALIGN units, so the game's bytes
 * behind them stay aligned. */
#define HEAD_SIZE(t) ((sizeof(t) + RP_ALIGN - 1) / RP_ALIGN * RP_ALIGN)

_Static_assert(GAME_MAX_EXTRAS == RP_MAX_EXTRAS, "rp_result holds every extra");
_Static_assert(GAME_MAX_FIELDS == RP_MAX_FIELDS, "a move has at most RP_MAX_FIELDS values");
/* ABI 1's one struct: its layout never changes (a new field means ABI 2). */
_Static_assert(sizeof(rp_result) == 88 && offsetof(rp_result, score) == 8 &&
                   offsetof(rp_result, extra) == 24,
               "rp_result keeps ABI 1's layout");

static const game *game_of(const rp_game *rg)
{
    for (size_t i = 0; i < game_catalog_count; i++)
        if ((const void *)game_catalog[i] == (const void *)rg)
            return game_catalog[i];
    return NULL;
}

static const rp_game *handle_of(const game *g)
{
    return (const rp_game *)(const void *)g;
}

static const level_head *level_head_of(const rp_level *lv)
{
    const level_head *h = (const level_head *)(const void *)lv;
    return h && h->magic == LEVEL_MAGIC ? h : NULL;
}

static const game_level *level_body(const level_head *h)
{
    return (const game_level *)(const void *)((const char *)h + HEAD_SIZE(level_head));
}

static state_head *state_head_of(rp_state *st)
{
    state_head *h = (state_head *)(void *)st;
    return h && h->magic == STATE_MAGIC ? h : NULL;
}

static const state_head *state_head_view(const rp_state *st)
{
    const state_head *h = (const state_head *)(const void *)st;
    return h && h->magic == STATE_MAGIC ? h : NULL;
}

static game_state *state_body(state_head *h)
{
    return (game_state *)(void *)((char *)h + HEAD_SIZE(state_head));
}

static const game_state *state_body_view(const state_head *h)
{
    return (const game_state *)(const void *)((const char *)h + HEAD_SIZE(state_head));
}

static bool buffer_ok(const void *buf, size_t size, size_t need)
{
    return buf && size >= need && (uintptr_t)buf % RP_ALIGN == 0;
}

int rp_abi_version(void)
{
    return RP_ABI_VERSION;
}

/* ---- the catalogue ------------------------------------------------------ */

int rp_game_count(void)
{
    return (int)game_catalog_count;
}

const rp_game *rp_game_at(int index)
{
    if (index < 0 || (size_t)index >= game_catalog_count)
        return NULL;
    return handle_of(game_catalog[index]);
}

const rp_game *rp_game_find(const char *name)
{
    const game *g = game_find(name);
    return g ? handle_of(g) : NULL;
}

#define GAME_INT(fn, member)                                                                   \
    int fn(const rp_game *rg)                                                                  \
    {                                                                                          \
        const game *g = game_of(rg);                                                           \
        return g ? g->member : RP_EARG;                                                        \
    }

GAME_INT(rp_game_version, version)
GAME_INT(rp_game_min_version, min_version)
GAME_INT(rp_game_levels, levels)
GAME_INT(rp_game_max_moves, max_moves)
GAME_INT(rp_field_count, n_fields)
GAME_INT(rp_param_count, n_params)
GAME_INT(rp_outcome_count, n_outcomes)
GAME_INT(rp_extra_count, n_extras)

const char *rp_game_name(const rp_game *rg)
{
    const game *g = game_of(rg);
    return g ? g->name : NULL;
}

static const game_field *field_at(const rp_game *rg, int i)
{
    const game *g = game_of(rg);
    return g && i >= 0 && i < g->n_fields ? &g->fields[i] : NULL;
}

const char *rp_field_name(const rp_game *g, int i)
{
    const game_field *f = field_at(g, i);
    return f ? f->name : NULL;
}

int32_t rp_field_min(const rp_game *g, int i)
{
    const game_field *f = field_at(g, i);
    return f ? f->min : 0;
}

int32_t rp_field_max(const rp_game *g, int i)
{
    const game_field *f = field_at(g, i);
    return f ? f->max : 0;
}

int rp_field_since(const rp_game *g, int i)
{
    const game_field *f = field_at(g, i);
    return f ? f->since : RP_EARG;
}

int rp_fields_in_version(const rp_game *rg, int version)
{
    const game *g = game_of(rg);
    if (!g)
        return RP_EARG;
    if (version < g->min_version || version > g->version)
        return RP_EBADVERSION;
    return game_field_count(g, version);
}

static const game_param *param_at(const rp_game *rg, int i)
{
    const game *g = game_of(rg);
    return g && i >= 0 && i < g->n_params ? &g->params[i] : NULL;
}

const char *rp_param_name(const rp_game *g, int i)
{
    const game_param *p = param_at(g, i);
    return p ? p->name : NULL;
}

int32_t rp_param_min(const rp_game *g, int i)
{
    const game_param *p = param_at(g, i);
    return p ? p->min : 0;
}

int32_t rp_param_max(const rp_game *g, int i)
{
    const game_param *p = param_at(g, i);
    return p ? p->max : 0;
}

int rp_param_index(const rp_game *rg, const char *name)
{
    const game *g = game_of(rg);
    return g && name ? game_param_index(g, name) : -1;
}

const char *rp_outcome_code(const rp_game *rg, int i)
{
    const game *g = game_of(rg);
    return g && i >= 0 && i < g->n_outcomes ? g->outcomes[i].code : NULL;
}

int rp_outcome_kind(const rp_game *rg, int i)
{
    const game *g = game_of(rg);
    if (!g || i < 0 || i >= g->n_outcomes)
        return RP_EARG;
    switch (g->outcomes[i].kind) {
    case OUTCOME_APPLIED:
        return RP_APPLIED;
    case OUTCOME_IGNORED:
        return RP_IGNORED;
    case OUTCOME_REJECTED:
        break;
    }
    return RP_REJECTED;
}

const char *rp_extra_name(const rp_game *rg, int i)
{
    const game *g = game_of(rg);
    return g && i >= 0 && i < g->n_extras ? g->result_fields[i] : NULL;
}

/* ---- levels ------------------------------------------------------------- */

size_t rp_level_size(const rp_game *rg)
{
    const game *g = game_of(rg);
    return g ? HEAD_SIZE(level_head) + g->level_size : 0;
}

static int status_of(gen_status st)
{
    switch (st) {
    case GEN_OK:
        return RP_OK;
    case GEN_BAD_LEVEL:
        return RP_EBADLEVEL;
    case GEN_BAD_VERSION:
        return RP_EBADVERSION;
    case GEN_BAD_PARAMS:
        break;
    }
    return RP_EBADPARAMS;
}

int rp_generate(const rp_game *g, void *buf, size_t size, int version, int level, uint32_t seed,
                rp_level **out)
{
    return rp_generate_with(g, buf, size, version, level, seed, NULL, NULL, 0, out);
}

int rp_generate_with(const rp_game *rg, void *buf, size_t size, int version, int level,
                     uint32_t seed, const int *param_index, const int32_t *param_value, int n,
                     rp_level **out)
{
    const game *g = game_of(rg);
    if (!g || !out || n < 0 || (n > 0 && (!param_index || !param_value)))
        return RP_EARG;
    if (!buffer_ok(buf, size, rp_level_size(rg)))
        return RP_EBUFFER;
    game_params params = { { false }, { 0 } };
    for (int k = 0; k < n; k++) {
        if (param_index[k] < 0 || param_index[k] >= g->n_params)
            return RP_EBADPARAMS;
        params.set[param_index[k]] = true;
        params.v[param_index[k]] = param_value[k];
    }
    level_head *h = buf;
    /* Not a level until generation succeeds. */
    h->magic = 0;
    gen_status st = game_generate_with(g, (game_level *)(void *)((char *)buf + HEAD_SIZE(level_head)),
                                       version, level, seed, n > 0 ? &params : NULL);
    if (st != GEN_OK)
        return status_of(st);
    *h = (level_head){ LEVEL_MAGIC, version, level, seed, g };
    *out = buf;
    return RP_OK;
}

const rp_game *rp_level_game(const rp_level *lv)
{
    const level_head *h = level_head_of(lv);
    return h ? handle_of(h->g) : NULL;
}

int rp_level_version(const rp_level *lv)
{
    const level_head *h = level_head_of(lv);
    return h ? h->version : RP_EARG;
}

int rp_level_number(const rp_level *lv)
{
    const level_head *h = level_head_of(lv);
    return h ? h->level_no : RP_EARG;
}

uint32_t rp_level_seed(const rp_level *lv)
{
    const level_head *h = level_head_of(lv);
    return h ? h->seed : 0;
}

int rp_level_min_moves(const rp_level *lv)
{
    const level_head *h = level_head_of(lv);
    return h ? h->g->min_moves(level_body(h)) : RP_EARG;
}

/* A game_writer that forwards to the caller's rp_writer (whose put_bool
 * takes an int, so C++ and FFI callers need no bool type). */
static void fw_int(void *ctx, const char *key, int64_t v)
{
    const rp_writer *w = ctx;
    w->put_int(w->ctx, key, v);
}

static void fw_bool(void *ctx, const char *key, bool v)
{
    const rp_writer *w = ctx;
    w->put_bool(w->ctx, key, v ? 1 : 0);
}

static void fw_str(void *ctx, const char *key, const char *v)
{
    const rp_writer *w = ctx;
    w->put_str(w->ctx, key, v);
}

static void fw_int_rows(void *ctx, const char *key, const int32_t *v, int rows, int cols)
{
    const rp_writer *w = ctx;
    w->put_int_rows(w->ctx, key, v, rows, cols);
}

static void fw_text_rows(void *ctx, const char *key, const char *chars, int rows, int cols)
{
    const rp_writer *w = ctx;
    w->put_text_rows(w->ctx, key, chars, rows, cols);
}

static void fw_begin_object(void *ctx, const char *key)
{
    const rp_writer *w = ctx;
    w->begin_object(w->ctx, key);
}

static void fw_begin_array(void *ctx, const char *key)
{
    const rp_writer *w = ctx;
    w->begin_array(w->ctx, key);
}

static void fw_end(void *ctx)
{
    const rp_writer *w = ctx;
    w->end(w->ctx);
}

static bool writer_ok(const rp_writer *w)
{
    return w && w->put_int && w->put_bool && w->put_str && w->put_int_rows && w->put_text_rows &&
           w->begin_object && w->begin_array && w->end;
}

static game_writer forwarder(const rp_writer *w)
{
    game_writer f = { (void *)(uintptr_t)w, fw_int,          fw_bool,        fw_str, fw_int_rows,
                      fw_text_rows,          fw_begin_object, fw_begin_array, fw_end };
    return f;
}

/* What `replayd gen` puts before the game's own fields. */
static void level_header(const level_head *h, const game_writer *w)
{
    w->put_str(w->ctx, "game", h->g->name);
    w->put_int(w->ctx, "version", h->version);
    w->put_int(w->ctx, "level", h->level_no);
    w->put_int(w->ctx, "seed", h->seed);
}

int rp_describe_level(const rp_level *lv, const rp_writer *w)
{
    const level_head *h = level_head_of(lv);
    if (!h || !writer_ok(w))
        return RP_EARG;
    game_writer f = forwarder(w);
    level_header(h, &f);
    h->g->describe_level(level_body(h), &f);
    return RP_OK;
}

long rp_level_json(const rp_level *lv, char *buf, size_t cap)
{
    const level_head *h = level_head_of(lv);
    if (!h || (cap > 0 && !buf))
        return RP_EARG;
    json_text t;
    game_writer w = json_text_start(&t, buf, cap);
    level_header(h, &w);
    h->g->describe_level(level_body(h), &w);
    return json_text_finish(&t);
}

/* ---- play --------------------------------------------------------------- */

size_t rp_state_size(const rp_game *rg)
{
    const game *g = game_of(rg);
    return g ? HEAD_SIZE(state_head) + g->state_size : 0;
}

int rp_start(const rp_level *lv, void *buf, size_t size, rp_state **out)
{
    const level_head *lh = level_head_of(lv);
    if (!lh || !out)
        return RP_EARG;
    if (!buffer_ok(buf, size, rp_state_size(handle_of(lh->g))))
        return RP_EBUFFER;
    state_head *h = buf;
    *h = (state_head){ STATE_MAGIC, 0, 0, lh->g, lh };
    lh->g->start(state_body(h), level_body(lh));
    *out = buf;
    return RP_OK;
}

int rp_apply(rp_state *st, const int32_t *values, int n)
{
    state_head *h = state_head_of(st);
    if (!h || (n > 0 && !values))
        return RP_EARG;
    if (h->stopped)
        return RP_ESTOPPED;
    const game *g = h->g;
    int version = h->level->version;
    if (n != game_field_count(g, version))
        return RP_EBADMOVE;
    if (h->moves >= g->max_moves)
        return RP_ETOOMANY;
    game_move m = { { 0 } };
    int k = 0;
    for (int f = 0; f < g->n_fields; f++) {
        const game_field *fd = &g->fields[f];
        if (!game_field_in(fd, version))
            continue;
        if (values[k] < fd->min || values[k] > fd->max)
            return RP_EBADMOVE;
        m.v[f] = values[k++];
    }
    int o = g->apply(state_body(h), &m);
    h->moves++;
    if (g->outcomes[o].kind == OUTCOME_REJECTED)
        h->stopped = 1;
    return o;
}

const rp_level *rp_state_level(const rp_state *st)
{
    const state_head *h = state_head_view(st);
    return h ? (const rp_level *)(const void *)h->level : NULL;
}

long rp_state_moves(const rp_state *st)
{
    const state_head *h = state_head_view(st);
    return h ? (long)h->moves : RP_EARG;
}

int rp_state_stopped(const rp_state *st)
{
    const state_head *h = state_head_view(st);
    return h ? h->stopped : RP_EARG;
}

int rp_result_get(const rp_state *st, rp_result *out)
{
    const state_head *h = state_head_view(st);
    if (!h || !out)
        return RP_EARG;
    if (h->stopped)
        return RP_ESTOPPED;
    game_result r;
    h->g->result(state_body_view(h), &r);
    *out = (rp_result){ r.completed ? 1 : 0, h->g->n_extras, r.score, r.duration_ms, { 0 } };
    for (int i = 0; i < h->g->n_extras; i++)
        out->extra[i] = r.extra[i];
    return RP_OK;
}

long rp_result_json(const rp_state *st, char *buf, size_t cap)
{
    const state_head *h = state_head_view(st);
    rp_result r;
    int rc = rp_result_get(st, &r);
    if (rc != RP_OK)
        return rc;
    if (cap > 0 && !buf)
        return RP_EARG;
    json_text t;
    game_writer w = json_text_start(&t, buf, cap);
    w.put_bool(w.ctx, "completed", r.completed != 0);
    w.put_int(w.ctx, "score", r.score);
    w.put_int(w.ctx, "duration_ms", r.duration_ms);
    for (int i = 0; i < h->g->n_extras; i++)
        w.put_int(w.ctx, h->g->result_fields[i], r.extra[i]);
    return json_text_finish(&t);
}

int rp_describe_state(const rp_state *st, const rp_writer *w)
{
    const state_head *h = state_head_view(st);
    if (!h || !writer_ok(w))
        return RP_EARG;
    game_writer f = forwarder(w);
    h->g->describe_state(state_body_view(h), &f);
    return RP_OK;
}

long rp_state_json(const rp_state *st, char *buf, size_t cap)
{
    const state_head *h = state_head_view(st);
    if (!h || (cap > 0 && !buf))
        return RP_EARG;
    json_text t;
    game_writer w = json_text_start(&t, buf, cap);
    h->g->describe_state(state_body_view(h), &w);
    return json_text_finish(&t);
}

/* ---- the shared core ---------------------------------------------------- */

uint32_t rp_rng_next(uint32_t *state)
{
    return rng_next(state);
}

uint32_t rp_rng_below(uint32_t *state, uint32_t n)
{
    return rng_below(state, n);
}

void rp_rng_shuffle(uint32_t *state, int32_t *v, size_t n)
{
    rng_shuffle_i32(state, v, n);
}

uint32_t rp_fnv1a32(const void *data, size_t len)
{
    return fnv1a32(data, len);
}

int64_t rp_days_from_civil(int year, int month, int day)
{
    return civil_to_days((civil_date){ year, month, day });
}

void rp_civil_from_days(int64_t days, int *year, int *month, int *day)
{
    civil_date d = civil_from_days(days);
    *year = (int)d.year;
    *month = (int)d.month;
    *day = (int)d.day;
}

int rp_daily(int year, int month, int day, const rp_game **g, int *level, uint32_t *seed,
             int *schedule)
{
    daily_pick p;
    if (!daily_for_date((civil_date){ year, month, day }, &p))
        return RP_EARG;
    *g = handle_of(p.game);
    *level = p.level;
    *seed = p.seed;
    *schedule = p.schedule_version;
    return RP_OK;
}
