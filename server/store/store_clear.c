/*
 * store_clear: frees what the store's out-structs own (store.h): a
 * score's heap strings, an admin write's board changes, twin candidates'
 * times. A leaf: the rules, the reads and the callers above free through
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
