/*
 * conform-ref: the reference port of the conformance protocol
 * (docs/PORTING.md, "The conformance runner"): the server's own C code
 * through libreplay (include/replay.h), one JSON request a line on stdin,
 * one JSON answer a line on stdout. tools/conform checks a port's answers
 * for held-out seeds against this program's; it is also the smallest
 * complete example of a port over the C library.
 *
 * Ownership: every json_t made here is released before the next line;
 * level and state buffers are malloc'd per request and freed with it.
 */
#include <replay.h>

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static json_t *refused(const char *why)
{
    return json_pack("{s:s}", "refused", why);
}

/* rp_*_json into a buffer that grows until the text fits, parsed. */
static json_t *json_of(long (*fn)(const void *, char *, size_t), const void *h)
{
    size_t cap = 1 << 14;
    for (;;) {
        char *buf = malloc(cap);
        long n = fn(h, buf, cap);
        if (n < 0) {
            free(buf);
            return NULL;
        }
        if ((size_t)n < cap) {
            json_t *j = json_loadb(buf, (size_t)n, 0, NULL);
            free(buf);
            return j;
        }
        free(buf);
        cap = (size_t)n + 1;
    }
}

static long level_json(const void *h, char *b, size_t c)
{
    return rp_level_json(h, b, c);
}

static long state_json(const void *h, char *b, size_t c)
{
    return rp_state_json(h, b, c);
}

static long result_json(const void *h, char *b, size_t c)
{
    return rp_result_json(h, b, c);
}

static void *aligned(size_t n)
{
    return aligned_alloc(RP_ALIGN, (n + RP_ALIGN - 1) / RP_ALIGN * RP_ALIGN);
}

/* The moves of that version as values, or a refusal (too_many_moves
 * before anything else, bad_moves for any malformed move). */
static json_t *decode_moves(const rp_game *g, int version, const json_t *moves, int32_t **out,
                            size_t *n_out)
{
    if (!json_is_array(moves))
        return refused("bad_moves");
    size_t n = json_array_size(moves);
    if (n > (size_t)rp_game_max_moves(g))
        return refused("too_many_moves");
    int nf = rp_fields_in_version(g, version);
    int32_t *v = calloc(n * (size_t)nf + 1, sizeof *v);
    for (size_t i = 0; i < n; i++) {
        const json_t *m = json_array_get(moves, i);
        if (!json_is_object(m) || json_object_size(m) != (size_t)nf)
            goto bad;
        int k = 0;
        for (int f = 0; f < rp_field_count(g); f++) {
            if (rp_field_since(g, f) > version)
                continue;
            const json_t *x = json_object_get(m, rp_field_name(g, f));
            if (!json_is_integer(x) || json_integer_value(x) < rp_field_min(g, f) ||
                json_integer_value(x) > rp_field_max(g, f))
                goto bad;
            v[i * (size_t)nf + (size_t)k++] = (int32_t)json_integer_value(x);
        }
    }
    *out = v;
    *n_out = n;
    return NULL;
bad:
    free(v);
    return refused("bad_moves");
}

static json_t *answer(const json_t *req)
{
    const char *op = json_string_value(json_object_get(req, "op"));
    if (!op)
        return json_pack("{s:s}", "error", "no op");
    if (strcmp(op, "hello") == 0) {
        json_t *games = json_array();
        for (int i = 0; i < rp_game_count(); i++)
            json_array_append_new(games, json_string(rp_game_name(rp_game_at(i))));
        return json_pack("{s:o,s:s}", "games", games, "port", "libreplay (C)");
    }
    const rp_game *g = rp_game_find(json_string_value(json_object_get(req, "game")));
    if (!g)
        return json_pack("{s:s}", "error", "no such game");
    int version = (int)json_integer_value(json_object_get(req, "version"));
    int level = (int)json_integer_value(json_object_get(req, "level"));
    uint32_t seed = (uint32_t)json_integer_value(json_object_get(req, "seed"));
    int idx[8];
    int32_t val[8];
    int np = 0;
    const char *key;
    json_t *value;
    json_object_foreach((json_t *)json_object_get(req, "params"), key, value) {
        int i = rp_param_index(g, key);
        if (i < 0 || np == 8 || !json_is_integer(value))
            return refused("bad_params");
        idx[np] = i;
        val[np++] = (int32_t)json_integer_value(value);
    }
    void *lbuf = aligned(rp_level_size(g));
    rp_level *lv;
    int rc = rp_generate_with(g, lbuf, rp_level_size(g), version, level, seed, idx, val, np, &lv);
    if (rc != RP_OK) {
        free(lbuf);
        return refused(rc == RP_EBADLEVEL ? "bad_level" : rc == RP_EBADVERSION ? "bad_version"
                                                                               : "bad_params");
    }
    json_t *ans;
    if (strcmp(op, "gen") == 0) {
        ans = json_pack("{s:o}", "level", json_of(level_json, lv));
        free(lbuf);
        return ans;
    }
    void *sbuf = aligned(rp_state_size(g));
    rp_state *st;
    rp_start(lv, sbuf, rp_state_size(g), &st);
    json_t *before = json_of(state_json, st);
    int32_t *moves = NULL;
    size_t n = 0;
    int nf = rp_fields_in_version(g, version);
    ans = decode_moves(g, version, json_object_get(req, "moves"), &moves, &n);
    if (ans) {
        json_decref(before);
        goto done;
    }
    json_t *outcomes = json_array();
    json_t *rejected = json_null();
    for (size_t i = 0; i < n; i++) {
        int o = rp_apply(st, moves + i * (size_t)nf, nf);
        json_array_append_new(outcomes, json_string(rp_outcome_code(g, o)));
        if (rp_outcome_kind(g, o) == RP_REJECTED) {
            rejected = json_pack("{s:I,s:s}", "move", (json_int_t)i, "reason", rp_outcome_code(g, o));
            break;
        }
    }
    int stopped = rp_state_stopped(st) == 1;
    ans = json_pack("{s:o,s:o,s:o,s:o,s:o}", "board_before", before, "outcomes", outcomes,
                    "rejected", rejected, "board_after",
                    stopped ? json_null() : json_of(state_json, st), "result",
                    stopped ? json_null() : json_of(result_json, st));
done:
    free(moves);
    free(sbuf);
    free(lbuf);
    return ans;
}

int main(void)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    while ((len = getline(&line, &cap, stdin)) > 0) {
        json_error_t err;
        json_t *req = json_loadb(line, (size_t)len, 0, &err);
        json_t *ans = req ? answer(req) : json_pack("{s:s}", "error", err.text);
        if (req && json_object_get(req, "id"))
            json_object_set(ans, "id", json_object_get(req, "id"));
        char *text = json_dumps(ans, JSON_COMPACT);
        puts(text);
        fflush(stdout);
        free(text);
        json_decref(ans);
        json_decref(req);
    }
    free(line);
    return 0;
}
