/* Unit tests for server/trust/daily_seal.c: the sealed derivation against the
 * JavaScript port's vectors (vectors/server/daily-sealed.json), and the
 * key files: made on first start with sealed_from the next UTC day, read
 * back unchanged, an operator's key without a record sealed on every date,
 * a malformed record refused. */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>
#include <sodium.h>

#include "../../server/trust/daily_seal.h"
#include "../check.h"

static void hex_of(const unsigned char *b, size_t n, char *out)
{
    sodium_bin2hex(out, 2 * n + 1, b, n);
}

static void matches_the_port_vectors(void)
{
    json_error_t je;
    json_t *doc = json_load_file("vectors/server/daily-sealed.json", 0, &je);
    CHECK(doc != NULL);
    const json_t *cases = json_object_get(doc, "sealed");
    CHECK(json_array_size(cases) >= 30);
    size_t i;
    const json_t *c;
    json_array_foreach(cases, i, c) {
        unsigned char key[DAILY_SEAL_KEY_BYTES];
        size_t kl = 0;
        const char *kh = json_string_value(json_object_get(c, "key"));
        CHECK(kh && sodium_hex2bin(key, sizeof key, kh, strlen(kh), NULL, &kl, NULL) == 0 &&
              kl == sizeof key);
        civil_date d;
        CHECK(civil_parse(json_string_value(json_object_get(c, "date")), &d));
        daily_sealed s;
        daily_seal_derive(key, d, &s);
        char reveal[65], commitment[65];
        hex_of(s.reveal, sizeof s.reveal, reveal);
        hex_of(s.commitment, sizeof s.commitment, commitment);
        CHECK(strcmp(reveal, json_string_value(json_object_get(c, "reveal"))) == 0);
        CHECK(strcmp(commitment, json_string_value(json_object_get(c, "commitment"))) == 0);
        CHECK_EQ(s.seed, json_integer_value(json_object_get(c, "seed")));
    }
    json_decref(doc);
}

static void temp_dir(char *dir, size_t n)
{
    snprintf(dir, n, "/tmp/replayd-seal-XXXXXX");
    if (!mkdtemp(dir))
        dir[0] = '\0';
}

static void remove_dir(const char *dir)
{
    char path[600];
    const char *names[] = { "keys/daily.key", "keys/daily.json", "keys/daily.key.tmp",
                            "keys/daily.json.tmp" };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        unlink(path);
    }
    snprintf(path, sizeof path, "%s/keys", dir);
    rmdir(path);
    rmdir(dir);
}

static void first_start_seals_from_its_own_day(void)
{
    char dir[64], err[256];
    temp_dir(dir, sizeof dir);
    CHECK(dir[0]);
    /* 2026-12-10T00:00:00.000Z on a deployment that published nothing yet */
    int64_t now = civil_to_days((civil_date){ 2026, 12, 10 }) * 86400000LL;
    daily_seal a;
    CHECK(!daily_seal_exists(dir));
    CHECK(daily_seal_load(&a, dir, now, false, err, sizeof err));
    CHECK(daily_seal_exists(dir));
    CHECK(!daily_seal_applies(&a, (civil_date){ 2026, 12, 9 }));
    CHECK(daily_seal_applies(&a, (civil_date){ 2026, 12, 10 }));
    CHECK(!daily_seal_closed(&a, (civil_date){ 2026, 12, 10 }, (civil_date){ 2026, 12, 10 }));
    daily_seal_wipe(&a);
    remove_dir(dir);
}

static void an_upgrade_seals_from_the_next_day_and_closes_its_own(void)
{
    char dir[64], err[256];
    temp_dir(dir, sizeof dir);
    CHECK(dir[0]);
    /* 2026-12-10T23:59:59.999Z, today's public daily already issued: the
     * day under way keeps its public seed for the tokens drawn, and is
     * served to nobody else */
    int64_t now = (civil_to_days((civil_date){ 2026, 12, 10 }) + 1) * 86400000LL - 1;
    daily_seal a, b;
    CHECK(daily_seal_load(&a, dir, now, true, err, sizeof err));
    CHECK(a.sealed);
    CHECK(!daily_seal_applies(&a, (civil_date){ 2026, 12, 10 }));
    CHECK(daily_seal_applies(&a, (civil_date){ 2026, 12, 11 }));
    civil_date today = { 2026, 12, 10 };
    CHECK(daily_seal_closed(&a, today, today));
    CHECK(!daily_seal_closed(&a, (civil_date){ 2026, 12, 9 }, today)); /* a past day: over */
    CHECK(!daily_seal_closed(&a, (civil_date){ 2026, 12, 11 }, today)); /* sealed */
    CHECK(!daily_seal_closed(&a, today, (civil_date){ 2026, 12, 11 })); /* over by then */
    /* a later start (another node with the same files) reads the same,
     * whatever it is told about today */
    CHECK(daily_seal_load(&b, dir, now + 5 * 86400000LL, false, err, sizeof err));
    CHECK(memcmp(a.key, b.key, sizeof a.key) == 0 && a.from_day == b.from_day);
    struct stat st;
    char path[600];
    snprintf(path, sizeof path, "%s/keys/daily.key", dir);
    CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0600 && st.st_size == 32);
    daily_seal_wipe(&a);
    daily_seal_wipe(&b);
    remove_dir(dir);
}

static void an_operators_key_without_a_record_seals_every_date(void)
{
    char dir[64], path[600], err[256];
    temp_dir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/keys", dir);
    CHECK(mkdir(path, 0700) == 0);
    snprintf(path, sizeof path, "%s/keys/daily.key", dir);
    FILE *f = fopen(path, "wb");
    unsigned char key[32];
    for (int i = 0; i < 32; i++)
        key[i] = (unsigned char)i;
    CHECK(f && fwrite(key, 1, sizeof key, f) == sizeof key);
    if (f)
        fclose(f);
    daily_seal s;
    CHECK(daily_seal_load(&s, dir, 0, false, err, sizeof err));
    CHECK(memcmp(s.key, key, sizeof key) == 0);
    CHECK(daily_seal_applies(&s, (civil_date){ 2026, 1, 1 }));
    /* a malformed record is refused, not read as "every date" */
    snprintf(path, sizeof path, "%s/keys/daily.json", dir);
    f = fopen(path, "w");
    CHECK(f && fputs("{\"sealed_from\":\"2026-13-40\"}\n", f) >= 0);
    if (f)
        fclose(f);
    CHECK(!daily_seal_load(&s, dir, 0, false, err, sizeof err));
    CHECK(strstr(err, "sealed_from") != NULL);
    /* a key of the wrong length is refused */
    unlink(path);
    snprintf(path, sizeof path, "%s/keys/daily.key", dir);
    f = fopen(path, "wb");
    CHECK(f && fwrite(key, 1, 16, f) == 16);
    if (f)
        fclose(f);
    CHECK(!daily_seal_load(&s, dir, 0, false, err, sizeof err));
    remove_dir(dir);
}

int main(void)
{
    RUN(matches_the_port_vectors);
    RUN(first_start_seals_from_its_own_day);
    RUN(an_upgrade_seals_from_the_next_day_and_closes_its_own);
    RUN(an_operators_key_without_a_record_seals_every_date);
    CHECK_DONE();
}
