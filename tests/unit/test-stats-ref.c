/*
 * Driver for the scipy reference check (tests/t2000-stats-scipy.sh).
 * With --ref it reads cases from stdin, one a line, and answers one line each:
 *   mwu NA NB a1..aNA b1..bNB  ->  "U1 P EXACT"
 *   hl  NA NB a... b...        ->  "SHIFT LO HI CONF EXACT"   (level 0.95)
 *   bh  N p1..pN               ->  "Q1 .. QN"
 *   ve  H then per stratum NA NB a... b...  ->  "Z P"
 * Without arguments (as run by `make test-quick`) it checks one known case.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "tap.h"
#include "stats.h"

#define MAXV 4096

static int read_vals(double *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (scanf("%lf", &v[i]) != 1)
			return -1;
	return 0;
}

static int ref_loop(void)
{
	static double a[MAXV], b[MAXV], q[MAXV];
	static struct fw_stratum st[16];
	static double sa[16][256], sb[16][256];
	char op[8];
	size_t na, nb;

	while (scanf("%7s", op) == 1) {
		if (!strcmp(op, "bh")) {
			if (scanf("%zu", &na) != 1 || na > MAXV || read_vals(a, na))
				return 2;
			fw_bh_adjust(a, q, na);
			for (size_t i = 0; i < na; i++)
				printf("%s%.17g", i ? " " : "", q[i]);
			printf("\n");
			continue;
		}
		if (!strcmp(op, "ve")) {
			size_t h;
			double z, p;
			if (scanf("%zu", &h) != 1 || h > 16)
				return 2;
			for (size_t k = 0; k < h; k++) {
				if (scanf("%zu %zu", &st[k].na, &st[k].nb) != 2 || st[k].na > 256 ||
				    st[k].nb > 256 || read_vals(sa[k], st[k].na) || read_vals(sb[k], st[k].nb))
					return 2;
				st[k].a = sa[k];
				st[k].b = sb[k];
			}
			fw_van_elteren(st, h, &z, &p);
			printf("%.17g %.17g\n", z, p);
			continue;
		}
		if (scanf("%zu %zu", &na, &nb) != 2 || na > MAXV || nb > MAXV ||
		    read_vals(a, na) || read_vals(b, nb))
			return 2;
		if (!strcmp(op, "mwu")) {
			struct fw_mwu r;
			fw_mannwhitney(a, na, b, nb, &r);
			printf("%.17g %.17g %d\n", r.u1, r.p, r.exact);
		} else if (!strcmp(op, "hl")) {
			struct fw_hl r;
			fw_hodges_lehmann(a, na, b, nb, 0.95, &r);
			printf("%.17g %.17g %.17g %.17g %d\n", r.shift, r.lo, r.hi, r.conf, r.exact);
		} else {
			return 2;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--ref"))
		return ref_loop();
	/* scipy.stats.mannwhitneyu([1,2,3,4],[5,6,7,8]) -> U=0, p=0.028571428571428571 */
	double a[] = { 1, 2, 3, 4 }, b[] = { 5, 6, 7, 8 };
	struct fw_mwu r;
	fw_mannwhitney(a, 4, b, 4, &r);
	ok(r.exact && fabs(r.p - 2.0 / 70) < 1e-15, "exact MWU p for 4 vs 4 is 2/70");
	return done_testing();
}
