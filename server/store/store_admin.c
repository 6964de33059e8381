/*
 * store_admin: the operators' actions, once, for both backends
 * (store_rules.h). Their reads are store_admin_reads.c's.
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
 * them).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* Each action's leaf kind in the score log (docs/LOG.md section 7). */
static const log_kind action_kinds[] = {
    [ADMIN_VOID] = LOG_KIND_VOID, [ADMIN_RESTORE] = LOG_KIND_RESTORE, [ADMIN_APPROVE] = LOG_KIND_APPROVE,
    [ADMIN_BAN] = LOG_KIND_BAN,   [ADMIN_UNBAN] = LOG_KIND_UNBAN,     [ADMIN_RENAME] = LOG_KIND_RENAME,
};

/* The action in both logs: its admin_log row (w's log_id) and its leaf
 * in the score log, on player's entries (and the score w names when
 * score is true). */
static store_status log_action(const sd_db *x, store_write *w, const char *action,
                               const char *target, json_t *detail, int64_t player, bool score)
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
    if (rc != SD_ROW)
        return STORE_ERROR;
    admin_action a = w->u.admin.action;
    return store_scorelog_action(x, w, action_kinds[a], w->u.admin.log_id, w->u.admin.now, player,
                                 score ? w->u.admin.nonce : NULL, a == ADMIN_RENAME ? w->u.admin.name : NULL);
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
    return log_action(x, w, action_names[a], row.score_id, detail, row.player_id, true);
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
                          json_pack("{s:s,s:s}", "from", old_name, "to", w->u.admin.name), player, false);
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
                      json_pack("{s:i,s:i}", "boards", n, "entries_on_boards", on_boards), player, false);
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
