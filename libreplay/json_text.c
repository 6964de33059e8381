#include "json_text.h"

static void raw(json_text *t, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++, t->len++)
        if (t->len + 1 < t->cap)
            t->buf[t->len] = s[i];
}

static void ch(json_text *t, char c)
{
    raw(t, &c, 1);
}

static void str_n(json_text *t, const char *s, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    ch(t, '"');
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        const char *esc = NULL;
        switch (c) {
        case '"': esc = "\\\""; break;
        case '\\': esc = "\\\\"; break;
        case '\b': esc = "\\b"; break;
        case '\f': esc = "\\f"; break;
        case '\n': esc = "\\n"; break;
        case '\r': esc = "\\r"; break;
        case '\t': esc = "\\t"; break;
        default: break;
        }
        if (esc) {
            raw(t, esc, 2);
        } else if (c < 0x20) {
            char u[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] };
            raw(t, u, 6);
        } else {
            ch(t, (char)c);
        }
    }
    ch(t, '"');
}

static size_t cstrlen(const char *s)
{
    size_t n = 0;
    while (s[n])
        n++;
    return n;
}

static void integer(json_text *t, int64_t v)
{
    char d[24];
    int n = 0;
    /* Through the unsigned magnitude, so INT64_MIN prints too. */
    uint64_t m = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    do {
        d[n++] = (char)('0' + m % 10);
        m /= 10;
    } while (m);
    if (v < 0)
        ch(t, '-');
    while (n)
        ch(t, d[--n]);
}

/* A comma before every element but the first, then the key if any. */
static void element(json_text *t, const char *key)
{
    if (t->depth > 0) {
        if (!t->first[t->depth - 1])
            ch(t, ',');
        t->first[t->depth - 1] = false;
    }
    if (key) {
        str_n(t, key, cstrlen(key));
        ch(t, ':');
    }
}

static void open_container(json_text *t, const char *key, char c)
{
    element(t, key);
    ch(t, c);
    if (t->depth < JSON_TEXT_DEPTH) {
        t->close[t->depth] = c == '{' ? '}' : ']';
        t->first[t->depth++] = true;
    }
}

static void jt_int(void *ctx, const char *key, int64_t v)
{
    element(ctx, key);
    integer(ctx, v);
}

static void jt_bool(void *ctx, const char *key, bool v)
{
    element(ctx, key);
    raw(ctx, v ? "true" : "false", v ? 4 : 5);
}

static void jt_str(void *ctx, const char *key, const char *v)
{
    element(ctx, key);
    str_n(ctx, v, cstrlen(v));
}

static void jt_int_rows(void *ctx, const char *key, const int32_t *v, int rows, int cols)
{
    json_text *t = ctx;
    element(t, key);
    ch(t, '[');
    for (int r = 0; r < rows; r++) {
        if (r)
            ch(t, ',');
        if (cols == 0) {
            integer(t, v[r]);
            continue;
        }
        ch(t, '[');
        for (int c = 0; c < cols; c++) {
            if (c)
                ch(t, ',');
            integer(t, v[r * cols + c]);
        }
        ch(t, ']');
    }
    ch(t, ']');
}

static void jt_text_rows(void *ctx, const char *key, const char *chars, int rows, int cols)
{
    json_text *t = ctx;
    element(t, key);
    ch(t, '[');
    for (int r = 0; r < rows; r++) {
        if (r)
            ch(t, ',');
        str_n(t, chars + (size_t)r * (size_t)cols, (size_t)cols);
    }
    ch(t, ']');
}

static void jt_begin_object(void *ctx, const char *key)
{
    open_container(ctx, key, '{');
}

static void jt_begin_array(void *ctx, const char *key)
{
    open_container(ctx, key, '[');
}

/* Closes the innermost container, never the outermost object (which
 * json_text_finish closes), as the jansson writer's end() does. */
static void jt_end(void *ctx)
{
    json_text *t = ctx;
    if (t->depth > 1)
        ch(t, t->close[--t->depth]);
}

game_writer json_text_start(json_text *t, char *buf, size_t cap)
{
    t->buf = buf;
    t->cap = cap;
    t->len = 0;
    t->depth = 0;
    open_container(t, NULL, '{');
    game_writer w = { t,            jt_int,          jt_bool,        jt_str, jt_int_rows,
                      jt_text_rows, jt_begin_object, jt_begin_array, jt_end };
    return w;
}

long json_text_finish(json_text *t)
{
    while (t->depth > 1)
        jt_end(t);
    ch(t, t->close[--t->depth]);
    if (t->cap > 0)
        t->buf[t->len < t->cap ? t->len : t->cap - 1] = '\0';
    return (long)t->len;
}
