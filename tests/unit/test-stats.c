/* Unit tests of analysis/stats*.c and analysis/changepoint.c (pure statistics). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "stats.h"

#define near(got, want, tol, desc) do { double g_ = (got), w_ = (want); \
	if (!ok(fabs(g_ - w_) <= (tol), desc)) printf("#   got %.12g, expected %.12g\n", g_, w_); } while (0)

/* Deterministic generator (splitmix64) and Box-Muller: same numbers on every machine. */
static uint64_t rng_state = 0x5eed2026;
static double uniform01(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return ((double)(z >> 11) + 0.5) / 9007199254740992.0;
}
static double gauss(void)
{
	return sqrt(-2 * log(uniform01())) * cos(2 * M_PI * uniform01());
}

static void test_descriptive(void)
{
	double x[] = { 5, 1, 3, 2, 4 }, y[] = { 4, 1, 3, 2 }, r[] = { 100, 200 };
	double v[] = { 10, 30, 20, 7, 9, 8, 100 }, out[7];
	long boot[] = { 1, 1, 1, 0, 0, 0, 2 };

	near(fw_median(x, 5), 3, 0, "median of odd count");
	near(fw_median(y, 4), 2.5, 0, "median of even count");
	ok(isnan(fw_median(x, 0)), "median of nothing is NaN");
	near(fw_harmonic_mean(r, 2), 400.0 / 3, 1e-12, "harmonic mean of rates");
	near(fw_mad_sigma(x, 5), 1.4826, 1e-12, "scaled MAD");
	is_int(fw_group_medians(v, boot, 7, out), 3, "three boots");
	ok(out[0] == 20 && out[1] == 8 && out[2] == 100, "per-boot medians in the order the boots come");
}

/*
 * Boots in stretches (the analysis's order) take a path of their own: the
 * same medians as the same values interleaved (the sort of all), with
 * even and odd stretches, ties, a boot coming back and stretches too long.
 */
static void test_group_medians_paths(void)
{
	enum { BOOTS = 12, MAXR = 70 };
	double v[BOOTS * MAXR], w[BOOTS * MAXR], a[BOOTS * MAXR], b[BOOTS * MAXR];
	long boot[BOOTS * MAXR], wboot[BOOTS * MAXR];
	int bad = 0, cases = 0;

	for (int rounds = 1; rounds <= MAXR; rounds += rounds < 8 ? 1 : 31) {
		size_t n = 0, m = 0, ga, gb;

		for (int i = 0; i < BOOTS; i++)
			for (int r = 0; r < rounds; r++, n++) {
				v[n] = r % 3 == 1 ? 5.0 : floor(uniform01() * 40);  /* ties too */
				boot[n] = 1000 - 7 * i;  /* not ascending: only their stretches count */
			}
		/* interleaved, each boot first seen in the same order: round 0 of every boot, then the rest */
		for (int i = 0; i < BOOTS; i++, m++) {
			w[m] = v[(size_t)i * rounds];
			wboot[m] = boot[(size_t)i * rounds];
		}
		for (int r = 1; r < rounds; r++)
			for (int i = 0; i < BOOTS; i++, m++) {
				w[m] = v[(size_t)i * rounds + r];
				wboot[m] = boot[(size_t)i * rounds + r];
			}
		ga = fw_group_medians(v, boot, n, a);
		gb = fw_group_medians(w, wboot, m, b);
		cases++;
		bad += ga != BOOTS || gb != BOOTS || memcmp(a, b, BOOTS * sizeof(*a));
	}
	is_int(bad, 0, "per-boot medians of boots in stretches = of the same values interleaved");
	ok(cases >= 9, "... stretches of 1 to 70 values");
	{
		double x[] = { 3, 1, 2, 9, 8, 7 }, out[6];
		long bx[] = { 4, 4, 5, 4, 5, 5 };  /* boot 4 comes back after 5 */
		is_int(fw_group_medians(x, bx, 6, out), 2, "a boot that comes back is one boot");
		ok(out[0] == 3 && out[1] == 7, "... its median of all its values (3 of 1 3 9; 7 of 2 7 8)");
	}
}

