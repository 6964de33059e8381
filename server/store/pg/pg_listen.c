/*
 * pg_listen: the PostgreSQL backend's listener thread, which keeps this
 * node's boards current with what other nodes commit.
 *
 * Every commit that ranks scores sends NOTIFY replayd_scores inside its
 * transaction (pg_txn.c), one line per score: the sending node's id,
 * the board and the entry. An operator's action (void, restore, approve,
 * ban, unban) sends one line per board it changed, with the player's
 * entry on it as it now stands (or none), which replaces the player's
 * entry on this node's board as one step (board_cache_set); a rename makes
 * the name cache forget the player. PostgreSQL delivers it at the commit, to every
 * connection listening then; the listener offers each entry to the board
 * cache (an entry offered twice, or one the board's load already read,
 * changes nothing). Notifications sent while this node was not listening
 * are lost to it, so each time the listener (re)connects and LISTENs it
 * asks the store to resync: every board in memory reloads on its next
 * read. A broken connection is retried with a growing pause (50 ms to 2 s).
 *
 * Ownership: the thread owns its connection; pg_listen_stop joins the
 * thread and closes it.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store_pg.h"

size_t pg_notify_line(const store_db *db, const store_score *sc, char *out, size_t cap)
{
    char nonce[PLAY_ID_LEN + 1];
    play_score_id(&sc->p, nonce);
    int n;
    if (play_is_daily(&sc->p))
        n = snprintf(out, cap, "%s D %ld %" PRId64 " %" PRId64 " %" PRId64 " %" PRId64 " %s",
                     db->node, (long)sc->p.day, sc->score, sc->seq, sc->p.player_id,
                     sc->received_at, nonce);
    else
        n = snprintf(out, cap, "%s L %s %d %" PRId64 " %" PRId64 " %" PRId64 " %" PRId64 " %s",
                     db->node, sc->p.g->name, sc->p.level, sc->score, sc->seq, sc->p.player_id,
                     sc->received_at, nonce);
    return n > 0 && (size_t)n < cap ? (size_t)n : 0;
}

size_t pg_notify_change(const store_db *db, const store_board_change *ch, char *out, size_t cap)
{
    char nonce[PLAY_ID_LEN + 1] = "-";
    if (ch->has_entry) {
        play p = { 0 };
        memcpy(p.nonce, ch->nonce, PLAY_NONCE_BYTES);
        play_score_id(&p, nonce);
    }
    int n;
    if (ch->board.day >= 0)
        n = snprintf(out, cap, "%s d %ld %" PRId64 " %d %" PRId64 " %" PRId64 " %" PRId64 " %s",
                     db->node, (long)ch->board.day, ch->player_id, ch->has_entry ? 1 : 0,
                     ch->score, ch->seq, ch->received_at, nonce);
    else
        n = snprintf(out, cap, "%s l %s %d %" PRId64 " %d %" PRId64 " %" PRId64 " %" PRId64 " %s",
                     db->node, ch->board.g->name, ch->board.level, ch->player_id,
                     ch->has_entry ? 1 : 0, ch->score, ch->seq, ch->received_at, nonce);
    return n > 0 && (size_t)n < cap ? (size_t)n : 0;
}

size_t pg_notify_rename(const store_db *db, int64_t player_id, char *out, size_t cap)
{
    int n = snprintf(out, cap, "%s n %" PRId64, db->node, player_id);
    return n > 0 && (size_t)n < cap ? (size_t)n : 0;
}

size_t pg_notify_resync(const store_db *db, char *out, size_t cap)
{
    int n = snprintf(out, cap, "%s r", db->node);
    return n > 0 && (size_t)n < cap ? (size_t)n : 0;
}

/* A line of an operator's action ('d', 'l': a player's entry on a board as
 * it now stands; 'n': a player renamed; 'r': resync) handed to the watch;
 * false when it does not parse. */
static bool deliver_change(const store_db *db, char kind, const char *rest)
{
    const pg_listener *l = &db->listen;
    if (kind == 'r') {
        l->w.resync(l->w.ctx);
        return true;
    }
    long long player;
    if (kind == 'n') {
        if (sscanf(rest, "%lld", &player) != 1)
            return false;
        l->w.renamed(l->w.ctx, player);
        return true;
    }
    store_board b = { .day = -1 };
    rank_entry e;
    memset(&e, 0, sizeof e);
    char game_name[40], nonce[PLAY_ID_LEN + 1];
    long long day, score, seq, received;
    int level, has;
    if (kind == 'd') {
        if (sscanf(rest, "%lld %lld %d %lld %lld %lld %32s", &day, &player, &has, &score, &seq,
                   &received, nonce) != 7 || day < 0 || day > INT32_MAX)
            return false;
        b.day = (int32_t)day;
    } else if (kind == 'l') {
        if (sscanf(rest, "%39s %d %lld %d %lld %lld %lld %32s", game_name, &level, &player, &has,
                   &score, &seq, &received, nonce) != 8 || !(b.g = game_find(game_name)))
            return false;
        b.level = level;
    } else {
        return false;
    }
    e.score = score;
    e.seq = seq;
    e.player_id = player;
    e.received_at = received;
    if (has && (strlen(nonce) != PLAY_ID_LEN || !play_nonce_from_id(nonce, e.nonce)))
        return false;
    l->w.set(l->w.ctx, &b, player, has ? &e : NULL);
    return true;
}

/* One payload line back into a board and an entry; false when it is this
 * node's own, an operator's action's (delivered here) or does not parse (a
 * newer node's format: skipped). */
