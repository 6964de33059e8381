/*
 * reader_pool: a backend's read connections, shared by every thread that
 * reads: get() waits for a free one, put() hands it back. Each backend
 * fills one at open (its own connections, seen through its driver) and
 * store.c runs every read on a connection from it.
 *
 * Ownership: the pool holds pointers to the backend's connections; the
 * backend keeps their storage, and reader_pool_destroy closes them.
 */
#ifndef REPLAYD_SERVER_READER_POOL_H
#define REPLAYD_SERVER_READER_POOL_H

#include <pthread.h>
#include <stdbool.h>

#include "store_driver.h"

#define READER_POOL_MAX 8

typedef struct reader_pool {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int n;
    sd_conn *conns[READER_POOL_MAX];
    bool busy[READER_POOL_MAX];
    /* run on a connection as it is taken (PostgreSQL: re-establishes one
     * that broke); may be NULL */
    void (*refresh)(sd_conn *c);
} reader_pool;

void reader_pool_init(reader_pool *p, void (*refresh)(sd_conn *c));
/* Adds a connection; false when the pool is full. */
bool reader_pool_add(reader_pool *p, sd_conn *c);
sd_conn *reader_pool_get(reader_pool *p);
void reader_pool_put(reader_pool *p, sd_conn *c);
/* Closes every connection added (with close) and the pool. */
void reader_pool_destroy(reader_pool *p, void (*close)(sd_conn *c));

#endif
