/*
 * daily_seal: sealed daily seeds (config daily_seeds = sealed).
 *
 * Under `sealed`, a date's daily seed comes from the date and a deployment
 * secret, so nobody can know it before the day opens; before that the
 * server publishes only a commitment. docs/CORE.md ("Sealed dailies")
 * defines every byte; in short, with D the date as "YYYY-MM-DD" and
 * M = "replayd-daily:" || D:
 *
 *   reveal     R = HMAC-SHA-256(K, M)           (published when the day opens)
 *   seed         = R[0..3] read big-endian      (for every game, Contraption too)
 *   commitment C = SHA-256(M || R)              (published for any date)
 *
 * The game and level still come from the public schedule (core/daily.c);
 * `public` keeps core/daily.c's seeds bit for bit.
 *
 * The secret K is <data_dir>/keys/daily.key (32 bytes, mode 0600, made on
 * first start like the other keys; a cluster shares it like them). Beside
 * it, keys/daily.json {"sealed_from":"YYYY-MM-DD"} names the first sealed
 * date, made with the key: the day of its creation (a deployment seals
 * from its first day), or the next day when the day under way was already
 * published with its public seed (an upgrade from public dailies); an
 * operator's own key without that record is sealed on every date. A
 * sealed deployment never serves a public seed: a date before sealed_from
 * that is not over (the upgrade's own day) is closed to new players
 * (daily_seal_closed); tokens drawn before keep their seed.
 *
 * Ownership: a daily_seal is plain data (the caller's); daily_seal_wipe
 * clears its secret. Pure apart from libsodium and, in daily_seal_load,
 * the key files.
 */
#ifndef REPLAYD_SERVER_DAILY_SEAL_H
#define REPLAYD_SERVER_DAILY_SEAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../core/civil.h"

#define DAILY_SEAL_KEY_BYTES 32
#define DAILY_SEAL_HASH_BYTES 32

typedef struct daily_seal {
    bool sealed;     /* false: daily_seeds = public */
    int64_t from_day; /* the first sealed date, as a day number */
    unsigned char key[DAILY_SEAL_KEY_BYTES];
} daily_seal;

/* What a sealed date publishes: its reveal and seed (only once the date
 * is open) and its commitment (always). */
typedef struct daily_sealed {
    uint32_t seed;
    unsigned char reveal[DAILY_SEAL_HASH_BYTES];
    unsigned char commitment[DAILY_SEAL_HASH_BYTES];
} daily_sealed;

/* Loads (or, on first start, makes) keys/daily.key and keys/daily.json
 * under data_dir; now_ms dates a new key's sealed_from: its UTC day, or
 * the next when today_published (today's public daily was already
 * issued). false with a message on an unreadable or malformed file. */
bool daily_seal_load(daily_seal *s, const char *data_dir, int64_t now_ms, bool today_published, char *err,
                     size_t err_len);

/* Whether data_dir holds a daily key already (daily_seal_load reads it
 * rather than making one). */
bool daily_seal_exists(const char *data_dir);

/* Whether a sealed deployment serves no daily on date d, today being
 * today: d is before sealed_from and not over (its public seed was
 * published before the seal; new tokens would spread it). */
bool daily_seal_closed(const daily_seal *s, civil_date d, civil_date today);

/* Whether date d's seed is sealed under s. */
bool daily_seal_applies(const daily_seal *s, civil_date d);

/* The derivation of d under key (the header's formulas). */
void daily_seal_derive(const unsigned char key[DAILY_SEAL_KEY_BYTES], civil_date d,
                       daily_sealed *out);

/* The id the daily key's fingerprint is recorded under in the database,
 * beside the signing keys' (which count up from 1) and token-hash.key's 0. */
#define DAILY_SEAL_KEY_ID 4294967295u
#define DAILY_SEAL_FINGERPRINT_HEX 64

/* What the nodes of one database compare (serve.c records it there, as
 * for the other keys): BLAKE2b-256, in hex, of the key and the first
 * sealed day, since nodes that differ in either publish different seeds. */
void daily_seal_fingerprint(const daily_seal *s, char out[DAILY_SEAL_FINGERPRINT_HEX + 1]);

void daily_seal_wipe(daily_seal *s);

#endif
