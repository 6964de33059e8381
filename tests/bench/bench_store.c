/*
 * bench_store: the storage layer's figures, side by side in one run.
 *
 * 1. Raw SQLite inserts with the store's durability (WAL, synchronous=FULL):
 *    one row per transaction, then rows in batches of 64 and 512.
 * 2. store_submit through group commit from 1, 8 and 64 threads, with the
 *    ratio to the raw single-row rate.
 * 3. A level board of 1,000,000 scores (bulk-built with plain SQL): its lazy
 *    load time, then median and p99 of top-100, a player's rank, around-me
 *    (10) and a page deep in the board, beside one SQL COUNT(*) rank.
 * Everything lives in a temporary directory under /tmp, removed at the end.
 */
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../server/store/store.h"

#ifndef BOARD_SIZE
#define BOARD_SIZE 1000000
#endif
#define QUERIES 1000
#define SUBMIT_SECONDS 2.0
#define RAW_SECONDS 2.0

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void pct(double *v, int n, double *p50, double *p99)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    *p50 = v[n / 2];
    *p99 = v[(int)((double)n * 0.99)];
}

static uint64_t rng_state = 0x2545F4914F6CDD1Du;
static uint64_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static char dir[64];

static void path_in(char *out, size_t n, const char *name)
{
    snprintf(out, n, "%s/%s", dir, name);
}

static void remove_db(const char *path)
{
    char p[160];
    const char *suffix[] = { "", "-wal", "-shm" };
    for (int i = 0; i < 3; i++) {
        snprintf(p, sizeof p, "%s%s", path, suffix[i]);
        unlink(p);
    }
}

static int exec(sqlite3 *db, const char *sql)
{
    char *err = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK) {
        fprintf(stderr, "bench_store: %s: %s\n", sql, err ? err : "?");
        sqlite3_free(err);
        return -1;
    }
    return 0;
}

/* ---- 1. raw SQLite ---- */

static double raw_rate(const char *path, int batch, double seconds)
{
    sqlite3 *db;
    sqlite3_stmt *st = NULL;
    double rate = 0;
    remove_db(path);
    if (sqlite3_open(path, &db) != SQLITE_OK)
        goto out;
    if (exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;"
                 " CREATE TABLE t (id INTEGER PRIMARY KEY, h BLOB, body TEXT)") != 0)
        goto out;
    if (sqlite3_prepare_v2(db, "INSERT INTO t (h, body) VALUES (?, ?)", -1, &st, NULL) != SQLITE_OK)
        goto out;
    static const uint8_t h[32];
    char body[256];
    memset(body, 'm', sizeof body - 1);
    body[sizeof body - 1] = '\0';
    long rows = 0;
    double t0 = now_s(), t;
    do {
        exec(db, "BEGIN IMMEDIATE");
        for (int i = 0; i < batch; i++) {
            sqlite3_bind_blob(st, 1, h, 32, SQLITE_STATIC);
            sqlite3_bind_text(st, 2, body, -1, SQLITE_STATIC);
            sqlite3_step(st);
            sqlite3_reset(st);
        }
        exec(db, "COMMIT");
        rows += batch;
        t = now_s();
    } while (t - t0 < seconds);
    rate = (double)rows / (t - t0);
out:
    sqlite3_finalize(st);
    sqlite3_close(db);
    remove_db(path);
    return rate;
}

/* ---- 2. store_submit through group commit ---- */

#define SUBMIT_TOKENS 400000

typedef struct submit_run {
    store *s;
    pthread_mutex_t mu;
    long next; /* the next token nonce to submit */
    double deadline;
    double *lat;
    long nlat, cap;
    long errors;
} submit_run;

static void nonce_of(long i, uint8_t n[16])
{
    memset(n, 0, 16);
    memcpy(n, &i, sizeof i);
}

