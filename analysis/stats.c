/*
 * Descriptive statistics, distributions, multiple testing, effect sizes and
 * verdicts. Rank tests live in stats-rank.c, change points in changepoint.c,
 * same-kernel noise, determinism and the floor rule in stats-floor.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "stats.h"

static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;
	return (a > b) - (a < b);
}

/* Median of an array that may be reordered. */
static double median_inplace(double *x, size_t n)
{
	double lo, hi;

	if (!n)
		return NAN;
	fw_select_middle(x, n, &lo, &hi);
	/* halves first: the same double as (a + b) / 2, without overflowing past 9e307 */
	return n % 2 ? hi : lo / 2 + hi / 2;
}

double fw_median(const double *x, size_t n)
{
	double *tmp, m;

	if (!n)
		return NAN;
	tmp = malloc(n * sizeof(*tmp));
	if (!tmp)
		return NAN;
	memcpy(tmp, x, n * sizeof(*tmp));
	m = median_inplace(tmp, n);
	free(tmp);
	return m;
}

double fw_mean(const double *x, size_t n)
{
	double s = 0;

	if (!n)
		return NAN;
	for (size_t i = 0; i < n; i++)
		s += x[i];
	return s / (double)n;
}

double fw_stdev(const double *x, size_t n)
{
	double m, s = 0;

	if (n < 2)
		return NAN;
	m = fw_mean(x, n);
	for (size_t i = 0; i < n; i++)
		s += (x[i] - m) * (x[i] - m);
	return sqrt(s / (double)(n - 1));
}

double fw_harmonic_mean(const double *x, size_t n)
{
	double s = 0;

	if (!n)
		return NAN;
	for (size_t i = 0; i < n; i++) {
		/* A rate of zero or below has no harmonic mean worth printing. */
		if (!(x[i] > 0))
			return NAN;
		s += 1 / x[i];
	}
	return (double)n / s;
}

double fw_mad_sigma(const double *x, size_t n)
{
	double *dev, med, mad;

	if (!n)
		return NAN;
	dev = malloc(n * sizeof(*dev));
	if (!dev)
		return NAN;
	med = fw_median(x, n);
	for (size_t i = 0; i < n; i++)
		dev[i] = fabs(x[i] - med);
	mad = median_inplace(dev, n);
	free(dev);
	return 1.4826 * mad;
}

struct boot_value {
	long boot;
	double v;
	size_t at;   /* index in the input */
};

static int cmp_boot_value(const void *pa, const void *pb)
{
	const struct boot_value *a = pa, *b = pb;
	if (a->boot != b->boot)
		return (a->boot > b->boot) - (a->boot < b->boot);
	return cmp_double(&a->v, &b->v);
}

struct boot_median {
	size_t first;   /* where the boot first appears in the input */
	double m;
};

static int cmp_first(const void *pa, const void *pb)
{
	const struct boot_median *a = pa, *b = pb;
	return (a->first > b->first) - (a->first < b->first);
}

/*
 * The common case: each boot's values are one stretch of the input (the
 * analysis holds them by run, then round) and few. Their medians in order,
 * each stretch sorted alone: the same values as the sort of all (perf: that
 * qsort was 5% of a history's first analysis). -1 when a boot comes back
 * after another, or a stretch or the boots are too many: the sort of all.
 */
#define STRETCH_MAX 64
static long stretch_medians(const double *values, const long *boot, size_t n, double *out)
{
	double g[STRETCH_MAX];
	long seen[STRETCH_MAX];
	size_t groups = 0;

	for (size_t i = 0, j; i < n; i = j) {
		for (j = i; j < n && boot[j] == boot[i]; j++)
			;
		if (j - i > STRETCH_MAX || groups == STRETCH_MAX)
			return -1;
		for (size_t k = 0; k < groups; k++)
			if (seen[k] == boot[i])
				return -1;
		seen[groups] = boot[i];
		for (size_t k = i; k < j; k++) {  /* insertion sort: a few values */
			size_t m = k - i;
			for (; m > 0 && cmp_double(&g[m - 1], &values[k]) > 0; m--)
				g[m] = g[m - 1];
			g[m] = values[k];
		}
		out[groups++] = (j - i) % 2 ? g[(j - i) / 2] : (g[(j - i) / 2 - 1] + g[(j - i) / 2]) / 2;
	}
	return (long)groups;
}

