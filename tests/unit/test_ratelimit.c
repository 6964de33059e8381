/* Unit tests for server/trust/ratelimit.c: buckets, refill, and that no other
 * key's traffic ever resets an active key's bucket. */
#include "../check.h"

#include "../../server/trust/ratelimit.h"

#define SEC 1000000LL

static void burst_then_refill(void)
{
    ratelimit rl;
    CHECK(ratelimit_init(&rl));
    int allowed = 0;
    for (int i = 0; i < 100; i++)
        allowed += ratelimit_allow(&rl, "register", "10.0.0.1", 30, 0);
    CHECK_EQ(allowed, 30);
    /* 30 a minute: one every 2 s */
    CHECK(!ratelimit_allow(&rl, "register", "10.0.0.1", 30, SEC));
    CHECK(ratelimit_allow(&rl, "register", "10.0.0.1", 30, 2 * SEC));
    CHECK(!ratelimit_allow(&rl, "register", "10.0.0.1", 30, 2 * SEC));
    /* another kind of the same key is another bucket */
    CHECK(ratelimit_allow(&rl, "ip", "10.0.0.1", 30, 2 * SEC));
    CHECK(ratelimit_allow(&rl, "register", "x", 0, 0)); /* 0: unlimited */
    ratelimit_free(&rl);
}

/* 300,000 other keys (more than the table holds) each take a request
 * while one key stays exhausted: its bucket is never handed over, so it
 * stays limited until its own refill. */
static void active_bucket_never_reset(void)
{
    ratelimit rl;
    CHECK(ratelimit_init(&rl));
    for (int i = 0; i < 10; i++)
        ratelimit_allow(&rl, "scores", "42", 10, 0);
    CHECK(!ratelimit_allow(&rl, "scores", "42", 10, 0));
    char key[32];
    int refused_others = 0;
    for (int i = 0; i < 300000; i++) {
        snprintf(key, sizeof key, "%d", 1000 + i);
        refused_others += !ratelimit_allow(&rl, "scores", key, 10, i % 1000);
        if (i % 1000 == 0)
            CHECK(!ratelimit_allow(&rl, "scores", "42", 10, i % 1000));
    }
    /* the table is full of active buckets: extra keys are refused, counted */
    CHECK(refused_others > 0);
    CHECK_EQ((long long)rl.overflows, refused_others);
    CHECK(!ratelimit_allow(&rl, "scores", "42", 10, 1000));
    /* a minute later every bucket is full again: slots are free for anyone */
    CHECK(ratelimit_allow(&rl, "scores", "42", 10, 61 * SEC));
    CHECK(ratelimit_allow(&rl, "scores", "new-key", 10, 61 * SEC));
    ratelimit_free(&rl);
}

/* A key that comes back after its bucket refilled starts full, as if new. */
static void refilled_slot_is_reusable(void)
{
    ratelimit rl;
    CHECK(ratelimit_init(&rl));
    CHECK(ratelimit_allow(&rl, "ip", "a", 60, 0));
    /* 1 s later its bucket (60/min) is full again: reusable by any key */
    char key[32];
    uint64_t before = rl.overflows;
    for (int i = 0; i < 65536; i++) {
        snprintf(key, sizeof key, "k%d", i);
        ratelimit_allow(&rl, "ip", key, 60, 2 * SEC);
    }
    CHECK(rl.overflows >= before);
    int allowed = 0;
    for (int i = 0; i < 70; i++)
        allowed += ratelimit_allow(&rl, "ip", "a", 60, 3 * SEC);
    CHECK_EQ(allowed, 60);
    ratelimit_free(&rl);
}

/* A key that asks more often than one thousandth of a request accrues (at
 * 30 a minute, one thousandth takes 2 ms) still refills at its rate: the
 * time of the fractions is kept, not dropped at every request. */
static void frequent_asker_keeps_its_rate(void)
{
    ratelimit rl;
    CHECK(ratelimit_init(&rl));
    for (int i = 0; i < 30; i++)
        CHECK(ratelimit_allow(&rl, "scores", "k", 30, 0));
    int allowed = 0;
    for (int64_t t = 1000; t <= 10 * SEC; t += 1000) /* every 1 ms for 10 s */
        allowed += ratelimit_allow(&rl, "scores", "k", 30, t);
    CHECK_EQ(allowed, 5); /* one every 2 s */
    ratelimit_free(&rl);
}

int main(void)
{
    RUN(burst_then_refill);
    RUN(active_bucket_never_reset);
    RUN(refilled_slot_is_reusable);
    RUN(frequent_asker_keeps_its_rate);
    CHECK_DONE();
}
