/* parse: strict decimal parsing for CLI arguments, query strings and config. */
#ifndef REPLAYD_SERVER_PARSE_H
#define REPLAYD_SERVER_PARSE_H

#include <stdbool.h>
#include <stdint.h>

/* Whole string must be decimal digits (no sign, no spaces) within [min,max]. */
bool parse_i64(const char *s, int64_t min, int64_t max, int64_t *out);
bool parse_u32(const char *s, uint32_t *out);

#endif
