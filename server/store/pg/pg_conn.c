/*
 * pg_conn: the PostgreSQL driver and the per-connection helpers (see the
 * header). The SQL of every request the store serves is in the one table
 * of store_sql.c, prepared here with $N for its ?N; own_sql below holds
 * PostgreSQL's text for the statements whose engines differ (the read
 * snapshot, JSON functions, the score's record as one CTE, the row and
 * advisory locks SQLite does not need), lock_suffix the row locks added
 * after the table's text, pg_only the backend's own statements.
 * Migrations are plain commands.
 */
#include "pg_conn.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../store_backend.h"

/* PostgreSQL's own text, where its engine needs it to differ from the one
 * table (store_sql.c), written with ?N like the table (prepare() reads
 * each ?N as $N); the counts are the table's. The row locks that make the
 * rules hold across nodes are here: the player's row (NO KEY UPDATE does
 * not block the foreign-key checks of other writes) before any other row
 * of theirs, then the token's or the score's. */
static const char *const own_sql[SD_COUNT] = {
    /* a read of several statements sees one snapshot */
    [SD_READ_BEGIN] = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY",
    /* JSON: PostgreSQL's json_array_elements_text */
    [SD_PLAYER_NAMES] = "SELECT id, name FROM players"
                        " WHERE id IN (SELECT json_array_elements_text(?1::json)::bigint)",
    /* a row lock: a player's writes run one at a time on every node: the
     * token limits count what the others committed, a score's ban check
     * waits for a ban being committed (whose board recompute then sees
     * this score) */
    [SD_PLAYER_LOCK] = "SELECT 1 FROM players WHERE id = ?1 FOR NO KEY UPDATE",
    /* one round trip, a data-modifying CTE: the score, its token's redeem
     * and the player's level best; scores_nonce (unique) makes a second
     * score for one token impossible */
    [SD_SCORE_RECORD] = "WITH s AS (" SD_SCORE_INSERT " RETURNING seq),"
                        " u AS (UPDATE seed_tokens SET redeemed = true, outcome = ?19,"
                        " score_seq = (SELECT seq FROM s) WHERE nonce = ?2 AND NOT redeemed"
                        " RETURNING score_seq),"
                        " b AS (" SD_BEST_INSERT " SELECT ?4, ?5, ?9, seq, ?3, ?11, ?2 FROM s"
                        " WHERE ?20::boolean" SD_BEST_IF_HIGHER ")"
                        " SELECT score_seq FROM u",
    /* an advisory lock: two nodes' runs of one shape meet */
    [SD_TWIN_LOCK] = "SELECT pg_advisory_xact_lock(hashtextextended(encode(?1, 'hex') || ':' || ?2::text, 37))",
    /* JSON: PostgreSQL's jsonb */
    [SD_ADMIN_FEATURES] = "SELECT COUNT(*), COUNT(*) FILTER (WHERE w = 0) FROM"
                          " (SELECT (signals::jsonb #>> '{features,wasted}')::numeric AS w"
                          " FROM scores WHERE player_id = ?1 AND completed) f WHERE w IS NOT NULL",
    /* an advisory lock: two nodes signing in with one new identity at
     * once: the second waits for the first's commit, then finds its player */
    [SD_IDENTITY_LOCK] = "SELECT pg_advisory_xact_lock(hashtextextended(?1::text || ':' || ?2::text, 36))",
};

/* Row locks after the table's text: the redeem check holds the token's
 * row until the commit (a second node redeeming it waits here and then
 * reads it redeemed); an operator's action holds the player's or the
 * score's (NO KEY UPDATE: it does not wait for a score referring to this
 * one, duplicate_of takes KEY SHARE). */
static const char *const lock_suffix[SD_COUNT] = {
    [SD_TOKEN_GET] = " FOR UPDATE OF seed_tokens",
    [SD_SCORE_TOKEN] = " FOR UPDATE OF seed_tokens",
    [SD_ADMIN_PLAYER_ROW] = " FOR NO KEY UPDATE",
    [SD_ADMIN_SCORE_ROW] = " FOR NO KEY UPDATE OF s",
};

