#include "fnv.h"

#include <string.h>

uint32_t fnv1a32_update(uint32_t hash, const void *data, size_t len)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) {
        hash ^= p[i];
        hash *= 16777619u;
    }
    return hash;
}

uint32_t fnv1a32(const void *data, size_t len)
{
    return fnv1a32_update(FNV1A32_OFFSET, data, len);
}

uint32_t fnv1a32_str(const char *s)
{
    return fnv1a32(s, strlen(s));
}
