/*
 * store_sqlite (internal): what store_sqlite.c and store_writer.c share:
 * the store itself and the write jobs its writer thread commits.
 *
 * Ownership: the store owns every connection, thread, queue and the board
 * cache. A job lives on its caller's stack; the writer only touches it
 * between taking it from the queue and marking it done.
 */
#ifndef REPLAYD_SERVER_STORE_SQLITE_H
#define REPLAYD_SERVER_STORE_SQLITE_H

#include <pthread.h>
#include <stdbool.h>

#include "board_cache.h"
#include "rank.h"
#include "sqlite_conn.h"
#include "store.h"

#define READERS 4

typedef enum job_kind { JOB_SUBMIT, JOB_PLAYER, JOB_TOKEN, JOB_REJECTION } job_kind;

typedef struct job {
    struct job *next;
    job_kind kind;
    store_status st;
    bool done;
    pthread_cond_t cv;
    /* JOB_SUBMIT */
    store_score *sc;
    store_score *existing;
    rank_entry entry; /* what the boards are offered after the commit */
    /* JOB_PLAYER */
    const char *name;
    const uint8_t *hash;
    int64_t now;
    store_player *player;
    /* JOB_TOKEN */
    const store_token *token;
    int max_outstanding;
    store_token *token_existing;
    /* JOB_REJECTION */
    const store_rejection *rejection;
} job;

struct store {
    store_config cfg;
    conn writer;
    conn readers[READERS];
    bool reader_busy[READERS];
    pthread_mutex_t pool_mu;
    pthread_cond_t pool_cv;
    board_cache *boards;

    pthread_mutex_t q_mu;
    pthread_cond_t q_cv; /* the writer waits here for jobs */
    job *q_head, *q_tail;
    bool stopping;
    bool thread_started;
    pthread_t thread;
    job **batch;

    /* the checkpointer: WAL checkpoints off the commit path */
    conn ckpt;
    pthread_mutex_t ck_mu;
    pthread_cond_t ck_cv;
    bool ck_pending, ck_stopping, ck_started;
    pthread_t ck_thread;
};

/* Starts the writer and checkpointer threads (store_open, after migrating). */
store_status store_writer_start(store *s, char *err, size_t err_len);
/* Drains the queue, then stops both threads; safe on a store never started. */
void store_writer_stop(store *s);
/* Queues j, waits until the writer committed it or failed; j->st. */
store_status store_writer_run(store *s, job *j);

#endif
