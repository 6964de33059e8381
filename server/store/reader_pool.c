/* reader_pool: see the header. */
#include "reader_pool.h"

void reader_pool_init(reader_pool *p, void (*refresh)(sd_conn *c))
{
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    p->n = 0;
    p->refresh = refresh;
}

bool reader_pool_add(reader_pool *p, sd_conn *c)
{
    if (p->n >= READER_POOL_MAX)
        return false;
    p->busy[p->n] = false;
    p->conns[p->n++] = c;
    return true;
}

sd_conn *reader_pool_get(reader_pool *p)
{
    pthread_mutex_lock(&p->mu);
    for (;;) {
        for (int i = 0; i < p->n; i++) {
            if (!p->busy[i]) {
                p->busy[i] = true;
                pthread_mutex_unlock(&p->mu);
                if (p->refresh)
                    p->refresh(p->conns[i]);
                return p->conns[i];
            }
        }
        pthread_cond_wait(&p->cv, &p->mu);
    }
}

void reader_pool_put(reader_pool *p, sd_conn *c)
{
    pthread_mutex_lock(&p->mu);
    for (int i = 0; i < p->n; i++)
        if (p->conns[i] == c)
            p->busy[i] = false;
    pthread_cond_signal(&p->cv);
    pthread_mutex_unlock(&p->mu);
}

void reader_pool_destroy(reader_pool *p, void (*close)(sd_conn *c))
{
    for (int i = 0; close && i < p->n; i++)
        close(p->conns[i]);
    pthread_cond_destroy(&p->cv);
    pthread_mutex_destroy(&p->mu);
    p->n = 0;
}