static bool parse_line(const store_db *db, const char *line, store_board *b, rank_entry *e)
{
    char node[17], kind, game_name[40], nonce[PLAY_ID_LEN + 1];
    long long day, score, seq, player, received;
    int level, used = 0;
    if (sscanf(line, "%16s %c%n", node, &kind, &used) != 2 || strcmp(node, db->node) == 0)
        return false;
    const char *rest = line + used;
    if (kind == 'd' || kind == 'l' || kind == 'n' || kind == 'r') {
        deliver_change(db, kind, rest);
        return false;
    }
    memset(e, 0, sizeof *e);
    *b = (store_board){ .day = -1 };
    if (kind == 'D') {
        if (sscanf(rest, "%lld %lld %lld %lld %lld %32s", &day, &score, &seq, &player, &received,
                   nonce) != 6 || day < 0 || day > INT32_MAX)
            return false;
        b->day = (int32_t)day;
    } else if (kind == 'L') {
        if (sscanf(rest, "%39s %d %lld %lld %lld %lld %32s", game_name, &level, &score, &seq,
                   &player, &received, nonce) != 7)
            return false;
        b->g = game_find(game_name);
        b->level = level;
        if (!b->g)
            return false;
    } else {
        return false;
    }
    e->score = score;
    e->seq = seq;
    e->player_id = player;
    e->received_at = received;
    return strlen(nonce) == PLAY_ID_LEN && play_nonce_from_id(nonce, e->nonce);
}

static void deliver(store_db *db, const char *payload)
{
    pg_listener *l = &db->listen;
    const char *p = payload;
    while (*p) {
        size_t len = strcspn(p, "\n");
        char line[256];
        if (len < sizeof line) {
            memcpy(line, p, len);
            line[len] = '\0';
            store_board b;
            rank_entry e;
            if (parse_line(db, line, &b, &e))
                l->w.offer(l->w.ctx, &b, &e);
        }
        p += len;
        if (*p == '\n')
            p++;
    }
}

/* Waits up to ms for the wake pipe; true when the thread must stop. */
static bool pause_or_stop(pg_listener *l, int ms)
{
    struct pollfd pfd = { .fd = l->wake[0], .events = POLLIN };
    return poll(&pfd, 1, ms) > 0;
}

static bool listen_on(pg_listener *l, const char *url, int busy_ms)
{
    char err[256];
    if (pg_connect(&l->c, url, busy_ms, err, sizeof err) != STORE_OK)
        return false;
    if (pg_exec(&l->c, "LISTEN " PG_CHANNEL, "listen") != STORE_OK) {
        pg_disconnect(&l->c);
        return false;
    }
    return true;
}

/* The listener's connection broke: said once, then retried. */
static void dropped(pg_listener *l)
{
    store_log_error("pg_listen", "the listener lost PostgreSQL; boards resync when it is back");
    pg_disconnect(&l->c);
}

static void *listener_main(void *arg)
{
    store_db *db = arg;
    pg_listener *l = &db->listen;
    int backoff = 50;
    for (;;) {
        if (!l->c.pg) {
            if (!listen_on(l, db->url, db->cfg.busy_timeout_ms)) {
                if (pause_or_stop(l, backoff))
                    break;
                backoff = backoff * 2 > 2000 ? 2000 : backoff * 2;
                continue;
            }
            /* whatever was committed while nobody listened is read again */
            l->w.resync(l->w.ctx);
            fprintf(stderr, "{\"event\":\"boards_resync\",\"why\":\"listener reconnected\"}\n");
            backoff = 50;
        }
        struct pollfd pfd[2] = { { .fd = PQsocket(l->c.pg), .events = POLLIN },
                                 { .fd = l->wake[0], .events = POLLIN } };
        int ready = poll(pfd, 2, 1000);
        if (ready < 0 && errno != EINTR)
            break;
        if (pfd[1].revents)
            break;
        if (ready > 0 && !PQconsumeInput(l->c.pg)) {
            dropped(l);
            continue;
        }
        PGnotify *note;
        while ((note = PQnotifies(l->c.pg)) != NULL) {
            deliver(db, note->extra);
            PQfreemem(note);
        }
        if (PQstatus(l->c.pg) != CONNECTION_OK)
            dropped(l);
    }
    pg_disconnect(&l->c);
    return NULL;
}

store_status pg_listen_start(store_db *db, const store_watch *w, char *err, size_t err_len)
{
    pg_listener *l = &db->listen;
    l->w = *w;
    if (pipe(l->wake) != 0) {
        snprintf(err, err_len, "pipe: %s", strerror(errno));
        l->wake[0] = l->wake[1] = -1;
        return STORE_ERROR;
    }
    /* listening before the first board loads: nothing committed after a
     * load can be missed (a failure here is retried by the thread) */
    if (listen_on(l, db->url, db->cfg.busy_timeout_ms))
        l->w.resync(l->w.ctx);
    if (pthread_create(&l->thread, NULL, listener_main, db) != 0) {
        snprintf(err, err_len, "cannot start the listener thread");
        pg_disconnect(&l->c);
        return STORE_ERROR;
    }
    l->started = true;
    return STORE_OK;
}

void pg_listen_stop(store_db *db)
{
    pg_listener *l = &db->listen;
    if (l->started) {
        ssize_t wrote = write(l->wake[1], "x", 1);
        (void)wrote;
        pthread_join(l->thread, NULL);
        l->started = false;
    }
    pg_disconnect(&l->c);
    for (int i = 0; i < 2; i++)
        if (l->wake[i] >= 0)
            close(l->wake[i]);
    l->wake[0] = l->wake[1] = -1;
}
