/*
 * Determinism is measured, not assumed (issue 12): the same-kernel noise of a
 * metric in an environment, the classification it leads to (rank test, noise
 * floor, exact count), and the floor rule itself. Plus the chi-square and t
 * quantiles these need. Pure functions, as in stats.c.
 */
#include <math.h>
#include <stdlib.h>
#include "stats.h"

/* Regularized lower incomplete gamma P(a, x): series below a+1, continued fraction above. */
static double gamma_p(double a, double x)
{
	const double tiny = 1e-300;
	double front, b, c, d, h;

	if (!(x > 0))
		return 0;
	if (isinf(x))
		return 1;
	front = exp(-x + a * log(x) - lgamma(a));
	if (x < a + 1) {
		double ap = a, sum = 1 / a, del = sum;
		for (int n = 0; n < 10000; n++) {
			ap += 1;
			del *= x / ap;
			sum += del;
			if (fabs(del) < fabs(sum) * 1e-16)
				break;
		}
		return fmin(1, sum * front);
	}
	b = x + 1 - a;
	c = 1 / tiny;
	d = 1 / b;
	h = d;
	for (int i = 1; i < 10000; i++) {
		double an = -i * (i - a), del;
		b += 2;
		d = an * d + b;
		d = fabs(d) < tiny ? tiny : d;
		c = b + an / c;
		c = fabs(c) < tiny ? tiny : c;
		d = 1 / d;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < 1e-16)
			break;
	}
	return fmax(0, 1 - front * h);
}

double fw_chi2_cdf(double x, double df)
{
	if (isnan(x) || !(df > 0))
		return NAN;
	return gamma_p(df / 2, x / 2);
}

/*
 * The quantiles are asked for the same few (p, df) pairs thousands of times
 * per analysis (every row's noise bounds): a bisection over an incomplete
 * gamma or beta each time was a quarter of an incremental analysis. A small
 * per-thread memo returns the very same double, so results keep their bits.
 */
/*
 * A history asks for the same few quantiles per (p, df) at every commit of
 * every metric (1.5 million at 10,000 commits); 64 direct-mapped slots
 * missed often enough for the search to be 5% of a first analysis.
 */
#define QUANTILE_MEMO 1024
struct quantile_memo {
	double p, df, q;
	int used;
};

static struct quantile_memo *memo_slot(struct quantile_memo *m, double p, double df)
{
	unsigned long long h = (unsigned long long)fmod(df * 1024.0, 1e15) * 0x9E3779B97F4A7C15ull ^
			       (unsigned long long)(p * 1e9) * 0xC2B2AE3D27D4EB4Full;

	return &m[(h >> 40) % QUANTILE_MEMO];
}

