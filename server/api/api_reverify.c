/*
 * api_reverify: re-verification as an operator's call (reverify.h does
 * the work). POST /v1/admin/reverify {game?, since?, jobs?} starts one run
 * on a background thread and answers 202; GET /v1/admin/reverify reports
 * its progress and, once it ended, its result. One run at a time (409
 * while one runs); the last run's report stays until the next starts.
 *
 * Ownership: serve.c makes the job with reverify_job_new after the store
 * opened and frees it with reverify_job_free before the store closes
 * (that cancels a running run and waits for its thread). The first
 * REVERIFY_KEPT divergences are kept as JSON, owned by the job.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/civil.h"
#include "api.h"
#include "../http/app.h"
#include "../trust/reverify.h"

#define REVERIFY_KEPT 100
#define REVERIFY_DEFAULT_JOBS 1 /* a serving machine keeps its cores for requests */

typedef enum job_state { JOB_IDLE, JOB_RUNNING, JOB_DONE, JOB_FAILED, JOB_CANCELLED } job_state;

struct reverify_job {
    pthread_mutex_t mu; /* guards everything below but the counts */
    job_state state;
    bool thread_live;   /* a thread to join */
    pthread_t thread;
    store *db;
    const keyring *keys; /* the server's: receipts are checked too */
    store_scan scan;
    char since[11];
    int jobs;
    int64_t started_at, finished_at;
    json_t *divergences; /* the first REVERIFY_KEPT */
    reverify_counts counts;
};

reverify_job *reverify_job_new(store *db, const keyring *keys)
{
    reverify_job *j = calloc(1, sizeof *j);
    if (!j)
        return NULL;
    pthread_mutex_init(&j->mu, NULL);
    j->db = db;
    j->keys = keys;
    j->divergences = json_array();
    return j;
}

void reverify_job_free(reverify_job *j)
{
    if (!j)
        return;
    atomic_store(&j->counts.cancel, true);
    if (j->thread_live)
        pthread_join(j->thread, NULL);
    json_decref(j->divergences);
    pthread_mutex_destroy(&j->mu);
    free(j);
}

static void keep(void *ctx, const json_t *d)
{
    reverify_job *j = ctx;
    pthread_mutex_lock(&j->mu);
    if (json_array_size(j->divergences) < REVERIFY_KEPT)
        json_array_append(j->divergences, (json_t *)d);
    pthread_mutex_unlock(&j->mu);
    char *text = json_dumps(d, JSON_COMPACT | JSON_PRESERVE_ORDER);
    if (text) /* every one is logged, beyond those kept */
        fprintf(stderr, "{\"event\":\"reverify_divergence\",\"score\":%s}\n", text);
    free(text);
}

static void *run(void *arg)
{
    reverify_job *j = arg;
    store_status st = reverify_run(j->db, &j->scan, j->jobs, j->keys, &j->counts, keep, NULL, j);
    pthread_mutex_lock(&j->mu);
    j->finished_at = now_ms();
    j->state = st != STORE_OK ? JOB_FAILED : atomic_load(&j->counts.cancel) ? JOB_CANCELLED : JOB_DONE;
    const char *state = j->state == JOB_DONE ? "done" : j->state == JOB_CANCELLED ? "cancelled" : "failed";
    pthread_mutex_unlock(&j->mu);
    fprintf(stderr, "{\"event\":\"reverify_finished\",\"state\":\"%s\",\"checked\":%lld,\"divergent\":%lld}\n",
            state, (long long)atomic_load(&j->counts.checked), (long long)atomic_load(&j->counts.divergent));
    return NULL;
}

