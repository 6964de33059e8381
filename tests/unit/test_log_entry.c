/* Unit tests for server/log/entry.c: each kind's leaf byte for byte as
 * docs/LOG.md section 7 lays it out (the expected bytes were written from
 * the table by a separate Python script, not by this code; the score one
 * is the worked example of that section), and every input the layout
 * cannot hold refused. */
#include "../check.h"

#include <sodium.h>

#include "../../server/log/entry.h"

/* Fails naming both when the text differs from the expected one. */
#define CHECK_HEX(got, want)                                                               \
    do {                                                                                   \
        if (strcmp((got), (want)) != 0) {                                                  \
            if (!check_failed_)                                                            \
                printf("FAIL %s: %s:%d: %s != %s\n", check_name_, __FILE__, __LINE__, (got), \
                       (want));                                                            \
            check_failed_ = 1;                                                             \
        }                                                                                  \
    } while (0)

static void hex_of(const uint8_t *b, size_t n, char *out)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = digits[b[i] >> 4];
        out[2 * i + 1] = digits[b[i] & 15];
    }
    out[2 * n] = 0;
}

/* The 16 bytes of a score id's 32 hex digits. */
static bool id_of(const char *hex, uint8_t out[LOG_ENTRY_ID_BYTES])
{
    size_t got = 0;
    return sodium_hex2bin(out, LOG_ENTRY_ID_BYTES, hex, strlen(hex), NULL, &got, NULL) == 0 &&
           got == LOG_ENTRY_ID_BYTES;
}

static log_score_leaf example_score(void)
{
    log_score_leaf e = { .player_id = 42, .level = 3, .seed = 4000000000u, .version = 2, .day = 20794,
                    .score = -7, .completed = true, .held = true, .submitted_at_ms = 1796601600123,
                    .game = "pipes" };
    CHECK(id_of("00112233445566778899aabbccddeeff", e.score_id));
    for (int i = 0; i < LOG_ENTRY_HASH_BYTES; i++)
        e.moves_hash[i] = (uint8_t)i;
    return e;
}

static void score_layout(void)
{
    log_score_leaf e = example_score();
    uint8_t buf[LOG_ENTRY_MAX];
    char hex[2 * LOG_ENTRY_MAX + 1];
    size_t n = log_entry_score(&e, buf, sizeof buf);
    CHECK_EQ(n, 97);
    hex_of(buf, n, hex);
    CHECK_HEX(hex, "0100112233445566778899aabbccddeeff000000000000002a00000003ee6b2800000000020000513a"
                   "fffffffffffffff90101000001a24dccd87b000102030405060708090a0b0c0d0e0f10111213141516"
                   "1718191a1b1c1d1e1f057069706573");
    /* a level score's day is -1: ffffffff at offset 37 */
    e.day = -1;
    CHECK_EQ(log_entry_score(&e, buf, sizeof buf), 97);
    hex_of(buf + 37, 4, hex);
    CHECK_HEX(hex, "ffffffff");
    /* a ranked, incomplete score: 0 and 0 at offsets 49 and 50 */
    e.completed = false;
    e.held = false;
    CHECK_EQ(log_entry_score(&e, buf, sizeof buf), 97);
    CHECK_EQ(buf[49], 0);
    CHECK_EQ(buf[50], 0);
}

static void score_refusals(void)
{
    log_score_leaf e = example_score();
    uint8_t buf[LOG_ENTRY_MAX];
    char long_name[LOG_ENTRY_GAME_MAX + 2];
    memset(long_name, 'a', sizeof long_name - 1);
    long_name[sizeof long_name - 1] = 0;
    CHECK_EQ(log_entry_score(&e, buf, 96), 0); /* one byte short */
    e.game = "";
    CHECK_EQ(log_entry_score(&e, buf, sizeof buf), 0);
    e.game = NULL;
    CHECK_EQ(log_entry_score(&e, buf, sizeof buf), 0);
    e.game = long_name; /* 65 bytes */
    CHECK_EQ(log_entry_score(&e, buf, sizeof buf), 0);
    long_name[LOG_ENTRY_GAME_MAX] = 0; /* 64: the longest, and the longest leaf */
    CHECK_EQ(log_entry_score(&e, buf, sizeof buf), LOG_ENTRY_MAX);
    e.game = "pi pes";
    CHECK_EQ(log_entry_score(&e, buf, sizeof buf), 0);
    e.game = "pip\xc3\xa9";
    CHECK_EQ(log_entry_score(&e, buf, sizeof buf), 0);
    e.game = "pipes";
    e.day = -2;
    CHECK_EQ(log_entry_score(&e, buf, sizeof buf), 0);
    e.day = LOG_ENTRY_DAY_MAX; /* 9999-12-31 */
    CHECK_EQ(log_entry_score(&e, buf, sizeof buf), 97);
    e.day = LOG_ENTRY_DAY_MAX + 1;
    CHECK_EQ(log_entry_score(&e, buf, sizeof buf), 0);
}

