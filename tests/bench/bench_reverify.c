/*
 * bench_reverify: how fast `replayd reverify` re-checks stored scores, in
 * scores re-verified per second per core: a database of real scores from
 * every game (tests/reverify_db.h) re-checked by reverify_run (receipts
 * included) with 1 job and
 * with one job per core, and per game with 1 job (each game's level
 * generation and replay cost differ). Reading the rows is included: that
 * is what an operator waits for.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../server/trust/reverify.h"
#include "../reverify_db.h"

#define SCORES 6000

static keyring keys_store;
static const keyring *bench_keys = &keys_store;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Scores checked per second by one run; -1 on failure. */
static double rate(store *s, const game *g, int jobs, long *checked)
{
    store_scan scan = { g, 0 };
    reverify_counts c;
    memset(&c, 0, sizeof c);
    double t0 = now_s();
    store_status st = reverify_run(s, &scan, jobs, bench_keys, &c, NULL, NULL, NULL);
    double dt = now_s() - t0;
    *checked = (long)atomic_load(&c.checked);
    if (st != STORE_OK || atomic_load(&c.divergent) != 0)
        return -1;
    return (double)*checked / dt;
}

int main(void)
{
    char dir[] = "/tmp/replayd-bench-reverify-XXXXXX", path[128], err[256];
    if (!mkdtemp(dir))
        return 1;
    snprintf(path, sizeof path, "%s/replayd.db", dir);
    store_config cfg = { .database = path, .busy_timeout_ms = 5000, .group_commit_max = 512,
                         .group_commit_wait_us = 200 };
    store *s = NULL;
    rdb_stats built;
    int rc = 1;
    if (store_open(&cfg, &s, err, sizeof err) != STORE_OK) {
        fprintf(stderr, "bench_reverify: %s\n", err);
        goto out;
    }
    bool repaired;
    if (!keys_load(&keys_store, dir, true, &repaired, err, sizeof err) ||
        !rdb_build(s, SCORES, 11, &keys_store, &built)) {
        fprintf(stderr, "bench_reverify: the database could not be built\n");
        goto out;
    }
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (cores < 1)
        cores = 1;
    printf("\n== reverify: %ld stored scores of every game (a tenth dailies), read and replayed\n"
           "   again (level rebuilt, moves decoded, hashed, replayed, result compared, receipt\n"
           "   checked) ==\n",
           built.total);
    long checked;
    double one = rate(s, NULL, 1, &checked);
    printf("  1 job:   %8.0f scores/s  (%ld checked)  = %.0f per second per core\n", one, checked, one);
    double all = rate(s, NULL, (int)cores, &checked);
    printf("  %ld jobs: %8.0f scores/s  (%ld checked)  = %.0f per second per core\n", cores, all, checked,
           all / (double)cores);
    printf("  per game, 1 job:\n");
    for (size_t i = 0; i < game_catalog_count; i++) {
        double r = rate(s, game_catalog[i], 1, &checked);
        printf("    %-12s %8.0f scores/s  (%ld checked)\n", game_catalog[i]->name, r, checked);
        if (r < 0)
            goto out;
    }
    rc = one > 0 && all > 0 ? 0 : 1;
out:
    if (s)
        store_close(s);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        rc = 1;
    return rc;
}
