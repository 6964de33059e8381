/*
 * store_sqlite: the SQLite backend of store.h (the embedded default):
 * opening, migrations, reads and board loads; commits are in
 * sqlite_commit.c, checkpoints in sqlite_checkpoint.c. It claims every
 * `database` that is not a URL: a file path.
 *
 * Ownership: see store_sqlite.h; sqlite_close frees everything.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "schema.h"
#include "store_sqlite.h"

static conn *reader_get(store_db *s)
{
    pthread_mutex_lock(&s->pool_mu);
    for (;;) {
        for (int i = 0; i < SQLITE_READERS; i++) {
            if (!s->reader_busy[i]) {
                s->reader_busy[i] = true;
                pthread_mutex_unlock(&s->pool_mu);
                return &s->readers[i];
            }
        }
        pthread_cond_wait(&s->pool_cv, &s->pool_mu);
    }
}

static void reader_put(store_db *s, conn *c)
{
    pthread_mutex_lock(&s->pool_mu);
    s->reader_busy[c - s->readers] = false;
    pthread_cond_signal(&s->pool_cv);
    pthread_mutex_unlock(&s->pool_mu);
}

conn *sqlite_reader_get(store_db *db)
{
    return reader_get(db);
}

void sqlite_reader_put(store_db *db, conn *c)
{
    reader_put(db, c);
}

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

/* Each migration in its own IMMEDIATE transaction that re-reads the
 * version, so two processes starting at once cannot apply one twice. */
