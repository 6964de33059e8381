/*
 * store_player: a registration's rule, once for both backends over the
 * driver: a player of its own (no identity) inserted with its name and
 * token hash; STORE_CONFLICT when the token hash is taken. store_rules.c
 * runs it for a player write without an identity, store_identity.c for a
 * sign-in that makes a new player. The player is filled into the write
 * (no heap strings).
 */
#include <stdio.h>
#include <string.h>

#include "store_rules.h"

store_status store_rules_player(const sd_db *x, store_write *w)
{
    if (strlen(w->u.player.name) > STORE_NAME_MAX)
        return STORE_ERROR;
    sd_stmt *s = x->d->start(x->c, SD_PLAYER_INSERT);
    if (!s)
        return sd_failed(x, NULL, SD_PLAYER_INSERT);
    x->d->bind_text(s, w->u.player.name);
    x->d->bind_blob(s, w->u.player.token_hash, STORE_HASH_BYTES);
    x->d->bind_int(s, w->u.player.now);
    x->d->bind_text(s, w->u.player.prefix);
    int rc = x->d->step(s);
    if (rc == SD_FAIL)
        return sd_failed(x, s, SD_PLAYER_INSERT);
    store_player *p = &w->u.player.created;
    memset(p, 0, sizeof *p);
    if (rc == SD_ROW) {
        p->id = x->d->col_int(s, 0);
        snprintf(p->name, sizeof p->name, "%s", w->u.player.name);
        p->created_at = w->u.player.now;
    }
    x->d->done(s);
    return rc == SD_ROW ? STORE_OK : STORE_CONFLICT; /* a taken token hash */
}
