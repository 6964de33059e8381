/*
 * schema: the SQL migrations built into the binary. The table is generated
 * at build time from schema/NNN_name.sql by schema/embed_sql.sh, in file
 * name order; version is NNN. A backend's numbering is its own (the
 * PostgreSQL backend started later, with fewer steps); store_version is
 * the one schema version both report (/healthz, `replayd migrate`): the
 * SQLite migration a PostgreSQL one matches, from its `-- store version`
 * line. Static data, nothing to free.
 */
#ifndef REPLAYD_SERVER_SCHEMA_H
#define REPLAYD_SERVER_SCHEMA_H

typedef struct schema_migration {
    int version;       /* the backend's own: NNN of its file */
    int store_version; /* the one store schema it brings a database to (both backends agree) */
    const char *name;
    const char *sql;
} schema_migration;

extern const schema_migration schema_migrations[];
extern const int schema_migration_count;
/* The PostgreSQL backend's, from schema/pg/NNN_name.sql. */
extern const schema_migration schema_pg_migrations[];
extern const int schema_pg_migration_count;

#include <stddef.h>
#include <stdio.h>

/* The newest version of a migration table (0 when empty), or -1 (and err
 * says which) unless its versions and its store versions strictly
 * increase and its newest store version is the SQLite table's (the two
 * backends of one build cannot disagree on the schema they report): both
 * backends check this before applying anything. `dir` prefixes the name
 * in the message ("" or "pg/"). */
static inline int schema_newest(const schema_migration *list, int count, const char *dir,
                                char *err, size_t err_len)
{
    int latest = 0, reached = 0;
    for (int i = 0; i < count; i++) {
        if (list[i].version <= latest || list[i].store_version <= reached) {
            snprintf(err, err_len, "migration %s%s out of order", dir, list[i].name);
            return -1;
        }
        latest = list[i].version;
        reached = list[i].store_version;
    }
    int sqlite_newest = schema_migration_count ? schema_migrations[schema_migration_count - 1].version : 0;
    if (reached != sqlite_newest) {
        snprintf(err, err_len, "migrations %s end at store version %d, the SQLite ones at %d", dir, reached,
                 sqlite_newest);
        return -1;
    }
    return latest;
}

/* The store version a database at a backend's own version has reached (0
 * for a new one; a version this build does not know: itself, the newer
 * database is refused before it is served). */
static inline int schema_store_version(const schema_migration *list, int count, int version)
{
    for (int i = 0; i < count; i++)
        if (list[i].version == version)
            return list[i].store_version;
    return version;
}

/* How a backend runs the protocol below: each hook on its own connection
 * c. exec runs a script of statements; error is the last failure's text. */
typedef struct schema_ops {
    /* the migration's transaction, taken so that every other process
     * starting at once waits for it (SQLite: BEGIN IMMEDIATE; PostgreSQL:
     * an advisory lock) */
    int (*begin)(void *c);
    /* the newest migration applied (0: a new database), -1 on failure */
    int (*version)(void *c);
    int (*exec)(void *c, const char *sql);
    void (*rollback)(void *c);
    const char *(*error)(void *c);
} schema_ops;

/* Applies list (count migrations, names prefixed by dir in messages) the
 * one way both backends do (schema.c): each migration in its own
 * transaction that re-reads the version, so two processes starting at
 * once cannot apply one twice; a database newer than this build is
 * refused. The hooks return store_status values (STORE_OK, STORE_BUSY,
 * STORE_ERROR); so does this, with err filled on failure. */
int schema_apply(const schema_ops *ops, void *c, const schema_migration *list, int count,
                 const char *dir, char *err, size_t err_len);

#endif
