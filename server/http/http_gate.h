/*
 * http_gate: the main listener's front door (plain HTTP only). It owns the
 * listening socket, accepts, and holds each new connection until its first
 * request's headers are complete in the socket buffer (read with MSG_PEEK,
 * so nothing is consumed), then checks that request's framing and hands
 * the descriptor to libmicrohttpd (MHD_add_connection).
 *
 * Why: libmicrohttpd 0.9.75 answers malformed framing with HTML pages, and
 * for a bad Content-Length or a missing Host it sends the status line and
 * headers twice (its error path runs the reply state twice). The gate
 * answers those itself, as JSON, well-formed, and closes:
 * 400 bad_request (request line, a header line, a bare LF line end, at
 * once: libmicrohttpd would end a line there, Content-Length, Transfer-
 * Encoding, Host), 411 length_required (a chunked body), 408
 * request_timeout (headers not complete within
 * header_timeout_ms), 413 body_too_large (Content-Length over max_body),
 * 414 uri_too_long, 431 headers_too_large, 505 http_version_not_supported,
 * 503 connection_shed (the oldest-slowest waiting connection, when
 * max_connections are waiting and another arrives).
 *
 * What stays libmicrohttpd's: later requests on a kept-alive connection
 * are read by libmicrohttpd directly (the gate sees a connection once);
 * http.c applies http_framing_verdict to each of them, and what
 * libmicrohttpd answers itself before that (a malformed Content-Length
 * value, a missing Host) needs keepalive = false to come through the gate.
 * Under TLS the gate is not used (the bytes are encrypted); see
 * docs/THREAT-MODEL.md.
 *
 * Ownership: the gate owns its thread and the descriptors it holds; a
 * handed-over descriptor is libmicrohttpd's; the listening socket is the
 * caller's (it outlives the gate).
 */
#ifndef REPLAYD_SERVER_HTTP_GATE_H
#define REPLAYD_SERVER_HTTP_GATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <microhttpd.h>

typedef struct http_gate http_gate;

typedef struct http_gate_config {
    int max_waiting;         /* connections held before their headers: shed past this */
    int header_timeout_ms;
    size_t max_header_bytes; /* request line and headers */
    size_t max_body;
} http_gate_config;

/* A gate for the listening socket listen_fd (listener.h), which stays the
 * caller's; NULL with a message on failure. */
http_gate *http_gate_new(int listen_fd, const http_gate_config *cfg, char *err, size_t err_len);
/* Starts accepting for d (started with MHD_USE_NO_LISTEN_SOCKET). */
bool http_gate_run(http_gate *g, struct MHD_Daemon *d);
/* Formats a whole JSON error response ({"error":{"code","message"}},
 * Connection: close; Retry-After: 1 on 429 and 503) for writing to a raw
 * socket; its length, or -1 when it does not fit. code and message must
 * not need JSON escaping. */
int http_raw_error(char *out, size_t cap, int status, const char *code, const char *message);

/* The rules on a request's header fields that both the gate (on the raw
 * bytes of a connection's first request) and http.c (on what
 * libmicrohttpd parsed of every request, kept-alive ones included) apply:
 * at most 100 fields (431), one Host on HTTP/1.1, no Transfer-Encoding
 * with a Content-Length (400), and no Transfer-Encoding at all (411
 * length_required: libmicrohttpd answers malformed chunked bodies with its
 * own HTML). status 0 when the request passes. */
typedef struct verdict {
    int status; /* 0: fine */
    const char *code, *message;
} verdict;
verdict http_framing_verdict(bool http11, int fields, int hosts, int content_lengths, bool transfer_encoding);

/* Stops accepting, closes every connection still waiting, frees the gate.
 * Safe on NULL and on a gate that never ran. */
void http_gate_stop(http_gate *g);

/* After the gate stopped, at shutdown: every connection still queued on
 * listen_fd (accepted by the kernel, never by the gate) is accepted, its
 * request read, and answered 503 draining (Connection: close,
 * Retry-After: 1) instead of being reset when the socket closes; a
 * balancer retries it on another node. Returns once accept finds the
 * queue empty, or after limit_ms (each connection waits at most 100 ms
 * for its request, and as long for its client to close), whichever comes
 * first; the caller then closes listen_fd at once. */
void http_gate_refuse_queued(int listen_fd, int limit_ms);

#endif
