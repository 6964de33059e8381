/* checkpoint: C2SP tlog-checkpoint bodies, signed and opened (checkpoint.h). */
#include "checkpoint.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define ROOT_B64_LEN 44 /* sodium_base64_ENCODED_LEN(32) without the NUL */

size_t checkpoint_body(const checkpoint *c, char *buf, size_t len)
{
    if (c->size > MERKLE_SIZE_MAX || note_name_check(c->origin, strlen(c->origin)) != NOTE_OK)
        return 0;
    char root[ROOT_B64_LEN + 1];
    sodium_bin2base64(root, sizeof root, c->root, MERKLE_HASH_BYTES, sodium_base64_VARIANT_ORIGINAL);
    int n = snprintf(buf, len, "%s\n%" PRIu64 "\n%s\n", c->origin, c->size, root);
    return n > 0 && (size_t)n < len ? (size_t)n : 0;
}

/* The next line of text from *at (without its "\n"); NULL when there is
 * no "\n" left. */
static const char *next_line(const char *text, size_t len, size_t *at, size_t *line_len)
{
    if (*at >= len)
        return NULL;
    const char *line = text + *at;
    const char *nl = memchr(line, '\n', len - *at);
    if (!nl)
        return NULL;
    *line_len = (size_t)(nl - line);
    *at += *line_len + 1;
    return line;
}

static int parse_size(const char *s, size_t len, uint64_t *out)
{
    if (len == 0 || len > 19 || (len > 1 && s[0] == '0'))
        return -1;
    uint64_t v = 0;
    for (size_t k = 0; k < len; k++) {
        if (s[k] < '0' || s[k] > '9')
            return -1;
        v = v * 10 + (uint64_t)(s[k] - '0'); /* 19 digits fit in 64 bits */
    }
    if (v > MERKLE_SIZE_MAX)
        return -1;
    *out = v;
    return 0;
}

int checkpoint_parse_body(const char *text, size_t len, checkpoint *out)
{
    memset(out, 0, sizeof *out);
    size_t at = 0, origin_len = 0, size_len = 0, root_len = 0;
    const char *origin = next_line(text, len, &at, &origin_len);
    const char *size = next_line(text, len, &at, &size_len);
    const char *root = next_line(text, len, &at, &root_len);
    if (!origin || !size || !root || at != len || origin_len == 0 ||
        origin_len > CHECKPOINT_ORIGIN_MAX)
        return CHECKPOINT_EBODY;
    /* No control characters (note_open has checked the UTF-8 already). */
    for (size_t k = 0; k < origin_len; k++)
        if ((unsigned char)origin[k] < 0x20)
            return CHECKPOINT_EBODY;
    uint64_t n = 0;
    if (parse_size(size, size_len, &n) != 0 || root_len != ROOT_B64_LEN)
        return CHECKPOINT_EBODY;
    uint8_t hash[MERKLE_HASH_BYTES + 2];
    size_t got = 0;
    const char *end = NULL;
    if (sodium_base642bin(hash, sizeof hash, root, root_len, NULL, &got, &end,
                          sodium_base64_VARIANT_ORIGINAL) != 0 ||
        end != root + root_len || got != MERKLE_HASH_BYTES)
        return CHECKPOINT_EBODY;
    memcpy(out->origin, origin, origin_len);
    out->size = n;
    memcpy(out->root, hash, MERKLE_HASH_BYTES);
    return CHECKPOINT_OK;
}

int checkpoint_sign(const checkpoint *c, const note_signer *signers, int n, char *out,
                    size_t out_len, size_t *written)
{
    char body[CHECKPOINT_BODY_MAX + 1];
    size_t len = checkpoint_body(c, body, sizeof body);
    *written = 0;
    if (len == 0)
        return CHECKPOINT_EBODY;
    return note_sign(body, len, signers, n, out, out_len, written);
}

int checkpoint_open(const char *note, size_t len, const char *origin, const note_verifier *known,
                    int nknown, checkpoint *out)
{
    size_t text_len = 0;
    memset(out, 0, sizeof *out);
    int rc = note_open(note, len, known, nknown, &text_len, NULL);
    if (rc != NOTE_OK)
        return rc;
    checkpoint c;
    rc = checkpoint_parse_body(note, text_len, &c);
    if (rc != CHECKPOINT_OK)
        return rc;
    if (!origin || strcmp(c.origin, origin) != 0)
        return CHECKPOINT_EORIGIN;
    *out = c;
    return CHECKPOINT_OK;
}
