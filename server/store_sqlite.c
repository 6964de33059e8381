/*
 * store_sqlite: the SQLite backend of store.h: opening, migrations, reads
 * and leaderboards. Writes are jobs for store_writer.c.
 *
 * Connections: one writer (used only by the writer thread), a pool of
 * READERS read connections (WAL lets them read while the writer writes,
 * so a read never waits for a commit), and one for the checkpointer.
 * Leaderboards are answered from board_cache (memory), which loads a board
 * through load_board the first time it is read and is offered every
 * committed score by the writer.
 *
 * Ownership: the store owns its connections, statements, threads, queue and
 * board cache; store_close frees them all.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "schema.h"
#include "store_sqlite.h"

/* Exactly 32 hex digits (either case) to 16 bytes. */
static bool nonce_from_hex(const char *hex, uint8_t out[STORE_NONCE_BYTES])
{
    if (!hex || strlen(hex) != 2 * STORE_NONCE_BYTES)
        return false;
    for (size_t i = 0; i < 2 * STORE_NONCE_BYTES; i++) {
        char ch = hex[i];
        int v = ch >= '0' && ch <= '9'   ? ch - '0'
                : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
                : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10
                                         : -1;
        if (v < 0)
            return false;
        if (i % 2 == 0)
            out[i / 2] = (uint8_t)(v << 4);
        else
            out[i / 2] |= (uint8_t)v;
    }
    return true;
}

static conn *reader_get(store *s)
{
    pthread_mutex_lock(&s->pool_mu);
    for (;;) {
        for (int i = 0; i < READERS; i++) {
            if (!s->reader_busy[i]) {
                s->reader_busy[i] = true;
                pthread_mutex_unlock(&s->pool_mu);
                return &s->readers[i];
            }
        }
        pthread_cond_wait(&s->pool_cv, &s->pool_mu);
    }
}

