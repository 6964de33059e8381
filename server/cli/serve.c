/*
 * serve: start-up and shutdown of the daemon. Order matters: SIGTERM/SIGINT
 * blocked before any thread exists, config, keys, store (migrations),
 * caches, the metrics listener, the connection guard, then the gate and
 * libmicrohttpd; on SIGTERM/SIGINT the gate stops accepting, in-flight
 * requests drain, and the store closes cleanly (its writer commits what it
 * holds first).
 */
#include "serve.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

#include "../../core/game.h"
#include "../api/api.h"
#include "../http/app.h"
#include "cli.h"
#include "../http/http.h"
#include "../http/routes.h"
#include "../http/serving.h"
#include "../http/metrics_http.h"
#include "../base/iso_time.h"
#include "../base/parse.h"
#include "../log/note.h"
#include "../trust/jwks_fetch.h"


/* Reads issue_versions ("game=version,game=version") into
 * a->issue_version, over each game's current version. Returns false with
 * a message when an entry does not name a game and a version that game
 * still replays. */
static bool read_issue_versions(app *a, char *err, size_t err_len)
{
    if (game_catalog_count > sizeof a->issue_version / sizeof a->issue_version[0]) {
        snprintf(err, err_len, "more games than issue_version slots");
        return false;
    }
    for (size_t i = 0; i < game_catalog_count; i++)
        a->issue_version[i] = game_catalog[i]->version;
    char buf[sizeof ((config *)0)->issue_versions];
    snprintf(buf, sizeof buf, "%s", a->cfg.issue_versions);
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
        for (size_t i = 0; i < game_catalog_count; i++)
            if (game_catalog[i] == named)
                a->issue_version[i] = (int)v;
    }
    return true;
}

/* --config FILE, --listen ADDR:PORT, --data DIR, --set KEY=VALUE. The file
 * is read first, so flags override it wherever they appear. Returns
 * EXIT_OK, EXIT_BAD_INPUT (a bad value) or CLI_USAGE (an unknown option or a
 * missing value), after one line on stderr. */
int serve_load_config(config *c, int argc, char **argv)
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
                /* "[::1]:8088": an IPv6 address in brackets */
                bool bracketed = value[0] == '[' && colon > value && colon[-1] == ']';
                size_t n = (size_t)(colon - value) - (bracketed ? 2 : 0);
                memcpy(addr, value + (bracketed ? 1 : 0), n);
                addr[n] = '\0';
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
                /* every process on the machine can read /proc/PID/cmdline */
                if (strcmp(kv, "admin_token") == 0) {
                    snprintf(err, sizeof err, "admin_token is not taken from the command line (any "
                                              "local user can read it there); set admin_token_file "
                                              "or put it in the config file");
                    ok = false;
                } else {
                    ok = config_set(c, kv, eq + 1, err, sizeof err);
                }
            }
        }
        if (!ok) {
            fprintf(stderr, "replayd: %s\n", err);
            return EXIT_BAD_INPUT;
        }
    }
    if (!config_admin_token(c, err, sizeof err)) {
        fprintf(stderr, "replayd: %s\n", err);
        return EXIT_BAD_INPUT;
    }
    return EXIT_OK;
}

static void database_path(const config *c, char *path, size_t n)
{
    if (c->database[0])
        snprintf(path, n, "%s", c->database);
    else
        snprintf(path, n, "%s/replayd.db", c->data_dir);
}

/* A database URL (PostgreSQL) rather than a file. */
static bool database_is_url(const config *c)
{
    return strstr(c->database, "://") != NULL;
}

/* "Nothing signed yet": the database file does not exist or is empty.
 * Keys are made before the database is first created, so a first start
 * interrupted while writing keys leaves no database; once it exists,
 * tokens may have been MACed and receipts signed with the keys on disk,
 * and a damaged key file must stop the server instead of being replaced. */
static bool nothing_signed_yet(const config *c)
{
    char path[600];
    struct stat st;
    /* a shared database may hold what other nodes signed: never "nothing" */
    if (database_is_url(c))
        return false;
    database_path(c, path, sizeof path);
    return stat(path, &st) != 0 ? errno == ENOENT : st.st_size == 0;
}

/* The database, its WAL and shared-memory files are the operator's only:
 * created 0600 (the umask SQLite's 0644 is filtered through), and tightened
 * to 0600 when an older build left them wider. */
static void private_files(const char *db_path)
{
    umask(077);
    static const char *const suffixes[] = { "", "-wal", "-shm" };
    for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
        char p[700];
        snprintf(p, sizeof p, "%s%s", db_path, suffixes[i]);
        chmod(p, 0600);
    }
}

