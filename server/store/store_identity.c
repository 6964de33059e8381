/*
 * store_identity: the rules of identities (issue 36), once for both
 * backends over the driver: a sign-in with an identity, a link of one to a
 * player, and the sign-in nonces. store.h's player write says what each
 * answer means; every refusal is decided before a row changes.
 */
#include <stdio.h>
#include <string.h>

#include "store_backend.h"
#include "store_rules.h"

/* The identity's player and whether they are banned; 0 when unbound. */
static store_status identity_get(const sd_db *x, const store_write *w, int64_t *player, bool *banned)
{
    const store_driver *d = x->d;
    *player = 0;
    *banned = false;
    sd_stmt *s = d->start(x->c, SD_IDENTITY_LOCK);
    if (!s)
        return sd_failed(x, NULL, SD_IDENTITY_LOCK);
    d->bind_text(s, w->u.player.provider);
    d->bind_text(s, w->u.player.subject);
    store_status st = sd_run(x, s, SD_IDENTITY_LOCK);
    if (st != STORE_OK)
        return st;
    s = d->start(x->c, SD_IDENTITY_GET);
    if (!s)
        return sd_failed(x, NULL, SD_IDENTITY_GET);
    d->bind_text(s, w->u.player.provider);
    d->bind_text(s, w->u.player.subject);
    int rc = d->step(s);
    if (rc == SD_FAIL)
        return sd_failed(x, s, SD_IDENTITY_GET);
    if (rc == SD_ROW) {
        *player = d->col_int(s, 0);
        *banned = d->col_int(s, 1) != 0;
    }
    d->done(s);
    return STORE_OK;
}

/* Whether the player is bound to a subject of this provider already. */
static store_status provider_bound(const sd_db *x, const store_write *w, bool *bound)
{
    const store_driver *d = x->d;
    sd_stmt *s = d->start(x->c, SD_IDENTITY_OF_PLAYER);
    if (!s)
        return sd_failed(x, NULL, SD_IDENTITY_OF_PLAYER);
    d->bind_int(s, w->u.player.link_to);
    d->bind_text(s, w->u.player.provider);
    int rc = d->step(s);
    if (rc == SD_FAIL)
        return sd_failed(x, s, SD_IDENTITY_OF_PLAYER);
    *bound = rc == SD_ROW;
    d->done(s);
    return STORE_OK;
}

/* Takes the write's nonce: STORE_NOT_FOUND when it was never issued, was
 * taken already or has expired. */
static store_status take_nonce(const sd_db *x, const store_write *w)
{
    if (!w->u.player.has_nonce)
        return STORE_OK;
    const store_driver *d = x->d;
    sd_stmt *s = d->start(x->c, SD_NONCE_TAKE);
    if (!s)
        return sd_failed(x, NULL, SD_NONCE_TAKE);
    d->bind_blob(s, w->u.player.nonce_hash, STORE_HASH_BYTES);
    d->bind_int(s, w->u.player.now);
    int rc = d->step(s);
    if (rc == SD_FAIL)
        return sd_failed(x, s, SD_NONCE_TAKE);
    d->done(s);
    return rc == SD_ROW ? STORE_OK : STORE_NOT_FOUND;
}

static store_status bind_identity(const sd_db *x, const store_write *w, int64_t player)
{
    const store_driver *d = x->d;
    sd_stmt *s = d->start(x->c, SD_IDENTITY_INSERT);
    if (!s)
        return sd_failed(x, NULL, SD_IDENTITY_INSERT);
    d->bind_text(s, w->u.player.provider);
    d->bind_text(s, w->u.player.subject);
    d->bind_int(s, player);
    d->bind_int(s, w->u.player.now);
    int rc = d->step(s);
    if (rc == SD_FAIL)
        return sd_failed(x, s, SD_IDENTITY_INSERT);
    d->done(s);
    if (rc != SD_ROW) { /* cannot happen under the identity's lock: the loop undoes it all */
        store_log_error("identity_insert", "the identity was bound meanwhile");
        return STORE_ERROR;
    }
    return STORE_OK;
}

