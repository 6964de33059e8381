/*
 * serve: start-up and shutdown of the daemon. Order matters: config, keys,
 * store (migrations), caches, then the listener; on SIGTERM/SIGINT the
 * listener stops accepting, in-flight requests drain, and the store closes
 * cleanly (its writer commits what it holds first).
 */
#include "serve.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../core/game.h"
#include "app.h"
#include "cli.h"
#include "http.h"
#include "parse.h"

#define DRAIN_LIMIT_MS 10000

/* Reads issue_versions ("game=version,game=version"): sets *version to
 * g's entry if it has one. Returns false with a message when any entry does
 * not name a game and a version that game still replays. */
static bool issue_override(const char *spec, const game *g, int *version, char *err, size_t err_len)
{
    char buf[sizeof ((config *)0)->issue_versions];
    snprintf(buf, sizeof buf, "%s", spec);
    char *save = NULL;
    for (char *item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(item, '=');
        const game *named = NULL;
        int64_t v = 0;
        if (eq) {
            *eq = '\0';
            named = game_find(item);
        }
        if (!named || !parse_i64(eq + 1, named->min_version, named->version, &v)) {
            snprintf(err, err_len, "issue_versions: entry \"%s\" is not game=version with a version it replays",
                     item);
            return false;
        }
        if (named == g)
            *version = (int)v;
    }
    return true;
}

int app_issue_version(const app *a, const game *g)
{
    int version = g->version;
    char err[160];
    (void)issue_override(a->cfg.issue_versions, g, &version, err, sizeof err); /* checked at start */
    return version;
}

/* --config FILE, --listen ADDR:PORT, --data DIR, --set KEY=VALUE. The file
 * is read first, so flags override it wherever they appear. Returns
 * EXIT_OK, EXIT_BAD_INPUT (a bad value) or CLI_USAGE (an unknown option or a
 * missing value), after one line on stderr. */
static int load_config(config *c, int argc, char **argv)
{
    char err[512];
    config_defaults(c);
    for (int i = 0; i < argc; i++) {
        const char *flag = argv[i];
        if (strcmp(flag, "--config") != 0 && strcmp(flag, "--data") != 0 &&
            strcmp(flag, "--listen") != 0 && strcmp(flag, "--set") != 0) {
            fprintf(stderr, "replayd: unknown option \"%s\"\n", flag);
            return CLI_USAGE;
        }
        if (++i >= argc) {
            fprintf(stderr, "replayd: %s needs a value\n", flag);
            return CLI_USAGE;
        }
        if (strcmp(flag, "--config") == 0 && !config_load_file(c, argv[i], err, sizeof err)) {
            fprintf(stderr, "replayd: %s\n", err);
            return EXIT_BAD_INPUT;
        }
    }
    for (int i = 0; i + 1 < argc; i += 2) {
        const char *flag = argv[i], *value = argv[i + 1];
        bool ok = true;
        if (strcmp(flag, "--data") == 0) {
            ok = config_set(c, "data_dir", value, err, sizeof err);
        } else if (strcmp(flag, "--listen") == 0) {
            const char *colon = strrchr(value, ':');
            char addr[64];
            if (!colon || (size_t)(colon - value) >= sizeof addr) {
                snprintf(err, sizeof err, "--listen expects ADDR:PORT");
                ok = false;
            } else {
                memcpy(addr, value, (size_t)(colon - value));
                addr[colon - value] = '\0';
                ok = config_set(c, "listen_addr", addr, err, sizeof err) &&
                     config_set(c, "port", colon + 1, err, sizeof err);
            }
        } else if (strcmp(flag, "--set") == 0) {
            char kv[600];
            snprintf(kv, sizeof kv, "%s", value);
            char *eq = strchr(kv, '=');
            if (!eq) {
                snprintf(err, sizeof err, "--set expects KEY=VALUE");
                ok = false;
            } else {
                *eq = '\0';
                ok = config_set(c, kv, eq + 1, err, sizeof err);
            }
        }
        if (!ok) {
            fprintf(stderr, "replayd: %s\n", err);
            return EXIT_BAD_INPUT;
        }
    }
    return EXIT_OK;
}

