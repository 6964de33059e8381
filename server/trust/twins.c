#include "twins.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "receipt.h"

int twin_time_field(const game *g, int version)
{
    for (int f = 0; f < g->n_fields; f++)
        if (strcmp(g->fields[f].name, "t") == 0 && game_field_in(&g->fields[f], version))
            return f;
    return -1;
}

bool twin_progress(const game *g, int o)
{
    return o >= 0 && o < g->n_outcomes && g->outcomes[o].kind == OUTCOME_APPLIED && !g->outcomes[o].slip;
}

void twin_shape_hash(const game *g, int version, const game_move *moves, const int *outcomes, size_t n,
                     uint8_t out[TWIN_SHAPE_BYTES])
{
    int tf = twin_time_field(g, version);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += twin_progress(g, outcomes[i]);
    crypto_generichash_state st;
    crypto_generichash_init(&st, (const unsigned char *)"replayd-shape-2", 15, TWIN_SHAPE_BYTES);
    unsigned char count[8];
    for (int i = 0; i < 8; i++)
        count[i] = (unsigned char)((uint64_t)k >> (56 - 8 * i));
    crypto_generichash_update(&st, count, sizeof count);
    for (size_t i = 0; i < n; i++)
        if (twin_progress(g, outcomes[i]))
            moves_hash_update(&st, g, version, &moves[i], 1, tf);
    crypto_generichash_final(&st, out, TWIN_SHAPE_BYTES);
}

size_t twin_times_pack(const game *g, int version, const game_move *moves, const int *outcomes, size_t n,
                       uint8_t *out)
{
    int tf = twin_time_field(g, version);
    size_t len = 0;
    for (size_t i = 0; tf >= 0 && i < n; i++) {
        if (!twin_progress(g, outcomes[i]))
            continue;
        uint32_t t = (uint32_t)moves[i].v[tf];
        for (int b = 0; b < TWIN_TIME_BYTES; b++)
            out[len++] = (uint8_t)(t >> (24 - 8 * b));
    }
    return len;
}

typedef struct ranked_gap {
    int64_t gap;
    size_t at;
} ranked_gap;

static int by_gap(const void *a, const void *b)
{
    const ranked_gap *x = a, *y = b;
    return (x->gap > y->gap) - (x->gap < y->gap);
}

/* Twice each gap's rank (1-based; a tie's members share their mean, so
 * twice it is a whole number), into rank[]; false when all are equal. */
static bool gap_ranks(const int64_t *t, size_t n, ranked_gap *scratch, int64_t *rank)
{
    for (size_t i = 0; i < n; i++)
        scratch[i] = (ranked_gap){ t[i] - (i ? t[i - 1] : 0), i };
    qsort(scratch, n, sizeof *scratch, by_gap);
    if (scratch[0].gap == scratch[n - 1].gap)
        return false;
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && scratch[j].gap == scratch[i].gap)
            j++;
        for (size_t k = i; k < j; k++) /* positions i..j-1: ranks i+1..j */
            rank[scratch[k].at] = (int64_t)(i + j + 1);
        i = j;
    }
    return true;
}

bool twin_gap_correlation(const int64_t *ta, const int64_t *tb, size_t n, int *permille)
{
    if (n < TWIN_MIN_GAPS)
        return false;
    ranked_gap *scratch = malloc(n * sizeof *scratch);
    int64_t *ra = malloc(2 * n * sizeof *ra);
    bool ok = scratch && ra && gap_ranks(ta, n, scratch, ra) && gap_ranks(tb, n, scratch, ra + n);
    if (ok) {
        /* Pearson over the (doubled) ranks; both means are n + 1 */
        const int64_t *rb = ra + n;
        double mean = (double)(n + 1), sab = 0, saa = 0, sbb = 0;
        for (size_t i = 0; i < n; i++) {
            double a = (double)ra[i] - mean, b = (double)rb[i] - mean;
            sab += a * b;
            saa += a * a;
            sbb += b * b;
        }
        *permille = (int)lround(sab / sqrt(saa * sbb) * 1000);
    }
    free(scratch);
    free(ra);
    return ok;
}

bool twin_times_correlation(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen, int *permille)
{
    if (alen != blen || alen % TWIN_TIME_BYTES)
        return false;
    size_t n = alen / TWIN_TIME_BYTES;
    if (n < TWIN_MIN_GAPS)
        return false;
    int64_t *t = malloc(2 * n * sizeof *t);
    if (!t)
        return false;
    for (size_t i = 0; i < n; i++) {
        uint32_t x = 0, y = 0;
        for (int k = 0; k < TWIN_TIME_BYTES; k++) {
            x = x << 8 | a[i * TWIN_TIME_BYTES + (size_t)k];
            y = y << 8 | b[i * TWIN_TIME_BYTES + (size_t)k];
        }
        t[i] = x;
        t[n + i] = y;
    }
    bool ok = twin_gap_correlation(t, t + n, n, permille);
    free(t);
    return ok;
}
