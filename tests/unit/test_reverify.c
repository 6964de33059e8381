/* Re-verification (server/trust/reverify.c, `replayd reverify`): a database of
 * 12,000 real scores from every game replays to 0 divergences; a score
 * row altered by hand (sqlite3 UPDATE) is named, with exit status 3; the
 * filters and bad arguments. Runs the real binary ($REPLAYD). */
#include "../check.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <sys/wait.h>

#include "../../server/trust/reverify.h"
#include "../reverify_db.h"

#define SCORES 12000

static char dir[64];
static char db_path[128];
static rdb_stats built;

/* Runs replayd with args; stdout into out, the exit status returned. */
static int run(const char *args, char *out, size_t len)
{
    const char *bin = getenv("REPLAYD");
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s reverify --data %s %s 2>/dev/null", bin ? bin : "bin/replayd", dir, args);
    FILE *p = popen(cmd, "r");
    size_t n = p ? fread(out, 1, len - 1, p) : 0;
    out[n] = '\0';
    int st = p ? pclose(p) : -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int sql(const char *stmt)
{
    sqlite3 *db;
    if (sqlite3_open(db_path, &db) != SQLITE_OK)
        return -1;
    int rc = sqlite3_exec(db, stmt, NULL, NULL, NULL);
    sqlite3_close(db);
    return rc;
}

static void database_of_every_game(void)
{
    store_config cfg = { .database = db_path, .busy_timeout_ms = 5000, .group_commit_max = 512,
                         .group_commit_wait_us = 200 };
    store *s = NULL;
    char err[256];
    static keyring kr; /* made in dir/keys, as a server's first start does */
    bool repaired;
    CHECK(keys_load(&kr, dir, true, &repaired, err, sizeof err));
    CHECK_EQ(store_open(&cfg, &s, err, sizeof err), STORE_OK);
    if (!s)
        return;
    CHECK(rdb_build(s, SCORES, 7, &kr, &built));
    keys_wipe(&kr);
    store_close(s);
    fprintf(stderr, "built %ld scores (%ld refused as duplicates)\n", built.total, built.refused);
    CHECK(built.total >= SCORES);
    for (size_t i = 0; i < game_catalog_count; i++)
        CHECK(built.written[i] >= SCORES / (long)game_catalog_count / 2);
}

static void every_score_replays_the_same(void)
{
    char out[4096], want[64];
    CHECK_EQ(run("--jobs 2", out, sizeof out), 0);
    snprintf(want, sizeof want, "{\"checked\":%ld,\"divergent\":0,\"receipts_checked\":true,", built.total);
    CHECK(strncmp(out, want, strlen(want)) == 0);
}

static void filters(void)
{
    char out[4096], want[64];
    const game *g = game_find("pipes");
    long pipes = 0;
    for (size_t i = 0; i < game_catalog_count; i++)
        if (game_catalog[i] == g)
            pipes = built.written[i];
    CHECK_EQ(run("--game pipes --jobs 1", out, sizeof out), 0);
    snprintf(want, sizeof want, "{\"checked\":%ld,\"divergent\":0,", pipes);
    CHECK(strncmp(out, want, strlen(want)) == 0);
    CHECK_EQ(run("--since 2099-01-01", out, sizeof out), 0);
    CHECK(strncmp(out, "{\"checked\":0,\"divergent\":0,", 27) == 0);
    CHECK_EQ(run("--game chess", out, sizeof out), 2);
    CHECK_EQ(run("--jobs 0", out, sizeof out), 2);
    CHECK_EQ(run("--since 2026-02-30", out, sizeof out), 2);
    CHECK_EQ(run("--jobs", out, sizeof out), 2);
}

static void a_planted_divergence_is_named(void)
{
    sqlite3 *db;
    char id1[40] = "", id2[40] = "";
    sqlite3_stmt *st;
    CHECK_EQ(sqlite3_open(db_path, &db), SQLITE_OK);
    /* one row's score, another's moves: changed by hand */
    CHECK_EQ(sqlite3_prepare_v2(db, "SELECT score_id FROM scores WHERE game = 'schulte' ORDER BY seq"
                                    " LIMIT 1 OFFSET 100", -1, &st, NULL), SQLITE_OK);
    if (sqlite3_step(st) == SQLITE_ROW)
        snprintf(id1, sizeof id1, "%s", (const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    CHECK_EQ(sqlite3_prepare_v2(db, "SELECT score_id FROM scores WHERE game = 'target-sums'"
                                    " AND moves_json <> '[]' ORDER BY seq DESC LIMIT 1", -1, &st, NULL),
             SQLITE_OK);
    if (sqlite3_step(st) == SQLITE_ROW)
        snprintf(id2, sizeof id2, "%s", (const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    sqlite3_close(db);
    CHECK(id1[0] && id2[0]);
    char stmt[300], out[8192];
    snprintf(stmt, sizeof stmt, "UPDATE scores SET score = score + 1 WHERE score_id = '%s'", id1);
    CHECK_EQ(sql(stmt), SQLITE_OK);
    CHECK_EQ(run("--jobs 2", out, sizeof out), 3);
    CHECK(strstr(out, id1) != NULL);
    /* the stored score is off from its replay and from its receipt */
    CHECK(strstr(out, "\"differs\":[\"score\",\"receipt\"]") != NULL);
    CHECK(strstr(out, "\"divergent\":1,") != NULL);
    snprintf(stmt, sizeof stmt, "UPDATE scores SET moves_json = '[]' WHERE score_id = '%s'", id2);
    CHECK_EQ(sql(stmt), SQLITE_OK);
    CHECK_EQ(run("--jobs 1", out, sizeof out), 3);
    CHECK(strstr(out, id1) != NULL && strstr(out, id2) != NULL);
    CHECK(strstr(out, "\"differs\":[\"moves_hash\"") != NULL);
    CHECK(strstr(out, "\"divergent\":2,") != NULL);
    /* divergences come first, in the order received, then the summary */
    CHECK(strstr(out, id1) < strstr(out, id2) && strstr(out, id2) < strstr(out, "\"checked\""));
    /* only its game's run sees the target-sums one */
    CHECK_EQ(run("--game schulte", out, sizeof out), 3);
    CHECK(strstr(out, id1) != NULL && strstr(out, id2) == NULL);
    CHECK_EQ(run("--game opposites", out, sizeof out), 0);
}

/* reverify_score on one record, altered field by field (no database). */
static const char *const clean_moves =
    "[{\"t\":400,\"cell\":8},{\"t\":800,\"cell\":2},{\"t\":1200,\"cell\":7},{\"t\":1600,\"cell\":4},"
    "{\"t\":2000,\"cell\":3},{\"t\":2400,\"cell\":5},{\"t\":2800,\"cell\":0},{\"t\":3200,\"cell\":1},"
    "{\"t\":3600,\"cell\":6}]";

static bool differs_only(json_t *d, const char *field)
{
    const json_t *a = json_object_get(d, "differs");
    bool ok = json_array_size(a) == 1 && strcmp(json_string_value(json_array_get(a, 0)), field) == 0;
    json_decref(d);
    return ok;
}

static void each_difference_is_named(void)
{
    const game *g = game_find("schulte");
    store_score sc;
    memset(&sc, 0, sizeof sc);
    sc.p.g = g;
    sc.p.player_id = 3;
    sc.p.level = 1;
    sc.p.seed = 42;
    sc.p.version = g->version;
    sc.p.day = -1;
    sc.seq = 9;
    snprintf(sc.score_id, sizeof sc.score_id, "%032d", 0);
    /* the record as the submission path makes it */
    game_move moves[16];
    json_t *arr = json_loads(clean_moves, 0, NULL);
    move_error merr;
    long n = moves_from_json(g, sc.p.version, arr, moves, 16, &merr);
    json_decref(arr);
    CHECK_EQ(n, 9);
    game_level *level = malloc(g->level_size);
    game_state *state = malloc(g->state_size);
    replay_report rep;
    CHECK_EQ(game_generate(g, level, sc.p.version, 1, 42), GEN_OK);
    replay_run(g, level, state, moves, (size_t)n, NULL, &rep);
    free(level);
    free(state);
    CHECK(!rep.rejected && rep.result.completed);
    sc.score = rep.result.score;
    sc.completed = true;
    moves_hash(g, sc.p.version, moves, (size_t)n, sc.moves_hash);
    json_t *res = result_to_json(g, &rep.result);
    char *result = json_dumps(res, JSON_COMPACT);
    json_decref(res);
    sc.moves_json = (char *)clean_moves;
    sc.result_json = result;
    CHECK(reverify_score(&sc, NULL, NULL) == NULL);
    /* with a receipt, as the submission path signs it */
    keyring kr;
    memset(&kr, 0, sizeof kr);
    kr.keys[0].id = 1;
    crypto_sign_keypair(kr.keys[0].sign_pk, kr.keys[0].sign_sk);
    kr.count = 1;
    receipt_fields rf = { &sc.p, sc.score_id, sc.score, sc.completed, sc.received_at, sc.moves_hash };
    CHECK_EQ(receipt_sign(&kr, &rf, sc.receipt, sizeof sc.receipt), 0);
    CHECK(reverify_score(&sc, &kr, NULL) == NULL);

    store_score v = sc;
    v.score++;
    CHECK(differs_only(reverify_score(&v, NULL, NULL), "score"));
    v = sc;
    v.completed = false;
    CHECK(differs_only(reverify_score(&v, NULL, NULL), "completed"));
    v = sc;
    v.moves_hash[0] ^= 1;
    CHECK(differs_only(reverify_score(&v, NULL, NULL), "moves_hash"));
    v = sc;
    v.result_json = (char *)"{\"completed\":true}";
    CHECK(differs_only(reverify_score(&v, NULL, NULL), "result"));
    v = sc;
    v.p.version = g->version + 1;
    CHECK(differs_only(reverify_score(&v, NULL, NULL), "replay"));
    v = sc;
    v.moves_json = (char *)"[{\"t\":1}";
    CHECK(differs_only(reverify_score(&v, NULL, NULL), "replay"));
    v = sc;
    v.p.seed = 43; /* another level: the same taps now tap wrong cells */
    json_t *d = reverify_score(&v, NULL, NULL);
    CHECK(d != NULL);
    json_decref(d);
    /* moves now refused: a second tap 50 ms after the first */
    v = sc;
    v.moves_json = (char *)"[{\"t\":400,\"cell\":8},{\"t\":450,\"cell\":2}]";
    d = reverify_score(&v, NULL, NULL);
    CHECK(d != NULL);
    json_t *differs = json_object_get(d, "differs");
    bool rejected = false;
    for (size_t i = 0; i < json_array_size(differs); i++)
        rejected = rejected || strcmp(json_string_value(json_array_get(differs, i)), "rejected") == 0;
    CHECK(rejected);
    json_decref(d);
    /* a receipt that does not match its record: the run itself replays */
    v = sc;
    v.receipt[strlen(v.receipt) - 2] ^= 1;
    CHECK(differs_only(reverify_score(&v, &kr, NULL), "receipt"));
    v = sc;
    v.received_at++; /* v2 signs the time too */
    CHECK(differs_only(reverify_score(&v, &kr, NULL), "receipt"));
    v = sc;
    v.score++;
    d = reverify_score(&v, &kr, NULL);
    CHECK(json_array_size(json_object_get(d, "differs")) == 2);
    json_decref(d);

    /* a v3 receipt: the score log's leaf at its index must be the one the
     * record's fields make (held or not at its commit); no key needed */
    store_score l = sc;
    snprintf(l.receipt, sizeof l.receipt, "v3.%d", 41);
    store_log_entry leaf = { .idx = 41 };
    leaf.len = store_score_leaf(&l, false, leaf.bytes, sizeof leaf.bytes);
    CHECK(leaf.len > 0);
    CHECK(reverify_score(&l, NULL, &leaf) == NULL);
    store_log_entry held = { .idx = 41 };
    held.len = store_score_leaf(&l, true, held.bytes, sizeof held.bytes);
    CHECK(reverify_score(&l, NULL, &held) == NULL);
    CHECK(differs_only(reverify_score(&l, NULL, NULL), "receipt"));  /* no leaf there */
    store_log_entry other = leaf;
    other.idx = 40;
    CHECK(differs_only(reverify_score(&l, NULL, &other), "receipt")); /* another index */
    other = leaf;
    other.bytes[leaf.len - 1] ^= 1;
    CHECK(differs_only(reverify_score(&l, NULL, &other), "receipt")); /* another leaf */
    v = l;
    v.received_at++; /* the leaf holds the time: the record's no longer matches */
    CHECK(differs_only(reverify_score(&v, NULL, &leaf), "receipt"));
    v = l;
    snprintf(v.receipt, sizeof v.receipt, "v3.041");
    CHECK(differs_only(reverify_score(&v, NULL, &leaf), "receipt")); /* not the one form */
    free(result);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/replayd-reverify-XXXXXX");
    if (!mkdtemp(dir))
        return 1;
    snprintf(db_path, sizeof db_path, "%s/replayd.db", dir);
    RUN(each_difference_is_named);
    RUN(database_of_every_game);
    RUN(every_score_replays_the_same);
    RUN(filters);
    RUN(a_planted_divergence_is_named);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        return 1;
    CHECK_DONE();
}
