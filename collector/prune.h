#ifndef FW_PRUNE_H
#define FW_PRUNE_H

/*
 * Keeps a long-running collector from filling the disk. The rule (README):
 * in the cache, kernels/<entry>/ (a built kernel, with its build log) and
 * runs/<series>/work/boot-XXXXXX/ (the console and channel of a failed boot) not
 * touched for FW_PRUNE_DAYS days are removed; the newest FW_PRUNE_KEEP
 * kernels always stay. Run documents (runs/<series>/<id>.json) are never
 * removed: they are the measurements. am/<series>/ (the checkout git am
 * applies an mbox in, removed when the series is read) left by a killed run
 * goes after FW_PRUNE_AM_SECONDS. Returns the number of folders removed.
 */
#define FW_PRUNE_AM_SECONDS 3600
#define FW_PRUNE_DAYS 30
#define FW_PRUNE_KEEP 20

int fw_prune_cache(const char *cache, int days, int keep);

#endif
