#include "cli.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "../../core/daily.h"
#include "../../core/replay.h"
#include "../base/json_game.h"
#include "../base/parse.h"

#define CLI_INPUT_CAP (4u << 20)

__attribute__((format(printf, 1, 2))) static int fail(const char *fmt, ...);

static int fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "replayd: ");
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return EXIT_BAD_INPUT;
}

static int out_of_memory(void)
{
    fputs("replayd: out of memory\n", stderr);
    return EXIT_RUNTIME;
}

/* One line on stderr; main adds the usage line. */
static int usage_error(const char *why)
{
    fprintf(stderr, "replayd: %s\n", why);
    return CLI_USAGE;
}

static int print_json(json_t *obj)
{
    char *text = json_dumps(obj, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(obj);
    if (!text)
        return out_of_memory();
    puts(text);
    free(text);
    return 0;
}

/* GAME LEVEL SEED [--version V] -> a generated level in a new buffer. */
typedef struct level_args {
    const game *g;
    int version;
    int level_no;
    uint32_t seed;
    game_level *level;
} level_args;

static int load_level(int argc, char **argv, level_args *a)
{
    int64_t v;
    if (argc != 3 && argc != 5)
        return usage_error("expected GAME LEVEL SEED [--version V]");
    if (argc == 5 && strcmp(argv[3], "--version") != 0)
        return usage_error("the only option is --version V");
    a->g = game_find(argv[0]);
    if (!a->g)
        return fail("unknown game \"%s\"", argv[0]);
    if (!parse_i64(argv[1], 1, a->g->levels, &v))
        return fail("bad level \"%s\"", argv[1]);
    a->level_no = (int)v;
    if (!parse_u32(argv[2], &a->seed))
        return fail("bad seed \"%s\" (0..4294967295)", argv[2]);
    a->version = a->g->version;
    if (argc == 5) {
        if (!parse_i64(argv[4], a->g->min_version, a->g->version, &v))
            return fail("%s replays spec versions %d..%d, not \"%s\"", a->g->name, a->g->min_version,
                        a->g->version, argv[4]);
        a->version = (int)v;
    }
    a->level = calloc(1, a->g->level_size);
    if (!a->level)
        return out_of_memory();
    if (game_generate(a->g, a->level, a->version, a->level_no, a->seed) != GEN_OK) {
        free(a->level);
        return fail("%s", "cannot generate that level");
    }
    return 0;
}

static json_t *level_header(const level_args *a)
{
    return json_pack("{s:s,s:i,s:i,s:I}", "game", a->g->name, "version", a->version, "level",
                     a->level_no, "seed", (json_int_t)a->seed);
}

int cli_gen(int argc, char **argv)
{
    level_args a;
    int rc = load_level(argc, argv, &a);
    if (rc)
        return rc;
    json_t *out = level_header(&a);
    json_t *body = level_to_json(a.g, a.level);
    json_object_update(out, body);
    json_decref(body);
    free(a.level);
    return print_json(out);
}

static json_t *read_stdin_json(void)
{
    char *buf = malloc(CLI_INPUT_CAP + 1);
    if (!buf)
        return NULL;
    size_t n = fread(buf, 1, CLI_INPUT_CAP + 1, stdin);
    json_t *doc = NULL;
    if (n <= CLI_INPUT_CAP)
        doc = json_loadb(buf, n, JSON_REJECT_DUPLICATES, NULL);
    free(buf);
    return doc;
}

int cli_replay(int argc, char **argv)
{
    level_args a;
    int rc = load_level(argc, argv, &a);
    if (rc)
        return rc;
    json_t *doc = read_stdin_json();
    game_move *moves = NULL;
    int *outcomes = NULL;
    game_state *state = NULL;
    rc = EXIT_BAD_INPUT;
    if (!json_is_object(doc) || !json_object_get(doc, "moves")) {
        fail("%s", "stdin must be a JSON object {\"moves\":[...]}");
        goto done;
    }
    const json_t *arr = json_object_get(doc, "moves");
    size_t cap = json_is_array(arr) ? json_array_size(arr) : 0;
    moves = calloc(cap + 1, sizeof *moves);
    outcomes = calloc(cap + 1, sizeof *outcomes);
    state = calloc(1, a.g->state_size);
    if (!moves || !outcomes || !state) {
        rc = out_of_memory();
        goto done;
    }
    move_error err;
    long n = moves_from_json(a.g, a.version, arr, moves, cap, &err);
    if (n < 0) {
        fail("%s", err.message);
        goto done;
    }
    replay_report rep;
    replay_run(a.g, a.level, state, moves, (size_t)n, outcomes, &rep);
    json_t *out = level_header(&a);
    size_t shown = rep.rejected ? rep.rejected_move + 1 : (size_t)n;
    if (rep.rejected) {
        json_object_set_new(out, "completed", json_false());
        json_object_set_new(out, "rejected",
                            json_pack("{s:I,s:s}", "move", (json_int_t)rep.rejected_move, "reason",
                                      a.g->outcomes[rep.rejected_outcome].code));
    } else {
        json_t *res = result_to_json(a.g, &rep.result);
        json_object_update(out, res);
        json_decref(res);
    }
    json_object_set_new(out, "outcomes", outcomes_to_json(a.g, outcomes, shown));
    json_object_set_new(out, "board", state_to_json(a.g, state));
    rc = print_json(out);
done:
    json_decref(doc);
    free(moves);
    free(outcomes);
    free(state);
    free(a.level);
    return rc;
}

int cli_daily(int argc, char **argv)
{
    civil_date d;
    if (argc != 1 && argc != 3)
        return usage_error("expected YYYY-MM-DD [--game GAME]");
    if (argc == 3 && strcmp(argv[1], "--game") != 0)
        return usage_error("the only option is --game GAME");
    if (!civil_parse(argv[0], &d))
        return fail("bad date \"%s\" (YYYY-MM-DD)", argv[0]);
    char date[11];
    civil_format(d, date);
    if (argc == 3) {
        const game *g = game_find(argv[2]);
        if (!g)
            return fail("unknown game \"%s\"", argv[2]);
        return print_json(json_pack("{s:s,s:s,s:I}", "date", date, "game", g->name, "seed",
                                    (json_int_t)daily_seed_for(g, d)));
    }
    daily_pick p;
    if (!daily_for_date(d, &p))
        return fail("no daily challenge on %s", date);
    return print_json(json_pack("{s:s,s:s,s:i,s:I,s:i,s:i}", "date", date, "game", p.game->name,
                                "level", p.level, "seed", (json_int_t)p.seed, "version",
                                p.game->version, "schedule", p.schedule_version));
}
