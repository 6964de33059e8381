/*
 * catalog: the one static table of games. Adding a game is adding its
 * folder under games/ and one row here; nothing else in the server changes.
 */
#include <string.h>

#include "game.h"
#include "../games/contraption/contraption.h"
#include "../games/driftlings/driftlings.h"
#include "../games/opposites/opposites.h"
#include "../games/pipes/pipes.h"
#include "../games/schulte/schulte.h"
#include "../games/target-sums/target_sums.h"

const game *const game_catalog[] = {
    &schulte_game,
    &pipes_game,
    &target_sums_game,
    &opposites_game,
    &contraption_game,
    &driftlings_game,
};

const size_t game_catalog_count = sizeof game_catalog / sizeof game_catalog[0];

const game *game_find(const char *name)
{
    if (!name)
        return NULL;
    for (size_t i = 0; i < game_catalog_count; i++)
        if (strcmp(game_catalog[i]->name, name) == 0)
            return game_catalog[i];
    return NULL;
}

int game_outcome_index(const game *g, const char *code)
{
    for (int i = 0; i < g->n_outcomes; i++)
        if (strcmp(g->outcomes[i].code, code) == 0)
            return i;
    return -1;
}
