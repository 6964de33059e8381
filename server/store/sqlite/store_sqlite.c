/*
 * store_sqlite: the SQLite backend of store.h (the embedded default):
 * opening, migrations and the reader pool; its driver and statements are
 * in sqlite_conn.c, the transaction hooks in sqlite_txn.c, checkpoints in
 * sqlite_checkpoint.c. Every read and rule above it is the store's. It claims every
 * `database` that is not a URL: a file path.
 *
 * Ownership: see store_sqlite.h; sqlite_close frees everything.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>
#include <sys/stat.h>
#include <time.h>

#include "../schema.h"
#include "store_sqlite.h"

/* ---- migrations ---- */

static int read_version(conn *c, int *version)
{
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(c->db,
                                "SELECT COUNT(*) FROM sqlite_master"
                                " WHERE type = 'table' AND name = 'schema_version'",
                                -1, &st, NULL);
    if (rc != SQLITE_OK)
        return rc;
    rc = sqlite3_step(st);
    bool exists = rc == SQLITE_ROW && sqlite3_column_int(st, 0) > 0;
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW)
        return rc;
    *version = 0;
    if (!exists)
        return SQLITE_OK;
    rc = sqlite3_prepare_v2(c->db, "SELECT COALESCE(MAX(version), 0) FROM schema_version", -1, &st, NULL);
    if (rc != SQLITE_OK)
        return rc;
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        *version = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? SQLITE_OK : rc;
}

/* The migration protocol's hooks (schema.h): BEGIN IMMEDIATE makes a
 * second process starting at once wait. */
static int migrate_exec(void *c, const char *sql)
{
    int rc = sqlite3_exec(((conn *)c)->db, sql, NULL, NULL, NULL);
    return rc == SQLITE_OK ? STORE_OK : sq_status(rc) == STORE_BUSY ? STORE_BUSY : STORE_ERROR;
}

static int migrate_begin(void *c)
{
    return migrate_exec(c, "BEGIN IMMEDIATE");
}

static int migrate_version(void *c)
{
    int v = 0;
    return read_version(c, &v) == SQLITE_OK ? v : -1;
}

static void migrate_rollback(void *c)
{
    sqlite3_exec(((conn *)c)->db, "ROLLBACK", NULL, NULL, NULL);
}

static const char *migrate_error(void *c)
{
    return sqlite3_errmsg(((conn *)c)->db);
}

static const schema_ops sqlite_schema = { migrate_begin, migrate_version, migrate_exec,
                                          migrate_rollback, migrate_error };

static int sqlite_schema_version(store_db *s)
{
    conn *c = (conn *)reader_pool_get(&s->pool);
    int v = -1;
    if (read_version(c, &v) != SQLITE_OK)
        v = -1;
    reader_pool_put(&s->pool, (sd_conn *)c);
    return v;
}

static void reader_close(sd_conn *c)
{
    sq_close((conn *)c);
}

static reader_pool *sqlite_readers(store_db *s)
{
    return &s->pool;
}

/* ---- open / close ---- */

/* Creates the database's directory (one level, mode 0700) when missing. */
static bool make_parent_dir(const char *path, char *err, size_t err_len)
{
    const char *slash = strrchr(path, '/');
    if (!slash || slash == path)
        return true;
    size_t n = (size_t)(slash - path);
    char *dir = malloc(n + 1);
    if (!dir) {
        snprintf(err, err_len, "out of memory");
        return false;
    }
    memcpy(dir, path, n);
    dir[n] = '\0';
    struct stat sb;
    bool ok = stat(dir, &sb) == 0 ? S_ISDIR(sb.st_mode) : mkdir(dir, 0700) == 0;
    if (!ok)
        snprintf(err, err_len, "%s: cannot create the database directory: %s", dir,
                 strerror(errno));
    free(dir);
    return ok;
}

static bool sqlite_claims(const char *database)
{
    return strstr(database, "://") == NULL;
}

static void sqlite_close(store_db *s)
{
    if (!s)
        return;
    sqlite_checkpointer_stop(s);
    reader_pool_destroy(&s->pool, reader_close);
    sq_close(&s->writer); /* the last connection checkpoints the WAL */
    sodium_memzero(&s->cfg.log, sizeof s->cfg.log); /* the log's signing keys */
    free(s);
}

static store_status sqlite_open(const store_config *cfg, store_db **out, char *err, size_t err_len)
{
    *out = NULL;
    store_db *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, err_len, "out of memory");
        return STORE_ERROR;
    }
    s->cfg = *cfg;
    if (s->cfg.busy_timeout_ms <= 0)
        s->cfg.busy_timeout_ms = 5000;
    s->cfg.database = NULL; /* not kept: the caller's string */
    reader_pool_init(&s->pool, NULL);

    store_config open_cfg = s->cfg;
    open_cfg.database = cfg->database;
    store_status st = STORE_ERROR;
    if (!make_parent_dir(cfg->database, err, err_len))
        goto fail;
    st = sq_open(&s->writer, &open_cfg, SQ_WRITER, err, err_len);
    if (st != STORE_OK)
        goto fail;
    st = schema_apply(&sqlite_schema, &s->writer, schema_migrations, schema_migration_count, "",
                      err, err_len);
    if (st == STORE_OK)
        st = sq_check(&s->writer, sd_sql_of, err, err_len);
    if (st != STORE_OK)
        goto fail;
    for (int i = 0; i < SQLITE_READERS; i++) {
        st = sq_open(&s->readers[i], &open_cfg, SQ_READER, err, err_len);
        if (st != STORE_OK)
            goto fail;
        reader_pool_add(&s->pool, (sd_conn *)&s->readers[i]);
    }
    st = sqlite_checkpointer_start(s, &open_cfg, err, err_len);
    if (st != STORE_OK)
        goto fail;
    *out = s;
    return STORE_OK;
fail:
    sqlite_close(s);
    return st;
}

const store_backend store_sqlite_backend = STORE_BACKEND_OF(sqlite, "sqlite", .watch = NULL);
