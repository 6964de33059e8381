#include "keys.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "../base/parse.h"
#include "../base/private_file.h"

static bool sync_dir(const char *dir);

/* Creates path if missing; a new directory is made durable in its parent. */
static bool ensure_dir(const char *path, mode_t mode, char *err, size_t err_len)
{
    if (mkdir(path, mode) == 0) {
        char parent[700];
        snprintf(parent, sizeof parent, "%s/..", path);
        sync_dir(parent);
        return true;
    }
    if (errno == EEXIST)
        return true;
    snprintf(err, err_len, "cannot create %s: %s", path, strerror(errno));
    return false;
}

/* <data_dir>/keys into dir, both made (0700) when missing. */
static bool keys_dir(const char *data_dir, char *dir, size_t dir_len, char *err, size_t err_len)
{
    snprintf(dir, dir_len, "%s/keys", data_dir);
    return ensure_dir(data_dir, 0700, err, err_len) && ensure_dir(dir, 0700, err, err_len);
}

/* fsync of a directory, so a rename or a new entry in it is durable. */
static bool sync_dir(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    if (fd < 0)
        return false;
    bool ok = fsync(fd) == 0;
    return close(fd) == 0 && ok;
}

/* Crash-safe: the secret goes to <path>.tmp, is fsynced, renamed over
 * <path> and the directory fsynced, so <path> is either absent or whole
 * whenever the process dies. */
static bool write_secret(const char *dir, const char *path, const void *data, size_t len,
                         char *err, size_t err_len)
{
    char tmp[760];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0) {
        snprintf(err, err_len, "cannot create %s: %s", tmp, strerror(errno));
        return false;
    }
    bool ok = write(fd, data, len) == (ssize_t)len && fsync(fd) == 0;
    ok = close(fd) == 0 && ok;
    ok = ok && rename(tmp, path) == 0 && sync_dir(dir);
    if (!ok) {
        snprintf(err, err_len, "cannot write %s: %s", path, strerror(errno));
        unlink(tmp);
    }
    return ok;
}

static bool read_secret(const char *path, void *data, size_t len, char *err, size_t err_len)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        snprintf(err, err_len, "cannot open %s: %s", path, strerror(errno));
        return false;
    }
    struct stat st;
    bool ok = fstat(fd, &st) == 0 && (size_t)st.st_size == len && read(fd, data, len) == (ssize_t)len;
    close(fd);
    if (!ok)
        snprintf(err, err_len, "%s: not a %zu-byte key file", path, len);
    return ok;
}

static void key_path(char *buf, size_t n, const char *dir, const char *kind, uint32_t id)
{
    snprintf(buf, n, "%s/keys/%s-%u.key", dir, kind, (unsigned)id);
}

/* The id of a file named <prefix><id><suffix>, 0 for any other name. */
static uint32_t id_of_name(const char *name, const char *prefix, const char *suffix)
{
    char num[16];
    size_t len = strlen(name), pl = strlen(prefix), sl = strlen(suffix);
    if (len <= pl + sl || strncmp(name, prefix, pl) != 0 || strcmp(name + len - sl, suffix) != 0 ||
        len - pl - sl >= sizeof num)
        return 0;
    memcpy(num, name + pl, len - pl - sl);
    num[len - pl - sl] = '\0';
    uint32_t id;
    return parse_u32(num, &id) ? id : 0;
}

/* Highest id with a mac-<id>.key or a pub-<id>.json (a retired id keeps
 * its number taken), 0 when none. */
static uint32_t highest_id(const char *keys_dir)
{
    DIR *d = opendir(keys_dir);
    uint32_t best = 0;
    if (!d)
        return 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        uint32_t id = id_of_name(e->d_name, "mac-", ".key");
        if (id == 0)
            id = id_of_name(e->d_name, "pub-", ".json");
        if (id > best)
            best = id;
    }
    closedir(d);
    return best;
}

static int64_t wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void record_path(char *buf, size_t n, const char *dir, uint32_t id)
{
    snprintf(buf, n, "%s/keys/pub-%u.json", dir, (unsigned)id);
}

