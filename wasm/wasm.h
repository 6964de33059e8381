/*
 * wasm: what the wasm32 build exports besides include/replay.h: the
 * allocator JavaScript uses for the library's caller-owned buffers
 * (wasm/libc.c), and, in replay-test.wasm only, the games' own vector
 * sections (wasm/sections.c).
 */
#ifndef REPLAYD_WASM_H
#define REPLAYD_WASM_H

#include <stddef.h>
#include <stdint.h>

#define WASM_EXPORT __attribute__((visibility("default")))

/* 16-byte aligned blocks; NULL when memory cannot grow. */
WASM_EXPORT void *rp_wasm_alloc(size_t n);
WASM_EXPORT void rp_wasm_free(void *p);

WASM_EXPORT void rp_x_ct_trig(int32_t mrad, int32_t *out);
WASM_EXPORT uint32_t rp_x_ct_daily_seed(int32_t year, int32_t month, int32_t day);
WASM_EXPORT int32_t rp_x_ct_trace(const int32_t *in, int32_t *ticks, int32_t *run_out);
WASM_EXPORT int32_t rp_x_dl_trace(const char *rows, const int32_t *in, int32_t *out, char *terrain);

#endif
