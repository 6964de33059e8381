#define _GNU_SOURCE /* memmem */
/*
 * bench_pg: 1, 2 and 3 replayd nodes on one PostgreSQL database (a real
 * server that tests/pg/pg_start.sh starts in a temporary directory, fsync
 * on): verified submissions per second and their p50/p99 with the
 * connections spread over the nodes, and the cross-node visibility delay
 * (a score acknowledged by one node until another node's board ranks it,
 * p50/p99).
 *
 * On this machine every node, PostgreSQL and the load generator share the
 * same 2 cores: more nodes add work and cannot add cores, so the figures
 * show the overhead of running several nodes, not scaling.
 *
 * Setup (untimed) as bench_http: players, seed tokens, solutions, bodies;
 * plausibility_slack_ms is large, so prepared runs need not wait out their
 * claimed time.
 */
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "../../core/game.h"
#include "../../server/base/json_game.h"
#include "http_client.h"
#include "solutions.h"

#define PER_RUN 2400
#define MAX_NODES 3
#define MAX_CONNS 64
#define PLAYERS 48
#define VIS_ROUNDS 120


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

/* POST path with body, expecting want; the answer parsed (NULL otherwise). */
static json_t *post(conn *c, const char *path, const char *bearer, const char *body, int want)
{
    char *resp = NULL;
    int st = conn_request(c, "POST", path, bearer, body, &resp);
    json_t *j = st == want && resp ? json_loads(resp, 0, NULL) : NULL;
    if (!j)
        fprintf(stderr, "bench_pg: %s answered %d: %s\n", path, st, resp ? resp : "");
    free(resp);
    return j;
}

/* ---- nodes ---- */

static pid_t start_node(const char *dir, const char *url, int *port)
{
    int pipefd[2];
    if (pipe(pipefd) != 0)
        return -1;
    char database[600];
    snprintf(database, sizeof database, "database=%s", url);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(pipefd[1], 2);
        close(pipefd[0]);
        const char *argv[] = { "replayd", "serve", "--listen", "127.0.0.1:0", "--data", dir,
                               "--set", database, "--set", "log_requests=false", "--set", "drain_grace_s=0",
                               "--set", "rate_seeds_per_player=0", "--set", "rate_scores_per_player=0",
                               "--set", "rate_per_ip=0", "--set", "rate_register_per_ip=0",
                               "--set", "max_outstanding_tokens=100000",
                               "--set", "max_connections_per_ip=1000",
                               "--set", "max_forfeits_per_level_day=0",
                               "--set", "max_draws_per_level_day=0",
                               "--set", "plausibility_slack_ms=600000",
                               /* the solver's even pace is what the review holds
                                * (fair play is bench_fairplay's): a held run is
                                * on no board, and visibility waits for one */
                               "--set", "review_hold_threshold=0", "--set", "review_top=0",
                               "--set", "think_floor_permille=0", "--set", "parallel_overlap_ms=0", NULL };
        execv("bin/replayd", (char *const *)(void *)argv);
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
    /* the pipe stays open (and unread) for the node's later lines: its
     * stderr is quiet with log_requests=false */
    return *port ? pid : -1;
}

/* CREATE DATABASE name on the server at url. */
static int create_database(const char *url, const char *name)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "psql '%s/postgres' -qc 'CREATE DATABASE %s' >/dev/null", url, name);
    return system(cmd);
}

/* ---- the timed run: connections spread over the nodes ---- */

typedef struct job {
    const char *bearer;
    char *body;
} job;

typedef struct run {
    const int *ports;
    int nodes;
    job *jobs;
    int n;
    atomic_int next, worker;
    int64_t *lat_ns;
    atomic_int ok, bad;
} run;

