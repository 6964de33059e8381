/* Unit tests for http_raw_error (server/http/http_gate.c): the answers the
 * connection gate and guard write to a raw socket themselves; and the
 * framing rules the gate and http.c both apply. */
#include "../check.h"

#include <stdlib.h>

#include "../../server/http/http_gate.h"

static void a_timeout_is_json_and_closes(void)
{
    char out[700];
    int n = http_raw_error(out, sizeof out, 408, "request_timeout", "too slow");
    CHECK(n > 0);
    CHECK(strncmp(out, "HTTP/1.1 408 Request Timeout\r\n", 30) == 0);
    CHECK(strstr(out, "Content-Type: application/json\r\n") != NULL);
    CHECK(strstr(out, "Connection: close\r\n") != NULL);
    CHECK(strstr(out, "Retry-After") == NULL);
    const char *body = strstr(out, "\r\n\r\n");
    CHECK(body != NULL);
    if (body) {
        body += 4;
        CHECK(strcmp(body, "{\"error\":{\"code\":\"request_timeout\",\"message\":\"too slow\"}}\n") == 0);
        const char *len = strstr(out, "Content-Length: ");
        CHECK(len != NULL && atoi(len + 16) == (int)strlen(body));
    }
}

static void shedding_says_when_to_retry(void)
{
    char out[700];
    CHECK(http_raw_error(out, sizeof out, 503, "connection_shed", "later") > 0);
    CHECK(strncmp(out, "HTTP/1.1 503 Service Unavailable\r\n", 34) == 0);
    CHECK(strstr(out, "\r\nRetry-After: 1\r\n") != NULL);
}

static void too_small_a_buffer_is_refused(void)
{
    char out[40];
    CHECK_EQ(http_raw_error(out, sizeof out, 503, "connection_shed", "later"), -1);
}

/* The header rules the gate and http.c share (issue 27). */
static void framing_rules(void)
{
    CHECK_EQ(http_framing_verdict(true, 3, 1, 1, false).status, 0);
    CHECK_EQ(http_framing_verdict(false, 2, 0, 0, false).status, 0); /* HTTP/1.0 without Host */
    CHECK_EQ(http_framing_verdict(true, 101, 1, 0, false).status, 431);
    CHECK_EQ(http_framing_verdict(true, 100, 1, 0, false).status, 0);
    CHECK_EQ(http_framing_verdict(true, 2, 0, 0, false).status, 400);
    CHECK_EQ(http_framing_verdict(true, 3, 2, 0, false).status, 400);
    CHECK_EQ(http_framing_verdict(true, 3, 1, 1, true).status, 400);
    verdict v = http_framing_verdict(true, 3, 1, 0, true);
    CHECK_EQ(v.status, 411);
    CHECK(v.code && strcmp(v.code, "length_required") == 0);
    char out[700];
    int n = http_raw_error(out, sizeof out, 411, v.code, "x");
    CHECK(n > 0 && strncmp(out, "HTTP/1.1 411 Length Required\r\n", 30) == 0);
}

/* The version and field-name rules, on every request (issue 27). */
static void version_and_name_rules(void)
{
    bool http11 = false;
    CHECK_EQ(http_version_verdict("HTTP/1.1", 8, &http11).status, 0);
    CHECK(http11);
    CHECK_EQ(http_version_verdict("HTTP/1.0", 8, &http11).status, 0);
    CHECK(!http11);
    CHECK_EQ(http_version_verdict("HTTP/1.5", 8, &http11).status, 505); /* libmicrohttpd serves it */
    CHECK_EQ(http_version_verdict("HTTP/9.9", 8, &http11).status, 505);
    CHECK_EQ(http_version_verdict("HTTP/1.1 ", 9, &http11).status, 505);
    CHECK_EQ(http_version_verdict("HTTP/1.", 7, &http11).status, 505);
    CHECK_EQ(http_version_verdict("http/1.1", 8, &http11).status, 400);
    CHECK_EQ(http_version_verdict("", 0, &http11).status, 400);
    CHECK(http_is_token("X-A", 3));
    CHECK(http_is_token("Content-Length", 14));
    CHECK(!http_is_token("X-A ", 4)); /* "X-A : 1" as libmicrohttpd keeps it */
    CHECK(!http_is_token("X-A\t", 4));
    CHECK(!http_is_token("X A", 3));
    CHECK(!http_is_token("X:A", 3));
    CHECK(!http_is_token("", 0));
}

int main(void)
{
    RUN(framing_rules);
    RUN(version_and_name_rules);
    RUN(a_timeout_is_json_and_closes);
    RUN(shedding_says_when_to_retry);
    RUN(too_small_a_buffer_is_refused);
    CHECK_DONE();
}