/* The score log keeps one origin for ever (docs/LOG.md section 6): a
 * log_origin that is not a key name, or that is not the one the last
 * checkpoint was signed under, refuses to start (verifiers would refuse
 * every later checkpoint). */
static bool same_log_origin(app *a)
{
    const char *origin = a->cfg.log_origin;
    if (note_name_check(origin, strlen(origin)) != NOTE_OK) {
        fprintf(stderr, "replayd: log_origin \"%s\" cannot name the log: 1 to 255 bytes of UTF-8 "
                        "without a space or \"+\" (docs/LOG.md)\n", origin);
        return false;
    }
    char note[STORE_LOG_NOTE_MAX];
    int64_t size = 0;
    if (store_log_checkpoint(a->db, &size, note, sizeof note) != STORE_OK) {
        fprintf(stderr, "replayd: cannot read the score log's checkpoint\n");
        return false;
    }
    size_t len = strcspn(note, "\n");
    if (note[0] == '\0' || (len == strlen(origin) && memcmp(note, origin, len) == 0))
        return true;
    fprintf(stderr, "replayd: log_origin is %s but this database's score log is %.*s: a log keeps "
                    "its origin (set log_origin back; docs/LOG.md)\n", origin, (int)len, note);
    return false;
}

/* The log's signers (serve.h): the current key first, then the newest
 * other key that is not retired (a rotation under way). */
static void log_keys(const config *c, const keyring *kr, store_log_keys *out)
{
    memset(out, 0, sizeof *out);
    snprintf(out->origin, sizeof out->origin, "%s", c->log_origin);
    const key_entry *cur = kr ? keys_current(kr) : NULL;
    if (!cur)
        return;
    memcpy(out->secret[out->n++], cur->sign_sk, sizeof out->secret[0]);
    const key_entry *other = NULL;
    for (int i = 0; i < kr->count; i++) {
        const key_entry *k = &kr->keys[i];
        if (k != cur && !k->retired && (!other || k->id > other->id))
            other = k;
    }
    if (other)
        memcpy(out->secret[out->n++], other->sign_sk, sizeof out->secret[0]);
}

store_status serve_open_store(const config *c, const keyring *kr, store **db)
{
    char path[600], err[256];
    database_path(c, path, sizeof path);
    if (!database_is_url(c))
        private_files(path);
    store_config sc = {
        .database = path,
        .busy_timeout_ms = c->busy_timeout_ms,
        .group_commit_max = c->group_commit_max,
        .group_commit_wait_us = c->group_commit_wait_us,
        .wal_checkpoint_frames = c->wal_checkpoint_frames,
        .board_cache_bytes = c->board_cache_bytes,
        .rejections_per_token = c->rejections_per_token,
        .rejection_moves_per_token = c->rejection_moves_per_token,
        .rejection_moves_per_player_day = c->rejection_moves_per_player_day,
        .rejection_moves_per_net_day = c->rejection_moves_per_net_day,
    };
    log_keys(c, kr, &sc.log);
    store_status st = store_open(&sc, db, err, sizeof err);
    sodium_memzero(&sc.log, sizeof sc.log);
    if (st != STORE_OK)
        fprintf(stderr, "replayd: cannot open %s: %s\n",
                database_is_url(c) ? "the database" : path, err);
    return st;
}

/* A key as messages name it: id 0 (token-hash.key), DAILY_SEAL_KEY_ID
 * (daily.key) or a key id n (its mac-n.key and sign-n.key). */
static void key_name(uint32_t id, char *out, size_t n)
{
    if (id == 0)
        snprintf(out, n, "token-hash.key");
    else if (id == DAILY_SEAL_KEY_ID)
        snprintf(out, n, "daily.key (with daily.json's sealed_from)");
    else
        snprintf(out, n, "key %u (mac-%u.key, sign-%u.key)", (unsigned)id, (unsigned)id, (unsigned)id);
}

/* Whether this node holds a key the database records. A key id n is held
 * when the keyring has it: with its secrets, or retired (its pub-n.json
 * says valid_until; keygen --retire). token-hash.key is always held (made
 * when missing, and then compared), and daily.key too when dailies are
 * sealed; a node with public dailies does not use one. */
static bool holds_key(const app *a, int64_t id)
{
    if (id == 0 || id == DAILY_SEAL_KEY_ID)
        return true;
    return id > 0 && id < DAILY_SEAL_KEY_ID && keys_public_by_id(&a->keys, (uint32_t)id) != NULL;
}

