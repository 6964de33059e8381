/*
 * http_client: the minimal keep-alive HTTP/1.1 client of the HTTP benches
 * (bench_http.c, bench_pg.c) and their monotonic clock. Header-only
 * (static functions): each bench is one translation unit. A conn is one
 * socket and its read buffer; an answer's body is malloc'd for the caller.
 */
#ifndef REPLAYD_TESTS_BENCH_HTTP_CLIENT_H
#define REPLAYD_TESTS_BENCH_HTTP_CLIENT_H

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static int64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* ---- a minimal keep-alive HTTP/1.1 client ---- */

typedef struct conn {
    int fd;
    char buf[1 << 16];
    size_t have;
} conn;

static int conn_open(conn *c, int port)
{
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
    inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
    c->fd = socket(AF_INET, SOCK_STREAM, 0);
    c->have = 0;
    int one = 1;
    setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return connect(c->fd, (struct sockaddr *)&a, sizeof a);
}

/* Sends one request and reads the answer; returns the status, body in *out
 * (malloc'd) when out is not NULL. -1 on a broken connection. */
static int conn_request(conn *c, const char *method, const char *path, const char *bearer,
                        const char *body, char **out)
{
    char head[1024];
    size_t blen = body ? strlen(body) : 0;
    int n = snprintf(head, sizeof head,
                     "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     "Content-Length: %zu\r\n%s%s%s\r\n",
                     method, path, blen, bearer ? "Authorization: Bearer " : "", bearer ? bearer : "",
                     bearer ? "\r\n" : "");
    if (write(c->fd, head, (size_t)n) != n || (blen && write(c->fd, body, blen) != (ssize_t)blen))
        return -1;
    for (;;) {
        char *end = memmem(c->buf, c->have, "\r\n\r\n", 4);
        if (end) {
            size_t header_len = (size_t)(end - c->buf) + 4;
            int status = atoi(c->buf + 9);
            char *cl = memmem(c->buf, header_len, "Content-Length: ", 16);
            size_t body_len = cl ? (size_t)atol(cl + 16) : 0;
            if (c->have >= header_len + body_len) {
                if (out) {
                    *out = malloc(body_len + 1);
                    memcpy(*out, c->buf + header_len, body_len);
                    (*out)[body_len] = '\0';
                }
                memmove(c->buf, c->buf + header_len + body_len, c->have - header_len - body_len);
                c->have -= header_len + body_len;
                return status;
            }
        }
        ssize_t r = read(c->fd, c->buf + c->have, sizeof c->buf - c->have);
        if (r <= 0)
            return -1;
        c->have += (size_t)r;
    }
}

#endif
