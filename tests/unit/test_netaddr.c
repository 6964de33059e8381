/* Unit tests for netaddr (server/http/netaddr.c): the client's address behind
 * trusted proxies, from one chain of every Forwarded and X-Forwarded-For
 * header, walked from the nearest hop. Each case is a spoof that worked
 * against the one-header, leftmost-32 reading (issue 27) or a chain an
 * honest proxy writes. */
#include "../check.h"

#include <arpa/inet.h>
#include <sys/socket.h>

#include "../../server/http/netaddr.h"

typedef struct hdr {
    const char *value;
    bool forwarded;
} hdr;

/* The client's text for peer and headers (in arrival order), trusted
 * networks "127.0.0.1, 10.0.0.0/8, ::1". */
static const char *client_of(const char *peer_text, const hdr *h, int n)
{
    static char out[NETADDR_TEXT];
    static netaddr_chain chain;
    netaddr_nets trusted;
    char err[100];
    netaddr peer;
    if (!netaddr_nets_parse("127.0.0.1, 10.0.0.0/8, ::1", &trusted, err, sizeof err) ||
        !netaddr_parse(peer_text, &peer))
        return "setup failed";
    memset(&chain, 0, sizeof chain);
    for (int i = 0; i < n; i++)
        netaddr_chain_add(&chain, h[i].value, h[i].forwarded);
    netaddr c = netaddr_client(&peer, &trusted, &chain);
    netaddr_format(&c, out);
    return out;
}

static void an_untrusted_peer_is_the_client_whatever_it_says(void)
{
    hdr h[] = { { "198.51.100.1", false }, { "for=198.51.100.2", true } };
    CHECK(strcmp(client_of("203.0.113.9", h, 2), "203.0.113.9") == 0);
}

static void the_second_x_forwarded_for_header_is_read(void)
{
    /* the client's own header first, then the one HAProxy appends */
    hdr h[] = { { "198.51.100.1", false }, { "203.0.113.7", false } };
    CHECK(strcmp(client_of("127.0.0.1", h, 2), "203.0.113.7") == 0);
}

static void a_clients_forwarded_header_does_not_win(void)
{
    hdr h[] = { { "for=198.51.100.1", true }, { "203.0.113.7", false } };
    CHECK(strcmp(client_of("127.0.0.1", h, 2), "203.0.113.7") == 0);
    /* the same through a proxy that writes Forwarded */
    hdr g[] = { { "198.51.100.1", false }, { "for=203.0.113.7;proto=https", true } };
    CHECK(strcmp(client_of("127.0.0.1", g, 2), "203.0.113.7") == 0);
}

static void a_long_chain_keeps_its_trusted_end(void)
{
    /* 100 spoofed hops, then the address the proxy appended */
    static char spoof[100 * 16 + 32];
    size_t n = 0;
    for (int i = 0; i < 100; i++)
        n += (size_t)snprintf(spoof + n, sizeof spoof - n, "198.51.100.%d, ", i % 250);
    snprintf(spoof + n, sizeof spoof - n, "203.0.113.7");
    hdr h[] = { { spoof, false } };
    CHECK(strcmp(client_of("127.0.0.1", h, 1), "203.0.113.7") == 0);
    /* and 100 one-hop headers, then the proxy's */
    hdr many[101];
    for (int i = 0; i < 100; i++)
        many[i] = (hdr){ "198.51.100.1", false };
    many[100] = (hdr){ "203.0.113.8", false };
    CHECK(strcmp(client_of("127.0.0.1", many, 101), "203.0.113.8") == 0);
}

static void trusted_hops_are_skipped_from_the_right(void)
{
    hdr h[] = { { "198.51.100.1, 192.0.2.50, 10.1.2.3", false }, { "10.9.9.9", false } };
    CHECK(strcmp(client_of("127.0.0.1", h, 2), "192.0.2.50") == 0);
    hdr all[] = { { "10.0.0.1, 10.0.0.2", false } };
    CHECK(strcmp(client_of("127.0.0.1", all, 1), "10.0.0.1") == 0);
}

static void forwarded_forms(void)
{
    hdr v6[] = { { "for=\"[2001:db8::17]:4711\";proto=https, for=10.0.0.9", true } };
    CHECK(strcmp(client_of("127.0.0.1", v6, 1), "2001:db8::17") == 0);
    hdr port[] = { { "proto=http;For=\"192.0.2.60:8080\";by=10.0.0.1", true } };
    CHECK(strcmp(client_of("::1", port, 1), "192.0.2.60") == 0);
    /* a comma inside a quoted value does not split the element */
    hdr quoted[] = { { "for=\"198.51.100.1,x\", for=203.0.113.7", true } };
    CHECK(strcmp(client_of("127.0.0.1", quoted, 1), "203.0.113.7") == 0);
}

