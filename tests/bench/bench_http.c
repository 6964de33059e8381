#define _GNU_SOURCE /* memmem */
/*
 * bench_http: verified submissions per second over loopback against a real
 * `bin/replayd serve`, beside a bare libmicrohttpd handler that answers 200
 * to the same POST bodies and beside the Node.js reference server
 * (tests/bench/node_ref: the same work in Node with the JavaScript port and
 * better-sqlite3), at 1, 8 and 64 connections, in one run. BENCH_NODE=0
 * leaves the Node server out. replayd runs twice, side by side: with its
 * default v3 receipts (the score log: one signed checkpoint a commit batch)
 * and with receipt_version = 2 (one Ed25519 receipt signature a score as
 * well); each timed run reads the signatures it cost from /metrics. Last,
 * GETs of the log's checkpoint, a full level-0 hash tile and a full entry
 * bundle are timed at 8 connections on the default server.
 *
 * Setup (untimed): register players, issue seed tokens, compute each
 * level's solution with the game code, build the request bodies. Timed: each
 * connection thread sends its share of submissions back to back on one
 * keep-alive connection. Every submission is a fresh token, so every one is
 * a full verification and a durable (group-)commit.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>
#include <microhttpd.h>
#include <sqlite3.h>

#include "../../core/game.h"
#include "../../server/base/json_game.h"
#include "http_client.h"
#include "replayd_metrics.h"
#include "solutions.h"

/* Submissions per timed run; BENCH_PER_RUN changes it (for profiling). */
static int per_run = 2400;
#define MAX_CONNS 64
/* GETs of each log path, at LOG_GET_CONNS connections */
#define LOG_GETS 3000
#define LOG_GET_CONNS 8

/* ---- the work: one prepared submission ---- */

typedef struct job {
    const char *bearer;
    char *body;
} job;

/* The typical full solution of docs/BENCH.md (solutions.h), as JSON. */
static json_t *solution(const game *g, uint32_t seed)
{
    game_level *level = malloc(g->level_size);
    game_move *moves = malloc(MAX_MOVES * sizeof *moves);
    game_generate(g, level, g->version, 1, seed);
    int n = typical(g, level, moves);
    json_t *out = moves_to_json(g, g->version, moves, (size_t)n);
    free(moves);
    free(level);
    return out;
}

/* The longest time the prepared runs claim (their last move's t). */
static int64_t max_claimed_ms;

static int64_t claimed_ms(const json_t *moves)
{
    const json_t *last = json_array_get(moves, json_array_size(moves) ? json_array_size(moves) - 1 : 0);
    const json_t *t = last ? json_object_get(last, "t") : NULL;
    return t ? (int64_t)json_integer_value(t) : 0;
}

static job *prepare(int port, const game *g, int n_players, int per_player, char **bearers)
{
    conn c;
    job *jobs = calloc((size_t)(n_players * per_player), sizeof *jobs);
    if (!jobs || conn_open(&c, port) != 0) {
        free(jobs);
        return NULL;
    }
    char req[64];
    snprintf(req, sizeof req, "{\"game\":\"%s\",\"level\":1}", g->name);
    for (int p = 0; p < n_players; p++) {
        for (int k = 0; k < per_player; k++) {
            char *resp = NULL;
            if (conn_request(&c, "POST", "/v1/seeds", bearers[p], req, &resp) != 201) {
                fprintf(stderr, "bench_http: seed request failed: %s\n", resp ? resp : "");
                exit(1);
            }
            json_t *s = json_loads(resp, 0, NULL);
            free(resp);
            json_t *body = json_pack("{s:O,s:o}", "seed_token", json_object_get(s, "seed_token"), "moves",
                                     solution(g, (uint32_t)json_integer_value(json_object_get(s, "seed"))));
            int64_t claimed = claimed_ms(json_object_get(body, "moves"));
            if (claimed > max_claimed_ms)
                max_claimed_ms = claimed;
            jobs[p * per_player + k].bearer = bearers[p];
            jobs[p * per_player + k].body = json_dumps(body, JSON_COMPACT);
            json_decref(body);
            json_decref(s);
        }
    }
    close(c.fd);
    return jobs;
}

/* ---- the timed run ---- */

typedef struct run {
    int port;
    job *jobs;     /* POST /v1/scores each job's body, or */
    const char *path; /* GET this path n times */
    int n;
    atomic_int next;
    int64_t *lat_ns;
    atomic_int ok, bad;
} run;

