/*
 * pg_admin: the PostgreSQL backend's operator actions and reads, with the
 * semantics of sqlite_admin.c (same results, same admin_log rows, same
 * JSON answers).
 *
 * Actions (pg_run_admin) run on the writer thread inside the batch's
 * transaction: the row changes, the level_bests rows they imply and the
 * admin_log row commit together or not at all. Each action reports, for
 * every board it touched, the player's entry on that board as it now
 * stands (store_board_change): store.c applies them to this node's boards,
 * pg_commit.c sends them to the other nodes in the batch's NOTIFY.
 *
 * Locks, so that nodes' batches wait rather than deadlock: an action first
 * locks its player's row (FOR NO KEY UPDATE; pg_commit.c orders the batch
 * by that player), then the score's row. A score being committed for that
 * player locks the player's row first too (its ban check), so the two run
 * one after the other, and the action's board recompute (READ COMMITTED:
 * each statement reads what is committed) sees every score committed
 * before it.
 *
 * A score is on its board when its status is 'ranked', it is not voided
 * and its player is not banned (pg/002_admin.sql).
 *
 * Ownership: changes are malloc'd into the write (store_admin_clear frees
 * them); JSON answers are new references for the caller; every PGresult is
 * cleared here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "../core/civil.h"
#include "store_pg.h"

#define ON_BOARD_PLAYER "NOT EXISTS (SELECT 1 FROM players b WHERE b.id = s.player_id AND b.banned_at IS NOT NULL)"
#define ON_BOARD "s.status = 'ranked' AND s.voided_at IS NULL AND " ON_BOARD_PLAYER

/* ---- boards an action touches ---- */

typedef struct board_ref {
    char game[32];
    int level;
    char date[11]; /* "" for a level board */
} board_ref;

static bool board_of_ref(const board_ref *r, store_board *b)
{
    b->day = -1;
    b->g = game_find(r->game);
    b->level = r->level;
    if (!b->g)
        return false;
    if (r->date[0]) {
        civil_date d;
        if (!civil_parse(r->date, &d))
            return false;
        b->day = (int32_t)civil_to_days(d);
        b->g = NULL;
        b->level = 0;
    }
    return true;
}

static store_status add_change(store_write *w, const store_board_change *ch)
{
    store_board_change *n = realloc(w->u.admin.changes, (size_t)(w->u.admin.n_changes + 1) * sizeof *n);
    if (!n)
        return STORE_ERROR;
    w->u.admin.changes = n;
    n[w->u.admin.n_changes++] = *ch;
    return STORE_OK;
}

/* A statement without rows wanted. */
static store_status run_void(pg_conn *c, const char *sql, const pg_args *a, const char *where)
{
    store_status st = STORE_ERROR;
    PGresult *r = pg_query(c, sql, a, where, &st);
    if (!r)
        return st;
    PQclear(r);
    return STORE_OK;
}

/* Recomputes the player's entry on one board from the scores and reports
 * it: a level board's level_bests row is replaced by the player's best
 * score still on the board (or none); a daily board reads the player's
 * day's score. */
static store_status settle_board(pg_conn *c, store_write *w, const board_ref *r, int64_t player)
{
    store_board_change ch;
    memset(&ch, 0, sizeof ch);
    if (!board_of_ref(r, &ch.board))
        return STORE_ERROR;
    ch.player_id = player;
    pg_args a = { 0 };
    pa_int(&a, player);
    store_status st = STORE_ERROR;
    PGresult *res;
    if (!r->date[0]) {
        pa_text(&a, r->game);
        pa_int(&a, r->level);
        st = run_void(c, "DELETE FROM level_bests WHERE player_id = $1 AND game = $2 AND level = $3",
                      &a, "admin_best_delete");
        if (st != STORE_OK)
            return st;
        /* the new best, read back as it was inserted */
        res = pg_query(c,
                       "INSERT INTO level_bests (game, level, score, seq, player_id, received_at, nonce)"
                       " SELECT s.game, s.level, s.score, s.seq, s.player_id, s.received_at, s.nonce"
                       " FROM scores s WHERE s.player_id = $1 AND s.game = $2 AND s.level = $3"
                       " AND s.daily_date = '' AND " ON_BOARD " ORDER BY s.score DESC, s.seq ASC LIMIT 1"
                       " RETURNING score, seq, received_at, nonce",
                       &a, "admin_best_insert", &st);
    } else {
        pa_text(&a, r->date);
        res = pg_query(c,
                       "SELECT s.score, s.seq, s.received_at, s.nonce FROM scores s"
                       " WHERE s.player_id = $1 AND s.daily_date = $2 AND " ON_BOARD
                       " ORDER BY s.score DESC, s.seq ASC LIMIT 1",
                       &a, "admin_board_entry", &st);
    }
    if (!res)
        return st;
    if (PQntuples(res) == 1) {
        ch.has_entry = true;
        ch.score = pg_int(res, 0, 0);
        ch.seq = pg_int(res, 0, 1);
        ch.received_at = pg_int(res, 0, 2);
        pg_bytes(ch.nonce, PLAY_NONCE_BYTES, res, 0, 3);
    }
    PQclear(res);
    return add_change(w, &ch);
}

