/*
 * sqlite_admin: the SQLite backend's operator actions and reads.
 *
 * Actions (sqlite_run_admin) run on the writer thread inside the commit's
 * transaction and savepoint, like every other write: the row changes, the
 * level_bests rows they imply and the admin_log row commit together or not
 * at all. Each action reports, for every board it touched, the player's
 * entry on that board as it now stands (store_board_change); store.c
 * applies those to the boards in memory after the commit.
 *
 * A score is on its board when its status is 'ranked', it is not voided
 * and its player is not banned (005_admin.sql). A level board holds each
 * player's best such score: after a change it is recomputed from the
 * player's scores (scores_player index), so a voided best gives way to the
 * next best.
 *
 * The statements here run a few times per operator action, not per
 * submission: they are prepared on use and finalized, not kept in the
 * connection's table. Reads answer JSON (store.h: operators' reads).
 *
 * Ownership: changes are malloc'd into the write (store_admin_clear frees
 * them); JSON answers are new references for the caller.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/civil.h"
#include "store_sqlite.h"

#define ON_BOARD_PLAYER "NOT EXISTS (SELECT 1 FROM players b WHERE b.id = s.player_id AND b.banned_at IS NOT NULL)"
#define ON_BOARD "s.status = 'ranked' AND s.voided_at IS NULL AND " ON_BOARD_PLAYER

static store_status failed(conn *c, int rc, const char *where)
{
    store_status st = sq_status(rc);
    if (st == STORE_BUSY)
        return STORE_BUSY;
    store_log_error(where, sqlite3_errmsg(c->db));
    return STORE_ERROR;
}

static sqlite3_stmt *prep(conn *c, const char *sql)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(c->db, sql, -1, &st, NULL) != SQLITE_OK) {
        store_log_error("sqlite_admin_prepare", sqlite3_errmsg(c->db));
        return NULL;
    }
    return st;
}

/* Runs a statement without rows and finalizes it. */
static int run_done(sqlite3_stmt *st)
{
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

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

/* Recomputes the player's entry on one board from the scores and reports
 * it: a level board's level_bests row is replaced by the player's best
 * score still on the board (or none); a daily board reads the player's
 * day's score. */
static store_status settle_board(conn *c, store_write *w, const board_ref *r, int64_t player)
{
    store_board_change ch;
    memset(&ch, 0, sizeof ch);
    if (!board_of_ref(r, &ch.board))
        return STORE_ERROR;
    ch.player_id = player;
    sqlite3_stmt *st;
    int rc;
    if (!r->date[0]) {
        st = prep(c, "DELETE FROM level_bests WHERE game = ? AND level = ? AND player_id = ?");
        if (!st)
            return STORE_ERROR;
        sqlite3_bind_text(st, 1, r->game, -1, SQLITE_STATIC);
        sqlite3_bind_int(st, 2, r->level);
        sqlite3_bind_int64(st, 3, player);
        if ((rc = run_done(st)) != SQLITE_OK)
            return failed(c, rc, "admin_best_delete");
        st = prep(c, "INSERT INTO level_bests (game, level, score, seq, player_id, received_at, nonce)"
                     " SELECT s.game, s.level, s.score, s.seq, s.player_id, s.received_at, s.nonce"
                     " FROM scores s WHERE s.player_id = ? AND s.game = ? AND s.level = ?"
                     " AND s.daily_date = '' AND " ON_BOARD " ORDER BY s.score DESC, s.seq ASC LIMIT 1");
        if (!st)
            return STORE_ERROR;
        sqlite3_bind_int64(st, 1, player);
        sqlite3_bind_text(st, 2, r->game, -1, SQLITE_STATIC);
        sqlite3_bind_int(st, 3, r->level);
        if ((rc = run_done(st)) != SQLITE_OK)
            return failed(c, rc, "admin_best_insert");
        st = prep(c, "SELECT score, seq, received_at, nonce FROM level_bests"
                     " WHERE game = ? AND level = ? AND player_id = ?");
        if (!st)
            return STORE_ERROR;
        sqlite3_bind_text(st, 1, r->game, -1, SQLITE_STATIC);
        sqlite3_bind_int(st, 2, r->level);
        sqlite3_bind_int64(st, 3, player);
    } else {
        st = prep(c, "SELECT s.score, s.seq, s.received_at, s.nonce FROM scores s"
                     " WHERE s.player_id = ? AND s.daily_date = ? AND " ON_BOARD
                     " ORDER BY s.score DESC, s.seq ASC LIMIT 1");
        if (!st)
            return STORE_ERROR;
        sqlite3_bind_int64(st, 1, player);
        sqlite3_bind_text(st, 2, r->date, -1, SQLITE_STATIC);
    }
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        ch.has_entry = true;
        ch.score = sqlite3_column_int64(st, 0);
        ch.seq = sqlite3_column_int64(st, 1);
        ch.received_at = sqlite3_column_int64(st, 2);
        sq_blob(ch.nonce, PLAY_NONCE_BYTES, st, 3);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return failed(c, rc, "admin_board_entry");
    return add_change(w, &ch);
}

/* Every board the player has a score for: each (game, level) of its level
 * scores and each date of its daily ones. */
static store_status player_boards(conn *c, int64_t player, board_ref **out, int *n)
{
    *out = NULL;
    *n = 0;
    sqlite3_stmt *st = prep(c, "SELECT DISTINCT game, level, daily_date FROM scores WHERE player_id = ?");
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_int64(st, 1, player);
    int rc, cap = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (*n == cap) {
            cap = cap ? cap * 2 : 16;
            board_ref *m = realloc(*out, (size_t)cap * sizeof *m);
            if (!m) {
                rc = SQLITE_NOMEM;
                break;
            }
            *out = m;
        }
        board_ref *r = &(*out)[(*n)++];
        sq_text(r->game, sizeof r->game, st, 0);
        r->level = sqlite3_column_int(st, 1);
        sq_text(r->date, sizeof r->date, st, 2);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        free(*out);
        *out = NULL;
        return failed(c, rc, "admin_player_boards");
    }
    return STORE_OK;
}