static void *worker(void *arg)
{
    run *r = arg;
    conn c;
    if (conn_open(&c, r->port) != 0)
        return NULL;
    for (;;) {
        int i = atomic_fetch_add(&r->next, 1);
        if (i >= r->n)
            break;
        int64_t t0 = mono_ns();
        int st = r->path ? conn_request(&c, "GET", r->path, NULL, NULL, NULL)
                         : conn_request(&c, "POST", "/v1/scores", r->jobs[i].bearer, r->jobs[i].body, NULL);
        r->lat_ns[i] = mono_ns() - t0;
        if (st == 200)
            atomic_fetch_add(&r->ok, 1);
        else
            atomic_fetch_add(&r->bad, 1);
        if (st < 0 && conn_open(&c, r->port) != 0)
            break;
    }
    close(c.fd);
    return NULL;
}

static int cmp64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

typedef struct figures {
    double per_s, p50_ms, p99_ms;
    int ok, bad;
} figures;

/* n submissions of jobs, or (jobs NULL) n GETs of path, on conns connections */
static figures timed_run(int port, job *jobs, const char *path, int n, int conns)
{
    run r = { .port = port, .jobs = jobs, .path = path, .n = n, .lat_ns = calloc((size_t)n, sizeof(int64_t)) };
    pthread_t th[MAX_CONNS];
    int64_t t0 = mono_ns();
    for (int i = 0; i < conns; i++)
        pthread_create(&th[i], NULL, worker, &r);
    for (int i = 0; i < conns; i++)
        pthread_join(th[i], NULL);
    double secs = (double)(mono_ns() - t0) / 1e9;
    qsort(r.lat_ns, (size_t)n, sizeof(int64_t), cmp64);
    figures f = { n / secs, (double)r.lat_ns[n / 2] / 1e6, (double)r.lat_ns[n * 99 / 100] / 1e6,
                  atomic_load(&r.ok), atomic_load(&r.bad) };
    free(r.lat_ns);
    return f;
}

static figures timed(int port, job *jobs, int n, int conns)
{
    return timed_run(port, jobs, NULL, n, conns);
}

/* ---- the bare handler: reads the body, answers 200 ---- */

static enum MHD_Result bare_handler(void *cls, struct MHD_Connection *c, const char *url,
                                    const char *method, const char *version, const char *data,
                                    size_t *size, void **state)
{
    static int marker;
    (void)cls, (void)url, (void)method, (void)version, (void)data;
    if (!*state) {
        *state = &marker;
        return MHD_YES;
    }
    if (*size) {
        *size = 0;
        return MHD_YES;
    }
    static const char ok[] = "{\"verified\":true}";
    struct MHD_Response *resp = MHD_create_response_from_buffer(sizeof ok - 1, (void *)ok, MHD_RESPMEM_PERSISTENT);
    enum MHD_Result ret = MHD_queue_response(c, 200, resp);
    MHD_destroy_response(resp);
    return ret;
}

/* ---- the storage ceiling: raw SQLite inserts with the server's
 * durability (WAL, synchronous=FULL), one row per transaction and 64 ---- */

static double raw_sqlite_rate(const char *dir, int per_tx)
{
    char path[256];
    snprintf(path, sizeof path, "%s/raw-%d.sqlite", dir, per_tx);
    sqlite3 *db;
    sqlite3_stmt *ins = NULL;
    double rate = 0;
    if (sqlite3_open(path, &db) != SQLITE_OK)
        goto out;
    if (sqlite3_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;"
                         " CREATE TABLE t (a INTEGER PRIMARY KEY, b BLOB, c TEXT)", NULL, NULL, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db, "INSERT INTO t (b, c) VALUES (randomblob(16), ?)", -1, &ins, NULL) != SQLITE_OK)
        goto out;
    static const char row[] = "[{\"t\":110,\"cell\":3},{\"t\":220,\"cell\":7},{\"t\":330,\"cell\":1}]";
    int64_t t0 = mono_ns();
    long rows = 0;
    while (mono_ns() - t0 < 1000000000LL) {
        sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
        for (int i = 0; i < per_tx; i++, rows++) {
            sqlite3_bind_text(ins, 1, row, -1, SQLITE_STATIC);
            sqlite3_step(ins);
            sqlite3_reset(ins);
        }
        sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
    }
    rate = (double)rows / ((double)(mono_ns() - t0) / 1e9);