/* Writes k's public record, crash-safe. */
static bool write_record(const char *data_dir, const key_entry *k, char *err, size_t err_len)
{
    char dir[600], path[700];
    char b64[sodium_base64_ENCODED_LEN(crypto_sign_PUBLICKEYBYTES, sodium_base64_VARIANT_URLSAFE_NO_PADDING)];
    sodium_bin2base64(b64, sizeof b64, k->sign_pk, sizeof k->sign_pk, sodium_base64_VARIANT_URLSAFE_NO_PADDING);
    json_t *o = json_pack("{s:I,s:s,s:s,s:I,s:o}", "key_id", (json_int_t)k->id, "alg", "Ed25519",
                          "public_key", b64, "valid_from_ms", (json_int_t)k->valid_from_ms,
                          "valid_until_ms",
                          k->valid_until_ms ? json_integer(k->valid_until_ms) : json_null());
    char *text = o ? json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
    json_decref(o);
    if (!text) {
        snprintf(err, err_len, "out of memory");
        return false;
    }
    snprintf(dir, sizeof dir, "%s/keys", data_dir);
    record_path(path, sizeof path, data_dir, k->id);
    size_t len = strlen(text);
    text[len] = '\n';
    bool ok = write_secret(dir, path, text, len + 1, err, err_len);
    free(text);
    return ok;
}

/* Reads id's public record into k (id, sign_pk, window, retired).
 * 1 when read, 0 when there is none, -1 (with err) when it is unreadable. */
static int read_record(const char *data_dir, uint32_t id, key_entry *k, char *err, size_t err_len)
{
    char path[700];
    record_path(path, sizeof path, data_dir, id);
    if (access(path, F_OK) != 0)
        return 0;
    json_error_t je;
    json_t *o = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
    const char *pk = json_string_value(json_object_get(o, "public_key"));
    json_t *from = json_object_get(o, "valid_from_ms"), *until = json_object_get(o, "valid_until_ms");
    size_t pk_len = 0;
    bool ok = o && pk && json_integer_value(json_object_get(o, "key_id")) == (json_int_t)id &&
              json_is_integer(from) && (json_is_null(until) || json_is_integer(until)) &&
              sodium_base642bin(k->sign_pk, sizeof k->sign_pk, pk, strlen(pk), NULL, &pk_len, NULL,
                                sodium_base64_VARIANT_URLSAFE_NO_PADDING) == 0 &&
              pk_len == sizeof k->sign_pk;
    if (ok) {
        k->id = id;
        k->valid_from_ms = json_integer_value(from);
        k->valid_until_ms = json_is_integer(until) ? json_integer_value(until) : 0;
        k->retired = k->valid_until_ms != 0;
    } else {
        snprintf(err, err_len, "%s: not a public key record", path);
    }
    json_decref(o);
    return ok ? 1 : -1;
}

/* When the signing key file of id was written (its mtime), for an id made
 * before public records existed. */
static int64_t sign_file_ms(const char *data_dir, uint32_t id)
{
    char path[700];
    struct stat st;
    key_path(path, sizeof path, data_dir, "sign", id);
    if (stat(path, &st) != 0)
        return 0;
    return (int64_t)st.st_mtim.tv_sec * 1000 + st.st_mtim.tv_nsec / 1000000;
}

/* <keys_dir>/token-hash.key, made when missing; its path in path. One per
 * key set, never rotated: it hashes the bearer tokens already handed out. */
static bool ensure_token_hash_key(const char *keys_dir, char *path, size_t path_len, char *err,
                                  size_t err_len)
{
    snprintf(path, path_len, "%s/token-hash.key", keys_dir);
    if (access(path, F_OK) == 0)
        return true;
    unsigned char k[crypto_generichash_KEYBYTES];
    crypto_generichash_keygen(k);
    bool ok = write_secret(keys_dir, path, k, sizeof k, err, err_len);
    sodium_memzero(k, sizeof k);
    return ok;
}

