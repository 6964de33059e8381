/*
 * rng: the one source of randomness for every game (mulberry32).
 *
 * The whole generator state is one uint32_t owned by the caller; the seed is
 * the starting state. All arithmetic is unsigned 32-bit, so the stream is the
 * same on every compiler and machine. Draws use plain `next() mod n`: the
 * modulo bias is part of the contract, a port that removed it would diverge.
 */
#ifndef REPLAYD_CORE_RNG_H
#define REPLAYD_CORE_RNG_H

#include <stddef.h>
#include <stdint.h>

/* One mulberry32 step: advances *state and returns the next value. */
uint32_t rng_next(uint32_t *state);

/* next() mod n; n must be > 0. */
uint32_t rng_below(uint32_t *state, uint32_t n);

/* Fisher-Yates from the last index down: for i = n-1 .. 1, swap v[i] with
 * v[next() mod (i+1)]. */
void rng_shuffle_i32(uint32_t *state, int32_t *v, size_t n);

#endif
