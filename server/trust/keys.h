/*
 * keys: the server's secret keys, kept as files in <data_dir>/keys/ (mode
 * 0600, directory 0700), created on first start.
 *
 * - mac-<id>.key  (crypto_auth key)   MACs seed tokens
 * - sign-<id>.key (Ed25519 secret)    signs receipts
 * - pub-<id>.json (public record)     the id's public key and validity window:
 *   {"key_id","alg","public_key" (base64url),"valid_from_ms","valid_until_ms"}
 * - token-hash.key (BLAKE2b key)      hashes player bearer tokens
 *
 * Key ids are 1, 2, ...; the highest id that is not retired is current.
 * Older ids stay loaded so tokens and receipts made under them still
 * verify. `replayd keygen` adds the next id; `replayd keygen --retire ID`
 * (keys_retire) deletes an old id's secrets and keeps its public record,
 * with valid_until set, so its receipts verify for ever (/v1/keys lists
 * it as retired) while nothing can be MACed or signed with it again. A
 * record is written with its key (valid_from: the id's creation); an id
 * made before records existed gets one at its first load, dated from its
 * signing key file. The keyring is loaded once and then read-only.
 *
 * The directory and every *.key file in it (daily.key too) must be the
 * service user's and private (base/private_file.h: what ssh asks of a
 * private key): keys_load refuses them otherwise, before it reads, makes
 * or repairs anything.
 */
#ifndef REPLAYD_SERVER_KEYS_H
#define REPLAYD_SERVER_KEYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sodium.h>

#define KEYS_MAX 64

typedef struct key_entry {
    uint32_t id;
    bool retired;           /* public key only: mac and sign_sk are zero */
    int64_t valid_from_ms;  /* unix ms: when the id was made */
    int64_t valid_until_ms; /* when it was retired; 0 while it is not */
    unsigned char mac[crypto_auth_KEYBYTES];
    unsigned char sign_sk[crypto_sign_SECRETKEYBYTES];
    unsigned char sign_pk[crypto_sign_PUBLICKEYBYTES];
} key_entry;

typedef struct keyring {
    key_entry keys[KEYS_MAX];
    int count;
    int current; /* index of the highest id that is not retired */
    unsigned char token_hash_key[crypto_generichash_KEYBYTES];
} keyring;

/* Loads every key in <data_dir>/keys, creating the directory and a first
 * key set when there is none. Key files are written crash-safe (temporary
 * name, fsync, rename, directory fsync). When nothing_signed_yet (the
 * caller's word: no database exists yet, see serve.c) a key set that does
 * not load (a partial file left by an interrupted first start) is removed
 * and made afresh (*repaired set); otherwise it is an error. */
bool keys_load(keyring *kr, const char *data_dir, bool nothing_signed_yet, bool *repaired,
               char *err, size_t err_len);

/* Only the public keys of every id in <data_dir>/keys (their records, or
 * for an id without one its signing key's public half), every entry marked
 * retired so nothing can sign or MAC with it; writes nothing. For checking
 * receipts offline (reverify). An empty keyring when there are none. */
bool keys_load_public(keyring *kr, const char *data_dir, char *err, size_t err_len);

/* Adds the next key id (rotation), and token-hash.key when there is none
 * yet, so that a first keygen makes every key a node needs. Returns the
 * new id, 0 on failure. */
uint32_t keys_generate(const char *data_dir, char *err, size_t err_len);

/* Retires id: its public record gets valid_until (now), then its MAC and
 * signing key files are deleted, each step crash-safe; retiring a retired
 * id again finishes what an interrupted run left and keeps its window.
 * Refused for the highest id that is not retired (the one a restart makes
 * current) and for an id that does not exist. *out gets the record. */
bool keys_retire(const char *data_dir, uint32_t id, key_entry *out, char *err, size_t err_len);

/* An id that MACs and signs (never a retired one): for seed tokens. */
const key_entry *keys_by_id(const keyring *kr, uint32_t id);
/* Any published id, retired ones included: for checking receipts. */
const key_entry *keys_public_by_id(const keyring *kr, uint32_t id);
const key_entry *keys_current(const keyring *kr);

/* The fingerprint the nodes of a cluster compare (serve.c records it in
 * the database): BLAKE2b-256, in hex, of token-hash.key for key_id 0, of
 * key id n's MAC key and signing public key for n. false (out empty) for
 * an id this keyring does not hold with its secrets (absent, retired). */
#define KEYS_FINGERPRINT_HEX 64
bool keys_fingerprint(const keyring *kr, uint32_t key_id, char out[KEYS_FINGERPRINT_HEX + 1]);

/* Wipes the secrets from memory. */
void keys_wipe(keyring *kr);

/* A file of <data_dir>/keys other modules keep (daily_seal.h): written
 * crash-safe (temporary name, fsync, rename, directory fsync; mode 0600),
 * read back only when it is exactly len bytes. false with a message. */
bool keys_write_file(const char *data_dir, const char *name, const void *data, size_t len,
                     char *err, size_t err_len);
bool keys_read_file(const char *data_dir, const char *name, void *data, size_t len, char *err,
                    size_t err_len);

#endif
