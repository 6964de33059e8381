/*
 * store_pg: the PostgreSQL backend of store.h, for several stateless nodes
 * on one database: opening, migrations, the reader pool, reads and board
 * loads; commits are in pg_commit.c, the listener that keeps boards
 * current across nodes in pg_listen.c.
 *
 * Ownership: see store_pg.h; pg_close frees everything.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sodium.h>

#include "schema.h"
#include "store_pg.h"

pg_conn *pg_reader_get(store_db *s)
{
    pthread_mutex_lock(&s->pool_mu);
    for (;;) {
        for (int i = 0; i < PG_READERS; i++) {
            if (!s->reader_busy[i]) {
                s->reader_busy[i] = true;
                pthread_mutex_unlock(&s->pool_mu);
                pg_usable(&s->readers[i]); /* reconnects one that broke */
                return &s->readers[i];
            }
        }
        pthread_cond_wait(&s->pool_cv, &s->pool_mu);
    }
}

void pg_reader_put(store_db *s, pg_conn *c)
{
    pthread_mutex_lock(&s->pool_mu);
    s->reader_busy[c - s->readers] = false;
    pthread_cond_signal(&s->pool_cv);
    pthread_mutex_unlock(&s->pool_mu);
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
    pg_conn *c = pg_reader_get(s);
    int v = c->pg && PQstatus(c->pg) == CONNECTION_OK ? read_version(c) : -1;
    pg_reader_put(s, c);
    return v;
}

/* ---- board loading (a reader connection, for the board cache) ---- */

