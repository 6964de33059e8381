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

void netaddr_prefix_of(const char *text, char out[NETADDR_TEXT + 4])
{
    netaddr a;
    if (!netaddr_parse(text, &a)) {
        snprintf(out, NETADDR_TEXT + 4, "%s", text);
        return;
    }
    bool v4 = netaddr_is_v4(&a);
    memset(a.b + (v4 ? 15 : 8), 0, v4 ? 1 : 8);
    char t[NETADDR_TEXT];
    netaddr_format(&a, t);
    snprintf(out, NETADDR_TEXT + 4, "%s/%d", t, v4 ? 24 : 64);
}

netaddr netaddr_bucket_net(const netaddr *a)
{
    netaddr net = *a;
    if (!netaddr_is_v4(&net))
        memset(net.b + 8, 0, 8);
    return net;
}

bool netaddr_from_sockaddr(const struct sockaddr *sa, netaddr *out)
{
    memset(out, 0, sizeof *out);
    if (sa->sa_family == AF_INET) {
        out->b[10] = out->b[11] = 0xff;
        memcpy(out->b + 12, &((const struct sockaddr_in *)(const void *)sa)->sin_addr, 4);
        return true;
    }
    if (sa->sa_family == AF_INET6) {
        memcpy(out->b, &((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr, 16);
        return true;
    }
    return false;
}

void netaddr_bucket(const netaddr *a, char out[NETADDR_TEXT + 4])
{
    netaddr net = netaddr_bucket_net(a);
    bool v4 = netaddr_is_v4(&net);
    char t[NETADDR_TEXT];
    netaddr_format(&net, t);
    snprintf(out, NETADDR_TEXT + 4, v4 ? "%s" : "%s/64", t);
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

/* ---- the chain of hops ---- */

/* The hop text of one list item: X-Forwarded-For's item is the address
 * itself; a Forwarded element's is its for= value ("" when it has none).
 * Quotes, brackets around IPv6 and a port are taken off. */
static void hop_text(const char *item, size_t len, bool forwarded, char out[NETADDR_HOP_TEXT])
{
    const char *v = item, *end = item + len;
    out[0] = '\0';
    if (forwarded) { /* the for= pair of this element, if any */
        v = NULL;
        const char *p = item;
        while (p < end) {
            while (p < end && (*p == ' ' || *p == '\t' || *p == ';'))
                p++;
            const char *pair = p;
            bool quoted = false;
            while (p < end && (quoted || *p != ';')) {
                if (*p == '"')
                    quoted = !quoted;
                else if (*p == '\\' && quoted && p + 1 < end)
                    p++;
                p++;
            }
            if (p - pair > 4 && strncasecmp(pair, "for=", 4) == 0) {
                v = pair + 4;
                end = p;
            }
            if (v)
                break;
        }
        if (!v)
            return;
    }
    while (v < end && (*v == ' ' || *v == '\t' || *v == '"'))
        v++;
    while (end > v && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '"'))
        end--;
    size_t m = (size_t)(end - v);
    if (m >= NETADDR_HOP_TEXT)
        return; /* longer than any address: not one */
    memcpy(out, v, m);
    out[m] = '\0';
    /* "[v6]:port" keeps the brackets; "v4:port" loses its port */
    char *close = strchr(out, ']');
    if (out[0] == '[' && close)
        close[1] = '\0';
    else if (strchr(out, ':') && strchr(out, ':') == strrchr(out, ':'))
        *strchr(out, ':') = '\0';
}

void netaddr_chain_add(netaddr_chain *c, const char *value, bool forwarded)
{
    const char *p = value ? value : "";
    for (;;) {
        /* an item ends at a comma outside a quoted string */
        const char *q = p;
        bool quoted = false;
        while (*q && (quoted || *q != ',')) {
            if (*q == '"')
                quoted = !quoted;
            else if (*q == '\\' && quoted && q[1])
                q++;
            q++;
        }
        size_t len = (size_t)(q - p);
        const char *s = p;
        while (len && (*s == ' ' || *s == '\t')) {
            s++;
            len--;
        }
        /* an empty item (", ,") is no hop: HAProxy and nginx never write one */
        if (len) {
            /* a ring of the nearest NETADDR_MAX_HOPS: the far end is what goes */
            hop_text(s, len, forwarded, c->hop[c->next]);
            c->next = (c->next + 1) % NETADDR_MAX_HOPS;
            if (c->n < NETADDR_MAX_HOPS)
                c->n++;
            else
                c->dropped = true;
        }
        if (!*q)
            break;
        p = q + 1;
    }
}

netaddr netaddr_client(const netaddr *peer, const netaddr_nets *trusted, const netaddr_chain *chain)
{
    netaddr client = *peer;
    if (!netaddr_nets_contain(trusted, peer))
        return client;
    for (int k = 0; k < chain->n; k++) {
        int i = (chain->next - 1 - k + 2 * NETADDR_MAX_HOPS) % NETADDR_MAX_HOPS;
        netaddr hop;
        if (!netaddr_parse(chain->hop[i], &hop))
            break; /* unknown, obfuscated or garbage: trust nothing further out */
        client = hop;
        if (!netaddr_nets_contain(trusted, &hop))
            break;
    }
    return client;
}
