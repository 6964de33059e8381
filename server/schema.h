/*
 * schema: the SQL migrations built into the binary. The table is generated
 * at build time from schema/NNN_name.sql by schema/embed_sql.sh, in file
 * name order; version is NNN. Static data, nothing to free.
 */
#ifndef REPLAYD_SERVER_SCHEMA_H
#define REPLAYD_SERVER_SCHEMA_H

typedef struct schema_migration {
    int version;
    const char *name;
    const char *sql;
} schema_migration;

extern const schema_migration schema_migrations[];
extern const int schema_migration_count;
/* The PostgreSQL backend's, from schema/pg/NNN_name.sql. */
extern const schema_migration schema_pg_migrations[];
extern const int schema_pg_migration_count;

#endif