uint32_t keys_generate(const char *data_dir, char *err, size_t err_len)
{
    char dir[600], path[700];
    if (sodium_init() < 0) {
        snprintf(err, err_len, "libsodium failed to initialise");
        return 0;
    }
    if (!keys_dir(data_dir, dir, sizeof dir, err, err_len))
        return 0;
    /* every key a node needs: a copy of this directory is a whole key set */
    if (!ensure_token_hash_key(dir, path, sizeof path, err, err_len))
        return 0;
    uint32_t id = highest_id(dir) + 1;
    unsigned char mac[crypto_auth_KEYBYTES], pk[crypto_sign_PUBLICKEYBYTES], sk[crypto_sign_SECRETKEYBYTES];
    crypto_auth_keygen(mac);
    crypto_sign_keypair(pk, sk);
    key_entry rec;
    memset(&rec, 0, sizeof rec);
    rec.id = id;
    rec.valid_from_ms = wall_ms();
    memcpy(rec.sign_pk, pk, sizeof pk);
    bool ok = true;
    /* mac-<id>.key last: its presence is what makes the id exist */
    key_path(path, sizeof path, data_dir, "sign", id);
    ok = write_secret(dir, path, sk, sizeof sk, err, err_len);
    ok = ok && write_record(data_dir, &rec, err, err_len);
    key_path(path, sizeof path, data_dir, "mac", id);
    ok = ok && write_secret(dir, path, mac, sizeof mac, err, err_len);
    sodium_memzero(mac, sizeof mac);
    sodium_memzero(sk, sizeof sk);
    return ok ? id : 0;
}

static bool load_once(keyring *kr, const char *data_dir, char *err, size_t err_len)
{
    char dir[600], path[700];
    memset(kr, 0, sizeof *kr);
    if (sodium_init() < 0) {
        snprintf(err, err_len, "libsodium failed to initialise");
        return false;
    }
    if (!keys_dir(data_dir, dir, sizeof dir, err, err_len))
        return false;
    if (!ensure_token_hash_key(dir, path, sizeof path, err, err_len))
        return false;
    if (!read_secret(path, kr->token_hash_key, sizeof kr->token_hash_key, err, err_len))
        return false;
    uint32_t top = highest_id(dir);
    if (top == 0 && (top = keys_generate(data_dir, err, err_len)) == 0)
        return false;
    kr->current = -1;
    for (uint32_t id = 1; id <= top; id++) {
        if (kr->count == KEYS_MAX) {
            snprintf(err, err_len, "more than %d key ids", KEYS_MAX);
            return false;
        }
        key_entry *k = &kr->keys[kr->count];
        int rec = read_record(data_dir, id, k, err, err_len);
        if (rec < 0)
            return false;
        if (rec == 1 && k->retired) {
            /* public key only; secrets an interrupted retire left are not read */
            kr->count++;
            continue;
        }
        key_path(path, sizeof path, data_dir, "mac", id);
        if (access(path, F_OK) != 0) {
            memset(k, 0, sizeof *k);
            continue; /* an id its operator removed by hand, before retiring existed */
        }
        k->id = id;
        if (!read_secret(path, k->mac, sizeof k->mac, err, err_len))
            return false;
        key_path(path, sizeof path, data_dir, "sign", id);
        if (!read_secret(path, k->sign_sk, sizeof k->sign_sk, err, err_len))
            return false;
        unsigned char pk[crypto_sign_PUBLICKEYBYTES];
        crypto_sign_ed25519_sk_to_pk(pk, k->sign_sk);
        if (rec == 1 && memcmp(pk, k->sign_pk, sizeof pk) != 0) {
            snprintf(err, err_len, "key %u: pub-%u.json does not match sign-%u.key", (unsigned)id,
                     (unsigned)id, (unsigned)id);
            return false;
        }
        memcpy(k->sign_pk, pk, sizeof pk);
        if (rec == 0) {
            /* made before records existed: dated from its signing key file */
            k->valid_from_ms = sign_file_ms(data_dir, id);
            if (!write_record(data_dir, k, err, err_len))
                return false;
        }
        kr->current = kr->count;
        kr->count++;
    }
    if (kr->current < 0) {
        /* every id retired: a restart needs a key to sign with */
        if (keys_generate(data_dir, err, err_len) == 0)
            return false;
        return load_once(kr, data_dir, err, err_len);
    }
    return true;
}

/* A secret's name in <data_dir>/keys: <anything>.key (mac-, sign-,
 * token-hash, daily). */
static bool is_secret_name(const char *name)
{
    size_t len = strlen(name);
    return len > 4 && strcmp(name + len - 4, ".key") == 0;
}

