#ifndef FW_WATCH_BISECT_H
#define FW_WATCH_BISECT_H
#include "bisect.h"

/*
 * Bisects every change of base->series (a regression, or an improvement with
 * base->improvement) decided between two measured commits that are not
 * neighbours, once per range (state_path.bisected remembers). base gives
 * everything but metric, good and bad. 0: nothing to do or every bisect found
 * its culprit; 1: one gave up or failed.
 */
int fw_watch_bisect(const struct fw_bisect_args *base, const char *state_path);

#endif
