/*
 * web_assets: the web pages (boards, replay viewer) and the files they load,
 * compiled in at build time by web/embed.sh into build/gen/web_assets.c.
 * The table is static and read-only: nothing to free, safe from any thread.
 */
#ifndef REPLAYD_SERVER_WEB_ASSETS_H
#define REPLAYD_SERVER_WEB_ASSETS_H

#include <stddef.h>

typedef struct web_asset {
    const char *name;         /* "index.html", "replay.html", "assets/js/boards.js", ... */
    const char *content_type;
    const char *etag;         /* strong, quoted: "\"<32 hex>\"" */
    const unsigned char *data;
    size_t size;
} web_asset;

extern const web_asset web_assets[];
extern const int web_asset_count;

/* The asset of that name, or NULL (web_asset_find.c). */
const web_asset *web_asset_find(const char *name);

#endif
