#include "twins.h"

#include <math.h>
#include <string.h>

#include <jansson.h>
#include <sodium.h>

#include "receipt.h"

int twin_time_field(const game *g, int version)
{
    for (int f = 0; f < g->n_fields; f++)
        if (strcmp(g->fields[f].name, "t") == 0 && game_field_in(&g->fields[f], version))
            return f;
    return -1;
}

void twin_shape_hash(const game *g, int version, const game_move *moves, size_t n,
                     uint8_t out[TWIN_SHAPE_BYTES])
{
    int tf = twin_time_field(g, version);
    crypto_generichash_state st;
    crypto_generichash_init(&st, (const unsigned char *)"replayd-shape-1", 15, TWIN_SHAPE_BYTES);
    unsigned char count[8];
    for (int i = 0; i < 8; i++)
        count[i] = (unsigned char)((uint64_t)n >> (56 - 8 * i));
    crypto_generichash_update(&st, count, sizeof count);
    moves_hash_update(&st, g, version, moves, n, tf);
    crypto_generichash_final(&st, out, TWIN_SHAPE_BYTES);
}

bool twin_gap_correlation(const int64_t *ta, const int64_t *tb, size_t n, int *permille)
{
    if (n < TWIN_MIN_GAPS)
        return false;
    /* means first, then centred sums: the gaps are at most a few minutes */
    double ma = 0, mb = 0;
    for (size_t i = 0; i < n; i++) {
        ma += (double)(ta[i] - (i ? ta[i - 1] : 0));
        mb += (double)(tb[i] - (i ? tb[i - 1] : 0));
    }
    ma /= (double)n;
    mb /= (double)n;
    double sab = 0, saa = 0, sbb = 0;
    for (size_t i = 0; i < n; i++) {
        double a = (double)(ta[i] - (i ? ta[i - 1] : 0)) - ma;
        double b = (double)(tb[i] - (i ? tb[i - 1] : 0)) - mb;
        sab += a * b;
        saa += a * a;
        sbb += b * b;
    }
    if (saa <= 0 || sbb <= 0)
        return false;
    double r = sab / sqrt(saa * sbb);
    *permille = (int)lround(r * 1000);
    return true;
}

bool twin_times_from_json(const char *moves_json, int64_t *out, size_t cap, size_t *n)
{
    *n = 0;
    json_t *doc = moves_json ? json_loads(moves_json, 0, NULL) : NULL;
    bool ok = json_is_array(doc) && json_array_size(doc) <= cap;
    size_t i;
    const json_t *m;
    json_array_foreach(ok ? doc : NULL, i, m) {
        const json_t *t = json_object_get(m, "t");
        if (!json_is_integer(t)) {
            ok = false;
            break;
        }
        out[i] = json_integer_value(t);
    }
    if (ok)
        *n = json_array_size(doc);
    json_decref(doc);
    return ok;
}
