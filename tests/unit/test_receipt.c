/* Unit tests for server/trust/receipt.c and the key lifecycle of server/trust/keys.c:
 * the v2 receipt is exactly docs/API.md's worked example (text and
 * signature, read from the document), v1 receipts still verify, a retired
 * key checks receipts but MACs nothing, and `keygen --retire`'s files. */
#include "../check.h"

#include <dirent.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../core/civil.h"
#include "../../server/trust/keys.h"
#include "../../server/trust/receipt.h"

/* The example key of docs/API.md: the Ed25519 seed 0x00..0x1f, id 7. */
static void example_keyring(keyring *kr)
{
    unsigned char seed[crypto_sign_SEEDBYTES];
    for (int i = 0; i < (int)sizeof seed; i++)
        seed[i] = (unsigned char)i;
    memset(kr, 0, sizeof *kr);
    kr->keys[0].id = 7;
    crypto_sign_seed_keypair(kr->keys[0].sign_pk, kr->keys[0].sign_sk, seed);
    kr->count = 1;
    kr->current = 0;
}

/* The example's fields: a daily of 2026-12-02 (Pipes 3, seed 3715984154). */
static play example_play;
static uint8_t example_hash[32];
static receipt_fields example_fields(void)
{
    memset(&example_play, 0, sizeof example_play);
    example_play.player_id = 42;
    example_play.g = game_find("pipes");
    example_play.level = 3;
    example_play.seed = 3715984154u;
    example_play.version = 2;
    example_play.day = (int32_t)civil_to_days((civil_date){ 2026, 12, 2 });
    sodium_hex2bin(example_hash, sizeof example_hash,
                   "50d858e0985ecc7f60418aaf0cc5ab587f42c2570a884095a9e8ccacd0f6545c", 64, NULL, NULL,
                   NULL);
    return (receipt_fields){ &example_play, "5f0c2a9e3b7d4c1a8e6f0b2d9c4a7e13", 1840, true,
                             1796220187123LL, example_hash };
}

/* The fenced block after `marker` in docs/API.md, lines joined by "\n"
 * without a trailing one. */
static bool doc_block(const char *marker, char *out, size_t len)
{
    FILE *f = fopen("docs/API.md", "r");
    char line[512];
    int state = 0; /* 0: before the marker, 1: before the fence, 2: inside */
    size_t n = 0;
    out[0] = '\0';
    while (f && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (state == 0 && strstr(line, marker)) {
            state = 1;
        } else if (state == 1 && strncmp(line, "```", 3) == 0) {
            state = 2;
        } else if (state == 2 && strncmp(line, "```", 3) == 0) {
            fclose(f);
            return n > 0;
        } else if (state == 2) {
            int w = snprintf(out + n, len - n, "%s%s", n ? "\n" : "", line);
            if (w < 0 || (size_t)w >= len - n)
                break;
            n += (size_t)w;
        }
    }
    if (f)
        fclose(f);
    return false;
}

static void v2_is_the_documented_example(void)
{
    keyring kr;
    example_keyring(&kr);
    receipt_fields f = example_fields();
    char text[1024], want_receipt[256], key_block[256], msg[RECEIPT_MESSAGE_MAX], got[256];
    CHECK(doc_block("receipt-example-text", text, sizeof text));
    CHECK(doc_block("receipt-example-receipt", want_receipt, sizeof want_receipt));
    CHECK(doc_block("receipt-example-key", key_block, sizeof key_block));
    size_t n = receipt_message(RECEIPT_V2, &f, msg, sizeof msg);
    CHECK(n == strlen(text));
    CHECK(strcmp(msg, text) == 0);
    CHECK(msg[n - 1] != '\n');
    CHECK_EQ(receipt_sign(&kr, &f, got, sizeof got), 0);
    CHECK(strcmp(got, want_receipt) == 0);
    char b64[64];
    sodium_bin2base64(b64, sizeof b64, kr.keys[0].sign_pk, 32, sodium_base64_VARIANT_URLSAFE_NO_PADDING);
    CHECK(strstr(key_block, b64) != NULL);
    CHECK(strstr(key_block, "key_id      7") != NULL);
    CHECK_EQ(receipt_verify(&kr, &f, got), 0);
}