out:
    sqlite3_finalize(ins);
    sqlite3_close(db);
    return rate;
}

/* CPU time a process has used so far (user + system), in microseconds. */
static double proc_cpu_us(pid_t pid)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    unsigned long long utime = 0, stime = 0;
    /* fields 14 and 15, after the command name in parentheses */
    int got = f ? fscanf(f, "%*d (%*[^)]) %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &utime, &stime) : 0;
    if (f)
        fclose(f);
    return got == 2 ? (double)(utime + stime) * 1e6 / (double)sysconf(_SC_CLK_TCK) : 0;
}

/* A line of /proc/PID/status ("VmHWM", "Threads"), as a number. */
static long proc_status(pid_t pid, const char *key)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    long v = -1;
    size_t klen = strlen(key);
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, key, klen) == 0 && line[klen] == ':')
            v = atol(line + klen + 1);
    if (f)
        fclose(f);
    return v;
}

/* ---- the servers under test ---- */

/* Starts argv[0] (searched on PATH) with stderr on a pipe and reads the port
 * from its first line that holds "port":N. -1 when it does not start. */
static pid_t start_child(const char *const *argv, int *port)
{
    int pipefd[2];
    if (pipe(pipefd) != 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(pipefd[1], 2);
        close(pipefd[0]);
        execvp(argv[0], (char *const *)(void *)argv);
        _exit(127);
    }
    close(pipefd[1]);
    char line[512];
    FILE *f = fdopen(pipefd[0], "r");
    *port = 0;
    while (fgets(line, sizeof line, f)) {
        char *p = strstr(line, "\"port\":");
        if (p) {
            *port = atoi(p + 7);
            break;
        }
    }
    /* the pipe stays open (the child may write to stderr later) */
    if (*port)
        return pid;
    kill(pid, SIGTERM);
    waitpid(pid, NULL, 0);
    return -1;
}

/* A replayd with its data in dir/name; receipt is a setting for its
 * receipts ("receipt_version=2") or NULL for the default. */
static pid_t start_replayd(const char *dir, const char *name, const char *receipt, int *port)
{
    char data[256];
    snprintf(data, sizeof data, "%s/%s", dir, name);
    if (mkdir(data, 0700) != 0)
        return -1;
    /* BENCH_SET="key=value key=value" adds settings (for experiments) */
    const char *argv[64] = { "bin/replayd", "serve", "--listen", "127.0.0.1:0", "--data", data,
                             "--set", "log_requests=false", "--set", "drain_grace_s=0",
                             "--set", "metrics_public=true",
                             "--set", "rate_seeds_per_player=0",
                             "--set", "rate_scores_per_player=0", "--set", "rate_per_ip=0",
                             "--set", "rate_register_per_ip=0", "--set", "max_outstanding_tokens=100000",
                             "--set", "max_connections_per_ip=1000", "--set", "max_forfeits_per_level_day=0",
                             "--set", "max_draws_per_level_day=0" };
    int argc = 0;
    while (argv[argc]) /* the settings above */
        argc++;
    if (receipt) {
        argv[argc++] = "--set";
        argv[argc++] = receipt;
    }
    char *extra = getenv("BENCH_SET") ? strdup(getenv("BENCH_SET")) : NULL;
    for (char *kv = extra ? strtok(extra, " ") : NULL; kv && argc < 62; kv = strtok(NULL, " ")) {
        argv[argc++] = "--set";
        argv[argc++] = kv;
    }
    argv[argc] = NULL;
    pid_t pid = start_child(argv, port);
    free(extra);
    return pid;
}

/* The Node.js reference server, with its database in its own folder. */
static pid_t start_node(const char *dir, int *port)
{
    char data[256];
    snprintf(data, sizeof data, "%s/node", dir);
    if (mkdir(data, 0700) != 0)
        return -1;
    const char *argv[] = { "node", "tests/bench/node_ref/server.mjs", "--listen", "127.0.0.1:0", "--data", data,
                           NULL };
    return start_child(argv, port);
}

