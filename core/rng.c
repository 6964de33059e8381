/* mulberry32 as the determinism contract in DESIGN.md states it. */
#include "rng.h"

uint32_t rng_next(uint32_t *state)
{
    uint32_t s = *state + 0x6d2b79f5u;
    uint32_t t = (s ^ (s >> 15)) * (1u | s);
    t = (t + ((t ^ (t >> 7)) * (61u | t))) ^ t;
    *state = s;
    return t ^ (t >> 14);
}

uint32_t rng_below(uint32_t *state, uint32_t n)
{
    return rng_next(state) % n;
}

void rng_shuffle_i32(uint32_t *state, int32_t *v, size_t n)
{
    for (size_t i = n; i-- > 1;) {
        size_t j = rng_below(state, (uint32_t)(i + 1));
        int32_t tmp = v[i];
        v[i] = v[j];
        v[j] = tmp;
    }
}