static store_status log_action(conn *c, store_write *w, const char *action, const char *target,
                               json_t *detail)
{
    char *text = detail ? json_dumps(detail, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
    json_decref(detail);
    sqlite3_stmt *st = prep(c, "INSERT INTO admin_log (at, actor, action, target, reason, detail)"
                               " VALUES (?, ?, ?, ?, ?, ?)");
    if (!st || !text) {
        sqlite3_finalize(st);
        free(text);
        return STORE_ERROR;
    }
    sqlite3_bind_int64(st, 1, w->u.admin.now);
    sqlite3_bind_text(st, 2, w->u.admin.actor, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, action, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 4, target, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 5, w->u.admin.reason, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 6, text, -1, SQLITE_STATIC);
    int rc = run_done(st);
    free(text);
    if (rc != SQLITE_OK)
        return failed(c, rc, "admin_log_insert");
    w->u.admin.log_id = sqlite3_last_insert_rowid(c->db);
    return STORE_OK;
}

static const char *const action_names[] = {
    [ADMIN_VOID] = "void",   [ADMIN_RESTORE] = "restore", [ADMIN_APPROVE] = "approve",
    [ADMIN_BAN] = "ban",     [ADMIN_UNBAN] = "unban",     [ADMIN_RENAME] = "rename",
};

/* ---- score actions: void, restore, approve ---- */

typedef struct score_row {
    int64_t seq, player_id;
    board_ref board;
    bool ranked, voided, reviewed;
    char score_id[PLAY_ID_LEN + 1];
} score_row;

static store_status read_score_row(conn *c, const uint8_t *nonce, score_row *row)
{
    sqlite3_stmt *st = prep(c, "SELECT s.seq, s.player_id, s.game, s.level, s.daily_date,"
                               " s.status = 'ranked', s.voided_at IS NOT NULL,"
                               " s.reviewed_at IS NOT NULL, s.score_id"
                               " FROM seed_tokens t JOIN scores s ON s.seq = t.score_seq WHERE t.nonce = ?");
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_blob(st, 1, nonce, PLAY_NONCE_BYTES, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        memset(row, 0, sizeof *row);
        row->seq = sqlite3_column_int64(st, 0);
        row->player_id = sqlite3_column_int64(st, 1);
        sq_text(row->board.game, sizeof row->board.game, st, 2);
        row->board.level = sqlite3_column_int(st, 3);
        sq_text(row->board.date, sizeof row->board.date, st, 4);
        row->ranked = sqlite3_column_int(st, 5) != 0;
        row->voided = sqlite3_column_int(st, 6) != 0;
        row->reviewed = sqlite3_column_int(st, 7) != 0;
        sq_text(row->score_id, sizeof row->score_id, st, 8);
    }
    sqlite3_finalize(st);
    if (rc == SQLITE_DONE)
        return STORE_NOT_FOUND;
    return rc == SQLITE_ROW ? STORE_OK : failed(c, rc, "admin_score_row");
}

static store_status run_score_action(conn *c, store_write *w)
{
    score_row row;
    store_status got = read_score_row(c, w->u.admin.nonce, &row);
    if (got != STORE_OK)
        return got;
    admin_action a = w->u.admin.action;
    const char *sql;
    if (a == ADMIN_VOID) {
        if (row.voided)
            return STORE_CONFLICT;
        sql = "UPDATE scores SET voided_at = ?1, void_reason = ?2,"
              " reviewed_at = COALESCE(reviewed_at, ?1) WHERE seq = ?3";
    } else if (a == ADMIN_RESTORE) {
        if (!row.voided)
            return STORE_CONFLICT;
        sql = "UPDATE scores SET voided_at = NULL, void_reason = '' WHERE seq = ?3";
    } else {
        /* approve: a held score, or one still waiting in the review queue */
        if (row.voided || (row.ranked && row.reviewed))
            return STORE_CONFLICT;
        sql = "UPDATE scores SET status = 'ranked', reviewed_at = ?1 WHERE seq = ?3";
    }
    sqlite3_stmt *st = prep(c, sql);
    if (!st)
        return STORE_ERROR;
    /* every statement numbers its parameters ?1 (now), ?2 (reason), ?3 (seq) */
    sqlite3_bind_int64(st, 1, w->u.admin.now);
    sqlite3_bind_text(st, 2, w->u.admin.reason, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 3, row.seq);
    int rc = run_done(st);
    if (rc != SQLITE_OK)
        return failed(c, rc, "admin_score_update");
    w->u.admin.player_id = row.player_id;
    store_status settled = settle_board(c, w, &row.board, row.player_id);
    if (settled != STORE_OK)
        return settled;
    const store_board_change *ch = &w->u.admin.changes[w->u.admin.n_changes - 1];
    json_t *detail = json_pack("{s:I,s:s,s:i,s:s,s:o}", "player_id", (json_int_t)row.player_id, "game",
                               row.board.game, "level", row.board.level, "date", row.board.date,
                               "board_entry_seq", ch->has_entry ? json_integer(ch->seq) : json_null());
    return log_action(c, w, action_names[a], row.score_id, detail);
}

/* ---- player actions: ban, unban, rename ---- */

static store_status run_player_action(conn *c, store_write *w)
{
    int64_t player = w->u.admin.player_id;
    sqlite3_stmt *st = prep(c, "SELECT banned_at IS NOT NULL, name FROM players WHERE id = ?");
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_int64(st, 1, player);
    int rc = sqlite3_step(st);
    bool banned = rc == SQLITE_ROW && sqlite3_column_int(st, 0) != 0;
    char old_name[STORE_NAME_MAX + 1] = "";
    if (rc == SQLITE_ROW)
        sq_text(old_name, sizeof old_name, st, 1);
    sqlite3_finalize(st);
    if (rc == SQLITE_DONE)
        return STORE_NOT_FOUND;
    if (rc != SQLITE_ROW)
        return failed(c, rc, "admin_player_row");
    admin_action a = w->u.admin.action;
    char target[40];
    snprintf(target, sizeof target, "player:%lld", (long long)player);
    if (a == ADMIN_RENAME) {
        st = prep(c, "UPDATE players SET name = ? WHERE id = ?");
        if (!st)
            return STORE_ERROR;
        sqlite3_bind_text(st, 1, w->u.admin.name, -1, SQLITE_STATIC);
        sqlite3_bind_int64(st, 2, player);
        if ((rc = run_done(st)) != SQLITE_OK)
            return failed(c, rc, "admin_rename");
        return log_action(c, w, "rename", target,
                          json_pack("{s:s,s:s}", "from", old_name, "to", w->u.admin.name));
    }
    if ((a == ADMIN_BAN) == banned)
        return STORE_CONFLICT;
    st = prep(c, a == ADMIN_BAN ? "UPDATE players SET banned_at = ?1 WHERE id = ?2"
                                : "UPDATE players SET banned_at = NULL WHERE id = ?2");
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_int64(st, 1, w->u.admin.now);
    sqlite3_bind_int64(st, 2, player);
    if ((rc = run_done(st)) != SQLITE_OK)
        return failed(c, rc, "admin_ban");
    board_ref *boards;
    int n;
    store_status got = player_boards(c, player, &boards, &n);
    if (got != STORE_OK)
        return got;
    int on_boards = 0;
    for (int i = 0; i < n && got == STORE_OK; i++) {
        got = settle_board(c, w, &boards[i], player);
        on_boards += got == STORE_OK && w->u.admin.changes[w->u.admin.n_changes - 1].has_entry;
    }
    free(boards);
    if (got != STORE_OK)
        return got;
    return log_action(c, w, action_names[a], target,
                      json_pack("{s:i,s:i}", "boards", n, "entries_on_boards", on_boards));
}

store_status sqlite_run_admin(conn *c, store_write *w)
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
    /* the savepoint rolls the rows back; the changes go with them */
    if (res != STORE_OK)
        store_admin_clear(w);
    return res;
}