static void *worker(void *arg)
{
    run *r = arg;
    int port = r->ports[atomic_fetch_add(&r->worker, 1) % r->nodes];
    conn c;
    if (conn_open(&c, port) != 0)
        return NULL;
    for (;;) {
        int i = atomic_fetch_add(&r->next, 1);
        if (i >= r->n)
            break;
        int64_t t0 = mono_ns();
        int st = conn_request(&c, "POST", "/v1/scores", r->jobs[i].bearer, r->jobs[i].body, NULL);
        r->lat_ns[i] = mono_ns() - t0;
        atomic_fetch_add(st == 200 ? &r->ok : &r->bad, 1);
        if (st < 0 && conn_open(&c, port) != 0)
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

/* Seeds for every player (spread over the nodes), solved, then timed. */
static void submissions(const int *ports, int nodes, char **bearers, int conns)
{
    const game *g = game_find("schulte");
    int per = PER_RUN / PLAYERS, n = PLAYERS * per;
    job *jobs = calloc((size_t)n, sizeof *jobs);
    for (int p = 0; p < PLAYERS; p++) {
        conn c;
        if (conn_open(&c, ports[p % nodes]) != 0)
            exit(1);
        for (int k = 0; k < per; k++) {
            json_t *s = post(&c, "/v1/seeds", bearers[p], "{\"game\":\"schulte\",\"level\":1}", 201);
            if (!s)
                exit(1);
            json_t *moves = solution(g, (uint32_t)json_integer_value(json_object_get(s, "seed")));
            json_t *body = json_pack("{s:O,s:o}", "seed_token", json_object_get(s, "seed_token"),
                                     "moves", moves);
            jobs[p * per + k] = (job){ bearers[p], json_dumps(body, JSON_COMPACT) };
            json_decref(body);
            json_decref(s);
        }
        close(c.fd);
    }
    run r = { .ports = ports, .nodes = nodes, .jobs = jobs, .n = n,
              .lat_ns = calloc((size_t)n, sizeof(int64_t)) };
    pthread_t th[MAX_CONNS];
    int64_t t0 = mono_ns();
    for (int i = 0; i < conns; i++)
        pthread_create(&th[i], NULL, worker, &r);
    for (int i = 0; i < conns; i++)
        pthread_join(th[i], NULL);
    double secs = (double)(mono_ns() - t0) / 1e9;
    qsort(r.lat_ns, (size_t)n, sizeof(int64_t), cmp64);
    printf("%5d %5d | %10.0f %8.2f %8.2f%s\n", nodes, conns, n / secs, (double)r.lat_ns[n / 2] / 1e6,
           (double)r.lat_ns[n * 99 / 100] / 1e6, atomic_load(&r.bad) ? "  (errors!)" : "");
    if (atomic_load(&r.bad))
        fprintf(stderr, "bench_pg: %d submissions were not 200\n", atomic_load(&r.bad));
    for (int i = 0; i < n; i++)
        free(jobs[i].body);
    free(jobs);
    free(r.lat_ns);
}

/* ---- cross-node visibility ---- */

/* A fresh player's score through node i; the time from its 200 until
 * node (i + 1)'s board ranks the player (its /me answers 200), polled
 * back to back. Level 2: its board is warm on every node beforehand. */
static void visibility(const int *ports, int nodes, char *out, size_t cap)
{
    const game *g = game_find("schulte");
    int64_t *lat = calloc(VIS_ROUNDS, sizeof *lat);
    int got = 0;
    conn c[MAX_NODES];
    for (int i = 0; i < nodes; i++)
        if (conn_open(&c[i], ports[i]) != 0)
            exit(1);
    for (int i = 0; i < nodes; i++) {
        char *resp = NULL;
        conn_request(&c[i], "GET", "/v1/leaderboards/schulte/2?limit=1", NULL, NULL, &resp);
        free(resp);
    }
    for (int round = 0; round < VIS_ROUNDS; round++) {
        int from = round % nodes, to = (round + 1) % nodes;
        char name[64];
        snprintf(name, sizeof name, "{\"name\":\"vis%d_%d\"}", nodes, round);
        json_t *p = post(&c[from], "/v1/players", NULL, name, 201);
        if (!p)
            exit(1);
        const char *bearer = json_string_value(json_object_get(p, "token"));
        json_t *s = post(&c[from], "/v1/seeds", bearer, "{\"game\":\"schulte\",\"level\":2}", 201);
        if (!s)
            exit(1);
        game_level *level = malloc(g->level_size);
        game_move *moves = malloc(MAX_MOVES * sizeof *moves);
        game_generate(g, level, g->version, 2, (uint32_t)json_integer_value(json_object_get(s, "seed")));
        int n = typical(g, level, moves);
        json_t *body = json_pack("{s:O,s:o}", "seed_token", json_object_get(s, "seed_token"), "moves",
                                 moves_to_json(g, g->version, moves, (size_t)n));
        char *text = json_dumps(body, JSON_COMPACT);
        free(moves);
        free(level);
        json_t *ack = post(&c[from], "/v1/scores", bearer, text, 200);
        const char *status = json_string_value(json_object_get(ack, "status"));
        if (ack && (!status || strcmp(status, "ranked") != 0)) { /* on no board: nothing to see */
            fprintf(stderr, "bench_pg: a visibility run was answered %s, not ranked\n", status ? status : "?");
            json_decref(ack);
            ack = NULL;
        }
        int64_t t0 = mono_ns();
        for (int k = 0; ack && k < 100000; k++) { /* bounded: 100,000 polls */
            int st = conn_request(&c[to], "GET", "/v1/leaderboards/schulte/2/me", bearer, NULL, NULL);
            if (st == 200) {
                lat[got++] = mono_ns() - t0;
                break;
            }
            if (mono_ns() - t0 > 2000000000LL)
                break;
        }
        json_decref(ack);
        free(text);
        json_decref(body);
        json_decref(s);
        json_decref(p);
    }
    for (int i = 0; i < nodes; i++)
        close(c[i].fd);
    if (got) {
        qsort(lat, (size_t)got, sizeof *lat, cmp64);
        snprintf(out, cap, "%5d | %8.2f %8.2f  (%d of %d seen within 2 s)\n", nodes, (double)lat[got / 2] / 1e6,
               (double)lat[got * 99 / 100] / 1e6, got, VIS_ROUNDS);
    } else {
        snprintf(out, cap, "%5d | none seen within 2 s\n", nodes);
    }
    free(lat);
}

int main(void)
{
    char dir[] = "/tmp/replayd-bench-pg-XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    char cmd[1024], url[256] = "";
    snprintf(cmd, sizeof cmd, "tests/pg/pg_start.sh %s/pg", dir);
    FILE *f = popen(cmd, "r");
    if (!f || !fgets(url, sizeof url, f) || pclose(f) != 0) {
        fprintf(stderr, "bench_pg: cannot start PostgreSQL (make deps-test installs it)\n");
        return 1;
    }
    url[strcspn(url, "\n")] = '\0';

    printf("\n== PostgreSQL: N replayd nodes on one database (schulte level 1, %d per run, "
           "connections spread over the nodes) ==\n", PER_RUN);
    printf("Every node, PostgreSQL and the load generator share these 2 cores: more nodes add\n"
           "work and no cores, so this shows the overhead of several nodes, not scaling.\n");
    printf("%5s %5s | %10s %8s %8s\n", "nodes", "conns", "verified/s", "p50 ms", "p99 ms");
    static const int conn_counts[] = { 8, 32 };
    char vis_lines[MAX_NODES][160];
    memset(vis_lines, 0, sizeof vis_lines);
    int status = 0;
    for (int nodes = 1; nodes <= MAX_NODES; nodes++) {
        char db[32], node_url[400], node_dir[MAX_NODES][100];
        snprintf(db, sizeof db, "bench%d", nodes);
        snprintf(node_url, sizeof node_url, "%s/%s", url, db);
        if (create_database(url, db) != 0) {
            status = 1;
            break;
        }
        pid_t pids[MAX_NODES];
        int ports[MAX_NODES];
        bool up = true;
        for (int i = 0; i < nodes && up; i++) {
            snprintf(node_dir[i], sizeof node_dir[i], "%s/n%d-%d", dir, nodes, i);
            if (i > 0) { /* every node signs with the first one's keys */
                char src[120];
                snprintf(src, sizeof src, "%s/keys", node_dir[0]);
                char cp[1024];
                snprintf(cp, sizeof cp, "mkdir -p '%s' && cp -a '%s' '%s/keys'", node_dir[i], src,
                         node_dir[i]);
                if (system(cp) != 0)
                    up = false;
            }
            pids[i] = up ? start_node(node_dir[i], node_url, &ports[i]) : -1;
            up = up && pids[i] > 0;
        }
        if (!up) {
            fprintf(stderr, "bench_pg: cannot start %d nodes\n", nodes);
            status = 1;
            break;
        }
        char *bearers[PLAYERS];
        conn c;
        conn_open(&c, ports[0]);
        for (int p = 0; p < PLAYERS; p++) {
            char body[64];
            snprintf(body, sizeof body, "{\"name\":\"bench%d\"}", p);
            json_t *j = post(&c, "/v1/players", NULL, body, 201);
            bearers[p] = j ? strdup(json_string_value(json_object_get(j, "token"))) : NULL;
            json_decref(j);
            if (!bearers[p])
                exit(1);
        }
        close(c.fd);
        for (size_t k = 0; k < sizeof conn_counts / sizeof conn_counts[0]; k++)
            submissions(ports, nodes, bearers, conn_counts[k]);
        if (nodes > 1) /* printed as its own table below */
            visibility(ports, nodes, vis_lines[nodes - 1], sizeof vis_lines[0]);
        for (int p = 0; p < PLAYERS; p++)
            free(bearers[p]);
        for (int i = 0; i < nodes; i++) {
            kill(pids[i], SIGTERM);
            waitpid(pids[i], NULL, 0);
        }
    }
    printf("\n== cross-node visibility: acknowledged by one node until another node's board "
           "ranks it (polled back to back) ==\n");
    printf("%5s | %8s %8s\n", "nodes", "p50 ms", "p99 ms");
    for (int nodes = 2; nodes <= MAX_NODES; nodes++)
        printf("%s", vis_lines[nodes - 1]);
    snprintf(cmd, sizeof cmd, "tests/pg/pg_stop.sh %s/pg; rm -rf %s", dir, dir);
    if (system(cmd) != 0)
        fprintf(stderr, "bench_pg: could not clean %s up\n", dir);
    return status;
}
