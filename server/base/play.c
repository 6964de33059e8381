#include "play.h"

#include "../../core/civil.h"

static const char hex_digits[] = "0123456789abcdef";

void play_score_id(const play *p, char out[PLAY_ID_LEN + 1])
{
    for (int i = 0; i < PLAY_NONCE_BYTES; i++) {
        out[2 * i] = hex_digits[p->nonce[i] >> 4];
        out[2 * i + 1] = hex_digits[p->nonce[i] & 15];
    }
    out[PLAY_ID_LEN] = '\0';
}

static int hex_value(char ch)
{
    return ch >= '0' && ch <= '9'   ? ch - '0'
           : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
           : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10
                                    : -1;
}

bool play_nonce_from_id(const char *id, uint8_t out[PLAY_NONCE_BYTES])
{
    if (!id)
        return false;
    for (int i = 0; i < PLAY_ID_LEN; i++) {
        int v = hex_value(id[i]);
        if (v < 0)
            return false; /* also stops at a NUL before PLAY_ID_LEN digits */
        if (i % 2 == 0)
            out[i / 2] = (uint8_t)(v << 4);
        else
            out[i / 2] |= (uint8_t)v;
    }
    return id[PLAY_ID_LEN] == '\0';
}

void play_date(const play *p, char out[11])
{
    if (play_is_daily(p))
        civil_format(civil_from_days(p->day), out);
    else
        out[0] = '\0';
}