static store_status open_store(const config *c, store **db)
{
    char path[600], err[256];
    snprintf(path, sizeof path, "%s/replayd.db", c->data_dir);
    store_config sc = { path, c->busy_timeout_ms, c->group_commit_max, c->group_commit_wait_us };
    store_status st = store_open(&sc, db, err, sizeof err);
    if (st != STORE_OK)
        fprintf(stderr, "replayd: cannot open %s: %s\n", path, err);
    return st;
}

int cmd_serve(int argc, char **argv)
{
    static app a; /* large; lives for the whole process */
    char err[512];
    int rc;
    memset(&a, 0, sizeof a);
    rc = load_config(&a.cfg, argc, argv);
    if (rc != EXIT_OK)
        return rc;
    rc = EXIT_RUNTIME;
    int unused_version;
    if (!issue_override(a.cfg.issue_versions, NULL, &unused_version, err, sizeof err)) {
        fprintf(stderr, "replayd: %s\n", err);
        return EXIT_BAD_INPUT;
    }
    http_set_clock_offset(a.cfg.clock_offset_s);
    if (!keys_load(&a.keys, a.cfg.data_dir, err, sizeof err)) {
        fprintf(stderr, "replayd: %s\n", err);
        return EXIT_RUNTIME;
    }
    if (open_store(&a.cfg, &a.db) != STORE_OK)
        goto keys;
    const char *const *names;
    int n_names;
    http_route_names(&names, &n_names);
    metrics_init(&a.stats, names, n_names);
    if (!ratelimit_init(&a.limits) || !level_cache_init(&a.levels, (size_t)a.cfg.level_cache_entries)) {
        fprintf(stderr, "replayd: out of memory\n");
        goto db;
    }

    /* Block the signals before the listener's threads start, so only
     * sigwait below sees them. */
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
    signal(SIGPIPE, SIG_IGN);

    struct MHD_Daemon *d = http_start(&a, err, sizeof err);
    if (!d) {
        fprintf(stderr, "replayd: %s\n", err);
        goto caches;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
    fprintf(stderr, "{\"event\":\"listening\",\"addr\":\"%s\",\"port\":%u,\"data\":\"%s\",\"schema\":%d}\n",
            a.cfg.listen_addr, info ? (unsigned)info->port : (unsigned)a.cfg.port, a.cfg.data_dir,
            store_schema_version(a.db));
    int sig = 0;
    sigwait(&set, &sig);
    fprintf(stderr, "{\"event\":\"draining\",\"signal\":%d}\n", sig);
    MHD_quiesce_daemon(d);
    for (int waited = 0; atomic_load(&a.in_flight) > 0 && waited < DRAIN_LIMIT_MS; waited += 10) {
        struct timespec ts = { 0, 10 * 1000 * 1000 };
        nanosleep(&ts, NULL);
    }
    MHD_stop_daemon(d);
    rc = EXIT_OK;
caches:
    level_cache_free(&a.levels);
    ratelimit_free(&a.limits);
db:
    store_close(a.db);
keys:
    keys_wipe(&a.keys);
    if (rc == 0)
        fprintf(stderr, "{\"event\":\"stopped\"}\n");
    return rc;
}

int cmd_keygen(int argc, char **argv)
{
    config c;
    char err[512];
    int rc = load_config(&c, argc, argv);
    if (rc != EXIT_OK)
        return rc;
    uint32_t id = keys_generate(c.data_dir, err, sizeof err);
    if (!id) {
        fprintf(stderr, "replayd: %s\n", err);
        return EXIT_RUNTIME;
    }
    printf("{\"key_id\":%u,\"data\":\"%s\"}\n", (unsigned)id, c.data_dir);
    return 0;
}

int cmd_migrate(int argc, char **argv)
{
    config c;
    store *db = NULL;
    int rc = load_config(&c, argc, argv);
    if (rc != EXIT_OK)
        return rc;
    if (open_store(&c, &db) != STORE_OK)
        return EXIT_RUNTIME;
    printf("{\"schema_version\":%d}\n", store_schema_version(db));
    store_close(db);
    return 0;
}
