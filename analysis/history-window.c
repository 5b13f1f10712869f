/*
 * A watched series' bounded windows (history-window.h): each commit's
 * evidence and BH family are computed from the commits up to it alone, in an
 * order that does not depend on what else was loaded, so a verdict stored
 * when the commit arrived is the one a recompute of the whole history gives.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "history-window.h"
#include "xalloc.h"

void fw_kernel_noise_of(struct fw_kernel_noise *k, int position, const double *v, const long *run, size_t n,
			double *tmp)
{
	size_t nb = fw_group_medians(v, run, n, tmp);

	k->position = position;
	k->boots = (int)nb;
	fw_noise_init(&k->n);
	fw_noise_add_kernel(&k->n, tmp, nb);
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i; j < n && run[j] == run[i]; j++)
			;
		fw_noise_add_boot(&k->n, v + i, j - i);
	}
}

void fw_history_noise(const struct fw_kernel_noise *k, size_t i, struct fw_noise *nz)
{
	size_t j0 = i;
	int boots = 0, kernels = 0;

	for (size_t j = i + 1; j-- > 0;) {
		if (k[j].position < k[i].position - FW_HISTORY_LOOKBACK)
			break;
		j0 = j;
		boots += k[j].boots;
		if (boots >= FW_EVIDENCE_BOOTS || ++kernels >= FW_EVIDENCE_KERNELS)
			break;
	}
	fw_noise_init(nz);
	for (size_t j = j0; j <= i; j++) {
		const struct fw_noise *a = &k[j].n;
		nz->ss += a->ss;
		nz->df += a->df;
		nz->boots += a->boots;
		nz->kernels += a->kernels;
		nz->range_pct = fmax(nz->range_pct, a->range_pct);
		nz->within_ss += a->within_ss;
		nz->within_df += a->within_df;
	}
	fw_noise_finish(nz);
}

struct ranked {
	double p;
	size_t row;
};

static int cmp_pos(const void *pa, const void *pb, void *arg)
{
	const int *pos = *(const int *const *)arg;
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;

	if (pos[a] != pos[b])
		return (pos[a] > pos[b]) - (pos[a] < pos[b]);
	return (a > b) - (a < b);
}

static int cmp_p(const void *pa, const void *pb)
{
	const struct ranked *a = pa, *b = pb;

	if (a->p != b->p)
		return (a->p > b->p) - (a->p < b->p);
	return (a->row > b->row) - (a->row < b->row);
}

void fw_bh_window(const int *pos, const double *p, size_t n, int w, double *q)
{
	size_t *by = xmalloc((n + 1) * sizeof(*by)), lo = 0;
	struct ranked *fam = xmalloc((n + 1) * sizeof(*fam));

	for (size_t i = 0; i < n; i++) {
		by[i] = i;
		q[i] = NAN;
	}
	qsort_r(by, n, sizeof(*by), cmp_pos, &pos);
	for (size_t a = 0, b; a < n; a = b) {
		size_t m = 0;
		double run = 1;

		for (b = a; b < n && pos[by[b]] == pos[by[a]]; b++)
			;
		while (pos[by[lo]] < pos[by[a]] - w + 1)
			lo++;
		for (size_t i = lo; i < b; i++)
			if (!isnan(p[by[i]]))
				fam[m++] = (struct ranked){ p[by[i]], by[i] };
		qsort(fam, m, sizeof(*fam), cmp_p);
		/* q_(r) = min over j >= r of m/j * p_(j), capped at 1; only this position's rows take theirs */
		for (size_t r = m; r > 0; r--) {
			double v = fam[r - 1].p * (double)m / (double)r;
			if (v < run)
				run = v;
			if (pos[fam[r - 1].row] == pos[by[a]])
				q[fam[r - 1].row] = run;
		}
	}
	free(by);
	free(fam);
}
