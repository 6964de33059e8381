#include "listener.h"

#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define BACKLOG 1024

int listener_open(const char *addr, int port, int *bound_port, char *err, size_t err_len)
{
    netaddr a;
    if (!netaddr_parse(addr, &a)) {
        snprintf(err, err_len, "listen_addr \"%s\" is not an IPv4 or IPv6 address", addr);
        return -1;
    }
    struct sockaddr_storage ss;
    socklen_t len;
    memset(&ss, 0, sizeof ss);
    bool v4 = netaddr_is_v4(&a);
    if (v4) {
        struct sockaddr_in *s4 = (struct sockaddr_in *)(void *)&ss;
        s4->sin_family = AF_INET;
        s4->sin_port = htons((uint16_t)port);
        memcpy(&s4->sin_addr, a.b + 12, 4);
        len = sizeof *s4;
    } else {
        struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)(void *)&ss;
        s6->sin6_family = AF_INET6;
        s6->sin6_port = htons((uint16_t)port);
        memcpy(&s6->sin6_addr, a.b, 16);
        len = sizeof *s6;
    }
    int fd = socket(v4 ? AF_INET : AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        goto fail;
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (!v4) {
        /* "::" serves IPv4 too (dual stack); any other IPv6 address only itself */
        static const uint8_t any[16] = { 0 };
        int v6only = memcmp(a.b, any, 16) != 0;
        setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &v6only, sizeof v6only);
    }
    if (bind(fd, (struct sockaddr *)&ss, len) != 0 || listen(fd, BACKLOG) != 0)
        goto fail;
    if (getsockname(fd, (struct sockaddr *)&ss, &len) != 0)
        goto fail;
    *bound_port = v4 ? ntohs(((struct sockaddr_in *)(void *)&ss)->sin_port)
                     : ntohs(((struct sockaddr_in6 *)(void *)&ss)->sin6_port);
    return fd;
fail:
    snprintf(err, err_len, "cannot listen on %s port %d: %s", addr, port, strerror(errno));
    if (fd >= 0)
        close(fd);
    return -1;
}