/* ---- reads ---- */

static int64_t count_of(conn *c, const char *sql, int64_t id, store_status *res)
{
    sqlite3_stmt *st = prep(c, sql);
    if (!st) {
        *res = STORE_ERROR;
        return 0;
    }
    sqlite3_bind_int64(st, 1, id);
    int rc = sqlite3_step(st);
    int64_t n = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW && *res == STORE_OK)
        *res = failed(c, rc, "admin_count");
    return n;
}

/* A player's runs as the review sees them: how often a completed run was
 * perfect (no wasted moves, in permille of completed runs with that
 * feature), forfeits and abandons. */
static json_t *player_features(conn *c, int64_t player, int64_t now, store_status *res)
{
    sqlite3_stmt *st = prep(c, "SELECT COUNT(*), COALESCE(SUM(json_extract(signals, '$.features.wasted') = 0), 0)"
                               " FROM scores WHERE player_id = ? AND completed = 1"
                               " AND json_extract(signals, '$.features.wasted') IS NOT NULL");
    if (!st) {
        *res = STORE_ERROR;
        return NULL;
    }
    sqlite3_bind_int64(st, 1, player);
    int rc = sqlite3_step(st);
    int64_t runs = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
    int64_t perfect = rc == SQLITE_ROW ? sqlite3_column_int64(st, 1) : 0;
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW) {
        *res = failed(c, rc, "admin_player_features");
        return NULL;
    }
    st = prep(c, "SELECT COALESCE(SUM(outcome = 'forfeit'), 0),"
                 " COALESCE(SUM(redeemed = 0 AND expires_at <= ?1), 0)"
                 " FROM seed_tokens WHERE player_id = ?2");
    if (!st) {
        *res = STORE_ERROR;
        return NULL;
    }
    sqlite3_bind_int64(st, 1, now);
    sqlite3_bind_int64(st, 2, player);
    rc = sqlite3_step(st);
    int64_t forfeits = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
    int64_t abandons = rc == SQLITE_ROW ? sqlite3_column_int64(st, 1) : 0;
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW) {
        *res = failed(c, rc, "admin_player_tokens");
        return NULL;
    }
    return json_pack("{s:I,s:I,s:I,s:I}", "completed_runs", (json_int_t)runs, "perfect_permille",
                     (json_int_t)(runs ? perfect * 1000 / runs : 0), "forfeits", (json_int_t)forfeits,
                     "abandons", (json_int_t)abandons);
}