static void test_distributions(void)
{
	near(fw_norm_ppf(0.975), 1.959963984540054, 1e-12, "normal quantile 0.975");
	near(fw_norm_ppf(1e-10), -6.361340902404056, 1e-9, "normal quantile in the far tail");
	/* scipy: 2*stats.t.sf(2.0, 10) = 0.073388034770740... */
	near(fw_t_two_sided_p(2.0, 10), 0.07338803477074, 1e-10, "t two-sided p, df 10");
	/* scipy: 2*stats.t.sf(3.5, 4.5) = 0.02054168996938556 */
	near(fw_t_two_sided_p(-3.5, 4.5), 0.02054168996938556, 1e-10, "t two-sided p, fractional df");
	near(fw_mwu_min_p(3, 3), 0.1, 1e-12, "3 boots against 3 cannot reach 0.05");
	near(fw_mwu_min_p(4, 4), 2.0 / 70, 1e-12, "4 against 4 can");
}

static void test_hl(void)
{
	double a[] = { 1, 2, 3, 4, 5 }, b[] = { 3.5, 4.5, 5.5, 6.5, 7.5 };
	struct fw_hl h;

	ok(!fw_hodges_lehmann(a, 5, b, 5, 0.95, &h), "HL computes");
	near(h.shift, 2.5, 1e-12, "HL shift is the median of pairwise differences");
	ok(h.exact && h.lo < 2.5 && h.hi > 2.5, "exact interval around the shift");
	near(h.conf, 1 - 2 * 4.0 / 252, 1e-12, "achieved level for 5 vs 5 is 1-2*P(U<=2)");
}

/*
 * Coverage of the 95% interval on normal data with a known shift. The exact
 * interval is conservative (its discrete levels jump: 96.8% or 94.4% at 5 vs 5),
 * so the nominal level checked is the one the interval states (conf).
 */
static double coverage(size_t n, int sims, double shift, double *stated)
{
	double a[64], b[64];
	int hit = 0;

	for (int s = 0; s < sims; s++) {
		struct fw_hl h;
		for (size_t i = 0; i < n; i++) {
			a[i] = 100 + gauss();
			b[i] = 100 + shift + gauss();
		}
		if (!fw_hodges_lehmann(a, n, b, n, 0.95, &h) && h.lo <= shift && shift <= h.hi)
			hit++;
		*stated = h.conf;
	}
	return (double)hit / sims;
}

static void test_coverage(void)
{
	double s5, s12, s40;
	double c5 = coverage(5, 1000, 1.5, &s5), c12 = coverage(12, 1000, 0.7, &s12), c40;

	printf("# HL interval coverage: n=5 %.3f (stated %.4f), n=12 %.3f (stated %.4f)\n",
	       c5, s5, c12, s12);
	ok(s5 >= 0.95 && s12 >= 0.95, "exact intervals are conservative: stated level >= 95%");
	ok(fabs(c5 - s5) <= 0.02, "HL coverage within 2 points of its level at n=5");
	ok(fabs(c12 - s12) <= 0.02, "HL coverage within 2 points of its level at n=12");
	ok(fabs(c12 - 0.95) <= 0.02, "HL coverage within 2 points of 95% at n=12");
	c40 = coverage(40, 300, 0.3, &s40);   /* normal-approximation branch */
	printf("# HL coverage n=40 (normal approximation): %.3f (stated %.4f)\n", c40, s40);
	ok(fabs(c40 - 0.95) <= 0.04, "normal-approximation interval near 95% at n=40");
}

static void test_verdicts(void)
{
	struct fw_verdict_in in = { .higher_is_better = 0, .delta_pct = 10, .q = 0.001,
		.min_p = 0.001, .mde_pct = 1, .alpha = 0.05, .min_effect_pct = 2 };

	is_str(fw_verdict_name(fw_verdict_decide(&in)), "regression", "slower time is a regression");
	in.higher_is_better = 1;
	is_str(fw_verdict_name(fw_verdict_decide(&in)), "improvement", "higher rate is an improvement");
	in.delta_pct = 1;
	is_str(fw_verdict_name(fw_verdict_decide(&in)), "no change", "significant but below min effect");
	in.q = 0.4;
	is_str(fw_verdict_name(fw_verdict_decide(&in)), "no change", "not significant, setup could see 2%");
	in.mde_pct = 6;
	is_str(fw_verdict_name(fw_verdict_decide(&in)), "unsure", "not significant, too noisy to see 2%");
	in.mde_pct = 1;
	in.min_p = 0.1;
	is_str(fw_verdict_name(fw_verdict_decide(&in)), "unsure", "too few boots to ever be significant");
}

