/*
 * api_web: the public web pages and their assets (server/http/web_assets.h).
 * GET / is the boards page, GET /replay/{score_id} the replay viewer (the
 * page reads the id from its own path), GET /assets/... the files they
 * load, and GET /admin/ the operator's console (only when an admin token is
 * configured; never stored by a cache). Pages carry a strict
 * Content-Security-Policy; everything carries a strong ETag and answers
 * If-None-Match with 304.
 */
#include <stdbool.h>
#include <string.h>

#include "api.h"
#include "../http/web_assets.h"

/* Nothing but this origin: scripts, styles, fetches; WebAssembly may be
 * compiled (a future build of the games); no frames, forms or <base>. */
#define PAGE_CSP                                                                            \
    "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; "       \
    "img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; "  \
    "frame-ancestors 'none'"

/* Does an If-None-Match list ("a", W/"b", or *) hold this ETag? Weak
 * comparison, as RFC 9110 asks for If-None-Match. */
static bool etag_listed(const char *list, const char *etag)
{
    size_t etag_len = strlen(etag);
    const char *p = list;
    while (*p) {
        p += strspn(p, " \t,");
        if (*p == '*')
            return true;
        if (strncmp(p, "W/", 2) == 0)
            p += 2;
        size_t n = strcspn(p, ",");
        while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\t'))
            n--;
        if (n == etag_len && strncmp(p, etag, n) == 0)
            return true;
        p += strcspn(p, ",");
    }
    return false;
}

typedef enum asset_kind { ASSET_FILE, ASSET_PAGE, ASSET_ADMIN_PAGE } asset_kind;

static void serve_asset(request *r, const web_asset *a, asset_kind kind)
{
    reply_header(r, "ETag", a->etag);
    reply_header(r, "X-Content-Type-Options", "nosniff");
    if (kind != ASSET_FILE) {
        /* Revalidated on every visit: a new build shows at once. The
         * console is kept by no cache at all. */
        reply_header(r, "Cache-Control", kind == ASSET_ADMIN_PAGE ? "no-store" : "no-cache");
        reply_header(r, "Content-Security-Policy", PAGE_CSP);
        reply_header(r, "Referrer-Policy", "no-referrer");
    } else {
        reply_header(r, "Cache-Control", "public, max-age=300");
    }
    const char *inm = req_header(r, "If-None-Match");
    /* libmicrohttpd sends no body with a 304 but announces the full length,
     * which is what RFC 9110 allows there. */
    if (inm && etag_listed(inm, a->etag))
        reply_static(r, 304, a->content_type, a->data, a->size);
    else
        reply_static(r, 200, a->content_type, a->data, a->size);
}

static void serve_page(request *r, const char *name, asset_kind kind)
{
    const web_asset *a = web_asset_find(name);
    if (!a) {
        reply_error(r, 500, "internal", "this build has no web pages");
        return;
    }
    serve_asset(r, a, kind);
}

void api_web_index(request *r)
{
    serve_page(r, "index.html", ASSET_PAGE);
}

void api_web_replay(request *r)
{
    const char *id = r->seg[1];
    if (strlen(id) != 32 || strspn(id, "0123456789abcdef") != 32) {
        reply_error(r, 404, "not_found", "no such score");
        return;
    }
    serve_page(r, "replay.html", ASSET_PAGE);
}

void api_web_asset(request *r)
{
    /* The route guarantees the path starts with /assets/. */
    const web_asset *a = web_asset_find(r->path + 1);
    if (!a) {
        reply_error(r, 404, "not_found", "no such asset");
        return;
    }
    serve_asset(r, a, ASSET_FILE);
}

/* GET /admin/: the console exists only where an admin token does; the
 * page holds no secret, the token is asked for by the page itself. */
void api_web_admin(request *r)
{
    if (!r->app->cfg.admin_token[0]) {
        reply_error(r, 404, "not_found", "no such endpoint");
        return;
    }
    serve_page(r, "admin.html", ASSET_ADMIN_PAGE);
}