static void a_hop_that_is_no_address_stops_the_walk(void)
{
    hdr h[] = { { "203.0.113.7, unknown", false } };
    CHECK(strcmp(client_of("127.0.0.1", h, 1), "127.0.0.1") == 0);
    hdr obf[] = { { "for=_hidden", true } };
    CHECK(strcmp(client_of("10.0.0.3", obf, 1), "10.0.0.3") == 0);
    /* a client's "unknown" beyond the proxy's hop is never reached */
    hdr far[] = { { "unknown", false }, { "203.0.113.7", false } };
    CHECK(strcmp(client_of("127.0.0.1", far, 2), "203.0.113.7") == 0);
}

static void networks_of_addresses(void)
{
    char out[NETADDR_TEXT + 4];
    netaddr_prefix_of("192.0.2.77", out);
    CHECK(strcmp(out, "192.0.2.0/24") == 0);
    netaddr_prefix_of("2001:db8:1:2:3:4:5:6", out);
    CHECK(strcmp(out, "2001:db8:1:2::/64") == 0);
    netaddr_prefix_of("?", out);
    CHECK(strcmp(out, "?") == 0);
}

/* A socket address as the connection guard counts it: one IPv4 address,
 * one IPv6 /64, an IPv4-mapped IPv6 form as the IPv4 address. */
static void socket_addresses_and_their_buckets(void)
{
    struct sockaddr_in v4 = { .sin_family = AF_INET };
    struct sockaddr_in6 v6 = { .sin6_family = AF_INET6 }, v6b = v6, mapped = v6;
    CHECK(inet_pton(AF_INET, "192.0.2.7", &v4.sin_addr) == 1);
    CHECK(inet_pton(AF_INET6, "2001:db8:1:2:aaaa::1", &v6.sin6_addr) == 1);
    CHECK(inet_pton(AF_INET6, "2001:db8:1:2:ffff:ffff:ffff:ffff", &v6b.sin6_addr) == 1);
    CHECK(inet_pton(AF_INET6, "::ffff:192.0.2.7", &mapped.sin6_addr) == 1);
    netaddr a, b, c, d, e;
    CHECK(netaddr_from_sockaddr((const struct sockaddr *)&v4, &a));
    CHECK(netaddr_from_sockaddr((const struct sockaddr *)&v6, &b));
    CHECK(netaddr_from_sockaddr((const struct sockaddr *)&v6b, &c));
    CHECK(netaddr_from_sockaddr((const struct sockaddr *)&mapped, &d));
    char t[NETADDR_TEXT];
    netaddr_format(&a, t);
    CHECK(strcmp(t, "192.0.2.7") == 0);
    netaddr na = netaddr_bucket_net(&a), nb = netaddr_bucket_net(&b), nc = netaddr_bucket_net(&c),
            nd = netaddr_bucket_net(&d);
    CHECK(memcmp(na.b, a.b, 16) == 0);  /* an IPv4 address is its own bucket */
    CHECK(memcmp(nb.b, nc.b, 16) == 0);  /* one /64 */
    CHECK(memcmp(na.b, nd.b, 16) == 0);  /* mapped: the IPv4 address */
    CHECK(netaddr_parse("2001:db8:1:3::1", &e));
    netaddr ne = netaddr_bucket_net(&e);
    CHECK(memcmp(nb.b, ne.b, 16) != 0);  /* the next /64 */
    struct sockaddr other = { .sa_family = AF_UNIX };
    CHECK(!netaddr_from_sockaddr(&other, &e));
}

int main(void)
{
    RUN(socket_addresses_and_their_buckets);
    RUN(networks_of_addresses);
    RUN(an_untrusted_peer_is_the_client_whatever_it_says);
    RUN(the_second_x_forwarded_for_header_is_read);
    RUN(a_clients_forwarded_header_does_not_win);
    RUN(a_long_chain_keeps_its_trusted_end);
    RUN(trusted_hops_are_skipped_from_the_right);
    RUN(forwarded_forms);
    RUN(a_hop_that_is_no_address_stops_the_walk);
    CHECK_DONE();
}
