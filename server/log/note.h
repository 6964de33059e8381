/*
 * note: C2SP signed notes with Ed25519 signatures (docs/LOG.md), the
 * envelope of the score log's checkpoints (checkpoint.h).
 *
 *   <text, ending in "\n">
 *   <blank line>
 *   — <key name> <base64(4-byte big-endian key id || 64-byte signature)>\n
 *   ... one line per signature
 *
 *   key id        = SHA-256(key name || 0x0A || 0x01 || 32-byte public key)[:4]
 *   verifier key  = "<key name>+<key id, 8 lowercase hex>+<base64(0x01 || public key)>"
 *
 * Opening a note is strict: it must be UTF-8 with no control character
 * but "\n", at most NOTE_MAX bytes and NOTE_SIGS_MAX signature lines, each
 * well formed in standard padded base64. As the spec says, signatures of
 * keys the caller does not know are skipped; a known key's signature that
 * fails refuses the whole note; at least one known key must have signed.
 *
 * Pure apart from libsodium (sodium_init first) and utf8proc: no I/O, no
 * allocation, no state. Every buffer is the caller's; a signer's secret
 * key is only read.
 */
#ifndef REPLAYD_SERVER_LOG_NOTE_H
#define REPLAYD_SERVER_LOG_NOTE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sodium.h>

#define NOTE_MAX 16384    /* the longest note note_open reads */
#define NOTE_SIGS_MAX 100 /* the spec asks for at least 16 */
#define NOTE_NAME_MAX 255 /* bytes of a key name */
#define NOTE_KNOWN_MAX 64 /* keys note_open checks at once (a keyring holds 64) */
/* The longest verifier key string, with its NUL. */
#define NOTE_VERIFIER_KEY_MAX (NOTE_NAME_MAX + 1 + 8 + 1 + 44 + 1)

enum note_result {
    NOTE_OK = 0,
    NOTE_EFORMAT = -1,  /* not a well-formed note, text or key string */
    NOTE_EUNKNOWN = -2, /* no signature from a key the caller knows */
    NOTE_EBADSIG = -3,  /* a known key's signature does not verify */
    NOTE_ESPACE = -4,   /* the caller's buffer is too small */
    NOTE_ENAME = -5,    /* a key name that is empty, too long, or has a space or "+" */
};

/* A key that can check signatures: its name, id and Ed25519 public key. */
typedef struct note_verifier {
    char name[NOTE_NAME_MAX + 1];
    uint32_t key_id;
    uint8_t public_key[crypto_sign_PUBLICKEYBYTES];
} note_verifier;

/* A key that signs; both pointers are borrowed for the call. */
typedef struct note_signer {
    const char *name;
    const uint8_t *secret_key; /* libsodium's 64-byte Ed25519 secret key */
} note_signer;

/* NOTE_OK when name (len bytes) can name a key: 1..NOTE_NAME_MAX bytes of
 * UTF-8 with no control character, Unicode space or "+". */
int note_name_check(const char *name, size_t len);

uint32_t note_key_id(const char *name, size_t name_len,
                     const uint8_t public_key[crypto_sign_PUBLICKEYBYTES]);

/* Fills *out for name (NUL-terminated) and public_key; NOTE_ENAME. */
int note_verifier_make(const char *name, const uint8_t public_key[crypto_sign_PUBLICKEYBYTES],
                       note_verifier *out);

/* The verifier key string of v with a NUL into buf; its length, 0 when
 * buf is too small. */
size_t note_verifier_encode(const note_verifier *v, char *buf, size_t len);

/* Reads a verifier key string (len bytes): NOTE_EFORMAT unless it is
 * exactly name, "+", 8 lowercase hex digits, "+", the base64 of 0x01 and
 * a 32-byte key, and the id is the one the name and key give. */
int note_verifier_parse(const char *vkey, size_t len, note_verifier *out);

/* Signs text (text_len bytes, ending in "\n", UTF-8 without control
 * characters but "\n") with each of the n (1..NOTE_SIGS_MAX) signers, in
 * order, and writes the note with a NUL to out; *written gets its length.
 * NOTE_EFORMAT (text), NOTE_ENAME, NOTE_ESPACE. */
int note_sign(const char *text, size_t text_len, const note_signer *signers, int n, char *out,
              size_t out_len, size_t *written);

/* Opens the note msg (len bytes) with the nknown (0..NOTE_KNOWN_MAX) keys
 * the caller trusts. NOTE_OK sets *text_len: the text is msg[0 ..
 * *text_len), its final "\n" included; signed_by (nknown entries, or
 * NULL) says which keys signed. NOTE_EFORMAT, NOTE_EBADSIG or
 * NOTE_EUNKNOWN otherwise (a note with two signatures from one known key,
 * or more than NOTE_KNOWN_MAX keys, is NOTE_EFORMAT). */
int note_open(const char *msg, size_t len, const note_verifier *known, int nknown,
              size_t *text_len, bool *signed_by);

#endif