/* Every key the database records (one another node started with) that
 * this node lacks: it would refuse that node's tokens (400 unknown_key)
 * and receipts, so it does not start. Checked before this node records
 * its own. false after one line on stderr. */
static bool no_recorded_key_missing(app *a)
{
    int64_t ids[KEYS_MAX + 2];
    int n = 0;
    if (store_key_ids(a->db, ids, KEYS_MAX + 2, &n) != STORE_OK) {
        fprintf(stderr, "replayd: cannot read the keys the database records\n");
        return false;
    }
    if (n > KEYS_MAX + 2) {
        fprintf(stderr, "replayd: the database records %d keys, more than a node holds (%d)\n", n,
                KEYS_MAX + 2);
        return false;
    }
    for (int i = 0; i < n; i++) {
        if (holds_key(a, ids[i]))
            continue;
        char what[96];
        key_name((uint32_t)ids[i], what, sizeof what);
        fprintf(stderr,
                "replayd: %s is recorded in the database (a node started with it) but missing "
                "here: copy the keys directory of the node that made it to %s/keys/ (every node "
                "of a database needs each key id it records, a retired one as its pub-%u.json; "
                "docs/OPERATIONS.md, \"Several nodes on PostgreSQL\")\n",
                what, a->cfg.data_dir, (unsigned)ids[i]);
        return false;
    }
    return true;
}

/* Every key this node signs, MACs and hashes bearer tokens with against
 * the fingerprint the database records for it (the first node to start
 * with a key records it): nodes of one database that hold different keys
 * would each refuse the others' tokens and players, so a node whose keys
 * differ, or that lacks one the database records, does not start. false
 * after one line on stderr. */
static bool same_keys_as_recorded(app *a)
{
    if (!no_recorded_key_missing(a))
        return false;
    uint32_t ids[KEYS_MAX + 2];
    int n = 0;
    ids[n++] = 0; /* token-hash.key */
    for (int i = 0; i < a->keys.count; i++)
        if (!a->keys.keys[i].retired)
            ids[n++] = a->keys.keys[i].id;
    if (a->seal.sealed)
        ids[n++] = DAILY_SEAL_KEY_ID; /* daily.key and its first sealed day */
    for (int i = 0; i < n; i++) {
        char mine[KEYS_FINGERPRINT_HEX + 1], recorded[STORE_KEY_FP_HEX + 1];
        bool matches = false;
        if (ids[i] == DAILY_SEAL_KEY_ID)
            daily_seal_fingerprint(&a->seal, mine);
        else if (!keys_fingerprint(&a->keys, ids[i], mine))
            continue;
        if (store_key_check(a->db, ids[i], mine, now_ms(), &matches, recorded) != STORE_OK) {
            fprintf(stderr, "replayd: cannot check the keys against the database\n");
            return false;
        }
        if (!matches) {
            char what[96];
            key_name(ids[i], what, sizeof what);
            fprintf(stderr,
                    "replayd: %s in %s/keys is not the one this database was first used with "
                    "(fingerprint %.16s..., recorded %.16s...): every node of a database needs the "
                    "same keys; copy the keys directory the other nodes use (docs/OPERATIONS.md, "
                    "\"Several nodes on PostgreSQL\")\n",
                    what, a->cfg.data_dir, mine, recorded);
            return false;
        }
    }
    return true;
}

/* SIGTERM/SIGINT blocked in the calling thread (and so in every thread it
 * starts afterwards): only sigwait sees them, at whatever point of
 * start-up they arrive. */
/* Many slow clients mean many descriptors: the soft limit is raised to
 * the hard one (the gate and libmicrohttpd each hold up to about
 * max_connections). */
static void raise_fd_limit(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
}

static void block_stop_signals(sigset_t *set)
{
    sigemptyset(set);
    sigaddset(set, SIGTERM);
    sigaddset(set, SIGINT);
    sigaddset(set, SIGHUP);
    pthread_sigmask(SIG_BLOCK, set, NULL);
    signal(SIGPIPE, SIG_IGN);
}

/* The command line of `serve`, kept for SIGHUP to read the same file and
 * flags again. */
static int serve_argc;
static char **serve_argv;

static bool reread_config(config *out)
{
    return serve_load_config(out, serve_argc, serve_argv) == EXIT_OK;
}

/* The daily secret (daily_seal.h), made on first start: sealed from
 * today, unless today's daily was already issued with its public seed (an
 * upgrade from public dailies: then from tomorrow, today closed). */
