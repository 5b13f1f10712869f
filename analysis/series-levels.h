#ifndef FW_SERIES_LEVELS_H
#define FW_SERIES_LEVELS_H
/* The levels of a loaded series (analysis/series-levels.c): medians are the analysis' to compute. */
#include "series-db.h"

/* Fills every cell's median with the median of its per-boot medians (NAN: no samples). */
void fw_series_levels(struct fw_series *s);
/* The median of one boot's samples in a cell (NAN: none). */
double fw_cell_run_median(const struct fw_cell *c, long long run);

#endif
