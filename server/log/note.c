/* note: C2SP signed notes, Ed25519 (note.h). */
#include "note.h"

#include <stdio.h>
#include <string.h>

#include <utf8proc.h>

#define ED25519_SIG_TYPE 0x01
#define SIG_LINE_START "\xe2\x80\x94 " /* U+2014 EM DASH, then a space */
#define SIG_LINE_START_LEN 4
#define SIG_BYTES (4 + crypto_sign_BYTES)

/* UTF-8 with no control character below U+0020 but, when newline_ok,
 * "\n". For a name, nor a Unicode space (Go's unicode.IsSpace: the Z
 * categories and U+0085; the ASCII ones are controls) or "+". */
static bool chars_ok(const char *s, size_t len, bool newline_ok, bool name)
{
    const utf8proc_uint8_t *p = (const utf8proc_uint8_t *)s;
    size_t at = 0;
    while (at < len) {
        utf8proc_int32_t c;
        utf8proc_ssize_t n = utf8proc_iterate(p + at, (utf8proc_ssize_t)(len - at), &c);
        if (n <= 0)
            return false;
        if (c < 0x20 && !(c == '\n' && newline_ok))
            return false;
        if (name) {
            utf8proc_category_t cat = utf8proc_category(c);
            if (c == '+' || c == 0x85 || cat == UTF8PROC_CATEGORY_ZS ||
                cat == UTF8PROC_CATEGORY_ZL || cat == UTF8PROC_CATEGORY_ZP)
                return false;
        }
        at += (size_t)n;
    }
    return true;
}

int note_name_check(const char *name, size_t len)
{
    if (len == 0 || len > NOTE_NAME_MAX || !chars_ok(name, len, false, true))
        return NOTE_ENAME;
    return NOTE_OK;
}

uint32_t note_key_id(const char *name, size_t name_len,
                     const uint8_t public_key[crypto_sign_PUBLICKEYBYTES])
{
    static const uint8_t sep[2] = { 0x0a, ED25519_SIG_TYPE };
    uint8_t h[crypto_hash_sha256_BYTES];
    crypto_hash_sha256_state st;
    crypto_hash_sha256_init(&st);
    crypto_hash_sha256_update(&st, (const unsigned char *)name, name_len);
    crypto_hash_sha256_update(&st, sep, sizeof sep);
    crypto_hash_sha256_update(&st, public_key, crypto_sign_PUBLICKEYBYTES);
    crypto_hash_sha256_final(&st, h);
    return (uint32_t)h[0] << 24 | (uint32_t)h[1] << 16 | (uint32_t)h[2] << 8 | (uint32_t)h[3];
}

int note_verifier_make(const char *name, const uint8_t public_key[crypto_sign_PUBLICKEYBYTES],
                       note_verifier *out)
{
    size_t len = strlen(name);
    memset(out, 0, sizeof *out);
    if (note_name_check(name, len) != NOTE_OK)
        return NOTE_ENAME;
    memcpy(out->name, name, len);
    memcpy(out->public_key, public_key, crypto_sign_PUBLICKEYBYTES);
    out->key_id = note_key_id(name, len, public_key);
    return NOTE_OK;
}

size_t note_verifier_encode(const note_verifier *v, char *buf, size_t len)
{
    uint8_t typed[1 + crypto_sign_PUBLICKEYBYTES];
    char b64[sodium_base64_ENCODED_LEN(sizeof typed, sodium_base64_VARIANT_ORIGINAL)];
    typed[0] = ED25519_SIG_TYPE;
    memcpy(typed + 1, v->public_key, crypto_sign_PUBLICKEYBYTES);
    sodium_bin2base64(b64, sizeof b64, typed, sizeof typed, sodium_base64_VARIANT_ORIGINAL);
    int n = snprintf(buf, len, "%s+%08x+%s", v->name, (unsigned)v->key_id, b64);
    return n > 0 && (size_t)n < len ? (size_t)n : 0;
}

/* Standard padded base64 of exactly b64_len bytes into at most cap bytes;
 * -1 unless all of it decodes (libsodium refuses wrong padding and
 * non-zero spare bits, so each value has one encoding). */