static store_status migrate(conn *c, char *err, size_t err_len)
{
    int latest = schema_newest(schema_migrations, schema_migration_count, "", err, err_len);
    if (latest < 0)
        return STORE_ERROR;
    for (int i = 0; i < schema_migration_count; i++) {
        const schema_migration *m = &schema_migrations[i];
        int rc = sqlite3_exec(c->db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
        if (rc != SQLITE_OK)
            goto fail;
        int current = 0;
        rc = read_version(c, &current);
        if (rc != SQLITE_OK)
            goto fail_rollback;
        if (current > latest) {
            sqlite3_exec(c->db, "ROLLBACK", NULL, NULL, NULL);
            snprintf(err, err_len, "database schema version %d is newer than this build (%d)",
                     current, latest);
            return STORE_ERROR;
        }
        if (current < m->version) {
            rc = sqlite3_exec(c->db, m->sql, NULL, NULL, NULL);
            if (rc != SQLITE_OK)
                goto fail_rollback;
            struct timespec now;
            clock_gettime(CLOCK_REALTIME, &now);
            char record[128];
            snprintf(record, sizeof record,
                     "INSERT INTO schema_version (version, applied_at) VALUES (%d, %lld)",
                     m->version, (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000);
            rc = sqlite3_exec(c->db, record, NULL, NULL, NULL);
            if (rc != SQLITE_OK)
                goto fail_rollback;
        }
        rc = sqlite3_exec(c->db, "COMMIT", NULL, NULL, NULL);
        if (rc != SQLITE_OK)
            goto fail_rollback;
        continue;
    fail_rollback:
        snprintf(err, err_len, "migration %s: %s", m->name, sqlite3_errmsg(c->db));
        sqlite3_exec(c->db, "ROLLBACK", NULL, NULL, NULL);
        return sq_status(rc) == STORE_BUSY ? STORE_BUSY : STORE_ERROR;
    fail:
        snprintf(err, err_len, "migration %s: %s", m->name, sqlite3_errmsg(c->db));
        return sq_status(rc) == STORE_BUSY ? STORE_BUSY : STORE_ERROR;
    }
    return STORE_OK;
}

static int sqlite_schema_version(store_db *s)
{
    conn *c = reader_get(s);
    int v = -1;
    if (read_version(c, &v) != SQLITE_OK)
        v = -1;
    reader_put(s, c);
    return v;
}

/* ---- board loading (a reader connection, for the board cache) ---- */

static store_status sqlite_load_board(store_db *s, const store_board *b, rank_board *into)
{
    conn *c = reader_get(s);
    bool daily = b->day >= 0;
    sqlite3_stmt *st = sq_stmt(c, daily ? ST_LOAD_DAILY : ST_LOAD_LEVEL);
    int rc = SQLITE_ERROR;
    if (!st)
        goto out;
    if (daily) {
        play p = { .day = b->day };
        sq_bind_date(st, 1, &p);
    } else {
        sqlite3_bind_text(st, 1, b->g->name, -1, SQLITE_STATIC);
        sqlite3_bind_int(st, 2, b->level);
    }
    rank_entry e;
    memset(&e, 0, sizeof e);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        e.score = sqlite3_column_int64(st, 0);
        e.seq = sqlite3_column_int64(st, 1);
        e.player_id = sqlite3_column_int64(st, 2);
        e.received_at = sqlite3_column_int64(st, 3);
        sq_blob(e.nonce, PLAY_NONCE_BYTES, st, 4);
        if (rank_offer(into, &e) < 0) {
            rc = SQLITE_NOMEM;
            break;
        }
    }
    sq_done(st);
out:
    if (rc != SQLITE_DONE && sq_status(rc) != STORE_BUSY)
        store_log_error("sqlite_load_board", sqlite3_errmsg(c->db));
    reader_put(s, c);
    return rc == SQLITE_DONE ? STORE_OK : sq_status(rc) == STORE_BUSY ? STORE_BUSY : STORE_ERROR;
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
    for (int i = 0; i < SQLITE_READERS; i++)
        sq_close(&s->readers[i]);
    sq_close(&s->writer); /* the last connection checkpoints the WAL */
    pthread_cond_destroy(&s->pool_cv);
    pthread_mutex_destroy(&s->pool_mu);
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
    pthread_mutex_init(&s->pool_mu, NULL);
    pthread_cond_init(&s->pool_cv, NULL);

    store_config open_cfg = s->cfg;
    open_cfg.database = cfg->database;
    store_status st = STORE_ERROR;
    if (!make_parent_dir(cfg->database, err, err_len))
        goto fail;
    st = sq_open(&s->writer, &open_cfg, SQ_WRITER, err, err_len);
    if (st != STORE_OK)
        goto fail;
    st = migrate(&s->writer, err, err_len);
    if (st != STORE_OK)
        goto fail;
    for (int i = 0; i < SQLITE_READERS; i++) {
        st = sq_open(&s->readers[i], &open_cfg, SQ_READER, err, err_len);
        if (st != STORE_OK)
            goto fail;
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

/* ---- reads ---- */

static store_status sqlite_player_by_token(store_db *s, const uint8_t token_hash[STORE_HASH_BYTES],
                                           store_player *out)
{
    conn *c = reader_get(s);
    store_status res = STORE_ERROR;
    sqlite3_stmt *st = sq_stmt(c, ST_PLAYER_BY_HASH);
    if (st) {
        sqlite3_bind_blob(st, 1, token_hash, STORE_HASH_BYTES, SQLITE_STATIC);
        int rc = sqlite3_step(st);
        if (rc == SQLITE_ROW) {
            memset(out, 0, sizeof *out);
            out->id = sqlite3_column_int64(st, 0);
            sq_text(out->name, sizeof out->name, st, 1);
            out->created_at = sqlite3_column_int64(st, 2);
            out->banned = sqlite3_column_int(st, 3) != 0;
            res = STORE_OK;
        } else {
            res = rc == SQLITE_DONE ? STORE_NOT_FOUND : sq_status(rc);
        }
        sq_done(st);
    }
    if (res == STORE_ERROR)
        store_log_error("sqlite_player_by_token", sqlite3_errmsg(c->db));
    reader_put(s, c);
    return res;
}

static store_status sqlite_player_names(store_db *s, int n, const int64_t *ids,
                                        char (*names)[STORE_NAME_MAX + 1])
{
    conn *c = reader_get(s);
    store_status res = STORE_ERROR;
    sqlite3_stmt *st = sq_stmt(c, ST_PLAYER_NAME);
    if (st) {
        res = STORE_OK;
        for (int i = 0; i < n && res == STORE_OK; i++) {
            sqlite3_bind_int64(st, 1, ids[i]);
            int rc = sqlite3_step(st);
            names[i][0] = '\0';
            if (rc == SQLITE_ROW)
                sq_text(names[i], STORE_NAME_MAX + 1, st, 0);
            else if (rc != SQLITE_DONE)
                res = sq_status(rc) == STORE_BUSY ? STORE_BUSY : STORE_ERROR;
            sqlite3_reset(st);
        }
        sq_done(st);
    }
    if (res == STORE_ERROR)
        store_log_error("sqlite_player_names", sqlite3_errmsg(c->db));
    reader_put(s, c);
    return res;
}

static store_status sqlite_token_stats(store_db *s, int64_t player_id, int64_t now,
                                       store_token_stats *out)
{
    conn *c = reader_get(s);
    store_status res = STORE_ERROR;
    sqlite3_stmt *st = sq_stmt(c, ST_TOKEN_STATS);
    if (st) {
        sqlite3_bind_int64(st, 1, now);
        sqlite3_bind_int64(st, 2, player_id);
        sqlite3_bind_int64(st, 3, now - now % 86400000);
        int rc = sqlite3_step(st);
        if (rc == SQLITE_ROW) {
            out->issued = sqlite3_column_int64(st, 0);
            out->completed = sqlite3_column_int64(st, 1);
            out->incomplete = sqlite3_column_int64(st, 2);
            out->forfeited = sqlite3_column_int64(st, 3);
            out->outstanding = sqlite3_column_int64(st, 4);
            out->abandoned = sqlite3_column_int64(st, 5);
            out->draws_today = sqlite3_column_int64(st, 6);
            out->most_draws_one_level_today = sqlite3_column_int64(st, 7);
            res = STORE_OK;
        } else {
            res = sq_status(rc) == STORE_BUSY ? STORE_BUSY : STORE_ERROR;
        }
        sq_done(st);
    }
    if (res == STORE_ERROR)
        store_log_error("sqlite_token_stats", sqlite3_errmsg(c->db));
    reader_put(s, c);
    return res;
}

static store_status sqlite_score_get(store_db *s, const uint8_t nonce[PLAY_NONCE_BYTES],
                                     store_score *out)
{
    out->moves_json = NULL;
    out->result_json = NULL;
    conn *c = reader_get(s);
    store_status res = sq_score_by_nonce(c, nonce, out);
    if (res == STORE_ERROR)
        store_log_error("sqlite_score_get", sqlite3_errmsg(c->db));
    reader_put(s, c);
    return res == STORE_CONFLICT ? STORE_ERROR : res;
}

static store_status sqlite_twin_candidates(store_db *s, const play *p,
                                           const uint8_t shape[STORE_HASH_BYTES], int limit,
                                           store_twin_candidate *out, int *n)
{
    *n = 0;
    conn *c = reader_get(s);
    store_status res = STORE_ERROR;
    sqlite3_stmt *st = sq_stmt(c, ST_TWIN_CANDIDATES);
    if (st) {
        sqlite3_bind_int64(st, 1, p->seed);
        sqlite3_bind_blob(st, 2, shape, STORE_HASH_BYTES, SQLITE_STATIC);
        sq_bind_game(st, 3, p);
        sqlite3_bind_int(st, 4, p->level);
        sqlite3_bind_int(st, 5, p->version);
        sqlite3_bind_int64(st, 6, p->player_id);
        sqlite3_bind_int(st, 7, limit);
        int rc;
        res = STORE_OK;
        while (*n < limit && (rc = sqlite3_step(st)) == SQLITE_ROW) {
            store_twin_candidate *o = &out[*n];
            o->seq = sqlite3_column_int64(st, 0);
            o->player_id = sqlite3_column_int64(st, 1);
            o->moves_json = sq_dup(st, 2);
            if (!o->moves_json) {
                res = STORE_ERROR;
                break;
            }
            (*n)++;
        }
        if (res == STORE_OK && *n < limit && rc != SQLITE_DONE)
            res = sq_status(rc) == STORE_BUSY ? STORE_BUSY : STORE_ERROR;
        sq_done(st);
    }
    if (res == STORE_ERROR)
        store_log_error("sqlite_twin_candidates", sqlite3_errmsg(c->db));
    if (res != STORE_OK) {
        store_twin_candidates_clear(out, *n);
        *n = 0;
    }
    reader_put(s, c);
    return res;
}

static void bind_scan(sqlite3_stmt *st, int game_col, const store_scan *scan)
{
    if (scan->g)
        sqlite3_bind_text(st, game_col, scan->g->name, -1, SQLITE_STATIC);
    else
        sqlite3_bind_null(st, game_col);
    sqlite3_bind_int64(st, game_col + 1, scan->since_ms);
}

static store_status sqlite_scores_page(store_db *s, const store_scan *scan, int64_t after_seq,
                                       int limit, store_score *out, int *n)
{
    conn *c = reader_get(s);
    sqlite3_stmt *st = sq_stmt(c, ST_SCORES_PAGE);
    store_status res = st ? STORE_OK : STORE_ERROR;
    if (st) {
        sqlite3_bind_int64(st, 1, after_seq);
        bind_scan(st, 2, scan);
        sqlite3_bind_int(st, 4, limit);
        int rc = SQLITE_DONE;
        while (*n < limit && (rc = sqlite3_step(st)) == SQLITE_ROW) {
            res = sq_read_score(st, &out[*n]);
            if (res != STORE_OK)
                break;
            (*n)++;
        }
        if (res == STORE_OK && *n < limit && rc != SQLITE_DONE)
            res = sq_status(rc) == STORE_BUSY ? STORE_BUSY : STORE_ERROR;
        sq_done(st);
    }
    if (res == STORE_ERROR)
        store_log_error("sqlite_scores_page", sqlite3_errmsg(c->db));
    reader_put(s, c);
    return res;
}

static store_status sqlite_scores_count(store_db *s, const store_scan *scan, int64_t *out)
{
    conn *c = reader_get(s);
    sqlite3_stmt *st = sq_stmt(c, ST_SCORES_COUNT);
    store_status res = STORE_ERROR;
    if (st) {
        bind_scan(st, 1, scan);
        int rc = sqlite3_step(st);
        if (rc == SQLITE_ROW) {
            *out = sqlite3_column_int64(st, 0);
            res = STORE_OK;
        } else {
            res = sq_status(rc) == STORE_BUSY ? STORE_BUSY : STORE_ERROR;
        }
        sq_done(st);
    }
    if (res == STORE_ERROR)
        store_log_error("sqlite_scores_count", sqlite3_errmsg(c->db));
    reader_put(s, c);
    return res;
}

const store_backend store_sqlite_backend = {
    .name = "sqlite",
    .claims = sqlite_claims,
    .open = sqlite_open,
    .close = sqlite_close,
    .schema_version = sqlite_schema_version,
    .commit = sqlite_commit,
    .player_by_token = sqlite_player_by_token,
    .player_names = sqlite_player_names,
    .score_get = sqlite_score_get,
    .twin_candidates = sqlite_twin_candidates,
    .token_stats = sqlite_token_stats,
    .load_board = sqlite_load_board,
    .admin_read = sqlite_admin_read,
    .scores_page = sqlite_scores_page,
    .scores_count = sqlite_scores_count,
};
