/*
 * store_clear: frees what the store's out-structs own (store.h): a
 * score's heap strings, an admin write's board changes, twin candidates'
 * times, the operators' reads' rows (store_admin_answer). A leaf: the rules, the reads and the callers above free through
 * it and it calls nothing of theirs.
 */
#include <stdlib.h>
#include <string.h>

#include "store.h"

void store_score_clear(store_score *sc)
{
    if (!sc)
        return;
    free(sc->moves_json);
    free(sc->result_json);
    free(sc->signals_json);
    free(sc->twin_times);
    memset(sc, 0, sizeof *sc);
}

void store_admin_clear(store_write *w)
{
    free(w->u.admin.changes);
    w->u.admin.changes = NULL;
    w->u.admin.n_changes = 0;
}

void store_twin_candidates_clear(store_twin_candidate *c, int n)
{
    for (int i = 0; i < n; i++) {
        free(c[i].times);
        c[i].times = NULL;
    }
}

void store_player_view_clear(store_player_view *v)
{
    free(v->linked);
    free(v->identities);
    free(v->runs);
    memset(v, 0, sizeof *v);
}

void store_rejection_row_clear(store_rejection_row *r)
{
    free(r->moves_json);
    memset(r, 0, sizeof *r);
}

void store_review_item_clear(store_review_item *it)
{
    free(it->signals_json);
    free(it->times);
    free(it->twin.times);
    free(it->linked);
    memset(it, 0, sizeof *it);
}

void store_admin_log_row_clear(store_admin_log_row *r)
{
    free(r->actor);
    free(r->action);
    free(r->target);
    free(r->reason);
    free(r->detail_json);
    memset(r, 0, sizeof *r);
}

void store_admin_answer_clear(store_admin_answer *a)
{
    store_player_view_clear(&a->player);
    for (int i = 0; a->rejections && i < a->n; i++)
        store_rejection_row_clear(&a->rejections[i]);
    for (int i = 0; a->review && i < a->n; i++)
        store_review_item_clear(&a->review[i]);
    for (int i = 0; a->log && i < a->n; i++)
        store_admin_log_row_clear(&a->log[i]);
    free(a->rejections);
    free(a->review);
    free(a->log);
    memset(a, 0, sizeof *a);
}