static void *submitter(void *arg)
{
    submit_run *r = arg;
    char moves[600];
    memset(moves, 'x', sizeof moves - 1);
    moves[sizeof moves - 1] = '\0';
    for (;;) {
        pthread_mutex_lock(&r->mu);
        long i = r->next++;
        pthread_mutex_unlock(&r->mu);
        if (i >= SUBMIT_TOKENS || now_s() > r->deadline)
            break;
        store_write w;
        memset(&w, 0, sizeof w);
        w.kind = STORE_WRITE_SCORE;
        store_score *sc = &w.u.score.score;
        nonce_of(i, sc->p.nonce);
        sc->p.player_id = 1 + i % 1000;
        sc->p.g = game_find("schulte");
        sc->p.level = 1 + (int)(i % 15);
        sc->p.seed = 1;
        sc->p.version = 1;
        sc->p.day = -1;
        play_score_id(&sc->p, sc->score_id);
        sc->score = (int64_t)(((uint64_t)i * 2654435761u) % 100000);
        sc->completed = true;
        sc->received_at = 1;
        snprintf(sc->receipt, sizeof sc->receipt, "receipt");
        sc->moves_json = moves;
        sc->result_json = (char *)"{}";
        double t0 = now_s();
        store_status st = store_write_wait(r->s, &w);
        double dt = now_s() - t0;
        if (st == STORE_CONFLICT)
            store_score_clear(&w.u.score.existing);
        pthread_mutex_lock(&r->mu);
        if (st != STORE_OK)
            r->errors++;
        if (r->nlat < r->cap)
            r->lat[r->nlat++] = dt;
        pthread_mutex_unlock(&r->mu);
    }
    return NULL;
}

/* Players 1..1000 and SUBMIT_TOKENS unredeemed tokens, by plain SQL. */
static int seed_tokens(const char *path)
{
    sqlite3 *db;
    sqlite3_stmt *p = NULL, *t = NULL;
    int rc = -1;
    if (sqlite3_open(path, &db) != SQLITE_OK)
        goto out;
    if (exec(db, "PRAGMA synchronous=OFF; BEGIN") != 0)
        goto out;
    if (sqlite3_prepare_v2(db, "INSERT INTO players (id, name, token_hash, created_at)"
                               " VALUES (?, ?, ?, 0)", -1, &p, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db, "INSERT INTO seed_tokens (nonce, player_id, game, level, seed,"
                               " version, issued_at, expires_at, daily_date, text, redeemed)"
                               " VALUES (?, ?, 'schulte', ?, 1, 1, 0, 9e15, '', 't', 0)",
                           -1, &t, NULL) != SQLITE_OK)
        goto out;
    for (long i = 1; i <= 1000; i++) {
        uint8_t h[32] = { 0 };
        memcpy(h, &i, sizeof i);
        char name[32];
        snprintf(name, sizeof name, "p%ld", i);
        sqlite3_bind_int64(p, 1, i);
        sqlite3_bind_text(p, 2, name, -1, SQLITE_TRANSIENT);
        sqlite3_bind_blob(p, 3, h, 32, SQLITE_TRANSIENT);
        if (sqlite3_step(p) != SQLITE_DONE)
            goto out;
        sqlite3_reset(p);
    }
    for (long i = 0; i < SUBMIT_TOKENS; i++) {
        uint8_t n[16];
        nonce_of(i, n);
        sqlite3_bind_blob(t, 1, n, 16, SQLITE_TRANSIENT);
        sqlite3_bind_int64(t, 2, 1 + i % 1000);
        sqlite3_bind_int(t, 3, 1 + (int)(i % 15));
        if (sqlite3_step(t) != SQLITE_DONE)
            goto out;
        sqlite3_reset(t);
    }
    rc = exec(db, "COMMIT");
out:
    sqlite3_finalize(p);
    sqlite3_finalize(t);
    sqlite3_close(db);
    return rc;
}

