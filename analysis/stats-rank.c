/*
 * Rank statistics: Mann-Whitney U (scipy's rules), the exact U distribution,
 * the Hodges-Lehmann shift with its interval, and van Elteren's stratified test.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "stats.h"

struct ranked {
	double v;
	size_t i;
};

static int cmp_ranked(const void *pa, const void *pb)
{
	const struct ranked *a = pa, *b = pb;
	if (a->v != b->v)
		return (a->v > b->v) - (a->v < b->v);
	return (a->i > b->i) - (a->i < b->i);
}

/*
 * Average ranks (1-based) of a followed by b, as scipy.stats.rankdata: writes
 * the rank sum of a and of b and the tie term sum(t^3 - t). -1 on NaN/OOM.
 */
static int rank_sums(const double *a, size_t na, const double *b, size_t nb,
		     double *ra, double *rb, double *tie_term)
{
	size_t n = na + nb, i = 0;
	struct ranked *r = malloc(n * sizeof(*r));

	if (!r)
		return -1;
	for (size_t k = 0; k < n; k++) {
		r[k].v = k < na ? a[k] : b[k - na];
		r[k].i = k;
		if (isnan(r[k].v)) {
			free(r);
			return -1;
		}
	}
	qsort(r, n, sizeof(*r), cmp_ranked);
	*ra = *rb = *tie_term = 0;
	while (i < n) {
		size_t j = i;
		while (j < n && r[j].v == r[i].v)
			j++;
		double t = (double)(j - i), rank = (double)(i + j + 1) / 2;
		*tie_term += t * t * t - t;
		for (size_t k = i; k < j; k++) {
			if (r[k].i < na)
				*ra += rank;
			else
				*rb += rank;
		}
		i = j;
	}
	free(r);
	return 0;
}

static double binom(size_t n, size_t k)
{
	return exp(lgamma((double)n + 1) - lgamma((double)k + 1) - lgamma((double)(n - k) + 1));
}

/*
 * Counts of the null distribution of U for sizes m, n: the coefficients of the
 * Gaussian binomial [m+n choose m]_q, built as prod_i (1-q^(n+i))/(1-q^i).
 * Each step's result is again a Gaussian binomial, so the division is exact
 * and every value is an integer below 2 * C(m+n, m): exact in int64 when that
 * is below 2^61. Returns a malloc()ed array of m*n+1 counts or NULL.
 */
static int64_t *u_counts(size_t m, size_t n)
{
	size_t deg = m * n;
	int64_t *c;

	if (binom(m + n, m) > 0x1p60)
		return NULL;
	c = calloc(deg + 1, sizeof(*c));
	if (!c)
		return NULL;
	c[0] = 1;
	for (size_t i = 1; i <= m; i++) {
		size_t up = n + i, cur = (i - 1) * n; /* degree before this step */
		/* multiply by (1 - q^up) */
		for (size_t k = cur + up; k >= up; k--) {
			if (k <= deg)
				c[k] -= c[k - up];
			if (k == up)
				break;
		}
		/* divide by (1 - q^i): prefix sums with stride i */
		for (size_t k = i; k <= deg; k++)
			c[k] += c[k - i];
	}
	return c;
}

double fw_mwu_min_p(size_t na, size_t nb)
{
	double p;

	if (!na || !nb)
		return 1;
	p = 2 / binom(na + nb, na);
	return p > 1 ? 1 : p;
}

int fw_mannwhitney(const double *a, size_t na, const double *b, size_t nb, struct fw_mwu *out)
{
	double ra, rb, tie, u1, u, n = (double)(na + nb), mn = (double)na * (double)nb;
	int64_t *cnt = NULL;

	out->u1 = out->p = NAN;
	out->exact = 0;
	if (!na || !nb || rank_sums(a, na, b, nb, &ra, &rb, &tie))
		return -1;
	u1 = ra - (double)na * ((double)na + 1) / 2;
	u = fmax(u1, mn - u1);
	out->u1 = u1;
	/* scipy: asymptotic if both are larger than 8 or there are ties. */
	if (!(na > 8 && nb > 8) && tie == 0)
		cnt = u_counts(na < nb ? na : nb, na < nb ? nb : na);
	if (cnt) {
		/* sf(U) = P(U' >= U) = P(U' <= mn - U) by symmetry; two-sided doubles it. */
		size_t k = (size_t)(mn - u);
		double s = 0;
		for (size_t i = 0; i <= k; i++)
			s += (double)cnt[i];
		out->p = 2 * s / binom(na + nb, na);
		out->exact = 1;
		free(cnt);
	} else {
		double sd = sqrt(mn / 12 * ((n + 1) - tie / (n * (n - 1))));
		out->p = sd > 0 ? 2 * fw_norm_sf((u - mn / 2 - 0.5) / sd) : 1;
		if (sd == 0) /* every value equal: scipy gives NaN; there is no evidence */
			out->p = 1;
	}
	if (out->p > 1)
		out->p = 1;
	return 0;
}

