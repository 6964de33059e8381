/* Unit tests for server/trust/jwks_fetch.c's Cache-Control reader: max-age
 * and nothing looser. */
#include "../check.h"

#include "../../server/trust/jwks_fetch.h"

static void max_age_read(void)
{
    CHECK_EQ(jwks_max_age("max-age=1"), 1);
    CHECK_EQ(jwks_max_age("public, max-age=21600, must-revalidate, no-transform"), 21600); /* Apple's, Google's form */
    CHECK_EQ(jwks_max_age("Max-Age=60"), 60);
    CHECK_EQ(jwks_max_age("  max-age=0 "), 0);
    CHECK_EQ(jwks_max_age("no-cache,max-age=7"), 7);
    CHECK_EQ(jwks_max_age("max-age=999999999"), JWKS_FETCH_MAX_AGE_MAX);
    CHECK_EQ(jwks_max_age("max-age=99999999999999999999999"), JWKS_FETCH_MAX_AGE_MAX); /* bounded */
}

static void malformed_ignored(void)
{
    CHECK_EQ(jwks_max_age(NULL), -1);
    CHECK_EQ(jwks_max_age(""), -1);
    CHECK_EQ(jwks_max_age("public"), -1);
    CHECK_EQ(jwks_max_age("max-age="), -1);
    CHECK_EQ(jwks_max_age("max-age=\"60\""), -1);
    CHECK_EQ(jwks_max_age("max-age=-5"), -1);
    CHECK_EQ(jwks_max_age("max-age=6 0"), -1);
    CHECK_EQ(jwks_max_age("max-age=1e3"), -1);
    CHECK_EQ(jwks_max_age("max-age = 60"), -1);
    CHECK_EQ(jwks_max_age("s-maxage=60"), -1);
    CHECK_EQ(jwks_max_age("xmax-age=60"), -1);
}

int main(void)
{
    RUN(max_age_read);
    RUN(malformed_ignored);
    CHECK_DONE();
}
