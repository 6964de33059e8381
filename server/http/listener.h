/*
 * listener: the listening socket, opened by replayd rather than by
 * libmicrohttpd, so that its address is known (and logged) before the first
 * request can be served, IPv6 and dual stack are one setting, and a reload
 * can hand the same socket to a new daemon without refusing a connection.
 *
 * Ownership: the caller owns the returned descriptor and closes it after
 * the last daemon using it stopped.
 */
#ifndef REPLAYD_SERVER_LISTENER_H
#define REPLAYD_SERVER_LISTENER_H

#include <stddef.h>

#include "netaddr.h"

/* Binds addr:port ("127.0.0.1", "::1", "::" for every IPv6 and IPv4
 * address, "0.0.0.0"; port 0 picks one) and listens. Returns the socket,
 * or -1 with a message; *bound_port is the port in use. */
int listener_open(const char *addr, int port, int *bound_port, char *err, size_t err_len);

#endif
