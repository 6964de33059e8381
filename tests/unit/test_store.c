/* Unit tests for the storage layer: store_sqlite.c, board_cache.c, rank.c.
 * Every test works on its own temporary database under /tmp and removes it.
 * With REPLAYD_TEST_PG (a postgres:// server URL, tests/pg/pg_start.sh) the
 * tests that do not drive SQLite itself run again on the PostgreSQL backend
 * ("pg/" names), each on a database of its own that it drops. */
#include "../check.h"

#include <libpq-fe.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "../../core/civil.h"
#include "../../server/log/checkpoint.h"
#include "../../server/log/frontier.h"
#include "../../server/store/rank.h"
#include "../../server/store/schema.h"
#include "../../server/store/store.h"
#include "../../server/store/store_sql.h"
#include "../../server/store/pg/pg_conn.h"
#include "../../server/store/sqlite/sqlite_conn.h"

#define T0 1764633600000LL /* 2025-12-02T00:00:00Z */
#define HOUR 3600000LL
#define LATEST_SCHEMA (schema_migrations[schema_migration_count - 1].version)

typedef struct tmpdb {
    char dir[64];
    char path[256];
} tmpdb;

/* The PostgreSQL server the pg/ runs use; NULL: SQLite. */
static const char *pg_base;

/* One statement on the server's maintenance database; false on failure. */
static bool pg_admin(const char *sql)
{
    char url[256];
    snprintf(url, sizeof url, "%s/postgres", pg_base);
    PGconn *c = PQconnectdb(url);
    PGresult *r = PQstatus(c) == CONNECTION_OK ? PQexec(c, sql) : NULL;
    bool ok = r && PQresultStatus(r) == PGRES_COMMAND_OK;
    if (!ok)
        printf("pg: %s: %s", sql, PQerrorMessage(c));
    PQclear(r);
    PQfinish(c);
    return ok;
}

static void tmp_make(tmpdb *t)
{
    if (pg_base) {
        static int made;
        t->dir[0] = '\0';
        snprintf(t->dir, sizeof t->dir, "replayd_unit_%d_%d", (int)getpid(), ++made);
        char sql[128];
        snprintf(sql, sizeof sql, "CREATE DATABASE %s", t->dir);
        pg_admin(sql);
        snprintf(t->path, sizeof t->path, "%s/%s", pg_base, t->dir);
        return;
    }
    snprintf(t->dir, sizeof t->dir, "/tmp/replayd-store-XXXXXX");
    if (!mkdtemp(t->dir))
        t->dir[0] = '\0';
    snprintf(t->path, sizeof t->path, "%s/db.sqlite", t->dir);
}

static void tmp_remove(tmpdb *t)
{
    if (pg_base) {
        char sql[128];
        snprintf(sql, sizeof sql, "DROP DATABASE %s WITH (FORCE)", t->dir);
        pg_admin(sql);
        return;
    }
    char p[300];
    const char *suffix[] = { "", "-wal", "-shm", "-journal" };
    for (size_t i = 0; i < 4; i++) {
        snprintf(p, sizeof p, "%s%s", t->path, suffix[i]);
        unlink(p);
    }
    rmdir(t->dir);
}

/* The newest migration compiled in. */
#define LATEST_SCHEMA (schema_migrations[schema_migration_count - 1].version)

/* The store of cfg, or NULL after saying why. */
static store *open_cfg(const store_config *cfg)
{
    store *s = NULL;
    char err[256];
    if (store_open(cfg, &s, err, sizeof err) != STORE_OK) {
        printf("store_open: %s\n", err);
        return NULL;
    }
    return s;
}

static store *open_db_with(const tmpdb *t, int wait_us, int burn_after, int moves_per_token,
                           int moves_per_day)
{
    store_config cfg = { .database = t->path, .busy_timeout_ms = 2000, .group_commit_max = 64,
                         .group_commit_wait_us = wait_us, .rejections_per_token = burn_after,
                         .rejection_moves_per_token = moves_per_token,
                         .rejection_moves_per_player_day = moves_per_day };
    return open_cfg(&cfg);
}

static store *open_db(const tmpdb *t, int wait_us)
{
    return open_db_with(t, wait_us, 0, 0, 0);
}

static store *open_db_budget(const tmpdb *t, size_t board_bytes)
{
    store_config cfg = { .database = t->path, .busy_timeout_ms = 2000, .group_commit_max = 64,
                         .board_cache_bytes = board_bytes };
    store *s = NULL;
    char err[256];
    return store_open(&cfg, &s, err, sizeof err) == STORE_OK ? s : NULL;
}

static void hash_of(int64_t i, uint8_t h[STORE_HASH_BYTES])
{
    memset(h, 0, STORE_HASH_BYTES);
    memcpy(h, &i, sizeof i);
    h[31] = 0xAB;
}

static void nonce_of(int64_t i, uint8_t n[PLAY_NONCE_BYTES])
{
    memset(n, 0, PLAY_NONCE_BYTES);
    memcpy(n, &i, sizeof i);
    n[15] = 0x5A;
}

/* The day number of "YYYY-MM-DD", or -1 for "". */
static int32_t day_of(const char *date)
{
    civil_date d;
    return date[0] && civil_parse(date, &d) ? (int32_t)civil_to_days(d) : -1;
}

static void play_fill(play *p, int64_t nonce, int64_t player, const char *game_name, int level,
                      const char *daily)
{
    memset(p, 0, sizeof *p);
    nonce_of(nonce, p->nonce);
    p->player_id = player;
    p->g = game_find(game_name);
    p->level = level;
    p->seed = (uint32_t)(nonce * 2654435761u);
    p->version = 1;
    p->day = day_of(daily);
}

/* ---- the store's writes, waited for (as the CLI and admin tools do) ---- */

static store_status player_create(store *s, const char *name, const uint8_t h[STORE_HASH_BYTES],
                                  int64_t now, store_player *out)
{
    store_write w;
    memset(&w, 0, sizeof w);
    w.kind = STORE_WRITE_PLAYER;
    w.u.player.name = name;
    memcpy(w.u.player.token_hash, h, STORE_HASH_BYTES);
    w.u.player.now = now;
    store_status st = store_write_wait(s, &w);
    *out = w.u.player.created;
    return st;
}

static store_status token_issue(store *s, const store_token *t, int max_outstanding, int64_t now,
                                store_token *existing)
{
    store_write w;
    memset(&w, 0, sizeof w);
    w.kind = STORE_WRITE_TOKEN;
    w.u.token.token = *t;
    w.u.token.max_outstanding = max_outstanding;
    w.u.token.now = now;
    store_status st = store_write_wait(s, &w);
    if (existing)
        *existing = w.u.token.existing;
    return st;
}

/* Submits *sc (its seq is set); on a conflict *existing takes the
 * recorded score (the caller clears it), or it is cleared here. */
static store_status submit(store *s, store_score *sc, store_score *existing)
{
    store_write w;
    memset(&w, 0, sizeof w);
    w.kind = STORE_WRITE_SCORE;
    w.u.score.score = *sc;
    store_status st = store_write_wait(s, &w);
    /* a record the store's passes added (store_signals.c) is new text: the caller's is not */
    if (w.u.score.score.signals_json != sc->signals_json)
        free(w.u.score.score.signals_json);
    sc->seq = w.u.score.score.seq;
    sc->status = w.u.score.score.status;
    sc->duplicate_of = w.u.score.score.duplicate_of;
    if (existing)
        *existing = w.u.score.existing;
    else
        store_score_clear(&w.u.score.existing);
    return st;
}

/* r's outputs (moves_kept, burned) are copied back. */
static store_status rejection_add(store *s, store_rejection *r)
{
    store_write w;
    memset(&w, 0, sizeof w);
    w.kind = STORE_WRITE_REJECTION;
    w.u.rejection.rejection = *r;
    store_status st = store_write_wait(s, &w);
    *r = w.u.rejection.rejection;
    return st;
}

static int64_t new_player(store *s, int64_t i)
{
    uint8_t h[STORE_HASH_BYTES];
    hash_of(i, h);
    char name[32];
    snprintf(name, sizeof name, "player%lld", (long long)i);
    store_player p;
    if (player_create(s, name, h, T0, &p) != STORE_OK)
        return 0;
    return p.id;
}

static void token_fill(store_token *t, int64_t nonce, int64_t player, const char *game_name, int level,
                       const char *daily, int64_t issued)
{
    memset(t, 0, sizeof *t);
    play_fill(&t->p, nonce, player, game_name, level, daily);
    t->issued_at = issued;
    t->expires_at = issued + HOUR;
    snprintf(t->text, sizeof t->text, "tok.%lld", (long long)nonce);
}

static store_status issue(store *s, int64_t nonce, int64_t player, const char *game_name, int level,
                          const char *daily)
{
    store_token t, ex;
    token_fill(&t, nonce, player, game_name, level, daily, T0);
    return token_issue(s, &t, 1000000, T0, &ex);
}

/* moves_json and result_json point to static text: never clear *sc. */
static void score_fill(store_score *sc, int64_t nonce, int64_t player, const char *game_name, int level,
                       const char *daily, int64_t score)
{
    memset(sc, 0, sizeof *sc);
    play_fill(&sc->p, nonce, player, game_name, level, daily);
    play_score_id(&sc->p, sc->score_id);
    sc->score = score;
    sc->completed = true;
    sc->received_at = T0 + nonce;
    memset(sc->moves_hash, (int)(nonce & 0xff), STORE_HASH_BYTES);
    snprintf(sc->receipt, sizeof sc->receipt, "receipt-%lld", (long long)nonce);
    sc->moves_json = (char *)"[{\"t\":1,\"cell\":2}]";
    sc->result_json = (char *)"{\"score\":1}";
}

/* Issues a token and submits a score on it; returns the submit status. */
static store_status play_level(store *s, int64_t nonce, int64_t player, const char *game_name, int level,
                               const char *daily, int64_t score, int64_t *seq)
{
    if (issue(s, nonce, player, game_name, level, daily) != STORE_OK)
        return STORE_ERROR;
    store_score sc;
    score_fill(&sc, nonce, player, game_name, level, daily, score);
    store_status st = submit(s, &sc, NULL);
    if (seq)
        *seq = sc.seq;
    return st;
}

/* The recorded token's redeemed flag, read with SQL: 1, 0, or -1 when absent. */
static int64_t token_redeemed(const char *path, int64_t nonce);

static int64_t sql_int(const char *path, const char *sql)
{
    if (pg_base) {
        PGconn *c = PQconnectdb(path);
        PGresult *r = PQstatus(c) == CONNECTION_OK ? PQexec(c, sql) : NULL;
        int64_t pv = r && PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1
                         ? strtoll(PQgetvalue(r, 0, 0), NULL, 10)
                         : -1;
        PQclear(r);
        PQfinish(c);
        return pv;
    }
    sqlite3 *db;
    int64_t v = -1;
    if (sqlite3_open(path, &db) == SQLITE_OK) {
        sqlite3_stmt *st;
        if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
            if (sqlite3_step(st) == SQLITE_ROW)
                v = sqlite3_column_int64(st, 0);
            sqlite3_finalize(st);
        }
    }
    sqlite3_close(db);
    return v;
}

static int64_t token_redeemed(const char *path, int64_t nonce)
{
    char sql[160];
    if (pg_base)
        snprintf(sql, sizeof sql, "SELECT redeemed::int FROM seed_tokens"
                 " WHERE encode(nonce, 'hex') = '%016llx0000000000000%s'",
                 (unsigned long long)__builtin_bswap64((uint64_t)nonce), "05a");
    else
        snprintf(sql, sizeof sql, "SELECT redeemed FROM seed_tokens WHERE hex(nonce) = '%016llX0000000000000%s'",
                 (unsigned long long)__builtin_bswap64((uint64_t)nonce), "05A");
    return sql_int(path, sql);
}

static store_board level_board(const char *game_name, int level)
{
    store_board b = { -1, game_find(game_name), level };
    return b;
}

static store_board daily_board(const char *date)
{
    store_board b = { day_of(date), NULL, 0 };
    return b;
}

static void pause_ms(long ms)
{
    struct timespec ts = { 0, ms * 1000000 };
    nanosleep(&ts, NULL);
}

/* ---- tests ---- */

