/* metrics_http: GET /metrics on its own address (see the header). */
#include "metrics_http.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"

static enum MHD_Result answer(struct MHD_Connection *conn, unsigned status, const char *type,
                              char *body, size_t len)
{
    struct MHD_Response *resp = MHD_create_response_from_buffer(len, body, MHD_RESPMEM_MUST_FREE);
    if (!resp) {
        free(body);
        return MHD_NO;
    }
    MHD_add_response_header(resp, "Content-Type", type);
    MHD_add_response_header(resp, "Cache-Control", "no-store");
    enum MHD_Result ok = MHD_queue_response(conn, status, resp);
    MHD_destroy_response(resp);
    return ok;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url,
                                  const char *method, const char *version, const char *upload,
                                  size_t *upload_size, void **con_cls)
{
    (void)version;
    (void)upload;
    app *a = cls;
    if (!*con_cls) { /* the headers-only first call */
        *con_cls = a;
        return MHD_YES;
    }
    if (*upload_size) { /* a body is not wanted: skip it */
        *upload_size = 0;
        return MHD_YES;
    }
    if (strcmp(method, "GET") == 0 && strcmp(url, "/metrics") == 0) {
        size_t len = 0;
        char *text = metrics_render(&a->stats, &len);
        if (text)
            return answer(conn, 200, "text/plain; version=0.0.4", text, len);
    }
    static const char missing[] = "{\"error\":{\"code\":\"not_found\",\"message\":\"only GET /metrics is served here\"}}\n";
    char *body = strdup(missing);
    return body ? answer(conn, 404, "application/json", body, sizeof missing - 1) : MHD_NO;
}

struct MHD_Daemon *metrics_http_start(app *a, unsigned *port, char *err, size_t err_len)
{
    const char *spec = a->cfg.metrics_listen;
    const char *colon = strrchr(spec, ':');
    char host[64];
    uint32_t p = 0;
    struct sockaddr_in addr;
    memset(&addr, 0, sizeof addr);
    addr.sin_family = AF_INET;
    if (!colon || (size_t)(colon - spec) >= sizeof host || !parse_u32(colon + 1, &p) || p > 65535) {
        snprintf(err, err_len, "metrics_listen \"%s\" is not ADDR:PORT", spec);
        return NULL;
    }
    memcpy(host, spec, (size_t)(colon - spec));
    host[colon - spec] = '\0';
    if (inet_pton(AF_INET, host, &addr.sin_addr) != 1) {
        snprintf(err, err_len, "metrics_listen \"%s\": not an IPv4 address", spec);
        return NULL;
    }
    addr.sin_port = htons((uint16_t)p);
    struct MHD_Daemon *d = MHD_start_daemon(
        MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL, (uint16_t)p, NULL, NULL, on_request, a,
        MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&addr,
        MHD_OPTION_CONNECTION_LIMIT, 16u,
        MHD_OPTION_CONNECTION_TIMEOUT, 10u,
        MHD_OPTION_END);
    if (!d) {
        snprintf(err, err_len, "cannot listen on %s for metrics", spec);
        return NULL;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
    *port = info ? info->port : (unsigned)p;
    return d;
}
