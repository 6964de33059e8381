/*
 * keys: the server's secret keys, kept as files in <data_dir>/keys/ (mode
 * 0600, directory 0700), created on first start.
 *
 * - mac-<id>.key  (crypto_auth key)   MACs seed tokens
 * - sign-<id>.key (Ed25519 secret)    signs receipts
 * - token-hash.key (BLAKE2b key)      hashes player bearer tokens
 *
 * Key ids are 1, 2, ...; the highest is current. Older ids stay loaded so
 * tokens and receipts made under them still verify (an operator removes a
 * retired id's files once its tokens have expired). `replayd keygen` adds
 * the next id. The keyring is loaded once and then read-only.
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
    unsigned char mac[crypto_auth_KEYBYTES];
    unsigned char sign_sk[crypto_sign_SECRETKEYBYTES];
    unsigned char sign_pk[crypto_sign_PUBLICKEYBYTES];
} key_entry;

typedef struct keyring {
    key_entry keys[KEYS_MAX];
    int count;
    int current; /* index of the highest id */
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

/* Adds the next key id (rotation). Returns the new id, 0 on failure. */
uint32_t keys_generate(const char *data_dir, char *err, size_t err_len);

const key_entry *keys_by_id(const keyring *kr, uint32_t id);
const key_entry *keys_current(const keyring *kr);

/* Wipes the secrets from memory. */
void keys_wipe(keyring *kr);

#endif
