/*
 * checkpoint: the score log's C2SP tlog-checkpoint, a signed note
 * (note.h) whose text is exactly three lines (docs/LOG.md):
 *
 *   <origin>\n
 *   <tree size, decimal, no leading zero>\n
 *   <base64 of the 32-byte RFC 6962 root>\n
 *
 * The spec allows extension lines after those; this log writes none and
 * refuses a checkpoint that has any, so what a verifier checks is all
 * that was signed. Sizes go up to MERKLE_SIZE_MAX.
 *
 * Pure apart from libsodium (sodium_init first): no I/O, no allocation,
 * no state. Every buffer is the caller's.
 */
#ifndef REPLAYD_SERVER_LOG_CHECKPOINT_H
#define REPLAYD_SERVER_LOG_CHECKPOINT_H

#include <stddef.h>
#include <stdint.h>

#include "merkle.h"
#include "note.h"

#define CHECKPOINT_ORIGIN_MAX NOTE_NAME_MAX
/* The longest body: origin, 19 digits, 44 base64 characters, 3 newlines. */
#define CHECKPOINT_BODY_MAX (CHECKPOINT_ORIGIN_MAX + 19 + 44 + 3)

/* Results: NOTE_* from note.h (opening the note), or these. */
enum checkpoint_result {
    CHECKPOINT_OK = 0,
    CHECKPOINT_EBODY = -10,   /* the text is not exactly origin, size, root */
    CHECKPOINT_EORIGIN = -11, /* another log's checkpoint */
};

typedef struct checkpoint {
    char origin[CHECKPOINT_ORIGIN_MAX + 1];
    uint64_t size;
    uint8_t root[MERKLE_HASH_BYTES];
} checkpoint;

/* The note text of c with a NUL into buf; its length, 0 when c's origin
 * cannot be a key name (note_name_check: the log signs under its origin),
 * its size exceeds MERKLE_SIZE_MAX or buf is too small. */
size_t checkpoint_body(const checkpoint *c, char *buf, size_t len);

/* Reads a body (len bytes) strictly into *out: CHECKPOINT_EBODY for a
 * missing or extra line, an empty origin, a size with a sign, a leading
 * zero or above MERKLE_SIZE_MAX, a control character in the origin, a
 * root that is not the canonical base64 of 32 bytes. */
int checkpoint_parse_body(const char *text, size_t len, checkpoint *out);

/* c signed by each of the n signers (a key rotation signs with both the
 * old and the new key) as a note, with a NUL, into out; *written gets
 * its length. CHECKPOINT_EBODY, or note_sign's results. */
int checkpoint_sign(const checkpoint *c, const note_signer *signers, int n, char *out,
                    size_t out_len, size_t *written);

/* Opens a checkpoint note of len bytes: note_open with the nknown keys
 * the caller trusts, then the body, whose origin must be origin.
 * CHECKPOINT_OK fills *out; otherwise a NOTE_* result, CHECKPOINT_EBODY
 * or CHECKPOINT_EORIGIN. */
int checkpoint_open(const char *note, size_t len, const char *origin, const note_verifier *known,
                    int nknown, checkpoint *out);

#endif