static bool load_seal(app *a, char *err, size_t err_len)
{
    int64_t now = now_ms();
    char today[11];
    civil_format(civil_from_unix(now / 1000), today);
    bool published = false;
    if (!daily_seal_exists(a->cfg.data_dir) && store_daily_issued(a->db, today, &published) != STORE_OK) {
        snprintf(err, err_len, "cannot read whether today's daily was issued");
        return false;
    }
    return daily_seal_load(&a->seal, a->cfg.data_dir, now, published, err, err_len);
}

int cmd_serve(int argc, char **argv)
{
    static app a; /* large; lives for the whole process */
    jwks_fetch *jwks = NULL;
    char err[512];
    int rc;
    /* Before anything starts a thread: the store starts its writer and
     * checkpointer, libmicrohttpd its pool. */
    sigset_t set;
    block_stop_signals(&set);
    raise_fd_limit();
    memset(&a, 0, sizeof a);
    a.routes = &routes_table;
    serve_argc = argc;
    serve_argv = argv;
    rc = serve_load_config(&a.cfg, argc, argv);
    if (rc != EXIT_OK)
        return rc;
    rc = EXIT_RUNTIME;
    if (!read_issue_versions(&a, err, sizeof err)) {
        fprintf(stderr, "replayd: %s\n", err);
        return EXIT_BAD_INPUT;
    }
    live_settings *live = live_from_config(&a.cfg, NULL, err, sizeof err);
    if (!live) {
        fprintf(stderr, "replayd: %s\n", err);
        return EXIT_BAD_INPUT;
    }
    atomic_store(&a.live, live);
    http_set_clock_offset(a.cfg.clock_offset_s);
    bool repaired = false;
    if (!keys_load(&a.keys, a.cfg.data_dir, nothing_signed_yet(&a.cfg), &repaired, err, sizeof err)) {
        fprintf(stderr, "replayd: %s\n", err);
        goto live;
    }
    if (repaired)
        fprintf(stderr, "{\"event\":\"keys_repaired\",\"why\":\"an interrupted first start left a partial key set\"}\n");
    const char *const client_ids[IDP_COUNT] = { [IDP_APPLE] = a.cfg.identity_apple_client_ids,
                                                 [IDP_GOOGLE] = a.cfg.identity_google_client_ids };
    const char *const jwks_files[IDP_COUNT] = { [IDP_APPLE] = a.cfg.identity_apple_jwks_file,
                                                [IDP_GOOGLE] = a.cfg.identity_google_jwks_file };
    if (!identity_init(&a.ident, client_ids, jwks_files, a.cfg.identity_clock_skew_s, err, sizeof err)) {
        fprintf(stderr, "replayd: %s\n", err);
        goto ident;
    }
    /* URLs after the files: a fetched key set replaces the file's */
    const char *const jwks_urls[IDP_COUNT] = { [IDP_APPLE] = a.cfg.identity_apple_jwks_url,
                                               [IDP_GOOGLE] = a.cfg.identity_google_jwks_url };
    if (!jwks_fetch_start(&jwks, &a.ident, jwks_urls, jwks_files, a.cfg.identity_jwks_min_refresh_s,
                          a.cfg.identity_jwks_max_refresh_s, err, sizeof err)) {
        fprintf(stderr, "replayd: %s\n", err);
        goto ident;
    }
    if (serve_open_store(&a.cfg, &a.keys, &a.db) != STORE_OK)
        goto ident;
    if (strcmp(a.cfg.daily_seeds, "public") != 0 && !load_seal(&a, err, sizeof err)) {
        fprintf(stderr, "replayd: %s\n", err);
        goto db;
    }
    if (!same_keys_as_recorded(&a) || !same_log_origin(&a))
        goto db;
    if (store_log_seal(a.db) != STORE_OK) {
        fprintf(stderr, "replayd: cannot seal the score log\n");
        goto db;
    }
    const char *const *names;
    int n_names;
    http_route_names(&names, &n_names);
    metrics_init(&a.stats, names, n_names);
    a.reverify = reverify_job_new(a.db, &a.keys);
    if (!a.reverify || !ratelimit_init(&a.limits) ||
        !level_cache_init(&a.levels, (size_t)a.cfg.level_cache_entries) ||
        !fairplay_book_init(&a.book)) {
        fprintf(stderr, "replayd: out of memory\n");
        goto db;
    }
    if (!board_list_init(&a.boards)) {
        fprintf(stderr, "replayd: out of memory\n");
        level_cache_free(&a.levels);
        ratelimit_free(&a.limits);
        goto db;
    }

    unsigned metrics_port = 0;
    metrics_http *md = NULL;
    if (a.cfg.metrics_listen[0] && !(md = metrics_http_start(&a, &metrics_port, err, sizeof err))) {
        fprintf(stderr, "replayd: %s\n", err);
        goto caches;
    }
    conn_guard_config gcfg = {
        .max_connections = a.cfg.max_connections,
        .header_timeout_ms = a.cfg.header_timeout_ms,
        .body_timeout_ms = a.cfg.body_timeout_ms,
        .body_min_rate = a.cfg.body_min_rate,
        .max_per_network = a.cfg.max_connections_per_ip,
        .stats = &a.stats,
        .tls = a.cfg.tls_cert[0] != '\0',
    };
    if (!conn_guard_start(&a.guard, &gcfg)) {
        fprintf(stderr, "replayd: cannot start the connection guard\n");
        goto metrics;
    }
    rc = serving_run(&a, reread_config, metrics_port) == 0 ? EXIT_OK : EXIT_RUNTIME;
    conn_guard_stop(&a.guard);
metrics:
    metrics_http_stop(md);
caches:
    board_list_free(&a.boards);
    fairplay_book_free(&a.book);
    level_cache_free(&a.levels);
    ratelimit_free(&a.limits);
db:
    reverify_job_free(a.reverify); /* its run reads the store */
    store_close(a.db);
ident:
    jwks_fetch_stop(jwks); /* it hands key sets to the identity */
    identity_free(&a.ident);
    keys_wipe(&a.keys);
    daily_seal_wipe(&a.seal);
live:
    live_free_all(atomic_load(&a.live));
    if (rc == 0)
        fprintf(stderr, "{\"event\":\"stopped\"}\n");
    return rc;
}

