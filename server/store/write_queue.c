#include "write_queue.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

struct write_queue {
    pthread_mutex_t mu;
    pthread_cond_t cv; /* the writer waits here for writes */
    store_write *head, *tail;
    bool stopping;
    pthread_t thread;
    int max_batch;
    int64_t wait_us;
    write_batch_fn run;
    void *ctx;
    store_write **batch;
};

static int64_t mono_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* Takes up to room queued writes into out; called with mu held. */
static int take(write_queue *q, store_write **out, int room)
{
    int n = 0;
    while (q->head && n < room) {
        store_write *w = q->head;
        q->head = w->next;
        if (!q->head)
            q->tail = NULL;
        w->next = NULL;
        out[n++] = w;
    }
    return n;
}

/* With mu held and n writes taken: waits for more only when the last batch
 * showed concurrent callers (a lone caller gains nothing from waiting),
 * until as many as last time are here (its callers are back), and only
 * while they keep arriving: stops after a quarter of the wait with none. */
static int fill(write_queue *q, int n, int prev)
{
    int max = q->max_batch;
    if (n >= max || n >= prev || q->wait_us <= 0 || prev <= 1 || q->stopping)
        return n;
    int64_t start = mono_us(), last = start;
    while (n < max && n < prev && !q->stopping) {
        if (q->head) {
            n += take(q, q->batch + n, max - n);
            last = mono_us();
            continue;
        }
        int64_t quarter = last + q->wait_us / 4, limit = start + q->wait_us;
        int64_t until = quarter < limit ? quarter : limit;
        struct timespec ts = { (time_t)(until / 1000000), (long)(until % 1000000) * 1000 };
        if (pthread_cond_timedwait(&q->cv, &q->mu, &ts) == ETIMEDOUT)
            return n + take(q, q->batch + n, max - n);
    }
    return n;
}

static void *writer_main(void *arg)
{
    write_queue *q = arg;
    int prev = 0; /* the size of the last batch */
    pthread_mutex_lock(&q->mu);
    for (;;) {
        while (!q->head && !q->stopping)
            pthread_cond_wait(&q->cv, &q->mu);
        if (!q->head)
            break; /* stopping, and the queue is drained */
        int n = fill(q, take(q, q->batch, q->max_batch), prev);
        prev = n;
        pthread_mutex_unlock(&q->mu);
        q->run(q->ctx, q->batch, n);
        pthread_mutex_lock(&q->mu);
    }
    pthread_mutex_unlock(&q->mu);
    return NULL;
}

write_queue *write_queue_start(int max_batch, int wait_us, write_batch_fn run, void *ctx,
                               char *err, size_t err_len)
{
    write_queue *q = calloc(1, sizeof *q);
    if (!q || max_batch < 1 || !(q->batch = calloc((size_t)max_batch, sizeof *q->batch))) {
        snprintf(err, err_len, "out of memory");
        free(q);
        return NULL;
    }
    q->max_batch = max_batch;
    q->wait_us = wait_us > 0 ? wait_us : 0;
    q->run = run;
    q->ctx = ctx;
    pthread_mutex_init(&q->mu, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&q->cv, &ca);
    pthread_condattr_destroy(&ca);
    if (pthread_create(&q->thread, NULL, writer_main, q) != 0) {
        snprintf(err, err_len, "cannot start the writer thread");
        pthread_cond_destroy(&q->cv);
        pthread_mutex_destroy(&q->mu);
        free(q->batch);
        free(q);
        return NULL;
    }
    return q;
}

void write_queue_push(write_queue *q, store_write *w)
{
    w->next = NULL;
    pthread_mutex_lock(&q->mu);
    if (q->stopping) {
        pthread_mutex_unlock(&q->mu);
        w->status = STORE_ERROR;
        w->done(w);
        return;
    }
    if (q->tail)
        q->tail->next = w;
    else
        q->head = w;
    q->tail = w;
    pthread_cond_signal(&q->cv);
    pthread_mutex_unlock(&q->mu);
}

void write_queue_stop(write_queue *q)
{
    if (!q)
        return;
    pthread_mutex_lock(&q->mu);
    q->stopping = true;
    pthread_cond_signal(&q->cv);
    pthread_mutex_unlock(&q->mu);
    pthread_join(q->thread, NULL);
    pthread_cond_destroy(&q->cv);
    pthread_mutex_destroy(&q->mu);
    free(q->batch);
    free(q);
}
