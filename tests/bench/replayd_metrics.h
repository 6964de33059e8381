/*
 * replayd_metrics: reads counters from a replayd's GET /metrics (served on
 * its main listener: the bench starts it with metrics_public = true) for
 * the HTTP benches, on a connection of its own that the server closes
 * after the answer (the text is longer than http_client.h's buffer).
 * Header-only (static functions), like http_client.h.
 */
#ifndef REPLAYD_TESTS_BENCH_REPLAYD_METRICS_H
#define REPLAYD_TESTS_BENCH_REPLAYD_METRICS_H

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "http_client.h"

/* The whole answer to GET /metrics (headers and body, NUL-terminated,
 * malloc'd), NULL when it cannot be read. */
static char *metrics_text(int port)
{
    conn c;
    if (conn_open(&c, port) != 0) {
        close(c.fd);
        return NULL;
    }
    static const char req[] = "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
    size_t cap = 1 << 16, have = 0;
    char *buf = malloc(cap);
    if (!buf || write(c.fd, req, sizeof req - 1) != (ssize_t)(sizeof req - 1)) {
        free(buf);
        close(c.fd);
        return NULL;
    }
    for (;;) {
        if (cap - have < 4096) {
            char *more = realloc(buf, cap * 2);
            if (!more)
                break;
            buf = more;
            cap *= 2;
        }
        ssize_t r = read(c.fd, buf + have, cap - have - 1);
        if (r <= 0)
            break;
        have += (size_t)r;
    }
    close(c.fd);
    buf[have] = '\0';
    if (have < 12 || strncmp(buf + 9, "200", 3) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* The value of an unlabelled counter in a /metrics text: its line
 * "<name> <value>"; -1 when absent. */
static long long metrics_counter(const char *text, const char *name)
{
    size_t len = strlen(name);
    for (const char *p = text; (p = strstr(p, name)) != NULL; p += len)
        if (p > text && p[-1] == '\n' && p[len] == ' ')
            return atoll(p + len + 1);
    return -1;
}

/* The Ed25519 signatures replayd made for scores so far: score log
 * checkpoints plus v2 receipts. -1 when /metrics cannot be read. */
static long long metrics_score_signatures(int port)
{
    char *text = metrics_text(port);
    if (!text)
        return -1;
    long long checkpoints = metrics_counter(text, "replayd_log_checkpoints_total");
    long long receipts = metrics_counter(text, "replayd_receipts_signed_total");
    free(text);
    return checkpoints < 0 || receipts < 0 ? -1 : checkpoints + receipts;
}

#endif