size_t fw_group_medians(const double *values, const long *boot, size_t n, double *out)
{
	struct boot_value *bv;
	struct boot_median *bm;
	size_t groups = 0, i = 0;
	long fast;

	if (!n)
		return 0;
	if ((fast = stretch_medians(values, boot, n, out)) >= 0)
		return (size_t)fast;
	bv = malloc(n * sizeof(*bv));
	bm = malloc(n * sizeof(*bm));
	if (!bv || !bm) {
		free(bv);
		free(bm);
		return 0;
	}
	for (size_t k = 0; k < n; k++)
		bv[k] = (struct boot_value){ boot[k], values[k], k };
	/* Sorted by (boot, value): each group is a sorted run, its median is direct. */
	qsort(bv, n, sizeof(*bv), cmp_boot_value);
	while (i < n) {
		size_t j = i, first = bv[i].at;
		for (; j < n && bv[j].boot == bv[i].boot; j++)
			if (bv[j].at < first)
				first = bv[j].at;
		size_t len = j - i;
		bm[groups++] = (struct boot_median){ first, len % 2 ? bv[i + len / 2].v
							    : (bv[i + len / 2 - 1].v + bv[i + len / 2].v) / 2 };
		i = j;
	}
	/* in the input's order of boots: what sums them gives the same bits whatever ids the DB gave */
	qsort(bm, groups, sizeof(*bm), cmp_first);
	for (size_t g = 0; g < groups; g++)
		out[g] = bm[g].m;
	free(bv);
	free(bm);
	return groups;
}

double fw_norm_cdf(double z)
{
	return 0.5 * erfc(-z / M_SQRT2);
}

double fw_norm_sf(double z)
{
	return 0.5 * erfc(z / M_SQRT2);
}

/*
 * Acklam's rational approximation (relative error 1.15e-9) polished by one
 * Halley step against erfc, which brings it to double precision.
 */
double fw_norm_ppf(double p)
{
	static const double a[] = { -3.969683028665376e+01, 2.209460984245205e+02,
		-2.759285104469687e+02, 1.383577518672690e+02, -3.066479806614716e+01,
		2.506628277459239e+00 };
	static const double b[] = { -5.447609879822406e+01, 1.615858368580409e+02,
		-1.556989798598866e+02, 6.680131188771972e+01, -1.328068155288572e+01 };
	static const double c[] = { -7.784894002430293e-03, -3.223964580411365e-01,
		-2.400758277161838e+00, -2.549732539343734e+00, 4.374664141464968e+00,
		2.938163982698783e+00 };
	static const double d[] = { 7.784695709041462e-03, 3.224671290700398e-01,
		2.445134137142996e+00, 3.754408661907416e+00 };
	double q, r, x, e, u;

	if (!(p > 0 && p < 1))
		return p == 0 ? -INFINITY : p == 1 ? INFINITY : NAN;
	if (p < 0.02425) {
		q = sqrt(-2 * log(p));
		x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
		    ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
	} else if (p > 1 - 0.02425) {
		q = sqrt(-2 * log(1 - p));
		x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
		     ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
	} else {
		q = p - 0.5;
		r = q * q;
		x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
		    (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
	}
	e = fw_norm_cdf(x) - p;
	u = e * sqrt(2 * M_PI) * exp(x * x / 2);
	return x - u / (1 + x * u / 2);
}

/* Continued fraction for the regularized incomplete beta (modified Lentz). */
static double betacf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (int m = 1; m <= 500; m++) {
		double m2 = 2.0 * m, aa, del;
		aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
		d = 1 + aa * d;
		d = fabs(d) < tiny ? tiny : d;
		c = 1 + aa / c;
		c = fabs(c) < tiny ? tiny : c;
		d = 1 / d;
		h *= d * c;
		aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
		d = 1 + aa * d;
		d = fabs(d) < tiny ? tiny : d;
		c = 1 + aa / c;
		c = fabs(c) < tiny ? tiny : c;
		d = 1 / d;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < 1e-15)
			break;
	}
	return h;
}

static double betai(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	/* The fraction converges fast only on one side of the mean; use symmetry. */
	if (x < (a + 1) / (a + b + 2))
		return front * betacf(a, b, x) / a;
	return 1 - front * betacf(b, a, 1 - x) / b;
}

double fw_t_two_sided_p(double t, double df)
{
	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return 0;
	return betai(df / 2, 0.5, df / (df + t * t));
}

