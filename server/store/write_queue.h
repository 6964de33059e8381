/*
 * write_queue: the one writer thread of a store and its batching (group
 * commit). Callers push writes and go on; the thread takes every write
 * queued so far (up to max_batch), waits a little for more while the last
 * batch shows concurrent callers, and hands the batch to `run`, which
 * commits it and calls each write's `done`. A batch is as large as the
 * load: no caller thread waits, so nothing but max_batch bounds it.
 *
 * Ownership: the queue owns its thread and its batch array; the writes
 * belong to their callers until their `done` ran.
 */
#ifndef REPLAYD_SERVER_WRITE_QUEUE_H
#define REPLAYD_SERVER_WRITE_QUEUE_H

#include <stddef.h>

#include "store.h"

typedef struct write_queue write_queue;

/* Runs on the writer thread; must call every write's done before returning. */
typedef void (*write_batch_fn)(void *ctx, store_write **batch, int n);

write_queue *write_queue_start(int max_batch, int wait_us, write_batch_fn run, void *ctx,
                               char *err, size_t err_len);
/* Queues w. After write_queue_stop began, w->done runs at once with STORE_ERROR. */
void write_queue_push(write_queue *q, store_write *w);
/* Runs everything queued, then stops and joins the thread; frees q. */
void write_queue_stop(write_queue *q);

#endif
