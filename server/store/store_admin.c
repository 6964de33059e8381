/*
 * store_admin: the operators' actions and reads, once, for both backends
 * (store_rules.h).
 *
 * Actions (store_rules_admin) run on the writer thread inside the batch's
 * transaction, like every other write: the row changes, the level_bests
 * rows they imply and the admin_log row commit together or not at all (an
 * action that fails after writing is undone by the store's transaction
 * loop, store_txn.c, the same way on both backends).
 * Each action reports, for every board it touched, the player's entry on
 * that board as it now stands (store_board_change); store.c applies those
 * to the boards in memory after the commit (and the PostgreSQL backend
 * sends them to the other nodes). The player's row is held first
 * (SD_ADMIN_PLAYER_ROW, SD_PLAYER_LOCK), then the score's, so that on
 * PostgreSQL a score being committed for that player and the action run
 * one after the other.
 *
 * A score is on its board when its status is 'ranked', it is not voided
 * and its player is not banned. A level board holds each player's best
 * such score: after a change it is recomputed from the player's scores,
 * so a voided best gives way to the next best.
 *
 * Ownership: changes are malloc'd into the write (store_admin_clear frees
 * them); JSON answers are new references for the caller.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "store_backend.h"
#include "store_rules.h"

/* ---- boards an action touches ---- */

typedef struct board_ref {
    char game[32];
    int level;
    char date[11]; /* "" for a level board */
} board_ref;