void fw_bh_adjust(const double *p, double *q, size_t n)
{
	size_t *idx, m = 0;
	double run = 1;

	idx = malloc((n ? n : 1) * sizeof(*idx));
	if (!idx) {
		for (size_t i = 0; i < n; i++)
			q[i] = NAN;
		return;
	}
	for (size_t i = 0; i < n; i++) {
		q[i] = NAN;
		if (!isnan(p[i]))
			idx[m++] = i;
	}
	/* Insertion sort by p, stable: m is small (metrics x commits of one series). */
	for (size_t i = 1; i < m; i++) {
		size_t v = idx[i], j = i;
		while (j > 0 && p[idx[j - 1]] > p[v]) {
			idx[j] = idx[j - 1];
			j--;
		}
		idx[j] = v;
	}
	/* q_(i) = min over j >= i of m/j * p_(j), capped at 1. */
	for (size_t r = m; r > 0; r--) {
		double v = p[idx[r - 1]] * (double)m / (double)r;
		if (v < run)
			run = v;
		q[idx[r - 1]] = run;
	}
	free(idx);
}

double fw_mde_pct(double sigma, double ref, size_t na, size_t nb, double alpha, double power)
{
	double z, d;

	if (!na || !nb || isnan(sigma) || !(fabs(ref) > 0))
		return NAN;
	z = fw_norm_ppf(1 - alpha / 2) + fw_norm_ppf(power);
	/* Mann-Whitney's efficiency against the t-test under normal noise is 3/pi. */
	d = z * sigma * sqrt(1.0 / (double)na + 1.0 / (double)nb) / sqrt(3 / M_PI);
	return 100 * d / fabs(ref);
}

int fw_boots_needed(double sigma_pct, double effect_pct, double alpha, double power)
{
	double z, n;
	int k = 2;

	if (!(effect_pct > 0) || isnan(sigma_pct))
		return -1;
	/* The exact test cannot reach alpha below some size whatever the data. */
	while (fw_mwu_min_p((size_t)k, (size_t)k) > alpha)
		k++;
	z = fw_norm_ppf(1 - alpha / 2) + fw_norm_ppf(power);
	n = ceil(2 * pow(z * sigma_pct / effect_pct, 2) / (3 / M_PI));
	if (n > 1e6)
		return 1000000;
	return n > k ? (int)n : k;
}

const char *fw_verdict_name(enum fw_verdict v)
{
	switch (v) {
	case FW_NO_CHANGE: return "no change";
	case FW_IMPROVEMENT: return "improvement";
	case FW_REGRESSION: return "regression";
	case FW_UNSURE: return "unsure";
	}
	return "unsure";
}

static enum fw_verdict direction_of(double delta_pct, int higher_is_better)
{
	return (delta_pct > 0) == !!higher_is_better ? FW_IMPROVEMENT : FW_REGRESSION;
}

enum fw_verdict fw_verdict_decide(const struct fw_verdict_in *in)
{
	int sig, big;

	if (isnan(in->delta_pct))
		return FW_UNSURE;
	sig = !isnan(in->q) && in->q <= in->alpha;
	big = fabs(in->delta_pct) >= in->min_effect_pct;
	if (sig)
		return big ? direction_of(in->delta_pct, in->higher_is_better) : FW_NO_CHANGE;
	if (in->beyond_bound && big)
		return direction_of(in->delta_pct, in->higher_is_better);
	/* Not significant: only "no change" if this setup could have seen min effect. */
	if (isnan(in->q) || in->min_p > in->alpha || isnan(in->mde_pct) ||
	    in->mde_pct > in->min_effect_pct || big)
		return FW_UNSURE;
	return FW_NO_CHANGE;
}

double fw_chebyshev_bound(const double *a, size_t na, const double *b, size_t nb, double cv_hi_pct,
			  double alpha, int *beyond)
{
	double ma = 0, mb = 0, amin = INFINITY, amax = -INFINITY, bmin = INFINITY, bmax = -INFINITY, se, bound, d;

	*beyond = 0;
	if (!na || !nb || isnan(cv_hi_pct) || !(alpha > 0))
		return NAN;
	for (size_t i = 0; i < na; i++) {
		ma += a[i] / (double)na;
		amin = fmin(amin, a[i]);
		amax = fmax(amax, a[i]);
	}
	for (size_t i = 0; i < nb; i++) {
		mb += b[i] / (double)nb;
		bmin = fmin(bmin, b[i]);
		bmax = fmax(bmax, b[i]);
	}
	if (!(fabs(ma) > 0))
		return NAN;
	se = cv_hi_pct * sqrt(1.0 / (double)na + (mb / ma) * (mb / ma) / (double)nb);
	bound = se / sqrt(alpha);
	d = 100 * (mb - ma) / fabs(ma);
	*beyond = (amax < bmin || bmax < amin) && fabs(d) > bound;
	return bound;
}
