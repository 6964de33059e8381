/* The five string functions the pure code calls, for the wasm32 build
 * (wasm/libc.c defines them; there is no other libc there). */
#ifndef REPLAYD_WASM_STRING_H
#define REPLAYD_WASM_STRING_H

#include <stddef.h>

void *memcpy(void *restrict dst, const void *restrict src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
int strcmp(const char *a, const char *b);
size_t strlen(const char *s);

#endif
