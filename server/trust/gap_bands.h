/*
 * gap_bands: a run's progress gaps beside its board's population, for the
 * operator's console. A run's progress times (twins.h; kept by the store
 * as twin_times: 8 hex digits a progress move, its t in ms) give its gaps
 * (t[i] - t[i-1], the first from 0). Over a population of runs, each
 * gap index i gets a band: the 25th, 50th and 75th percentile of the gap
 * i of the runs that have one (nearest rank), and how many they are.
 *
 * Pure: integers only, no I/O. gap_bands allocates nothing it returns:
 * the caller gives room for max_gaps bands; it takes scratch of
 * n_runs integers and frees it.
 */
#ifndef REPLAYD_SERVER_GAP_BANDS_H
#define REPLAYD_SERVER_GAP_BANDS_H

#include <stddef.h>
#include <stdint.h>

typedef struct gap_band {
    int64_t p25, median, p75;
    int runs; /* the runs with a gap at this index (0: the band is empty) */
} gap_band;

/* The number of gaps in a times text (its length / 8), or -1 when it is
 * not one (empty, a length not a multiple of 8, a digit not hex). */
int gap_count(const char *hex);

/* Gap i of a times text that gap_count accepted (0 <= i < its count). */
int64_t gap_at(const char *hex, int i);

/* Bands for gap indexes 0..max_gaps-1 over the n times texts (texts that
 * gap_count refuses are skipped); 0 on success, -1 when scratch memory
 * runs out. */
int gap_bands(const char *const *hex, size_t n, int max_gaps, gap_band *out);

#endif
