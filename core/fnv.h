/* fnv: FNV-1a 32 (offset 0x811c9dc5, prime 16777619) over raw bytes. */
#ifndef REPLAYD_CORE_FNV_H
#define REPLAYD_CORE_FNV_H

#include <stddef.h>
#include <stdint.h>

uint32_t fnv1a32(const void *data, size_t len);
uint32_t fnv1a32_str(const char *s);
/* Continue a running hash (start from FNV1A32_OFFSET). */
uint32_t fnv1a32_update(uint32_t hash, const void *data, size_t len);

#define FNV1A32_OFFSET 0x811c9dc5u

#endif