static store_status pg_load_board(store_db *s, const store_board *b, rank_board *into)
{
    pg_conn *c = pg_reader_get(s);
    bool daily = b->day >= 0;
    pg_args a = { 0 };
    if (daily) {
        play p = { .day = b->day };
        pa_date(&a, &p);
    } else {
        pa_text(&a, b->g->name);
        pa_int(&a, b->level);
    }
    store_status st = STORE_ERROR;
    PGresult *r = pg_run(c, daily ? PS_LOAD_DAILY : PS_LOAD_LEVEL, &a, "pg_load_board", &st);
    if (r) {
        st = STORE_OK;
        rank_entry e;
        memset(&e, 0, sizeof e);
        for (int i = 0, n = PQntuples(r); i < n && st == STORE_OK; i++) {
            e.score = pg_int(r, i, 0);
            e.seq = pg_int(r, i, 1);
            e.player_id = pg_int(r, i, 2);
            e.received_at = pg_int(r, i, 3);
            pg_bytes(e.nonce, PLAY_NONCE_BYTES, r, i, 4);
            if (rank_offer(into, &e) < 0)
                st = STORE_ERROR;
        }
        PQclear(r);
    }
    pg_reader_put(s, c);
    return st;
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
    pthread_cond_destroy(&s->pool_cv);
    pthread_mutex_destroy(&s->pool_mu);
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
    pthread_mutex_init(&s->pool_mu, NULL);
    pthread_cond_init(&s->pool_cv, NULL);
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

/* ---- reads ---- */

static store_status pg_player_by_token(store_db *s, const uint8_t token_hash[STORE_HASH_BYTES],
                                       store_player *out)
{
    pg_conn *c = pg_reader_get(s);
    pg_args a = { 0 };
    pa_bytes(&a, token_hash, STORE_HASH_BYTES);
    store_status st = STORE_ERROR;
    PGresult *r = pg_run(c, PS_PLAYER_BY_HASH, &a, "pg_player_by_token", &st);
    if (r) {
        st = STORE_NOT_FOUND;
        if (PQntuples(r) == 1) {
            memset(out, 0, sizeof *out);
            out->id = pg_int(r, 0, 0);
            pg_text(out->name, sizeof out->name, r, 0, 1);
            out->created_at = pg_int(r, 0, 2);
            out->banned = pg_bool(r, 0, 3);
            st = STORE_OK;
        }
        PQclear(r);
    }
    pg_reader_put(s, c);
    return st;
}

/* One round trip for all of them: ids as a bigint array literal. */
static store_status pg_player_names(store_db *s, int n, const int64_t *ids,
                                    char (*names)[STORE_NAME_MAX + 1])
{
    for (int i = 0; i < n; i++)
        names[i][0] = '\0';
    if (n <= 0)
        return STORE_OK;
    char *list = malloc((size_t)n * 22 + 3);
    if (!list)
        return STORE_ERROR;
    size_t at = 0;
    list[at++] = '{';
    for (int i = 0; i < n; i++)
        at += (size_t)sprintf(list + at, i ? ",%lld" : "%lld", (long long)ids[i]);
    list[at++] = '}';
    list[at] = '\0';
    pg_conn *c = pg_reader_get(s);
    pg_args a = { 0 };
    pa_text(&a, list);
    store_status st = STORE_ERROR;
    PGresult *r = pg_run(c, PS_PLAYER_NAMES, &a, "pg_player_names", &st);
    if (r) {
        for (int row = 0, rows = PQntuples(r); row < rows; row++) {
            int64_t id = pg_int(r, row, 0);
            for (int i = 0; i < n; i++)
                if (ids[i] == id)
                    pg_text(names[i], STORE_NAME_MAX + 1, r, row, 1);
        }
        st = STORE_OK;
        PQclear(r);
    }
    pg_reader_put(s, c);
    free(list);
    return st;
}

static store_status pg_token_stats(store_db *s, int64_t player_id, int64_t now,
                                   store_token_stats *out)
{
    pg_conn *c = pg_reader_get(s);
    pg_args a = { 0 };
    pa_int(&a, now);
    pa_int(&a, player_id);
    pa_int(&a, now - now % 86400000);
    store_status st = STORE_ERROR;
    PGresult *r = pg_run(c, PS_TOKEN_STATS, &a, "pg_token_stats", &st);
    if (r) {
        out->issued = pg_int(r, 0, 0);
        out->completed = pg_int(r, 0, 1);
        out->incomplete = pg_int(r, 0, 2);
        out->forfeited = pg_int(r, 0, 3);
        out->outstanding = pg_int(r, 0, 4);
        out->abandoned = pg_int(r, 0, 5);
        out->draws_today = pg_int(r, 0, 6);
        out->most_draws_one_level_today = pg_int(r, 0, 7);
        st = STORE_OK;
        PQclear(r);
    }
    pg_reader_put(s, c);
    return st;
}

static store_status pg_twin_candidates(store_db *s, const play *p,
                                       const uint8_t shape[STORE_HASH_BYTES], int limit,
                                       store_twin_candidate *out, int *n)
{
    *n = 0;
    pg_conn *c = pg_reader_get(s);
    pg_args a = { 0 };
    pa_int(&a, p->seed);
    pa_bytes(&a, shape, STORE_HASH_BYTES);
    pa_game(&a, p);
    pa_int(&a, p->level);
    pa_int(&a, p->version);
    pa_int(&a, p->player_id);
    pa_int(&a, limit);
    store_status st = STORE_ERROR;
    PGresult *r = pg_run(c, PS_TWIN_CANDIDATES, &a, "pg_twin_candidates", &st);
    if (r) {
        st = STORE_OK;
        for (int i = 0; i < PQntuples(r) && *n < limit; i++) {
            store_twin_candidate *o = &out[*n];
            o->seq = pg_int(r, i, 0);
            o->player_id = pg_int(r, i, 1);
            o->moves_json = strdup(PQgetvalue(r, i, 2));
            if (!o->moves_json) {
                st = STORE_ERROR;
                break;
            }
            (*n)++;
        }
        PQclear(r);
    }
    if (st != STORE_OK) {
        store_twin_candidates_clear(out, *n);
        *n = 0;
    }
    pg_reader_put(s, c);
    return st;
}

static store_status pg_score_get(store_db *s, const uint8_t nonce[PLAY_NONCE_BYTES],
                                 store_score *out)
{
    out->moves_json = NULL;
    out->result_json = NULL;
    out->signals_json = NULL;
    pg_conn *c = pg_reader_get(s);
    store_status st = pg_score_by_nonce(c, nonce, out, "pg_score_get");
    pg_reader_put(s, c);
    return st;
}

const store_backend store_pg_backend = {
    .name = "postgresql",
    .claims = pg_claims,
    .open = pg_open,
    .close = pg_close,
    .schema_version = pg_schema_version,
    .commit = pg_commit,
    .player_by_token = pg_player_by_token,
    .player_names = pg_player_names,
    .score_get = pg_score_get,
    .twin_candidates = pg_twin_candidates,
    .token_stats = pg_token_stats,
    .scores_page = pg_scores_page,
    .scores_count = pg_scores_count,
    .load_board = pg_load_board,
    .admin_read = pg_admin_read,
    .watch = pg_watch,
};