/* The backend's own statements, with their counts. */
static const sd_sql pg_only[PG_STMT_COUNT - SD_COUNT] = {
    /* a committed score's line to every node */
    [PG_NOTIFY - SD_COUNT] = { "SELECT pg_notify('" PG_CHANNEL "', ?1)", 1, 1 },
    /* a score's player, for the lock order */
    [PG_ADMIN_PLAYER_OF - SD_COUNT] = { "SELECT player_id FROM seed_tokens WHERE nonce = ?1", 1, 1 },
    /* a batch's players, locked in id order before its writes run in
     * arrival order (store_txn.c, pg_txn.c) */
    [PG_LOCK_PLAYERS - SD_COUNT] = { "SELECT id FROM players WHERE id = ANY(?1::bigint[])"
                                     " ORDER BY id FOR NO KEY UPDATE", 1, 1 },
};

/* Statement id as PostgreSQL runs it: its text (?N parameters; NULL: the
 * id has none) and declared counts. */
static sd_sql statement(int id)
{
    if (id >= SD_COUNT)
        return pg_only[id - SD_COUNT];
    sd_sql q = sd_sql_of[id];
    if (own_sql[id])
        q.text = own_sql[id];
    return q;
}

store_status pg_connect(pg_conn *c, const char *url, int busy_timeout_ms, char *err,
                        size_t err_len)
{
    memset(c, 0, sizeof *c);
    char lock_timeout[64];
    /* a row lock held longer than the busy timeout answers 503, as a
     * locked SQLite file does */
    snprintf(lock_timeout, sizeof lock_timeout, "-c lock_timeout=%d -c synchronous_commit=on",
             busy_timeout_ms > 0 ? busy_timeout_ms : 5000);
    const char *const keys[] = { "dbname", "application_name", "connect_timeout", "options", NULL };
    const char *const values[] = { url, "replayd", "5", lock_timeout, NULL };
    c->pg = PQconnectdbParams(keys, values, 1);
    if (!c->pg || PQstatus(c->pg) != CONNECTION_OK) {
        const char *msg = c->pg ? PQerrorMessage(c->pg) : "out of memory";
        snprintf(err, err_len, "%.*s", (int)strcspn(msg, "\n"), msg);
        pg_disconnect(c);
        return STORE_BUSY;
    }
    return STORE_OK;
}

void pg_disconnect(pg_conn *c)
{
    if (c->pg)
        PQfinish(c->pg);
    memset(c, 0, sizeof *c);
}

bool pg_usable(pg_conn *c)
{
    if (!c->pg)
        return false;
    if (PQstatus(c->pg) == CONNECTION_OK)
        return true;
    PQreset(c->pg);
    memset(c->prepared, 0, sizeof c->prepared);
    return PQstatus(c->pg) == CONNECTION_OK;
}

/* ---- parameters ---- */

static void pa_put(pg_args *a, const char *v, int len, int format)
{
    if (a->n >= PG_ARGS_MAX)
        return; /* a statement table bug: the statement fails on its count */
    a->values[a->n] = v;
    a->lengths[a->n] = len;
    a->formats[a->n] = format;
    a->n++;
}

void pa_int(pg_args *a, int64_t v)
{
    if (a->n >= PG_ARGS_MAX)
        return;
    snprintf(a->buf[a->n], sizeof a->buf[a->n], "%" PRId64, v);
    pa_put(a, a->buf[a->n], 0, 0);
}

void pa_text(pg_args *a, const char *s)
{
    pa_put(a, s, 0, 0);
}

void pa_bytes(pg_args *a, const void *b, int n)
{
    pa_put(a, b, n, 1);
}

void pa_null(pg_args *a)
{
    pa_put(a, NULL, 0, 0);
}

/* ---- running statements ---- */

/* A failed result as a status; logs what is not a lock timeout, a lost
 * connection or a retryable failure. */
