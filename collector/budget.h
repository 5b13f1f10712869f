#ifndef FW_BUDGET_H
#define FW_BUDGET_H
#include <stddef.h>

/*
 * What `run` may spend on boots (issue 12, adaptive boots): wall seconds from
 * the first boot's start (boots in parallel count once, issue 27) or a number
 * of boots, the first round included (builds are not counted: a cold build is
 * a one-off that the kernel cache pays for once). A boot starts only if the
 * budget allows it to finish, judged by the mean boot so far.
 */
struct fw_budget {
	double seconds;   /* > 0: a time budget */
	int boots;        /* > 0: a boot budget */
	int none;         /* "none": no adaptive boots, the first round only (a fixed design) */
};

/* "45m", "10m", "2h", "600s", "40boots", "none". 0, or -1 with why (a sentence). */
int fw_budget_parse(const char *s, struct fw_budget *b, char *why, size_t n);

/*
 * May a boot start, `elapsed` wall seconds after the first one started, when
 * `started` boots have started and a finished one took `mean_boot` seconds
 * on average (0: none finished yet)?
 */
int fw_budget_allows(const struct fw_budget *b, double elapsed, double mean_boot, int started);

#endif
