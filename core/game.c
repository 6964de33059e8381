/*
 * game: the shell's side of the game contract. Range checks live here once,
 * so a game's generate() only ever sees a version and level it declared.
 */
#include "game.h"

gen_status game_generate(const game *g, game_level *out, int version, int level_no,
                         uint32_t seed)
{
    if (version < g->min_version || version > g->version)
        return GEN_BAD_VERSION;
    if (level_no < 1 || level_no > g->levels)
        return GEN_BAD_LEVEL;
    g->generate(out, version, level_no, seed);
    return GEN_OK;
}

int game_field_count(const game *g, int version)
{
    int n = 0;
    for (int f = 0; f < g->n_fields; f++)
        n += game_field_in(&g->fields[f], version);
    return n;
}
