/*
 * catalog: the one static table of games, from the rows of games.def.
 * Adding a game is adding its folder under games/ and one row there;
 * nothing else in the server changes.
 */
#include <string.h>

#include "game.h"

/* Each row declares its game (defined in its own folder)... */
#define GAME(g) extern const game g;
#include "games.def"
#undef GAME

/* ...and is one entry of the table. */
const game *const game_catalog[] = {
#define GAME(g) &g,
#include "games.def"
#undef GAME
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