static void v2_covers_every_field(void)
{
    keyring kr;
    example_keyring(&kr);
    receipt_fields f = example_fields();
    char r[256];
    CHECK_EQ(receipt_sign(&kr, &f, r, sizeof r), 0);
    receipt_fields g = f;
    g.completed = false;
    CHECK(receipt_verify(&kr, &g, r) != 0);
    g = f;
    g.submitted_at_ms++;
    CHECK(receipt_verify(&kr, &g, r) != 0);
    g = f;
    g.score = 1841;
    CHECK(receipt_verify(&kr, &g, r) != 0);
    play level_play = example_play;
    level_play.day = -1; /* the same run on the level board is another statement */
    g = f;
    g.p = &level_play;
    CHECK(receipt_verify(&kr, &g, r) != 0);
    char msg[RECEIPT_MESSAGE_MAX];
    CHECK(receipt_message(RECEIPT_V2, &g, msg, sizeof msg) > 0);
    CHECK(strstr(msg, "\n1\nlevel:pipes:3\n1796220187123\n") != NULL);
    /* a v2 signature read as v1 (prefix dropped) does not verify */
    CHECK(receipt_verify(&kr, &f, r + 3) != 0);
    CHECK(receipt_verify(&kr, &f, "v2.8.AAAA") != 0);
    CHECK(receipt_verify(&kr, &f, "v3.7.AAAA") != 0);
}

static void v1_still_verifies(void)
{
    keyring kr;
    example_keyring(&kr);
    receipt_fields f = example_fields();
    char msg[RECEIPT_MESSAGE_MAX], r[256];
    size_t n = receipt_message(RECEIPT_V1, &f, msg, sizeof msg);
    CHECK(strcmp(msg, "replayd-receipt-v1\n5f0c2a9e3b7d4c1a8e6f0b2d9c4a7e13\n42\npipes\n3\n3715984154\n2\n"
                      "1840\n50d858e0985ecc7f60418aaf0cc5ab587f42c2570a884095a9e8ccacd0f6545c") == 0);
    unsigned char sig[crypto_sign_BYTES];
    crypto_sign_detached(sig, NULL, (const unsigned char *)msg, n, kr.keys[0].sign_sk);
    strcpy(r, "7.");
    sodium_bin2base64(r + 2, sizeof r - 2, sig, sizeof sig, sodium_base64_VARIANT_URLSAFE_NO_PADDING);
    CHECK_EQ(receipt_verify(&kr, &f, r), 0);
    receipt_fields g = f;
    g.score = 1;
    CHECK(receipt_verify(&kr, &g, r) != 0);
    /* v1 does not cover completed or the time: those may differ */
    g = f;
    g.completed = false;
    g.submitted_at_ms = 1;
    CHECK_EQ(receipt_verify(&kr, &g, r), 0);
}

static void retired_key_checks_but_never_signs(void)
{
    keyring kr;
    example_keyring(&kr);
    receipt_fields f = example_fields();
    char r[256];
    CHECK_EQ(receipt_sign(&kr, &f, r, sizeof r), 0);
    /* id 7 retired (secrets gone), id 8 current */
    sodium_memzero(kr.keys[0].sign_sk, sizeof kr.keys[0].sign_sk);
    kr.keys[0].retired = true;
    kr.keys[1].id = 8;
    crypto_sign_keypair(kr.keys[1].sign_pk, kr.keys[1].sign_sk);
    kr.count = 2;
    kr.current = 1;
    CHECK(keys_by_id(&kr, 7) == NULL);
    CHECK(keys_public_by_id(&kr, 7) == &kr.keys[0]);
    CHECK(keys_by_id(&kr, 8) == &kr.keys[1]);
    CHECK_EQ(receipt_verify(&kr, &f, r), 0);
    char r2[256];
    CHECK_EQ(receipt_sign(&kr, &f, r2, sizeof r2), 0);
    CHECK(strncmp(r2, "v2.8.", 5) == 0);
}

static bool exists(const char *dir, const char *name)
{
    char p[700];
    snprintf(p, sizeof p, "%s/keys/%s", dir, name);
    return access(p, F_OK) == 0;
}

