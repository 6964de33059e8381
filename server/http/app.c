/* app: what the app's own fields answer (app.h): the version new seed
 * tokens of a game are issued under, from the issue_version table serve.c
 * filled at start-up. Reads only; frees nothing. */
#include "app.h"

#include "../../core/game.h"

int app_issue_version(const app *a, const game *g)
{
    for (size_t i = 0; i < game_catalog_count; i++)
        if (game_catalog[i] == g)
            return a->issue_version[i];
    return g->version;
}