static void migrations_fresh_and_reopen(void)
{
    tmpdb t;
    tmp_make(&t);
    store *s = open_db(&t, 0);
    CHECK(s != NULL);
    if (!s)
        return;
    CHECK_EQ(store_schema_version(s), LATEST_SCHEMA);
    store_close(s);
    CHECK_EQ(sql_int(t.path, "SELECT COUNT(*) FROM sqlite_master WHERE type='table' AND name IN"
                             " ('players','seed_tokens','scores','level_bests','rejections',"
                             "'schema_version')"),
             6);
    s = open_db(&t, 0);
    CHECK(s != NULL);
    if (s) {
        CHECK_EQ(store_schema_version(s), LATEST_SCHEMA);
        store_close(s);
    }
    CHECK_EQ(sql_int(t.path, "SELECT COUNT(*) FROM schema_version"), schema_migration_count);
    /* a missing directory is created */
    tmpdb sub;
    memcpy(sub.dir, t.dir, sizeof sub.dir);
    snprintf(sub.path, sizeof sub.path, "%s/var/db.sqlite", t.dir);
    s = open_db(&sub, 0);
    CHECK(s != NULL);
    if (s) {
        CHECK_EQ(store_schema_version(s), LATEST_SCHEMA);
        store_close(s);
    }
    snprintf(sub.dir, sizeof sub.dir, "%.50s/var", t.dir);
    tmp_remove(&sub);
    CHECK(sql_int(t.path, "SELECT applied_at FROM schema_version WHERE version = 1") > T0);
    CHECK_EQ(sql_int(t.path, "SELECT journal_mode = 'wal' FROM pragma_journal_mode"), 1);

    /* a database from a newer build is refused, not altered */
    sqlite3 *db;
    CHECK(sqlite3_open(t.path, &db) == SQLITE_OK);
    CHECK(sqlite3_exec(db, "INSERT INTO schema_version VALUES (999, 0)", NULL, NULL, NULL) ==
          SQLITE_OK);
    sqlite3_close(db);
    store_config cfg = { .database = t.path, .busy_timeout_ms = 1000, .group_commit_max = 8 };
    char err[256] = "";
    s = NULL;
    CHECK_EQ(store_open(&cfg, &s, err, sizeof err), STORE_ERROR);
    CHECK(s == NULL);
    CHECK(strstr(err, "newer") != NULL);
    tmp_remove(&t);
}

/* The backend's check of every statement's counts (sq_check, pg_check)
 * over declared, on a migrated database t; STORE_OK or the error in err. */
static store_status check_counts(const tmpdb *t, const sd_sql *declared, char *err, size_t err_len)
{
    store_status st;
    if (pg_base) {
        static pg_conn c;
        st = pg_connect(&c, t->path, 1000, err, err_len);
        if (st == STORE_OK)
            st = pg_check(&c, declared, err, err_len);
        pg_disconnect(&c);
        return st;
    }
    static conn c;
    store_config cfg = { .database = t->path, .busy_timeout_ms = 1000 };
    st = sq_open(&c, &cfg, SQ_READER, err, err_len);
    if (st == STORE_OK)
        st = sq_check(&c, declared, err, err_len);
    sq_close(&c);
    return st;
}

/* A statement whose parameters or columns differ from its declaration is
 * an error at open, naming it; ?N reads $N outside string literals. */
static void statement_counts_checked_at_open(void)
{
    tmpdb t;
    tmp_make(&t);
    store *s = open_db(&t, 0);
    CHECK(s != NULL);
    if (!s)
        return;
    store_close(s);
    char err[256] = "";
    CHECK_EQ(check_counts(&t, sd_sql_of, err, sizeof err), STORE_OK);
    static sd_sql wrong[SD_COUNT];
    memcpy(wrong, sd_sql_of, sizeof wrong);
    wrong[SD_KEY_GET].params++;
    CHECK_EQ(check_counts(&t, wrong, err, sizeof err), STORE_ERROR);
    CHECK(strstr(err, "statement key_get: 1 parameters") != NULL);
    memcpy(wrong, sd_sql_of, sizeof wrong);
    wrong[SD_SCORE_RECORD].cols = 2; /* a backend's own text is checked too */
    CHECK_EQ(check_counts(&t, wrong, err, sizeof err), STORE_ERROR);
    CHECK(strstr(err, "statement score_record: 25 parameters and 1 columns, declared 25 and 2") !=
          NULL);
    tmp_remove(&t);

    char *q = sd_sql_dollars("SELECT ?1, '?2', 'it''s ?3', ?12 WHERE x = ?", " FOR UPDATE");
    CHECK(q && strcmp(q, "SELECT $1, '?2', 'it''s ?3', $12 WHERE x = ? FOR UPDATE") == 0);
    free(q);
}