/* Removes every key file (and leftover .tmp) of an interrupted first start. */
static bool remove_key_files(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return false;
    bool ok = true;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        bool ours = is_secret_name(e->d_name) ||
                    (len > 8 && strcmp(e->d_name + len - 8, ".key.tmp") == 0) ||
                    id_of_name(e->d_name, "pub-", ".json") != 0 ||
                    id_of_name(e->d_name, "pub-", ".json.tmp") != 0;
        if (!ours)
            continue;
        char path[900];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        ok = unlink(path) == 0 && ok;
    }
    closedir(d);
    return ok && sync_dir(dir);
}

/* Whether <data_dir>/keys (when it exists) and each *.key file in it
 * follow private_file.h's rule, a link's target checked; false with a
 * message naming the first that does not, its mode or owner. */
static bool keys_private(const char *data_dir, char *err, size_t err_len)
{
    char dir[600];
    snprintf(dir, sizeof dir, "%s/keys", data_dir);
    if (access(dir, F_OK) != 0 && errno == ENOENT)
        return true; /* nothing yet: keys_load makes it, private */
    if (!private_file_path(dir, err, err_len))
        return false;
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(err, err_len, "cannot read %s: %s", dir, strerror(errno));
        return false;
    }
    bool ok = true;
    struct dirent *e;
    while (ok && (e = readdir(d)) != NULL) {
        if (!is_secret_name(e->d_name))
            continue;
        char path[900];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        ok = private_file_path(path, err, err_len);
    }
    closedir(d);
    return ok;
}

bool keys_load(keyring *kr, const char *data_dir, bool nothing_signed_yet, bool *repaired,
               char *err, size_t err_len)
{
    *repaired = false;
    /* before anything is read, made or repaired: a key set others may read
     * is refused, never replaced */
    if (!keys_private(data_dir, err, err_len))
        return false;
    if (load_once(kr, data_dir, err, err_len))
        return true;
    if (!nothing_signed_yet)
        return false;
    /* A key file from an interrupted first start (an older build wrote in
     * place): nothing depends on it yet, so start the key set afresh. */
    char dir[600];
    snprintf(dir, sizeof dir, "%s/keys", data_dir);
    *repaired = true;
    if (!remove_key_files(dir)) {
        snprintf(err, err_len, "cannot remove the partial key files in %s", dir);
        return false;
    }
    return load_once(kr, data_dir, err, err_len);
}

bool keys_load_public(keyring *kr, const char *data_dir, char *err, size_t err_len)
{
    char dir[600], path[700];
    memset(kr, 0, sizeof *kr);
    if (sodium_init() < 0) {
        snprintf(err, err_len, "libsodium failed to initialise");
        return false;
    }
    snprintf(dir, sizeof dir, "%s/keys", data_dir);
    uint32_t top = highest_id(dir);
    for (uint32_t id = 1; id <= top; id++) {
        if (kr->count == KEYS_MAX) {
            snprintf(err, err_len, "more than %d key ids", KEYS_MAX);
            return false;
        }
        key_entry *k = &kr->keys[kr->count];
        int rec = read_record(data_dir, id, k, err, err_len);
        if (rec < 0)
            return false;
        if (rec == 0) {
            /* no record yet (made before records existed): the public half
             * of its signing key, if it is there */
            unsigned char sk[crypto_sign_SECRETKEYBYTES];
            key_path(path, sizeof path, data_dir, "sign", id);
            if (access(path, F_OK) != 0)
                continue;
            if (!read_secret(path, sk, sizeof sk, err, err_len))
                return false;
            crypto_sign_ed25519_sk_to_pk(k->sign_pk, sk);
            sodium_memzero(sk, sizeof sk);
            k->id = id;
            k->valid_from_ms = sign_file_ms(data_dir, id);
        }
        k->retired = true; /* nothing here signs */
        kr->count++;
    }
    return true;
}

const key_entry *keys_public_by_id(const keyring *kr, uint32_t id)
{
    for (int i = 0; i < kr->count; i++)
        if (kr->keys[i].id == id)
            return &kr->keys[i];
    return NULL;
}

const key_entry *keys_by_id(const keyring *kr, uint32_t id)
{
    const key_entry *k = keys_public_by_id(kr, id);
    return k && !k->retired ? k : NULL;
}

/* Whether an id above id is active (not retired): the one a restart
 * signs with, so id is not current. */
