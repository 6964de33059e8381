/*
 * check: the smallest test harness that does the job. Each test binary
 * defines TESTs, lists them in main with RUN, and prints one line per test:
 * "PASS name" or "FAIL name: file:line: expression". tests/run.sh counts
 * those lines across every binary.
 */
#ifndef REPLAYD_TESTS_CHECK_H
#define REPLAYD_TESTS_CHECK_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int check_failed_;
static int check_total_failed_;

#define CHECK(cond)                                                                        \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            if (!check_failed_)                                                            \
                printf("FAIL %s: %s:%d: %s\n", check_name_, __FILE__, __LINE__, #cond);     \
            check_failed_ = 1;                                                             \
        }                                                                                  \
    } while (0)

#define CHECK_EQ(a, b)                                                                     \
    do {                                                                                   \
        long long ca_ = (long long)(a), cb_ = (long long)(b);                              \
        if (ca_ != cb_) {                                                                  \
            if (!check_failed_)                                                            \
                printf("FAIL %s: %s:%d: %s == %s (%lld != %lld)\n", check_name_, __FILE__,  \
                       __LINE__, #a, #b, ca_, cb_);                                        \
            check_failed_ = 1;                                                             \
        }                                                                                  \
    } while (0)

static const char *check_name_ = "";

#define RUN(fn)                                                                            \
    do {                                                                                   \
        check_name_ = #fn;                                                                 \
        check_failed_ = 0;                                                                 \
        fn();                                                                              \
        if (!check_failed_)                                                                \
            printf("PASS %s\n", #fn);                                                      \
        check_total_failed_ += check_failed_;                                              \
        fflush(stdout);                                                                    \
    } while (0)

#define CHECK_DONE() return check_total_failed_ ? 1 : 0

#endif