static void players_and_token_lookup(void)
{
    tmpdb t;
    tmp_make(&t);
    store *s = open_db(&t, 0);
    CHECK(s != NULL);
    if (!s)
        return;
    /* one schema version for one build, whichever backend (schema.h) */
    CHECK_EQ(store_schema_version(s), LATEST_SCHEMA);
    uint8_t h1[STORE_HASH_BYTES], h2[STORE_HASH_BYTES], h3[STORE_HASH_BYTES];
    hash_of(1, h1);
    hash_of(2, h2);
    hash_of(3, h3);
    store_player a, b, got;
    CHECK_EQ(player_create(s, "Ada", h1, T0, &a), STORE_OK);
    CHECK_EQ(player_create(s, "Bo", h2, T0 + 1, &b), STORE_OK);
    CHECK(a.id > 0 && b.id > 0 && a.id != b.id);
    CHECK(strcmp(a.name, "Ada") == 0 && a.created_at == T0);
    CHECK_EQ(store_player_by_token(s, h2, &got), STORE_OK);
    CHECK_EQ(got.id, b.id);
    CHECK(strcmp(got.name, "Bo") == 0);
    CHECK_EQ(got.created_at, T0 + 1);
    CHECK_EQ(store_player_by_token(s, h3, &got), STORE_NOT_FOUND);
    /* the token hash is unique */
    CHECK_EQ(player_create(s, "Copy", h1, T0, &got), STORE_CONFLICT);
    char longname[STORE_NAME_MAX + 2];
    memset(longname, 'x', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    CHECK_EQ(player_create(s, longname, h3, T0, &got), STORE_ERROR);
    store_close(s);
    tmp_remove(&t);
}

static void token_limits_and_daily(void)
{
    tmpdb t;
    tmp_make(&t);
    store *s = open_db(&t, 0);
    CHECK(s != NULL);
    if (!s)
        return;
    int64_t p = new_player(s, 1), q = new_player(s, 2);
    store_token tok, ex;
    for (int i = 0; i < 3; i++) {
        token_fill(&tok, 10 + i, p, "schulte", 1, "", T0);
        CHECK_EQ(token_issue(s, &tok, 3, T0, &ex), STORE_OK);
    }
    token_fill(&tok, 13, p, "schulte", 1, "", T0);
    CHECK_EQ(token_issue(s, &tok, 3, T0, &ex), STORE_LIMIT);
    /* another player is not affected */
    token_fill(&tok, 14, q, "schulte", 1, "", T0);
    CHECK_EQ(token_issue(s, &tok, 3, T0, &ex), STORE_OK);
    /* once the three expire they no longer count */
    token_fill(&tok, 13, p, "schulte", 1, "", T0 + HOUR);
    CHECK_EQ(token_issue(s, &tok, 3, T0 + HOUR, &ex), STORE_OK);
    CHECK_EQ(token_redeemed(t.path, 13), 0);
    CHECK_EQ(sql_int(t.path, "SELECT COUNT(*) FROM seed_tokens WHERE text = 'tok.13' AND game = 'schulte'"
                             " AND level = 1 AND version = 1 AND daily_date = ''"),
             1);
    CHECK_EQ(sql_int(t.path, "SELECT expires_at - issued_at FROM seed_tokens WHERE text = 'tok.13'"), HOUR);
    CHECK_EQ(token_redeemed(t.path, 999), -1);
    /* daily tokens do not count towards max_outstanding */
    token_fill(&tok, 30, q, "pipes", 4, "2025-12-01", T0);
    CHECK_EQ(token_issue(s, &tok, 1, T0, &ex), STORE_OK);

    /* daily: one per player per date; asking again returns the first */
    token_fill(&tok, 20, q, "pipes", 4, "2025-12-02", T0);
    CHECK_EQ(token_issue(s, &tok, 3, T0, &ex), STORE_OK);
    token_fill(&tok, 21, q, "pipes", 4, "2025-12-02", T0 + 5);
    memset(&ex, 0, sizeof ex);
    CHECK_EQ(token_issue(s, &tok, 3, T0 + 5, &ex), STORE_CONFLICT);
    uint8_t first[PLAY_NONCE_BYTES];
    nonce_of(20, first);
    CHECK(memcmp(ex.p.nonce, first, PLAY_NONCE_BYTES) == 0);
    CHECK(strcmp(ex.text, "tok.20") == 0 && ex.p.day == day_of("2025-12-02"));
    CHECK(ex.p.g == game_find("pipes") && ex.p.level == 4 && ex.p.player_id == q);
    CHECK(!ex.redeemed);
    CHECK_EQ(token_redeemed(t.path, 21), -1);
    /* even at the limit the daily answer is the outstanding token */
    token_fill(&tok, 22, q, "schulte", 1, "", T0);
    CHECK_EQ(token_issue(s, &tok, 3, T0, &ex), STORE_OK);
    token_fill(&tok, 23, q, "pipes", 4, "2025-12-02", T0);
    CHECK_EQ(token_issue(s, &tok, 3, T0, &ex), STORE_CONFLICT);
    /* after redemption it is still a conflict, now with redeemed set */
    store_score sc;
    score_fill(&sc, 20, q, "pipes", 4, "2025-12-02", 7);
    CHECK_EQ(submit(s, &sc, NULL), STORE_OK);
    CHECK_EQ(token_issue(s, &tok, 3, T0, &ex), STORE_CONFLICT);
    CHECK(ex.redeemed);
    /* another date is another daily */
    token_fill(&tok, 24, q, "pipes", 4, "2025-12-03", T0 + HOUR);
    CHECK_EQ(token_issue(s, &tok, 3, T0 + HOUR, &ex), STORE_OK);
    store_close(s);
    tmp_remove(&t);
}

static void token_stats_abandoned(void)
{
    tmpdb t;
    tmp_make(&t);
    store *s = open_db(&t, 0);
    CHECK(s != NULL);
    if (!s)
        return;
    int64_t p = new_player(s, 1);
    for (int i = 0; i < 5; i++)
        CHECK_EQ(issue(s, 100 + i, p, "schulte", 2, ""), STORE_OK);
    store_score sc;
    for (int i = 0; i < 2; i++) {
        score_fill(&sc, 100 + i, p, "schulte", 2, "", 10 + i);
        CHECK_EQ(submit(s, &sc, NULL), STORE_OK);
    }
    store_token_stats st;
    CHECK_EQ(store_token_stats_for(s, p, T0 + 1, &st), STORE_OK);
    CHECK(st.issued == 5 && st.completed == 2 && st.outstanding == 3 && st.abandoned == 0);
    CHECK(st.incomplete == 0 && st.forfeited == 0);
    CHECK_EQ(store_token_stats_for(s, p, T0 + HOUR, &st), STORE_OK); /* expires_at == now */
    CHECK(st.issued == 5 && st.completed == 2 && st.outstanding == 0 && st.abandoned == 3);
    CHECK_EQ(store_token_stats_for(s, p + 100, T0, &st), STORE_OK);
    CHECK(st.issued == 0 && st.completed == 0 && st.outstanding == 0 && st.abandoned == 0);
    store_close(s);
    tmp_remove(&t);
}

static void submit_conflict_and_idempotency_data(void)
{
    tmpdb t;
    tmp_make(&t);
    store *s = open_db(&t, 0);
    CHECK(s != NULL);
    if (!s)
        return;
    int64_t p = new_player(s, 7);
    CHECK_EQ(issue(s, 1, p, "pipes", 3, ""), STORE_OK);
    store_score sc, ex, got;
    score_fill(&sc, 1, p, "pipes", 3, "", 4242);
    CHECK_EQ(submit(s, &sc, &ex), STORE_OK);
    CHECK(sc.seq > 0);
    CHECK(strcmp(sc.score_id, "01000000000000000000000000000000") != 0);
    char want_id[33];
    snprintf(want_id, sizeof want_id, "0100000000000000000000000000005a");
    CHECK(strcmp(sc.score_id, want_id) == 0);
    CHECK_EQ(store_score_get(s, sc.p.nonce, &got), STORE_OK);
    CHECK(strcmp(got.score_id, want_id) == 0);
    CHECK(memcmp(got.p.nonce, sc.p.nonce, PLAY_NONCE_BYTES) == 0);
    CHECK(got.p.player_id == p && strcmp(got.player_name, "player7") == 0);
    CHECK(got.p.g == game_find("pipes") && got.p.level == 3 && got.p.seed == sc.p.seed);
    CHECK(got.p.version == 1 && got.p.day == -1 && got.score == 4242 && got.completed);
    CHECK(got.received_at == sc.received_at && got.seq == sc.seq);
    CHECK(memcmp(got.moves_hash, sc.moves_hash, STORE_HASH_BYTES) == 0);
    CHECK(strcmp(got.receipt, sc.receipt) == 0);
    CHECK(got.moves_json && strcmp(got.moves_json, sc.moves_json) == 0);
    CHECK(got.result_json && strcmp(got.result_json, sc.result_json) == 0);
    store_score_clear(&got);
    CHECK(got.moves_json == NULL);
    uint8_t missing[PLAY_NONCE_BYTES];
    memset(missing, 0xff, sizeof missing);
    CHECK_EQ(store_score_get(s, missing, &got), STORE_NOT_FOUND);

    /* the same token again: conflict with the recorded score filled in */
    store_score again;
    score_fill(&again, 1, p, "pipes", 3, "", 1);
    again.moves_json = (char *)"[]";
    CHECK_EQ(submit(s, &again, &ex), STORE_CONFLICT);
    CHECK(strcmp(ex.score_id, want_id) == 0 && ex.score == 4242 && ex.seq == sc.seq);
    CHECK(memcmp(ex.moves_hash, sc.moves_hash, STORE_HASH_BYTES) == 0);
    CHECK(ex.moves_json && strcmp(ex.moves_json, sc.moves_json) == 0);
    store_score_clear(&ex);
    CHECK_EQ(sql_int(t.path, "SELECT COUNT(*) FROM scores"), 1);

    /* a score that does not match its token is refused */
    CHECK_EQ(issue(s, 3, p, "pipes", 3, ""), STORE_OK);
    score_fill(&again, 3, p + 1, "pipes", 3, "", 1);
    CHECK_EQ(submit(s, &again, &ex), STORE_ERROR);
    score_fill(&again, 3, p, "pipes", 4, "", 1);
    CHECK_EQ(submit(s, &again, &ex), STORE_ERROR);
    score_fill(&again, 3, p, "pipes", 3, "2025-12-02", 1);
    CHECK_EQ(submit(s, &again, &ex), STORE_ERROR);

    /* a token never issued */
    score_fill(&again, 55, p, "pipes", 3, "", 1);
    CHECK_EQ(submit(s, &again, &ex), STORE_NOT_FOUND);

    CHECK_EQ(token_redeemed(t.path, 1), 1);

    /* rejections: kept while the token is open; a redeemed token's run is
     * over (a conflict, not kept); a token never issued is not found */
    CHECK_EQ(issue(s, 2, p, "pipes", 3, ""), STORE_OK);
    store_rejection r;
    memset(&r, 0, sizeof r);
    play_fill(&r.p, 2, p, "pipes", 3, "");
    snprintf(r.reason, sizeof r.reason, "illegal_move");
    r.move_index = 4;
    r.received_at = T0;
    r.moves_json = "[1,2]";
    CHECK_EQ(rejection_add(s, &r), STORE_OK);
    CHECK_EQ(rejection_add(s, &r), STORE_OK);
    play_fill(&r.p, 1, p, "pipes", 3, "");
    CHECK_EQ(rejection_add(s, &r), STORE_CONFLICT);
    play_fill(&r.p, 77, p, "pipes", 3, "");
    CHECK_EQ(rejection_add(s, &r), STORE_NOT_FOUND);
    store_close(s);
    CHECK_EQ(sql_int(t.path, "SELECT COUNT(*) FROM rejections WHERE reason = 'illegal_move'"
                             " AND move_index = 4"),
             2);
    tmp_remove(&t);
}

/* Rejections are bounded: a token burns after rejections_per_token (then
 * neither a rejection nor a score is taken: STORE_LIMIT); moves are kept
 * for a token's first rejection_moves_per_token rejections and at most
 * rejection_moves_per_player_day a day, counted in the writer's transaction. */
static void rejections_bounded(void)
{
    tmpdb t;
    tmp_make(&t);
    store *s = open_db_with(&t, 0, 3, 1, 2);
    CHECK(s != NULL);
    if (!s)
        return;
    uint8_t h[STORE_HASH_BYTES];
    hash_of(1, h);
    store_player pl;
    CHECK_EQ(player_create(s, "Rex", h, T0, &pl), STORE_OK);
    store_rejection r;
    memset(&r, 0, sizeof r);
    snprintf(r.reason, sizeof r.reason, "illegal_move");
    r.received_at = T0;
    r.moves_json = "[1,2,3]";
    int burned_at = 0, kept = 0;
    for (int64_t nonce = 1; nonce <= 3; nonce++) {
        CHECK_EQ(issue(s, nonce, pl.id, "pipes", 3, ""), STORE_OK);
        play_fill(&r.p, nonce, pl.id, "pipes", 3, "");
        for (int i = 1; i <= 5; i++) {
            store_status st = rejection_add(s, &r);
            CHECK_EQ(st, i <= 3 ? STORE_OK : STORE_LIMIT);
            if (st == STORE_OK && r.burned && nonce == 1)
                burned_at = i;
            kept += st == STORE_OK && r.moves_kept;
        }
    }
    CHECK_EQ(burned_at, 3);
    CHECK_EQ(kept, 2); /* the first rejection of tokens 1 and 2; token 3 is over the day's quota */
    /* a burned token redeems nothing, even with good moves */
    store_score sc;
    score_fill(&sc, 1, pl.id, "pipes", 3, "", 10);
    CHECK_EQ(submit(s, &sc, NULL), STORE_LIMIT);
    /* the next day has a fresh quota */
    CHECK_EQ(issue(s, 4, pl.id, "pipes", 3, ""), STORE_OK);
    play_fill(&r.p, 4, pl.id, "pipes", 3, "");
    r.received_at = T0 + 24 * HOUR;
    CHECK_EQ(rejection_add(s, &r), STORE_OK);
    CHECK(r.moves_kept);
    store_close(s);
    CHECK_EQ(sql_int(t.path, "SELECT COUNT(*) FROM rejections"), 10);
    CHECK_EQ(sql_int(t.path, "SELECT COUNT(*) FROM rejections WHERE moves_json <> ''"), 3);
    CHECK_EQ(sql_int(t.path, "SELECT COUNT(*) FROM rejection_moves_quota"), 1); /* old day pruned */
    tmp_remove(&t);
}

/* Boards in memory stay within their byte budget: boards with no entries
 * hold nothing, loaded ones are evicted least recently used first and
 * reload from the database with every entry. */
static void board_memory_bounded(void)
{
    tmpdb t;
    tmp_make(&t);
    /* a small board takes about 130 KB (its node arenas): room for three */
    const size_t budget = 400000;
    store *s = open_db_budget(&t, budget);
    CHECK(s != NULL);
    if (!s)
        return;
    int64_t p = new_player(s, 1), size = 0, seq;
    enum { LEVELS = 12, PER = 20 };
    int64_t nonce = 1;
    for (int level = 1; level <= LEVELS; level++)
        for (int i = 0; i < PER; i++) {
            int64_t q = i == 0 ? p : new_player(s, 1000 * level + i);
            CHECK_EQ(play_level(s, nonce, q, "pipes", level, "", 100 + i, &seq), STORE_OK);
            nonce++;
        }
    size_t largest = 0, one = 0;
    store_board first = level_board("pipes", 1);
    CHECK_EQ(store_board_size(s, &first, &size), STORE_OK);
    one = store_board_bytes(s);
    CHECK(one > 0 && one < budget / 2);
    for (int round = 0; round < 3; round++)
        for (int level = 1; level <= LEVELS; level++) {
            store_board b = level_board("pipes", level);
            CHECK_EQ(store_board_size(s, &b, &size), STORE_OK);
            CHECK_EQ(size, PER); /* whether cached or reloaded after eviction */
            size_t now = store_board_bytes(s);
            CHECK(now <= budget + one); /* the budget, passed by at most the board in use */
            if (now > largest)
                largest = now;
        }
    CHECK(largest > budget - one); /* boards were held: the bound is not trivially met */
    /* 5,000 boards with no entries: nothing stays */
    size_t before = store_board_bytes(s);
    for (int i = 0; i < 5000; i++) {
        store_board b = { 30000 + i, NULL, 0 };
        CHECK_EQ(store_board_size(s, &b, &size), STORE_OK);
        CHECK_EQ(size, 0);
    }
    CHECK(store_board_bytes(s) <= before);
    /* a score on a board that read as empty is seen on the next read */
    store_board b = level_board("pipes", 40);
    CHECK_EQ(store_board_size(s, &b, &size), STORE_OK);
    CHECK_EQ(size, 0);
    CHECK_EQ(play_level(s, nonce, p, "pipes", 40, "", 7, &seq), STORE_OK);
    CHECK_EQ(store_board_size(s, &b, &size), STORE_OK);
    CHECK_EQ(size, 1);
    store_close(s);
    tmp_remove(&t);
}

static void bests_replace_rule(void)
{
    tmpdb t;
    tmp_make(&t);
    store *s = open_db(&t, 0);
    CHECK(s != NULL);
    if (!s)
        return;
    int64_t p = new_player(s, 1), q = new_player(s, 2);
    store_board b = level_board("schulte", 5);
    int64_t size = -1;
    CHECK_EQ(store_board_size(s, &b, &size), STORE_OK); /* loaded while empty */
    CHECK_EQ(size, 0);
    int64_t seq100, seq, seq150;
    store_entry e;
    CHECK_EQ(play_level(s, 1, p, "schulte", 5, "", 100, &seq100), STORE_OK);
    CHECK_EQ(play_level(s, 2, p, "schulte", 5, "", 50, &seq), STORE_OK); /* lower: kept 100 */
    CHECK_EQ(store_board_rank(s, &b, p, &e), STORE_OK);
    CHECK(e.score == 100 && e.seq == seq100 && e.rank == 1);
    CHECK_EQ(play_level(s, 3, p, "schulte", 5, "", 100, &seq), STORE_OK); /* equal: kept the first */
    CHECK_EQ(store_board_rank(s, &b, p, &e), STORE_OK);
    CHECK(e.score == 100 && e.seq == seq100);
    CHECK_EQ(play_level(s, 4, q, "schulte", 5, "", 120, &seq), STORE_OK);
    CHECK_EQ(store_board_rank(s, &b, p, &e), STORE_OK);
    CHECK_EQ(e.rank, 2);
    CHECK_EQ(play_level(s, 5, p, "schulte", 5, "", 150, &seq150), STORE_OK); /* higher: replaced */
    CHECK_EQ(store_board_rank(s, &b, p, &e), STORE_OK);
    CHECK(e.score == 150 && e.seq == seq150 && e.rank == 1);
    CHECK_EQ(store_board_size(s, &b, &size), STORE_OK);
    CHECK_EQ(size, 2);
    /* a score on another level or a daily of the same player elsewhere */
    CHECK_EQ(play_level(s, 6, p, "schulte", 6, "", 999, &seq), STORE_OK);
    CHECK_EQ(store_board_size(s, &b, &size), STORE_OK);
    CHECK_EQ(size, 2);
    store_close(s);
    CHECK_EQ(sql_int(t.path, "SELECT COUNT(*) FROM level_bests WHERE game = 'schulte' AND level = 5"),
             2);
    CHECK_EQ(sql_int(t.path, "SELECT score FROM level_bests WHERE game = 'schulte' AND level = 5"
                             " AND player_id = 1"),
             150);
    /* every token's score_seq and every best's seq name the score of that
     * token (SQLite's SD_SCORE_RECORD takes the seq from last_insert_rowid) */
    CHECK_EQ(sql_int(t.path, "SELECT COUNT(*) FROM seed_tokens t JOIN scores s"
                             " ON s.seq = t.score_seq AND s.nonce = t.nonce"),
             sql_int(t.path, "SELECT COUNT(*) FROM scores"));
    CHECK_EQ(sql_int(t.path, "SELECT COUNT(*) FROM level_bests b JOIN scores s"
                             " ON s.seq = b.seq AND s.nonce = b.nonce AND s.score = b.score"),
             sql_int(t.path, "SELECT COUNT(*) FROM level_bests"));
    /* the same board loaded from SQL after a restart */
    s = open_db(&t, 0);
    CHECK(s != NULL);
    if (s) {
        CHECK_EQ(store_board_rank(s, &b, p, &e), STORE_OK);
        CHECK(e.score == 150 && e.seq == seq150 && e.rank == 1);
        CHECK(strcmp(e.player_name, "player1") == 0);
        CHECK_EQ(store_board_rank(s, &b, q, &e), STORE_OK);
        CHECK(e.score == 120 && e.rank == 2);
        store_close(s);
    }
    tmp_remove(&t);
}

static void board_order_ties_and_pages(void)
{
    tmpdb t;
    tmp_make(&t);
    store *s = open_db(&t, 0);
    CHECK(s != NULL);
    if (!s)
        return;
    /* scores by player: ties broken by the earlier submission */
    const int64_t scores[8] = { 50, 70, 50, 90, 70, 50, 10, 90 };
    int64_t ids[8], seqs[2][8];
    /* the same scores as level runs (nonces 100..) and as daily runs (200..):
     * each kind goes to its own board only */
    for (int i = 0; i < 8; i++)
        ids[i] = new_player(s, i + 1);
    for (int i = 0; i < 8; i++)
        CHECK_EQ(play_level(s, 100 + i, ids[i], "pipes", 1, "", scores[i], &seqs[0][i]), STORE_OK);
    for (int i = 0; i < 8; i++)
        CHECK_EQ(play_level(s, 200 + i, ids[i], "pipes", 1, "2025-12-02", scores[i], &seqs[1][i]),
                 STORE_OK);
    const int want[8] = { 3, 7, 1, 4, 0, 2, 5, 6 }; /* indexes in board order */
    const int64_t ranks[8] = { 1, 1, 3, 3, 5, 5, 5, 8 }; /* equal scores share a rank */
    store_board boards[2] = { level_board("pipes", 1), daily_board("2025-12-02") };
    for (int bi = 0; bi < 2; bi++) {
        store_entry out[16];
        int n = 0;
        bool more = true;
        CHECK_EQ(store_board_page(s, &boards[bi], NULL, false, 16, out, &n, &more, NULL), STORE_OK);
        CHECK_EQ(n, 8);
        CHECK(!more);
        for (int i = 0; i < n; i++) {
            CHECK_EQ(out[i].player_id, ids[want[i]]);
            CHECK_EQ(out[i].rank, ranks[i]);
            CHECK_EQ(out[i].seq, seqs[bi][want[i]]);
            CHECK_EQ(out[i].submitted_at, T0 + 100 * (bi + 1) + want[i]);
        }
        /* forwards by three, then backwards from the end by three */
        store_board_key key;
        int seen = 0;
        const store_board_key *after = NULL;
        do {
            CHECK_EQ(store_board_page(s, &boards[bi], after, false, 3, out, &n, &more, NULL), STORE_OK);
            for (int i = 0; i < n; i++)
                CHECK_EQ(out[i].player_id, ids[want[seen + i]]);
            seen += n;
            if (n) {
                key.score = out[n - 1].score;
                key.seq = out[n - 1].seq;
                after = &key;
            }
        } while (more && n > 0);
        CHECK_EQ(seen, 8);
        int end = 8;
        after = NULL;
        do {
            CHECK_EQ(store_board_page(s, &boards[bi], after, true, 3, out, &n, &more, NULL), STORE_OK);
            CHECK(n <= end);
            for (int i = 0; i < n; i++) {
                CHECK_EQ(out[i].player_id, ids[want[end - n + i]]);
                CHECK_EQ(out[i].rank, ranks[end - n + i]); /* a page that starts inside a tie too */
            }
            end -= n;
            if (n) {
                key.score = out[0].score;
                key.seq = out[0].seq;
                after = &key;
            }
        } while (more && n > 0);
        CHECK_EQ(end, 0);
        /* a cursor key that is not on the board still orders correctly */
        key.score = 70;
        key.seq = 0;
        CHECK_EQ(store_board_page(s, &boards[bi], &key, false, 2, out, &n, &more, NULL), STORE_OK);
        CHECK(n == 2 && out[0].player_id == ids[1] && out[0].rank == 3 && more);
        CHECK_EQ(store_board_page(s, &boards[bi], &key, true, 5, out, &n, &more, NULL), STORE_OK);
        CHECK(n == 2 && out[1].player_id == ids[7] && !more);
    }
    store_close(s);
    tmp_remove(&t);
}

static void cursor_under_inserts(void)
{
    tmpdb t;
    tmp_make(&t);
    store *s = open_db(&t, 0);
    CHECK(s != NULL);
    if (!s)
        return;
    store_board b = level_board("schulte", 1);
    int64_t ids[12];
    for (int i = 0; i < 12; i++)
        ids[i] = new_player(s, i + 1);
    for (int i = 0; i < 6; i++) /* scores 600, 500, ..., 100 */
        CHECK_EQ(play_level(s, i + 1, ids[i], "schulte", 1, "", 600 - 100 * i, NULL), STORE_OK);
    store_entry out[8];
    int n;
    bool more;
    CHECK_EQ(store_board_page(s, &b, NULL, false, 3, out, &n, &more, NULL), STORE_OK);
    CHECK(n == 3 && more && out[2].score == 400);
    store_board_key key = { out[2].score, out[2].seq };
    /* new entries above and below the cursor between two page reads */
    CHECK_EQ(play_level(s, 7, ids[6], "schulte", 1, "", 1000, NULL), STORE_OK);
    CHECK_EQ(play_level(s, 8, ids[7], "schulte", 1, "", 450, NULL), STORE_OK);
    CHECK_EQ(play_level(s, 9, ids[8], "schulte", 1, "", 400, NULL), STORE_OK); /* tie, later seq */
    CHECK_EQ(play_level(s, 10, ids[9], "schulte", 1, "", 350, NULL), STORE_OK);
    CHECK_EQ(store_board_page(s, &b, &key, false, 3, out, &n, &more, NULL), STORE_OK);
    CHECK(n == 3 && more);
    /* it ties with ids[2]'s 400 at position 5, so it shares rank 5 */
    CHECK(out[0].player_id == ids[8] && out[0].score == 400 && out[0].rank == 5);
    CHECK(out[1].player_id == ids[9] && out[1].score == 350);
    CHECK(out[2].player_id == ids[3] && out[2].score == 300);
    /* backwards from the cursor: what sorts before it now */
    CHECK_EQ(store_board_page(s, &b, &key, true, 10, out, &n, &more, NULL), STORE_OK);
    CHECK(n == 4 && !more && out[0].score == 1000 && out[3].score == 450);
    store_close(s);
    tmp_remove(&t);
}

static void rank_and_around_edges(void)
{
    tmpdb t;
    tmp_make(&t);
    store *s = open_db(&t, 0);
    CHECK(s != NULL);
    if (!s)
        return;
    int64_t ids[6];
    for (int i = 0; i < 6; i++)
        ids[i] = new_player(s, i + 1);
    store_board b = level_board("pipes", 2), one = level_board("pipes", 3),
                empty = level_board("pipes", 4);
    for (int i = 0; i < 5; i++) /* ids[0] top ... ids[4] bottom */
        CHECK_EQ(play_level(s, i + 1, ids[i], "pipes", 2, "", 50 - i, NULL), STORE_OK);
    CHECK_EQ(play_level(s, 9, ids[5], "pipes", 3, "", 1, NULL), STORE_OK);
    store_entry e, out[21];
    int n, self;
    CHECK_EQ(store_board_rank(s, &b, ids[0], &e), STORE_OK);
    CHECK(e.rank == 1 && e.score == 50 && strcmp(e.player_name, "player1") == 0);
    CHECK_EQ(store_board_rank(s, &b, ids[4], &e), STORE_OK);
    CHECK_EQ(e.rank, 5);
    CHECK_EQ(store_board_rank(s, &b, ids[5], &e), STORE_NOT_FOUND);
    CHECK_EQ(store_board_around(s, &b, ids[0], 2, out, &n, &self), STORE_OK);
    CHECK(n == 3 && self == 0 && out[0].player_id == ids[0] && out[2].rank == 3);
    CHECK_EQ(store_board_around(s, &b, ids[4], 2, out, &n, &self), STORE_OK);
    CHECK(n == 3 && self == 2 && out[2].player_id == ids[4] && out[0].rank == 3);
    CHECK_EQ(store_board_around(s, &b, ids[2], 2, out, &n, &self), STORE_OK);
    CHECK(n == 5 && self == 2 && out[self].player_id == ids[2] && out[0].rank == 1);
    CHECK_EQ(store_board_around(s, &b, ids[2], 0, out, &n, &self), STORE_OK);
    CHECK(n == 1 && self == 0 && out[0].rank == 3);
    CHECK_EQ(store_board_around(s, &b, ids[2], 10, out, &n, &self), STORE_OK);
    CHECK(n == 5 && self == 2);
    CHECK_EQ(store_board_around(s, &b, ids[5], 2, out, &n, &self), STORE_NOT_FOUND);
    CHECK_EQ(n, 0);
    CHECK_EQ(store_board_around(s, &one, ids[5], 10, out, &n, &self), STORE_OK);
    CHECK(n == 1 && self == 0 && out[0].rank == 1 && out[0].player_id == ids[5]);
    CHECK_EQ(store_board_rank(s, &one, ids[5], &e), STORE_OK);
    CHECK_EQ(e.rank, 1);
    int64_t size = -1;
    CHECK_EQ(store_board_size(s, &empty, &size), STORE_OK);
    CHECK_EQ(size, 0);
    bool more = true;
    CHECK_EQ(store_board_page(s, &empty, NULL, false, 10, out, &n, &more, NULL), STORE_OK);
    CHECK(n == 0 && !more);
    CHECK_EQ(store_board_page(s, &empty, NULL, true, 10, out, &n, &more, NULL), STORE_OK);
    CHECK(n == 0 && !more);
    CHECK_EQ(store_board_rank(s, &empty, ids[0], &e), STORE_NOT_FOUND);
    store_close(s);
    tmp_remove(&t);
}

/* rank.c on its own against a brute force best-per-player list. */
static uint64_t rnd_state = 88172645463325252u;
static uint64_t rnd(void)
{
    rnd_state ^= rnd_state << 13;
    rnd_state ^= rnd_state >> 7;
    rnd_state ^= rnd_state << 17;
    return rnd_state;
}

static void rank_matches_brute_force(void)
{
    enum { PLAYERS = 300, OFFERS = 6000 };
    rank_board *rb = rank_new();
    CHECK(rb != NULL);
    if (!rb)
        return;
    static rank_entry best[PLAYERS];
    static bool has[PLAYERS];
    memset(has, 0, sizeof has);
    for (int i = 0; i < OFFERS; i++) {
        rank_entry e;
        memset(&e, 0, sizeof e);
        e.player_id = (int64_t)(rnd() % PLAYERS);
        e.score = (int64_t)(rnd() % 40);
        e.seq = i + 1;
        int r = rank_offer(rb, &e);
        bool wins = !has[e.player_id] || e.score > best[e.player_id].score;
        CHECK_EQ(r, wins ? 1 : 0);
        if (wins) {
            best[e.player_id] = e;
            has[e.player_id] = true;
        }
    }
    int64_t n = 0;
    for (int p = 0; p < PLAYERS; p++)
        n += has[p];
    CHECK_EQ(rank_size(rb), n);
    for (int p = 0; p < PLAYERS; p++) {
        if (!has[p])
            continue;
        int64_t before = 0;
        for (int q = 0; q < PLAYERS; q++)
            if (has[q] && rank_before(best[q].score, best[q].seq, best[p].score, best[p].seq))
                before++;
        rank_entry got;
        CHECK_EQ(rank_of_player(rb, p, &got), before + 1);
        CHECK_EQ(got.seq, best[p].seq);
        rank_entry at;
        CHECK_EQ(rank_range(rb, before + 1, 1, &at), 1);
        CHECK_EQ(at.player_id, p);
    }
    for (int i = 0; i < 200; i++) {
        int64_t sc = (int64_t)(rnd() % 42) - 1, sq = (int64_t)(rnd() % (OFFERS + 2));
        int64_t lt = 0, le = 0;
        for (int q = 0; q < PLAYERS; q++) {
            if (!has[q])
                continue;
            bool b = rank_before(best[q].score, best[q].seq, sc, sq);
            bool eq = best[q].score == sc && best[q].seq == sq;
            lt += b;
            le += b || eq;
        }
        CHECK_EQ(rank_count_before(rb, sc, sq, false), lt);
        CHECK_EQ(rank_count_before(rb, sc, sq, true), le);
    }
    CHECK_EQ(rank_of_player(rb, PLAYERS + 5, NULL), 0);
    rank_free(rb);
}

/* The whole board against SQL ORDER BY score DESC, seq ASC. */
static int compare_with_sql(store *s, const char *path, const store_board *b, const char *sql)
{
    int64_t size = 0;
    if (store_board_size(s, b, &size) != STORE_OK)
        return 0;
    store_entry *all = calloc((size_t)size + 1, sizeof *all);
    int n = 0;
    bool more = false;
    int ok = all && store_board_page(s, b, NULL, false, (int)size, all, &n, &more, NULL) == STORE_OK &&
             n == size && !more;
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    ok = ok && sqlite3_open(path, &db) == SQLITE_OK &&
         sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK;
    int i = 0;
    int64_t rank = 0;
    while (ok && sqlite3_step(st) == SQLITE_ROW) {
        /* equal scores share a rank: 1 + the entries scoring higher */
        if (i < n && (i == 0 || all[i].score != all[i - 1].score))
            rank = i + 1;
        if (i >= n || all[i].player_id != sqlite3_column_int64(st, 0) ||
            all[i].score != sqlite3_column_int64(st, 1) ||
            all[i].seq != sqlite3_column_int64(st, 2) || all[i].rank != rank)
            ok = 0;
        i++;
    }
    ok = ok && i == n;
    /* each player's rank agrees with the page */
    for (int k = 0; ok && k < n; k += 7) {
        store_entry e;
        if (store_board_rank(s, b, all[k].player_id, &e) != STORE_OK || e.rank != all[k].rank)
            ok = 0;
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    free(all);
    return ok;
}

static void order_matches_sql_on_random_data(void)
{
    tmpdb t;
    tmp_make(&t);
    store *s = open_db(&t, 0);
    CHECK(s != NULL);
    if (!s)
        return;
    enum { PLAYERS = 150, SUBMITS = 1200 };
    int64_t ids[PLAYERS];
    for (int i = 0; i < PLAYERS; i++)
        ids[i] = new_player(s, i + 1);
    store_board lb = level_board("schulte", 9);
    store_board db = daily_board("2025-12-02");
    const char *lsql = "SELECT player_id, score, seq FROM level_bests WHERE game = 'schulte'"
                       " AND level = 9 ORDER BY score DESC, seq ASC";
    /* a daily score never reaches the level board */
    const char *leak = "SELECT COUNT(*) FROM level_bests b JOIN scores s ON s.seq = b.seq"
                       " WHERE s.daily_date <> ''";
    const char *dsql = "SELECT player_id, score, seq FROM scores WHERE daily_date = '2025-12-02'"
                       " ORDER BY score DESC, seq ASC";
    int64_t nonce = 1;
    bool daily_used[PLAYERS];
    memset(daily_used, 0, sizeof daily_used);
    for (int i = 0; i < SUBMITS; i++) {
        if (i == SUBMITS / 3) { /* load the boards midway: the rest arrive by offer */
            int64_t sz;
            CHECK_EQ(store_board_size(s, &lb, &sz), STORE_OK);
            CHECK_EQ(store_board_size(s, &db, &sz), STORE_OK);
        }
        int p = (int)(rnd() % PLAYERS);
        const char *daily = "";
        if (!daily_used[p] && rnd() % 4 == 0) {
            daily = "2025-12-02";
            daily_used[p] = true;
        }
        CHECK_EQ(play_level(s, nonce++, ids[p], "schulte", 9, daily, (int64_t)(rnd() % 30), NULL),
                 STORE_OK);
    }
    CHECK(compare_with_sql(s, t.path, &lb, lsql));
    CHECK(compare_with_sql(s, t.path, &db, dsql));
    CHECK_EQ(sql_int(t.path, leak), 0);
    store_close(s);
    s = open_db(&t, 0); /* and loaded from SQL */
    CHECK(s != NULL);
    if (s) {
        CHECK(compare_with_sql(s, t.path, &lb, lsql));
        CHECK(compare_with_sql(s, t.path, &db, dsql));
        store_close(s);
    }
    tmp_remove(&t);
}

/* 8 threads; every token is submitted by two of them at about the same
 * time, so one of each pair is a conflict (often inside one batch). */
enum { THREADS = 8, PER_THREAD = 150 };

typedef struct worker {
    store *s;
    int index;
    int64_t players[THREADS];
    int ok, conflict, bad;
} worker;

static void *submit_worker(void *arg)
{
    worker *w = arg;
    for (int k = 0; k < PER_THREAD; k++) {
        for (int pass = 0; pass < 2; pass++) {
            int owner = pass == 0 ? w->index : (w->index + 1) % THREADS;
            int64_t nonce = 1 + owner * PER_THREAD + k;
            store_score sc, ex;
            score_fill(&sc, nonce, w->players[owner], "pipes", 7, "", (int64_t)(nonce % 97));
            store_status st = submit(w->s, &sc, &ex);
            if (st == STORE_OK) {
                w->ok++;
            } else if (st == STORE_CONFLICT) {
                if (ex.seq <= 0 || memcmp(ex.p.nonce, sc.p.nonce, PLAY_NONCE_BYTES) != 0)
                    w->bad++;
                store_score_clear(&ex);
                w->conflict++;
            } else {
                w->bad++;
            }
        }
    }
    return NULL;
}

static void *board_reader(void *arg)
{
    worker *w = arg;
    store_board b = level_board("pipes", 7);
    store_entry out[20];
    for (int i = 0; i < 300; i++) {
        int n;
        bool more;
        if (store_board_page(w->s, &b, NULL, false, 20, out, &n, &more, NULL) != STORE_OK)
            w->bad++;
        for (int k = 1; k < n; k++)
            if (!rank_before(out[k - 1].score, out[k - 1].seq, out[k].score, out[k].seq))
                w->bad++;
    }
    return NULL;
}

static void concurrent_submits(void)
{
    tmpdb t;
    tmp_make(&t);
    store *s = open_db(&t, 300);
    CHECK(s != NULL);
    if (!s)
        return;
    worker w[THREADS + 1];
    memset(w, 0, sizeof w);
    int64_t players[THREADS];
    for (int i = 0; i < THREADS; i++) {
        players[i] = new_player(s, i + 1);
        for (int k = 0; k < PER_THREAD; k++)
            CHECK_EQ(issue(s, 1 + i * PER_THREAD + k, players[i], "pipes", 7, ""), STORE_OK);
    }
    pthread_t th[THREADS + 1];
    for (int i = 0; i <= THREADS; i++) {
        w[i].s = s;
        w[i].index = i;
        memcpy(w[i].players, players, sizeof players);
        pthread_create(&th[i], NULL, i < THREADS ? submit_worker : board_reader, &w[i]);
    }
    int ok = 0, conflict = 0, bad = 0;
    for (int i = 0; i <= THREADS; i++) {
        pthread_join(th[i], NULL);
        ok += w[i].ok;
        conflict += w[i].conflict;
        bad += w[i].bad;
    }
    CHECK_EQ(ok, THREADS * PER_THREAD);
    CHECK_EQ(conflict, THREADS * PER_THREAD);
    CHECK_EQ(bad, 0);
    store_board b = level_board("pipes", 7);
    CHECK(compare_with_sql(s, t.path, &b,
                           "SELECT player_id, score, seq FROM level_bests WHERE game = 'pipes'"
                           " AND level = 7 ORDER BY score DESC, seq ASC"));
    store_close(s);
    CHECK_EQ(sql_int(t.path, "SELECT COUNT(*) FROM scores"), THREADS * PER_THREAD);
    CHECK_EQ(sql_int(t.path, "SELECT COUNT(DISTINCT score_id) FROM scores"), THREADS * PER_THREAD);
    CHECK_EQ(sql_int(t.path, "SELECT COUNT(DISTINCT seq) FROM scores"), THREADS * PER_THREAD);
    /* the score log: one leaf a score, indexes 0..n-1 with no gap or double */
    CHECK_EQ(sql_int(t.path, "SELECT COUNT(*) FROM log_entries"), THREADS * PER_THREAD);
    CHECK_EQ(sql_int(t.path, "SELECT MAX(idx) + 1 - COUNT(DISTINCT idx) FROM log_entries"), 0);
    CHECK_EQ(sql_int(t.path, "SELECT size FROM log_head"), THREADS * PER_THREAD);
    CHECK_EQ(sql_int(t.path, "SELECT COUNT(*) FROM seed_tokens WHERE redeemed = 0"), 0);
    /* reopen: every score still there, each exactly once */
    s = open_db(&t, 0);
    CHECK(s != NULL);
    if (s) {
        for (int64_t nonce = 1; nonce <= THREADS * PER_THREAD; nonce++) {
            uint8_t nb[PLAY_NONCE_BYTES];
            nonce_of(nonce, nb);
            store_score got;
            CHECK_EQ(store_score_get(s, nb, &got), STORE_OK);
            CHECK_EQ(got.score, nonce % 97);
            store_score_clear(&got);
        }
        store_close(s);
    }
    tmp_remove(&t);
}

/* A board read for the first time while scores for it are committed: the
 * offers that arrive during the load must all land, none twice. */
enum { BIG = 40000, RACERS = 4, PER_RACER = 100 };

typedef struct racer {
    store *s;
    int index;
    int bad;
} racer;

static void *race_submitter(void *arg)
{
    racer *r = arg;
    for (int k = 0; k < PER_RACER; k++) {
        int64_t nonce = 1000000 + r->index * PER_RACER + k;
        /* players 1..BIG already on the board, some improving, some not */
        int64_t player = 1 + (nonce * 7919) % BIG;
        store_score sc;
        score_fill(&sc, nonce, player, "schulte", 3, "", (int64_t)((nonce * 31) % 100000));
        if (submit(r->s, &sc, NULL) != STORE_OK)
            r->bad++;
    }
    return NULL;
}

static int build_big_board(const char *path)
{
    sqlite3 *db;
    sqlite3_stmt *p = NULL, *sc = NULL, *b = NULL, *t = NULL;
    int ok = 0;
    if (sqlite3_open(path, &db) != SQLITE_OK)
        goto out;
    ok = sqlite3_exec(db, "BEGIN", NULL, NULL, NULL) == SQLITE_OK &&
         sqlite3_prepare_v2(db, "INSERT INTO players (id, name, token_hash, created_at)"
                                " VALUES (?1, 'p' || ?1, ?2, 0)", -1, &p, NULL) == SQLITE_OK &&
         sqlite3_prepare_v2(db, "INSERT INTO scores (seq, score_id, nonce, player_id, game, level,"
                                " seed, version, score, completed, received_at, moves_hash, receipt,"
                                " moves_json, result_json) VALUES (?1, '', ?2, ?1, 'schulte', 3, 0,"
                                " 1, ?3, 1, ?1, x'', '', '[]', '{}')", -1, &sc, NULL) == SQLITE_OK &&
         sqlite3_prepare_v2(db, "INSERT INTO level_bests (game, level, score, seq, player_id,"
                                " received_at, nonce) VALUES ('schulte', 3, ?3, ?1, ?1, ?1, ?2)",
                            -1, &b, NULL) == SQLITE_OK &&
         sqlite3_prepare_v2(db, "INSERT INTO seed_tokens (nonce, player_id, game, level, seed,"
                                " version, issued_at, expires_at, text) VALUES (?1, ?2, 'schulte',"
                                " 3, ?3, 1, 0, 9e15, '')", -1, &t, NULL) == SQLITE_OK;
    for (int64_t i = 1; ok && i <= BIG; i++) {
        uint8_t h[STORE_HASH_BYTES], n[PLAY_NONCE_BYTES];
        hash_of(i, h);
        nonce_of(-i, n);
        int64_t score = (int64_t)(rnd() % 50000);
        sqlite3_bind_int64(p, 1, i);
        sqlite3_bind_blob(p, 2, h, STORE_HASH_BYTES, SQLITE_TRANSIENT);
        sqlite3_bind_int64(sc, 1, i);
        sqlite3_bind_blob(sc, 2, n, PLAY_NONCE_BYTES, SQLITE_TRANSIENT);
        sqlite3_bind_int64(sc, 3, score);
        sqlite3_bind_int64(b, 1, i);
        sqlite3_bind_blob(b, 2, n, PLAY_NONCE_BYTES, SQLITE_TRANSIENT);
        sqlite3_bind_int64(b, 3, score);
        ok = sqlite3_step(p) == SQLITE_DONE && sqlite3_step(sc) == SQLITE_DONE &&
             sqlite3_step(b) == SQLITE_DONE;
        sqlite3_reset(p);
        sqlite3_reset(sc);
        sqlite3_reset(b);
    }
    for (int64_t i = 0; ok && i < RACERS * PER_RACER; i++) {
        uint8_t n[PLAY_NONCE_BYTES];
        nonce_of(1000000 + i, n);
        sqlite3_bind_blob(t, 1, n, PLAY_NONCE_BYTES, SQLITE_TRANSIENT);
        sqlite3_bind_int64(t, 2, 1 + ((1000000 + i) * 7919) % BIG);
        sqlite3_bind_int64(t, 3, (uint32_t)((1000000 + i) * 2654435761u)); /* score_fill's seed */
        ok = sqlite3_step(t) == SQLITE_DONE;
        sqlite3_reset(t);
    }
    ok = ok && sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK;
out:
    sqlite3_finalize(p);
    sqlite3_finalize(sc);
    sqlite3_finalize(b);
    sqlite3_finalize(t);
    sqlite3_close(db);
    return ok;
}

static void load_races_commits(void)
{
    tmpdb t;
    tmp_make(&t);
    store *s = open_db(&t, 0);
    CHECK(s != NULL);
    if (!s)
        return;
    store_close(s);
    CHECK(build_big_board(t.path));
    s = open_db(&t, 0);
    CHECK(s != NULL);
    if (!s)
        return;
    racer r[RACERS];
    pthread_t th[RACERS];
    for (int i = 0; i < RACERS; i++) {
        r[i].s = s;
        r[i].index = i;
        r[i].bad = 0;
        pthread_create(&th[i], NULL, race_submitter, &r[i]);
    }
    pause_ms(2);
    store_board b = level_board("schulte", 3);
    int64_t size = 0;
    CHECK_EQ(store_board_size(s, &b, &size), STORE_OK); /* the load, racing the writer */
    int bad = 0;
    for (int i = 0; i < RACERS; i++) {
        pthread_join(th[i], NULL);
        bad += r[i].bad;
    }
    CHECK_EQ(bad, 0);
    CHECK_EQ(store_board_size(s, &b, &size), STORE_OK);
    CHECK_EQ(size, BIG);
    CHECK(compare_with_sql(s, t.path, &b,
                           "SELECT player_id, score, seq FROM level_bests WHERE game = 'schulte'"
                           " AND level = 3 ORDER BY score DESC, seq ASC"));
    store_entry e;
    CHECK_EQ(store_board_rank(s, &b, 5, &e), STORE_OK);
    CHECK(strcmp(e.player_name, "p5") == 0);
    store_close(s);
    tmp_remove(&t);
}

/* Two submissions of one token committed in the same batch: the writer is
 * held in BEGIN by another connection's lock while both queue up. */
typedef struct same_token {
    store *s;
    int64_t nonce, player;
    store_status st;
    store_score ex;
} same_token;

static void *submit_one(void *arg)
{
    same_token *a = arg;
    store_score sc;
    score_fill(&sc, a->nonce, a->player, "pipes", 1, "", 500);
    a->st = submit(a->s, &sc, &a->ex);
    return NULL;
}

static void duplicate_in_one_batch(void)
{
    tmpdb t;
    tmp_make(&t);
    store *s = open_db(&t, 0);
    CHECK(s != NULL);
    if (!s)
        return;
    int64_t p = new_player(s, 1);
    CHECK_EQ(issue(s, 1, p, "pipes", 1, ""), STORE_OK);
    CHECK_EQ(issue(s, 2, p, "pipes", 1, ""), STORE_OK);
    sqlite3 *db;
    CHECK(sqlite3_open(t.path, &db) == SQLITE_OK);
    CHECK(sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) == SQLITE_OK);
    same_token a[3];
    memset(a, 0, sizeof a);
    for (int i = 0; i < 3; i++) {
        a[i].s = s;
        a[i].nonce = i == 0 ? 1 : 2;
        a[i].player = p;
        a[i].st = STORE_ERROR;
    }
    pthread_t th[3];
    pthread_create(&th[0], NULL, submit_one, &a[0]); /* the writer waits in BEGIN with it */
    pause_ms(100);
    pthread_create(&th[1], NULL, submit_one, &a[1]); /* these two queue behind it */
    pthread_create(&th[2], NULL, submit_one, &a[2]);
    pause_ms(100);
    CHECK(sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL) == SQLITE_OK);
    sqlite3_close(db);
    for (int i = 0; i < 3; i++)
        pthread_join(th[i], NULL);
    CHECK_EQ(a[0].st, STORE_OK);
    int ok = (a[1].st == STORE_OK) + (a[2].st == STORE_OK);
    int conflict = (a[1].st == STORE_CONFLICT) + (a[2].st == STORE_CONFLICT);
    CHECK(ok == 1 && conflict == 1);
    same_token *lost = a[1].st == STORE_CONFLICT ? &a[1] : &a[2];
    CHECK(lost->ex.seq > 0 && lost->ex.score == 500 && lost->ex.moves_json != NULL);
    uint8_t n2[PLAY_NONCE_BYTES];
    nonce_of(2, n2);
    CHECK(memcmp(lost->ex.p.nonce, n2, PLAY_NONCE_BYTES) == 0);
    for (int i = 0; i < 3; i++)
        if (a[i].st == STORE_CONFLICT)
            store_score_clear(&a[i].ex);
    store_close(s);
    CHECK_EQ(sql_int(t.path, "SELECT COUNT(*) FROM scores"), 2);
    tmp_remove(&t);
}