static long decode_b64(const char *b64, size_t b64_len, uint8_t *out, size_t cap)
{
    size_t n = 0;
    const char *end = NULL;
    if (b64_len == 0 ||
        sodium_base642bin(out, cap, b64, b64_len, NULL, &n, &end, sodium_base64_VARIANT_ORIGINAL) != 0 ||
        end != b64 + b64_len)
        return -1;
    return (long)n;
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

int note_verifier_parse(const char *vkey, size_t len, note_verifier *out)
{
    memset(out, 0, sizeof *out);
    if (len >= NOTE_VERIFIER_KEY_MAX)
        return NOTE_EFORMAT;
    const char *plus = memchr(vkey, '+', len);
    if (!plus)
        return NOTE_EFORMAT;
    size_t name_len = (size_t)(plus - vkey);
    if (note_name_check(vkey, name_len) != NOTE_OK || len - name_len < 1 + 8 + 1 ||
        plus[9] != '+')
        return NOTE_EFORMAT;
    uint32_t id = 0;
    for (int k = 1; k <= 8; k++) {
        int d = hex_digit(plus[k]);
        if (d < 0)
            return NOTE_EFORMAT;
        id = id << 4 | (uint32_t)d;
    }
    const char *b64 = plus + 10;
    uint8_t typed[1 + crypto_sign_PUBLICKEYBYTES + 3];
    long n = decode_b64(b64, len - name_len - 10, typed, sizeof typed);
    if (n != 1 + crypto_sign_PUBLICKEYBYTES || typed[0] != ED25519_SIG_TYPE)
        return NOTE_EFORMAT;
    if (note_key_id(vkey, name_len, typed + 1) != id)
        return NOTE_EFORMAT;
    memcpy(out->name, vkey, name_len);
    out->key_id = id;
    memcpy(out->public_key, typed + 1, crypto_sign_PUBLICKEYBYTES);
    return NOTE_OK;
}

static bool text_ok(const char *text, size_t len)
{
    return len > 0 && len <= NOTE_MAX && text[len - 1] == '\n' && chars_ok(text, len, true, false);
}

int note_sign(const char *text, size_t text_len, const note_signer *signers, int n, char *out,
              size_t out_len, size_t *written)
{
    *written = 0;
    if (!text_ok(text, text_len) || n < 1 || n > NOTE_SIGS_MAX)
        return NOTE_EFORMAT;
    for (int k = 0; k < n; k++)
        if (note_name_check(signers[k].name, strlen(signers[k].name)) != NOTE_OK)
            return NOTE_ENAME;
    if (out_len < text_len + 2)
        return NOTE_ESPACE;
    memcpy(out, text, text_len);
    out[text_len] = '\n';
    size_t at = text_len + 1;
    for (int k = 0; k < n; k++) {
        const char *name = signers[k].name;
        size_t name_len = strlen(name);
        uint8_t pk[crypto_sign_PUBLICKEYBYTES], sig[SIG_BYTES];
        char b64[sodium_base64_ENCODED_LEN(SIG_BYTES, sodium_base64_VARIANT_ORIGINAL)];
        crypto_sign_ed25519_sk_to_pk(pk, signers[k].secret_key);
        uint32_t id = note_key_id(name, name_len, pk);
        sig[0] = (uint8_t)(id >> 24);
        sig[1] = (uint8_t)(id >> 16);
        sig[2] = (uint8_t)(id >> 8);
        sig[3] = (uint8_t)id;
        crypto_sign_detached(sig + 4, NULL, (const unsigned char *)text, text_len,
                             signers[k].secret_key);
        sodium_bin2base64(b64, sizeof b64, sig, sizeof sig, sodium_base64_VARIANT_ORIGINAL);
        int w = snprintf(out + at, out_len - at, SIG_LINE_START "%s %s\n", name, b64);
        if (w < 0 || (size_t)w >= out_len - at) {
            out[0] = '\0';
            return NOTE_ESPACE;
        }
        at += (size_t)w;
    }
    *written = at;
    return NOTE_OK;
}

int note_open(const char *msg, size_t len, const note_verifier *known, int nknown,
              size_t *text_len, bool *signed_by)
{
    bool seen[NOTE_KNOWN_MAX] = { false };
    *text_len = 0;
    if (nknown < 0 || nknown > NOTE_KNOWN_MAX || len < 2 || len > NOTE_MAX ||
        msg[len - 1] != '\n' || !chars_ok(msg, len, true, false))
        return NOTE_EFORMAT;
    /* The text ends at the last blank line; the signatures follow it. */
    size_t split = len - 1;
    while (split > 0 && !(msg[split - 1] == '\n' && msg[split] == '\n'))
        split--;
    if (split == 0)
        return NOTE_EFORMAT;
    size_t text = split; /* bytes of text, its final "\n" included */
    size_t at = split + 1;
    if (at >= len)
        return NOTE_EFORMAT;
    int lines = 0, verified = 0;
    while (at < len) {
        const char *line = msg + at;
        const char *nl = memchr(line, '\n', len - at);
        size_t line_len = (size_t)(nl - line); /* nl exists: msg ends in "\n" */
        if (++lines > NOTE_SIGS_MAX || line_len < SIG_LINE_START_LEN + 3 ||
            memcmp(line, SIG_LINE_START, SIG_LINE_START_LEN) != 0)
            return NOTE_EFORMAT;
        const char *name = line + SIG_LINE_START_LEN;
        const char *space = memchr(name, ' ', line_len - SIG_LINE_START_LEN);
        if (!space)
            return NOTE_EFORMAT;
        size_t name_len = (size_t)(space - name);
        if (note_name_check(name, name_len) != NOTE_OK)
            return NOTE_EFORMAT;
        uint8_t sig[NOTE_MAX];
        long n = decode_b64(space + 1, (size_t)(nl - space - 1), sig, sizeof sig);
        if (n < 5)
            return NOTE_EFORMAT;
        uint32_t id = (uint32_t)sig[0] << 24 | (uint32_t)sig[1] << 16 | (uint32_t)sig[2] << 8 |
                      (uint32_t)sig[3];
        for (int k = 0; k < nknown; k++) {
            if (known[k].key_id != id || strlen(known[k].name) != name_len ||
                memcmp(known[k].name, name, name_len) != 0)
                continue;
            if (seen[k])
                return NOTE_EFORMAT;
            if (n != SIG_BYTES || crypto_sign_verify_detached(sig + 4, (const unsigned char *)msg,
                                                              text, known[k].public_key) != 0)
                return NOTE_EBADSIG;
            seen[k] = true;
            verified++;
            break;
        }
        at += line_len + 1;
    }
    if (verified == 0)
        return NOTE_EUNKNOWN;
    if (signed_by)
        for (int k = 0; k < nknown; k++)
            signed_by[k] = seen[k];
    *text_len = text;
    return NOTE_OK;
}