/* Other accounts registered from the player's network prefix within
 * window ms of it, oldest first (at most 20); [] when none or window 0. */
static json_t *linked_accounts(conn *c, int64_t player, int64_t window, store_status *res)
{
    json_t *list = json_array();
    if (window <= 0)
        return list;
    sqlite3_stmt *st = prep(c, "SELECT o.id, o.name, o.created_at FROM players p JOIN players o"
                               " ON o.reg_prefix = p.reg_prefix AND o.id <> p.id"
                               " AND o.created_at BETWEEN p.created_at - ?2 AND p.created_at + ?2"
                               " WHERE p.id = ?1 AND p.reg_prefix IS NOT NULL"
                               " ORDER BY o.created_at, o.id LIMIT 20");
    if (!st) {
        *res = STORE_ERROR;
        return list;
    }
    sqlite3_bind_int64(st, 1, player);
    sqlite3_bind_int64(st, 2, window);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW)
        json_array_append_new(list, json_pack("{s:I,s:s,s:I}", "player_id",
                                              (json_int_t)sqlite3_column_int64(st, 0), "name",
                                              (const char *)sqlite3_column_text(st, 1),
                                              "created_at_ms", (json_int_t)sqlite3_column_int64(st, 2)));
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        *res = failed(c, rc, "admin_linked_accounts");
    return list;
}

