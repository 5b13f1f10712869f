#ifndef FW_HISTORY_WINDOW_H
#define FW_HISTORY_WINDOW_H
/*
 * The rule of a watched series (a history, README "Deciding"): a commit's
 * rows depend only on the commits up to it, so its verdicts are made once
 * and never move when the history grows. Each commit's same-kernel evidence
 * is its own series' kernels in a window ending at it, its BH family the
 * rows of the newest FW_HISTORY_BH_WINDOW commits up to it, and change points
 * are found in fixed blocks of positions.
 */
#include <stddef.h>
#include "stats.h"

/*
 * The same-kernel evidence is bounded however long the history grows: the
 * newest kernels until they hold FW_EVIDENCE_BOOTS boots, at most
 * FW_EVIDENCE_KERNELS kernels (512 boots estimate a CV to about 3% of
 * itself; more only costs time).
 */
#define FW_EVIDENCE_BOOTS 512
#define FW_EVIDENCE_KERNELS 128
/* A commit of a history looks back at most this many positions (parent, evidence). */
#define FW_HISTORY_LOOKBACK 256
/* Its rows' BH family: the rows of the commits at positions [p - W + 1, p]. */
#define FW_HISTORY_BH_WINDOW 50
/* Change points are found within blocks [k B, (k + 1) B) of positions. */
#define FW_HISTORY_CP_BLOCK 256

/* One kernel's (one commit's) share of the evidence of a metric. */
struct fw_kernel_noise {
	int position;
	int boots;          /* its boots of the metric */
	struct fw_noise n;  /* what it adds: fw_noise_add_kernel + fw_noise_add_boot */
};

/* k from one commit's samples (v by run, then round); tmp has room for n. */
void fw_kernel_noise_of(struct fw_kernel_noise *k, int position, const double *v, const long *run, size_t n,
			double *tmp);
/*
 * The evidence of the commit k[i] (k in position order): the newest kernels up
 * to it, within FW_HISTORY_LOOKBACK positions, until FW_EVIDENCE_BOOTS boots or
 * FW_EVIDENCE_KERNELS kernels, summed oldest first (the same bits whatever
 * else was loaded), finished.
 */
void fw_history_noise(const struct fw_kernel_noise *k, size_t i, struct fw_noise *nz);

/*
 * Windowed Benjamini-Hochberg: q[i] of p[i] (NaN p: not in any family, q NaN)
 * within the family of every p whose position is in [pos[i] - w + 1, pos[i]].
 */
void fw_bh_window(const int *pos, const double *p, size_t n, int w, double *q);

#endif