static bool board_of_ref(const board_ref *r, store_board *b)
{
    play p;
    if (!store_game_day(r->game, r->date, &p))
        return false;
    b->g = p.day >= 0 ? NULL : p.g;
    b->level = p.day >= 0 ? 0 : r->level;
    b->day = p.day;
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

store_status store_rules_settle(const sd_db *x, const char *game_name, int level, const char *date,
                                int64_t player, store_board_change *out)
{
    const store_driver *d = x->d;
    board_ref ref = { .level = level };
    snprintf(ref.game, sizeof ref.game, "%s", game_name);
    snprintf(ref.date, sizeof ref.date, "%s", date ? date : "");
    const board_ref *r = &ref;
    store_board_change ch;
    memset(&ch, 0, sizeof ch);
    if (!board_of_ref(r, &ch.board)) {
        store_log_error("settle", "a score row names a game this build does not serve");
        return STORE_ERROR;
    }
    ch.player_id = player;
    sd_id id = r->date[0] ? SD_DAILY_ENTRY : SD_BEST_RECOMPUTE;
    sd_stmt *s;
    if (!r->date[0]) {
        s = d->start(x->c, SD_BEST_DELETE);
        if (!s)
            return sd_failed(x, NULL, SD_BEST_DELETE);
        d->bind_int(s, player);
        d->bind_text(s, r->game);
        d->bind_int(s, r->level);
        store_status st = sd_run(x, s, SD_BEST_DELETE);
        if (st != STORE_OK)
            return st;
    }
    s = d->start(x->c, id);
    if (!s)
        return sd_failed(x, NULL, id);
    d->bind_int(s, player);
    if (r->date[0]) {
        d->bind_text(s, r->date);
    } else {
        d->bind_text(s, r->game);
        d->bind_int(s, r->level);
    }
    int rc = d->step(s);
    if (rc == SD_FAIL)
        return sd_failed(x, s, id);
    if (rc == SD_ROW) {
        ch.has_entry = true;
        ch.score = d->col_int(s, 0);
        ch.seq = d->col_int(s, 1);
        ch.received_at = d->col_int(s, 2);
        d->col_blob(s, 3, ch.nonce, PLAY_NONCE_BYTES);
    }
    d->done(s);
    *out = ch;
    return STORE_OK;
}

/* Settles one board (store_rules_settle) and reports it in the action's
 * changes. */
static store_status settle_board(const sd_db *x, store_write *w, const board_ref *r, int64_t player)
{
    store_board_change ch;
    store_status st = store_rules_settle(x, r->game, r->level, r->date, player, &ch);
    return st == STORE_OK ? add_change(w, &ch) : st;
}

/* Every board the player has a score for: each (game, level) of its level
 * scores and each date of its daily ones. */
static store_status player_boards(const sd_db *x, int64_t player, board_ref **out, int *n)
{
    const store_driver *d = x->d;
    *out = NULL;
    *n = 0;
    sd_stmt *s = d->start(x->c, SD_PLAYER_BOARDS);
    if (!s)
        return sd_failed(x, NULL, SD_PLAYER_BOARDS);
    d->bind_int(s, player);
    int rc, cap = 0;
    while ((rc = d->step(s)) == SD_ROW) {
        if (*n == cap) {
            cap = cap ? cap * 2 : 16;
            board_ref *m = realloc(*out, (size_t)cap * sizeof *m);
            if (!m)
                break;
            *out = m;
        }
        board_ref *r = &(*out)[(*n)++];
        const char *name = d->col_text(s, 0), *date = d->col_text(s, 2);
        snprintf(r->game, sizeof r->game, "%s", name ? name : "");
        r->level = (int)d->col_int(s, 1);
        snprintf(r->date, sizeof r->date, "%s", date ? date : "");
    }
    if (rc != SD_DONE) {
        free(*out);
        *out = NULL;
        *n = 0;
        if (rc == SD_FAIL)
            return sd_failed(x, s, SD_PLAYER_BOARDS);
        d->done(s);
        return STORE_ERROR; /* out of memory */
    }
    d->done(s);
    return STORE_OK;
}

static store_status log_action(const sd_db *x, store_write *w, const char *action,
                               const char *target, json_t *detail)
{
    const store_driver *d = x->d;
    char *text = detail ? json_dumps(detail, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
    json_decref(detail);
    if (!text)
        return STORE_ERROR;
    sd_stmt *s = d->start(x->c, SD_ADMIN_LOG_INSERT);
    if (!s) {
        free(text);
        return sd_failed(x, NULL, SD_ADMIN_LOG_INSERT);
    }
    d->bind_int(s, w->u.admin.now);
    d->bind_text(s, w->u.admin.actor);
    d->bind_text(s, action);
    d->bind_text(s, target);
    d->bind_text(s, w->u.admin.reason);
    d->bind_text(s, text);
    int rc = d->step(s);
    if (rc == SD_FAIL) {
        free(text);
        return sd_failed(x, s, SD_ADMIN_LOG_INSERT);
    }
    if (rc == SD_ROW)
        w->u.admin.log_id = d->col_int(s, 0);
    d->done(s);
    free(text);
    return rc == SD_ROW ? STORE_OK : STORE_ERROR;
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

static store_status read_score_row(const sd_db *x, const uint8_t *nonce, score_row *row)
{
    const store_driver *d = x->d;
    sd_stmt *s = d->start(x->c, SD_ADMIN_SCORE_ROW);
    if (!s)
        return sd_failed(x, NULL, SD_ADMIN_SCORE_ROW);
    d->bind_blob(s, nonce, PLAY_NONCE_BYTES);
    int rc = d->step(s);
    if (rc == SD_FAIL)
        return sd_failed(x, s, SD_ADMIN_SCORE_ROW);
    if (rc == SD_ROW) {
        memset(row, 0, sizeof *row);
        row->seq = d->col_int(s, 0);
        row->player_id = d->col_int(s, 1);
        const char *name = d->col_text(s, 2), *date = d->col_text(s, 4), *id = d->col_text(s, 8);
        snprintf(row->board.game, sizeof row->board.game, "%s", name ? name : "");
        row->board.level = (int)d->col_int(s, 3);
        snprintf(row->board.date, sizeof row->board.date, "%s", date ? date : "");
        row->ranked = d->col_int(s, 5) != 0;
        row->voided = d->col_int(s, 6) != 0;
        row->reviewed = d->col_int(s, 7) != 0;
        snprintf(row->score_id, sizeof row->score_id, "%s", id ? id : "");
    }
    d->done(s);
    return rc == SD_ROW ? STORE_OK : STORE_NOT_FOUND;
}

static store_status run_score_action(const sd_db *x, store_write *w)
{
    const store_driver *d = x->d;
    /* the player first (on PostgreSQL the batch's lock order found it),
     * then the score's row, then its own player when that was another */
    store_status got = w->u.admin.player_id > 0 ? sd_lock_player(x, w->u.admin.player_id) : STORE_OK;
    score_row row;
    memset(&row, 0, sizeof row);
    if (got == STORE_OK)
        got = read_score_row(x, w->u.admin.nonce, &row);
    if (got == STORE_OK && row.player_id != w->u.admin.player_id)
        got = sd_lock_player(x, row.player_id);
    if (got != STORE_OK)
        return got;
    admin_action a = w->u.admin.action;
    sd_id id;
    if (a == ADMIN_VOID) {
        if (row.voided)
            return STORE_CONFLICT;
        id = SD_SCORE_VOID;
    } else if (a == ADMIN_RESTORE) {
        if (!row.voided)
            return STORE_CONFLICT;
        id = SD_SCORE_RESTORE;
    } else {
        /* approve: a held score, or one still waiting in the review queue */
        if (row.voided || (row.ranked && row.reviewed))
            return STORE_CONFLICT;
        id = SD_SCORE_APPROVE;
    }
    sd_stmt *s = d->start(x->c, id);
    if (!s)
        return sd_failed(x, NULL, id);
    if (id != SD_SCORE_RESTORE)
        d->bind_int(s, w->u.admin.now);
    if (id == SD_SCORE_VOID)
        d->bind_text(s, w->u.admin.reason);
    d->bind_int(s, row.seq);
    store_status st = sd_run(x, s, id);
    if (st != STORE_OK)
        return st;
    w->u.admin.player_id = row.player_id;
    st = settle_board(x, w, &row.board, row.player_id);
    if (st != STORE_OK)
        return st;
    const store_board_change *ch = &w->u.admin.changes[w->u.admin.n_changes - 1];
    json_t *detail = json_pack("{s:I,s:s,s:i,s:s,s:o}", "player_id", (json_int_t)row.player_id, "game",
                               row.board.game, "level", row.board.level, "date", row.board.date,
                               "board_entry_seq", ch->has_entry ? json_integer(ch->seq) : json_null());
    return log_action(x, w, action_names[a], row.score_id, detail);
}

/* ---- player actions: ban, unban, rename ---- */

static store_status run_player_action(const sd_db *x, store_write *w)
{
    const store_driver *d = x->d;
    int64_t player = w->u.admin.player_id;
    sd_stmt *s = d->start(x->c, SD_ADMIN_PLAYER_ROW);
    if (!s)
        return sd_failed(x, NULL, SD_ADMIN_PLAYER_ROW);
    d->bind_int(s, player);
    int rc = d->step(s);
    if (rc == SD_FAIL)
        return sd_failed(x, s, SD_ADMIN_PLAYER_ROW);
    bool banned = rc == SD_ROW && d->col_int(s, 0) != 0;
    char old_name[STORE_NAME_MAX + 1] = "";
    const char *name = rc == SD_ROW ? d->col_text(s, 1) : NULL;
    snprintf(old_name, sizeof old_name, "%s", name ? name : "");
    d->done(s);
    if (rc == SD_DONE)
        return STORE_NOT_FOUND;
    admin_action a = w->u.admin.action;
    char target[40];
    snprintf(target, sizeof target, "player:%lld", (long long)player);
    if (a == ADMIN_RENAME) {
        s = d->start(x->c, SD_PLAYER_RENAME);
        if (!s)
            return sd_failed(x, NULL, SD_PLAYER_RENAME);
        d->bind_text(s, w->u.admin.name);
        d->bind_int(s, player);
        store_status st = sd_run(x, s, SD_PLAYER_RENAME);
        if (st != STORE_OK)
            return st;
        return log_action(x, w, "rename", target,
                          json_pack("{s:s,s:s}", "from", old_name, "to", w->u.admin.name));
    }
    if ((a == ADMIN_BAN) == banned)
        return STORE_CONFLICT;
    sd_id id = a == ADMIN_BAN ? SD_PLAYER_BAN : SD_PLAYER_UNBAN;
    s = d->start(x->c, id);
    if (!s)
        return sd_failed(x, NULL, id);
    if (a == ADMIN_BAN)
        d->bind_int(s, w->u.admin.now);
    d->bind_int(s, player);
    store_status got = sd_run(x, s, id);
    if (got != STORE_OK)
        return got;
    board_ref *boards;
    int n;
    got = player_boards(x, player, &boards, &n);
    if (got != STORE_OK)
        return got;
    int on_boards = 0;
    for (int i = 0; i < n && got == STORE_OK; i++) {
        got = settle_board(x, w, &boards[i], player);
        on_boards += got == STORE_OK && w->u.admin.changes[w->u.admin.n_changes - 1].has_entry;
    }
    free(boards);
    if (got != STORE_OK)
        return got;
    return log_action(x, w, action_names[a], target,
                      json_pack("{s:i,s:i}", "boards", n, "entries_on_boards", on_boards));
}

store_status store_rules_admin(const sd_db *x, store_write *w)
{
    w->u.admin.changes = NULL;
    w->u.admin.n_changes = 0;
    w->u.admin.log_id = 0;
    store_status res = STORE_ERROR;
    switch (w->u.admin.action) {
    case ADMIN_VOID:
    case ADMIN_RESTORE:
    case ADMIN_APPROVE:
        res = run_score_action(x, w);
        break;
    case ADMIN_BAN:
    case ADMIN_UNBAN:
    case ADMIN_RENAME:
        res = run_player_action(x, w);
        break;
    }
    /* a refusal is decided before any row changes; a failure after a
     * write (STORE_ERROR, STORE_BUSY) is undone by the transaction loop
     * (store_txn.c); the changes go with it */
    if (res != STORE_OK)
        store_admin_clear(w);
    return res;
}

/* ---- reads ---- */

static json_t *json_or_null(const sd_db *x, sd_stmt *s, int col)
{
    const char *t = x->d->col_text(s, col);
    json_t *v = t && *t ? json_loads(t, 0, NULL) : NULL;
    return v ? v : json_null();
}

static const char *text_or_empty(const sd_db *x, sd_stmt *s, int col)
{
    const char *t = x->d->col_text(s, col);
    return t ? t : "";
}

/* A player's runs as the review sees them: how often a completed run was
 * perfect (no wasted moves, in permille of completed runs with that
 * feature), forfeits and abandons. */
static json_t *player_features(const sd_db *x, int64_t player, int64_t now, store_status *res)
{
    const store_driver *d = x->d;
    sd_stmt *s = d->start(x->c, SD_ADMIN_FEATURES);
    if (!s) {
        *res = sd_failed(x, NULL, SD_ADMIN_FEATURES);
        return NULL;
    }
    d->bind_int(s, player);
    if (d->step(s) != SD_ROW) {
        *res = sd_failed(x, s, SD_ADMIN_FEATURES);
        return NULL;
    }
    int64_t runs = d->col_int(s, 0), perfect = d->col_int(s, 1);
    d->done(s);
    s = d->start(x->c, SD_ADMIN_TOKENS);
    if (!s) {
        *res = sd_failed(x, NULL, SD_ADMIN_TOKENS);
        return NULL;
    }
    d->bind_int(s, now);
    d->bind_int(s, player);
    if (d->step(s) != SD_ROW) {
        *res = sd_failed(x, s, SD_ADMIN_TOKENS);
        return NULL;
    }
    int64_t forfeits = d->col_int(s, 0), abandons = d->col_int(s, 1);
    d->done(s);
    return json_pack("{s:I,s:I,s:I,s:I}", "completed_runs", (json_int_t)runs, "perfect_permille",
                     (json_int_t)(runs ? perfect * 1000 / runs : 0), "forfeits", (json_int_t)forfeits,
                     "abandons", (json_int_t)abandons);
}

/* Other accounts registered from the player's network prefix within
 * window ms of it, oldest first (at most 20); [] when none or window 0.
 * A failure sets *res (when it holds no earlier one). */
static json_t *linked_accounts(const sd_db *x, int64_t player, int64_t window, store_status *res)
{
    const store_driver *d = x->d;
    json_t *list = json_array();
    if (window <= 0)
        return list;
    sd_stmt *s = d->start(x->c, SD_ADMIN_LINKED);
    if (!s) {
        store_status st = sd_failed(x, NULL, SD_ADMIN_LINKED);
        if (*res == STORE_OK)
            *res = st;
        return list;
    }
    d->bind_int(s, player);
    d->bind_int(s, window);
    int rc;
    while ((rc = d->step(s)) == SD_ROW)
        json_array_append_new(list, json_pack("{s:I,s:s,s:I}", "player_id", (json_int_t)d->col_int(s, 0),
                                              "name", text_or_empty(x, s, 1), "created_at_ms",
                                              (json_int_t)d->col_int(s, 2)));
    if (rc == SD_FAIL) {
        store_status st = sd_failed(x, s, SD_ADMIN_LINKED);
        if (*res == STORE_OK)
            *res = st;
    } else {
        d->done(s);
    }
    return list;
}

/* The player's newest runs (PLAYER_RUNS_SHOWN), for an operator weighing
 * a held one: [{score_id, game, level, date?, score, status (ranked,
 * held, voided), suspicion, submitted_at_ms}]. */
#define PLAYER_RUNS_SHOWN 50
static json_t *recent_runs(const sd_db *x, int64_t player, store_status *res)
{
    const store_driver *d = x->d;
    json_t *list = json_array();
    sd_stmt *s = d->start(x->c, SD_ADMIN_PLAYER_RUNS);
    if (!s) {
        store_status st = sd_failed(x, NULL, SD_ADMIN_PLAYER_RUNS);
        if (*res == STORE_OK)
            *res = st;
        return list;
    }
    d->bind_int(s, player);
    d->bind_int(s, PLAYER_RUNS_SHOWN);
    int rc;
    while ((rc = d->step(s)) == SD_ROW) {
        const char *status = d->col_int(s, 8) ? "voided" : text_or_empty(x, s, 5);
        json_t *run = json_pack("{s:s,s:s,s:I,s:I,s:s,s:I,s:I}", "score_id", text_or_empty(x, s, 0), "game",
                                text_or_empty(x, s, 1), "level", (json_int_t)d->col_int(s, 2), "score",
                                (json_int_t)d->col_int(s, 4), "status", status, "suspicion",
                                (json_int_t)d->col_int(s, 6), "submitted_at_ms", (json_int_t)d->col_int(s, 7));
        const char *date = text_or_empty(x, s, 3);
        if (run && date[0])
            json_object_set_new(run, "date", json_string(date));
        json_array_append_new(list, run);
    }
    if (rc == SD_FAIL) {
        store_status st = sd_failed(x, s, SD_ADMIN_PLAYER_RUNS);
        if (*res == STORE_OK)
            *res = st;
    } else {
        d->done(s);
    }
    return list;
}

/* The player's identities: [{provider, bound_at_ms}] (never a subject's
 * token; the subject stays in the store). A failure sets *res. */
static json_t *identities_of(const sd_db *x, int64_t player, store_status *res)
{
    const store_driver *d = x->d;
    json_t *list = json_array();
    sd_stmt *s = d->start(x->c, SD_IDENTITY_LIST);
    if (!s) {
        *res = sd_failed(x, NULL, SD_IDENTITY_LIST);
        return list;
    }
    d->bind_int(s, player);
    int rc;
    while ((rc = d->step(s)) == SD_ROW)
        json_array_append_new(list, json_pack("{s:s,s:I}", "provider", text_or_empty(x, s, 0),
                                              "bound_at_ms", (json_int_t)d->col_int(s, 1)));
    if (rc == SD_FAIL)
        *res = sd_failed(x, s, SD_IDENTITY_LIST);
    else
        d->done(s);
    return list;
}

static store_status read_player(const sd_db *x, const store_admin_query *q, json_t **out)
{
    const store_driver *d = x->d;
    sd_stmt *s = d->start(x->c, SD_ADMIN_PLAYER);
    if (!s)
        return sd_failed(x, NULL, SD_ADMIN_PLAYER);
    d->bind_int(s, q->player_id);
    int rc = d->step(s);
    if (rc != SD_ROW) {
        if (rc == SD_FAIL)
            return sd_failed(x, s, SD_ADMIN_PLAYER);
        d->done(s);
        return STORE_NOT_FOUND;
    }
    char name[STORE_NAME_MAX + 1];
    const char *n = d->col_text(s, 0);
    snprintf(name, sizeof name, "%s", n ? n : "");
    int64_t created = d->col_int(s, 1);
    json_t *banned = d->col_text(s, 2) ? json_integer(d->col_int(s, 2)) : json_null();
    int64_t rejected = d->col_int(s, 3), voided = d->col_int(s, 4), held = d->col_int(s, 5);
    d->done(s);
    store_status res = STORE_OK;
    json_t *features = player_features(x, q->player_id, q->now, &res);
    json_t *linked = res == STORE_OK ? linked_accounts(x, q->player_id, q->linked_window_ms, &res) : NULL;
    json_t *identities = res == STORE_OK ? identities_of(x, q->player_id, &res) : NULL;
    json_t *runs = res == STORE_OK ? recent_runs(x, q->player_id, &res) : NULL;
    if (res != STORE_OK) {
        json_decref(banned);
        json_decref(features);
        json_decref(linked);
        json_decref(identities);
        json_decref(runs);
        return res;
    }
    *out = json_pack("{s:I,s:s,s:I,s:o,s:{s:I,s:I,s:I},s:o}", "player_id", (json_int_t)q->player_id,
                     "name", name, "created_at_ms", (json_int_t)created, "banned_at_ms", banned, "scores",
                     "rejected", (json_int_t)rejected, "voided", (json_int_t)voided, "held", (json_int_t)held,
                     "features", features);
    if (!*out) {
        json_decref(linked);
        json_decref(identities);
        json_decref(runs);
        return STORE_ERROR;
    }
    json_object_set_new(*out, "linked_accounts", linked);
    json_object_set_new(*out, "identities", identities);
    json_object_set_new(*out, "runs", runs);
    return STORE_OK;
}

/* A cursor of one or two integers ("N" or "N.M"); "" is the first page. */
static bool parse_cursor(const char *s, int64_t *a, int64_t *b)
{
    *a = *b = 0;
    if (!s || !*s)
        return true;
    char *end;
    long long v = strtoll(s, &end, 10);
    if (end == s || v < 0)
        return false;
    *a = v;
    if (*end == '.') {
        const char *m = end + 1;
        long long y = strtoll(m, &end, 10);
        if (end == m || y < 0)
            return false;
        *b = y;
    }
    return *end == '\0';
}

static json_t *page(json_t *items, bool more, const char *next)
{
    return json_pack("{s:o,s:o}", "items", items, "next_cursor", more ? json_string(next) : json_null());
}

static store_status read_rejections(const sd_db *x, const store_admin_query *q, json_t **out)
{
    const store_driver *d = x->d;
    int64_t before, unused;
    if (!parse_cursor(q->cursor, &before, &unused))
        return STORE_CONFLICT;
    /* only the filters given, numbered as they come (so SQLite can pick
     * the player's index or walk ids backwards): the one statement built
     * at run time, in SQL both dialects read */
    char sql[768];
    int len = snprintf(sql, sizeof sql,
                       "SELECT id, nonce, player_id, game, level, seed, version, reason, move_index,"
                       " received_at, moves_hash, moves_json FROM rejections WHERE 1 = 1");
    int k = 0;
    if (q->player_id)
        len += snprintf(sql + len, sizeof sql - (size_t)len, " AND player_id = ?%d", ++k);
    if (q->g)
        len += snprintf(sql + len, sizeof sql - (size_t)len, " AND game = ?%d", ++k);
    if (q->since)
        len += snprintf(sql + len, sizeof sql - (size_t)len, " AND received_at >= ?%d", ++k);
    if (before)
        len += snprintf(sql + len, sizeof sql - (size_t)len, " AND id < ?%d", ++k);
    snprintf(sql + len, sizeof sql - (size_t)len, " ORDER BY id DESC LIMIT ?%d", ++k);
    sd_stmt *s = d->start_sql(x->c, sql);
    if (!s)
        return d->failed(x->c, "admin_rejections");
    if (q->player_id)
        d->bind_int(s, q->player_id);
    if (q->g)
        d->bind_text(s, q->g->name);
    if (q->since)
        d->bind_int(s, q->since);
    if (before)
        d->bind_int(s, before);
    d->bind_int(s, q->limit + 1);
    json_t *items = json_array();
    int rc, n = 0;
    int64_t last = 0;
    bool more = false;
    while ((rc = d->step(s)) == SD_ROW) {
        if (n == q->limit) {
            more = true;
            break;
        }
        uint8_t nonce[PLAY_NONCE_BYTES], hash[STORE_HASH_BYTES];
        char id[2 * PLAY_NONCE_BYTES + 1], hex[2 * STORE_HASH_BYTES + 1];
        d->col_blob(s, 1, nonce, sizeof nonce);
        d->col_blob(s, 10, hash, sizeof hash);
        sodium_bin2hex(id, sizeof id, nonce, sizeof nonce);
        sodium_bin2hex(hex, sizeof hex, hash, sizeof hash);
        last = d->col_int(s, 0);
        json_array_append_new(
            items, json_pack("{s:I,s:s,s:I,s:s,s:i,s:I,s:i,s:s,s:I,s:I,s:s,s:o}", "id", (json_int_t)last,
                             "token_id", id, "player_id", (json_int_t)d->col_int(s, 2), "game",
                             text_or_empty(x, s, 3), "level", (int)d->col_int(s, 4), "seed",
                             (json_int_t)d->col_int(s, 5), "version", (int)d->col_int(s, 6), "reason",
                             text_or_empty(x, s, 7), "move", (json_int_t)d->col_int(s, 8),
                             "received_at_ms", (json_int_t)d->col_int(s, 9), "moves_hash", hex, "moves",
                             json_or_null(x, s, 11)));
        n++;
    }
    if (rc == SD_FAIL) {
        json_decref(items);
        d->done(s);
        return d->failed(x->c, "admin_rejections");
    }
    d->done(s);
    char next[24];
    snprintf(next, sizeof next, "%lld", (long long)last);
    *out = page(items, more, next);
    return STORE_OK;
}

/* A run's progress gaps (store.h twin_times: 8 hex digits a move, each
 * the move's t) as a JSON array of ms, the first from 0; null without. */
static json_t *gaps_json(const char *hex)
{
    size_t n = hex ? strlen(hex) : 0;
    if (n == 0 || n % 8)
        return json_null();
    json_t *out = json_array();
    int64_t prev = 0;
    for (size_t i = 0; i < n; i += 8) {
        char word[9];
        memcpy(word, hex + i, 8);
        word[8] = '\0';
        int64_t t = (int64_t)strtoll(word, NULL, 16);
        json_array_append_new(out, json_integer(t - prev));
        prev = t;
    }
    return out;
}

/* A review item's twin beside it: the other run of the pair and its
 * player, whether it came first, and both runs' progress gaps (nothing
 * when that run is gone). */
static store_status add_twin(const sd_db *x, json_t *item, int64_t seq, int64_t twin_of)
{
    const store_driver *d = x->d;
    sd_stmt *s = d->start(x->c, SD_ADMIN_TWIN);
    if (!s)
        return sd_failed(x, NULL, SD_ADMIN_TWIN);
    d->bind_int(s, twin_of);
    int rc = d->step(s);
    if (rc == SD_FAIL)
        return sd_failed(x, s, SD_ADMIN_TWIN);
    if (rc == SD_ROW)
        json_object_set_new(
            item, "twin",
            json_pack("{s:s,s:I,s:s,s:I,s:s,s:I,s:I,s:b,s:b,s:o}", "score_id", text_or_empty(x, s, 0),
                      "player_id", (json_int_t)d->col_int(s, 1), "name", text_or_empty(x, s, 2),
                      "score", (json_int_t)d->col_int(s, 3), "status", text_or_empty(x, s, 4),
                      "suspicion", (json_int_t)d->col_int(s, 5), "submitted_at_ms",
                      (json_int_t)d->col_int(s, 6), "voided", d->col_int(s, 7) != 0, "came_first",
                      twin_of < seq, "gaps_ms", gaps_json(d->col_text(s, 8))));
    d->done(s);
    return STORE_OK;
}

/* The queue's statement for the filters given, each numbered as it comes
 * after the cursor's two (?1 suspicion, ?2 seq), then the row limit: built
 * at run time like the rejections' in SQL both dialects read. Binds in
 * that order: review_bind. */
static void review_sql(const store_admin_query *q, char *sql, size_t cap)
{
    int len = snprintf(sql, cap,
                       "SELECT s.seq, s.score_id, s.player_id, p.name, s.game, s.level,"
                       " s.daily_date, s.score, s.status, s.suspicion, s.signals, s.received_at,"
                       " p.banned_at IS NOT NULL, COALESCE(s.duplicate_of, 0), COALESCE(s.twin_of, 0),"
                       " COALESCE((SELECT i.provider FROM identities i WHERE i.player_id = s.player_id"
                       " ORDER BY i.provider LIMIT 1), ''), s.twin_times"
                       " FROM scores s JOIN players p ON p.id = s.player_id"
                       " WHERE s.reviewed_at IS NULL AND s.voided_at IS NULL"
                       " AND (s.suspicion < ?1 OR (s.suspicion = ?1 AND s.seq > ?2))");
    int k = 2;
    if (q->g)
        len += snprintf(sql + len, cap - (size_t)len, " AND s.game = ?%d", ++k);
    if (q->g && q->level > 0)
        len += snprintf(sql + len, cap - (size_t)len, " AND s.level = ?%d AND s.daily_date = ''", ++k);
    if (q->date)
        len += snprintf(sql + len, cap - (size_t)len, " AND s.daily_date = ?%d", ++k);
    if (q->status)
        len += snprintf(sql + len, cap - (size_t)len, " AND s.status = ?%d", ++k);
    snprintf(sql + len, cap - (size_t)len, " ORDER BY s.suspicion DESC, s.seq ASC LIMIT ?%d", ++k);
}

static void review_bind(const sd_db *x, sd_stmt *s, const store_admin_query *q, int64_t below, int64_t after,
                        int rows)
{
    const store_driver *d = x->d;
    d->bind_int(s, below);
    d->bind_int(s, after);
    if (q->g)
        d->bind_text(s, q->g->name);
    if (q->g && q->level > 0)
        d->bind_int(s, q->level);
    if (q->date)
        d->bind_text(s, q->date);
    if (q->status)
        d->bind_text(s, q->status);
    d->bind_int(s, rows);
}

/* The rows one page reads at most: limit (and one more to know there are
 * more), or with a filter scan_max, never under limit. */
static int review_scan(const store_admin_query *q)
{
    return q->keep && q->scan_max > q->limit ? q->scan_max : q->limit;
}

/* A queue row as an item, before what other statements add. */
static json_t *review_item(const sd_db *x, sd_stmt *s)
{
    const store_driver *d = x->d;
    const char *date = d->col_text(s, 6);
    json_t *item = json_pack(
        "{s:s,s:I,s:s,s:s,s:i,s:I,s:s,s:I,s:o,s:I,s:b}", "score_id", text_or_empty(x, s, 1), "player_id",
        (json_int_t)d->col_int(s, 2), "name", text_or_empty(x, s, 3), "game", text_or_empty(x, s, 4), "level",
        (int)d->col_int(s, 5), "score", (json_int_t)d->col_int(s, 7), "status", text_or_empty(x, s, 8),
        "suspicion", (json_int_t)d->col_int(s, 9), "signals", json_or_null(x, s, 10), "submitted_at_ms",
        (json_int_t)d->col_int(s, 11), "banned", d->col_int(s, 12) != 0);
    if (!item)
        return NULL;
    if (date && date[0])
        json_object_set_new(item, "date", json_string(date));
    if (d->col_int(s, 13))
        json_object_set_new(item, "duplicate_of_seq", json_integer(d->col_int(s, 13)));
    const char *provider = d->col_text(s, 15);
    json_object_set_new(item, "provider", provider && provider[0] ? json_string(provider) : json_null());
    if (d->col_int(s, 14)) /* beside its twin's */
        json_object_set_new(item, "gaps_ms", gaps_json(d->col_text(s, 16)));
    return item;
}

typedef struct review_row {
    json_t *item;
    int64_t player;
    int64_t seq, twin_of;
} review_row;

/* A page's rows: up to limit kept ones into rows (*n), at most
 * review_scan(q) read. *more when a row is left: past the budget, or a
 * kept one after a full page (rows skipped before it are read past). The
 * cursor (*last_s, *last_seq) is the last row read and not left. */
static store_status review_rows(const sd_db *x, sd_stmt *s, const store_admin_query *q, review_row *rows,
                                int *n, bool *more, int64_t *last_s, int64_t *last_seq)
{
    const store_driver *d = x->d;
    int rc, scanned = 0, budget = review_scan(q);
    while ((rc = d->step(s)) == SD_ROW) {
        if (scanned++ == budget) {
            *more = true;
            break;
        }
        json_t *item = review_item(x, s);
        if (!item) {
            d->done(s);
            return STORE_ERROR;
        }
        bool kept = !q->keep || q->keep(item, q->keep_ctx);
        if (kept && *n == q->limit) {
            json_decref(item);
            *more = true;
            break;
        }
        *last_s = d->col_int(s, 9);
        *last_seq = d->col_int(s, 0);
        if (!kept) {
            json_decref(item);
            continue;
        }
        rows[(*n)++] = (review_row){ .item = item, .player = d->col_int(s, 2), .seq = *last_seq,
                                     .twin_of = d->col_int(s, 14) };
    }
    if (rc == SD_FAIL) {
        d->done(s);
        return d->failed(x->c, "admin_review");
    }
    d->done(s);
    return STORE_OK;
}

/* What a kept item gets from other statements: the player's features, the
 * twin beside it, linked accounts. */
static store_status review_add(const sd_db *x, const store_admin_query *q, review_row *row)
{
    store_status res = STORE_OK;
    json_t *pf = player_features(x, row->player, q->now, &res);
    json_object_set_new(row->item, "player_features", pf ? pf : json_null());
    if (res == STORE_OK && row->twin_of)
        res = add_twin(x, row->item, row->seq, row->twin_of);
    json_t *linked = res == STORE_OK ? linked_accounts(x, row->player, q->linked_window_ms, &res) : NULL;
    if (json_array_size(linked))
        json_object_set_new(row->item, "linked_accounts", linked);
    else
        json_decref(linked);
    return res;
}

static store_status read_review(const sd_db *x, const store_admin_query *q, json_t **out)
{
    const store_driver *d = x->d;
    int64_t below, after;
    if (!parse_cursor(q->cursor, &below, &after))
        return STORE_CONFLICT;
    if (!q->cursor || !q->cursor[0])
        below = INT64_MAX;
    char sql[1024];
    review_sql(q, sql, sizeof sql);
    /* the page's rows first: the features are read on the same connection */
    review_row *rows = calloc((size_t)q->limit, sizeof *rows);
    if (!rows)
        return STORE_ERROR;
    sd_stmt *s = d->start_sql(x->c, sql);
    if (!s) {
        free(rows);
        return d->failed(x->c, "admin_review");
    }
    review_bind(x, s, q, below, after, review_scan(q) + 1);
    int n = 0;
    bool more = false;
    int64_t last_s = 0, last_seq = 0;
    store_status res = review_rows(x, s, q, rows, &n, &more, &last_s, &last_seq);
    json_t *items = json_array();
    for (int i = 0; i < n; i++) {
        if (res == STORE_OK)
            res = review_add(x, q, &rows[i]);
        json_array_append_new(items, rows[i].item);
    }
    free(rows);
    if (res != STORE_OK) {
        json_decref(items);
        return res;
    }
    char next[48];
    snprintf(next, sizeof next, "%lld.%lld", (long long)last_s, (long long)last_seq);
    *out = page(items, more, next);
    return STORE_OK;
}

/* The log's statement for the filters given, numbered as they come (the
 * cursor's id, action, actor), then the row limit. */
static void log_sql(const store_admin_query *q, bool from_cursor, char *sql, size_t cap)
{
    int len = snprintf(sql, cap, "SELECT id, at, actor, action, target, reason, detail FROM admin_log WHERE 1 = 1");
    int k = 0;
    if (from_cursor)
        len += snprintf(sql + len, cap - (size_t)len, " AND id %s ?%d", q->newest_first ? "<" : ">", ++k);
    if (q->action)
        len += snprintf(sql + len, cap - (size_t)len, " AND action = ?%d", ++k);
    if (q->actor)
        len += snprintf(sql + len, cap - (size_t)len, " AND actor = ?%d", ++k);
    snprintf(sql + len, cap - (size_t)len, " ORDER BY id%s LIMIT ?%d", q->newest_first ? " DESC" : "", ++k);
}

static store_status read_log(const sd_db *x, const store_admin_query *q, json_t **out)
{
    const store_driver *d = x->d;
    int64_t from, unused;
    if (!parse_cursor(q->cursor, &from, &unused))
        return STORE_CONFLICT;
    bool from_cursor = q->cursor && q->cursor[0];
    char sql[512];
    log_sql(q, from_cursor, sql, sizeof sql);
    sd_stmt *s = d->start_sql(x->c, sql);
    if (!s)
        return d->failed(x->c, "admin_log");
    if (from_cursor)
        d->bind_int(s, from);
    if (q->action)
        d->bind_text(s, q->action);
    if (q->actor)
        d->bind_text(s, q->actor);
    d->bind_int(s, q->limit + 1);
    json_t *items = json_array();
    int rc, n = 0;
    int64_t last = 0;
    bool more = false;
    while ((rc = d->step(s)) == SD_ROW) {
        if (n == q->limit) {
            more = true;
            break;
        }
        last = d->col_int(s, 0);
        json_array_append_new(
            items, json_pack("{s:I,s:I,s:s,s:s,s:s,s:s,s:o}", "id", (json_int_t)last, "at_ms",
                             (json_int_t)d->col_int(s, 1), "actor", text_or_empty(x, s, 2), "action",
                             text_or_empty(x, s, 3), "target", text_or_empty(x, s, 4), "reason",
                             text_or_empty(x, s, 5), "detail", json_or_null(x, s, 6)));
        n++;
    }
    if (rc == SD_FAIL) {
        json_decref(items);
        d->done(s);
        return d->failed(x->c, "admin_log");
    }
    d->done(s);
    char next[24];
    snprintf(next, sizeof next, "%lld", (long long)last);
    *out = page(items, more, next);
    return STORE_OK;
}

store_status store_rules_admin_read(const sd_db *x, const store_admin_query *q, json_t **out)
{
    *out = NULL;
    /* one snapshot for the whole answer */
    sd_stmt *s = x->d->start(x->c, SD_READ_BEGIN);
    store_status res = s ? sd_run(x, s, SD_READ_BEGIN) : sd_failed(x, NULL, SD_READ_BEGIN);
    if (res != STORE_OK)
        return res;
    switch (q->kind) {
    case ADMIN_Q_PLAYER:
        res = read_player(x, q, out);
        break;
    case ADMIN_Q_REJECTIONS:
        res = read_rejections(x, q, out);
        break;
    case ADMIN_Q_REVIEW:
        res = read_review(x, q, out);
        break;
    case ADMIN_Q_LOG:
        res = read_log(x, q, out);
        break;
    }
    s = x->d->start(x->c, SD_READ_END);
    if (s)
        sd_run(x, s, SD_READ_END);
    return res;
}