static double chi2_ppf_search(double p, double df)
{
	double lo = 0, hi = df > 1 ? df : 1;

	if (!(p > 0 && p < 1) || !(df > 0))
		return p == 0 && df > 0 ? 0 : NAN;
	while (fw_chi2_cdf(hi, df) < p && hi < 1e12)
		hi *= 2;
	for (int i = 0; i < 200 && hi - lo > 1e-14 * hi; i++) {
		double mid = (lo + hi) / 2;
		if (fw_chi2_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

double fw_chi2_ppf(double p, double df)
{
	static _Thread_local struct quantile_memo memo[QUANTILE_MEMO];
	struct quantile_memo *e;

	if (!(p > 0 && p < 1) || !(df > 0) || !isfinite(df))
		return chi2_ppf_search(p, df);
	e = memo_slot(memo, p, df);
	if (!e->used || e->p != p || e->df != df)
		*e = (struct quantile_memo){ p, df, chi2_ppf_search(p, df), 1 };
	return e->q;
}

static double t_ppf_search(double p, double df);

double fw_t_ppf(double p, double df)
{
	static _Thread_local struct quantile_memo memo[QUANTILE_MEMO];
	struct quantile_memo *e;

	if (!(p > 0 && p < 1) || !(df > 0) || !isfinite(df))
		return t_ppf_search(p, df);
	e = memo_slot(memo, p, df);
	if (!e->used || e->p != p || e->df != df)
		*e = (struct quantile_memo){ p, df, t_ppf_search(p, df), 1 };
	return e->q;
}

static double t_ppf_search(double p, double df)
{
	double target, lo = 0, hi = 1;

	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	if (p == 0.5)
		return 0;
	if (p < 0.5)
		return -t_ppf_search(1 - p, df);
	/* fw_t_two_sided_p falls as t grows: find t with two-sided p = 2 (1 - p). */
	target = 2 * (1 - p);
	while (fw_t_two_sided_p(hi, df) > target && hi < 1e15)
		hi *= 2;
	for (int i = 0; i < 200 && hi - lo > 1e-13 * hi; i++) {
		double mid = (lo + hi) / 2;
		if (fw_t_two_sided_p(mid, df) > target)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

double fw_alpha_at_look(double alpha, int look, int looks)
{
	double z, prev;

	if (looks <= 1)
		return alpha;
	z = fw_norm_ppf(1 - alpha / 2);
	if (look < 1)
		look = 1;
	if (look > looks)
		look = looks;
	prev = look == 1 ? 0 : 2 * fw_norm_sf(z / sqrt((double)(look - 1) / looks));
	return 2 * fw_norm_sf(z / sqrt((double)look / looks)) - prev;
}

void fw_noise_init(struct fw_noise *n)
{
	n->cv_pct = NAN;
	n->df = 0;
	n->boots = 0;
	n->kernels = 0;
	n->range_pct = 0;
	n->ss = 0;
	n->within_cv_pct = NAN;
	n->within_df = 0;
	n->within_ss = 0;
}

/*
 * Sum of squared deviations from the mean relative to it; -1 when x has no
 * usable level (a level of zero has no relative spread: usable only when all
 * of x agree, a zero count).
 */
static double rel_ss(const double *x, size_t nx)
{
	double m = 0, ss = 0;

	for (size_t i = 0; i < nx; i++)
		m += x[i];
	m /= (double)nx;
	if (!isfinite(m))
		return -1;
	if (!(fabs(m) > 0)) {
		for (size_t i = 0; i < nx; i++)
			if (x[i] != x[0])
				return -1;
		return 0;
	}
	for (size_t i = 0; i < nx; i++)
		ss += ((x[i] - m) / m) * ((x[i] - m) / m);
	return ss;
}

void fw_noise_add_boot(struct fw_noise *n, const double *x, size_t nr)
{
	double ss;

	if (nr < 2 || (ss = rel_ss(x, nr)) < 0)
		return;
	n->within_ss += ss;
	n->within_df += (double)(nr - 1);
}

void fw_noise_add_kernel(struct fw_noise *n, const double *x, size_t nb)
{
	double lo, hi, m = 0, ss;

	if (nb < 2 || (ss = rel_ss(x, nb)) < 0)
		return;
	lo = hi = x[0];
	for (size_t i = 0; i < nb; i++) {
		m += x[i];
		lo = fmin(lo, x[i]);
		hi = fmax(hi, x[i]);
	}
	m /= (double)nb;
	if (fabs(m) > 0)
		n->range_pct = fmax(n->range_pct, 100 * (hi - lo) / fabs(m));
	n->ss += ss;
	n->df += (double)(nb - 1);
	n->boots += (int)nb;
	n->kernels++;
}

void fw_noise_finish(struct fw_noise *n)
{
	n->cv_pct = n->df > 0 ? 100 * sqrt(n->ss / n->df) : NAN;
	n->within_cv_pct = n->within_df > 0 ? 100 * sqrt(n->within_ss / n->within_df) : NAN;
}

static void cv_bounds(double cv, double df, double level, double *lo, double *hi)
{
	*lo = *hi = NAN;
	if (!(df >= 1) || isnan(cv))
		return;
	*lo = cv * sqrt(df / fw_chi2_ppf(level, df));
	*hi = cv * sqrt(df / fw_chi2_ppf(1 - level, df));
}

void fw_noise_bounds(const struct fw_noise *n, double level, double *lo, double *hi)
{
	cv_bounds(n->cv_pct, n->df, level, lo, hi);
}

void fw_noise_within_bounds(const struct fw_noise *n, double level, double *lo, double *hi)
{
	cv_bounds(n->within_cv_pct, n->within_df, level, lo, hi);
}

double fw_noise_boot_cv(const struct fw_noise *n)
{
	return isnan(n->within_cv_pct) ? n->cv_pct : hypot(n->cv_pct, n->within_cv_pct);
}

double fw_noise_boot_hi(const struct fw_noise *n, double level)
{
	double lo, hi, wlo, whi;

	fw_noise_bounds(n, level, &lo, &hi);
	fw_noise_within_bounds(n, level, &wlo, &whi);
	if (isnan(hi) || isnan(whi))
		return hi;
	return sqrt(hi * hi + whi * whi);
}

const char *fw_mode_name(enum fw_mode m)
{
	switch (m) {
	case FW_MODE_RANK: return "rank";
	case FW_MODE_FLOOR: return "deterministic";
	case FW_MODE_EXACT: return "exact";
	}
	return "rank";
}

enum fw_mode fw_classify(const struct fw_noise *n, int is_count, int default_deterministic,
			 double bound_pct, int *from_data)
{
	int det = !!default_deterministic;
	double lo, hi, wlo, whi;

	*from_data = 0;
	fw_noise_bounds(n, FW_CLASSIFY_LEVEL, &lo, &hi);
	fw_noise_within_bounds(n, FW_CLASSIFY_LEVEL, &wlo, &whi);
	if ((!isnan(lo) && lo > bound_pct) || (!isnan(wlo) && wlo > bound_pct)) {
		det = 0;
		*from_data = 1;
	} else if (!isnan(hi) && hi <= bound_pct && (isnan(whi) || whi <= bound_pct)) {
		det = 1;
		*from_data = 1;
	}
	if (!det)
		return FW_MODE_RANK;
	return is_count ? FW_MODE_EXACT : FW_MODE_FLOOR;
}

/*
 * Variance of the median of n normal values in units of sigma^2/n (simulated,
 * 400,000 draws each); pi/2 (the limit, and above every small odd n) beyond.
 */
static double median_var_ratio(size_t n)
{
	static const double r[] = { 1, 1, 1, 1.346, 1.193, 1.434, 1.288, 1.473, 1.346, 1.495, 1.381,
				    1.518, 1.405 };
	return n < sizeof(r) / sizeof(*r) ? r[n] : M_PI / 2;
}

static double se_of(double cv_pct, size_t na, size_t nb)
{
	return cv_pct * sqrt(median_var_ratio(na) / (double)na + median_var_ratio(nb) / (double)nb);
}

static double floor_of(const struct fw_noise *nz, int exact, double floor_min_pct, double alpha, double se)
{
	double thr = se > 0 && nz->df >= 1 ? fw_t_ppf(1 - alpha / 2, nz->df) * se : 0;

	return fmax(exact ? nz->range_pct : floor_min_pct, thr);
}

int fw_floor_boots_needed(const struct fw_noise *nz, int exact, double floor_min_pct, double alpha,
			  double power, double min_effect_pct, int have)
{
	int least = exact ? 1 : 2;
	double zp = fw_norm_ppf(power);

	if (have < least)
		have = least;
	if (!(nz->df >= 1) || isnan(nz->cv_pct))
		/* No same-kernel evidence yet: an exact count needs none, a time needs repeats. */
		return exact ? have : have + 1;
	if ((exact ? nz->range_pct : floor_min_pct) >= min_effect_pct)
		return -1;
	for (int n = have; n <= 1000; n++) {
		double se = se_of(nz->cv_pct, (size_t)n, (size_t)n);
		if (floor_of(nz, exact, floor_min_pct, alpha, se) + zp * se <= min_effect_pct)
			return n;
	}
	return -1;
}

static void range_of(const double *x, size_t n, double *lo, double *hi)
{
	*lo = *hi = x[0];
	for (size_t i = 1; i < n; i++) {
		*lo = fmin(*lo, x[i]);
		*hi = fmax(*hi, x[i]);
	}
}

void fw_verdict_floor(const struct fw_floor_in *in, struct fw_floor_out *out)
{
	const struct fw_noise *nz = in->noise;
	size_t least = in->exact ? 1 : 2;
	int have = (int)(in->na < in->nb ? in->na : in->nb);
	double ma, mb, alo, ahi, blo, bhi, se;

	out->verdict = FW_UNSURE;
	out->delta_pct = out->floor_pct = out->mde_pct = out->se_pct = NAN;
	out->boots_needed = -1;
	if (in->na < least || in->nb < least) {
		out->boots_needed = (int)least;
		return;
	}
	ma = fw_median(in->a, in->na);
	mb = fw_median(in->b, in->nb);
	range_of(in->a, in->na, &alo, &ahi);
	range_of(in->b, in->nb, &blo, &bhi);
	if (!(fabs(ma) > 0)) {
		/* A zero count: only "both always zero" can be decided. */
		if (in->exact && alo == 0 && ahi == 0 && blo == 0 && bhi == 0) {
			out->delta_pct = out->floor_pct = out->mde_pct = out->se_pct = 0;
			out->verdict = FW_NO_CHANGE;
		}
		return;
	}
	out->delta_pct = 100 * (mb - ma) / fabs(ma);
	if (!in->exact && !(nz->df >= 1)) {
		out->boots_needed = have + 1;
		return;
	}
	se = nz->df >= 1 ? se_of(nz->cv_pct, in->na, in->nb) : 0;
	out->se_pct = se;
	out->floor_pct = floor_of(nz, in->exact, in->floor_min_pct, in->alpha, se);
	out->mde_pct = out->floor_pct + fw_norm_ppf(in->power) * se;
	/* 1e-9 points: a float's rounding is not a change of an exact count. */
	if (fabs(out->delta_pct) > out->floor_pct + 1e-9) {
		if (!(ahi < blo || bhi < alo)) {
			out->boots_needed = have + 1;
			return;
		}
		out->verdict = (out->delta_pct > 0) == !!in->higher_is_better ? FW_IMPROVEMENT : FW_REGRESSION;
		return;
	}
	if (out->mde_pct <= in->min_effect_pct) {
		out->verdict = FW_NO_CHANGE;
		return;
	}
	out->boots_needed = fw_floor_boots_needed(nz, in->exact, in->floor_min_pct, in->alpha, in->power,
						  in->min_effect_pct, have + 1);
}
