/* http_gate: accept, wait for complete headers, check framing, hand over
 * (see the header). One thread, edge-triggered epoll. */
#define _GNU_SOURCE /* accept4 */
#include "http_gate.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define GATE_TICK_MS 100
#define MAX_TARGET 4096
#define MAX_HEADERS 100
#define SHED_GRACE_MS 500
#define QUEUED_MAX 4096     /* connections refused at shutdown, at most */
#define QUEUED_WAIT_MS 100  /* for each one's request, and then its close */
/* a refused connection is read and dropped this long, or this much, after
 * its answer, so a client still sending reads the answer, not a reset */
#define LINGER_MS 1000
#define LINGER_BYTES (1024 * 1024)

typedef struct waiting {
    int fd;
    struct sockaddr_storage addr;
    socklen_t addr_len;
    int64_t since_ms;
    size_t seen; /* bytes peeked so far */
    int64_t linger_until; /* answered and lingering until then; 0: not yet */
    size_t lingered;      /* bytes read and dropped while lingering */
} waiting;

struct http_gate {
    http_gate_config cfg;
    int listen_fd, epoll_fd, stop_fd; /* listen_fd is the caller's */
    struct MHD_Daemon *daemon;
    pthread_t thread;
    bool running;
    waiting **held; /* max_waiting slots, NULL when free */
    char *peek;     /* max_header_bytes: the thread's peek buffer */
};

static int64_t mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

http_gate *http_gate_new(int listen_fd, const http_gate_config *cfg, char *err, size_t err_len)
{
    http_gate *g = calloc(1, sizeof *g);
    if (!g) {
        snprintf(err, err_len, "out of memory");
        return NULL;
    }
    g->cfg = *cfg;
    g->listen_fd = listen_fd;
    g->epoll_fd = g->stop_fd = -1;
    g->held = calloc((size_t)cfg->max_waiting, sizeof *g->held);
    g->peek = malloc(cfg->max_header_bytes);
    int flags = fcntl(listen_fd, F_GETFL);
    if (!g->held || !g->peek || flags < 0 || fcntl(listen_fd, F_SETFL, flags | O_NONBLOCK) != 0) {
        snprintf(err, err_len, "cannot set up the connection gate");
        g->listen_fd = -1; /* the caller's */
        http_gate_stop(g);
        return NULL;
    }
    return g;
}

/* ---- answering and closing what the gate holds ---- */

static const char *reason_of(int status)
{
    switch (status) {
    case 400: return "Bad Request";
    case 408: return "Request Timeout";
    case 411: return "Length Required";
    case 413: return "Content Too Large";
    case 414: return "URI Too Long";
    case 431: return "Request Header Fields Too Large";
    case 503: return "Service Unavailable";
    case 505: return "HTTP Version Not Supported";
    default: return "Error";
    }
}

int http_raw_error(char *out, size_t cap, int status, const char *code, const char *message)
{
    char body[300];
    int nb = snprintf(body, sizeof body, "{\"error\":{\"code\":\"%s\",\"message\":\"%s\"}}\n", code, message);
    if (nb < 0 || (size_t)nb >= sizeof body)
        return -1;
    /* a shed or overloaded client may come back at once on a new connection */
    const char *retry = status == 503 || status == 429 ? "Retry-After: 1\r\n" : "";
    int n = snprintf(out, cap,
                     "HTTP/1.1 %d %s\r\nContent-Type: application/json\r\nCache-Control: no-store\r\n"
                     "%sConnection: close\r\nContent-Length: %d\r\n\r\n%s",
                     status, reason_of(status), retry, nb, body);
    return n > 0 && (size_t)n < cap ? n : -1;
}

static void release(http_gate *g, int slot)
{
    waiting *w = g->held[slot];
    if (w->fd >= 0) {
        epoll_ctl(g->epoll_fd, EPOLL_CTL_DEL, w->fd, NULL);
        close(w->fd);
    }
    free(w);
    g->held[slot] = NULL;
}

/* Reads and drops what the client sent, up to budget bytes (ending at EOF
 * or EAGAIN); the bytes read, and *gone when the client is gone (its end
 * of file, or an error). */
static size_t drain(int fd, size_t budget, bool *gone)
{
    char sink[4096];
    size_t got = 0;
    *gone = false;
    while (got < budget) {
        ssize_t n = recv(fd, sink, sizeof sink, MSG_DONTWAIT);
        if (n > 0) {
            got += (size_t)n;
            continue;
        }
        *gone = n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR);
        break;
    }
    return got;
}