static void reader_put(store *s, conn *c)
{
    pthread_mutex_lock(&s->pool_mu);
    s->reader_busy[c - s->readers] = false;
    pthread_cond_signal(&s->pool_cv);
    pthread_mutex_unlock(&s->pool_mu);
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
    int latest = 0;
    for (int i = 0; i < schema_migration_count; i++) {
        if (schema_migrations[i].version <= latest) {
            snprintf(err, err_len, "migration %s out of order", schema_migrations[i].name);
            return STORE_ERROR;
        }
        latest = schema_migrations[i].version;
    }
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

int store_schema_version(store *s)
{
    conn *c = reader_get(s);
    int v = -1;
    if (read_version(c, &v) != SQLITE_OK)
        v = -1;
    reader_put(s, c);
    return v;
}

/* ---- board loading (reader connection, board_cache callback) ---- */

/* Names for a loaded board: by one scan of players when the board holds a
 * good share of them, else one lookup per entry. */
static int load_names(conn *c, rank_board *into)
{
    int64_t n = rank_size(into), max_id = 0;
    sqlite3_stmt *st = sq_stmt(c, ST_MAX_PLAYER);
    if (!st)
        return SQLITE_ERROR;
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        max_id = sqlite3_column_int64(st, 0);
    sq_done(st);
    if (rc != SQLITE_ROW)
        return rc;
    if (n == 0)
        return SQLITE_DONE;
    if (n * 4 >= max_id) {
        st = sq_stmt(c, ST_ALL_NAMES);
        if (!st)
            return SQLITE_ERROR;
        while ((rc = sqlite3_step(st)) == SQLITE_ROW)
            rank_set_name(into, sqlite3_column_int64(st, 0),
                          (const char *)sqlite3_column_text(st, 1));
        sq_done(st);
        return rc;
    }
    st = sq_stmt(c, ST_PLAYER_NAME);
    if (!st)
        return SQLITE_ERROR;
    rank_entry buf[64];
    rc = SQLITE_DONE;
    for (int64_t first = 1; first <= n && rc == SQLITE_DONE; first += 64) {
        int got = rank_range(into, first, 64, buf);
        for (int i = 0; i < got && rc == SQLITE_DONE; i++) {
            sqlite3_bind_int64(st, 1, buf[i].player_id);
            rc = sqlite3_step(st);
            if (rc == SQLITE_ROW) {
                rank_set_name(into, buf[i].player_id, (const char *)sqlite3_column_text(st, 0));
                rc = SQLITE_DONE;
            }
            sqlite3_reset(st);
        }
    }
    sq_done(st);
    return rc;
}

static store_status load_board(void *ctx, const store_board *b, rank_board *into)
{
    store *s = ctx;
    conn *c = reader_get(s);
    bool daily = b->daily_date[0] != '\0';
    int rc = SQLITE_ERROR;
    /* one read transaction: the names see the same snapshot as the rows */
    if (sqlite3_exec(c->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK)
        goto out;
    sqlite3_stmt *st = sq_stmt(c, daily ? ST_LOAD_DAILY : ST_LOAD_LEVEL);
    if (!st)
        goto out_end;
    if (daily) {
        sqlite3_bind_text(st, 1, b->daily_date, -1, SQLITE_STATIC);
    } else {
        sqlite3_bind_text(st, 1, b->game, -1, SQLITE_STATIC);
        sqlite3_bind_int(st, 2, b->level);
    }
    rank_entry e;
    memset(&e, 0, sizeof e);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        e.score = sqlite3_column_int64(st, 0);
        e.seq = sqlite3_column_int64(st, 1);
        e.player_id = sqlite3_column_int64(st, 2);
        e.received_at = sqlite3_column_int64(st, 3);
        sq_blob(e.nonce, STORE_NONCE_BYTES, st, 4);
        if (rank_offer(into, &e) < 0) {
            rc = SQLITE_NOMEM;
            break;
        }
    }
    sq_done(st);
    if (rc == SQLITE_DONE)
        rc = load_names(c, into);
out_end:
    sqlite3_exec(c->db, "COMMIT", NULL, NULL, NULL);
out:
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

store_status store_open(const store_config *cfg, store **out, char *err, size_t err_len)
{
    *out = NULL;
    if (err_len)
        err[0] = '\0';
    if (!cfg || !cfg->path) {
        snprintf(err, err_len, "no database path");
        return STORE_ERROR;
    }
    store *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, err_len, "out of memory");
        return STORE_ERROR;
    }
    s->cfg = *cfg;
    if (s->cfg.busy_timeout_ms <= 0)
        s->cfg.busy_timeout_ms = 5000;
    if (s->cfg.group_commit_max <= 0)
        s->cfg.group_commit_max = 64;
    if (s->cfg.group_commit_wait_us < 0)
        s->cfg.group_commit_wait_us = 0;
    s->cfg.path = NULL; /* not kept: the caller's string */
    pthread_mutex_init(&s->pool_mu, NULL);
    pthread_cond_init(&s->pool_cv, NULL);
    pthread_mutex_init(&s->q_mu, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&s->q_cv, &ca);
    pthread_condattr_destroy(&ca);
    pthread_mutex_init(&s->ck_mu, NULL);
    pthread_cond_init(&s->ck_cv, NULL);

    store_config open_cfg = s->cfg;
    open_cfg.path = cfg->path;
    store_status st = STORE_ERROR;
    if (!make_parent_dir(cfg->path, err, err_len))
        goto fail;
    st = sq_open(&s->writer, &open_cfg, false, err, err_len);
    if (st != STORE_OK)
        goto fail;
    st = migrate(&s->writer, err, err_len);
    if (st != STORE_OK)
        goto fail;
    for (int i = 0; i < READERS; i++) {
        st = sq_open(&s->readers[i], &open_cfg, true, err, err_len);
        if (st != STORE_OK)
            goto fail;
    }
    st = sq_open(&s->ckpt, &open_cfg, false, err, err_len);
    if (st != STORE_OK)
        goto fail;
    st = STORE_ERROR;
    s->boards = board_cache_new(load_board, s);
    if (!s->boards) {
        snprintf(err, err_len, "out of memory");
        goto fail;
    }
    st = store_writer_start(s, err, err_len);
    if (st != STORE_OK)
        goto fail;
    *out = s;
    return STORE_OK;
fail:
    store_close(s);
    return st;
}