static store_status failure(pg_conn *c, const PGresult *r, const char *where)
{
    const char *state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
    c->retry = state && (strcmp(state, "40P01") == 0 || strcmp(state, "40001") == 0);
    bool lost = PQstatus(c->pg) != CONNECTION_OK;
    /* 55P03: lock_timeout; 57014: a cancelled statement; 08: connection */
    bool busy = c->retry || lost ||
                (state && (strcmp(state, "55P03") == 0 || strcmp(state, "57014") == 0 ||
                           strncmp(state, "08", 2) == 0 || strcmp(state, "57P01") == 0));
    if (!busy || lost) {
        const char *msg = r ? PQresultErrorMessage(r) : PQerrorMessage(c->pg);
        char detail[512];
        snprintf(detail, sizeof detail, "%.*s", (int)strcspn(msg, "\n"), msg);
        store_log_error(where, detail);
    }
    return busy ? STORE_BUSY : STORE_ERROR;
}

static bool prepare(pg_conn *c, int id)
{
    if (c->prepared[id])
        return true;
    char name[16];
    snprintf(name, sizeof name, "s%d", id);
    char *text = sd_sql_dollars(statement(id).text, id < SD_COUNT ? lock_suffix[id] : NULL);
    PGresult *r = text ? PQprepare(c->pg, name, text, 0, NULL) : NULL;
    free(text);
    bool ok = r && PQresultStatus(r) == PGRES_COMMAND_OK;
    if (!ok)
        failure(c, r, "prepare");
    PQclear(r);
    c->prepared[id] = ok;
    return ok;
}

store_status pg_check(pg_conn *c, const sd_sql *declared, char *err, size_t err_len)
{
    /* the transaction commands (no parameters, no columns) prepare on first use */
    for (int id = SD_READ_END + 1; id < PG_STMT_COUNT; id++) {
        static const char *const own_names[PG_STMT_COUNT - SD_COUNT] = {
            [PG_NOTIFY - SD_COUNT] = "notify",
            [PG_ADMIN_PLAYER_OF - SD_COUNT] = "admin_player_of",
            [PG_LOCK_PLAYERS - SD_COUNT] = "lock_players",
        };
        const char *name = id < SD_COUNT ? sd_names[id] : own_names[id - SD_COUNT];
        sd_sql q = statement(id);
        if (id < SD_COUNT)
            q = (sd_sql){ q.text, declared[id].params, declared[id].cols };
        if (!q.text) {
            snprintf(err, err_len, "statement %s: no text", name);
            return STORE_ERROR;
        }
        if (!prepare(c, id)) {
            const char *msg = PQerrorMessage(c->pg);
            snprintf(err, err_len, "statement %s: %.*s", name, (int)strcspn(msg, "\n"), msg);
            return STORE_ERROR;
        }
        char sname[16];
        snprintf(sname, sizeof sname, "s%d", id);
        PGresult *r = PQdescribePrepared(c->pg, sname);
        bool described = r && PQresultStatus(r) == PGRES_COMMAND_OK;
        int params = described ? PQnparams(r) : -1, cols = described ? PQnfields(r) : -1;
        PQclear(r);
        if (!sd_sql_counts_ok(name, &q, params, cols, err, err_len))
            return STORE_ERROR;
    }
    return STORE_OK;
}

/* A connection that was idle (no transaction open) and found broken when
 * used: nothing of the caller's was lost, so it is re-established and the
 * statement sent again, once (after PostgreSQL restarted, or an operator
 * ended the session). */
static bool reconnect_idle(pg_conn *c, bool was_idle)
{
    return was_idle && c->pg && PQstatus(c->pg) != CONNECTION_OK && pg_usable(c);
}

