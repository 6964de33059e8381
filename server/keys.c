#include "keys.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "parse.h"

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

/* Highest existing mac-<id>.key id, 0 when none. */
static uint32_t highest_id(const char *keys_dir)
{
    DIR *d = opendir(keys_dir);
    uint32_t best = 0;
    if (!d)
        return 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        char num[16];
        size_t len = strlen(e->d_name);
        if (len < 9 || strncmp(e->d_name, "mac-", 4) != 0 || strcmp(e->d_name + len - 4, ".key") != 0 ||
            len - 8 >= sizeof num)
            continue;
        memcpy(num, e->d_name + 4, len - 8);
        num[len - 8] = '\0';
        uint32_t id;
        if (parse_u32(num, &id) && id > best)
            best = id;
    }
    closedir(d);
    return best;
}

uint32_t keys_generate(const char *data_dir, char *err, size_t err_len)
{
    char dir[600], path[700];
    if (sodium_init() < 0) {
        snprintf(err, err_len, "libsodium failed to initialise");
        return 0;
    }
    snprintf(dir, sizeof dir, "%s/keys", data_dir);
    if (!ensure_dir(data_dir, 0700, err, err_len) || !ensure_dir(dir, 0700, err, err_len))
        return 0;
    uint32_t id = highest_id(dir) + 1;
    unsigned char mac[crypto_auth_KEYBYTES], pk[crypto_sign_PUBLICKEYBYTES], sk[crypto_sign_SECRETKEYBYTES];
    crypto_auth_keygen(mac);
    crypto_sign_keypair(pk, sk);
    bool ok = true;
    /* mac-<id>.key last: its presence is what makes the id exist */
    key_path(path, sizeof path, data_dir, "sign", id);
    ok = write_secret(dir, path, sk, sizeof sk, err, err_len);
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
    snprintf(dir, sizeof dir, "%s/keys", data_dir);
    if (!ensure_dir(data_dir, 0700, err, err_len) || !ensure_dir(dir, 0700, err, err_len))
        return false;
    snprintf(path, sizeof path, "%s/token-hash.key", dir);
    if (access(path, F_OK) != 0) {
        unsigned char k[crypto_generichash_KEYBYTES];
        crypto_generichash_keygen(k);
        bool ok = write_secret(dir, path, k, sizeof k, err, err_len);
        sodium_memzero(k, sizeof k);
        if (!ok)
            return false;
    }
    if (!read_secret(path, kr->token_hash_key, sizeof kr->token_hash_key, err, err_len))
        return false;
    uint32_t top = highest_id(dir);
    if (top == 0 && (top = keys_generate(data_dir, err, err_len)) == 0)
        return false;
    for (uint32_t id = 1; id <= top; id++) {
        key_path(path, sizeof path, data_dir, "mac", id);
        if (access(path, F_OK) != 0)
            continue; /* a retired id its operator removed */
        if (kr->count == KEYS_MAX) {
            snprintf(err, err_len, "more than %d key ids", KEYS_MAX);
            return false;
        }
        key_entry *k = &kr->keys[kr->count];
        k->id = id;
        if (!read_secret(path, k->mac, sizeof k->mac, err, err_len))
            return false;
        key_path(path, sizeof path, data_dir, "sign", id);
        if (!read_secret(path, k->sign_sk, sizeof k->sign_sk, err, err_len))
            return false;
        crypto_sign_ed25519_sk_to_pk(k->sign_pk, k->sign_sk);
        kr->current = kr->count;
        kr->count++;
    }
    return true;
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
        bool ours = (len > 4 && strcmp(e->d_name + len - 4, ".key") == 0) ||
                    (len > 8 && strcmp(e->d_name + len - 8, ".key.tmp") == 0);
        if (!ours)
            continue;
        char path[900];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        ok = unlink(path) == 0 && ok;
    }
    closedir(d);
    return ok && sync_dir(dir);
}

bool keys_load(keyring *kr, const char *data_dir, bool nothing_signed_yet, bool *repaired,
               char *err, size_t err_len)
{
    *repaired = false;
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

const key_entry *keys_by_id(const keyring *kr, uint32_t id)
{
    for (int i = 0; i < kr->count; i++)
        if (kr->keys[i].id == id)
            return &kr->keys[i];
    return NULL;
}

const key_entry *keys_current(const keyring *kr)
{
    return kr->count ? &kr->keys[kr->current] : NULL;
}

void keys_wipe(keyring *kr)
{
    sodium_memzero(kr, sizeof *kr);
}