static bool has_successor(const char *data_dir, uint32_t id)
{
    char dir[600], path[700], tmp[160];
    snprintf(dir, sizeof dir, "%s/keys", data_dir);
    for (uint32_t later = highest_id(dir); later > id; later--) {
        key_entry other;
        memset(&other, 0, sizeof other);
        key_path(path, sizeof path, data_dir, "mac", later);
        if (access(path, F_OK) == 0 && read_record(data_dir, later, &other, tmp, sizeof tmp) >= 0 &&
            !other.retired)
            return true;
    }
    return false;
}

bool keys_retire(const char *data_dir, uint32_t id, key_entry *out, char *err, size_t err_len)
{
    char dir[600], mac[700], sign[700];
    memset(out, 0, sizeof *out);
    if (sodium_init() < 0) {
        snprintf(err, err_len, "libsodium failed to initialise");
        return false;
    }
    snprintf(dir, sizeof dir, "%s/keys", data_dir);
    key_path(mac, sizeof mac, data_dir, "mac", id);
    key_path(sign, sizeof sign, data_dir, "sign", id);
    int rec = read_record(data_dir, id, out, err, err_len);
    if (rec < 0)
        return false;
    if (rec == 0 || !out->retired) {
        if (access(mac, F_OK) != 0) {
            snprintf(err, err_len, "no key %u in %s", (unsigned)id, dir);
            return false;
        }
        if (!has_successor(data_dir, id)) {
            snprintf(err, err_len,
                     "key %u is the current key: add its successor (replayd keygen), restart every "
                     "node, then retire %u", (unsigned)id, (unsigned)id);
            return false;
        }
        if (rec == 0) {
            unsigned char sk[crypto_sign_SECRETKEYBYTES];
            if (!read_secret(sign, sk, sizeof sk, err, err_len))
                return false;
            crypto_sign_ed25519_sk_to_pk(out->sign_pk, sk);
            sodium_memzero(sk, sizeof sk);
            out->id = id;
            out->valid_from_ms = sign_file_ms(data_dir, id);
        }
        out->valid_until_ms = wall_ms();
        out->retired = true;
        if (!write_record(data_dir, out, err, err_len))
            return false;
    }
    /* the record says retired before any secret goes */
    if ((unlink(sign) != 0 && errno != ENOENT) || (unlink(mac) != 0 && errno != ENOENT) ||
        !sync_dir(dir)) {
        snprintf(err, err_len, "cannot remove the secrets of key %u: %s", (unsigned)id, strerror(errno));
        return false;
    }
    return true;
}

const key_entry *keys_current(const keyring *kr)
{
    return kr->count && !kr->keys[kr->current].retired ? &kr->keys[kr->current] : NULL;
}

bool keys_fingerprint(const keyring *kr, uint32_t key_id, char out[KEYS_FINGERPRINT_HEX + 1])
{
    unsigned char h[KEYS_FINGERPRINT_HEX / 2];
    crypto_generichash_state st;
    out[0] = '\0';
    static const char domain[] = "replayd key fingerprint v1";
    crypto_generichash_init(&st, NULL, 0, sizeof h);
    crypto_generichash_update(&st, (const unsigned char *)domain, sizeof domain);
    if (key_id == 0) {
        crypto_generichash_update(&st, kr->token_hash_key, sizeof kr->token_hash_key);
    } else {
        const key_entry *k = keys_by_id(kr, key_id);
        if (!k)
            return false;
        crypto_generichash_update(&st, k->mac, sizeof k->mac);
        crypto_generichash_update(&st, k->sign_pk, sizeof k->sign_pk);
    }
    crypto_generichash_final(&st, h, sizeof h);
    sodium_bin2hex(out, KEYS_FINGERPRINT_HEX + 1, h, sizeof h);
    return true;
}

void keys_wipe(keyring *kr)
{
    sodium_memzero(kr, sizeof *kr);
}

bool keys_write_file(const char *data_dir, const char *name, const void *data, size_t len,
                     char *err, size_t err_len)
{
    char dir[600], path[700];
    if (!keys_dir(data_dir, dir, sizeof dir, err, err_len))
        return false;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return write_secret(dir, path, data, len, err, err_len);
}

bool keys_read_file(const char *data_dir, const char *name, void *data, size_t len, char *err,
                    size_t err_len)
{
    char path[700];
    snprintf(path, sizeof path, "%s/keys/%s", data_dir, name);
    return read_secret(path, data, len, err, err_len);
}
