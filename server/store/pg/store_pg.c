/*
 * store_pg: the PostgreSQL backend of store.h, for several stateless nodes
 * on one database: opening, migrations and the reader pool; its driver
 * and statements are in pg_conn.c, the transaction hooks in pg_txn.c, the listener
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

static void reader_close(sd_conn *c)
{
    pg_disconnect((pg_conn *)c);
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

/* The migration protocol's hooks (schema.h): every node starting at once
 * takes the advisory lock in turn. */
static int migrate_begin(void *c)
{
    store_status st = pg_exec(c, "BEGIN", "migrate");
    return st != STORE_OK ? st : pg_exec(c, "SELECT pg_advisory_xact_lock(7270001)", "migrate");
}

static int migrate_version(void *c)
{
    return read_version(c);
}

/* A script of several statements: the simple query protocol. */
static int migrate_exec(void *c, const char *sql)
{
    PGresult *r = PQexec(((pg_conn *)c)->pg, sql);
    bool ok = r && PQresultStatus(r) == PGRES_COMMAND_OK;
    PQclear(r);
    return ok ? STORE_OK : STORE_ERROR;
}

static void migrate_rollback(void *c)
{
    pg_exec(c, "ROLLBACK", "migrate");
}

static const char *migrate_error(void *c)
{
    const char *msg = PQerrorMessage(((pg_conn *)c)->pg);
    return msg && msg[0] ? msg : "failed";
}

static const schema_ops pg_schema = { migrate_begin, migrate_version, migrate_exec,
                                      migrate_rollback, migrate_error };

static int pg_schema_version(store_db *s)
{
    pg_conn *c = (pg_conn *)reader_pool_get(&s->pool);
    int v = c->pg && PQstatus(c->pg) == CONNECTION_OK ? read_version(c) : -1;
    reader_pool_put(&s->pool, (sd_conn *)c);
    return v < 0 ? v : schema_store_version(schema_pg_migrations, schema_pg_migration_count, v);
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
    reader_pool_destroy(&s->pool, reader_close);
    pg_disconnect(&s->writer);
    free(s->url);
    sodium_memzero(&s->cfg.log, sizeof s->cfg.log); /* the log's signing keys */
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
    st = schema_apply(&pg_schema, &s->writer, schema_pg_migrations, schema_pg_migration_count, "pg/",
                      err, err_len);
    err[strcspn(err, "\n")] = '\0';
    if (st == STORE_OK)
        st = pg_check(&s->writer, sd_sql_of, err, err_len);
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

const store_backend store_pg_backend = STORE_BACKEND_OF(pg, "postgresql", .watch = pg_watch);