/* The new-account hold is judged inside the score's transaction
 * (store_ageing.c): a level run queued just before the daily, committed
 * in the same batch, counts toward the account's play; without it the
 * daily is held with a "new_account" record; an identity skips it. */
typedef struct queued_run {
    store *s;
    store_score sc;
    store_status st;
} queued_run;

static void *submit_queued(void *arg)
{
    queued_run *a = arg;
    a->st = submit(a->s, &a->sc, NULL);
    return NULL;
}

static void new_account_fill(store_score *sc, bool bound)
{
    sc->new_account = (store_new_account){ .hours = 1, .play_minutes = 0, .levels = 1, .runs = 1,
                                           .created_at = T0 - 2 * HOUR, .bound = bound };
}

static void new_account_in_the_transaction(void)
{
    tmpdb t;
    tmp_make(&t);
    store *s = open_db(&t, 0);
    CHECK(s != NULL);
    if (!s)
        return;
    int64_t alone = new_player(s, 1), batched = new_player(s, 2), bound = new_player(s, 3);
    store_score sc;
    /* no level run: held */
    CHECK_EQ(issue(s, 10, alone, "pipes", 4, "2025-12-02"), STORE_OK);
    score_fill(&sc, 10, alone, "pipes", 4, "2025-12-02", 700);
    new_account_fill(&sc, false);
    CHECK_EQ(submit(s, &sc, NULL), STORE_OK);
    CHECK_EQ(sc.status, SCORE_HELD);
    /* an identity: ranked without any */
    CHECK_EQ(issue(s, 30, bound, "pipes", 4, "2025-12-02"), STORE_OK);
    score_fill(&sc, 30, bound, "pipes", 4, "2025-12-02", 600);
    new_account_fill(&sc, true);
    CHECK_EQ(submit(s, &sc, NULL), STORE_OK);
    CHECK_EQ(sc.status, SCORE_RANKED);
    /* a level run and the daily queued together behind a held lock */
    CHECK_EQ(issue(s, 20, batched, "pipes", 1, ""), STORE_OK);
    CHECK_EQ(issue(s, 21, batched, "pipes", 4, "2025-12-02"), STORE_OK);
    queued_run a[2];
    memset(a, 0, sizeof a);
    a[0].s = a[1].s = s;
    score_fill(&a[0].sc, 20, batched, "pipes", 1, "", 500);
    score_fill(&a[1].sc, 21, batched, "pipes", 4, "2025-12-02", 800);
    new_account_fill(&a[1].sc, false);
    sqlite3 *db;
    CHECK(sqlite3_open(t.path, &db) == SQLITE_OK);
    CHECK(sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) == SQLITE_OK);
    pthread_t th[2];
    pthread_create(&th[0], NULL, submit_queued, &a[0]); /* the writer waits in BEGIN with it */
    pause_ms(100);
    pthread_create(&th[1], NULL, submit_queued, &a[1]); /* queued behind it */
    pause_ms(100);
    CHECK(sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL) == SQLITE_OK);
    sqlite3_close(db);
    for (int i = 0; i < 2; i++)
        pthread_join(th[i], NULL);
    CHECK_EQ(a[0].st, STORE_OK);
    CHECK_EQ(a[1].st, STORE_OK);
    CHECK_EQ(a[1].sc.status, SCORE_RANKED);
    store_close(s);
    CHECK_EQ(sql_int(t.path, "SELECT COUNT(*) FROM scores WHERE signals LIKE '%\"new_account\":{\"age_ms\":7200010,"
                             "\"completed_runs\":0,%'"),
             1);
    CHECK_EQ(sql_int(t.path, "SELECT COUNT(*) FROM scores WHERE status = 'held'"), 1);
    tmp_remove(&t);
}

