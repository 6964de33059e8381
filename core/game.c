/*
 * game: the shell's side of the game contract. Range checks live here once,
 * so a game's generate() only ever sees a version and level it declared,
 * and generate_with() only parameters within their declared ranges.
 */
#include "game.h"

#include <string.h>

static gen_status check_ranges(const game *g, int version, int level_no)
{
    if (version < g->min_version || version > g->version)
        return GEN_BAD_VERSION;
    if (level_no < 1 || level_no > g->levels)
        return GEN_BAD_LEVEL;
    return GEN_OK;
}

gen_status game_generate(const game *g, game_level *out, int version, int level_no,
                         uint32_t seed)
{
    gen_status st = check_ranges(g, version, level_no);
    if (st == GEN_OK)
        g->generate(out, version, level_no, seed);
    return st;
}

gen_status game_generate_with(const game *g, game_level *out, int version, int level_no,
                              uint32_t seed, const game_params *params)
{
    bool any = false;
    for (int i = 0; params && i < GAME_MAX_PARAMS; i++) {
        if (!params->set[i])
            continue;
        if (i >= g->n_params || params->v[i] < g->params[i].min || params->v[i] > g->params[i].max)
            return GEN_BAD_PARAMS;
        any = true;
    }
    if (!any)
        return game_generate(g, out, version, level_no, seed);
    gen_status st = check_ranges(g, version, level_no);
    if (st == GEN_OK)
        g->generate_with(out, version, level_no, seed, params);
    return st;
}

int game_param_index(const game *g, const char *name)
{
    for (int i = 0; i < g->n_params; i++)
        if (strcmp(g->params[i].name, name) == 0)
            return i;
    return -1;
}

int game_field_count(const game *g, int version)
{
    int n = 0;
    for (int f = 0; f < g->n_fields; f++)
        n += game_field_in(&g->fields[f], version);
    return n;
}
