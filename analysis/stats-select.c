/*
 * Order statistics without a sort (Wirth's selection, Hoare's partition):
 * linear on average where qsort is n log n through a compare call per step.
 * The Hodges-Lehmann shift sorted its n x m pairwise differences (1,296 for
 * 36 samples a side) for three of them: 12% of a history's first analysis.
 */
#include "stats.h"

void fw_select(double *v, size_t n, size_t k)
{
	long lo = 0, hi = (long)n - 1, kk = (long)k;

	while (lo < hi) {
		double pivot = v[kk];
		long i = lo, j = hi;

		do {  /* the pivot's value stops both scans: neither leaves lo..hi */
			while (v[i] < pivot)
				i++;
			while (pivot < v[j])
				j--;
			if (i <= j) {
				double t = v[i];
				v[i++] = v[j];
				v[j--] = t;
			}
		} while (i <= j);
		if (j < kk)
			lo = i;
		if (kk < i)
			hi = j;
	}
}

void fw_select_middle(double *v, size_t n, double *lo, double *hi)
{
	size_t m = n / 2;

	fw_select(v, n, m);
	*hi = v[m];
	*lo = v[m];
	if (n % 2)
		return;
	*lo = v[0];  /* the largest of the lower half, which the selection left before v[m] */
	for (size_t i = 1; i < m; i++)
		*lo = v[i] > *lo ? v[i] : *lo;
}