void store_close(store *s)
{
    if (!s)
        return;
    store_writer_stop(s); /* drains the queue first */
    sq_close(&s->ckpt);
    for (int i = 0; i < READERS; i++)
        sq_close(&s->readers[i]);
    sq_close(&s->writer); /* the last connection checkpoints the WAL */
    board_cache_free(s->boards);
    pthread_cond_destroy(&s->q_cv);
    pthread_mutex_destroy(&s->q_mu);
    pthread_cond_destroy(&s->pool_cv);
    pthread_mutex_destroy(&s->pool_mu);
    pthread_cond_destroy(&s->ck_cv);
    pthread_mutex_destroy(&s->ck_mu);
    free(s);
}

/* ---- players ---- */

store_status store_player_create(store *s, const char *name,
                                 const uint8_t token_hash[STORE_HASH_BYTES], int64_t now,
                                 store_player *out)
{
    job j;
    memset(&j, 0, sizeof j);
    j.kind = JOB_PLAYER;
    j.name = name;
    j.hash = token_hash;
    j.now = now;
    j.player = out;
    return store_writer_run(s, &j);
}

store_status store_player_by_token(store *s, const uint8_t token_hash[STORE_HASH_BYTES],
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
            res = STORE_OK;
        } else {
            res = rc == SQLITE_DONE ? STORE_NOT_FOUND : sq_status(rc);
        }
        sq_done(st);
    }
    reader_put(s, c);
    return res;
}

/* ---- seed tokens ---- */

store_status store_token_issue(store *s, const store_token *t, int max_outstanding, int64_t now,
                               store_token *existing)
{
    job j;
    memset(&j, 0, sizeof j);
    j.kind = JOB_TOKEN;
    j.token = t;
    j.max_outstanding = max_outstanding;
    j.now = now;
    j.token_existing = existing;
    return store_writer_run(s, &j);
}

store_status store_token_get(store *s, const uint8_t nonce[STORE_NONCE_BYTES], store_token *out)
{
    conn *c = reader_get(s);
    store_status res = STORE_ERROR;
    sqlite3_stmt *st = sq_stmt(c, ST_TOKEN_GET);
    if (st) {
        sqlite3_bind_blob(st, 1, nonce, STORE_NONCE_BYTES, SQLITE_STATIC);
        int rc = sqlite3_step(st);
        if (rc == SQLITE_ROW) {
            sq_read_token(st, out);
            res = STORE_OK;
        } else {
            res = rc == SQLITE_DONE ? STORE_NOT_FOUND : sq_status(rc);
        }
        sq_done(st);
    }
    reader_put(s, c);
    return res;
}

store_status store_token_stats_for(store *s, int64_t player_id, int64_t now,
                                   store_token_stats *out)
{
    conn *c = reader_get(s);
    store_status res = STORE_ERROR;
    sqlite3_stmt *st = sq_stmt(c, ST_TOKEN_STATS);
    if (st) {
        sqlite3_bind_int64(st, 1, now);
        sqlite3_bind_int64(st, 2, player_id);
        int rc = sqlite3_step(st);
        if (rc == SQLITE_ROW) {
            out->issued = sqlite3_column_int64(st, 0);
            out->redeemed = sqlite3_column_int64(st, 1);
            out->outstanding = sqlite3_column_int64(st, 2);
            out->abandoned = sqlite3_column_int64(st, 3);
            res = STORE_OK;
        } else {
            res = sq_status(rc) == STORE_BUSY ? STORE_BUSY : STORE_ERROR;
        }
        sq_done(st);
    }
    reader_put(s, c);
    return res;
}

/* ---- scores ---- */

void store_score_clear(store_score *sc)
{
    if (!sc)
        return;
    free(sc->moves_json);
    free(sc->result_json);
    memset(sc, 0, sizeof *sc);
}

store_status store_submit(store *s, store_score *sc, store_score *existing)
{
    if (existing) {
        existing->moves_json = NULL;
        existing->result_json = NULL;
    }
    job j;
    memset(&j, 0, sizeof j);
    j.kind = JOB_SUBMIT;
    j.sc = sc;
    j.existing = existing;
    return store_writer_run(s, &j);
}

