/*
 * http_gate: the main listener's front door (plain HTTP only). It owns the
 * listening socket, accepts, and holds each new connection until its first
 * request's headers are complete in the socket buffer (read with MSG_PEEK,
 * so nothing is consumed), then checks the framing of every request in
 * that buffer (the first, and each pipelined one after it, found by the
 * Content-Length of the one before) and hands the descriptor to
 * libmicrohttpd (MHD_add_connection).
 *
 * Why: libmicrohttpd 0.9.75 answers malformed framing with HTML pages, and
 * for a bad Content-Length or a missing Host it sends the status line and
 * headers twice (its error path runs the reply state twice); a bare LF line
 * end, a folded header line and "Name : value" it serves. The gate answers
 * those itself, as JSON, well-formed, and closes:
 * 400 bad_request (request line, a header line, a bare LF line end, at
 * once: libmicrohttpd would end a line there, a bare CR or a NUL in a
 * head, a folded line, a name that is not a token, Content-Length,
 * Transfer-Encoding, Host), 411
 * length_required (a chunked body), 408 request_timeout (headers not
 * complete within header_timeout_ms), 413 body_too_large (Content-Length
 * over max_body), 414 uri_too_long, 431 headers_too_large, 505
 * http_version_not_supported, 503 connection_shed (the oldest-slowest
 * waiting connection, when max_connections are waiting and another
 * arrives). A pipelined request that breaks a rule refuses the whole
 * connection with its error, the good ones before it unserved: nothing of
 * it reaches libmicrohttpd.
 *
 * Closing: after its answer the gate shuts its write side and reads and
 * drops what the client still sends, for up to 1 s and 1 MiB, before it
 * closes (a lingering close), so a client still sending a chunked or
 * oversized body reads its 411 or 413 rather than a reset. A shed
 * connection is closed at once (its slot is needed).
 *
 * What stays libmicrohttpd's: a request that comes after the gate looked
 * (on a kept-alive connection after an answer, or pipelined past what was
 * in the socket buffer then) is read by libmicrohttpd directly. http.c
 * applies http_version_verdict, http_is_token to the field names, the
 * bare CR rule to their values (libmicrohttpd keeps one there) and
 * http_framing_verdict to what libmicrohttpd parsed of it (JSON, then the
 * connection closes); what libmicrohttpd answers itself before that (HTTP/2
 * and up, a malformed Content-Length value, a missing Host, a line without
 * a colon: HTML) and what its parse hides (a bare LF line end, a folded
 * line: served) needs keepalive = false to come through the gate. Under
 * TLS the gate is not used (the bytes are encrypted); see
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

#include "metrics.h"

typedef struct http_gate http_gate;

typedef struct http_gate_config {
    int max_waiting;         /* connections held before their headers: shed past this */
    int header_timeout_ms;
    size_t max_header_bytes; /* request line and headers */
    size_t max_body;
    metrics *stats;          /* counts what the gate ends; may be NULL; the caller's */
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
/* Answers a connection nothing has read from yet with that error: reads
 * and drops what the client sent so far (up to 256 KiB, so the close that
 * follows does not reset the connection under the answer), sends it and
 * shuts the writing side. False when the client is gone. */
bool http_raw_answer(int fd, int status, const char *code, const char *message);

/* The rules on a request's header fields that both the gate (on the raw
 * bytes of the requests in a new connection's socket buffer) and http.c (on what
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
/* The request line's version[0..len): HTTP/1.0 and HTTP/1.1 pass (*http11
 * says which), another HTTP/x.y is 505, anything else 400. */
verdict http_version_verdict(const char *version, size_t len, bool *http11);
/* Whether s[0..len) is a token (RFC 9110 5.6.2: a method, a field name):
 * a name with a space or tab before its colon is not. */
bool http_is_token(const char *s, size_t len);

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
