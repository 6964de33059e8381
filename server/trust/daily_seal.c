#include "daily_seal.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>
#include <sodium.h>

#include "keys.h"

#define DAY_MS 86400000LL
#define PREFIX "replayd-daily:"
#define MSG_LEN (sizeof PREFIX - 1 + 10)

static const char KEY_FILE[] = "daily.key";
static const char RECORD_FILE[] = "daily.json";

/* M = "replayd-daily:" || "YYYY-MM-DD" */
static void message(civil_date d, unsigned char out[MSG_LEN])
{
    char date[11];
    civil_format(d, date);
    memcpy(out, PREFIX, sizeof PREFIX - 1);
    memcpy(out + sizeof PREFIX - 1, date, 10);
}

void daily_seal_derive(const unsigned char key[DAILY_SEAL_KEY_BYTES], civil_date d,
                       daily_sealed *out)
{
    unsigned char m[MSG_LEN];
    message(d, m);
    crypto_auth_hmacsha256_state h;
    crypto_auth_hmacsha256_init(&h, key, DAILY_SEAL_KEY_BYTES);
    crypto_auth_hmacsha256_update(&h, m, sizeof m);
    crypto_auth_hmacsha256_final(&h, out->reveal);
    sodium_memzero(&h, sizeof h);
    out->seed = (uint32_t)out->reveal[0] << 24 | (uint32_t)out->reveal[1] << 16 |
                (uint32_t)out->reveal[2] << 8 | (uint32_t)out->reveal[3];
    crypto_hash_sha256_state c;
    crypto_hash_sha256_init(&c);
    crypto_hash_sha256_update(&c, m, sizeof m);
    crypto_hash_sha256_update(&c, out->reveal, sizeof out->reveal);
    crypto_hash_sha256_final(&c, out->commitment);
}

bool daily_seal_applies(const daily_seal *s, civil_date d)
{
    return s->sealed && civil_to_days(d) >= s->from_day;
}

void daily_seal_fingerprint(const daily_seal *s, char out[DAILY_SEAL_FINGERPRINT_HEX + 1])
{
    static const char domain[] = "replayd daily key fingerprint v1";
    unsigned char h[DAILY_SEAL_FINGERPRINT_HEX / 2], day[8];
    uint64_t from = (uint64_t)s->from_day;
    for (int i = 0; i < 8; i++)
        day[i] = (unsigned char)(from >> (8 * i));
    crypto_generichash_state st;
    crypto_generichash_init(&st, NULL, 0, sizeof h);
    crypto_generichash_update(&st, (const unsigned char *)domain, sizeof domain);
    crypto_generichash_update(&st, s->key, sizeof s->key);
    crypto_generichash_update(&st, day, sizeof day);
    crypto_generichash_final(&st, h, sizeof h);
    sodium_bin2hex(out, DAILY_SEAL_FINGERPRINT_HEX + 1, h, sizeof h);
}

void daily_seal_wipe(daily_seal *s)
{
    sodium_memzero(s->key, sizeof s->key);
}

static bool exists(const char *data_dir, const char *name)
{
    char path[700];
    snprintf(path, sizeof path, "%s/keys/%s", data_dir, name);
    return access(path, F_OK) == 0;
}

/* keys/daily.json: {"sealed_from":"YYYY-MM-DD"}; absent: every date. */
static bool read_record(daily_seal *s, const char *data_dir, char *err, size_t err_len)
{
    char path[700];
    snprintf(path, sizeof path, "%s/keys/%s", data_dir, RECORD_FILE);
    s->from_day = INT64_MIN;
    if (access(path, F_OK) != 0) {
        if (errno == ENOENT)
            return true;
        snprintf(err, err_len, "%s: %s", path, strerror(errno));
        return false;
    }
    json_error_t je;
    json_t *doc = json_load_file(path, 0, &je);
    const char *from = json_string_value(json_object_get(doc, "sealed_from"));
    civil_date d;
    bool ok = from && civil_parse(from, &d);
    if (ok)
        s->from_day = civil_to_days(d);
    else
        snprintf(err, err_len, "%s: expected {\"sealed_from\":\"YYYY-MM-DD\"}", path);
    json_decref(doc);
    return ok;
}

bool daily_seal_exists(const char *data_dir)
{
    return exists(data_dir, KEY_FILE);
}

bool daily_seal_closed(const daily_seal *s, civil_date d, civil_date today)
{
    int64_t day = civil_to_days(d);
    return s->sealed && day < s->from_day && day >= civil_to_days(today);
}

bool daily_seal_load(daily_seal *s, const char *data_dir, int64_t now_ms, bool today_published, char *err,
                     size_t err_len)
{
    memset(s, 0, sizeof *s);
    s->sealed = true;
    if (sodium_init() < 0) {
        snprintf(err, err_len, "libsodium failed to initialise");
        return false;
    }
    if (!exists(data_dir, KEY_FILE)) {
        /* the record first: a key without one would seal today's daily,
         * which may already have been published and played */
        int64_t today = now_ms / DAY_MS - (now_ms % DAY_MS < 0);
        char date[11], text[64];
        civil_format(civil_from_days(today + (today_published ? 1 : 0)), date);
        int n = snprintf(text, sizeof text, "{\"sealed_from\":\"%s\"}\n", date);
        unsigned char k[DAILY_SEAL_KEY_BYTES];
        randombytes_buf(k, sizeof k);
        bool ok = keys_write_file(data_dir, RECORD_FILE, text, (size_t)n, err, err_len) &&
                  keys_write_file(data_dir, KEY_FILE, k, sizeof k, err, err_len);
        sodium_memzero(k, sizeof k);
        if (!ok)
            return false;
    }
    return keys_read_file(data_dir, KEY_FILE, s->key, sizeof s->key, err, err_len) &&
           read_record(s, data_dir, err, err_len);
}
