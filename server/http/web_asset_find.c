/* web_asset_find: the lookup of web_assets.h, by name in the generated
 * table (build/gen/web_assets.c). Reads the static table only: nothing to
 * free, safe from any thread. */
#include "web_assets.h"

#include <string.h>

const web_asset *web_asset_find(const char *name)
{
    for (int i = 0; i < web_asset_count; i++)
        if (strcmp(web_assets[i].name, name) == 0)
            return &web_assets[i];
    return NULL;
}