static store_status read_player(conn *c, const store_admin_query *q, json_t **out)
{
    sqlite3_stmt *st = prep(c, "SELECT name, created_at, banned_at FROM players WHERE id = ?");
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_int64(st, 1, q->player_id);
    int rc = sqlite3_step(st);
    if (rc != SQLITE_ROW) {
        sqlite3_finalize(st);
        return rc == SQLITE_DONE ? STORE_NOT_FOUND : failed(c, rc, "admin_player");
    }
    char name[STORE_NAME_MAX + 1];
    sq_text(name, sizeof name, st, 0);
    int64_t created = sqlite3_column_int64(st, 1);
    json_t *banned = sqlite3_column_type(st, 2) == SQLITE_NULL ? json_null()
                                                                : json_integer(sqlite3_column_int64(st, 2));
    sqlite3_finalize(st);
    store_status res = STORE_OK;
    int64_t rejected = count_of(c, "SELECT COUNT(*) FROM rejections WHERE player_id = ?", q->player_id, &res);
    int64_t voided = count_of(c, "SELECT COUNT(*) FROM scores WHERE player_id = ? AND voided_at IS NOT NULL",
                              q->player_id, &res);
    int64_t held = count_of(c, "SELECT COUNT(*) FROM scores WHERE player_id = ? AND status = 'held'"
                               " AND voided_at IS NULL", q->player_id, &res);
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

static json_t *json_or_null(sqlite3_stmt *st, int col)
{
    const char *t = (const char *)sqlite3_column_text(st, col);
    json_t *v = t && *t ? json_loads(t, 0, NULL) : NULL;
    return v ? v : json_null();
}

static store_status read_rejections(conn *c, const store_admin_query *q, json_t **out)
{
    int64_t before, unused;
    if (!parse_cursor(q->cursor, &before, &unused))
        return STORE_CONFLICT;
    /* only the filters given, so SQLite can pick the player's index
     * (rejections_player) or walk ids backwards */
    char sql[512];
    snprintf(sql, sizeof sql,
             "SELECT id, nonce, player_id, game, level, seed, version, reason, move_index,"
             " received_at, moves_hash, moves_json FROM rejections WHERE 1%s%s%s%s"
             " ORDER BY id DESC LIMIT ?5",
             q->player_id ? " AND player_id = ?1" : "", q->g ? " AND game = ?2" : "",
             q->since ? " AND received_at >= ?3" : "", before ? " AND id < ?4" : "");
    sqlite3_stmt *st = prep(c, sql);
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_int64(st, 1, q->player_id);
    if (q->g)
        sqlite3_bind_text(st, 2, q->g->name, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 3, q->since);
    sqlite3_bind_int64(st, 4, before);
    sqlite3_bind_int(st, 5, q->limit + 1);
    json_t *items = json_array();
    int rc, n = 0;
    int64_t last = 0;
    bool more = false;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (n == q->limit) {
            more = true;
            break;
        }
        uint8_t nonce[PLAY_NONCE_BYTES], hash[STORE_HASH_BYTES];
        char id[2 * PLAY_NONCE_BYTES + 1], hex[2 * STORE_HASH_BYTES + 1];
        sq_blob(nonce, sizeof nonce, st, 1);
        sq_blob(hash, sizeof hash, st, 10);
        sq_hex(nonce, sizeof nonce, id);
        sq_hex(hash, sizeof hash, hex);
        last = sqlite3_column_int64(st, 0);
        json_array_append_new(
            items, json_pack("{s:I,s:s,s:I,s:s,s:i,s:I,s:i,s:s,s:I,s:I,s:s,s:o}", "id", (json_int_t)last,
                             "token_id", id, "player_id", (json_int_t)sqlite3_column_int64(st, 2), "game",
                             (const char *)sqlite3_column_text(st, 3), "level", sqlite3_column_int(st, 4),
                             "seed", (json_int_t)sqlite3_column_int64(st, 5), "version",
                             sqlite3_column_int(st, 6), "reason", (const char *)sqlite3_column_text(st, 7),
                             "move", (json_int_t)sqlite3_column_int64(st, 8), "received_at_ms",
                             (json_int_t)sqlite3_column_int64(st, 9), "moves_hash", hex, "moves",
                             json_or_null(st, 11)));
        n++;
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
        json_decref(items);
        return failed(c, rc, "admin_rejections");
    }
    char next[24];
    snprintf(next, sizeof next, "%lld", (long long)last);
    *out = json_pack("{s:o,s:o}", "items", items, "next_cursor", more ? json_string(next) : json_null());
    return STORE_OK;
}