/* The distribution-free (Chebyshev) rule for rank rows. */
static void test_chebyshev(void)
{
	double base[3] = { 0.0898, 0.0899, 0.0898 }, after[3] = { 0.0093, 0.0085, 0.0093 };
	double near[3] = { 0.0890, 0.0889, 0.0891 }, wide[3] = { 0.0800, 0.0950, 0.0880 };
	struct fw_verdict_in in = { .higher_is_better = 0, .delta_pct = -90, .q = 0.1, .min_p = 0.1,
		.mde_pct = 50, .alpha = 0.0055, .min_effect_pct = 2 };
	int beyond;
	double b;

	/* cv 1.67% at alpha 0.00025 (k = 63.2): se = 1.67 * sqrt(1/3 + 0.1^2/3) = 0.97%, bound 61% */
	b = fw_chebyshev_bound(base, 3, after, 3, 1.67, 0.00025, &beyond);
	ok(fabs(b - 1.67 * sqrt(1.0 / 3 + pow(0.00903 / 0.08983, 2) / 3) / sqrt(0.00025)) < 0.5 && beyond,
	   "-90% at 3 boots a side, cv 1.67%: beyond the bound (about 61%)");
	is_str(fw_verdict_name(fw_verdict_decide(&in)), "unsure", "the rank test alone: unsure (3 boots: p >= 0.1)");
	in.beyond_bound = beyond;
	is_str(fw_verdict_name(fw_verdict_decide(&in)), "improvement", "with the bound: an improvement");
	fw_chebyshev_bound(base, 3, near, 3, 1.67, 0.00025, &beyond);
	ok(!beyond, "-0.9%, separated but far inside the bound: not beyond");
	fw_chebyshev_bound(base, 3, after, 3, 20, 0.00025, &beyond);
	ok(!beyond, "-90% with a 20% same-kernel cv (bound about 730%): not beyond");
	fw_chebyshev_bound(base, 3, wide, 3, 0.1, 0.00025, &beyond);
	ok(!beyond, "overlapping sides: never beyond, however small the cv");
	ok(isnan(fw_chebyshev_bound(base, 3, after, 3, NAN, 0.00025, &beyond)) && !beyond, "no same-kernel noise: no bound");
	in.delta_pct = -1;
	in.beyond_bound = 1;
	is_str(fw_verdict_name(fw_verdict_decide(&in)), "unsure", "beyond but below the minimum effect: not a change");
}

static void test_spending(void)
{
	/* scipy: 2 - 2 Phi(z(0.975) / sqrt(k/4)), differences */
	static const double want[] = { 8.857543832130332e-05, 0.005486021242463002, 0.018050524636817,
				       0.02637487868239874 };
	double sum = 0;

	for (int k = 1; k <= 4; k++) {
		near(fw_alpha_at_look(0.05, k, 4), want[k - 1], 1e-12, "O'Brien-Fleming-type share of look k of 4");
		sum += fw_alpha_at_look(0.05, k, 4);
	}
	near(sum, 0.05, 1e-12, "the shares spend alpha exactly");
	near(fw_alpha_at_look(0.05, 1, 1), 0.05, 0, "one look: all of alpha");
}