static int submit_bench(const char *path, const char *raw_path)
{
    store_config cfg = { .database = path, .busy_timeout_ms = 5000, .group_commit_max = 128,
                         .group_commit_wait_us = 1000 };
    store *s = NULL;
    char err[256];
    remove_db(path);
    if (store_open(&cfg, &s, err, sizeof err) != STORE_OK) {
        fprintf(stderr, "bench_store: %s\n", err);
        return -1;
    }
    store_close(s);
    if (seed_tokens(path) != 0)
        return -1;
    if (store_open(&cfg, &s, err, sizeof err) != STORE_OK) {
        fprintf(stderr, "bench_store: %s\n", err);
        return -1;
    }
    printf("store_submit through group commit (at most %d per transaction, waits up to %d us"
           " for more):\n", cfg.group_commit_max, cfg.group_commit_wait_us);
    const int threads[3] = { 1, 8, 64 };
    submit_run r;
    memset(&r, 0, sizeof r);
    pthread_mutex_init(&r.mu, NULL);
    r.s = s;
    r.cap = SUBMIT_TOKENS;
    r.lat = malloc((size_t)r.cap * sizeof *r.lat);
    for (int k = 0; k < 3 && r.lat; k++) {
        r.nlat = 0;
        double raw_before = raw_rate(raw_path, 1, 0.75);
        double t0 = now_s();
        r.deadline = t0 + SUBMIT_SECONDS;
        pthread_t th[64];
        for (int i = 0; i < threads[k]; i++)
            pthread_create(&th[i], NULL, submitter, &r);
        for (int i = 0; i < threads[k]; i++)
            pthread_join(th[i], NULL);
        double dt = now_s() - t0;
        long done = r.nlat;
        double rate = (double)done / dt, p50, p99;
        pct(r.lat, (int)r.nlat, &p50, &p99);
        /* the disk is shared and noisy: the reference is measured around it */
        double raw_after = raw_rate(raw_path, 1, 0.75), raw1 = (raw_before + raw_after) / 2;
        printf("  %2d threads: %7.0f submits/s  p50 %6.3f ms  p99 %7.3f ms  (%ld submits,"
               " %ld errors)\n", threads[k], rate, p50 * 1e3, p99 * 1e3, done, r.errors);
        printf("              raw single-row transactions before/after: %.0f/%.0f per s;"
               " ratio %.2fx\n", raw_before, raw_after, rate / raw1);
    }
    free(r.lat);
    pthread_mutex_destroy(&r.mu);
    store_close(s);
    remove_db(path);
    return 0;
}

/* ---- 3. a board of a million ---- */