PGresult *pg_run(pg_conn *c, int id, const pg_args *a, const char *where, store_status *st)
{
    static const pg_args none = { 0 };
    if (!a)
        a = &none;
    bool was_idle = c->pg && PQtransactionStatus(c->pg) == PQTRANS_IDLE;
    for (int attempt = 0;; attempt++) {
        c->retry = false;
        if (!c->pg || !prepare(c, id)) {
            if (attempt == 0 && reconnect_idle(c, was_idle))
                continue;
            if (st)
                *st = c->pg && PQstatus(c->pg) == CONNECTION_OK ? STORE_ERROR : STORE_BUSY;
            return NULL;
        }
        char name[16];
        snprintf(name, sizeof name, "s%d", id);
        PGresult *r = PQexecPrepared(c->pg, name, a->n, a->values, a->lengths, a->formats, 0);
        ExecStatusType rs = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
        if (rs == PGRES_COMMAND_OK || rs == PGRES_TUPLES_OK)
            return r;
        store_status s = failure(c, r, where);
        PQclear(r);
        if (attempt == 0 && reconnect_idle(c, was_idle))
            continue;
        if (st)
            *st = s;
        return NULL;
    }
}

PGresult *pg_query(pg_conn *c, const char *sql, const pg_args *a, const char *where,
                   store_status *st)
{
    static const pg_args none = { 0 };
    if (!a)
        a = &none;
    c->retry = false;
    if (!c->pg) {
        if (st)
            *st = STORE_BUSY;
        return NULL;
    }
    PGresult *r = PQexecParams(c->pg, sql, a->n, NULL, a->values, a->lengths, a->formats, 0);
    ExecStatusType rs = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
    if (rs == PGRES_COMMAND_OK || rs == PGRES_TUPLES_OK)
        return r;
    store_status s = failure(c, r, where);
    PQclear(r);
    if (st)
        *st = s;
    return NULL;
}

store_status pg_exec(pg_conn *c, const char *sql, const char *where)
{
    if (!c->pg)
        return STORE_BUSY;
    bool was_idle = PQtransactionStatus(c->pg) == PQTRANS_IDLE;
    for (int attempt = 0;; attempt++) {
        c->retry = false;
        PGresult *r = PQexec(c->pg, sql);
        ExecStatusType rs = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
        store_status st = rs == PGRES_COMMAND_OK || rs == PGRES_TUPLES_OK ? STORE_OK
                                                                          : failure(c, r, where);
        PQclear(r);
        if (st != STORE_OK && attempt == 0 && reconnect_idle(c, was_idle))
            continue;
        return st;
    }
}

/* ---- columns ---- */

int64_t pg_int(const PGresult *r, int row, int col)
{
    const char *v = PQgetvalue(r, row, col);
    return v ? strtoll(v, NULL, 10) : 0;
}

bool pg_bool(const PGresult *r, int row, int col)
{
    const char *v = PQgetvalue(r, row, col);
    return v && v[0] == 't';
}

static int hex_digit(char ch)
{
    if (ch >= '0' && ch <= '9')
        return ch - '0';
    if (ch >= 'a' && ch <= 'f')
        return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F')
        return ch - 'A' + 10;
    return -1;
}

/* bytea comes back as text in hex form: "\x" and two digits a byte */
void pg_bytes(uint8_t *dst, size_t n, const PGresult *r, int row, int col)
{
    const char *v = PQgetvalue(r, row, col);
    memset(dst, 0, n);
    if (!v || (size_t)PQgetlength(r, row, col) != 2 + 2 * n || v[0] != '\\' || v[1] != 'x')
        return;
    for (size_t i = 0; i < n; i++) {
        int hi = hex_digit(v[2 + 2 * i]), lo = hex_digit(v[3 + 2 * i]);
        if (hi < 0 || lo < 0) {
            memset(dst, 0, n);
            return;
        }
        dst[i] = (uint8_t)(hi << 4 | lo);
    }
}

/* ---- the driver ---- */

static sd_stmt *pq_start(sd_conn *sc, sd_id id)
{
    pg_conn *c = (pg_conn *)sc;
    pg_stmt *s = &c->st[id];
    s->c = c;
    s->id = (int)id;
    s->sql = NULL;
    s->own_sql = NULL;
    s->a.n = 0;
    s->r = NULL;
    s->ran = false;
    c->last = STORE_ERROR;
    return (sd_stmt *)s;
}