/* Reads (and drops) what the client sent so far, up to 256 KiB; false
 * once the client is gone. */
static bool discard_input(int fd)
{
    bool gone;
    drain(fd, 64 * 4096, &gone);
    return !gone;
}

bool http_raw_answer(int fd, int status, const char *code, const char *message)
{
    char out[700];
    bool here = discard_input(fd);
    int n = http_raw_error(out, sizeof out, status, code, message);
    if (n > 0)
        (void)!send(fd, out, (size_t)n, MSG_DONTWAIT | MSG_NOSIGNAL);
    shutdown(fd, SHUT_WR);
    return here;
}

/* Answers, then lingers: the slot stays held while the client's bytes are
 * read and dropped (linger), so a client still sending a body it was
 * refused for (chunked: 411; too large: 413) reads the answer instead of a
 * reset, which a close with unread bytes would send. */
static void refuse(http_gate *g, int slot, int status, const char *code, const char *message)
{
    metrics_connection_ended(g->cfg.stats, status == 408 ? CONN_END_TIMED_OUT : CONN_END_FRAMING);
    waiting *w = g->held[slot];
    w->linger_until = mono_ms() + LINGER_MS;
    if (!http_raw_answer(w->fd, status, code, message))
        release(g, slot);
}

/* A lingering connection's bytes: dropped, until the client is gone or
 * LINGER_BYTES are read (the deadline is expire's). */
static void linger(http_gate *g, int slot)
{
    waiting *w = g->held[slot];
    bool gone;
    w->lingered += drain(w->fd, LINGER_BYTES - w->lingered, &gone);
    if (gone || w->lingered >= LINGER_BYTES)
        release(g, slot);
}

/* ---- framing ---- */

static verdict bad(int status, const char *code, const char *message)
{
    verdict v = { status, code, message };
    return v;
}

static bool is_token_char(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
           (c != '\0' && strchr("!#$%&'*+-.^_`|~", c) != NULL);
}

/* Checks one header field; counts what the request framing depends on. */
static verdict check_field(const char *line, size_t len, const http_gate_config *cfg, int *host,
                           int *content_length, int64_t *declared, bool *chunked)
{
    const char *colon = memchr(line, ':', len);
    if (!colon || colon == line)
        return bad(400, "bad_request", "a header line is not name: value");
    if (!http_is_token(line, (size_t)(colon - line)))
        return bad(400, "bad_request", "a header name holds a character it may not");
    size_t name_len = (size_t)(colon - line);
    const char *v = colon + 1, *end = line + len;
    while (v < end && (*v == ' ' || *v == '\t'))
        v++;
    while (end > v && (end[-1] == ' ' || end[-1] == '\t'))
        end--;
    if (name_len == 4 && strncasecmp(line, "Host", 4) == 0) {
        (*host)++;
    } else if (name_len == 14 && strncasecmp(line, "Content-Length", 14) == 0) {
        if (v == end || end - v > 18)
            return bad(v == end ? 400 : 413, v == end ? "bad_request" : "body_too_large",
                       v == end ? "Content-Length is empty" : "the body is larger than the server accepts");
        int64_t n = 0;
        for (const char *p = v; p < end; p++) {
            if (*p < '0' || *p > '9')
                return bad(400, "bad_request", "Content-Length is not a non-negative integer");
            n = n * 10 + (*p - '0');
        }
        if (*content_length && n != *declared)
            return bad(400, "bad_request", "Content-Length is given twice with different values");
        (*content_length)++;
        *declared = n;
        if ((uint64_t)n > cfg->max_body)
            return bad(413, "body_too_large", "the body is larger than the server accepts");
    } else if (name_len == 17 && strncasecmp(line, "Transfer-Encoding", 17) == 0) {
        if (end - v != 7 || strncasecmp(v, "chunked", 7) != 0)
            return bad(400, "bad_request", "the only Transfer-Encoding accepted is chunked");
        *chunked = true;
    }
    return bad(0, NULL, NULL);
}