/*
 * The shift (median of d) and d_(k), d_(N+1-k), selected, not sorted: the
 * median's selection leaves the lower half before it and the upper after,
 * and k - 1 <= N / 2 <= N - k, so each bound is selected within its half.
 */
static void hl_order_stats(double *d, size_t N, size_t k, struct fw_hl *out)
{
	size_t m = N / 2;
	double lo, hi;

	fw_select_middle(d, N, &lo, &hi);
	out->shift = N % 2 ? hi : (lo + hi) / 2;
	if (k - 1 < m)
		fw_select(d, m, k - 1);
	out->lo = d[k - 1];
	if (N - k > m)
		fw_select(d + m + 1, N - m - 1, N - k - m - 1);
	out->hi = d[N - k];
}

int fw_hodges_lehmann(const double *a, size_t na, const double *b, size_t nb,
		      double level, struct fw_hl *out)
{
	size_t N = na * nb, k = 0;
	double *d = NULL, ra, rb, tie, alpha = 1 - level;
	int64_t *cnt = NULL;
	int ret = -1;

	out->shift = out->lo = out->hi = out->conf = NAN;
	out->exact = 0;
	if (!na || !nb || rank_sums(a, na, b, nb, &ra, &rb, &tie))
		goto cleanup;
	d = malloc(N * sizeof(*d));
	if (!d)
		goto cleanup;
	for (size_t i = 0; i < na; i++)
		for (size_t j = 0; j < nb; j++)
			d[i * nb + j] = b[j] - a[i];

	/*
	 * The interval is [d_(k), d_(N+1-k)] with coverage 1 - 2 P(U <= k-1):
	 * take the largest k whose tail P(U <= k-1) stays within alpha/2.
	 */
	if (tie == 0)
		cnt = u_counts(na < nb ? na : nb, na < nb ? nb : na);
	if (cnt) {
		double total = binom(na + nb, na), cum = 0;
		k = 1;
		for (size_t u = 0; u < N / 2; u++) {
			if ((cum + (double)cnt[u]) / total > alpha / 2)
				break;
			cum += (double)cnt[u];
			k = u + 1;
		}
		/* k = 1 gives [min, max], whose coverage is 1 - 2 P(U <= 0). */
		if (k == 1)
			cum = (double)cnt[0];
		out->conf = 1 - 2 * cum / total;
		out->exact = 1;
	} else {
		double n = (double)(na + nb), mn = (double)N;
		double sd = sqrt(mn / 12 * ((n + 1) - tie / (n * (n - 1))));
		double kk = floor(mn / 2 - fw_norm_ppf(1 - alpha / 2) * sd + 0.5);
		k = kk < 1 ? 1 : (size_t)kk;
		out->conf = sd > 0 ? 1 - 2 * fw_norm_cdf(((double)k - 0.5 - mn / 2) / sd) : NAN;
	}
	if (k > (N + 1) / 2)
		k = (N + 1) / 2;
	hl_order_stats(d, N, k, out);
	ret = 0;
cleanup:
	free(cnt);
	free(d);
	return ret;
}

int fw_van_elteren(const struct fw_stratum *s, size_t ns, double *z, double *p)
{
	double t = 0, e = 0, var = 0;

	*z = *p = NAN;
	for (size_t h = 0; h < ns; h++) {
		double ra, rb, tie, n = (double)(s[h].na + s[h].nb), w;
		if (!s[h].na || !s[h].nb)
			continue;
		if (rank_sums(s[h].a, s[h].na, s[h].b, s[h].nb, &ra, &rb, &tie))
			return -1;
		/* Weights 1/(N_h+1): locally most powerful for a common shift. */
		w = 1 / (n + 1);
		t += w * rb;
		e += w * (double)s[h].nb * (n + 1) / 2;
		var += w * w * (double)s[h].na * (double)s[h].nb / 12 *
		       ((n + 1) - tie / (n * (n - 1)));
	}
	if (!(var > 0))
		return -1;
	*z = (t - e) / sqrt(var);
	*p = 2 * fw_norm_sf(fabs(*z));
	if (*p > 1)
		*p = 1;
	return 0;
}