/* Registers n players; their bearer tokens go to bearers (malloc'd). */
static int register_players(int port, int n, char **bearers)
{
    conn c;
    if (conn_open(&c, port) != 0)
        return -1;
    for (int p = 0; p < n; p++) {
        char *resp = NULL, body[64];
        snprintf(body, sizeof body, "{\"name\":\"bench%d\"}", p);
        int st = conn_request(&c, "POST", "/v1/players", NULL, body, &resp);
        json_t *j = st == 201 ? json_loads(resp, 0, NULL) : NULL;
        const char *tok = json_string_value(json_object_get(j, "token"));
        bearers[p] = tok ? strdup(tok) : NULL;
        json_decref(j);
        free(resp);
        if (!bearers[p]) {
            close(c.fd);
            return -1;
        }
    }
    close(c.fd);
    return 0;
}

/* The honesty check, before a server is timed: a submission whose moves are
 * wrong (its second move taps a cell outside the board) must be rejected by
 * the replay (422 replay_rejected, reason cell_out_of_range, move 1), and a token with an altered MAC must be
 * refused (400), so a server that answered 200 to anything could not be
 * timed. Returns 0 when both are refused. */
static int honesty_check(const char *who, int port, const game *g, const char *bearer)
{
    conn c;
    char req[64], *resp = NULL;
    int bad = 0;
    if (conn_open(&c, port) != 0)
        return -1;
    snprintf(req, sizeof req, "{\"game\":\"%s\",\"level\":1}", g->name);
    if (conn_request(&c, "POST", "/v1/seeds", bearer, req, &resp) != 201) {
        fprintf(stderr, "bench_http: %s: seed request failed: %s\n", who, resp ? resp : "");
        free(resp);
        close(c.fd);
        return -1;
    }
    json_t *s = json_loads(resp, 0, NULL);
    free(resp);
    json_t *moves = solution(g, (uint32_t)json_integer_value(json_object_get(s, "seed")));
    json_object_set_new(json_array_get(moves, 1), "cell", json_integer(100000));
    json_t *body = json_pack("{s:O,s:o}", "seed_token", json_object_get(s, "seed_token"), "moves", moves);
    char *text = json_dumps(body, JSON_COMPACT);
    resp = NULL;
    int st = conn_request(&c, "POST", "/v1/scores", bearer, text, &resp);
    /* refused by the replay itself (not by the time check that follows it) */
    json_t *ans = st == 422 && resp ? json_loads(resp, 0, NULL) : NULL;
    const json_t *err = json_object_get(ans, "error");
    const char *code = json_string_value(json_object_get(err, "code"));
    const char *reason = json_string_value(json_object_get(err, "reason"));
    bool refused = code && strcmp(code, "replay_rejected") == 0 && reason &&
                   strcmp(reason, "cell_out_of_range") == 0 && json_integer_value(json_object_get(err, "move")) == 1;
    json_decref(ans);
    if (!refused) {
        fprintf(stderr, "bench_http: %s did not reject wrong moves in its replay (%d %s)\n", who, st, resp ? resp : "");
        bad = 1;
    }
    free(resp);
    free(text);
    /* the same body with a character of the token's MAC changed (not the
     * last one, whose low bits base64 may ignore) */
    const char *tok = json_string_value(json_object_get(s, "seed_token"));
    char *forged = strdup(tok);
    size_t len = strlen(forged);
    forged[len - 10] = forged[len - 10] == 'A' ? 'B' : 'A';
    json_object_set_new(body, "seed_token", json_string(forged));
    text = json_dumps(body, JSON_COMPACT);
    resp = NULL;
    st = conn_request(&c, "POST", "/v1/scores", bearer, text, &resp);
    if (st != 400 || !resp || !strstr(resp, "invalid_seed_token")) {
        fprintf(stderr, "bench_http: %s did not refuse a forged token (%d %s)\n", who, st, resp ? resp : "");
        bad = 1;
    }
    free(resp);
    free(text);
    free(forged);
    json_decref(body);
    json_decref(s);
    close(c.fd);
    return bad ? -1 : 0;
}

static void free_jobs(job *jobs, int n)
{
    for (int i = 0; jobs && i < n; i++)
        free(jobs[i].body);
    free(jobs);
}

/* BENCH_CONNS="8" or "8 64" times only those connection counts, and
 * BENCH_GAMES="pipes" only that game (for profiling one case). */
static int pick_conns(int *out)
{
    static const int all[] = { 1, 8, 64 };
    const char *want = getenv("BENCH_CONNS");
    int n = 0;
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        char word[8];
        snprintf(word, sizeof word, "%d", all[i]);
        const char *hit = want ? strstr(want, word) : NULL;
        bool whole = hit && (hit == want || hit[-1] == ' ') && (hit[strlen(word)] == '\0' || hit[strlen(word)] == ' ');
        if (!want || whole)
            out[n++] = all[i];
    }
    return n;
}