static void busy_maps_to_store_busy(void)
{
    tmpdb t;
    tmp_make(&t);
    store_config cfg = { .database = t.path, .busy_timeout_ms = 50, .group_commit_max = 8 };
    store *s = NULL;
    char err[256];
    CHECK_EQ(store_open(&cfg, &s, err, sizeof err), STORE_OK);
    if (!s)
        return;
    sqlite3 *db;
    CHECK(sqlite3_open(t.path, &db) == SQLITE_OK);
    CHECK(sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) == SQLITE_OK);
    uint8_t h[STORE_HASH_BYTES];
    hash_of(1, h);
    store_player p;
    CHECK_EQ(player_create(s, "x", h, T0, &p), STORE_BUSY);
    CHECK_EQ(store_player_by_token(s, h, &p), STORE_NOT_FOUND); /* reads still work */
    CHECK(sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL) == SQLITE_OK);
    sqlite3_close(db);
    CHECK_EQ(player_create(s, "x", h, T0, &p), STORE_OK);
    store_close(s);
    tmp_remove(&t);
}

/* Forfeits, abandons and open tokens of one (game, level) per day are
 * capped; completed and long incomplete runs are not counted; another
 * level, another day and the daily are not affected. */
static void forfeit_cap(void)
{
    tmpdb t;
    tmp_make(&t);
    store *s = open_db(&t, 0);
    CHECK(s != NULL);
    if (!s)
        return;
    int64_t p = new_player(s, 1);
    store_token tok, ex;
    store_write w;
    int64_t nonce = 1;
    /* cap 3: one forfeit, one incomplete (not counted), one completed (not
     * counted), one open: 2 counted, the next is allowed (3), then refused */
    const run_outcome ends[3] = { RUN_FORFEIT, RUN_INCOMPLETE, RUN_COMPLETED };
    for (int i = 0; i < 3; i++, nonce++) {
        token_fill(&tok, nonce, p, "pipes", 5, "", T0 + i);
        CHECK_EQ(token_issue(s, &tok, 100, T0 + i, &ex), STORE_OK);
        store_score sc;
        score_fill(&sc, nonce, p, "pipes", 5, "", 1);
        sc.completed = ends[i] == RUN_COMPLETED;
        sc.outcome = ends[i];
        CHECK_EQ(submit(s, &sc, NULL), STORE_OK);
    }
    for (int i = 0; i < 3; i++, nonce++) {
        memset(&w, 0, sizeof w);
        w.kind = STORE_WRITE_TOKEN;
        token_fill(&w.u.token.token, nonce, p, "pipes", 5, "", T0 + 10);
        w.u.token.max_outstanding = 100;
        w.u.token.max_forfeits = 3;
        w.u.token.day_start = T0;
        w.u.token.now = T0 + 10;
        store_status st = store_write_wait(s, &w);
        CHECK_EQ(st, i < 2 ? STORE_OK : STORE_LIMIT); /* 1 forfeit + 2 open reach 3 */
        if (st == STORE_LIMIT)
            CHECK_EQ(w.u.token.limit, TOKEN_LIMIT_FORFEITS);
    }
    /* another level, the next day, and a daily are all still allowed */
    const struct { const char *daily; int level; int64_t day_start; } ok[3] = {
        { "", 6, T0 }, { "", 5, T0 + 24 * HOUR }, { "2025-12-02", 5, T0 } };
    for (int i = 0; i < 3; i++, nonce++) {
        memset(&w, 0, sizeof w);
        w.kind = STORE_WRITE_TOKEN;
        token_fill(&w.u.token.token, nonce, p, "pipes", ok[i].level, ok[i].daily, ok[i].day_start + 10);
        w.u.token.max_outstanding = 100;
        w.u.token.max_forfeits = 3;
        w.u.token.day_start = ok[i].day_start;
        w.u.token.now = ok[i].day_start + 10;
        CHECK_EQ(store_write_wait(s, &w), STORE_OK);
    }
    store_token_stats st;
    CHECK_EQ(store_token_stats_for(s, p, T0 + 11, &st), STORE_OK);
    CHECK(st.completed == 1 && st.incomplete == 1 && st.forfeited == 1 && st.outstanding == 5);
    store_close(s);
    tmp_remove(&t);
}