/* A bound identity's player signs in again: their bearer token is the new one. */
static store_status sign_in_again(const sd_db *x, store_write *w, int64_t player)
{
    const store_driver *d = x->d;
    sd_stmt *s = d->start(x->c, SD_PLAYER_SET_TOKEN);
    if (!s)
        return sd_failed(x, NULL, SD_PLAYER_SET_TOKEN);
    d->bind_blob(s, w->u.player.token_hash, STORE_HASH_BYTES);
    d->bind_int(s, player);
    store_status st = sd_run(x, s, SD_PLAYER_SET_TOKEN);
    if (st != STORE_OK)
        return st;
    s = d->start(x->c, SD_ADMIN_PLAYER_ROW);
    if (!s)
        return sd_failed(x, NULL, SD_ADMIN_PLAYER_ROW);
    d->bind_int(s, player);
    int rc = d->step(s);
    if (rc == SD_FAIL)
        return sd_failed(x, s, SD_ADMIN_PLAYER_ROW);
    store_player *p = &w->u.player.created;
    memset(p, 0, sizeof *p);
    p->id = player;
    if (rc == SD_ROW) {
        const char *name = d->col_text(s, 1);
        snprintf(p->name, sizeof p->name, "%s", name ? name : "");
    }
    d->done(s);
    snprintf(p->provider, sizeof p->provider, "%s", w->u.player.provider);
    w->u.player.existed = true;
    return STORE_OK;
}

store_status store_rules_identity(const sd_db *x, store_write *w)
{
    int64_t owner;
    bool banned;
    w->u.player.existed = false;
    w->u.player.refused = 0;
    store_status st = identity_get(x, w, &owner, &banned);
    if (st != STORE_OK)
        return st;
    if (owner && banned)
        return STORE_BANNED; /* a ban follows the identity */
    int64_t link = w->u.player.link_to;
    if (link && owner && owner != link) {
        w->u.player.refused = IDENTITY_TAKEN;
        return STORE_CONFLICT;
    }
    if (link && !owner) {
        bool bound = false;
        if ((st = provider_bound(x, w, &bound)) != STORE_OK)
            return st;
        if (bound) {
            w->u.player.refused = IDENTITY_PROVIDER_BOUND;
            return STORE_CONFLICT;
        }
    }
    if ((st = take_nonce(x, w)) != STORE_OK)
        return st;
    /* the checks are done: from here on rows change */
    if (link) {
        memset(&w->u.player.created, 0, sizeof w->u.player.created);
        w->u.player.created.id = link;
        snprintf(w->u.player.created.provider, sizeof w->u.player.created.provider, "%s",
                 w->u.player.provider);
        w->u.player.existed = owner == link;
        return owner == link ? STORE_OK : bind_identity(x, w, link);
    }
    if (owner)
        return sign_in_again(x, w, owner);
    st = store_rules_player(x, w);
    if (st != STORE_OK)
        return st;
    snprintf(w->u.player.created.provider, sizeof w->u.player.created.provider, "%s",
             w->u.player.provider);
    return bind_identity(x, w, w->u.player.created.id);
}

store_status store_rules_nonce(const sd_db *x, store_write *w)
{
    const store_driver *d = x->d;
    sd_stmt *s = d->start(x->c, SD_NONCE_PURGE);
    if (!s)
        return sd_failed(x, NULL, SD_NONCE_PURGE);
    d->bind_int(s, w->u.nonce.now);
    store_status st = sd_run(x, s, SD_NONCE_PURGE);
    if (st != STORE_OK)
        return st;
    s = d->start(x->c, SD_NONCE_INSERT);
    if (!s)
        return sd_failed(x, NULL, SD_NONCE_INSERT);
    d->bind_blob(s, w->u.nonce.nonce_hash, STORE_HASH_BYTES);
    d->bind_int(s, w->u.nonce.expires_at);
    return sd_run(x, s, SD_NONCE_INSERT);
}