static bool game_wanted(const char *name)
{
    const char *want = getenv("BENCH_GAMES");
    return !want || strstr(want, name) != NULL;
}

/* ---- replayd's figures: a timed run's CPU and score signatures ---- */

typedef struct replayd_figures {
    figures f;
    double cpu_us; /* the process's CPU time per submission */
    double sigs;   /* Ed25519 signatures for scores per 1,000 submissions (-1: unknown) */
} replayd_figures;

static replayd_figures timed_replayd(pid_t pid, int port, job *jobs, int n, int conns)
{
    replayd_figures out;
    long long sig0 = metrics_score_signatures(port);
    double cpu0 = proc_cpu_us(pid);
    out.f = timed(port, jobs, n, conns);
    out.cpu_us = (proc_cpu_us(pid) - cpu0) / n;
    long long sig1 = metrics_score_signatures(port);
    out.sigs = sig0 < 0 || sig1 < 0 ? -1 : 1000.0 * (double)(sig1 - sig0) / n;
    return out;
}

/* ---- the score log's reads ---- */

/* The tree size of the log's latest checkpoint (its note's second line),
 * -1 when it cannot be read. */
static long long log_size(int port)
{
    conn c;
    char *note = NULL;
    long long size = -1;
    if (conn_open(&c, port) == 0 && conn_request(&c, "GET", "/v1/log/checkpoint", NULL, NULL, &note) == 200) {
        const char *line = strchr(note, '\n');
        size = line ? atoll(line + 1) : -1;
    }
    free(note);
    close(c.fd);
    return size;
}

/* GETs per second of the log's checkpoint, its first level-0 hash tile
 * and its first entry bundle (both full: 256 leaves). */
static int time_log_reads(pid_t pid, int port)
{
    long long size = log_size(port);
    printf("\n== the score log over HTTP: %d GETs of each path at %d connections (replayd, v3; a log of %lld"
           " leaves) ==\n", LOG_GETS, LOG_GET_CONNS, size);
    if (size < 0) {
        fprintf(stderr, "bench_http: the log's checkpoint cannot be read\n");
        return -1;
    }
    if (size < 256) { /* a small BENCH_PER_RUN */
        printf("skipped: fewer leaves than a full tile's 256\n");
        return 0;
    }
    static const char *const paths[] = { "/v1/log/checkpoint", "/v1/log/tile/0/000", "/v1/log/tile/entries/000" };
    printf("%-26s | %7s %7s %7s %6s\n", "path", "GETs/s", "p50 ms", "p99 ms", "cpu us");
    int bad = 0;
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        double cpu0 = proc_cpu_us(pid);
        figures f = timed_run(port, NULL, paths[i], LOG_GETS, LOG_GET_CONNS);
        double cpu = (proc_cpu_us(pid) - cpu0) / LOG_GETS;
        printf("%-26s | %7.0f %7.2f %7.2f %6.0f%s\n", paths[i], f.per_s, f.p50_ms, f.p99_ms, cpu,
               f.bad ? "  (errors!)" : "");
        if (f.bad)
            fprintf(stderr, "bench_http: %d GETs of %s were not 200\n", f.bad, paths[i]);
        bad += f.bad;
    }
    printf("cpu us = replayd's CPU time per GET; each tile is full (256 hashes of 32 bytes; 256 leaves)\n");
    fflush(stdout);
    return bad ? -1 : 0;
}

static void stop(pid_t pid)
{
    if (pid > 0) {
        kill(pid, SIGTERM);
        waitpid(pid, NULL, 0);
    }
}

static void print_sigs(double sigs)
{
    if (sigs < 0)
        printf(" %6s", "?");
    else
        printf(" %6.0f", sigs);
}

enum { PLAYERS = 48 };