/* Another player's identical run: a timed one is refused and kept as a
 * rejection with the token left open; an untimed one is recorded held, off
 * the board; the same player's own runs and other seeds are not duplicates. */
static void duplicate_runs(void)
{
    tmpdb t;
    tmp_make(&t);
    store *s = open_db(&t, 0);
    CHECK(s != NULL);
    if (!s)
        return;
    int64_t a = new_player(s, 1), b = new_player(s, 2), c = new_player(s, 3);
    /* the same daily (seed) for everyone: nonces differ, seeds must match */
    store_score orig, copy;
    CHECK_EQ(issue(s, 1, a, "schulte", 3, "2025-12-02"), STORE_OK);
    score_fill(&orig, 1, a, "schulte", 3, "2025-12-02", 900);
    orig.timed = true;
    CHECK_EQ(submit(s, &orig, NULL), STORE_OK);
    CHECK_EQ(orig.status, SCORE_RANKED);
    store_token tok, ex;
    token_fill(&tok, 2, b, "schulte", 3, "2025-12-02", T0);
    tok.p.seed = orig.p.seed;
    CHECK_EQ(token_issue(s, &tok, 100, T0, &ex), STORE_OK);
    score_fill(&copy, 2, b, "schulte", 3, "2025-12-02", 900);
    copy.p.seed = orig.p.seed;
    memcpy(copy.moves_hash, orig.moves_hash, STORE_HASH_BYTES);
    copy.timed = true;
    CHECK_EQ(submit(s, &copy, NULL), STORE_DUPLICATE);
    CHECK_EQ(copy.duplicate_of, orig.seq);
    CHECK_EQ(token_redeemed(t.path, 2), 0);
    CHECK_EQ(sql_int(t.path, "SELECT COUNT(*) FROM rejections WHERE reason = 'duplicate_run'"), 1);
    /* an untimed copy: recorded, held, not on the board */
    token_fill(&tok, 3, c, "schulte", 3, "2025-12-02", T0);
    tok.p.seed = orig.p.seed;
    CHECK_EQ(token_issue(s, &tok, 100, T0, &ex), STORE_OK);
    score_fill(&copy, 3, c, "schulte", 3, "2025-12-02", 900);
    copy.p.seed = orig.p.seed;
    memcpy(copy.moves_hash, orig.moves_hash, STORE_HASH_BYTES);
    copy.timed = false;
    CHECK_EQ(submit(s, &copy, NULL), STORE_OK);
    CHECK_EQ(copy.status, SCORE_HELD);
    CHECK_EQ(copy.duplicate_of, orig.seq);
    store_board d = daily_board("2025-12-02");
    int64_t size = 0;
    store_entry e;
    CHECK_EQ(store_board_size(s, &d, &size), STORE_OK);
    CHECK_EQ(size, 1);
    CHECK_EQ(store_board_rank(s, &d, c, &e), STORE_NOT_FOUND);
    store_score got;
    CHECK_EQ(store_score_get(s, copy.p.nonce, &got), STORE_OK);
    CHECK(got.status == SCORE_HELD && got.duplicate_of == orig.seq);
    store_score_clear(&got);
    /* a different seed with the same moves is another level, not a copy */
    CHECK_EQ(issue(s, 4, b, "schulte", 3, ""), STORE_OK);
    score_fill(&copy, 4, b, "schulte", 3, "", 10);
    memcpy(copy.moves_hash, orig.moves_hash, STORE_HASH_BYTES);
    copy.timed = true;
    CHECK_EQ(submit(s, &copy, NULL), STORE_OK);
    CHECK_EQ(copy.status, SCORE_RANKED);
    store_close(s);
    /* after a restart the held run is still off the board */
    s = open_db(&t, 0);
    CHECK(s != NULL);
    if (s) {
        CHECK_EQ(store_board_size(s, &d, &size), STORE_OK);
        CHECK_EQ(size, 1);
        store_close(s);
    }
    tmp_remove(&t);
}

