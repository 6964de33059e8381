/* schema: the one migration protocol of both backends (see the header). */
#include "schema.h"

#include <time.h>

#include "store.h"

int schema_apply(const schema_ops *ops, void *c, const schema_migration *list, int count,
                 const char *dir, char *err, size_t err_len)
{
    int latest = schema_newest(list, count, dir, err, err_len);
    if (latest < 0)
        return STORE_ERROR;
    for (int i = 0; i < count; i++) {
        const schema_migration *m = &list[i];
        int st = ops->begin(c);
        if (st != STORE_OK) {
            snprintf(err, err_len, "migration %s%s: %s", dir, m->name, ops->error(c));
            return st;
        }
        int current = ops->version(c);
        if (current > latest) {
            ops->rollback(c);
            snprintf(err, err_len, "database schema version %d is newer than this build (%d)",
                     current, latest);
            return STORE_ERROR;
        }
        st = current < 0 ? STORE_ERROR : STORE_OK;
        if (st == STORE_OK && current < m->version) {
            st = ops->exec(c, m->sql);
            struct timespec now;
            clock_gettime(CLOCK_REALTIME, &now);
            char record[128];
            snprintf(record, sizeof record,
                     "INSERT INTO schema_version (version, applied_at) VALUES (%d, %lld)",
                     m->version, (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000);
            if (st == STORE_OK)
                st = ops->exec(c, record);
        }
        if (st == STORE_OK)
            st = ops->exec(c, "COMMIT");
        if (st != STORE_OK) {
            snprintf(err, err_len, "migration %s%s: %s", dir, m->name, ops->error(c));
            ops->rollback(c);
            return st == STORE_BUSY ? STORE_BUSY : STORE_ERROR;
        }
    }
    return STORE_OK;
}
