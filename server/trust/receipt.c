#include "receipt.h"

#include <stdio.h>
#include <string.h>

#include "../base/parse.h"

void moves_hash_update(crypto_generichash_state *st, const game *g, int version,
                       const game_move *moves, size_t n, int skip_field)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char b[4 * GAME_MAX_FIELDS];
        size_t len = 0;
        for (int f = 0; f < g->n_fields; f++) {
            if (f == skip_field || !game_field_in(&g->fields[f], version))
                continue;
            uint32_t v = (uint32_t)moves[i].v[f];
            b[len++] = (unsigned char)(v >> 24);
            b[len++] = (unsigned char)(v >> 16);
            b[len++] = (unsigned char)(v >> 8);
            b[len++] = (unsigned char)v;
        }
        crypto_generichash_update(st, b, len);
    }
}

void moves_hash(const game *g, int version, const game_move *moves, size_t n,
                uint8_t out[MOVES_HASH_BYTES])
{
    crypto_generichash_state st;
    crypto_generichash_init(&st, NULL, 0, MOVES_HASH_BYTES);
    moves_hash_update(&st, g, version, moves, n, -1);
    crypto_generichash_final(&st, out, MOVES_HASH_BYTES);
}

size_t receipt_message(receipt_form form, const receipt_fields *f, char *buf, size_t len)
{
    const play *p = f->p;
    char hex[2 * MOVES_HASH_BYTES + 1];
    sodium_bin2hex(hex, sizeof hex, f->moves_hash, MOVES_HASH_BYTES);
    int n;
    if (form == RECEIPT_V1) {
        n = snprintf(buf, len, "replayd-receipt-v1\n%s\n%lld\n%s\n%d\n%u\n%d\n%lld\n%s", f->score_id,
                     (long long)p->player_id, p->g->name, p->level, (unsigned)p->seed, p->version,
                     (long long)f->score, hex);
    } else {
        char board[80];
        if (play_is_daily(p)) {
            char date[11];
            play_date(p, date);
            snprintf(board, sizeof board, "daily:%s", date);
        } else {
            snprintf(board, sizeof board, "level:%s:%d", p->g->name, p->level);
        }
        n = snprintf(buf, len, "replayd-receipt-v2\n%s\n%lld\n%s\n%d\n%u\n%d\n%lld\n%d\n%s\n%lld\n%s",
                     f->score_id, (long long)p->player_id, p->g->name, p->level, (unsigned)p->seed,
                     p->version, (long long)f->score, f->completed ? 1 : 0, board,
                     (long long)f->submitted_at_ms, hex);
    }
    return n < 0 || (size_t)n >= len ? 0 : (size_t)n;
}

int receipt_sign(const keyring *kr, const receipt_fields *f, char *out, size_t out_len)
{
    const key_entry *k = keys_current(kr);
    char msg[RECEIPT_MESSAGE_MAX];
    size_t n = receipt_message(RECEIPT_V2, f, msg, sizeof msg);
    if (!k || n == 0)
        return -1;
    unsigned char sig[crypto_sign_BYTES];
    crypto_sign_detached(sig, NULL, (const unsigned char *)msg, n, k->sign_sk);
    int p = snprintf(out, out_len, "v2.%u.", (unsigned)k->id);
    if (p < 0 || (size_t)p >= out_len ||
        (size_t)p + sodium_base64_ENCODED_LEN(sizeof sig, sodium_base64_VARIANT_URLSAFE_NO_PADDING) > out_len)
        return -1;
    sodium_bin2base64(out + p, out_len - (size_t)p, sig, sizeof sig, sodium_base64_VARIANT_URLSAFE_NO_PADDING);
    return 0;
}

int receipt_verify(const keyring *kr, const receipt_fields *f, const char *receipt)
{
    receipt_form form = RECEIPT_V1;
    if (strncmp(receipt, "v2.", 3) == 0) {
        form = RECEIPT_V2;
        receipt += 3;
    }
    const char *dot = strchr(receipt, '.');
    char id_text[16];
    uint32_t id;
    if (!dot || (size_t)(dot - receipt) >= sizeof id_text)
        return -1;
    memcpy(id_text, receipt, (size_t)(dot - receipt));
    id_text[dot - receipt] = '\0';
    const key_entry *k = parse_u32(id_text, &id) ? keys_public_by_id(kr, id) : NULL;
    unsigned char sig[crypto_sign_BYTES];
    size_t sig_len = 0;
    char msg[RECEIPT_MESSAGE_MAX];
    size_t n = receipt_message(form, f, msg, sizeof msg);
    if (!k || n == 0 ||
        sodium_base642bin(sig, sizeof sig, dot + 1, strlen(dot + 1), NULL, &sig_len, NULL,
                          sodium_base64_VARIANT_URLSAFE_NO_PADDING) != 0 ||
        sig_len != sizeof sig)
        return -1;
    return crypto_sign_verify_detached(sig, (const unsigned char *)msg, n, k->sign_pk);
}