verdict http_version_verdict(const char *version, size_t len, bool *http11)
{
    *http11 = len == 8 && memcmp(version, "HTTP/1.1", 8) == 0;
    if (*http11 || (len == 8 && memcmp(version, "HTTP/1.0", 8) == 0))
        return bad(0, NULL, NULL);
    return len >= 5 && memcmp(version, "HTTP/", 5) == 0
               ? bad(505, "http_version_not_supported", "only HTTP/1.0 and HTTP/1.1 are served")
               : bad(400, "bad_request", "the request line does not end in an HTTP version");
}

bool http_is_token(const char *name, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (!is_token_char(name[i]))
            return false;
    return len > 0;
}

/* The request line and headers in head[0..len) (ending with the blank
 * line); *body_len is the declared Content-Length (0 without one). */
static verdict check_head(const char *head, size_t len, const http_gate_config *cfg, int64_t *body_len)
{
    const char *eol = memmem(head, len, "\r\n", 2);
    if (!eol)
        return bad(400, "bad_request", "no request line");
    const char *sp1 = memchr(head, ' ', (size_t)(eol - head));
    const char *sp2 = sp1 ? memchr(sp1 + 1, ' ', (size_t)(eol - sp1 - 1)) : NULL;
    if (!sp1 || !sp2 || sp1 == head || sp2 == sp1 + 1)
        return bad(400, "bad_request", "the request line is not METHOD TARGET VERSION");
    if (!http_is_token(head, (size_t)(sp1 - head)))
        return bad(400, "bad_request", "the method is not a token");
    if ((size_t)(sp2 - sp1 - 1) > MAX_TARGET)
        return bad(414, "uri_too_long", "the request target is longer than the server accepts");
    bool http11;
    verdict version = http_version_verdict(sp2 + 1, (size_t)(eol - sp2 - 1), &http11);
    if (version.status)
        return version;
    int fields = 0, host = 0, content_length = 0;
    int64_t declared = 0;
    bool chunked = false;
    const char *p = eol + 2, *end = head + len - 2; /* up to the blank line */
    while (p < end) {
        const char *e = memmem(p, (size_t)(end - p), "\r\n", 2);
        if (!e)
            e = end;
        if (++fields > MAX_HEADERS)
            return http_framing_verdict(http11, fields, host, content_length, chunked);
        if (*p == ' ' || *p == '\t')
            return bad(400, "bad_request", "folded header lines are not accepted");
        verdict v = check_field(p, (size_t)(e - p), cfg, &host, &content_length, &declared, &chunked);
        if (v.status)
            return v;
        p = e + 2;
    }
    *body_len = declared;
    return http_framing_verdict(http11, fields, host, content_length, chunked);
}

verdict http_framing_verdict(bool http11, int fields, int hosts, int content_lengths, bool transfer_encoding)
{
    if (fields > MAX_HEADERS)
        return bad(431, "headers_too_large", "the request has more header fields than the server accepts");
    if (http11 && hosts != 1)
        return bad(400, "bad_request", hosts ? "more than one Host header" : "an HTTP/1.1 request needs a Host header");
    if (transfer_encoding && content_lengths)
        return bad(400, "bad_request", "Content-Length and Transfer-Encoding together are not accepted");
    /* libmicrohttpd answers a malformed chunked body with its own HTML
     * page, and the gate never sees bodies: a body needs its length */
    if (transfer_encoding)
        return bad(411, "length_required", "a body needs a Content-Length (chunked bodies are not accepted)");
    return bad(0, NULL, NULL);
}

/* ---- the thread ---- */

/* What in head[0..len) one parser could read differently from another,
 * NULL when nothing: libmicrohttpd ends a line at a bare LF too (a line
 * end only it sees could hide a header from the checks, so a bare LF is
 * refused at once); a bare CR it keeps inside the line, where others end
 * the line or read a space (RFC 9112 2.2); a NUL ends its string. */
static const char *ambiguous_bytes(const char *head, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        if (head[i] == '\n' && (i == 0 || head[i - 1] != '\r'))
            return "header lines must end in CRLF";
        if (head[i] == '\r' && i + 1 < len && head[i + 1] != '\n')
            return "a bare CR is not accepted in the request head";
        if (head[i] == '\0')
            return "a NUL byte is not accepted in the request head";
    }
    return NULL;
}

/* Every request in peek[0..n), in turn (each complete head's
 * Content-Length says where the next begins): a pipelined request meets
 * the rules a first one does, since libmicrohttpd reads it unchecked once
 * it has the connection. Of an incomplete last head, ambiguous_bytes.
 * *first_len: the first request's head length, 0 while incomplete. */