/* An operator's action through the writer, waited for. */
static store_status admin_do(store *s, admin_action a, int64_t nonce, int64_t player, const char *name,
                             int64_t now, int64_t *log_id)
{
    store_write w;
    memset(&w, 0, sizeof w);
    w.kind = STORE_WRITE_ADMIN;
    w.u.admin.action = a;
    if (nonce)
        nonce_of(nonce, w.u.admin.nonce);
    w.u.admin.player_id = player;
    snprintf(w.u.admin.name, sizeof w.u.admin.name, "%s", name ? name : "");
    snprintf(w.u.admin.reason, sizeof w.u.admin.reason, "test");
    snprintf(w.u.admin.actor, sizeof w.u.admin.actor, "tester");
    w.u.admin.now = now;
    store_status st = store_write_wait(s, &w);
    if (log_id)
        *log_id = w.u.admin.log_id;
    store_admin_clear(&w);
    return st;
}

/* The score log (issue 48): each recorded score and each operator action
 * appends its leaf (server/log/entry.c's bytes) in commit order from
 * index 0 with no gap; a refused write (a conflict, a second submission of
 * a token) appends nothing; a restart keeps the log and goes on from its
 * end. */
static void score_log_leaves(void)
{
    tmpdb t;
    tmp_make(&t);
    store *s = open_db(&t, 0);
    CHECK(s != NULL);
    if (!s)
        return;
    int64_t a = new_player(s, 1), b = new_player(s, 2);
    int64_t seq;
    CHECK_EQ(play_level(s, 101, a, "pipes", 3, "", 40, &seq), STORE_OK);
    CHECK_EQ(play_level(s, 102, b, "schulte", 1, "2026-12-07", 7, &seq), STORE_OK);
    /* the same token again: refused, no leaf */
    store_score again;
    score_fill(&again, 101, a, "pipes", 3, "", 40);
    CHECK(submit(s, &again, NULL) != STORE_OK || again.seq == 0);
    int64_t void_id = 0, restore_id = 0, ban_id = 0, unban_id = 0, rename_id = 0;
    CHECK_EQ(admin_do(s, ADMIN_VOID, 101, 0, NULL, T0 + 1000, &void_id), STORE_OK);
    CHECK_EQ(admin_do(s, ADMIN_VOID, 101, 0, NULL, T0 + 1001, NULL), STORE_CONFLICT); /* no leaf */
    CHECK_EQ(admin_do(s, ADMIN_RESTORE, 101, 0, NULL, T0 + 1002, &restore_id), STORE_OK);
    CHECK_EQ(admin_do(s, ADMIN_BAN, 0, b, NULL, T0 + 1003, &ban_id), STORE_OK);
    CHECK_EQ(admin_do(s, ADMIN_UNBAN, 0, b, NULL, T0 + 1004, &unban_id), STORE_OK);
    CHECK_EQ(admin_do(s, ADMIN_RENAME, 0, a, "Zo\xc3\xab", T0 + 1005, &rename_id), STORE_OK);
    store_close(s);
    s = open_db(&t, 0); /* a restart: the log is the database's */
    CHECK(s != NULL);
    if (!s) {
        tmp_remove(&t);
        return;
    }
    CHECK_EQ(play_level(s, 103, a, "pipes", 4, "", 41, &seq), STORE_OK);
    store_log_entry e[10];
    int n = 0;
    CHECK_EQ(store_log_entries(s, 0, 10, e, &n), STORE_OK);
    CHECK_EQ(n, 8);
    for (int i = 0; i < n; i++)
        CHECK_EQ(e[i].idx, i);
    static const int kinds[] = { LOG_KIND_SCORE, LOG_KIND_SCORE, LOG_KIND_VOID, LOG_KIND_RESTORE,
                                 LOG_KIND_BAN, LOG_KIND_UNBAN, LOG_KIND_RENAME, LOG_KIND_SCORE };
    for (int i = 0; i < n && i < 8; i++)
        CHECK_EQ(e[i].bytes[0], kinds[i]);
    /* the first score's leaf is exactly entry.c's of the score as recorded */
    store_score sc;
    score_fill(&sc, 101, a, "pipes", 3, "", 40);
    log_score_leaf want = { .player_id = a, .level = 3, .seed = sc.p.seed, .version = 1, .day = -1,
                            .score = 40, .completed = true, .held = false,
                            .submitted_at_ms = sc.received_at, .game = "pipes" };
    memcpy(want.score_id, sc.p.nonce, LOG_ENTRY_ID_BYTES);
    memcpy(want.moves_hash, sc.moves_hash, LOG_ENTRY_HASH_BYTES);
    uint8_t leaf[LOG_ENTRY_MAX];
    size_t len = log_entry_score(&want, leaf, sizeof leaf);
    CHECK_EQ(e[0].len, len);
    CHECK(len > 0 && memcmp(e[0].bytes, leaf, len) == 0);
    /* the daily's day: 2026-12-07 is day 20794 (offset 37) */
    CHECK_EQ((e[1].bytes[37] << 24) | (e[1].bytes[38] << 16) | (e[1].bytes[39] << 8) | e[1].bytes[40], 20794);
    /* the void: its admin log id, when, the score's player and id */
    log_action_leaf v = { .kind = LOG_KIND_VOID, .action_id = void_id, .at_ms = T0 + 1000, .player_id = a };
    memcpy(v.score_id, sc.p.nonce, LOG_ENTRY_ID_BYTES);
    len = log_entry_action(&v, leaf, sizeof leaf);
    CHECK(void_id > 0 && e[2].len == len && memcmp(e[2].bytes, leaf, len) == 0);
    log_action_leaf r = { .kind = LOG_KIND_RENAME, .action_id = rename_id, .at_ms = T0 + 1005, .player_id = a,
                          .name = "Zo\xc3\xab" };
    len = log_entry_action(&r, leaf, sizeof leaf);
    CHECK(e[6].len == len && memcmp(e[6].bytes, leaf, len) == 0);
    CHECK(restore_id > void_id && ban_id > restore_id && unban_id > ban_id && rename_id > unban_id);
    /* reading from the middle, and past the end */
    CHECK_EQ(store_log_entries(s, 6, 10, e, &n), STORE_OK);
    CHECK_EQ(n, 2);
    CHECK_EQ(e[0].idx, 6);
    CHECK_EQ(store_log_entries(s, 8, 10, e, &n), STORE_OK);
    CHECK_EQ(n, 0);
    store_close(s);
    CHECK_EQ(sql_int(t.path, "SELECT size FROM log_head"), 8);
    /* append-only: the database refuses to change or drop a leaf */
    CHECK_EQ(sql_int(t.path, "UPDATE log_entries SET entry = entry WHERE idx = 0 RETURNING idx"), -1);
    CHECK_EQ(sql_int(t.path, "DELETE FROM log_entries WHERE idx = 7 RETURNING idx"), -1);
    CHECK_EQ(sql_int(t.path, "SELECT COUNT(*) FROM log_entries"), 8);
    tmp_remove(&t);
}

