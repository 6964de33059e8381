/* Unit tests for server/log/note.c and checkpoint.c: Go's sumdb/note
 * reference note (key, verifier key string and signature byte for byte),
 * the checkpoints tests/unit/log-vectors.mjs signs with node:crypto (and
 * docs/LOG.md's worked example), a flipped bit anywhere refused, other
 * keys' signatures skipped, a known key's bad signature refused, and
 * malformed notes, key strings and checkpoint bodies refused. */
#include "../check.h"

#include "log_fixture.h"
#include "../../server/log/checkpoint.h"
#include "../../server/log/note.h"

static json_t *vectors;

/* golang.org/x/mod/sumdb/note's documented example (note.go, note_test.go). */
static const char go_vkey[] = "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW";
static const char go_skey_b64[] = "AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz"; /* 0x01 || seed */
static const char go_text[] = "If you think cryptography is the answer to your problem,\n"
                              "then you don't know what your problem is.\n";
static const char go_note[] =
    "If you think cryptography is the answer to your problem,\n"
    "then you don't know what your problem is.\n"
    "\n"
    "\xe2\x80\x94 PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n";

typedef struct test_key {
    uint8_t pk[crypto_sign_PUBLICKEYBYTES];
    uint8_t sk[crypto_sign_SECRETKEYBYTES];
    note_verifier v;
} test_key;

static void make_key(test_key *k, const char *name, const uint8_t seed[crypto_sign_SEEDBYTES])
{
    crypto_sign_seed_keypair(k->pk, k->sk, seed);
    note_verifier_make(name, k->pk, &k->v);
}

static void seeded_key(test_key *k, const char *name, uint8_t fill)
{
    uint8_t seed[crypto_sign_SEEDBYTES];
    memset(seed, fill, sizeof seed);
    make_key(k, name, seed);
}

static void go_reference_note(void)
{
    uint8_t typed[40];
    size_t got = 0;
    CHECK_EQ(sodium_base642bin(typed, sizeof typed, go_skey_b64, strlen(go_skey_b64), NULL, &got,
                               NULL, sodium_base64_VARIANT_ORIGINAL),
             0);
    CHECK(got == 33 && typed[0] == 0x01);
    test_key k;
    make_key(&k, "PeterNeumann", typed + 1);
    CHECK_EQ(k.v.key_id, 0xc74f20a3u);
    char buf[1024];
    CHECK_EQ(note_verifier_encode(&k.v, buf, sizeof buf), strlen(go_vkey));
    CHECK(strcmp(buf, go_vkey) == 0);
    note_verifier parsed;
    CHECK_EQ(note_verifier_parse(go_vkey, strlen(go_vkey), &parsed), NOTE_OK);
    CHECK(strcmp(parsed.name, "PeterNeumann") == 0 && parsed.key_id == 0xc74f20a3u);
    CHECK(memcmp(parsed.public_key, k.pk, sizeof k.pk) == 0);

    note_signer s = { "PeterNeumann", k.sk };
    size_t n = 0;
    CHECK_EQ(note_sign(go_text, strlen(go_text), &s, 1, buf, sizeof buf, &n), NOTE_OK);
    CHECK(n == strlen(go_note) && strcmp(buf, go_note) == 0);
    size_t text_len = 0;
    bool by = false;
    CHECK_EQ(note_open(go_note, strlen(go_note), &parsed, 1, &text_len, &by), NOTE_OK);
    CHECK(text_len == strlen(go_text) && by);
}

/* Go's TestNewVerifier: every proper substring of the key string, and
 * every byte of it incremented, is refused. */
