/* names: player name validation and NFC normalisation (see names.h). */
#include "names.h"

#include <stdlib.h>
#include <string.h>

#include <utf8proc.h>

/* Longest input looked at before normalising: NFC never more than triples
 * a string's length, so anything this long is too long either way. */
#define NAMES_MAX_INPUT (4 * NAMES_MAX_BYTES)

/* Code points Unicode files as letters, symbols or marks that render as a
 * blank (Hangul fillers, the braille blank, Khmer inherent vowels, the
 * combining grapheme joiner) or as nothing: a name of them looks empty on
 * a board. The separators (Zs) other than U+0020 are refused by category,
 * and the invisible format characters (U+200B, U+2060..., Cf) as controls;
 * tests/unit/test_names.c holds the list every one is checked against. */
static const utf8proc_int32_t blank_letters[] = {
    0x034F,                 /* combining grapheme joiner */
    0x115F, 0x1160,         /* Hangul choseong and jungseong fillers */
    0x17B4, 0x17B5,         /* Khmer inherent vowels */
    0x2800,                 /* braille pattern blank */
    0x3164,                 /* Hangul filler */
    0xFFA0,                 /* halfwidth Hangul filler */
    0x1D159,                /* musical symbol null notehead */
};

static bool renders_blank(utf8proc_int32_t c)
{
    for (size_t i = 0; i < sizeof blank_letters / sizeof blank_letters[0]; i++)
        if (blank_letters[i] == c)
            return true;
    return false;
}

static names_verdict classify(utf8proc_int32_t c, int *visible)
{
    if (renders_blank(c))
        return NAME_BLANK;
    switch (utf8proc_category(c)) {
    case UTF8PROC_CATEGORY_CC:
    case UTF8PROC_CATEGORY_ZL:
    case UTF8PROC_CATEGORY_ZP:
        return NAME_CONTROL;
    case UTF8PROC_CATEGORY_CF:
        /* ZWNJ and ZWJ join emoji and shape Persian and Indic scripts */
        return c == 0x200C || c == 0x200D ? NAME_OK : NAME_CONTROL;
    case UTF8PROC_CATEGORY_CN:
    case UTF8PROC_CATEGORY_CS:
    case UTF8PROC_CATEGORY_CO:
        return NAME_UNASSIGNED;
    case UTF8PROC_CATEGORY_ZS:
        /* U+00A0, U+2000..U+200A, U+202F, U+205F, U+3000...: a blank that
         * looks like a letter's width, or like none */
        return c == 0x20 ? NAME_OK : NAME_BLANK;
    case UTF8PROC_CATEGORY_MN:
    case UTF8PROC_CATEGORY_MC:
    case UTF8PROC_CATEGORY_ME:
        return NAME_OK;
    default: /* letters, numbers, punctuation, symbols */
        if (!utf8proc_get_property(c)->ignorable)
            *visible = 1;
        return NAME_OK;
    }
}

names_verdict names_normalize(const char *in, size_t len, char out[NAMES_MAX_BYTES + 1])
{
    out[0] = '\0';
    if (len == 0)
        return NAME_EMPTY;
    if (len > NAMES_MAX_INPUT)
        return NAME_TOO_LONG;
    const utf8proc_uint8_t *p = (const utf8proc_uint8_t *)in;
    int visible = 0;
    for (size_t i = 0; i < len;) {
        utf8proc_int32_t c;
        utf8proc_ssize_t n = utf8proc_iterate(p + i, (utf8proc_ssize_t)(len - i), &c);
        if (n <= 0 || c == 0)
            return NAME_BAD_UTF8;
        names_verdict v = classify(c, &visible);
        if (v != NAME_OK)
            return v;
        i += (size_t)n;
    }
    if (!visible)
        return NAME_INVISIBLE;
    utf8proc_uint8_t *nfc = NULL;
    utf8proc_ssize_t n = utf8proc_map(p, (utf8proc_ssize_t)len, &nfc, UTF8PROC_STABLE | UTF8PROC_COMPOSE);
    names_verdict v = NAME_OK;
    if (n < 0)
        v = NAME_BAD_UTF8;
    else if ((size_t)n > NAMES_MAX_BYTES)
        v = NAME_TOO_LONG;
    else
        memcpy(out, nfc, (size_t)n + 1);
    free(nfc);
    return v;
}

bool names_text_visible(const char *in, size_t len, bool only_visible)
{
    const utf8proc_uint8_t *p = (const utf8proc_uint8_t *)in;
    int visible = 0;
    for (size_t i = 0; i < len;) {
        utf8proc_int32_t c;
        utf8proc_ssize_t n = utf8proc_iterate(p + i, (utf8proc_ssize_t)(len - i), &c);
        if (n <= 0 || c == 0)
            return false;
        i += (size_t)n;
        if (c == ' ' || (!only_visible && (c == '\n' || c == '\t')))
            continue;
        int this_one = 0;
        if (classify(c, &this_one) != NAME_OK || (only_visible && !this_one))
            return false;
        visible |= this_one;
    }
    return visible != 0;
}

const char *names_why(names_verdict v)
{
    switch (v) {
    case NAME_OK:
        return "the name is valid";
    case NAME_EMPTY:
        return "the name is empty";
    case NAME_BAD_UTF8:
        return "the name is not UTF-8 text";
    case NAME_CONTROL:
        return "the name holds a control, separator or bidi/format character";
    case NAME_UNASSIGNED:
        return "the name holds a private-use or unassigned code point";
    case NAME_INVISIBLE:
        return "the name has no visible character";
    case NAME_BLANK:
        return "the name holds a character that renders blank (a filler, or a space other than U+0020)";
    case NAME_TOO_LONG:
        return "the name is longer than 64 bytes";
    }
    return "the name is not accepted";
}
