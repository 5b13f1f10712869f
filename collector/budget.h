#ifndef FW_BUDGET_H
#define FW_BUDGET_H
#include <stddef.h>

/*
 * What `run` may spend on boots (issue 12, adaptive boots): wall seconds or a
 * number of boots, counted over every boot of the run, the first round
 * included (builds are not counted: a cold build is a one-off that the kernel
 * cache pays for once). A boot starts only if the budget allows it to finish,
 * judged by the mean boot so far.
 */
struct fw_budget {
	double seconds;   /* > 0: a time budget */
	int boots;        /* > 0: a boot budget */
	int none;         /* "none": no adaptive boots, the first round only (a fixed design) */
};

/* "45m", "10m", "2h", "600s", "40boots", "none". 0, or -1 with why (a sentence). */
int fw_budget_parse(const char *s, struct fw_budget *b, char *why, size_t n);

/* May a boot start, after `boots` boots took `spent` seconds? */
int fw_budget_allows(const struct fw_budget *b, double spent, int boots);

#endif
