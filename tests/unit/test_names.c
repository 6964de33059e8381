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
    CHECK_EQ(check("\xe3\x80\x80\xc2\xa0"), NAME_BLANK);       /* ideographic space, NBSP */
    CHECK_EQ(check("\xe2\x80\x8d\xe2\x80\x8c"), NAME_INVISIBLE);   /* ZWJ ZWNJ only */
    CHECK_EQ(check("\xcc\x81\xcc\x81"), NAME_INVISIBLE);           /* combining acute only */
    CHECK_EQ(check("\xe2\x80\x8b"), NAME_CONTROL);                 /* ZWSP is Cf */
    CHECK_EQ(check("\xe3\x85\xa4"), NAME_BLANK);                   /* Hangul filler */
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

/* UTF-8 of one code point (up to 4 bytes), NUL-terminated. */
static void utf8_of(long c, char out[5])
{
    if (c < 0x80) {
        out[0] = (char)c;
        out[1] = 0;
    } else if (c < 0x800) {
        out[0] = (char)(0xC0 | (c >> 6));
        out[1] = (char)(0x80 | (c & 0x3F));
        out[2] = 0;
    } else if (c < 0x10000) {
        out[0] = (char)(0xE0 | (c >> 12));
        out[1] = (char)(0x80 | ((c >> 6) & 0x3F));
        out[2] = (char)(0x80 | (c & 0x3F));
        out[3] = 0;
    } else {
        out[0] = (char)(0xF0 | (c >> 18));
        out[1] = (char)(0x80 | ((c >> 12) & 0x3F));
        out[2] = (char)(0x80 | ((c >> 6) & 0x3F));
        out[3] = (char)(0x80 | (c & 0x3F));
        out[4] = 0;
    }
}

/* Issue 27: the characters that render blank (or as nothing) on a board,
 * each refused alone, beside a letter, and between two letters. */
static const long blank_list[] = {
    0x00A0, 0x034F, 0x115F, 0x1160, 0x1680, 0x17B4, 0x17B5, 0x180E, 0x2000, 0x2001, 0x2002,
    0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200A, 0x200B, 0x200E, 0x200F,
    0x2028, 0x2029, 0x202F, 0x205F, 0x2060, 0x2061, 0x2062, 0x2063, 0x2064, 0x2800, 0x3000,
    0x3164, 0xFEFF, 0xFFA0, 0x1D159, 0x1D173, 0x1D17A, 0xE0020,
};

static void blank_rendering_refused(void)
{
    for (size_t i = 0; i < sizeof blank_list / sizeof blank_list[0]; i++) {
        char cp[5], alone[16], beside[16], between[16];
        utf8_of(blank_list[i], cp);
        snprintf(alone, sizeof alone, "%s", cp);
        snprintf(beside, sizeof beside, "a%s", cp);
        snprintf(between, sizeof between, "a%sb", cp);
        if (check(alone) == NAME_OK || check(beside) == NAME_OK || check(between) == NAME_OK) {
            printf("  U+%04lX is accepted\n", blank_list[i]);
            CHECK(0);
        }
    }
    CHECK_EQ(check("a b"), NAME_OK);                 /* U+0020 between letters */
    CHECK_EQ(check("\xe2\xa0\x80"), NAME_BLANK);     /* U+2800 braille blank alone */
    CHECK_EQ(check("\xe2\xa0\x81"), NAME_OK);        /* U+2801, a braille dot, shows */
    CHECK_EQ(check("\xe3\x85\xa4x"), NAME_BLANK);    /* U+3164 Hangul filler */
}

static void admin_text(void)
{
    CHECK(names_text_visible("spam", 4, false));
    CHECK(names_text_visible("line one\nline two", 17, false));
    CHECK(!names_text_visible(" ", 1, false));                 /* a reason of " " */
    CHECK(!names_text_visible("\t\n ", 3, false));
    CHECK(!names_text_visible("\xe2\xa0\x80", 3, false));     /* U+2800 only */
    CHECK(!names_text_visible("ok\x1b[31m", 8, false));        /* ANSI escape */
    CHECK(names_text_visible("alice ops", 9, true));
    CHECK(!names_text_visible("alice\nops", 9, true));
    CHECK(!names_text_visible("ali\xe2\x80\xae" "ce", 8, true)); /* U+202E bidi override */
    CHECK(!names_text_visible("\x1b[2Jroot", 10, true));
    CHECK(!names_text_visible("a\xff", 2, true));              /* not UTF-8 */
}

int main(void)
{
    RUN(blank_rendering_refused);
    RUN(admin_text);
    RUN(plain_names_pass);
    RUN(controls_refused);
    RUN(invisible_refused);
    RUN(bad_bytes_refused);
    RUN(nfc_and_length);
    CHECK_DONE();
}