static store_status read_review(conn *c, const store_admin_query *q, json_t **out)
{
    int64_t below, after;
    if (!parse_cursor(q->cursor, &below, &after))
        return STORE_CONFLICT;
    if (!q->cursor || !q->cursor[0])
        below = INT64_MAX;
    sqlite3_stmt *st = prep(c, "SELECT s.seq, s.score_id, s.player_id, p.name, s.game, s.level,"
                               " s.daily_date, s.score, s.status, s.suspicion, s.signals, s.received_at,"
                               " p.banned_at IS NOT NULL, COALESCE(s.duplicate_of, 0),"
                               /* the twin, beside it: its run and its player */
                               " t.score_id, t.player_id, tp.name, t.score, t.status,"
                               " t.suspicion, t.received_at, t.voided_at IS NOT NULL"
                               " FROM scores s JOIN players p ON p.id = s.player_id"
                               " LEFT JOIN scores t ON t.seq = s.twin_of"
                               " LEFT JOIN players tp ON tp.id = t.player_id"
                               " WHERE s.reviewed_at IS NULL AND s.voided_at IS NULL"
                               " AND (s.suspicion < ?1 OR (s.suspicion = ?1 AND s.seq > ?2))"
                               " ORDER BY s.suspicion DESC, s.seq ASC LIMIT ?3");
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_int64(st, 1, below);
    sqlite3_bind_int64(st, 2, after);
    sqlite3_bind_int(st, 3, q->limit + 1);
    json_t *items = json_array();
    int rc, n = 0;
    int64_t last_s = 0, last_seq = 0;
    bool more = false;
    store_status res = STORE_OK;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (n == q->limit) {
            more = true;
            break;
        }
        last_seq = sqlite3_column_int64(st, 0);
        last_s = sqlite3_column_int64(st, 9);
        int64_t player = sqlite3_column_int64(st, 2);
        const char *date = (const char *)sqlite3_column_text(st, 6);
        json_t *item = json_pack(
            "{s:s,s:I,s:s,s:s,s:i,s:I,s:s,s:I,s:o,s:I,s:b}", "score_id",
            (const char *)sqlite3_column_text(st, 1), "player_id", (json_int_t)player, "name",
            (const char *)sqlite3_column_text(st, 3), "game", (const char *)sqlite3_column_text(st, 4),
            "level", sqlite3_column_int(st, 5), "score", (json_int_t)sqlite3_column_int64(st, 7), "status",
            (const char *)sqlite3_column_text(st, 8), "suspicion", (json_int_t)last_s, "signals",
            json_or_null(st, 10), "submitted_at_ms", (json_int_t)sqlite3_column_int64(st, 11), "banned",
            sqlite3_column_int(st, 12) != 0);
        if (date && date[0])
            json_object_set_new(item, "date", json_string(date));
        if (sqlite3_column_int64(st, 13))
            json_object_set_new(item, "duplicate_of_seq", json_integer(sqlite3_column_int64(st, 13)));
        if (sqlite3_column_type(st, 14) != SQLITE_NULL)
            json_object_set_new(
                item, "twin",
                json_pack("{s:s,s:I,s:s,s:I,s:s,s:I,s:I,s:b}", "score_id",
                          (const char *)sqlite3_column_text(st, 14), "player_id",
                          (json_int_t)sqlite3_column_int64(st, 15), "name",
                          (const char *)sqlite3_column_text(st, 16), "score",
                          (json_int_t)sqlite3_column_int64(st, 17), "status",
                          (const char *)sqlite3_column_text(st, 18), "suspicion",
                          (json_int_t)sqlite3_column_int64(st, 19), "submitted_at_ms",
                          (json_int_t)sqlite3_column_int64(st, 20), "voided",
                          sqlite3_column_int(st, 21) != 0));
        json_t *pf = player_features(c, player, q->now, &res);
        json_object_set_new(item, "player_features", pf ? pf : json_null());
        json_t *linked = linked_accounts(c, player, q->linked_window_ms, &res);
        if (json_array_size(linked))
            json_object_set_new(item, "linked_accounts", linked);
        else
            json_decref(linked);
        json_array_append_new(items, item);
        n++;
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        res = failed(c, rc, "admin_review");
    if (res != STORE_OK) {
        json_decref(items);
        return res;
    }
    char next[48];
    snprintf(next, sizeof next, "%lld.%lld", (long long)last_s, (long long)last_seq);
    *out = json_pack("{s:o,s:o}", "items", items, "next_cursor", more ? json_string(next) : json_null());
    return STORE_OK;
}