static void test_quantiles(void)
{
	/* scipy.stats.chi2 / scipy.stats.t */
	near(fw_chi2_ppf(0.05, 4), 0.7107230213973239, 1e-9, "chi-square quantile 0.05, df 4");
	near(fw_chi2_ppf(0.95, 10), 18.307038053275146, 1e-9, "chi-square quantile 0.95, df 10");
	near(fw_chi2_ppf(0.05, 1), 0.003932140000019522, 1e-11, "chi-square quantile 0.05, df 1");
	near(fw_chi2_ppf(0.95, 300), 341.3951121087687, 1e-7, "chi-square quantile 0.95, df 300");
	near(fw_chi2_cdf(3.0, 2.5), 0.6941503705541809, 1e-12, "chi-square CDF, fractional df");
	near(fw_t_ppf(0.9995, 4), 8.610301581379899, 1e-8, "t quantile 0.9995, df 4");
	near(fw_t_ppf(0.975, 10), 2.2281388519649385, 1e-9, "t quantile 0.975, df 10");
	near(fw_t_ppf(0.99975, 40), 3.7884046243048664, 1e-8, "t quantile 0.99975, df 40");
	near(fw_t_ppf(0.01, 3), -4.540702858698421, 1e-8, "t quantile in the lower tail");
}

/* Same-kernel evidence pooled over kernels at different levels. */
static void test_noise(void)
{
	double k1[] = { 100, 100.2, 99.8 }, k2[] = { 50, 50.1 }, one[] = { 7 }, zero[] = { 0, 0, 0 };
	struct fw_noise n;
	double lo, hi;

	fw_noise_init(&n);
	fw_noise_add_kernel(&n, k1, 3);
	fw_noise_add_kernel(&n, k2, 2);
	fw_noise_add_kernel(&n, one, 1);
	fw_noise_finish(&n);
	is_int(n.boots, 5, "evidence rests on 5 boots (a kernel with one boot adds none)");
	is_int(n.kernels, 2, "of 2 kernels");
	near(n.df, 3, 0, "df = sum of (boots - 1)");
	/* relative deviations: +-0.2% (ss 8e-6), +-0.0999% of 50.05 (ss 1.996e-6) over 3 df */
	near(n.cv_pct, 100 * sqrt((8e-6 + 2 * pow(0.05 / 50.05, 2)) / 3), 1e-9, "pooled relative sd");
	near(n.range_pct, 0.4, 1e-9, "largest same-kernel range");
	fw_noise_bounds(&n, 0.95, &lo, &hi);
	ok(lo < n.cv_pct && n.cv_pct < hi, "the CV lies inside its bounds");
	fw_noise_init(&n);
	fw_noise_add_kernel(&n, zero, 3);
	fw_noise_finish(&n);
	ok(n.df == 2 && n.cv_pct == 0, "a count that is always zero is exact evidence");
	fw_noise_init(&n);
	fw_noise_finish(&n);
	ok(isnan(n.cv_pct) && n.df == 0, "no repeated boots: no evidence");
}

static struct fw_noise noise_of(double cv_pct, double df, int boots)
{
	struct fw_noise n;

	fw_noise_init(&n);
	n.cv_pct = cv_pct;
	n.df = df;
	n.boots = boots;
	n.kernels = boots / 3;
	return n;
}

static const char *floor_verdict(const double *a, size_t na, const double *b, size_t nb, int exact,
				  const struct fw_noise *nz, struct fw_floor_out *out)
{
	struct fw_floor_in in = { .a = a, .b = b, .na = na, .nb = nb, .higher_is_better = 0,
		.exact = exact, .noise = nz, .floor_min_pct = 0.5, .alpha = 0.001, .power = 0.8,
		.min_effect_pct = 2 };

	fw_verdict_floor(&in, out);
	return fw_verdict_name(out->verdict);
}