/* ---- the score log's seal ---- */

#define LOG_ORIGIN "test.example/log"

static void log_keypair(uint8_t pk[crypto_sign_PUBLICKEYBYTES], uint8_t sk[crypto_sign_SECRETKEYBYTES])
{
    uint8_t seed[crypto_sign_SEEDBYTES];
    for (size_t i = 0; i < sizeof seed; i++)
        seed[i] = (uint8_t)(0x40 + i);
    crypto_sign_seed_keypair(pk, sk, seed);
}

/* The store with the log's key (keys) or without: leaves are then left unsealed. */
static store *open_db_log(const tmpdb *t, bool keys)
{
    store_config cfg = { .database = t->path, .busy_timeout_ms = 2000, .group_commit_max = 64,
                         .group_commit_wait_us = 2000 };
    snprintf(cfg.log.origin, sizeof cfg.log.origin, "%s", LOG_ORIGIN);
    if (keys) {
        uint8_t pk[crypto_sign_PUBLICKEYBYTES];
        log_keypair(pk, cfg.log.secret[0]);
        cfg.log.n = 1;
    }
    store *s = open_cfg(&cfg);
    sodium_memzero(&cfg.log, sizeof cfg.log);
    return s;
}

/* A score write's tlog-proof (store.h): the C2SP form, its leaf's index,
 * the checkpoint its transaction signed, opening with the log's key, and
 * the inclusion of the leaf as the store holds it under that root. Only
 * when the store has the keys (the others make no proof). */
static bool proof_checks(store *s, const store_write *w)
{
    if (!w->log_proof)
        return false;
    const char *text = w->log_proof;
    char head[64];
    snprintf(head, sizeof head, "c2sp.org/tlog-proof@v1\nindex %lld\n", (long long)w->log_index);
    if (strncmp(text, head, strlen(head)) != 0)
        return false;
    merkle_proof proof = { .len = 0 };
    const char *at = text + strlen(head);
    while (*at != '\n' && proof.len < MERKLE_PROOF_MAX) {
        const char *end = strchr(at, '\n');
        size_t got = 0;
        if (!end || sodium_base642bin(proof.hash[proof.len], MERKLE_HASH_BYTES, at, (size_t)(end - at), NULL,
                                      &got, NULL, sodium_base64_VARIANT_ORIGINAL) != 0 ||
            got != MERKLE_HASH_BYTES)
            return false;
        proof.len++;
        at = end + 1;
    }
    if (*at != '\n')
        return false;
    const char *note = at + 1;
    uint8_t pk[crypto_sign_PUBLICKEYBYTES], sk[crypto_sign_SECRETKEYBYTES];
    log_keypair(pk, sk);
    note_verifier v;
    checkpoint c;
    store_log_entry e;
    int n = 0;
    if (note_verifier_make(LOG_ORIGIN, pk, &v) != NOTE_OK ||
        checkpoint_open(note, strlen(note), LOG_ORIGIN, &v, 1, &c) != CHECKPOINT_OK ||
        store_log_entries(s, w->log_index, 1, &e, &n) != STORE_OK || n != 1)
        return false;
    uint8_t leaf[MERKLE_HASH_BYTES];
    merkle_leaf_hash(e.bytes, e.len, leaf);
    return merkle_verify_inclusion((uint64_t)w->log_index, c.size, leaf, &proof, c.root) == MERKLE_OK;
}

typedef struct countdown {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int left;
} countdown;

static void count_down(store_write *w)
{
    countdown *c = w->ctx;
    pthread_mutex_lock(&c->mu);
    if (--c->left == 0)
        pthread_cond_signal(&c->cv);
    pthread_mutex_unlock(&c->mu);
}

/* n level scores of player, nonces from..from+n-1, sent all at once so the
 * writer batches them; true when every one was recorded, with a proof
 * that checks when the store has the log's keys, else none. */
static bool play_many(store *s, int64_t player, int64_t from, int n, bool keys)
{
    if (n < 1 || n > 1000)
        return false;
    for (int i = 0; i < n; i++)
        if (issue(s, from + i, player, "pipes", 1 + i % 5, "") != STORE_OK)
            return false;
    store_write *w = calloc((size_t)n, sizeof *w);
    if (!w)
        return false;
    countdown c = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, n };
    for (int i = 0; i < n; i++) {
        w[i].kind = STORE_WRITE_SCORE;
        w[i].done = count_down;
        w[i].ctx = &c;
        score_fill(&w[i].u.score.score, from + i, player, "pipes", 1 + i % 5, "", i);
        store_write_async(s, &w[i]);
    }
    pthread_mutex_lock(&c.mu);
    while (c.left > 0)
        pthread_cond_wait(&c.cv, &c.mu);
    pthread_mutex_unlock(&c.mu);
    bool ok = true;
    for (int i = 0; i < n; i++) {
        ok = ok && w[i].status == STORE_OK && w[i].logged &&
             (keys ? proof_checks(s, &w[i]) : w[i].log_proof == NULL);
        free(w[i].log_proof);
        free(w[i].u.score.score.signals_json);
        store_score_clear(&w[i].u.score.existing);
    }
    free(w);
    return ok;
}

/* The checkpoint opens with the log's key under its origin and names the
 * tree of every leaf in the database, whose root is recomputed here from
 * the leaves alone; *level8 gets the tree's first level-8 hash when it has
 * 256 leaves or more. */
static bool checkpoint_covers_log(store *s, uint64_t want_size, uint8_t level8[MERKLE_HASH_BYTES])
{
    char note[STORE_LOG_NOTE_MAX];
    int64_t size = -1;
    if (store_log_checkpoint(s, &size, note, sizeof note) != STORE_OK || size != (int64_t)want_size)
        return false;
    uint8_t pk[crypto_sign_PUBLICKEYBYTES], sk[crypto_sign_SECRETKEYBYTES];
    log_keypair(pk, sk);
    note_verifier v;
    checkpoint c;
    if (note_verifier_make(LOG_ORIGIN, pk, &v) != NOTE_OK ||
        checkpoint_open(note, strlen(note), LOG_ORIGIN, &v, 1, &c) != CHECKPOINT_OK || c.size != want_size)
        return false;
    merkle_frontier f;
    frontier_decode(0, NULL, 0, &f);
    store_log_entry e[64];
    int n = 0;
    do {
        if (store_log_entries(s, (int64_t)f.size, 64, e, &n) != STORE_OK)
            return false;
        for (int i = 0; i < n; i++) {
            uint8_t h[MERKLE_HASH_BYTES];
            merkle_stored added[MERKLE_PROOF_MAX];
            int count;
            merkle_leaf_hash(e[i].bytes, e[i].len, h);
            frontier_append(&f, h, added, &count);
            if (count > 8 && added[8].index == 0)
                memcpy(level8, added[8].hash, MERKLE_HASH_BYTES);
        }
    } while (n > 0);
    uint8_t root[MERKLE_HASH_BYTES];
    frontier_root(&f, root);
    return f.size == want_size && memcmp(root, c.root, sizeof root) == 0;
}

static void score_log_sealed(void)
{
    tmpdb t;
    tmp_make(&t);
    store *s = open_db_log(&t, true);
    CHECK(s != NULL);
    if (!s)
        return;
    /* the empty log's first checkpoint, at start; a second seal adds nothing */
    CHECK_EQ(store_log_seal(s), STORE_OK);
    uint8_t level8[MERKLE_HASH_BYTES] = { 0 }, stored[1][32];
    CHECK(checkpoint_covers_log(s, 0, level8));
    CHECK_EQ(store_log_seal(s), STORE_OK);
    CHECK(checkpoint_covers_log(s, 0, level8));
    /* 300 scores, batched: one checkpoint per transaction, covering all */
    int64_t a = new_player(s, 1);
    CHECK(play_many(s, a, 1000, 150, true));
    CHECK(play_many(s, a, 2000, 150, true));
    CHECK(checkpoint_covers_log(s, 300, level8));
    /* the stored hash the first full tile makes: level 8, index 0, no other */
    int n = 0;
    CHECK_EQ(store_log_hashes(s, 8, 0, 1, stored, &n), STORE_OK);
    CHECK_EQ(n, 1);
    CHECK(memcmp(stored[0], level8, 32) == 0);
    CHECK_EQ(store_log_hashes(s, 8, 1, 1, stored, &n), STORE_OK);
    CHECK_EQ(n, 0);
    store_close(s);
    CHECK_EQ(sql_int(t.path, "SELECT COUNT(*) FROM log_hashes"), 1);
    /* a store without the keys appends and leaves the leaves unsealed... */
    s = open_db_log(&t, false);
    CHECK(s != NULL);
    if (!s) {
        tmp_remove(&t);
        return;
    }
    CHECK(play_many(s, a, 3000, 2, false));
    CHECK_EQ(store_log_seal(s), STORE_OK);
    store_close(s);
    CHECK_EQ(sql_int(t.path, "SELECT size FROM log_checkpoint"), 300);
    CHECK_EQ(sql_int(t.path, "SELECT size FROM log_head"), 302);
    /* ...for the next store with them: its seal at start covers them */
    s = open_db_log(&t, true);
    CHECK(s != NULL);
    if (!s) {
        tmp_remove(&t);
        return;
    }
    CHECK_EQ(store_log_seal(s), STORE_OK);
    CHECK(checkpoint_covers_log(s, 302, level8));
    store_close(s);
    /* append-only: the database refuses to change or drop a stored hash */
    CHECK_EQ(sql_int(t.path, "UPDATE log_hashes SET hash = hash RETURNING level"), -1);
    CHECK_EQ(sql_int(t.path, "DELETE FROM log_hashes RETURNING level"), -1);
    CHECK_EQ(sql_int(t.path, "SELECT COUNT(*) FROM log_hashes"), 1);
    tmp_remove(&t);
}

int main(void)
{
    RUN(migrations_fresh_and_reopen);
    RUN(players_and_token_lookup);
    RUN(token_limits_and_daily);
    RUN(token_stats_abandoned);
    RUN(submit_conflict_and_idempotency_data);
    RUN(rejections_bounded);
    RUN(board_memory_bounded);
    RUN(bests_replace_rule);
    RUN(board_order_ties_and_pages);
    RUN(cursor_under_inserts);
    RUN(rank_and_around_edges);
    RUN(rank_matches_brute_force);
    RUN(order_matches_sql_on_random_data);
    RUN(concurrent_submits);
    RUN(load_races_commits);
    RUN(duplicate_in_one_batch);
    RUN(new_account_in_the_transaction);
    RUN(busy_maps_to_store_busy);
    RUN(forfeit_cap);
    RUN(duplicate_runs);
    RUN(statement_counts_checked_at_open);
    RUN(score_log_leaves);
    RUN(score_log_sealed);
    /* The same semantics on the PostgreSQL backend: every test that does
     * not open the SQLite file itself. */
    pg_base = getenv("REPLAYD_TEST_PG");
    if (pg_base && pg_base[0]) {
#define RUN_PG(fn)                                                                         \
    do {                                                                                   \
        check_name_ = "pg/" #fn;                                                           \
        check_failed_ = 0;                                                                 \
        fn();                                                                              \
        if (!check_failed_)                                                                \
            printf("PASS pg/%s\n", #fn);                                                   \
        check_total_failed_ += check_failed_;                                              \
        fflush(stdout);                                                                    \
    } while (0)
        RUN_PG(players_and_token_lookup);
        RUN_PG(token_limits_and_daily);
        RUN_PG(token_stats_abandoned);
        RUN_PG(submit_conflict_and_idempotency_data);
        RUN_PG(rejections_bounded);
        RUN_PG(board_memory_bounded);
        RUN_PG(bests_replace_rule);
        RUN_PG(board_order_ties_and_pages);
        RUN_PG(cursor_under_inserts);
        RUN_PG(rank_and_around_edges);
        RUN_PG(forfeit_cap);
        RUN_PG(duplicate_runs);
        RUN_PG(statement_counts_checked_at_open);
        RUN_PG(score_log_leaves);
        RUN_PG(score_log_sealed);
    } else {
        pg_base = NULL;
    }
    CHECK_DONE();
}