static store_status read_log(conn *c, const store_admin_query *q, json_t **out)
{
    int64_t after, unused;
    if (!parse_cursor(q->cursor, &after, &unused))
        return STORE_CONFLICT;
    sqlite3_stmt *st = prep(c, "SELECT id, at, actor, action, target, reason, detail FROM admin_log"
                               " WHERE id > ? ORDER BY id LIMIT ?");
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_int64(st, 1, after);
    sqlite3_bind_int(st, 2, q->limit + 1);
    json_t *items = json_array();
    int rc, n = 0;
    int64_t last = 0;
    bool more = false;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (n == q->limit) {
            more = true;
            break;
        }
        last = sqlite3_column_int64(st, 0);
        json_array_append_new(
            items, json_pack("{s:I,s:I,s:s,s:s,s:s,s:s,s:o}", "id", (json_int_t)last, "at_ms",
                             (json_int_t)sqlite3_column_int64(st, 1), "actor",
                             (const char *)sqlite3_column_text(st, 2), "action",
                             (const char *)sqlite3_column_text(st, 3), "target",
                             (const char *)sqlite3_column_text(st, 4), "reason",
                             (const char *)sqlite3_column_text(st, 5), "detail", json_or_null(st, 6)));
        n++;
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
        json_decref(items);
        return failed(c, rc, "admin_log");
    }
    char next[24];
    snprintf(next, sizeof next, "%lld", (long long)last);
    *out = json_pack("{s:o,s:o}", "items", items, "next_cursor", more ? json_string(next) : json_null());
    return STORE_OK;
}

store_status sqlite_admin_read(store_db *db, const store_admin_query *q, json_t **out)
{
    *out = NULL;
    conn *c = sqlite_reader_get(db);
    store_status res = STORE_ERROR;
    /* one snapshot for the whole answer */
    if (sqlite3_exec(c->db, "BEGIN", NULL, NULL, NULL) == SQLITE_OK) {
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
        sqlite3_exec(c->db, "COMMIT", NULL, NULL, NULL);
    }
    sqlite_reader_put(db, c);
    return res;
}