static int build_board(const char *path)
{
    sqlite3 *db;
    sqlite3_stmt *p = NULL, *sc = NULL, *b = NULL;
    int rc = -1;
    if (sqlite3_open(path, &db) != SQLITE_OK)
        goto out;
    if (exec(db, "PRAGMA synchronous=OFF; PRAGMA cache_size=-400000; BEGIN") != 0)
        goto out;
    if (sqlite3_prepare_v2(db, "INSERT INTO players (id, name, token_hash, created_at)"
                               " VALUES (?, ?, ?, 0)", -1, &p, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db, "INSERT INTO scores (seq, score_id, nonce, player_id, game, level,"
                               " seed, version, daily_date, score, completed, received_at,"
                               " moves_hash, receipt, moves_json, result_json) VALUES"
                               " (?, ?, ?, ?, 'pipes', 1, 1, 1, '', ?, 1, ?, ?, 'r', '[]', '{}')",
                           -1, &sc, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db, "INSERT INTO level_bests (game, level, player_id, score, seq,"
                               " received_at, nonce) VALUES ('pipes', 1, ?, ?, ?, ?, ?)",
                           -1, &b, NULL) != SQLITE_OK)
        goto out;
    static const uint8_t zero[32];
    for (long i = 1; i <= BOARD_SIZE; i++) {
        uint8_t h[32] = { 0 };
        memcpy(h, &i, sizeof i);
        h[31] = 1;
        char name[32], id[33];
        snprintf(name, sizeof name, "player%ld", i);
        sqlite3_bind_int64(p, 1, i);
        sqlite3_bind_text(p, 2, name, -1, SQLITE_TRANSIENT);
        sqlite3_bind_blob(p, 3, h, 32, SQLITE_TRANSIENT);
        if (sqlite3_step(p) != SQLITE_DONE)
            goto out;
        sqlite3_reset(p);
        int64_t score = (int64_t)(rnd() % 200000); /* ties: ~5 per score */
        snprintf(id, sizeof id, "%032lx", i);
        sqlite3_bind_int64(sc, 1, i);
        sqlite3_bind_text(sc, 2, id, -1, SQLITE_TRANSIENT);
        sqlite3_bind_blob(sc, 3, h, 16, SQLITE_TRANSIENT);
        sqlite3_bind_int64(sc, 4, i);
        sqlite3_bind_int64(sc, 5, score);
        sqlite3_bind_int64(sc, 6, i);
        sqlite3_bind_blob(sc, 7, zero, 32, SQLITE_STATIC);
        if (sqlite3_step(sc) != SQLITE_DONE)
            goto out;
        sqlite3_reset(sc);
        sqlite3_bind_int64(b, 1, i);
        sqlite3_bind_int64(b, 2, score);
        sqlite3_bind_int64(b, 3, i);
        sqlite3_bind_int64(b, 4, i);
        sqlite3_bind_blob(b, 5, h, 16, SQLITE_TRANSIENT);
        if (sqlite3_step(b) != SQLITE_DONE)
            goto out;
        sqlite3_reset(b);
    }
    rc = exec(db, "COMMIT");
out:
    sqlite3_finalize(p);
    sqlite3_finalize(sc);
    sqlite3_finalize(b);
    sqlite3_close(db);
    return rc;
}

/* Resident memory in KiB, from /proc (0 where there is none). */
static long rss_kib(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kib = 0;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "VmRSS: %ld", &kib) == 1)
            break;
    if (f)
        fclose(f);
    return kib;
}

static void report(const char *what, double *v, int n)
{
    double p50, p99;
    pct(v, n, &p50, &p99);
    printf("  %-28s p50 %8.2f us   p99 %8.2f us\n", what, p50 * 1e6, p99 * 1e6);
}

static double sql_count_rank(const char *path, int64_t score, int64_t seq)
{
    sqlite3 *db;
    sqlite3_stmt *st;
    double dt = -1;
    if (sqlite3_open(path, &db) != SQLITE_OK)
        return -1;
    if (sqlite3_prepare_v2(db, "SELECT COUNT(*) FROM level_bests WHERE game = 'pipes' AND"
                               " level = 1 AND (score > ?1 OR (score = ?1 AND seq < ?2))",
                           -1, &st, NULL) == SQLITE_OK) {
        double t0 = now_s();
        sqlite3_bind_int64(st, 1, score);
        sqlite3_bind_int64(st, 2, seq);
        sqlite3_step(st);
        dt = now_s() - t0;
        sqlite3_finalize(st);
    }
    sqlite3_close(db);
    return dt;
}