static verdict check_requests(const http_gate *g, size_t n, size_t *first_len)
{
    *first_len = 0;
    for (size_t pos = 0; pos < n;) {
        const char *head = g->peek + pos;
        const char *end = memmem(head, n - pos, "\r\n\r\n", 4);
        size_t head_len = end ? (size_t)(end - head) + 4 : n - pos;
        const char *ambiguous = ambiguous_bytes(head, head_len);
        if (ambiguous)
            return bad(400, "bad_request", ambiguous);
        if (!end)
            break;
        int64_t body_len = 0;
        verdict v = check_head(head, head_len, &g->cfg, &body_len);
        if (v.status)
            return v;
        if (pos == 0)
            *first_len = head_len;
        pos += head_len + (size_t)body_len; /* at most max_body */
    }
    return bad(0, NULL, NULL);
}

/* Peeks at a waiting connection: hands it over, refuses it, or leaves it
 * waiting for more bytes. */
static void look_at(http_gate *g, int slot)
{
    waiting *w = g->held[slot];
    if (w->linger_until) {
        linger(g, slot);
        return;
    }
    ssize_t n = recv(w->fd, g->peek, g->cfg.max_header_bytes, MSG_PEEK | MSG_DONTWAIT);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
        release(g, slot); /* the client left */
        return;
    }
    if (n < 0)
        return;
    w->seen = (size_t)n;
    size_t first_len;
    verdict v = check_requests(g, (size_t)n, &first_len);
    if (v.status) {
        refuse(g, slot, v.status, v.code, v.message);
        return;
    }
    if (!first_len) {
        if ((size_t)n > MAX_TARGET + 64 && !memmem(g->peek, (size_t)n, "\r\n", 2))
            refuse(g, slot, 414, "uri_too_long", "the request target is longer than the server accepts");
        else if ((size_t)n == g->cfg.max_header_bytes)
            refuse(g, slot, 431, "headers_too_large", "the request headers are larger than the server accepts");
        return;
    }
    epoll_ctl(g->epoll_fd, EPOLL_CTL_DEL, w->fd, NULL);
    /* libmicrohttpd owns the descriptor from here, and closes it itself
     * when it cannot take it */
    MHD_add_connection(g->daemon, w->fd, (struct sockaddr *)&w->addr, w->addr_len);
    w->fd = -1;
    release(g, slot);
}

/* A lingering connection (already answered), else the oldest-slowest
 * waiting one: among those waiting longer than SHED_GRACE_MS (a client
 * that just connected has had no time to send), the fewest bytes a
 * second, then the oldest; else simply the oldest. */
static int pick_victim(http_gate *g, int64_t now)
{
    int worst = -1, oldest = -1;
    int64_t worst_rate = 0;
    for (int i = 0; i < g->cfg.max_waiting; i++) {
        waiting *w = g->held[i];
        if (!w)
            continue;
        if (w->linger_until)
            return i;
        if (oldest < 0 || w->since_ms < g->held[oldest]->since_ms)
            oldest = i;
        int64_t age = now - w->since_ms;
        if (age <= SHED_GRACE_MS)
            continue;
        int64_t rate = (int64_t)w->seen * 1000 / age;
        if (worst < 0 || rate < worst_rate || (rate == worst_rate && w->since_ms < g->held[worst]->since_ms)) {
            worst = i;
            worst_rate = rate;
        }
    }
    return worst >= 0 ? worst : oldest;
}

static void accept_all(http_gate *g)
{
    for (;;) {
        struct sockaddr_storage addr;
        socklen_t addr_len = sizeof addr;
        int fd = accept4(g->listen_fd, (struct sockaddr *)&addr, &addr_len, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0)
            return; /* EAGAIN, or out of descriptors: the backlog waits */
        int64_t now = mono_ms();
        int slot = -1;
        for (int i = 0; i < g->cfg.max_waiting && slot < 0; i++)
            if (!g->held[i])
                slot = i;
        if (slot < 0) {
            slot = pick_victim(g, now);
            if (!g->held[slot]->linger_until) { /* the slot is needed now: no lingering */
                (void)http_raw_answer(g->held[slot]->fd, 503, "connection_shed", "the server needed this connection for another client");
                metrics_connection_ended(g->cfg.stats, CONN_END_SHED);
            }
            release(g, slot);
        }
        waiting *w = calloc(1, sizeof *w);
        if (!w) {
            close(fd);
            continue;
        }
        w->fd = fd;
        w->addr = addr;
        w->addr_len = addr_len;
        w->since_ms = now;
        g->held[slot] = w;
        struct epoll_event ev = { .events = EPOLLIN | EPOLLRDHUP | EPOLLET, .data.u64 = (uint64_t)slot + 2 };
        if (epoll_ctl(g->epoll_fd, EPOLL_CTL_ADD, fd, &ev) != 0) {
            release(g, slot);
            continue;
        }
        look_at(g, slot); /* the request may be there already */
    }
}

