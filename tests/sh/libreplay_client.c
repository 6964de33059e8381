/*
 * A program outside the tree that uses an installed libreplay the way an
 * app's native code would: only <replay.h> and -lreplay (pkg-config).
 *
 *   client gen GAME LEVEL SEED       the level as `replayd gen` prints it
 *   client writer GAME LEVEL SEED    the same, built through the rp_writer callbacks
 *   client play GAME LEVEL SEED V1,V2,.. [V1,..]...   moves; prints outcomes, board, result
 *   client games                     every game, its versions and move fields
 *   client threads                   4 threads generating at once agree with one thread
 *
 * Buffers are malloc'd here and freed here: the library never allocates.
 */
#include <replay.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static rp_level *make_level(const char *name, int level, unsigned long seed, void **buf)
{
    const rp_game *g = rp_game_find(name);
    if (!g) {
        fprintf(stderr, "no game %s\n", name);
        exit(2);
    }
    *buf = aligned_alloc(RP_ALIGN, (rp_level_size(g) + RP_ALIGN - 1) / RP_ALIGN * RP_ALIGN);
    rp_level *lv;
    int rc = rp_generate(g, *buf, rp_level_size(g), rp_game_version(g), level, (uint32_t)seed, &lv);
    if (rc != RP_OK) {
        fprintf(stderr, "rp_generate: %d\n", rc);
        exit(1);
    }
    return lv;
}

static char *level_text(const rp_level *lv)
{
    long n = rp_level_json(lv, NULL, 0);
    char *text = malloc((size_t)n + 1);
    if (rp_level_json(lv, text, (size_t)n + 1) != n)
        exit(1);
    return text;
}

/* ---- a writer that prints JSON itself, to exercise the callbacks ---- */
typedef struct printer {
    int depth;
    int count[16];
    char close[16];
} printer;

static void sep(printer *p, const char *key)
{
    if (p->count[p->depth]++)
        putchar(',');
    if (key)
        printf("\"%s\":", key);
}

static void p_int(void *ctx, const char *key, int64_t v)
{
    sep(ctx, key);
    printf("%lld", (long long)v);
}

static void p_bool(void *ctx, const char *key, int v)
{
    sep(ctx, key);
    printf(v ? "true" : "false");
}

static void p_str(void *ctx, const char *key, const char *v)
{
    sep(ctx, key);
    printf("\"%s\"", v);
}

static void p_int_rows(void *ctx, const char *key, const int32_t *v, int rows, int cols)
{
    sep(ctx, key);
    putchar('[');
    for (int r = 0; r < rows; r++) {
        printf(r ? "," : "");
        if (cols == 0) {
            printf("%d", (int)v[r]);
            continue;
        }
        putchar('[');
        for (int c = 0; c < cols; c++)
            printf(c ? ",%d" : "%d", (int)v[r * cols + c]);
        putchar(']');
    }
    putchar(']');
}

static void p_text_rows(void *ctx, const char *key, const char *chars, int rows, int cols)
{
    sep(ctx, key);
    putchar('[');
    for (int r = 0; r < rows; r++)
        printf("%s\"%.*s\"", r ? "," : "", cols, chars + r * cols);
    putchar(']');
}

static void p_open(printer *p, const char *key, char c)
{
    sep(p, key);
    putchar(c);
    p->count[++p->depth] = 0;
    p->close[p->depth] = c == '{' ? '}' : ']';
}

static void p_begin_object(void *ctx, const char *key)
{
    p_open(ctx, key, '{');
}

static void p_begin_array(void *ctx, const char *key)
{
    p_open(ctx, key, '[');
}

static void p_end(void *ctx)
{
    printer *p = ctx;
    putchar(p->close[p->depth--]);
}

/* ---- threads: the same levels from 4 threads at once ---- */
static const char *const thread_games[] = { "pipes", "driftlings", "target-sums", "contraption" };