/* keygen [--retire ID] [config options]: adds the next key id, or retires
 * one (keys.h says what stays). */
int cmd_keygen(int argc, char **argv)
{
    config c;
    char err[512];
    char *rest[64];
    int nrest = 0;
    const char *retire = NULL;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--retire") == 0) {
            if (i + 1 >= argc || retire) {
                fprintf(stderr, "replayd: --retire needs one key id\n");
                return CLI_USAGE;
            }
            retire = argv[++i];
        } else if (nrest < (int)(sizeof rest / sizeof rest[0])) {
            rest[nrest++] = argv[i];
        } else {
            fprintf(stderr, "replayd: too many arguments\n");
            return CLI_USAGE;
        }
    }
    int rc = serve_load_config(&c, nrest, rest);
    if (rc != EXIT_OK)
        return rc;
    if (retire) {
        uint32_t rid;
        key_entry k;
        if (!parse_u32(retire, &rid) || rid == 0) {
            fprintf(stderr, "replayd: bad key id \"%s\"\n", retire);
            return EXIT_BAD_INPUT;
        }
        if (!keys_retire(c.data_dir, rid, &k, err, sizeof err)) {
            fprintf(stderr, "replayd: %s\n", err);
            return EXIT_RUNTIME;
        }
        char from[32], until[32];
        iso_time_format(k.valid_from_ms, from);
        iso_time_format(k.valid_until_ms, until);
        printf("{\"retired\":%u,\"valid_from\":\"%s\",\"valid_until\":\"%s\",\"data\":\"%s\"}\n",
               (unsigned)rid, from, until, c.data_dir);
        return 0;
    }
    uint32_t id = keys_generate(c.data_dir, err, sizeof err);
    if (!id) {
        fprintf(stderr, "replayd: %s\n", err);
        return EXIT_RUNTIME;
    }
    /* the daily secret too (made once, kept), so keys copied from here to
     * every node of a cluster seal the same seeds */
    daily_seal seal;
    bool sealed = strcmp(c.daily_seeds, "public") != 0;
    /* without the database: a new one has published nothing yet; any
     * other may have published today's public daily (then sealed from
     * tomorrow) */
    if (sealed && !daily_seal_load(&seal, c.data_dir, now_ms(), !nothing_signed_yet(&c), err, sizeof err)) {
        fprintf(stderr, "replayd: %s\n", err);
        return EXIT_RUNTIME;
    }
    if (sealed)
        daily_seal_wipe(&seal);
    printf("{\"key_id\":%u,\"data\":\"%s\"}\n", (unsigned)id, c.data_dir);
    return 0;
}

int cmd_migrate(int argc, char **argv)
{
    config c;
    store *db = NULL;
    int rc = serve_load_config(&c, argc, argv);
    if (rc != EXIT_OK)
        return rc;
    if (serve_open_store(&c, NULL, &db) != STORE_OK)
        return EXIT_RUNTIME;
    printf("{\"schema_version\":%d}\n", store_schema_version(db));
    store_close(db);
    return 0;
}
