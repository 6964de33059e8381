/*
 * netaddr: IP addresses as the edge sees them: parsing a listen address
 * (IPv4, IPv6, "::" for dual stack), lists of trusted proxy networks in
 * CIDR form, and the client's address behind trusted proxies from one
 * chain of every Forwarded (RFC 7239) and X-Forwarded-For header. Pure; no
 * allocation (a chain is a fixed struct the caller owns).
 */
#ifndef REPLAYD_SERVER_NETADDR_H
#define REPLAYD_SERVER_NETADDR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NETADDR_TEXT 46  /* INET6_ADDRSTRLEN */
#define NETADDR_MAX_NETS 32

/* An address as 16 bytes: IPv4 as ::ffff:a.b.c.d, so both compare alike. */
typedef struct netaddr {
    uint8_t b[16];
} netaddr;

typedef struct netaddr_net {
    netaddr addr;
    int prefix; /* bits of addr that must match, 0..128 */
} netaddr_net;

typedef struct netaddr_nets {
    netaddr_net net[NETADDR_MAX_NETS];
    int n;
} netaddr_nets;

/* "192.0.2.1", "2001:db8::1", "[2001:db8::1]" (brackets allowed). */
bool netaddr_parse(const char *text, netaddr *out);
/* Text of an address: IPv4-mapped ones as dotted quads. */
void netaddr_format(const netaddr *a, char out[NETADDR_TEXT]);
bool netaddr_is_v4(const netaddr *a);
/* The network an address text belongs to, as text: an IPv4 address's /24
 * ("192.0.2.0/24"), an IPv6 one's /64 ("2001:db8:1:2::/64"); text that
 * is not an address is copied as it is. */
void netaddr_prefix_of(const char *text, char out[NETADDR_TEXT + 4]);
/* The key of an address's per-address budgets (requests, the admin
 * lockout, sign-in nonces; registrations have their own per-network
 * budget, netaddr_prefix_of): an IPv4 address itself ("192.0.2.7",
 * an IPv4-mapped IPv6 form alike), an IPv6 address's /64
 * ("2001:db8:1:2::/64": one subscriber's network holds 2^64 addresses). */
void netaddr_bucket(const netaddr *a, char out[NETADDR_TEXT + 4]);
/* The same network as an address: an IPv4 address itself, an IPv6 one with
 * its low 64 bits cleared (two addresses share a bucket when these are
 * equal). */
netaddr netaddr_bucket_net(const netaddr *a);
/* A socket address (struct sockaddr_in or sockaddr_in6, passed as the
 * generic type) as 16 bytes; false for another family. */
struct sockaddr;
bool netaddr_from_sockaddr(const struct sockaddr *sa, netaddr *out);

/* "10.0.0.0/8, 127.0.0.1, ::1/128": comma or space separated; a bare
 * address is a single host. false with a message on a bad entry. */
bool netaddr_nets_parse(const char *text, netaddr_nets *out, char *err, size_t err_len);
bool netaddr_nets_contain(const netaddr_nets *nets, const netaddr *a);

/* The hops every proxy in front named, as one chain: every instance of
 * the Forwarded (RFC 7239) and X-Forwarded-For headers added in the order
 * they arrived, each one's items left to right, so the nearest hop is
 * last. Only the nearest NETADDR_MAX_HOPS are kept (a longer chain drops
 * its far end, never the trusted near end). A hop that is not an address
 * ("unknown", "_hidden", a Forwarded element without for=) is kept as "". */
#define NETADDR_MAX_HOPS 64
#define NETADDR_HOP_TEXT (NETADDR_TEXT + 8)

typedef struct netaddr_chain {
    char hop[NETADDR_MAX_HOPS][NETADDR_HOP_TEXT]; /* a ring; hop[next - 1] is the nearest */
    int n, next;
    bool dropped; /* hops beyond the kept ones were dropped */
} netaddr_chain;

/* Adds one header instance's value (forwarded: a Forwarded header, else an
 * X-Forwarded-For one). Start from a zeroed chain. */
void netaddr_chain_add(netaddr_chain *c, const char *value, bool forwarded);

/* The client behind a chain of proxies. `peer` is the connecting address.
 * Only when peer is trusted is the chain read: walked from the nearest hop
 * outwards, skipping trusted hops; the first untrusted hop is the client
 * (all trusted: the farthest kept one). So a hop is believed only when the
 * hop that wrote it is trusted: whatever a client wrote itself, in either
 * header, lies beyond the address its first trusted proxy appended. A hop
 * that is not an address stops the walk at the last good address. */
netaddr netaddr_client(const netaddr *peer, const netaddr_nets *trusted, const netaddr_chain *chain);

#endif
