#ifndef FW_WATCH_BISECT_H
#define FW_WATCH_BISECT_H
#include "bisect.h"
#include "strbuf.h"
#include "an-result.h"

/*
 * Bisects every change of base->series (a regression, or an improvement with
 * base->improvement) decided between two measured commits that are not
 * neighbours, once per range (state_path.bisected remembers). base gives
 * everything but metric, good and bad. 0: nothing to do or every bisect found
 * its culprit; 1: one gave up or failed.
 */
int fw_watch_bisect(const struct fw_bisect_args *base, const char *state_path);

/*
 * The bisects a series' analysis a asks for: each change (verdict want,
 * decided, against the parent) between measured commits that are not
 * neighbours, one "GOOD BAD W/V/M" line per range and workload appended to
 * todo, unless done ("GOOD BAD W/V/M RESULT" lines, the state file's) has
 * that range and workload.
 */
void fw_watch_ranges(const struct fw_an *a, const char *want, const struct strbuf *done, struct strbuf *todo);

#endif
