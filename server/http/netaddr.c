#include "netaddr.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const uint8_t v4_prefix[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

bool netaddr_is_v4(const netaddr *a)
{
    return memcmp(a->b, v4_prefix, sizeof v4_prefix) == 0;
}

bool netaddr_parse(const char *text, netaddr *out)
{
    char buf[NETADDR_TEXT + 2];
    size_t n = text ? strlen(text) : 0;
    if (n == 0 || n >= sizeof buf)
        return false;
    if (text[0] == '[') {
        if (n < 3 || text[n - 1] != ']')
            return false;
        memcpy(buf, text + 1, n - 2);
        buf[n - 2] = '\0';
    } else {
        memcpy(buf, text, n + 1);
    }
    struct in_addr v4;
    if (inet_pton(AF_INET, buf, &v4) == 1) {
        memcpy(out->b, v4_prefix, sizeof v4_prefix);
        memcpy(out->b + 12, &v4, 4);
        return true;
    }
    return inet_pton(AF_INET6, buf, out->b) == 1;
}

void netaddr_format(const netaddr *a, char out[NETADDR_TEXT])
{
    if (netaddr_is_v4(a))
        inet_ntop(AF_INET, a->b + 12, out, NETADDR_TEXT);
    else
        inet_ntop(AF_INET6, a->b, out, NETADDR_TEXT);
}

static bool net_parse(const char *item, netaddr_net *out)
{
    char host[NETADDR_TEXT + 2];
    const char *slash = strchr(item, '/');
    size_t n = slash ? (size_t)(slash - item) : strlen(item);
    if (n == 0 || n >= sizeof host)
        return false;
    memcpy(host, item, n);
    host[n] = '\0';
    if (!netaddr_parse(host, &out->addr))
        return false;
    bool v4 = netaddr_is_v4(&out->addr);
    int max = v4 ? 32 : 128, bits = max;
    if (slash) {
        char *end;
        long v = strtol(slash + 1, &end, 10);
        if (*end || end == slash + 1 || v < 0 || v > max)
            return false;
        bits = (int)v;
    }
    out->prefix = v4 ? 96 + bits : bits;
    return true;
}

bool netaddr_nets_parse(const char *text, netaddr_nets *out, char *err, size_t err_len)
{
    char buf[1024];
    memset(out, 0, sizeof *out);
    if (!text)
        return true;
    if (strlen(text) >= sizeof buf) {
        snprintf(err, err_len, "the list is too long");
        return false;
    }
    snprintf(buf, sizeof buf, "%s", text);
    char *save = NULL;
    for (char *item = strtok_r(buf, ", \t", &save); item; item = strtok_r(NULL, ", \t", &save)) {
        if (out->n == NETADDR_MAX_NETS) {
            snprintf(err, err_len, "at most %d networks", NETADDR_MAX_NETS);
            return false;
        }
        if (!net_parse(item, &out->net[out->n])) {
            snprintf(err, err_len, "\"%s\" is not an address or CIDR network", item);
            return false;
        }
        out->n++;
    }
    return true;
}

static bool net_contains(const netaddr_net *net, const netaddr *a)
{
    int full = net->prefix / 8, rest = net->prefix % 8;
    if (memcmp(net->addr.b, a->b, (size_t)full) != 0)
        return false;
    if (rest == 0)
        return true;
    uint8_t mask = (uint8_t)(0xff << (8 - rest));
    return (net->addr.b[full] & mask) == (a->b[full] & mask);
}

bool netaddr_nets_contain(const netaddr_nets *nets, const netaddr *a)
{
    for (int i = 0; i < nets->n; i++)
        if (net_contains(&nets->net[i], a))
            return true;
    return false;
}

/* The hops of a header, nearest last: X-Forwarded-For is "a, b, c"; a
 * Forwarded element is "for=a;proto=https, for=\"[2001:db8::1]:4711\"". */
#define MAX_HOPS 32

static int split_hops(const char *header, bool forwarded, char hops[][NETADDR_TEXT + 8])
{
    int n = 0;
    const char *p = header;
    while (*p && n < MAX_HOPS) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        char item[256];
        if (len >= sizeof item)
            len = sizeof item - 1;
        memcpy(item, p, len);
        item[len] = '\0';
        char *v = item;
        if (forwarded) { /* the for= pair of this element, if any */
            v = NULL;
            char *save = NULL;
            for (char *pair = strtok_r(item, ";", &save); pair; pair = strtok_r(NULL, ";", &save)) {
                while (*pair == ' ' || *pair == '\t')
                    pair++;
                if (strncasecmp(pair, "for=", 4) == 0)
                    v = pair + 4;
            }
        }
        hops[n][0] = '\0';
        if (v) {
            while (*v == ' ' || *v == '\t' || *v == '"')
                v++;
            size_t m = strcspn(v, "\" \t");
            if (m > NETADDR_TEXT + 7)
                m = NETADDR_TEXT + 7;
            memcpy(hops[n], v, m);
            hops[n][m] = '\0';
            /* "[v6]:port" keeps the brackets; "v4:port" loses its port */
            char *close = strchr(hops[n], ']');
            if (hops[n][0] == '[' && close)
                close[1] = '\0';
            else if (strchr(hops[n], ':') == strrchr(hops[n], ':') && strchr(hops[n], ':'))
                *strchr(hops[n], ':') = '\0';
        }
        n++;
        if (!end)
            break;
        p = end + 1;
    }
    return n;
}

netaddr netaddr_client(const netaddr *peer, const netaddr_nets *trusted, const char *forwarded,
                       const char *x_forwarded_for)
{
    netaddr client = *peer;
    if (!netaddr_nets_contain(trusted, peer))
        return client;
    bool use_forwarded = forwarded && *forwarded;
    const char *header = use_forwarded ? forwarded : x_forwarded_for;
    if (!header || !*header)
        return client;
    char hops[MAX_HOPS][NETADDR_TEXT + 8];
    int n = split_hops(header, use_forwarded, hops);
    for (int i = n - 1; i >= 0; i--) {
        netaddr hop;
        if (!netaddr_parse(hops[i], &hop))
            break; /* unknown, obfuscated or garbage: trust nothing further out */
        client = hop;
        if (!netaddr_nets_contain(trusted, &hop))
            break;
    }
    return client;
}
