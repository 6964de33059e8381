/*
 * draw: the corpus's own randomness (splitmix64), seeded per run so every
 * corpus is the same on every machine. Test code only: the games never see
 * it (they draw from core/rng), and floats are fine here.
 */
#ifndef REPLAYD_FAIRPLAY_DRAW_H
#define REPLAYD_FAIRPLAY_DRAW_H

#include <math.h>
#include <stdint.h>

typedef struct draw {
    uint64_t s;
} draw;

static inline uint64_t draw_next(draw *d)
{
    uint64_t z = (d->s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Uniform in [0, 1). */
static inline double draw_unit(draw *d)
{
    return (double)(draw_next(d) >> 11) * (1.0 / 9007199254740992.0);
}

static inline double draw_between(draw *d, double lo, double hi)
{
    return lo + (hi - lo) * draw_unit(d);
}

static inline int draw_int(draw *d, int lo, int hi) /* lo..hi inclusive */
{
    return lo + (int)(draw_next(d) % (uint64_t)(hi - lo + 1));
}

static inline bool draw_chance(draw *d, double p)
{
    return draw_unit(d) < p;
}

/* A standard normal (Box-Muller). */
static inline double draw_normal(draw *d)
{
    double u = draw_unit(d), v = draw_unit(d);
    return sqrt(-2.0 * log(u > 1e-300 ? u : 1e-300)) * cos(6.283185307179586 * v);
}

/* Log-normal with that median and log-sd: reaction and search times are
 * skewed so (a long right tail of slow finds). */
static inline double draw_lognormal(draw *d, double median, double sigma)
{
    return median * exp(sigma * draw_normal(d));
}

#endif
