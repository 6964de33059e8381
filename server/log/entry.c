/*
 * entry: the score log's leaves (entry.h, docs/LOG.md section 7).
 */
#include "entry.h"

#include <string.h>

static uint8_t *put_u8(uint8_t *p, unsigned v)
{
    *p = (uint8_t)v;
    return p + 1;
}

static uint8_t *put_be(uint8_t *p, uint64_t v, int bytes)
{
    for (int i = bytes - 1; i >= 0; i--) {
        p[i] = (uint8_t)(v & 0xff);
        v >>= 8;
    }
    return p + bytes;
}

static uint8_t *put_bytes(uint8_t *p, const void *src, size_t n)
{
    memcpy(p, src, n);
    return p + n;
}

/* Two's complement of a signed value, as the layout stores it. */
static uint64_t twos(int64_t v)
{
    return (uint64_t)v;
}

size_t log_entry_score(const log_score_leaf *e, uint8_t *out, size_t len)
{
    size_t g = e->game ? strnlen(e->game, LOG_ENTRY_GAME_MAX + 1) : 0;
    if (g == 0 || g > LOG_ENTRY_GAME_MAX || e->day < -1 || e->day > LOG_ENTRY_DAY_MAX)
        return 0;
    for (size_t i = 0; i < g; i++)
        if (e->game[i] < 0x21 || e->game[i] > 0x7e)
            return 0;
    size_t need = 92 + g;
    if (len < need)
        return 0;
    uint8_t *p = put_u8(out, LOG_KIND_SCORE);
    p = put_bytes(p, e->score_id, LOG_ENTRY_ID_BYTES);
    p = put_be(p, twos(e->player_id), 8);
    p = put_be(p, e->level, 4);
    p = put_be(p, e->seed, 4);
    p = put_be(p, e->version, 4);
    p = put_be(p, (uint32_t)e->day, 4);
    p = put_be(p, twos(e->score), 8);
    p = put_u8(p, e->completed ? 1 : 0);
    p = put_u8(p, e->held ? 1 : 0);
    p = put_be(p, twos(e->submitted_at_ms), 8);
    p = put_bytes(p, e->moves_hash, LOG_ENTRY_HASH_BYTES);
    p = put_u8(p, (unsigned)g);
    p = put_bytes(p, e->game, g);
    return (size_t)(p - out);
}

size_t log_entry_action(const log_action_leaf *a, uint8_t *out, size_t len)
{
    size_t tail;
    size_t n = 0;
    switch (a->kind) {
    case LOG_KIND_VOID:
    case LOG_KIND_RESTORE:
    case LOG_KIND_APPROVE:
    case LOG_KIND_HOLD:
        tail = LOG_ENTRY_ID_BYTES;
        break;
    case LOG_KIND_BAN:
    case LOG_KIND_UNBAN:
        tail = 0;
        break;
    case LOG_KIND_RENAME:
        n = a->name ? strnlen(a->name, LOG_ENTRY_NAME_MAX + 1) : 0;
        if (n == 0 || n > LOG_ENTRY_NAME_MAX)
            return 0;
        tail = 1 + n;
        break;
    default:
        return 0;
    }
    if (len < 25 + tail)
        return 0;
    uint8_t *p = put_u8(out, (unsigned)a->kind);
    p = put_be(p, twos(a->action_id), 8);
    p = put_be(p, twos(a->at_ms), 8);
    p = put_be(p, twos(a->player_id), 8);
    if (a->kind == LOG_KIND_RENAME) {
        p = put_u8(p, (unsigned)n);
        p = put_bytes(p, a->name, n);
    } else if (tail) {
        p = put_bytes(p, a->score_id, LOG_ENTRY_ID_BYTES);
    }
    return (size_t)(p - out);
}