store_status store_score_get(store *s, const char *score_id, store_score *out)
{
    out->moves_json = NULL;
    out->result_json = NULL;
    uint8_t nonce[STORE_NONCE_BYTES];
    if (!nonce_from_hex(score_id, nonce))
        return STORE_NOT_FOUND;
    conn *c = reader_get(s);
    store_status res = sq_score_by_nonce(c, nonce, out);
    reader_put(s, c);
    return res == STORE_CONFLICT ? STORE_ERROR : res;
}

store_status store_rejection_add(store *s, const store_rejection *r)
{
    job j;
    memset(&j, 0, sizeof j);
    j.kind = JOB_REJECTION;
    j.rejection = r;
    return store_writer_run(s, &j);
}

/* ---- leaderboards ---- */

static void entry_out(const rank_entry *e, int64_t rank, store_entry *o)
{
    o->rank = rank;
    o->player_id = e->player_id;
    memcpy(o->player_name, e->name, sizeof o->player_name);
    o->score = e->score;
    o->seq = e->seq;
    o->submitted_at = e->received_at;
    sq_hex(e->nonce, STORE_NONCE_BYTES, o->score_id);
}

/* Copies ranks first.. (up to n) into out; a small stack buffer at a time. */
static int copy_range(const rank_board *rb, int64_t first, int n, store_entry *out)
{
    rank_entry buf[32];
    int done = 0;
    while (done < n) {
        int want = n - done < 32 ? n - done : 32;
        int got = rank_range(rb, first + done, want, buf);
        for (int i = 0; i < got; i++)
            entry_out(&buf[i], first + done + i, &out[done + i]);
        done += got;
        if (got < want)
            break;
    }
    return done;
}

store_status store_board_page(store *s, const store_board *b, const store_board_key *after,
                              bool backwards, int limit, store_entry *out, int *n, bool *more)
{
    *n = 0;
    *more = false;
    board_slot *slot;
    const rank_board *rb;
    store_status st = board_cache_acquire(s->boards, b, &slot, &rb);
    if (st != STORE_OK)
        return st;
    if (limit < 0)
        limit = 0;
    int64_t size = rank_size(rb);
    if (!backwards) {
        int64_t before = after ? rank_count_before(rb, after->score, after->seq, true) : 0;
        *n = copy_range(rb, before + 1, limit, out);
        *more = before + *n < size;
    } else {
        int64_t end = after ? rank_count_before(rb, after->score, after->seq, false) : size;
        int64_t first = end - limit + 1 < 1 ? 1 : end - limit + 1;
        *n = end >= first ? copy_range(rb, first, (int)(end - first + 1), out) : 0;
        *more = first > 1;
    }
    board_cache_release(slot);
    return STORE_OK;
}

store_status store_board_rank(store *s, const store_board *b, int64_t player_id,
                              store_entry *out)
{
    board_slot *slot;
    const rank_board *rb;
    store_status st = board_cache_acquire(s->boards, b, &slot, &rb);
    if (st != STORE_OK)
        return st;
    rank_entry e;
    int64_t r = rank_of_player(rb, player_id, &e);
    board_cache_release(slot);
    if (r == 0)
        return STORE_NOT_FOUND;
    entry_out(&e, r, out);
    return STORE_OK;
}

store_status store_board_around(store *s, const store_board *b, int64_t player_id, int around,
                                store_entry *out, int *n, int *self)
{
    *n = 0;
    *self = -1;
    if (around < 0)
        around = 0;
    board_slot *slot;
    const rank_board *rb;
    store_status st = board_cache_acquire(s->boards, b, &slot, &rb);
    if (st != STORE_OK)
        return st;
    int64_t r = rank_of_player(rb, player_id, NULL);
    if (r == 0) {
        board_cache_release(slot);
        return STORE_NOT_FOUND;
    }
    int64_t first = r - around < 1 ? 1 : r - around;
    int64_t last = r + around > rank_size(rb) ? rank_size(rb) : r + around;
    *n = copy_range(rb, first, (int)(last - first + 1), out);
    *self = (int)(r - first);
    board_cache_release(slot);
    return STORE_OK;
}

store_status store_board_size(store *s, const store_board *b, int64_t *out)
{
    board_slot *slot;
    const rank_board *rb;
    store_status st = board_cache_acquire(s->boards, b, &slot, &rb);
    if (st != STORE_OK)
        return st;
    *out = rank_size(rb);
    board_cache_release(slot);
    return STORE_OK;
}