static void test_floor(void)
{
	double a[] = { 1000, 1001, 1000.5 }, b[] = { 1010, 1010.2, 1009.8 }, c[] = { 1002, 1001, 1000 };
	double x[] = { 100, 100.3, 99.7 }, y[] = { 102.3, 101.1, 103.5 };
	double ca[] = { 0.25, 0.25, 0.25 }, cb[] = { 0.255, 0.255, 0.255 }, cc[] = { 0.25, 0.25, 0.25 };
	struct fw_noise tight = noise_of(0.05, 40, 60), none = noise_of(NAN, 0, 0), wide = noise_of(1.5, 40, 60);
	struct fw_noise exact = noise_of(0, 20, 30);
	struct fw_floor_out o;

	is_str(floor_verdict(a, 3, b, 3, 0, &tight, &o), "regression", "floor: 1% slower on 3 boots is a regression");
	near(o.floor_pct, 0.5, 1e-12, "floor: a tight CV leaves the 0.5% minimum");
	is_str(floor_verdict(a, 3, c, 3, 0, &tight, &o), "no change", "floor: within the floor");
	ok(o.mde_pct < 2, "floor: ... and the minimum effect would have shown");
	is_str(floor_verdict(a, 1, b, 3, 0, &tight, &o), "unsure", "floor: one boot is not enough");
	is_str(floor_verdict(a, 3, b, 3, 0, &none, &o), "unsure", "floor: no same-kernel evidence: unsure");
	/*
	 * The old rule's false alarm: +2.3% on 3 boots whose spread was 1.8%. With
	 * the CV of 1.5% pooled over 60 boots the floor is t(0.9995, 40) * se = 5.0%.
	 */
	is_str(floor_verdict(x, 3, y, 3, 0, &wide, &o), "unsure", "floor from 60 boots: +2.3% is not a change");
	ok(o.floor_pct > 5 && o.floor_pct < 6.5, "... the floor comes from the pooled CV, not from 3 values");
	printf("# floor %.2f%%, MDE %.2f%%, boots needed %d\n", o.floor_pct, o.mde_pct, o.boots_needed);
	ok(o.boots_needed > 3, "... and it says how many boots would decide it");
	is_int(fw_floor_boots_needed(&tight, 0, 0.5, 0.001, 0.8, 2, 1), 2, "a tight metric decides 2% at 2 boots");
	is_int(fw_floor_boots_needed(&tight, 0, 2.5, 0.001, 0.8, 2, 1), -1, "a floor above the minimum effect: never");
	/* Exact counts: no minimum floor, any difference beyond the same-kernel spread is a change. */
	is_str(floor_verdict(ca, 3, cb, 3, 1, &exact, &o), "regression", "exact: +2% of a count is a change");
	near(o.floor_pct, 0, 1e-12, "exact: floor 0 for a count that always agreed");
	is_str(floor_verdict(ca, 3, cc, 3, 1, &exact, &o), "no change", "exact: equal counts, no change");
	is_str(floor_verdict(ca, 1, cb, 1, 1, &none, &o), "regression", "exact by construction: one boot each decides");
	exact.range_pct = 3;
	is_str(floor_verdict(ca, 3, cb, 3, 1, &exact, &o), "unsure", "exact: within a 3% spread seen before: not a change");
}

static void test_mde(void)
{
	double m = fw_mde_pct(1, 100, 12, 12, 0.05, 0.8);
	int n = fw_boots_needed(2, 5, 0.05, 0.95);

	ok(m > 1 && m < 1.3, "MDE of 12 vs 12 boots at 1% noise is a little over 1%");
	printf("# boots for 5%% at 2%% noise, 95%% power: %d\n", n);
	ok(n >= 4 && n <= 6, "boots needed for 5% at 2% noise");
	is_int(fw_boots_needed(0.1, 5, 0.05, 0.8), 4, "never fewer than the exact test needs");
}

static void test_bh(void)
{
	double p[] = { 0.01, 0.04, 0.03, 0.2, NAN }, q[5];

	fw_bh_adjust(p, q, 5);
	near(q[0], 0.04, 1e-12, "BH smallest p");
	near(q[1], 0.04 * 4 / 3, 1e-12, "BH takes the running minimum");
	near(q[3], 0.2, 1e-12, "BH largest p");
	ok(isnan(q[4]), "NaN p is not part of the family");
}

static void test_change_points(void)
{
	double x[60], flat[40];
	size_t cp[60], n, n2;

	for (int i = 0; i < 60; i++)
		x[i] = (i < 25 ? 100 : i < 45 ? 110 : 104) + gauss() * 0.5;
	for (int i = 0; i < 40; i++)
		flat[i] = 100 + gauss() * 0.5;
	n = fw_change_points(x, 60, NULL, cp);
	ok(n == 2 && cp[0] == 25 && cp[1] == 45, "two change points found where they are");
	n2 = fw_change_points(x, 60, NULL, cp);
	ok(n2 == n, "same input, same answer");
	is_int(fw_change_points(flat, 40, NULL, cp), 0, "no change point in noise");
}

