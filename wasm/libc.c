/*
 * libc for the wasm32 build: the string functions the pure code calls (and
 * the compiler may emit for struct copies), and a small allocator the
 * JavaScript side uses for the library's caller-owned buffers.
 *
 * The allocator: first-fit over a free list, blocks of 16-byte units with
 * a 16-byte header (so every block is RP_ALIGN-aligned), growing memory
 * when nothing fits. One instance is one thread: no locking.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "wasm.h"

#define EXPORT WASM_EXPORT

/* Word at a time where both ends are 4-byte aligned (game structs are),
 * bytes otherwise. Faster under V8 than the bulk-memory instructions for the
 * small copies the games make (a runtime call each). */
void *memcpy(void *restrict dst, const void *restrict src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    if ((((uintptr_t)d | (uintptr_t)s) & 3) == 0) {
        for (; n >= 4; n -= 4, d += 4, s += 4)
            *(uint32_t *)(void *)d = *(const uint32_t *)(const void *)s;
    }
    while (n--)
        *d++ = *s++;
    return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    if (d < s) {
        while (n--)
            *d++ = *s++;
    } else {
        while (n--)
            d[n] = s[n];
    }
    return dst;
}

void *memset(void *dst, int c, size_t n)
{
    unsigned char *d = dst;
    if (((uintptr_t)d & 3) == 0) {
        uint32_t w = (unsigned char)c * 0x01010101u;
        for (; n >= 4; n -= 4, d += 4)
            *(uint32_t *)(void *)d = w;
    }
    while (n--)
        *d++ = (unsigned char)c;
    return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
    const unsigned char *x = a, *y = b;
    for (size_t i = 0; i < n; i++)
        if (x[i] != y[i])
            return x[i] < y[i] ? -1 : 1;
    return 0;
}

int strcmp(const char *a, const char *b)
{
    while (*a && *a == *b) {
        a++;
        b++;
    }
    return (unsigned char)*a - (unsigned char)*b;
}

size_t strlen(const char *s)
{
    size_t n = 0;
    while (s[n])
        n++;
    return n;
}

/* ---- the allocator ---- */
typedef struct block {
    size_t size; /* bytes after the header */
    struct block *next; /* in the free list */
    size_t used;
    size_t pad;
} block;

extern unsigned char __heap_base;
static unsigned char *heap_end;
static block *free_list;

static size_t round16(size_t n)
{
    return (n + 15) & ~(size_t)15;
}

EXPORT void *rp_wasm_alloc(size_t n)
{
    n = round16(n ? n : 1);
    for (block **p = &free_list; *p; p = &(*p)->next) {
        block *b = *p;
        if (b->size < n)
            continue;
        if (b->size >= n + sizeof(block) + 64) { /* split off the tail */
            block *rest = (block *)(void *)((unsigned char *)(b + 1) + n);
            rest->size = b->size - n - sizeof(block);
            rest->next = b->next;
            rest->used = 0;
            b->size = n;
            *p = rest;
        } else {
            *p = b->next;
        }
        b->used = 1;
        return b + 1;
    }
    if (!heap_end)
        heap_end = (unsigned char *)round16((size_t)&__heap_base);
    size_t need = (size_t)heap_end + sizeof(block) + n;
    size_t have = __builtin_wasm_memory_size(0) * 65536;
    if (need > have) {
        size_t pages = (need - have + 65535) / 65536;
        if (__builtin_wasm_memory_grow(0, pages) == (size_t)-1)
            return NULL;
    }
    block *b = (block *)(void *)heap_end;
    b->size = n;
    b->next = NULL;
    b->used = 1;
    heap_end += sizeof(block) + n;
    return b + 1;
}

EXPORT void rp_wasm_free(void *p)
{
    if (!p)
        return;
    block *b = (block *)p - 1;
    if (!b->used)
        return;
    b->used = 0;
    b->next = free_list;
    free_list = b;
}
