/*
 * store_pg: the PostgreSQL backend of store.h, for several stateless nodes
 * on one database: opening, migrations and the reader pool; its driver
 * and statements are in pg_conn.c, commits in pg_commit.c, the listener
 * that keeps boards current across nodes in pg_listen.c. Every read and
 * rule above it is the store's.
 *
 * Ownership: see store_pg.h; pg_close frees everything.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sodium.h>

#include "../schema.h"
#include "store_pg.h"

/* A reader connection that broke is re-established as it is taken. */
static void reader_refresh(sd_conn *c)
{
    pg_usable((pg_conn *)c);
}

static reader_pool *pg_readers(store_db *s)
{
    return &s->pool;
}

/* ---- migrations ---- */

/* The newest migration applied, 0 on a new database, -1 on failure. */
static int read_version(pg_conn *c)
{
    PGresult *r = PQexec(c->pg, "SELECT to_regclass('schema_version') IS NOT NULL");
    int v = r && PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1 ? pg_bool(r, 0, 0) : -1;
    PQclear(r);
    if (v != 1)
        return v; /* 0: a new database; -1: a failure */
    r = PQexec(c->pg, "SELECT COALESCE(MAX(version), 0) FROM schema_version");
    v = r && PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1 ? (int)pg_int(r, 0, 0) : -1;
    PQclear(r);
    return v;
}

/* Each migration in its own transaction, under an advisory lock that
 * every node starting at once takes in turn, re-reading the version. */
static store_status migrate(pg_conn *c, char *err, size_t err_len)
{
    int latest = schema_newest(schema_pg_migrations, schema_pg_migration_count, "pg/", err, err_len);
    if (latest < 0)
        return STORE_ERROR;
    for (int i = 0; i < schema_pg_migration_count; i++) {
        const schema_migration *m = &schema_pg_migrations[i];
        const char *failed_at = NULL;
        if (pg_exec(c, "BEGIN", "migrate") != STORE_OK ||
            pg_exec(c, "SELECT pg_advisory_xact_lock(7270001)", "migrate") != STORE_OK) {
            failed_at = "begin";
            goto fail;
        }
        int current = read_version(c);
        if (current < 0) {
            failed_at = "version";
            goto fail;
        }
        if (current > latest) {
            pg_exec(c, "ROLLBACK", "migrate");
            snprintf(err, err_len, "database schema version %d is newer than this build (%d)",
                     current, latest);
            return STORE_ERROR;
        }
        if (current < m->version) {
            PGresult *r = PQexec(c->pg, m->sql);
            bool ok = r && PQresultStatus(r) == PGRES_COMMAND_OK;
            if (!ok)
                snprintf(err, err_len, "migration pg/%s: %s", m->name,
                         r ? PQresultErrorMessage(r) : PQerrorMessage(c->pg));
            PQclear(r);
            if (!ok) {
                pg_exec(c, "ROLLBACK", "migrate");
                return STORE_ERROR;
            }
            struct timespec now;
            clock_gettime(CLOCK_REALTIME, &now);
            char record[128];
            snprintf(record, sizeof record,
                     "INSERT INTO schema_version (version, applied_at) VALUES (%d, %lld)",
                     m->version, (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000);
            if (pg_exec(c, record, "migrate") != STORE_OK) {
                failed_at = "record";
                goto fail;
            }
        }
        if (pg_exec(c, "COMMIT", "migrate") != STORE_OK) {
            failed_at = "commit";
            goto fail;
        }
        continue;
    fail:
        snprintf(err, err_len, "migration pg/%s (%s): %s", m->name, failed_at,
                 PQerrorMessage(c->pg));
        err[strcspn(err, "\n")] = '\0';
        pg_exec(c, "ROLLBACK", "migrate");
        return STORE_ERROR;
    }
    return STORE_OK;
}

static int pg_schema_version(store_db *s)
{
    pg_conn *c = (pg_conn *)reader_pool_get(&s->pool);
    int v = c->pg && PQstatus(c->pg) == CONNECTION_OK ? read_version(c) : -1;
    reader_pool_put(&s->pool, (sd_conn *)c);
    return v;
}

/* ---- open / close ---- */

static bool pg_claims(const char *database)
{
    return strncmp(database, "postgres://", 11) == 0 ||
           strncmp(database, "postgresql://", 13) == 0;
}

static void pg_close(store_db *s)
{
    if (!s)
        return;
    pg_listen_stop(s);
    for (int i = 0; i < PG_READERS; i++)
        pg_disconnect(&s->readers[i]);
    pg_disconnect(&s->writer);
    reader_pool_destroy(&s->pool);
    free(s->url);
    free(s);
}

static store_status pg_open(const store_config *cfg, store_db **out, char *err, size_t err_len)
{
    *out = NULL;
    store_db *s = calloc(1, sizeof *s);
    if (!s || !(s->url = strdup(cfg->database))) {
        free(s);
        snprintf(err, err_len, "out of memory");
        return STORE_ERROR;
    }
    s->cfg = *cfg;
    if (s->cfg.busy_timeout_ms <= 0)
        s->cfg.busy_timeout_ms = 5000;
    s->cfg.database = NULL;
    s->listen.wake[0] = s->listen.wake[1] = -1;
    reader_pool_init(&s->pool, reader_refresh);
    uint8_t id[8];
    randombytes_buf(id, sizeof id);
    for (int i = 0; i < 8; i++)
        snprintf(s->node + 2 * i, 3, "%02x", id[i]);

    store_status st = pg_connect(&s->writer, s->url, s->cfg.busy_timeout_ms, err, err_len);
    if (st != STORE_OK)
        goto fail;
    st = migrate(&s->writer, err, err_len);
    if (st != STORE_OK)
        goto fail;
    for (int i = 0; i < PG_READERS; i++) {
        st = pg_connect(&s->readers[i], s->url, s->cfg.busy_timeout_ms, err, err_len);
        if (st != STORE_OK)
            goto fail;
        reader_pool_add(&s->pool, (sd_conn *)&s->readers[i]);
    }
    *out = s;
    return STORE_OK;
fail:
    pg_close(s);
    return st;
}

static store_status pg_watch(store_db *s, const store_watch *w, char *err, size_t err_len)
{
    return pg_listen_start(s, w, err, err_len);
}

const store_backend store_pg_backend = {
    .name = "postgresql",
    .claims = pg_claims,
    .open = pg_open,
    .close = pg_close,
    .schema_version = pg_schema_version,
    .commit = pg_commit,
    .driver = &pg_driver,
    .readers = pg_readers,
    .watch = pg_watch,
};