static void test_van_elteren(void)
{
	double a1[] = { 10, 11, 12, 10.5 }, b1[] = { 12, 13, 14, 12.5 };
	double a2[] = { 50, 52, 51, 53, 50.5 }, b2[] = { 55, 56, 54, 57, 55.5 };
	struct fw_stratum s[] = { { a1, b1, 4, 4 }, { a2, b2, 5, 5 } };
	double z, p;

	ok(!fw_van_elteren(s, 2, &z, &p) && z > 0 && p < 0.01, "stratified test sees a shift on both hosts");
}

static int cmp_dbl(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;
	return (a > b) - (a < b);
}

/*
 * fw_select against a sort: every k of arrays with many ties (values of a
 * few levels) and without, the partition around k; the median and the
 * Hodges-Lehmann shift and bounds as order statistics of the sorted values.
 */
static void test_select(void)
{
	int bad_k = 0, bad_part = 0, bad_med = 0, bad_hl = 0, tries = 0;

	for (int t = 0; t < 400; t++) {
		size_t n = 1 + (size_t)(uniform01() * 60), na = 1 + t % 13, nb = 1 + t % 17, N = na * nb;
		double v[64] = { 0 }, sorted[64], w[64], a[16], b[20], *d = malloc(N * sizeof(*d));
		int levels = t % 3 ? 3 : 1000000;
		struct fw_hl h;
		size_t k;

		for (size_t i = 0; i < n; i++)
			v[i] = floor(uniform01() * levels);
		memcpy(sorted, v, sizeof(v));
		qsort(sorted, n, sizeof(*sorted), cmp_dbl);
		for (k = 0; k < n; k++) {
			memcpy(w, v, sizeof(v));
			fw_select(w, n, k);
			bad_k += w[k] != sorted[k];
			for (size_t i = 0; i < n; i++)
				bad_part += (i < k && w[i] > w[k]) || (i > k && w[i] < w[k]);
		}
		bad_med += fw_median(v, n) != (n % 2 ? sorted[n / 2] : sorted[n / 2 - 1] / 2 + sorted[n / 2] / 2);
		for (size_t i = 0; i < na; i++)
			a[i] = 100 + floor(gauss() * (t % 2 ? 3 : 1000));
		for (size_t j = 0; j < nb; j++)
			b[j] = 101 + floor(gauss() * (t % 2 ? 3 : 1000));
		for (size_t i = 0; i < na; i++)
			for (size_t j = 0; j < nb; j++)
				d[i * nb + j] = b[j] - a[i];
		qsort(d, N, sizeof(*d), cmp_dbl);
		if (!fw_hodges_lehmann(a, na, b, nb, 0.95, &h)) {
			int found = 0;
			tries++;
			for (k = 1; k <= (N + 1) / 2; k++)
				found |= d[k - 1] == h.lo && d[N - k] == h.hi;
			bad_hl += !found || h.shift != (N % 2 ? d[N / 2] : (d[N / 2 - 1] + d[N / 2]) / 2);
		}
		free(d);
	}
	if (!ok(!bad_k, "fw_select: the k-th smallest, every k of 400 arrays"))
		printf("#   %d wrong\n", bad_k);
	if (!ok(!bad_part, "... none before it larger, none after it smaller"))
		printf("#   %d misplaced\n", bad_part);
	if (!ok(!bad_med, "fw_median equals the sorted middle"))
		printf("#   %d differ\n", bad_med);
	if (!ok(tries > 300 && !bad_hl, "Hodges-Lehmann: shift and bounds are the sorted differences'"))
		printf("#   %d of %d differ\n", bad_hl, tries);
}

int main(void)
{
	test_descriptive();
	test_group_medians_paths();
	test_distributions();
	test_hl();
	test_coverage();
	test_verdicts();
	test_chebyshev();
	test_quantiles();
	test_spending();
	test_noise();
	test_floor();
	test_mde();
	test_bh();
	test_change_points();
	test_van_elteren();
	test_select();
	return done_testing();
}