static void *generate_some(void *arg)
{
    unsigned long *hash = arg;
    for (int k = 0; k < 4; k++)
        for (unsigned long seed = 0; seed < 3; seed++) {
            void *buf;
            rp_level *lv = make_level(thread_games[k], 5, seed, &buf);
            char *t = level_text(lv);
            for (const char *c = t; *c; c++)
                *hash = *hash * 31 + (unsigned char)*c;
            free(t);
            free(buf);
        }
    return NULL;
}

int main(int argc, char **argv)
{
    if (rp_abi_version() != RP_ABI_VERSION) {
        fprintf(stderr, "ABI %d, built against %d\n", rp_abi_version(), RP_ABI_VERSION);
        return 1;
    }
    if (argc >= 2 && strcmp(argv[1], "games") == 0) {
        for (int i = 0; i < rp_game_count(); i++) {
            const rp_game *g = rp_game_at(i);
            printf("%s %d..%d levels=%d", rp_game_name(g), rp_game_min_version(g),
                   rp_game_version(g), rp_game_levels(g));
            for (int f = 0; f < rp_field_count(g); f++)
                printf(" %s[%d..%d]", rp_field_name(g, f), (int)rp_field_min(g, f),
                       (int)rp_field_max(g, f));
            putchar('\n');
        }
        return 0;
    }
    if (argc >= 2 && strcmp(argv[1], "threads") == 0) {
        unsigned long one = 0, many[4] = { 0 };
        generate_some(&one);
        pthread_t th[4];
        for (int i = 0; i < 4; i++)
            pthread_create(&th[i], NULL, generate_some, &many[i]);
        for (int i = 0; i < 4; i++)
            pthread_join(th[i], NULL);
        for (int i = 0; i < 4; i++)
            if (many[i] != one) {
                printf("thread %d differs\n", i);
                return 1;
            }
        printf("4 threads agree %lx\n", one);
        return 0;
    }
    if (argc < 5) {
        fprintf(stderr, "usage: client gen|writer|play GAME LEVEL SEED [MOVES]\n");
        return 2;
    }
    void *lbuf;
    rp_level *lv = make_level(argv[2], atoi(argv[3]), strtoul(argv[4], NULL, 10), &lbuf);
    if (strcmp(argv[1], "gen") == 0) {
        char *t = level_text(lv);
        puts(t);
        free(t);
    } else if (strcmp(argv[1], "writer") == 0) {
        printer p = { 0, { 0 }, { 0 } };
        rp_writer w = { &p,          p_int,          p_bool,        p_str, p_int_rows,
                        p_text_rows, p_begin_object, p_begin_array, p_end };
        putchar('{');
        rp_describe_level(lv, &w);
        puts("}");
    } else {
        const rp_game *g = rp_level_game(lv);
        size_t size = (rp_state_size(g) + RP_ALIGN - 1) / RP_ALIGN * RP_ALIGN;
        void *sbuf = aligned_alloc(RP_ALIGN, size);
        rp_state *st;
        if (rp_start(lv, sbuf, size, &st) != RP_OK)
            return 1;
        printf("outcomes:");
        for (int i = 5; i < argc; i++) {
            int32_t v[RP_MAX_FIELDS];
            int n = 0;
            for (char *s = argv[i]; n < RP_MAX_FIELDS && *s; n++) {
                v[n] = (int32_t)strtol(s, &s, 10);
                if (*s == ',')
                    s++;
            }
            int o = rp_apply(st, v, n);
            printf(" %s", o >= 0 ? rp_outcome_code(g, o) : "error");
            if (o >= 0 && rp_outcome_kind(g, o) == RP_REJECTED)
                break;
        }
        char buf[4096];
        rp_state_json(st, buf, sizeof buf);
        printf("\nboard: %s\n", buf);
        if (rp_result_json(st, buf, sizeof buf) >= 0)
            printf("result: %s\n", buf);
        free(sbuf);
    }
    free(lbuf);
    return 0;
}