static void expire(http_gate *g)
{
    int64_t now = mono_ms();
    for (int i = 0; i < g->cfg.max_waiting; i++) {
        waiting *w = g->held[i];
        if (w && w->linger_until && now >= w->linger_until)
            release(g, i);
        else if (w && !w->linger_until && now - w->since_ms > g->cfg.header_timeout_ms)
            refuse(g, i, 408, "request_timeout", "the request headers did not arrive in time");
    }
}

/* data.u64: 0 the listener, 1 the stop event, slot + 2 a waiting connection */
static void *gate_thread(void *arg)
{
    http_gate *g = arg;
    struct epoll_event evs[64];
    int64_t next_tick = mono_ms() + GATE_TICK_MS;
    for (;;) {
        int n = epoll_wait(g->epoll_fd, evs, 64, GATE_TICK_MS);
        for (int i = 0; i < n; i++) {
            uint64_t id = evs[i].data.u64;
            if (id == 1)
                return NULL;
            if (id == 0)
                accept_all(g);
            else if (g->held[id - 2])
                look_at(g, (int)(id - 2));
        }
        if (mono_ms() >= next_tick) {
            expire(g);
            next_tick = mono_ms() + GATE_TICK_MS;
        }
    }
}

bool http_gate_run(http_gate *g, struct MHD_Daemon *d)
{
    g->daemon = d;
    g->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
    g->stop_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (g->epoll_fd < 0 || g->stop_fd < 0)
        return false;
    struct epoll_event lev = { .events = EPOLLIN, .data.u64 = 0 };
    struct epoll_event sev = { .events = EPOLLIN, .data.u64 = 1 };
    if (epoll_ctl(g->epoll_fd, EPOLL_CTL_ADD, g->listen_fd, &lev) != 0 ||
        epoll_ctl(g->epoll_fd, EPOLL_CTL_ADD, g->stop_fd, &sev) != 0)
        return false;
    g->running = pthread_create(&g->thread, NULL, gate_thread, g) == 0;
    return g->running;
}

void http_gate_stop(http_gate *g)
{
    if (!g)
        return;
    if (g->running) {
        uint64_t one = 1;
        (void)!write(g->stop_fd, &one, sizeof one);
        pthread_join(g->thread, NULL);
    }
    for (int i = 0; g->held && i < g->cfg.max_waiting; i++)
        if (g->held[i])
            release(g, i);
    if (g->epoll_fd >= 0)
        close(g->epoll_fd);
    if (g->stop_fd >= 0)
        close(g->stop_fd);
    free(g->held);
    free(g->peek);
    free(g);
}

/* Waits up to ms for fd to become readable (a request, or the client's
 * end of file). */
static void await_input(int fd, int64_t ms)
{
    struct pollfd p = { .fd = fd, .events = POLLIN | POLLRDHUP };
    (void)!poll(&p, 1, ms > 0 ? (int)ms : 0);
}

void http_gate_refuse_queued(int listen_fd, int limit_ms)
{
    int64_t until = mono_ms() + limit_ms;
    for (int i = 0; i < QUEUED_MAX && mono_ms() < until; i++) {
        int fd = accept4(listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0)
            return; /* the queue is empty */
        int64_t left = until - mono_ms();
        int64_t wait = left < QUEUED_WAIT_MS ? left : QUEUED_WAIT_MS;
        await_input(fd, wait); /* its request, sent just after the connect */
        (void)http_raw_answer(fd, 503, "draining", "the server is shutting down; retry");
        /* the client closes after reading a Connection: close answer */
        for (int64_t end = mono_ms() + wait; discard_input(fd) && mono_ms() < end;)
            await_input(fd, end - mono_ms());
        close(fd);
    }
}
