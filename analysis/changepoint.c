/*
 * Change points along a history: E-divisive means (Matteson & James) with the
 * significance test replaced by a Welch t-test between the two sides, as
 * Apache Otava (formerly hunter) does: the permutation test of the original
 * is random, and the same input must always give the same answer here.
 */
#include <math.h>
#include <stdlib.h>
#include "stats.h"

/* Welch two-sample t-test on x[lo,mid) against x[mid,hi), two-sided. */
static double welch_p(const double *x, size_t lo, size_t mid, size_t hi)
{
	double m1 = 0, m2 = 0, v1 = 0, v2 = 0, n1 = (double)(mid - lo), n2 = (double)(hi - mid);
	double se2, t, df;

	for (size_t i = lo; i < mid; i++)
		m1 += x[i];
	for (size_t i = mid; i < hi; i++)
		m2 += x[i];
	m1 /= n1;
	m2 /= n2;
	for (size_t i = lo; i < mid; i++)
		v1 += (x[i] - m1) * (x[i] - m1);
	for (size_t i = mid; i < hi; i++)
		v2 += (x[i] - m2) * (x[i] - m2);
	v1 /= n1 - 1;
	v2 /= n2 - 1;
	se2 = v1 / n1 + v2 / n2;
	if (!(se2 > 0))
		return m1 == m2 ? 1 : 0; /* no noise at all: any difference is real */
	t = (m2 - m1) / sqrt(se2);
	df = se2 * se2 / (v1 * v1 / (n1 * n1 * (n1 - 1)) + v2 * v2 / (n2 * n2 * (n2 - 1)));
	return fw_t_two_sided_p(t, df);
}

/*
 * Best split of x[lo,hi) by the energy statistic
 *   Q = mn/(m+n) * (2/(mn) sum|x-y| - sum_{i<k}|x_i-x_k|/C(m,2) - sum_{j<k}|y_j-y_k|/C(n,2)),
 * in O(len^2) with running within-segment sums. Returns 0 when no split is allowed.
 */
static size_t best_split(const double *x, size_t lo, size_t hi, size_t min_size,
			 double *wl, double *wr)
{
	size_t len = hi - lo, best = 0;
	double bestq = -INFINITY, total;

	/* wl[t]: pair sum within [lo, lo+t); wr[t]: within [lo+t, hi). */
	wl[0] = 0;
	for (size_t t = 1; t <= len; t++) {
		double s = 0;
		for (size_t i = lo; i < lo + t - 1; i++)
			s += fabs(x[i] - x[lo + t - 1]);
		wl[t] = wl[t - 1] + s;
	}
	wr[len] = 0;
	for (size_t t = len; t-- > 0;) {
		double s = 0;
		for (size_t j = lo + t + 1; j < hi; j++)
			s += fabs(x[lo + t] - x[j]);
		wr[t] = wr[t + 1] + s;
	}
	total = wl[len];
	for (size_t t = min_size; t + min_size <= len; t++) {
		double m = (double)t, n = (double)(len - t);
		double between = total - wl[t] - wr[t];
		double q = m * n / (m + n) *
			   (2 * between / (m * n) - wl[t] / (m * (m - 1) / 2) - wr[t] / (n * (n - 1) / 2));
		/* Strictly greater: ties go to the earliest split, deterministically. */
		if (q > bestq) {
			bestq = q;
			best = lo + t;
		}
	}
	return best;
}

static int cmp_size(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	return (a > b) - (a < b);
}

size_t fw_change_points(const double *x, size_t n, const struct fw_cp_opts *o, size_t *cp)
{
	double max_p = o && o->max_p > 0 ? o->max_p : 0.001;
	size_t min_size = o && o->min_size >= 2 ? o->min_size : 3;
	size_t ncp = 0, top = 0;
	size_t *stack = NULL;
	double *wl = NULL, *wr = NULL;

	if (n < 2 * min_size)
		return 0;
	stack = malloc(2 * (n + 1) * sizeof(*stack));
	wl = malloc((n + 1) * sizeof(*wl));
	wr = malloc((n + 1) * sizeof(*wr));
	if (!stack || !wl || !wr)
		goto cleanup;
	stack[top++] = 0;
	stack[top++] = n;
	while (top) {
		size_t hi = stack[--top], lo = stack[--top], mid;
		if (hi - lo < 2 * min_size)
			continue;
		mid = best_split(x, lo, hi, min_size, wl, wr);
		if (!mid || !(welch_p(x, lo, mid, hi) < max_p))
			continue;
		cp[ncp++] = mid;
		stack[top++] = lo;
		stack[top++] = mid;
		stack[top++] = mid;
		stack[top++] = hi;
	}
	qsort(cp, ncp, sizeof(*cp), cmp_size);
cleanup:
	free(stack);
	free(wl);
	free(wr);
	return ncp;
}
