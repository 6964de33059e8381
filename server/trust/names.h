/*
 * names: what a player's display name may be, and its one stored form.
 *
 * A name is valid UTF-8 with no control characters (C0, C1: category Cc),
 * no bidi or other format controls (Cf, except ZWJ and ZWNJ, which emoji
 * sequences and several scripts need), no line/paragraph separators,
 * private-use, surrogate or unassigned code points, and at least one
 * visible character (a letter, number, punctuation or symbol): a name of
 * only spaces, only zero-width joiners or only combining marks is refused.
 * Characters that render blank are refused anywhere in a name: every space
 * but U+0020, and the fillers Unicode files as letters or symbols (U+2800,
 * U+3164, U+115F, U+1160, U+FFA0, ...: names.c lists them).
 * The stored form is its NFC normalisation, at most NAMES_MAX_BYTES bytes.
 * Unicode properties come from libutf8proc, not from tables kept here.
 */
#ifndef REPLAYD_SERVER_NAMES_H
#define REPLAYD_SERVER_NAMES_H

#include <stdbool.h>
#include <stddef.h>

#include "../store/store.h"

#define NAMES_MAX_BYTES STORE_NAME_MAX

typedef enum names_verdict {
    NAME_OK = 0,
    NAME_EMPTY,        /* no bytes */
    NAME_BAD_UTF8,     /* not UTF-8, or a NUL byte */
    NAME_CONTROL,      /* a C0/C1 control, separator or format character */
    NAME_UNASSIGNED,   /* private-use, surrogate or unassigned code point */
    NAME_INVISIBLE,    /* only whitespace, zero-width or combining characters */
    NAME_BLANK,        /* a character that renders blank: a filler, a space but U+0020 */
    NAME_TOO_LONG      /* over NAMES_MAX_BYTES after normalisation */
} names_verdict;

/* Checks len bytes of in and writes its NFC form, NUL-terminated, to out. */
names_verdict names_normalize(const char *in, size_t len, char out[NAMES_MAX_BYTES + 1]);

/* Free text an operator writes into admin_log, by the same rules: valid
 * UTF-8 with at least one visible character and no control, format (bidi),
 * separator or blank-rendering character; U+0020 is allowed, and newline
 * and tab too unless only_visible (an operator's name: visible characters
 * and spaces only). */
bool names_text_visible(const char *in, size_t len, bool only_visible);

/* A sentence for the error message. */
const char *names_why(names_verdict v);

#endif
