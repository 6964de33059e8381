/* names: player name validation and NFC normalisation (see names.h). */
#include "names.h"

#include <stdlib.h>
#include <string.h>

#include <utf8proc.h>

/* Longest input looked at before normalising: NFC never more than triples
 * a string's length, so anything this long is too long either way. */
#define NAMES_MAX_INPUT (4 * NAMES_MAX_BYTES)

static names_verdict classify(utf8proc_int32_t c, int *visible)
{
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
    case NAME_TOO_LONG:
        return "the name is longer than 64 bytes";
    }
    return "the name is not accepted";
}