int main(void)
{
    int conn_counts[3];
    int n_counts = pick_conns(conn_counts);
    /* at least one submission per player */
    if (getenv("BENCH_PER_RUN") && atoi(getenv("BENCH_PER_RUN")) >= 48)
        per_run = atoi(getenv("BENCH_PER_RUN"));
    char dir[] = "/tmp/replayd-bench-XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    /* replayd twice: its default (v3 receipts: the log's checkpoint a
     * batch) and with a per-score receipt signature (v2) */
    int port = 0, v2_port = 0;
    pid_t pid = start_replayd(dir, "replayd", NULL, &port);
    pid_t v2_pid = pid < 0 ? -1 : start_replayd(dir, "replayd-v2", "receipt_version=2", &v2_port);
    if (pid < 0 || v2_pid < 0) {
        fprintf(stderr, "bench_http: cannot start bin/replayd\n");
        stop(pid);
        return 1;
    }
    /* The Node.js reference: left out with BENCH_NODE=0; a bench that was
     * asked for it and cannot start it fails (make bench installs it). */
    const char *want_node = getenv("BENCH_NODE");
    bool with_node = !want_node || strcmp(want_node, "0") != 0;
    int node_port = 0;
    pid_t node_pid = -1;
    if (with_node && (node_pid = start_node(dir, &node_port)) < 0) {
        fprintf(stderr, "bench_http: cannot start the Node.js reference (tests/bench/node_ref: npm ci;"
                        " BENCH_NODE=0 leaves it out)\n");
        stop(pid);
        stop(v2_pid);
        return 1;
    }
    /* libmicrohttpd at its best here: its epoll pool, one thread per core */
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    struct MHD_Daemon *bare = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL, 0, NULL, NULL,
                                               bare_handler, NULL, MHD_OPTION_THREAD_POOL_SIZE,
                                               (unsigned)(cores > 0 ? cores : 2),
                                               MHD_OPTION_CONNECTION_LIMIT, 1024u, MHD_OPTION_END);
    int bare_port = MHD_get_daemon_info(bare, MHD_DAEMON_INFO_BIND_PORT)->port;

    char *bearers[PLAYERS] = { 0 }, *v2_bearers[PLAYERS] = { 0 }, *node_bearers[PLAYERS] = { 0 };
    int rc = 1;
    if (register_players(port, PLAYERS, bearers) != 0 || register_players(v2_port, PLAYERS, v2_bearers) != 0 ||
        (with_node && register_players(node_port, PLAYERS, node_bearers) != 0)) {
        fprintf(stderr, "bench_http: cannot register the players\n");
        goto out;
    }

    printf("\n== HTTP: verified submissions over loopback (level 1, %d per run; the load "
           "generator shares the 2 cores) ==\n", per_run);
    printf("%-8s %5s | %9s %7s %7s %6s %6s | %7s %7s %6s %6s | %6s | %9s %7s %7s | %6s", "game", "conns",
           "replayd/s", "p50 ms", "p99 ms", "cpu us", "sig/1k", "v2/s", "p50 ms", "cpu us", "sig/1k", "v2-v3",
           "bare/s", "p50 ms", "p99 ms", "ratio");
    if (with_node)
        printf(" | %9s %7s %7s %6s | %6s", "node/s", "p50 ms", "p99 ms", "cpu us", "r/node");
    printf("\n");
    const char *games[] = { "schulte", "pipes" };
    for (int gi = 0; gi < 2; gi++) {
        if (!game_wanted(games[gi]))
            continue;
        const game *g = game_find(games[gi]);
        if (honesty_check("replayd", port, g, bearers[0]) != 0 ||
            honesty_check("replayd (v2 receipts)", v2_port, g, v2_bearers[0]) != 0 ||
            (with_node && honesty_check("the Node.js reference", node_port, g, node_bearers[0]) != 0))
            goto out;
        for (int k = 0; k < n_counts; k++) {
            max_claimed_ms = 0;
            int n = PLAYERS * (per_run / PLAYERS);
            job *jobs = prepare(port, g, PLAYERS, per_run / PLAYERS, bearers);
            job *v2_jobs = prepare(v2_port, g, PLAYERS, per_run / PLAYERS, v2_bearers);
            job *node_jobs = with_node ? prepare(node_port, g, PLAYERS, per_run / PLAYERS, node_bearers) : NULL;
            if (!jobs || !v2_jobs || (with_node && !node_jobs)) {
                free_jobs(jobs, n);
                free_jobs(v2_jobs, n);
                free_jobs(node_jobs, n);
                goto out;
            }
            /* Give every token time to pass the time check: a run may claim
             * no more than the time since its token was issued. */
            struct timespec wait = { (time_t)(max_claimed_ms / 1000 + 1), 0 };
            nanosleep(&wait, NULL);
            replayd_figures real = timed_replayd(pid, port, jobs, n, conn_counts[k]);
            replayd_figures v2 = timed_replayd(v2_pid, v2_port, v2_jobs, n, conn_counts[k]);
            figures base = timed(bare_port, jobs, n, conn_counts[k]);
            printf("%-8s %5d | %9.0f %7.2f %7.2f %6.0f", g->name, conn_counts[k], real.f.per_s, real.f.p50_ms,
                   real.f.p99_ms, real.cpu_us);
            print_sigs(real.sigs);
            printf(" | %7.0f %7.2f %6.0f", v2.f.per_s, v2.f.p50_ms, v2.cpu_us);
            print_sigs(v2.sigs);
            printf(" | %+6.0f | %9.0f %7.2f %7.2f | %5.1f%%", v2.cpu_us - real.cpu_us, base.per_s, base.p50_ms,
                   base.p99_ms, 100.0 * real.f.per_s / base.per_s);
            figures node = { 0 };
            if (with_node) {
                double node_cpu0 = proc_cpu_us(node_pid);
                node = timed(node_port, node_jobs, n, conn_counts[k]);
                double node_cpu = (proc_cpu_us(node_pid) - node_cpu0) / n;
                printf(" | %9.0f %7.2f %7.2f %6.0f | %5.2fx", node.per_s, node.p50_ms, node.p99_ms, node_cpu,
                       real.f.per_s / node.per_s);
            }
            printf("%s\n", real.f.bad || v2.f.bad || node.bad ? "  (errors!)" : "");
            fflush(stdout);
            if (real.f.bad)
                fprintf(stderr, "bench_http: %d submissions to replayd were not 200\n", real.f.bad);
            if (v2.f.bad)
                fprintf(stderr, "bench_http: %d submissions to replayd (v2 receipts) were not 200\n", v2.f.bad);
            if (node.bad)
                fprintf(stderr, "bench_http: %d submissions to the Node.js reference were not 200\n", node.bad);
            free_jobs(jobs, n);
            free_jobs(v2_jobs, n);
            free_jobs(node_jobs, n);
        }
    }
    printf("replayd = the default server (v3 receipts: each score a leaf of the score log, one signed"
           " checkpoint a commit batch); v2 = a second replayd with receipt_version=2 (the log as well, and"
           " one Ed25519 receipt signature a score), timed right after it on its own submissions\n");
    printf("sig/1k = Ed25519 signatures for scores per 1,000 submissions in the timed run (/metrics'"
           " replayd_log_checkpoints_total + replayd_receipts_signed_total, read before and after it)\n");
    printf("v2-v3 = v2's cpu us minus replayd's: the CPU per submission that the per-score signature costs"
           " beyond the log's checkpoints (both servers keep the log)\n");
    printf("ratio = replayd's verified-and-committed rate as a share of the bare handler's rate\n");
    printf("cpu us = the server process's CPU time (user + system, all threads) per submission in the timed run:"
           " steadier than the rates, which move with the shared disk's fsync time\n");
    if (with_node)
        printf("r/node = replayd's rate divided by the Node.js reference's (tests/bench/node_ref: the same"
               " checks, replay with the JavaScript port, WAL + synchronous=FULL, group commit per event-loop"
               " turn); all refused wrong moves and a forged token before being timed\n");
    printf("replayd: peak resident memory %ld MiB, %ld threads (libmicrohttpd's pool, the writer,"
           " the checkpointer, main)\n", proc_status(pid, "VmHWM") / 1024, proc_status(pid, "Threads"));
    if (with_node)
        printf("node reference: peak resident memory %ld MiB, %ld threads\n", proc_status(node_pid, "VmHWM") / 1024,
               proc_status(node_pid, "Threads"));
    double raw1 = raw_sqlite_rate(dir, 1), raw64 = raw_sqlite_rate(dir, 64);
    printf("storage ceiling, raw SQLite inserts with the same durability: %.0f rows/s one per"
           " transaction, %.0f rows/s 64 per transaction\n", raw1, raw64);
    fflush(stdout);
    if (time_log_reads(pid, port) != 0)
        goto out;
    rc = 0;
out:
    MHD_stop_daemon(bare);
    stop(pid);
    stop(v2_pid);
    stop(node_pid);
    for (int p = 0; p < PLAYERS; p++) {
        free(bearers[p]);
        free(v2_bearers[p]);
        free(node_bearers[p]);
    }
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        return 1;
    return rc;
}