static int board_bench(const char *path)
{
    store_config cfg = { .database = path, .busy_timeout_ms = 5000, .group_commit_max = 128,
                         .group_commit_wait_us = 1000 };
    store *s = NULL;
    char err[256];
    remove_db(path);
    if (store_open(&cfg, &s, err, sizeof err) != STORE_OK) {
        fprintf(stderr, "bench_store: %s\n", err);
        return -1;
    }
    store_close(s);
    double t0 = now_s();
    if (build_board(path) != 0)
        return -1;
    double built = now_s() - t0;
    if (store_open(&cfg, &s, err, sizeof err) != STORE_OK) {
        fprintf(stderr, "bench_store: %s\n", err);
        return -1;
    }
    store_board b = { -1, game_find("pipes"), 1 };
    int64_t size = 0;
    long rss0 = rss_kib();
    t0 = now_s();
    store_status st = store_board_size(s, &b, &size);
    double load = now_s() - t0;
    long rss1 = rss_kib();
    printf("level board of %lld scores (built by plain SQL in %.1f s):\n", (long long)size, built);
    printf("  lazy load from SQLite        %.0f ms (resident memory +%ld MiB: %.0f bytes per entry)\n",
           load * 1e3, (rss1 - rss0) / 1024, (double)(rss1 - rss0) * 1024.0 / (double)(size ? size : 1));
    if (st != STORE_OK || size != BOARD_SIZE) {
        store_close(s);
        return -1;
    }
    static double lat[QUERIES];
    store_entry out[100];
    int n, self;
    bool more;
    long bad = 0;
    for (int i = 0; i < QUERIES; i++) {
        t0 = now_s();
        if (store_board_page(s, &b, NULL, false, 100, out, &n, &more, NULL) != STORE_OK || n != 100)
            bad++;
        lat[i] = now_s() - t0;
    }
    report("top-100 page", lat, QUERIES);
    store_entry mid;
    int64_t mid_player = 0;
    for (int i = 0; i < QUERIES; i++) {
        int64_t player = 1 + (int64_t)(rnd() % BOARD_SIZE);
        t0 = now_s();
        if (store_board_rank(s, &b, player, &mid) != STORE_OK)
            bad++;
        lat[i] = now_s() - t0;
        if (mid.rank > BOARD_SIZE / 3 && mid.rank < 2 * BOARD_SIZE / 3)
            mid_player = player;
    }
    report("rank of a player", lat, QUERIES);
    for (int i = 0; i < QUERIES; i++) {
        int64_t player = 1 + (int64_t)(rnd() % BOARD_SIZE);
        t0 = now_s();
        if (store_board_around(s, &b, player, 10, out, &n, &self) != STORE_OK || n < 11)
            bad++;
        lat[i] = now_s() - t0;
    }
    report("around-me (10 either side)", lat, QUERIES);
    store_board_rank(s, &b, mid_player, &mid);
    store_board_key key = { mid.score, mid.seq };
    for (int i = 0; i < QUERIES; i++) {
        t0 = now_s();
        if (store_board_page(s, &b, &key, false, 100, out, &n, &more, NULL) != STORE_OK || n != 100)
            bad++;
        lat[i] = now_s() - t0;
    }
    report("page of 100 after a mid key", lat, QUERIES);
    double sql = sql_count_rank(path, mid.score, mid.seq);
    printf("  for contrast, one SQL COUNT(*) rank of the same mid player: %.1f ms\n", sql * 1e3);
    if (bad)
        printf("  %ld queries failed\n", bad);
    store_close(s);
    remove_db(path);
    return bad ? -1 : 0;
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/replayd-bench-XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    char raw[128], sub[128], brd[128];
    path_in(raw, sizeof raw, "raw.sqlite");
    path_in(sub, sizeof sub, "submit.sqlite");
    path_in(brd, sizeof brd, "board.sqlite");
    printf("bench_store (SQLite %s, WAL, synchronous=FULL)\n", sqlite3_libversion());
    double r1 = raw_rate(raw, 1, RAW_SECONDS), r64 = raw_rate(raw, 64, RAW_SECONDS),
           r512 = raw_rate(raw, 512, RAW_SECONDS);
    printf("raw SQLite inserts, same durability:\n");
    printf("  1 row per transaction    %8.0f rows/s\n", r1);
    printf("  64 rows per transaction  %8.0f rows/s  (%.1fx)\n", r64, r64 / r1);
    printf("  512 rows per transaction %8.0f rows/s  (%.1fx)\n", r512, r512 / r1);
    int rc = submit_bench(sub, raw);
    if (rc == 0)
        rc = board_bench(brd);
    rmdir(dir);
    return rc == 0 ? 0 : 1;
}