/* The text with $N for each ?N (the rules write ?N; no literal of theirs
 * holds a '?'). */
static sd_stmt *pq_start_sql(sd_conn *sc, const char *sql)
{
    pg_conn *c = (pg_conn *)sc;
    char *text = sd_sql_dollars(sql, NULL);
    c->last = STORE_ERROR;
    if (!text)
        return NULL;
    pg_stmt *s = &c->adhoc;
    memset(s, 0, sizeof *s);
    s->c = c;
    s->id = -1;
    s->sql = s->own_sql = text;
    return (sd_stmt *)s;
}

static void pq_bind_int(sd_stmt *st, int64_t v)
{
    pa_int(&((pg_stmt *)st)->a, v);
}

static void pq_bind_text(sd_stmt *st, const char *v)
{
    pg_args *a = &((pg_stmt *)st)->a;
    size_t n = strlen(v);
    if (n < SD_SHORT_TEXT && a->n < PG_ARGS_MAX) {
        memcpy(a->buf[a->n], v, n + 1);
        v = a->buf[a->n];
    }
    pa_text(a, v);
}

static void pq_bind_blob(sd_stmt *st, const void *v, size_t n)
{
    pa_bytes(&((pg_stmt *)st)->a, v, (int)n);
}

static void pq_bind_null(sd_stmt *st)
{
    pa_null(&((pg_stmt *)st)->a);
}

static int pq_step(sd_stmt *st)
{
    pg_stmt *s = (pg_stmt *)st;
    pg_conn *c = s->c;
    if (!s->ran) {
        store_status res = STORE_ERROR;
        if (s->id >= 0 && s->id <= SD_READ_END) { /* a transaction's command */
            res = pg_exec(c, statement(s->id).text, sd_names[s->id]);
            s->rows = 0;
        } else {
            s->r = s->id >= 0 ? pg_run(c, s->id, &s->a, sd_names[s->id], &res)
                              : pg_query(c, s->sql, &s->a, "admin_rejections", &res);
            if (s->r)
                res = STORE_OK;
            s->rows = s->r ? PQntuples(s->r) : 0;
        }
        if (res != STORE_OK) {
            c->last = res;
            return SD_FAIL;
        }
        s->ran = true;
        s->row = -1;
    }
    return ++s->row < s->rows ? SD_ROW : SD_DONE;
}

/* Integers, and booleans as 0/1 ('t' and 'f' in the text form). */
static int64_t pq_col_int(sd_stmt *st, int col)
{
    pg_stmt *s = (pg_stmt *)st;
    const char *v = PQgetvalue(s->r, s->row, col);
    if (!v)
        return 0;
    if (v[0] == 't' || v[0] == 'f')
        return v[0] == 't';
    return strtoll(v, NULL, 10);
}

static const char *pq_col_text(sd_stmt *st, int col)
{
    pg_stmt *s = (pg_stmt *)st;
    return PQgetisnull(s->r, s->row, col) ? NULL : PQgetvalue(s->r, s->row, col);
}

static void pq_col_blob(sd_stmt *st, int col, uint8_t *dst, size_t n)
{
    pg_stmt *s = (pg_stmt *)st;
    pg_bytes(dst, n, s->r, s->row, col);
}

static void pq_done(sd_stmt *st)
{
    pg_stmt *s = (pg_stmt *)st;
    PQclear(s->r);
    s->r = NULL;
    free(s->own_sql);
    s->own_sql = NULL;
    s->sql = NULL;
    s->a.n = 0;
    s->ran = false;
}

/* Logged where it failed (pg_run), once. */
static store_status pq_failed(sd_conn *sc, const char *where)
{
    (void)where;
    return ((pg_conn *)sc)->last;
}

const store_driver pg_driver = STORE_DRIVER_OF(pq);
