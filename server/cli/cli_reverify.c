/*
 * cli_reverify: `replayd reverify [--game G] [--since DATE] [--jobs N]`,
 * the command-line face of reverify.h. One JSON line on stdout per
 * divergent score (in seq order), then one summary line; progress on
 * stderr about once a second once a run takes longer than that. Exit
 * status EXIT_DIVERGENT when any score diverged.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../core/civil.h"
#include "cli.h"
#include "../trust/keys.h"
#include "../base/parse.h"
#include "../trust/reverify.h"
#include "serve.h"

typedef struct run_ctx {
    double started, last_report;
} run_ctx;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void print_divergence(void *ctx, const json_t *d)
{
    (void)ctx;
    char *text = json_dumps(d, JSON_COMPACT | JSON_PRESERVE_ORDER);
    if (text) {
        puts(text);
        free(text);
    }
    fflush(stdout);
}

static void progress(void *ctx, const reverify_counts *c)
{
    run_ctx *r = ctx;
    double now = now_s();
    if (now - r->last_report < 1.0)
        return;
    r->last_report = now;
    long long checked = (long long)atomic_load(&c->checked), total = (long long)atomic_load(&c->total);
    fprintf(stderr, "replayd reverify: %lld/%lld scores (%.0f%%), %lld divergent, %.0f per s\n", checked,
            total, total ? 100.0 * (double)checked / (double)total : 100.0,
            (long long)atomic_load(&c->divergent), (double)checked / (now - r->started));
}

int cmd_reverify(int argc, char **argv)
{
    char *rest[64];
    int nrest = 0;
    const char *game_name = NULL, *since = NULL, *jobs_text = NULL;
    for (int i = 0; i < argc; i++) {
        const char **opt = strcmp(argv[i], "--game") == 0    ? &game_name
                           : strcmp(argv[i], "--since") == 0 ? &since
                           : strcmp(argv[i], "--jobs") == 0  ? &jobs_text
                                                             : NULL;
        if (opt) {
            if (i + 1 >= argc || *opt) {
                fprintf(stderr, "replayd: %s needs one value\n", argv[i]);
                return CLI_USAGE;
            }
            *opt = argv[++i];
        } else if (nrest < (int)(sizeof rest / sizeof rest[0])) {
            rest[nrest++] = argv[i];
        } else {
            fprintf(stderr, "replayd: too many arguments\n");
            return CLI_USAGE;
        }
    }
    store_scan scan = { NULL, 0 };
    if (game_name && !(scan.g = game_find(game_name))) {
        fprintf(stderr, "replayd: unknown game \"%s\"\n", game_name);
        return EXIT_BAD_INPUT;
    }
    civil_date d;
    if (since) {
        if (!civil_parse(since, &d)) {
            fprintf(stderr, "replayd: bad date \"%s\" (YYYY-MM-DD)\n", since);
            return EXIT_BAD_INPUT;
        }
        scan.since_ms = civil_to_days(d) * 86400000;
    }
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    int64_t jobs = cpus > 0 ? cpus : 1;
    if (jobs > REVERIFY_MAX_JOBS)
        jobs = REVERIFY_MAX_JOBS;
    if (jobs_text && !parse_i64(jobs_text, 1, REVERIFY_MAX_JOBS, &jobs)) {
        fprintf(stderr, "replayd: bad --jobs \"%s\" (1..%d)\n", jobs_text, REVERIFY_MAX_JOBS);
        return EXIT_BAD_INPUT;
    }
    config c;
    int rc = serve_load_config(&c, nrest, rest);
    if (rc != EXIT_OK)
        return rc;
    /* the public keys only: receipts are checked, nothing can be signed */
    static keyring keys;
    char err[512];
    if (!keys_load_public(&keys, c.data_dir, err, sizeof err)) {
        fprintf(stderr, "replayd: %s\n", err);
        return EXIT_RUNTIME;
    }
    if (keys.count == 0)
        fprintf(stderr, "replayd: no keys in %s/keys: receipts are not checked\n", c.data_dir);
    store *db = NULL;
    if (serve_open_store(&c, NULL, &db) != STORE_OK)
        return EXIT_RUNTIME;
    reverify_counts counts;
    memset(&counts, 0, sizeof counts);
    run_ctx r = { now_s(), now_s() };
    store_status st = reverify_run(db, &scan, (int)jobs, keys.count ? &keys : NULL, &counts,
                                   print_divergence, progress, &r);
    store_close(db);
    double secs = now_s() - r.started;
    long long checked = (long long)atomic_load(&counts.checked);
    long long divergent = (long long)atomic_load(&counts.divergent);
    if (st != STORE_OK) {
        fprintf(stderr, "replayd: reverify stopped after %lld scores: the database could not be read\n",
                checked);
        return EXIT_RUNTIME;
    }
    if (secs >= 1.0)
        progress(&(run_ctx){ r.started, 0 }, &counts);
    double rate = secs > 0 ? (double)checked / secs : 0;
    printf("{\"checked\":%lld,\"divergent\":%lld,\"receipts_checked\":%s,\"jobs\":%d,\"seconds\":%.3f,"
           "\"per_second\":%.0f,\"per_second_per_job\":%.0f}\n",
           checked, divergent, keys.count ? "true" : "false", (int)jobs, secs, rate, rate / (double)jobs);
    return divergent ? EXIT_DIVERGENT : EXIT_OK;
}
