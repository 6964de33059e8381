/* metrics_http: GET /metrics on its own address (see the header). */
#include "metrics_http.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../base/parse.h"
#include "http_gate.h"
#include "listener.h"

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
    /* a connection per request: the gate checks the framing of every one */
    MHD_add_response_header(resp, "Connection", "close");
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

struct metrics_http {
    int listen_fd;
    http_gate *gate;
    struct MHD_Daemon *d;
};

void metrics_http_stop(metrics_http *m)
{
    if (!m)
        return;
    http_gate_stop(m->gate); /* first: it hands connections to the daemon */
    if (m->d)
        MHD_stop_daemon(m->d);
    if (m->listen_fd >= 0)
        close(m->listen_fd);
    free(m);
}

metrics_http *metrics_http_start(app *a, unsigned *port, char *err, size_t err_len)
{
    const char *spec = a->cfg.metrics_listen;
    const char *colon = strrchr(spec, ':');
    char host[64];
    uint32_t p = 0;
    if (!colon || colon == spec || (size_t)(colon - spec) >= sizeof host || !parse_u32(colon + 1, &p) ||
        p > 65535) {
        snprintf(err, err_len, "metrics_listen \"%s\" is not ADDR:PORT", spec);
        return NULL;
    }
    /* "[::1]:9090": an IPv6 address in brackets */
    bool bracketed = spec[0] == '[' && colon[-1] == ']';
    size_t n = (size_t)(colon - spec) - (bracketed ? 2 : 0);
    memcpy(host, spec + (bracketed ? 1 : 0), n);
    host[n] = '\0';
    metrics_http *m = calloc(1, sizeof *m);
    if (!m) {
        snprintf(err, err_len, "out of memory");
        return NULL;
    }
    char why[300];
    int bound = 0;
    m->listen_fd = listener_open(host, (int)p, &bound, why, sizeof why);
    if (m->listen_fd < 0) {
        snprintf(err, err_len, "metrics_listen: %s", why);
        goto fail;
    }
    http_gate_config gate_cfg = {
        .max_waiting = 16,
        .header_timeout_ms = a->cfg.header_timeout_ms,
        .max_header_bytes = 8192,
        .max_body = 0, /* GET only */
    };
    m->gate = http_gate_new(m->listen_fd, &gate_cfg, err, err_len);
    if (!m->gate)
        goto fail;
    m->d = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_ITC |
                                MHD_USE_NO_LISTEN_SOCKET,
                            0, NULL, NULL, on_request, a,
                            MHD_OPTION_CONNECTION_LIMIT, 16u,
                            MHD_OPTION_CONNECTION_TIMEOUT, 10u,
                            MHD_OPTION_STRICT_FOR_CLIENT, 1,
                            MHD_OPTION_END);
    if (!m->d || !http_gate_run(m->gate, m->d)) {
        snprintf(err, err_len, "cannot serve metrics on %s", spec);
        goto fail;
    }
    *port = (unsigned)bound;
    return m;
fail:
    metrics_http_stop(m);
    return NULL;
}
