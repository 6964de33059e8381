/* Unit tests for server/trust/names.c: what a player name may hold, and NFC. */
#include "../check.h"

#include "../../server/trust/names.h"

static names_verdict check(const char *s)
{
    char out[NAMES_MAX_BYTES + 1];
    return names_normalize(s, strlen(s), out);
}

static void plain_names_pass(void)
{
    char out[NAMES_MAX_BYTES + 1];
    CHECK_EQ(names_normalize("ada", 3, out), NAME_OK);
    CHECK(strcmp(out, "ada") == 0);
    CHECK_EQ(check("Zoë the 2nd"), NAME_OK);
    CHECK_EQ(check("\xe5\xa4\xaa\xe9\x83\x8e"), NAME_OK);                  /* 太郎 */
    CHECK_EQ(check("\xd8\xb9\xd9\x84\xd9\x8a"), NAME_OK);                  /* Arabic, no controls */
    /* family emoji: man ZWJ woman ZWJ girl */
    CHECK_EQ(check("\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9\xe2\x80\x8d\xf0\x9f\x91\xa7"), NAME_OK);
    CHECK_EQ(check(" padded "), NAME_OK);
}

static void controls_refused(void)
{
    CHECK_EQ(check("a\tb"), NAME_CONTROL);
    CHECK_EQ(check("a\x7f"), NAME_CONTROL);
    CHECK_EQ(check("a\xc2\x9b" "31m"), NAME_CONTROL);       /* U+009B CSI (C1) */
    CHECK_EQ(check("a\xc2\x85" "b"), NAME_CONTROL);         /* U+0085 NEL (C1) */
    CHECK_EQ(check("evil\xe2\x80\xae" "gnp.exe"), NAME_CONTROL); /* U+202E RLO */
    CHECK_EQ(check("a\xe2\x81\xa6" "b"), NAME_CONTROL);     /* U+2066 LRI */
    CHECK_EQ(check("a\xe2\x80\x8f" "b"), NAME_CONTROL);     /* U+200F RLM */
    CHECK_EQ(check("a\xe2\x80\xa8" "b"), NAME_CONTROL);     /* U+2028 line separator */
    CHECK_EQ(check("a\xef\xbb\xbf"), NAME_CONTROL);         /* U+FEFF */
}

static void invisible_refused(void)
{
    CHECK_EQ(check(""), NAME_EMPTY);
    CHECK_EQ(check("   "), NAME_INVISIBLE);
    CHECK_EQ(check("\xe3\x80\x80\xc2\xa0"), NAME_INVISIBLE);       /* ideographic space, NBSP */
    CHECK_EQ(check("\xe2\x80\x8d\xe2\x80\x8c"), NAME_INVISIBLE);   /* ZWJ ZWNJ only */
    CHECK_EQ(check("\xcc\x81\xcc\x81"), NAME_INVISIBLE);           /* combining acute only */
    CHECK_EQ(check("\xe2\x80\x8b"), NAME_CONTROL);                 /* ZWSP is Cf */
    CHECK_EQ(check("\xe3\x85\xa4"), NAME_INVISIBLE);               /* Hangul filler: ignorable */
}

static void bad_bytes_refused(void)
{
    char out[NAMES_MAX_BYTES + 1];
    CHECK_EQ(check("a\xff"), NAME_BAD_UTF8);
    CHECK_EQ(check("\xc0\xaf"), NAME_BAD_UTF8);             /* overlong '/' */
    CHECK_EQ(check("\xed\xa0\x80"), NAME_BAD_UTF8);         /* a surrogate */
    CHECK_EQ(names_normalize("a\0b", 3, out), NAME_BAD_UTF8);
    CHECK_EQ(check("\xee\x80\x80"), NAME_UNASSIGNED);       /* U+E000 private use */
    CHECK_EQ(check("\xf4\x8f\xbf\xbf"), NAME_UNASSIGNED);   /* U+10FFFF */
}

static void nfc_and_length(void)
{
    char out[NAMES_MAX_BYTES + 1];
    /* e + combining acute becomes U+00E9 */
    CHECK_EQ(names_normalize("Jose\xcc\x81", 6, out), NAME_OK);
    CHECK(strcmp(out, "Jos\xc3\xa9") == 0);
    char name[200];
    memset(name, 'x', 64);
    name[64] = '\0';
    CHECK_EQ(check(name), NAME_OK);
    name[64] = 'x';
    name[65] = '\0';
    CHECK_EQ(check(name), NAME_TOO_LONG);
    /* 64 bytes decomposed fit once composed: 32 x (e + U+0301) is 96 bytes,
     * NFC is 32 x U+00E9, 64 bytes */
    size_t n = 0;
    for (int i = 0; i < 32; i++) {
        memcpy(name + n, "e\xcc\x81", 3);
        n += 3;
    }
    CHECK_EQ(names_normalize(name, n, out), NAME_OK);
    CHECK_EQ(strlen(out), 64);
}

int main(void)
{
    RUN(plain_names_pass);
    RUN(controls_refused);
    RUN(invisible_refused);
    RUN(bad_bytes_refused);
    RUN(nfc_and_length);
    CHECK_DONE();
}