static void retire_files_and_reload(void)
{
    char dir[] = "/tmp/replayd-receipt-XXXXXX", err[256];
    CHECK(mkdtemp(dir) != NULL);
    keyring kr;
    bool repaired;
    CHECK(keys_load(&kr, dir, true, &repaired, err, sizeof err));
    CHECK_EQ(kr.count, 1);
    CHECK(kr.keys[0].valid_from_ms > 1700000000000LL);
    unsigned char pk1[32];
    memcpy(pk1, kr.keys[0].sign_pk, 32);
    key_entry k;
    CHECK(!keys_retire(dir, 1, &k, err, sizeof err)); /* the current key */
    CHECK(strstr(err, "current") != NULL);
    CHECK(!keys_retire(dir, 5, &k, err, sizeof err)); /* no such key */
    CHECK_EQ(keys_generate(dir, err, sizeof err), 2);
    CHECK(keys_retire(dir, 1, &k, err, sizeof err));
    CHECK(k.retired && k.valid_until_ms >= k.valid_from_ms && memcmp(k.sign_pk, pk1, 32) == 0);
    CHECK(!exists(dir, "sign-1.key") && !exists(dir, "mac-1.key") && exists(dir, "pub-1.json"));
    int64_t until = k.valid_until_ms;
    CHECK(keys_retire(dir, 1, &k, err, sizeof err)); /* again: nothing changes */
    CHECK_EQ(k.valid_until_ms, until);
    CHECK(!keys_retire(dir, 2, &k, err, sizeof err)); /* now 2 is current */
    CHECK(keys_load(&kr, dir, false, &repaired, err, sizeof err));
    CHECK_EQ(kr.count, 2);
    CHECK(kr.keys[0].retired && kr.keys[0].valid_until_ms == until);
    CHECK(memcmp(kr.keys[0].sign_pk, pk1, 32) == 0);
    CHECK_EQ(keys_current(&kr)->id, 2);
    CHECK(keys_by_id(&kr, 1) == NULL && keys_public_by_id(&kr, 1) != NULL);
    /* an id is never reused, even when the highest was retired */
    CHECK_EQ(keys_generate(dir, err, sizeof err), 3);
    CHECK(keys_retire(dir, 2, &k, err, sizeof err));
    CHECK_EQ(keys_generate(dir, err, sizeof err), 4);
    CHECK(keys_load(&kr, dir, false, &repaired, err, sizeof err));
    CHECK_EQ(kr.count, 4);
    CHECK_EQ(keys_current(&kr)->id, 4);
    char cmd[800];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK_EQ(system(cmd), 0);
}

/* A data dir from before public records: each key gets one at its next
 * load, dated from its signing key file, and can then be retired. A record
 * that names another public key than its signing key is an error. */
static void keys_without_records_are_upgraded(void)
{
    char dir[] = "/tmp/replayd-receipt-XXXXXX", err[256], path[700];
    CHECK(mkdtemp(dir) != NULL);
    keyring kr;
    bool repaired;
    CHECK_EQ(keys_generate(dir, err, sizeof err), 1);
    CHECK_EQ(keys_generate(dir, err, sizeof err), 2);
    snprintf(path, sizeof path, "%s/keys/pub-1.json", dir);
    CHECK_EQ(unlink(path), 0);
    snprintf(path, sizeof path, "%s/keys/pub-2.json", dir);
    CHECK_EQ(unlink(path), 0);
    CHECK(keys_load(&kr, dir, false, &repaired, err, sizeof err));
    CHECK_EQ(kr.count, 2);
    CHECK(exists(dir, "pub-1.json") && exists(dir, "pub-2.json"));
    struct stat st;
    snprintf(path, sizeof path, "%s/keys/sign-1.key", dir);
    CHECK_EQ(stat(path, &st), 0);
    CHECK_EQ(kr.keys[0].valid_from_ms / 1000, (int64_t)st.st_mtim.tv_sec);
    key_entry k;
    unsigned char pk1[32];
    memcpy(pk1, kr.keys[0].sign_pk, 32);
    CHECK(keys_retire(dir, 1, &k, err, sizeof err));
    CHECK(memcmp(k.sign_pk, pk1, 32) == 0);
    /* key 2's record naming another public key: refused at load */
    snprintf(path, sizeof path, "%s/keys/pub-2.json", dir);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (f) {
        fputs("{\"key_id\":2,\"alg\":\"Ed25519\",\"public_key\":"
              "\"A6EHv_POEL4dcN0Y50vAmWfk1jCbpQ1fHdyGZBJVMbg\",\"valid_from_ms\":1,\"valid_until_ms\":null}\n",
              f);
        fclose(f);
    }
    char cmd[700];
    CHECK(!keys_load(&kr, dir, false, &repaired, err, sizeof err));
    CHECK(strstr(err, "does not match") != NULL);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK_EQ(system(cmd), 0);
}

int main(void)
{
    if (sodium_init() < 0)
        return 1;
    RUN(v2_is_the_documented_example);
    RUN(v2_covers_every_field);
    RUN(v1_still_verifies);
    RUN(retired_key_checks_but_never_signs);
    RUN(retire_files_and_reload);
    RUN(keys_without_records_are_upgraded);
    CHECK_DONE();
}