static void go_verifier_key_manglings(void)
{
    char b[sizeof go_vkey];
    note_verifier v;
    size_t len = strlen(go_vkey);
    int accepted = 0;
    for (size_t i = 0; i <= len; i++)
        for (size_t j = i + 1; j <= len; j++)
            if (i != 0 || j != len)
                accepted += note_verifier_parse(go_vkey + i, j - i, &v) == NOTE_OK;
    for (size_t i = 0; i < len; i++) {
        memcpy(b, go_vkey, sizeof b);
        b[i]++;
        accepted += note_verifier_parse(b, len, &v) == NOTE_OK;
    }
    CHECK_EQ(accepted, 0);
    /* A key of the wrong length and an unknown algorithm, with their ids
     * adjusted (Go's own cases), and an upper-case id. */
    static const char *bad[] = {
        "PeterNeumann+cc469956+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TWBADKEY==",
        "PeterNeumann+173116ae+ZRpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW",
        "PeterNeumann+C74F20A3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW",
        "Peter Neumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW",
        "+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW",
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
        CHECK_EQ(note_verifier_parse(bad[k], strlen(bad[k]), &v), NOTE_EFORMAT);
}

static void checkpoints_from_the_vectors(void)
{
    json_t *note = json_object_get(vectors, "note");
    const char *name = json_string_value(json_object_get(note, "key_name"));
    uint8_t seed[crypto_sign_SEEDBYTES];
    CHECK(name && unhex(json_string_value(json_object_get(note, "seed")), seed, sizeof seed));
    test_key k;
    make_key(&k, name, seed);
    uint8_t pk[crypto_sign_PUBLICKEYBYTES], id[4];
    CHECK(unhex(json_string_value(json_object_get(note, "public_key")), pk, sizeof pk));
    CHECK(memcmp(pk, k.pk, sizeof pk) == 0);
    CHECK(unhex(json_string_value(json_object_get(note, "key_id")), id, sizeof id));
    CHECK_EQ(k.v.key_id, (uint32_t)id[0] << 24 | (uint32_t)id[1] << 16 | (uint32_t)id[2] << 8 | id[3]);
    char vkey[NOTE_VERIFIER_KEY_MAX];
    CHECK(note_verifier_encode(&k.v, vkey, sizeof vkey) > 0);
    CHECK(strcmp(vkey, json_string_value(json_object_get(note, "verifier_key"))) == 0);

    size_t i;
    json_t *c;
    CHECK_EQ(json_array_size(json_object_get(note, "checkpoints")), 3);
    json_array_foreach(json_object_get(note, "checkpoints"), i, c) {
        const char *want = json_string_value(json_object_get(c, "note"));
        checkpoint cp;
        memset(&cp, 0, sizeof cp);
        snprintf(cp.origin, sizeof cp.origin, "%s", name);
        cp.size = (uint64_t)json_integer_value(json_object_get(c, "size"));
        CHECK(unhex(json_string_value(json_object_get(c, "root")), cp.root, sizeof cp.root));
        char out[1024];
        size_t n = 0;
        note_signer s = { name, k.sk };
        CHECK_EQ(checkpoint_sign(&cp, &s, 1, out, sizeof out, &n), CHECKPOINT_OK);
        CHECK(want && n == strlen(want) && strcmp(out, want) == 0);
        checkpoint back;
        CHECK_EQ(checkpoint_open(want, strlen(want), name, &k.v, 1, &back), CHECKPOINT_OK);
        CHECK(back.size == cp.size && memcmp(back.root, cp.root, sizeof cp.root) == 0);
        CHECK(strcmp(back.origin, name) == 0);
        CHECK_EQ(checkpoint_open(want, strlen(want), "another.example/log", &k.v, 1, &back),
                 CHECKPOINT_EORIGIN);
        CHECK_EQ(back.size, 0);
    }
}

/* The fenced block after marker in docs/LOG.md, each line ending in "\n". */
static bool doc_block(const char *marker, char *out, size_t len)
{
    FILE *f = fopen("docs/LOG.md", "r");
    char line[512];
    int state = 0; /* 0: before the marker, 1: before the fence, 2: inside */
    size_t n = 0;
    out[0] = '\0';
    while (f && fgets(line, sizeof line, f)) {
        if (state == 0 && strstr(line, marker)) {
            state = 1;
        } else if (state == 1 && strncmp(line, "```", 3) == 0) {
            state = 2;
        } else if (state == 2 && strncmp(line, "```", 3) == 0) {
            fclose(f);
            return n > 0;
        } else if (state == 2) {
            size_t l = strlen(line);
            if (n + l >= len)
                break;
            memcpy(out + n, line, l + 1);
            n += l;
        }
    }
    if (f)
        fclose(f);
    return false;
}

static void the_documented_example(void)
{
    char doc[1024];
    CHECK(doc_block("<!-- log-example-checkpoint -->", doc, sizeof doc));
    json_t *c = json_array_get(json_object_get(json_object_get(vectors, "note"), "checkpoints"), 1);
    CHECK_EQ(json_integer_value(json_object_get(c, "size")), 1);
    const char *want = json_string_value(json_object_get(c, "note"));
    CHECK(want && strcmp(doc, want) == 0);
    /* And it opens with the documented verifier key. */
    const char *vkey = "log.replayd.example/test+75ec5d4b+AU/QmczUfXiT3+nsJEFOyw2bVCAjKq0w2RxGW+M8vmXE";
    note_verifier v;
    checkpoint cp;
    CHECK_EQ(note_verifier_parse(vkey, strlen(vkey), &v), NOTE_OK);
    CHECK_EQ(checkpoint_open(doc, strlen(doc), "log.replayd.example/test", &v, 1, &cp), CHECKPOINT_OK);
    CHECK_EQ(cp.size, 1);
}

static size_t signed_checkpoint(const test_key *const *keys, const char *const *names, int n,
                                uint64_t size, char *out, size_t len)
{
    checkpoint cp;
    memset(&cp, 0, sizeof cp);
    snprintf(cp.origin, sizeof cp.origin, "log.replayd.example/test");
    cp.size = size;
    memset(cp.root, 0x5a, sizeof cp.root);
    note_signer s[4];
    for (int k = 0; k < n; k++)
        s[k] = (note_signer){ names[k], keys[k]->sk };
    size_t written = 0;
    return checkpoint_sign(&cp, s, n, out, len, &written) == CHECKPOINT_OK ? written : 0;
}

static void a_flipped_byte_is_refused(void)
{
    test_key k;
    seeded_key(&k, "log.replayd.example/test", 7);
    const test_key *keys[] = { &k };
    const char *names[] = { k.v.name };
    char note[1024];
    size_t n = signed_checkpoint(keys, names, 1, 12345, note, sizeof note);
    CHECK(n > 0);
    checkpoint back;
    CHECK_EQ(checkpoint_open(note, n, k.v.name, &k.v, 1, &back), CHECKPOINT_OK);
    CHECK_EQ(back.size, 12345);
    int accepted = 0;
    for (size_t at = 0; at < n; at++)
        for (int bit = 0; bit < 8; bit++) {
            note[at] ^= (char)(1 << bit);
            accepted += checkpoint_open(note, n, k.v.name, &k.v, 1, &back) == CHECKPOINT_OK;
            note[at] ^= (char)(1 << bit);
        }
    CHECK_EQ(accepted, 0);
    /* Cut short anywhere, or with a byte more: refused too. */
    for (size_t len = 0; len < n; len++)
        accepted += checkpoint_open(note, len, k.v.name, &k.v, 1, &back) == CHECKPOINT_OK;
    note[n] = '\n';
    accepted += checkpoint_open(note, n + 1, k.v.name, &k.v, 1, &back) == CHECKPOINT_OK;
    CHECK_EQ(accepted, 0);
}

static uint64_t next_random(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

/* Random edits (a byte changed, inserted or removed, the end cut) of a
 * signed checkpoint: only the untouched note opens. */
static void random_edits_are_refused(void)
{
    test_key k;
    seeded_key(&k, "log.replayd.example/test", 12);
    const test_key *keys[] = { &k };
    const char *names[] = { k.v.name };
    char note[512];
    size_t n = signed_checkpoint(keys, names, 1, 4242, note, sizeof note);
    CHECK(n > 0);
    uint64_t state = 0x2545f4914f6cdd1dULL;
    int accepted_changed = 0;
    for (int round = 0; round < 20000; round++) {
        char edited[600];
        size_t len = n;
        memcpy(edited, note, n);
        int edits = 1 + (int)(next_random(&state) % 3);
        for (int e = 0; e < edits && len > 0; e++) {
            uint64_t r = next_random(&state);
            size_t at = (size_t)((r >> 8) % len);
            char byte = (char)(r >> 40);
            switch (r % 4) {
            case 0:
                edited[at] = byte;
                break;
            case 1:
                memmove(edited + at + 1, edited + at, len - at);
                edited[at] = byte;
                len++;
                break;
            case 2:
                memmove(edited + at, edited + at + 1, len - at - 1);
                len--;
                break;
            default:
                len = at;
                break;
            }
        }
        checkpoint cp;
        if (checkpoint_open(edited, len, k.v.name, &k.v, 1, &cp) == CHECKPOINT_OK &&
            (len != n || memcmp(edited, note, n) != 0))
            accepted_changed++;
    }
    CHECK_EQ(accepted_changed, 0);
    /* Random bytes are never a note. */
    for (int round = 0; round < 2000; round++) {
        char junk[300];
        size_t len = (size_t)(next_random(&state) % sizeof junk);
        for (size_t b = 0; b < len; b++)
            junk[b] = (char)(next_random(&state) >> 24);
        size_t text_len = 0;
        CHECK(note_open(junk, len, &k.v, 1, &text_len, NULL) != NOTE_OK);
    }
}

static void other_keys_signatures(void)
{
    test_key ours, next, witness, stranger;
    seeded_key(&ours, "log.replayd.example/test", 1);
    seeded_key(&next, "log.replayd.example/test", 2); /* a rotation: same name */
    seeded_key(&witness, "witness.example/w1", 3);
    seeded_key(&stranger, "stranger.example", 4);
    const test_key *keys[] = { &witness, &ours, &next };
    const char *names[] = { witness.v.name, ours.v.name, next.v.name };
    char note[2048];
    size_t n = signed_checkpoint(keys, names, 3, 9, note, sizeof note);
    CHECK(n > 0);
    checkpoint cp;
    const char *origin = "log.replayd.example/test";
    /* Any one known key is enough; the others are skipped. */
    CHECK_EQ(checkpoint_open(note, n, origin, &ours.v, 1, &cp), CHECKPOINT_OK);
    CHECK_EQ(checkpoint_open(note, n, origin, &next.v, 1, &cp), CHECKPOINT_OK);
    CHECK_EQ(checkpoint_open(note, n, origin, &stranger.v, 1, &cp), NOTE_EUNKNOWN);
    CHECK_EQ(checkpoint_open(note, n, origin, NULL, 0, &cp), NOTE_EUNKNOWN);
    static note_verifier crowd[NOTE_KNOWN_MAX + 1];
    for (int k = 0; k <= NOTE_KNOWN_MAX; k++)
        crowd[k] = ours.v;
    CHECK_EQ(checkpoint_open(note, n, origin, crowd, NOTE_KNOWN_MAX, &cp), CHECKPOINT_OK);
    CHECK_EQ(checkpoint_open(note, n, origin, crowd, NOTE_KNOWN_MAX + 1, &cp), NOTE_EFORMAT);
    note_verifier both[3] = { stranger.v, next.v, ours.v };
    bool by[3] = { true, false, false };
    size_t text_len = 0;
    CHECK_EQ(note_open(note, n, both, 3, &text_len, by), NOTE_OK);
    CHECK(!by[0] && by[1] && by[2]);
    /* A key that shares the name but not the id, or the id but not the
     * name, is another key: skipped. */
    note_verifier lookalike = ours.v;
    lookalike.key_id ^= 1;
    CHECK_EQ(note_open(note, n, &lookalike, 1, &text_len, NULL), NOTE_EUNKNOWN);
    lookalike = ours.v;
    snprintf(lookalike.name, sizeof lookalike.name, "log.replayd.example/other");
    CHECK_EQ(note_open(note, n, &lookalike, 1, &text_len, NULL), NOTE_EUNKNOWN);
    /* A known key whose signature fails refuses the note, even when
     * another known key's signature is good. The last line is next's:
     * change one byte of its signature, keeping the base64 valid. */
    note[n - 10] = note[n - 10] == 'A' ? 'B' : 'A';
    CHECK_EQ(note_open(note, n, both, 3, &text_len, NULL), NOTE_EBADSIG);
    CHECK_EQ(note_open(note, n, &next.v, 1, &text_len, NULL), NOTE_EBADSIG);
    CHECK_EQ(note_open(note, n, &ours.v, 1, &text_len, NULL), NOTE_OK);
}

/* A note of text signed by ours, then the lines in extra appended. */
static size_t note_with(const test_key *k, const char *text, const char *extra, char *out, size_t len)
{
    note_signer s = { k->v.name, k->sk };
    size_t n = 0;
    if (note_sign(text, strlen(text), &s, 1, out, len, &n) != NOTE_OK)
        return 0;
    size_t e = strlen(extra);
    if (n + e >= len)
        return 0;
    memcpy(out + n, extra, e + 1);
    return n + e;
}

static void malformed_notes(void)
{
    test_key k, other;
    seeded_key(&k, "log.replayd.example/test", 9);
    seeded_key(&other, "other.example", 10);
    char note[NOTE_MAX + 4096];
    size_t text_len = 0, n;
    n = note_with(&k, "hello\n", "", note, sizeof note);
    CHECK(n > 0);
    CHECK_EQ(note_open(note, n, &k.v, 1, &text_len, NULL), NOTE_OK);
    CHECK_EQ(text_len, 6);

    /* A second signature line of the same key. */
    char dup[512];
    const char *line = strstr(note, "\xe2\x80\x94");
    n = note_with(&k, "hello\n", line, dup, sizeof dup);
    CHECK_EQ(note_open(dup, n, &k.v, 1, &text_len, NULL), NOTE_EFORMAT);

    static const char *bad_tails[] = {
        "\n",                        /* a trailing blank line: no signatures after it */
        "- other.example AAAAAAA=\n", /* not an em dash */
        "\xe2\x80\x94 other.example\n",
        "\xe2\x80\x94  AAAAAAA=\n",
        "\xe2\x80\x94 other example AAAAAAA=\n",
        "\xe2\x80\x94 other.example AAAA\n",      /* 3 bytes: shorter than an id and one byte */
        "\xe2\x80\x94 other.example AAAAAAA\n",   /* no padding */
        "\xe2\x80\x94 other.example AAAAAAB=\n",  /* non-zero spare bits */
        "\xe2\x80\x94 other.example AAAAAAA= \n", /* a trailing space */
        "\xe2\x80\x94 other.example AAAA-AA=\n",  /* base64url */
        "\xe2\x80\x94 other.example AAAAAAA=",    /* no final newline */
    };
    for (size_t t = 0; t < sizeof bad_tails / sizeof bad_tails[0]; t++) {
        n = note_with(&k, "hello\n", bad_tails[t], note, sizeof note);
        if (note_open(note, n, &k.v, 1, &text_len, NULL) != NOTE_EFORMAT)
            CHECK(!bad_tails[t]);
    }
    /* An unknown key's well-formed line is fine. */
    n = note_with(&k, "hello\n", "\xe2\x80\x94 other.example AAAAAAA=\n", note, sizeof note);
    CHECK_EQ(note_open(note, n, &k.v, 1, &text_len, NULL), NOTE_OK);

    /* Control characters and broken UTF-8, in the text or the signatures. */
    static const char *bad_texts[] = { "tab\there\n", "cr\r\n", "nul\n", "\xff\n", "\xc0\x80\n",
                                       "\xed\xa0\x80\n", "no newline" };
    note_signer s = { k.v.name, k.sk };
    for (size_t t = 0; t < sizeof bad_texts / sizeof bad_texts[0]; t++) {
        size_t len = strlen(bad_texts[t]) + (t == 2 ? 1 : 0); /* "nul\n" keeps a NUL */
        char text[32];
        memcpy(text, bad_texts[t], strlen(bad_texts[t]) + 1);
        if (t == 2)
            memcpy(text, "nul\0\n", 6);
        if (note_sign(text, len, &s, 1, note, sizeof note, &n) != NOTE_EFORMAT)
            CHECK(!bad_texts[t]);
    }
    n = note_with(&k, "hello\n", "", note, sizeof note);
    note[2] = '\r';
    CHECK_EQ(note_open(note, n, &k.v, 1, &text_len, NULL), NOTE_EFORMAT);
    note[2] = '\xff';
    CHECK_EQ(note_open(note, n, &k.v, 1, &text_len, NULL), NOTE_EFORMAT);
    CHECK_EQ(note_open("", 0, &k.v, 1, &text_len, NULL), NOTE_EFORMAT);
    CHECK_EQ(note_open("hello\n", 6, &k.v, 1, &text_len, NULL), NOTE_EFORMAT);

    /* Up to NOTE_SIGS_MAX signature lines; one more is refused. */
    char unknown[64];
    snprintf(unknown, sizeof unknown, "\xe2\x80\x94 other.example AAAAAAA=\n");
    char many[NOTE_SIGS_MAX * 32];
    size_t at = 0;
    for (int k2 = 0; k2 < NOTE_SIGS_MAX - 1; k2++) {
        memcpy(many + at, unknown, strlen(unknown));
        at += strlen(unknown);
    }
    many[at] = '\0';
    n = note_with(&k, "hello\n", many, note, sizeof note);
    CHECK_EQ(note_open(note, n, &k.v, 1, &text_len, NULL), NOTE_OK);
    memcpy(many + at, unknown, strlen(unknown) + 1);
    n = note_with(&k, "hello\n", many, note, sizeof note);
    CHECK_EQ(note_open(note, n, &k.v, 1, &text_len, NULL), NOTE_EFORMAT);
    /* And no note longer than NOTE_MAX. */
    static char text[NOTE_MAX + 2];
    memset(text, 'a', sizeof text);
    text[NOTE_MAX - 200] = '\n';
    text[NOTE_MAX - 199] = '\0';
    n = note_with(&k, text, "", note, sizeof note);
    CHECK_EQ(note_open(note, n, &k.v, 1, &text_len, NULL), NOTE_OK);
    text[NOTE_MAX - 200] = 'a';
    text[NOTE_MAX] = '\n';
    text[NOTE_MAX + 1] = '\0';
    CHECK_EQ(note_sign(text, NOTE_MAX + 1, &s, 1, note, sizeof note, &n), NOTE_EFORMAT);
}

static void key_names(void)
{
    static const char *good[] = { "a", "log.replayd.example/test", "caf\xc3\xa9", "x_y-z:1" };
    static const char *bad[] = { "", "a b", "a+b", "a\tb", "a\nb", "a\xc2\xa0" "b", "a\xe2\x80\xa8" "b",
                                 "a\xc2\x85" "b", "a\xe3\x80\x80" "b", "\xff" };
    for (size_t k = 0; k < sizeof good / sizeof good[0]; k++)
        CHECK_EQ(note_name_check(good[k], strlen(good[k])), NOTE_OK);
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
        if (note_name_check(bad[k], strlen(bad[k])) != NOTE_ENAME)
            CHECK(!bad[k]);
    char longest[NOTE_NAME_MAX + 2];
    memset(longest, 'n', sizeof longest);
    CHECK_EQ(note_name_check(longest, NOTE_NAME_MAX), NOTE_OK);
    CHECK_EQ(note_name_check(longest, NOTE_NAME_MAX + 1), NOTE_ENAME);

    test_key k;
    seeded_key(&k, "fine", 5);
    note_signer s = { "not fine", k.sk };
    char out[512];
    size_t n = 0;
    CHECK_EQ(note_sign("x\n", 2, &s, 1, out, sizeof out, &n), NOTE_ENAME);
    s.name = "fine";
    CHECK_EQ(note_sign("x\n", 2, &s, 0, out, sizeof out, &n), NOTE_EFORMAT);
    CHECK_EQ(note_sign("x\n", 2, &s, 1, out, 40, &n), NOTE_ESPACE);
    CHECK_EQ(n, 0);
    note_verifier v;
    CHECK_EQ(note_verifier_make("no+plus", k.pk, &v), NOTE_ENAME);
}

static void checkpoint_bodies(void)
{
    checkpoint c;
    const char *root = "WlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlo=";
    char good[256];
    snprintf(good, sizeof good, "log.example\n70000\n%s\n", root);
    CHECK_EQ(checkpoint_parse_body(good, strlen(good), &c), CHECKPOINT_OK);
    CHECK(c.size == 70000 && c.root[0] == 0x5a && strcmp(c.origin, "log.example") == 0);
    snprintf(good, sizeof good, "log.example\n0\n%s\n", root);
    CHECK_EQ(checkpoint_parse_body(good, strlen(good), &c), CHECKPOINT_OK);
    snprintf(good, sizeof good, "log.example\n9223372036854775808\n%s\n", root);
    CHECK_EQ(checkpoint_parse_body(good, strlen(good), &c), CHECKPOINT_OK);
    CHECK_EQ(c.size, MERKLE_SIZE_MAX);

    static const char *sizes[] = { "", "00", "01", "+1", "-1", " 1", "1 ", "1x", "0x10",
                                   "9223372036854775809", "18446744073709551616",
                                   "99999999999999999999" };
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        char body[256];
        snprintf(body, sizeof body, "log.example\n%s\n%s\n", sizes[k], root);
        if (checkpoint_parse_body(body, strlen(body), &c) != CHECKPOINT_EBODY)
            CHECK(!sizes[k]);
    }
    static const char *roots[] = {
        "", "WlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlo",   /* no padding */
        "WlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlp=",      /* non-zero spare bits */
        "WlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWg==",      /* 31 bytes */
        "WlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpa",      /* 33 bytes */
        "WlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpa Wlo=",
        "WlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpa_lo=",      /* base64url */
    };
    for (size_t k = 0; k < sizeof roots / sizeof roots[0]; k++) {
        char body[256];
        snprintf(body, sizeof body, "log.example\n5\n%s\n", roots[k]);
        if (checkpoint_parse_body(body, strlen(body), &c) != CHECKPOINT_EBODY)
            CHECK(!roots[k]);
    }
    char body[512];
#define ROOT_B64 "WlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlo="
    static const char *shapes[] = { "log.example\n5\n", "\n5\n" ROOT_B64 "\n", "log.example\n5\n" ROOT_B64,
                                    "log.example\n5\n" ROOT_B64 "\nextension\n",
                                    "log.example\n5\n" ROOT_B64 "\n\n",
                                    "log.example\r\n5\n" ROOT_B64 "\n", "log.example\n5\r\n" ROOT_B64 "\n",
                                    "log.example\n5\n\n" ROOT_B64 "\n", "log.example\n\n5\n" ROOT_B64 "\n" };
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++)
        if (checkpoint_parse_body(shapes[k], strlen(shapes[k]), &c) != CHECKPOINT_EBODY)
            CHECK(!shapes[k]);
    CHECK_EQ(checkpoint_parse_body("", 0, &c), CHECKPOINT_EBODY);

    /* A signed note whose body has an extension line: refused when opened. */
    test_key k;
    seeded_key(&k, "log.example", 11);
    note_signer s = { "log.example", k.sk };
    snprintf(body, sizeof body, "log.example\n5\n%s\nextension\n", root);
    char note[1024];
    size_t n = 0;
    CHECK_EQ(note_sign(body, strlen(body), &s, 1, note, sizeof note, &n), NOTE_OK);
    CHECK_EQ(checkpoint_open(note, n, "log.example", &k.v, 1, &c), CHECKPOINT_EBODY);

    /* What the log will not sign. */
    checkpoint bad;
    memset(&bad, 0, sizeof bad);
    snprintf(bad.origin, sizeof bad.origin, "log example");
    CHECK_EQ(checkpoint_body(&bad, body, sizeof body), 0);
    CHECK_EQ(checkpoint_sign(&bad, &s, 1, note, sizeof note, &n), CHECKPOINT_EBODY);
    snprintf(bad.origin, sizeof bad.origin, "log.example");
    bad.size = MERKLE_SIZE_MAX + 1;
    CHECK_EQ(checkpoint_body(&bad, body, sizeof body), 0);
    bad.size = 1;
    CHECK_EQ(checkpoint_body(&bad, body, 20), 0);
}

int main(void)
{
    if (sodium_init() < 0 || !(vectors = load_log_vectors()))
        return 1;
    RUN(go_reference_note);
    RUN(go_verifier_key_manglings);
    RUN(checkpoints_from_the_vectors);
    RUN(the_documented_example);
    RUN(a_flipped_byte_is_refused);
    RUN(random_edits_are_refused);
    RUN(other_keys_signatures);
    RUN(malformed_notes);
    RUN(key_names);
    RUN(checkpoint_bodies);
    json_decref(vectors);
    CHECK_DONE();
}