/* Every board the player has a score for: each (game, level) of its level
 * scores and each date of its daily ones, in one order. */
static store_status player_boards(pg_conn *c, int64_t player, board_ref **out, int *n)
{
    *out = NULL;
    *n = 0;
    pg_args a = { 0 };
    pa_int(&a, player);
    store_status st = STORE_ERROR;
    PGresult *r = pg_query(c,
                           "SELECT DISTINCT game, level, daily_date FROM scores WHERE player_id = $1"
                           " ORDER BY game, level, daily_date",
                           &a, "admin_player_boards", &st);
    if (!r)
        return st;
    int rows = PQntuples(r);
    if (rows > 0 && !(*out = calloc((size_t)rows, sizeof **out))) {
        PQclear(r);
        return STORE_ERROR;
    }
    for (int i = 0; i < rows; i++) {
        board_ref *b = &(*out)[i];
        pg_text(b->game, sizeof b->game, r, i, 0);
        b->level = (int)pg_int(r, i, 1);
        pg_text(b->date, sizeof b->date, r, i, 2);
    }
    *n = rows;
    PQclear(r);
    return STORE_OK;
}

static store_status log_action(pg_conn *c, store_write *w, const char *action, const char *target,
                               json_t *detail)
{
    char *text = detail ? json_dumps(detail, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
    json_decref(detail);
    if (!text)
        return STORE_ERROR;
    pg_args a = { 0 };
    pa_int(&a, w->u.admin.now);
    pa_text(&a, w->u.admin.actor);
    pa_text(&a, action);
    pa_text(&a, target);
    pa_text(&a, w->u.admin.reason);
    pa_text(&a, text);
    store_status st = STORE_ERROR;
    PGresult *r = pg_query(c,
                           "INSERT INTO admin_log (at, actor, action, target, reason, detail)"
                           " VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
                           &a, "admin_log_insert", &st);
    free(text);
    if (!r)
        return st;
    w->u.admin.log_id = PQntuples(r) == 1 ? pg_int(r, 0, 0) : 0;
    PQclear(r);
    return STORE_OK;
}

static const char *const action_names[] = {
    [ADMIN_VOID] = "void",   [ADMIN_RESTORE] = "restore", [ADMIN_APPROVE] = "approve",
    [ADMIN_BAN] = "ban",     [ADMIN_UNBAN] = "unban",     [ADMIN_RENAME] = "rename",
};

/* The player's row, locked until the commit: STORE_NOT_FOUND when there is
 * none. banned and name (when not NULL) say how it stands. */
static store_status lock_player_row(pg_conn *c, int64_t player, bool *banned, char *name, size_t cap)
{
    pg_args a = { 0 };
    pa_int(&a, player);
    store_status st = STORE_ERROR;
    PGresult *r = pg_query(c, "SELECT banned_at IS NOT NULL, name FROM players WHERE id = $1"
                              " FOR NO KEY UPDATE",
                           &a, "admin_player_row", &st);
    if (!r)
        return st;
    bool found = PQntuples(r) == 1;
    if (found) {
        *banned = pg_bool(r, 0, 0);
        if (name)
            pg_text(name, cap, r, 0, 1);
    }
    PQclear(r);
    return found ? STORE_OK : STORE_NOT_FOUND;
}

/* ---- score actions: void, restore, approve ---- */

typedef struct score_row {
    int64_t seq, player_id;
    board_ref board;
    bool ranked, voided, reviewed;
    char score_id[PLAY_ID_LEN + 1];
} score_row;

static store_status read_score_row(pg_conn *c, const uint8_t *nonce, score_row *row)
{
    pg_args a = { 0 };
    pa_bytes(&a, nonce, PLAY_NONCE_BYTES);
    store_status st = STORE_ERROR;
    /* NO KEY UPDATE: it does not wait for a score referring to this one
     * (duplicate_of takes KEY SHARE) */
    PGresult *r = pg_query(c,
                           "SELECT s.seq, s.player_id, s.game, s.level, s.daily_date,"
                           " s.status = 'ranked', s.voided_at IS NOT NULL,"
                           " s.reviewed_at IS NOT NULL, s.score_id"
                           " FROM seed_tokens t JOIN scores s ON s.seq = t.score_seq"
                           " WHERE t.nonce = $1 FOR NO KEY UPDATE OF s",
                           &a, "admin_score_row", &st);
    if (!r)
        return st;
    bool found = PQntuples(r) == 1;
    if (found) {
        memset(row, 0, sizeof *row);
        row->seq = pg_int(r, 0, 0);
        row->player_id = pg_int(r, 0, 1);
        pg_text(row->board.game, sizeof row->board.game, r, 0, 2);
        row->board.level = (int)pg_int(r, 0, 3);
        pg_text(row->board.date, sizeof row->board.date, r, 0, 4);
        row->ranked = pg_bool(r, 0, 5);
        row->voided = pg_bool(r, 0, 6);
        row->reviewed = pg_bool(r, 0, 7);
        pg_text(row->score_id, sizeof row->score_id, r, 0, 8);
    }
    PQclear(r);
    return found ? STORE_OK : STORE_NOT_FOUND;
}

static store_status run_score_action(pg_conn *c, store_write *w)
{
    /* the player first (pg_commit.c found it for the lock order), then
     * the score's row */
    if (w->u.admin.player_id > 0) {
        bool banned;
        store_status locked = lock_player_row(c, w->u.admin.player_id, &banned, NULL, 0);
        if (locked != STORE_OK)
            return locked;
    }
    score_row row;
    store_status got = read_score_row(c, w->u.admin.nonce, &row);
    if (got != STORE_OK)
        return got;
    if (row.player_id != w->u.admin.player_id) {
        bool banned;
        got = lock_player_row(c, row.player_id, &banned, NULL, 0);
        if (got != STORE_OK)
            return got == STORE_NOT_FOUND ? STORE_ERROR : got;
    }
    admin_action act = w->u.admin.action;
    const char *sql;
    if (act == ADMIN_VOID) {
        if (row.voided)
            return STORE_CONFLICT;
        sql = "UPDATE scores SET voided_at = $1, void_reason = $2,"
              " reviewed_at = COALESCE(reviewed_at, $1) WHERE seq = $3";
    } else if (act == ADMIN_RESTORE) {
        if (!row.voided)
            return STORE_CONFLICT;
        sql = "UPDATE scores SET voided_at = NULL, void_reason = '' WHERE seq = $3"
              " AND $1::bigint IS NOT NULL AND $2::text IS NOT NULL";
    } else {
        /* approve: a held score, or one still waiting in the review queue */
        if (row.voided || (row.ranked && row.reviewed))
            return STORE_CONFLICT;
        sql = "UPDATE scores SET status = 'ranked', reviewed_at = $1 WHERE seq = $3"
              " AND $2::text IS NOT NULL";
    }
    /* every statement takes $1 (now), $2 (reason), $3 (seq) */
    pg_args a = { 0 };
    pa_int(&a, w->u.admin.now);
    pa_text(&a, w->u.admin.reason);
    pa_int(&a, row.seq);
    store_status st = run_void(c, sql, &a, "admin_score_update");
    if (st != STORE_OK)
        return st;
    w->u.admin.player_id = row.player_id;
    st = settle_board(c, w, &row.board, row.player_id);
    if (st != STORE_OK)
        return st;
    const store_board_change *ch = &w->u.admin.changes[w->u.admin.n_changes - 1];
    json_t *detail = json_pack("{s:I,s:s,s:i,s:s,s:o}", "player_id", (json_int_t)row.player_id, "game",
                               row.board.game, "level", row.board.level, "date", row.board.date,
                               "board_entry_seq", ch->has_entry ? json_integer(ch->seq) : json_null());
    return log_action(c, w, action_names[act], row.score_id, detail);
}

/* ---- player actions: ban, unban, rename ---- */

static store_status run_player_action(pg_conn *c, store_write *w)
{
    int64_t player = w->u.admin.player_id;
    bool banned = false;
    char old_name[STORE_NAME_MAX + 1] = "";
    store_status st = lock_player_row(c, player, &banned, old_name, sizeof old_name);
    if (st != STORE_OK)
        return st;
    admin_action act = w->u.admin.action;
    char target[40];
    snprintf(target, sizeof target, "player:%lld", (long long)player);
    pg_args a = { 0 };
    if (act == ADMIN_RENAME) {
        pa_text(&a, w->u.admin.name);
        pa_int(&a, player);
        st = run_void(c, "UPDATE players SET name = $1 WHERE id = $2", &a, "admin_rename");
        if (st != STORE_OK)
            return st;
        return log_action(c, w, "rename", target,
                          json_pack("{s:s,s:s}", "from", old_name, "to", w->u.admin.name));
    }
    if ((act == ADMIN_BAN) == banned)
        return STORE_CONFLICT;
    if (act == ADMIN_BAN)
        pa_int(&a, w->u.admin.now);
    else
        pa_null(&a);
    pa_int(&a, player);
    st = run_void(c, "UPDATE players SET banned_at = $1::bigint WHERE id = $2", &a, "admin_ban");
    if (st != STORE_OK)
        return st;
    board_ref *boards;
    int n;
    st = player_boards(c, player, &boards, &n);
    if (st != STORE_OK)
        return st;
    int on_boards = 0;
    for (int i = 0; i < n && st == STORE_OK; i++) {
        st = settle_board(c, w, &boards[i], player);
        on_boards += st == STORE_OK && w->u.admin.changes[w->u.admin.n_changes - 1].has_entry;
    }
    free(boards);
    if (st != STORE_OK)
        return st;
    return log_action(c, w, action_names[act], target,
                      json_pack("{s:i,s:i}", "boards", n, "entries_on_boards", on_boards));
}

store_status pg_run_admin(pg_conn *c, store_write *w)
{
    w->u.admin.changes = NULL;
    w->u.admin.n_changes = 0;
    w->u.admin.log_id = 0;
    store_status res = STORE_ERROR;
    switch (w->u.admin.action) {
    case ADMIN_VOID:
    case ADMIN_RESTORE:
    case ADMIN_APPROVE:
        res = run_score_action(c, w);
        break;
    case ADMIN_BAN:
    case ADMIN_UNBAN:
    case ADMIN_RENAME:
        res = run_player_action(c, w);
        break;
    }
    /* a refusal wrote nothing (every check comes before the first write);
     * a failed statement aborts the batch, which runs again without it */
    if (res != STORE_OK)
        store_admin_clear(w);
    return res;
}

/* ---- reads ---- */

/* One row of counts; *res keeps the first failure. */
static PGresult *read_row(pg_conn *c, const char *sql, const pg_args *a, const char *where,
                          store_status *res)
{
    store_status st = STORE_ERROR;
    PGresult *r = pg_query(c, sql, a, where, &st);
    if (r && PQntuples(r) == 1)
        return r;
    PQclear(r);
    if (*res == STORE_OK)
        *res = r ? STORE_ERROR : st;
    return NULL;
}

/* A player's runs as the review sees them: how often a completed run was
 * perfect (no wasted moves, in permille of completed runs with that
 * feature), forfeits and abandons. */
static json_t *player_features(pg_conn *c, int64_t player, int64_t now, store_status *res)
{
    pg_args a = { 0 };
    pa_int(&a, player);
    PGresult *r = read_row(c,
                           "SELECT COUNT(*), COUNT(*) FILTER (WHERE w = 0) FROM"
                           " (SELECT (signals::jsonb #>> '{features,wasted}')::numeric AS w"
                           " FROM scores WHERE player_id = $1 AND completed) f WHERE w IS NOT NULL",
                           &a, "admin_player_features", res);
    if (!r)
        return NULL;
    int64_t runs = pg_int(r, 0, 0), perfect = pg_int(r, 0, 1);
    PQclear(r);
    a = (pg_args){ 0 };
    pa_int(&a, now);
    pa_int(&a, player);
    r = read_row(c,
                 "SELECT COUNT(*) FILTER (WHERE outcome = 'forfeit'),"
                 " COUNT(*) FILTER (WHERE NOT redeemed AND expires_at <= $1)"
                 " FROM seed_tokens WHERE player_id = $2",
                 &a, "admin_player_tokens", res);
    if (!r)
        return NULL;
    int64_t forfeits = pg_int(r, 0, 0), abandons = pg_int(r, 0, 1);
    PQclear(r);
    return json_pack("{s:I,s:I,s:I,s:I}", "completed_runs", (json_int_t)runs, "perfect_permille",
                     (json_int_t)(runs ? perfect * 1000 / runs : 0), "forfeits", (json_int_t)forfeits,
                     "abandons", (json_int_t)abandons);
}

/* Other accounts registered from the player's network prefix within
 * window ms of it, oldest first (at most 20); [] when none or window 0. */
static json_t *linked_accounts(pg_conn *c, int64_t player, int64_t window, store_status *res)
{
    json_t *list = json_array();
    if (window <= 0)
        return list;
    pg_args a = { 0 };
    pa_int(&a, player);
    pa_int(&a, window);
    store_status st = STORE_ERROR;
    PGresult *r = pg_query(c,
                           "SELECT o.id, o.name, o.created_at FROM players p JOIN players o"
                           " ON o.reg_prefix = p.reg_prefix AND o.id <> p.id"
                           " AND o.created_at BETWEEN p.created_at - $2 AND p.created_at + $2"
                           " WHERE p.id = $1 AND p.reg_prefix IS NOT NULL"
                           " ORDER BY o.created_at, o.id LIMIT 20",
                           &a, "admin_linked_accounts", &st);
    if (!r) {
        if (*res == STORE_OK)
            *res = st;
        return list;
    }
    for (int i = 0; i < PQntuples(r); i++)
        json_array_append_new(list, json_pack("{s:I,s:s,s:I}", "player_id", (json_int_t)pg_int(r, i, 0),
                                              "name", PQgetvalue(r, i, 1), "created_at_ms",
                                              (json_int_t)pg_int(r, i, 2)));
    PQclear(r);
    return list;
}

static store_status read_player(pg_conn *c, const store_admin_query *q, json_t **out)
{
    pg_args a = { 0 };
    pa_int(&a, q->player_id);
    store_status st = STORE_ERROR;
    PGresult *r = pg_query(c,
                           "SELECT p.name, p.created_at, p.banned_at,"
                           " (SELECT COUNT(*) FROM rejections WHERE player_id = p.id),"
                           " (SELECT COUNT(*) FROM scores WHERE player_id = p.id AND voided_at IS NOT NULL),"
                           " (SELECT COUNT(*) FROM scores WHERE player_id = p.id AND status = 'held'"
                           " AND voided_at IS NULL)"
                           " FROM players p WHERE p.id = $1",
                           &a, "admin_player", &st);
    if (!r)
        return st;
    if (PQntuples(r) != 1) {
        PQclear(r);
        return STORE_NOT_FOUND;
    }
    char name[STORE_NAME_MAX + 1];
    pg_text(name, sizeof name, r, 0, 0);
    int64_t created = pg_int(r, 0, 1);
    json_t *banned = PQgetisnull(r, 0, 2) ? json_null() : json_integer(pg_int(r, 0, 2));
    int64_t rejected = pg_int(r, 0, 3), voided = pg_int(r, 0, 4), held = pg_int(r, 0, 5);
    PQclear(r);
    store_status res = STORE_OK;
    json_t *features = player_features(c, q->player_id, q->now, &res);
    json_t *linked = linked_accounts(c, q->player_id, q->linked_window_ms, &res);
    if (res != STORE_OK) {
        json_decref(banned);
        json_decref(features);
        json_decref(linked);
        return res;
    }
    *out = json_pack("{s:I,s:s,s:I,s:o,s:{s:I,s:I,s:I},s:o}", "player_id", (json_int_t)q->player_id,
                     "name", name, "created_at_ms", (json_int_t)created, "banned_at_ms", banned, "scores",
                     "rejected", (json_int_t)rejected, "voided", (json_int_t)voided, "held", (json_int_t)held,
                     "features", features);
    json_object_set_new(*out, "linked_accounts", linked);
    return *out ? STORE_OK : STORE_ERROR;
}

/* A cursor of one or two integers ("N" or "N.M"); "" is the first page. */
static bool parse_cursor(const char *s, int64_t *a, int64_t *b)
{
    *a = *b = 0;
    if (!s || !*s)
        return true;
    char *end;
    long long x = strtoll(s, &end, 10);
    if (end == s || x < 0)
        return false;
    *a = x;
    if (*end == '.') {
        const char *m = end + 1;
        long long y = strtoll(m, &end, 10);
        if (end == m || y < 0)
            return false;
        *b = y;
    }
    return *end == '\0';
}

static json_t *json_or_null(const PGresult *r, int row, int col)
{
    const char *t = PQgetisnull(r, row, col) ? NULL : PQgetvalue(r, row, col);
    json_t *v = t && *t ? json_loads(t, 0, NULL) : NULL;
    return v ? v : json_null();
}

static json_t *page(json_t *items, bool more, const char *next)
{
    return json_pack("{s:o,s:o}", "items", items, "next_cursor", more ? json_string(next) : json_null());
}

static store_status read_rejections(pg_conn *c, const store_admin_query *q, json_t **out)
{
    int64_t before, unused;
    if (!parse_cursor(q->cursor, &before, &unused))
        return STORE_CONFLICT;
    /* only the filters given, numbered as they come */
    char sql[768];
    int len = snprintf(sql, sizeof sql,
                       "SELECT id, nonce, player_id, game, level, seed, version, reason, move_index,"
                       " received_at, moves_hash, moves_json FROM rejections WHERE true");
    pg_args a = { 0 };
    if (q->player_id) {
        pa_int(&a, q->player_id);
        len += snprintf(sql + len, sizeof sql - (size_t)len, " AND player_id = $%d", a.n);
    }
    if (q->g) {
        pa_text(&a, q->g->name);
        len += snprintf(sql + len, sizeof sql - (size_t)len, " AND game = $%d", a.n);
    }
    if (q->since) {
        pa_int(&a, q->since);
        len += snprintf(sql + len, sizeof sql - (size_t)len, " AND received_at >= $%d", a.n);
    }
    if (before) {
        pa_int(&a, before);
        len += snprintf(sql + len, sizeof sql - (size_t)len, " AND id < $%d", a.n);
    }
    pa_int(&a, q->limit + 1);
    snprintf(sql + len, sizeof sql - (size_t)len, " ORDER BY id DESC LIMIT $%d", a.n);
    store_status st = STORE_ERROR;
    PGresult *r = pg_query(c, sql, &a, "admin_rejections", &st);
    if (!r)
        return st;
    json_t *items = json_array();
    int rows = PQntuples(r);
    bool more = rows > q->limit;
    int64_t last = 0;
    for (int i = 0; i < rows && i < q->limit; i++) {
        uint8_t nonce[PLAY_NONCE_BYTES], hash[STORE_HASH_BYTES];
        char id[2 * PLAY_NONCE_BYTES + 1], hex[2 * STORE_HASH_BYTES + 1];
        pg_bytes(nonce, sizeof nonce, r, i, 1);
        pg_bytes(hash, sizeof hash, r, i, 10);
        sodium_bin2hex(id, sizeof id, nonce, sizeof nonce);
        sodium_bin2hex(hex, sizeof hex, hash, sizeof hash);
        last = pg_int(r, i, 0);
        json_array_append_new(
            items, json_pack("{s:I,s:s,s:I,s:s,s:i,s:I,s:i,s:s,s:I,s:I,s:s,s:o}", "id", (json_int_t)last,
                             "token_id", id, "player_id", (json_int_t)pg_int(r, i, 2), "game",
                             PQgetvalue(r, i, 3), "level", (int)pg_int(r, i, 4), "seed",
                             (json_int_t)pg_int(r, i, 5), "version", (int)pg_int(r, i, 6), "reason",
                             PQgetvalue(r, i, 7), "move", (json_int_t)pg_int(r, i, 8), "received_at_ms",
                             (json_int_t)pg_int(r, i, 9), "moves_hash", hex, "moves", json_or_null(r, i, 11)));
    }
    PQclear(r);
    char next[24];
    snprintf(next, sizeof next, "%lld", (long long)last);
    *out = page(items, more, next);
    return STORE_OK;
}

static store_status read_review(pg_conn *c, const store_admin_query *q, json_t **out)
{
    int64_t below, after;
    if (!parse_cursor(q->cursor, &below, &after))
        return STORE_CONFLICT;
    if (!q->cursor || !q->cursor[0])
        below = INT64_MAX;
    pg_args a = { 0 };
    pa_int(&a, below);
    pa_int(&a, after);
    pa_int(&a, q->limit + 1);
    store_status st = STORE_ERROR;
    PGresult *r = pg_query(c,
                           "SELECT s.seq, s.score_id, s.player_id, p.name, s.game, s.level,"
                           " s.daily_date, s.score, s.status, s.suspicion, s.signals, s.received_at,"
                           " p.banned_at IS NOT NULL, COALESCE(s.duplicate_of, 0),"
                           /* the twin, beside it: its run and its player */
                           " t.score_id, t.player_id, tp.name, t.score, t.status,"
                           " t.suspicion, t.received_at, t.voided_at IS NOT NULL"
                           " FROM scores s JOIN players p ON p.id = s.player_id"
                           " LEFT JOIN scores t ON t.seq = s.twin_of"
                           " LEFT JOIN players tp ON tp.id = t.player_id"
                           " WHERE s.reviewed_at IS NULL AND s.voided_at IS NULL"
                           " AND (s.suspicion < $1 OR (s.suspicion = $1 AND s.seq > $2))"
                           " ORDER BY s.suspicion DESC, s.seq ASC LIMIT $3",
                           &a, "admin_review", &st);
    if (!r)
        return st;
    json_t *items = json_array();
    int rows = PQntuples(r);
    bool more = rows > q->limit;
    int64_t last_s = 0, last_seq = 0;
    store_status res = STORE_OK;
    for (int i = 0; i < rows && i < q->limit && res == STORE_OK; i++) {
        last_seq = pg_int(r, i, 0);
        last_s = pg_int(r, i, 9);
        int64_t player = pg_int(r, i, 2);
        const char *date = PQgetvalue(r, i, 6);
        json_t *item = json_pack("{s:s,s:I,s:s,s:s,s:i,s:I,s:s,s:I,s:o,s:I,s:b}", "score_id",
                                 PQgetvalue(r, i, 1), "player_id", (json_int_t)player, "name",
                                 PQgetvalue(r, i, 3), "game", PQgetvalue(r, i, 4), "level",
                                 (int)pg_int(r, i, 5), "score", (json_int_t)pg_int(r, i, 7), "status",
                                 PQgetvalue(r, i, 8), "suspicion", (json_int_t)last_s, "signals",
                                 json_or_null(r, i, 10), "submitted_at_ms", (json_int_t)pg_int(r, i, 11),
                                 "banned", pg_bool(r, i, 12));
        if (date && date[0])
            json_object_set_new(item, "date", json_string(date));
        if (pg_int(r, i, 13))
            json_object_set_new(item, "duplicate_of_seq", json_integer(pg_int(r, i, 13)));
        if (!PQgetisnull(r, i, 14))
            json_object_set_new(
                item, "twin",
                json_pack("{s:s,s:I,s:s,s:I,s:s,s:I,s:I,s:b}", "score_id", PQgetvalue(r, i, 14),
                          "player_id", (json_int_t)pg_int(r, i, 15), "name", PQgetvalue(r, i, 16),
                          "score", (json_int_t)pg_int(r, i, 17), "status", PQgetvalue(r, i, 18),
                          "suspicion", (json_int_t)pg_int(r, i, 19), "submitted_at_ms",
                          (json_int_t)pg_int(r, i, 20), "voided", pg_bool(r, i, 21)));
        json_t *pf = player_features(c, player, q->now, &res);
        json_object_set_new(item, "player_features", pf ? pf : json_null());
        json_t *linked = linked_accounts(c, player, q->linked_window_ms, &res);
        if (json_array_size(linked))
            json_object_set_new(item, "linked_accounts", linked);
        else
            json_decref(linked);
        json_array_append_new(items, item);
    }
    PQclear(r);
    if (res != STORE_OK) {
        json_decref(items);
        return res;
    }
    char next[48];
    snprintf(next, sizeof next, "%lld.%lld", (long long)last_s, (long long)last_seq);
    *out = page(items, more, next);
    return STORE_OK;
}

static store_status read_log(pg_conn *c, const store_admin_query *q, json_t **out)
{
    int64_t after, unused;
    if (!parse_cursor(q->cursor, &after, &unused))
        return STORE_CONFLICT;
    pg_args a = { 0 };
    pa_int(&a, after);
    pa_int(&a, q->limit + 1);
    store_status st = STORE_ERROR;
    PGresult *r = pg_query(c,
                           "SELECT id, at, actor, action, target, reason, detail FROM admin_log"
                           " WHERE id > $1 ORDER BY id LIMIT $2",
                           &a, "admin_log", &st);
    if (!r)
        return st;
    json_t *items = json_array();
    int rows = PQntuples(r);
    bool more = rows > q->limit;
    int64_t last = 0;
    for (int i = 0; i < rows && i < q->limit; i++) {
        last = pg_int(r, i, 0);
        json_array_append_new(
            items, json_pack("{s:I,s:I,s:s,s:s,s:s,s:s,s:o}", "id", (json_int_t)last, "at_ms",
                             (json_int_t)pg_int(r, i, 1), "actor", PQgetvalue(r, i, 2), "action",
                             PQgetvalue(r, i, 3), "target", PQgetvalue(r, i, 4), "reason",
                             PQgetvalue(r, i, 5), "detail", json_or_null(r, i, 6)));
    }
    PQclear(r);
    char next[24];
    snprintf(next, sizeof next, "%lld", (long long)last);
    *out = page(items, more, next);
    return STORE_OK;
}

store_status pg_admin_read(store_db *db, const store_admin_query *q, json_t **out)
{
    *out = NULL;
    pg_conn *c = pg_reader_get(db);
    /* one snapshot for the whole answer */
    store_status res = pg_exec(c, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", "admin_read");
    if (res == STORE_OK) {
        switch (q->kind) {
        case ADMIN_Q_PLAYER:
            res = read_player(c, q, out);
            break;
        case ADMIN_Q_REJECTIONS:
            res = read_rejections(c, q, out);
            break;
        case ADMIN_Q_REVIEW:
            res = read_review(c, q, out);
            break;
        case ADMIN_Q_LOG:
            res = read_log(c, q, out);
            break;
        }
        pg_exec(c, PQtransactionStatus(c->pg) == PQTRANS_INTRANS ? "COMMIT" : "ROLLBACK", "admin_read");
    }
    pg_reader_put(db, c);
    return res;
}

/* ---- re-verification's scan ---- */

store_status pg_scores_page(store_db *db, const store_scan *scan, int64_t after_seq, int limit,
                            store_score *out, int *n)
{
    *n = 0;
    pg_conn *c = pg_reader_get(db);
    pg_args a = { 0 };
    pa_int(&a, after_seq);
    if (scan->g)
        pa_text(&a, scan->g->name);
    else
        pa_null(&a);
    pa_int(&a, scan->since_ms);
    pa_int(&a, limit);
    store_status st = STORE_ERROR;
    PGresult *r = pg_run(c, PS_SCORES_PAGE, &a, "pg_scores_page", &st);
    if (r) {
        st = STORE_OK;
        for (int i = 0, rows = PQntuples(r); i < rows && i < limit && st == STORE_OK; i++) {
            st = pg_read_score(r, i, &out[i]);
            if (st == STORE_OK)
                (*n)++;
        }
        PQclear(r);
        if (st != STORE_OK) {
            for (int i = 0; i < *n; i++)
                store_score_clear(&out[i]);
            *n = 0;
        }
    }
    pg_reader_put(db, c);
    return st;
}

store_status pg_scores_count(store_db *db, const store_scan *scan, int64_t *out)
{
    *out = 0;
    pg_conn *c = pg_reader_get(db);
    pg_args a = { 0 };
    if (scan->g)
        pa_text(&a, scan->g->name);
    else
        pa_null(&a);
    pa_int(&a, scan->since_ms);
    store_status st = STORE_ERROR;
    PGresult *r = pg_run(c, PS_SCORES_COUNT, &a, "pg_scores_count", &st);
    if (r) {
        *out = pg_int(r, 0, 0);
        st = STORE_OK;
        PQclear(r);
    }
    pg_reader_put(db, c);
    return st;
}