static void action_layouts(void)
{
    uint8_t buf[LOG_ENTRY_MAX];
    char hex[2 * LOG_ENTRY_MAX + 1];
    log_action_leaf v = { .kind = LOG_KIND_VOID, .action_id = 9, .at_ms = 1796601700000, .player_id = 42 };
    CHECK(id_of("00112233445566778899aabbccddeeff", v.score_id));
    size_t n = log_entry_action(&v, buf, sizeof buf);
    CHECK_EQ(n, 41);
    hex_of(buf, n, hex);
    CHECK_HEX(hex, "020000000000000009000001a24dce5ea0000000000000002a00112233445566778899aabbccddeeff");
    v.kind = LOG_KIND_RESTORE;
    CHECK_EQ(log_entry_action(&v, buf, sizeof buf), 41);
    CHECK_EQ(buf[0], 0x03);
    v.kind = LOG_KIND_APPROVE;
    CHECK_EQ(log_entry_action(&v, buf, sizeof buf), 41);
    CHECK_EQ(buf[0], 0x07);
    /* a hold: the void's layout, the cause's leaf index for the action id */
    v.kind = LOG_KIND_HOLD;
    v.action_id = 300;
    n = log_entry_action(&v, buf, sizeof buf);
    CHECK_EQ(n, 41);
    hex_of(buf, n, hex);
    CHECK_HEX(hex, "08000000000000012c000001a24dce5ea0000000000000002a00112233445566778899aabbccddeeff");
    log_action_leaf b = { .kind = LOG_KIND_BAN, .action_id = 10, .at_ms = 1796601700001, .player_id = -3 };
    n = log_entry_action(&b, buf, sizeof buf);
    CHECK_EQ(n, 25);
    hex_of(buf, n, hex);
    CHECK_HEX(hex, "04000000000000000a000001a24dce5ea1fffffffffffffffd");
    b.kind = LOG_KIND_UNBAN;
    CHECK_EQ(log_entry_action(&b, buf, sizeof buf), 25);
    CHECK_EQ(buf[0], 0x05);
    log_action_leaf r = { .kind = LOG_KIND_RENAME, .action_id = 11, .at_ms = 1796601700002, .player_id = 42,
                     .name = "Zo\xc3\xab" };
    n = log_entry_action(&r, buf, sizeof buf);
    CHECK_EQ(n, 30);
    hex_of(buf, n, hex);
    CHECK_HEX(hex, "06000000000000000b000001a24dce5ea2000000000000002a045a6fc3ab");
}

static void action_refusals(void)
{
    uint8_t buf[LOG_ENTRY_MAX];
    log_action_leaf a = { .kind = LOG_KIND_SCORE, .action_id = 1, .at_ms = 1, .player_id = 1 };
    CHECK_EQ(log_entry_action(&a, buf, sizeof buf), 0);
    a.kind = (log_kind)0x09; /* no such kind */
    CHECK_EQ(log_entry_action(&a, buf, sizeof buf), 0);
    a.kind = LOG_KIND_VOID;
    CHECK_EQ(log_entry_action(&a, buf, 40), 0);
    a.kind = LOG_KIND_RENAME;
    a.name = "";
    CHECK_EQ(log_entry_action(&a, buf, sizeof buf), 0);
    a.name = NULL;
    CHECK_EQ(log_entry_action(&a, buf, sizeof buf), 0);
    char long_name[LOG_ENTRY_NAME_MAX + 2];
    memset(long_name, 'n', sizeof long_name - 1);
    long_name[sizeof long_name - 1] = 0;
    a.name = long_name;
    CHECK_EQ(log_entry_action(&a, buf, sizeof buf), 0);
    long_name[LOG_ENTRY_NAME_MAX] = 0;
    CHECK_EQ(log_entry_action(&a, buf, sizeof buf), 26 + LOG_ENTRY_NAME_MAX);
}

int main(void)
{
    RUN(score_layout);
    RUN(score_refusals);
    RUN(action_layouts);
    RUN(action_refusals);
    CHECK_DONE();
}