static json_t *report(reverify_job *j)
{
    static const char *const names[] = { "idle", "running", "done", "failed", "cancelled" };
    char at[32];
    pthread_mutex_lock(&j->mu);
    json_t *o = json_pack("{s:s,s:o,s:o,s:i,s:I,s:I,s:I}", "state", names[j->state], "game",
                          j->scan.g ? json_string(j->scan.g->name) : json_null(), "since",
                          j->since[0] ? json_string(j->since) : json_null(), "jobs", j->jobs, "total",
                          (json_int_t)atomic_load(&j->counts.total), "checked",
                          (json_int_t)atomic_load(&j->counts.checked), "divergent",
                          (json_int_t)atomic_load(&j->counts.divergent));
    if (j->state == JOB_IDLE) {
        json_object_set_new(o, "started_at", json_null());
    } else {
        iso_time_format(j->started_at, at);
        json_object_set_new(o, "started_at", json_string(at));
    }
    if (j->state == JOB_IDLE || j->state == JOB_RUNNING) {
        json_object_set_new(o, "finished_at", json_null());
    } else {
        iso_time_format(j->finished_at, at);
        json_object_set_new(o, "finished_at", json_string(at));
    }
    json_object_set_new(o, "divergences", json_deep_copy(j->divergences));
    pthread_mutex_unlock(&j->mu);
    return o;
}

/* The server's re-verification job for an operator's request; NULL (and
 * the request answered) when the caller is not one or there is no job. */
static reverify_job *job_for(request *r)
{
    if (!api_admin_ok(r))
        return NULL;
    if (!r->app->reverify)
        reply_error(r, 500, "internal", "re-verification is not available");
    return r->app->reverify;
}

void api_admin_reverify_status(request *r)
{
    reverify_job *j = job_for(r);
    if (!j)
        return;
    reply_json(r, 200, report(j));
}

/* The body's options into j (under its lock); false after a 400. */
static bool read_options(request *r, const json_t *doc, reverify_job *j)
{
    const json_t *name = json_object_get(doc, "game"), *since = json_object_get(doc, "since"),
                 *jobs = json_object_get(doc, "jobs");
    size_t known = (name != NULL) + (since != NULL) + (jobs != NULL);
    store_scan scan = { NULL, 0 };
    civil_date d;
    if (known != json_object_size(doc) || (name && !json_is_string(name)) ||
        (since && !json_is_string(since)) || (jobs && !json_is_integer(jobs))) {
        reply_error(r, 400, "bad_request",
                    "expected {\"game\": string, \"since\": \"YYYY-MM-DD\", \"jobs\": integer}, each optional");
        return false;
    }
    if (name && !(scan.g = game_find(json_string_value(name)))) {
        reply_error(r, 404, "unknown_game", "no such game");
        return false;
    }
    if (since) {
        if (!civil_parse(json_string_value(since), &d)) {
            reply_error(r, 400, "bad_date", "since must be a date YYYY-MM-DD");
            return false;
        }
        scan.since_ms = civil_to_days(d) * 86400000;
    }
    json_int_t n = jobs ? json_integer_value(jobs) : REVERIFY_DEFAULT_JOBS;
    if (n < 1 || n > REVERIFY_MAX_JOBS) {
        reply_error(r, 400, "bad_request", "jobs must be 1..64");
        return false;
    }
    j->scan = scan;
    snprintf(j->since, sizeof j->since, "%s", since ? json_string_value(since) : "");
    j->jobs = (int)n;
    return true;
}

void api_admin_reverify_start(request *r)
{
    reverify_job *j = job_for(r);
    if (!j)
        return;
    json_t *doc = req_json_object(r);
    if (!doc)
        return;
    pthread_mutex_lock(&j->mu);
    if (j->state == JOB_RUNNING) {
        pthread_mutex_unlock(&j->mu);
        json_decref(doc);
        reply_error(r, 409, "reverify_running", "a re-verification is running; GET /v1/admin/reverify follows it");
        return;
    }
    /* the previous run's thread has ended (its state says so): reap it */
    if (j->thread_live) {
        pthread_join(j->thread, NULL);
        j->thread_live = false;
    }
    bool ok = read_options(r, doc, j), started = false;
    json_decref(doc);
    if (ok) {
        json_array_clear(j->divergences);
        memset(&j->counts, 0, sizeof j->counts);
        j->started_at = now_ms();
        j->finished_at = 0;
        j->state = JOB_RUNNING;
        started = j->thread_live = pthread_create(&j->thread, NULL, run, j) == 0;
        if (!started)
            j->state = JOB_FAILED;
    }
    pthread_mutex_unlock(&j->mu);
    if (!ok)
        return;
    if (!started) {
        reply_error(r, 500, "internal", "the re-verification could not start");
        return;
    }
    reply_json(r, 202, report(j));
}
