#ifndef FW_STATS_H
#define FW_STATS_H
/*
 * Pure statistics for foliowatch: no SQL, no HTTP, no allocation visible to
 * callers (scratch memory is internal). Every function is deterministic for
 * the same input. Conventions:
 *   - "a" is the reference sample (parent/base), "b" the candidate (patch);
 *     a shift is b - a, a delta % is 100 * (median(b) - median(a)) / |median(a)|.
 *   - Functions return 0 on success, -1 when the input cannot give an answer
 *     (too few values, NaN, allocation failure); outputs are then NaN.
 */
#include <stddef.h>

double fw_median(const double *x, size_t n);          /* NaN when n == 0 */
/* Reorders v so that v[k] is its k-th smallest (0-based), none after it smaller, none before larger (stats-select.c). */
void fw_select(double *v, size_t n, size_t k);
/* The two middle values of v (n >= 1: equal when n is odd), v reordered as fw_select(v, n, n / 2) leaves it. */
void fw_select_middle(double *v, size_t n, double *lo, double *hi);
double fw_mean(const double *x, size_t n);
double fw_stdev(const double *x, size_t n);          /* sample (n-1); NaN when n < 2 */
double fw_harmonic_mean(const double *x, size_t n);   /* rates (mmtests); NaN if any x <= 0 */
/* Scaled median absolute deviation (1.4826 * MAD: estimates sigma for normal data). */
double fw_mad_sigma(const double *x, size_t n);
/*
 * Per-boot medians: values[i] belongs to boot[i] (any ids, any order). Writes
 * one median per distinct boot into out (capacity n), in the order the boots
 * first appear in values, returns how many.
 */
size_t fw_group_medians(const double *values, const long *boot, size_t n, double *out);

double fw_norm_cdf(double z);
double fw_norm_sf(double z);
double fw_norm_ppf(double p);                         /* inverse of fw_norm_cdf */
/* Student t two-sided p-value for statistic t with df degrees of freedom. */
double fw_t_two_sided_p(double t, double df);

/*
 * Mann-Whitney U, two-sided, following scipy.stats.mannwhitneyu(method='auto',
 * use_continuity=True) exactly: exact null distribution unless both samples
 * have more than 8 values or there are ties; otherwise the normal
 * approximation with tie correction and continuity correction. (When the
 * exact counts would overflow 64 bits we also fall back to the approximation;
 * scipy does not, but that needs samples far larger than ours.)
 */
struct fw_mwu {
	double u1;      /* U of sample a, as scipy reports it */
	double p;       /* two-sided p-value */
	int exact;      /* 1 when the exact distribution was used */
};
int fw_mannwhitney(const double *a, size_t na, const double *b, size_t nb, struct fw_mwu *out);
/* The smallest two-sided p an exact test with these sizes can produce: 2 / C(na+nb, na). */
double fw_mwu_min_p(size_t na, size_t nb);

/*
 * Hodges-Lehmann shift (median of all b_j - a_i) with a confidence interval
 * from the U distribution: exact when there are no ties and the counts fit,
 * else the normal approximation (tie-corrected). The exact interval is
 * conservative; `conf` holds the level actually achieved.
 */
struct fw_hl {
	double shift, lo, hi;
	double conf;    /* achieved confidence level */
	int exact;
};
int fw_hodges_lehmann(const double *a, size_t na, const double *b, size_t nb,
		      double level, struct fw_hl *out);

/* Benjamini-Hochberg adjusted p-values (q), same order as p; NaN p stays NaN and is not counted. */
void fw_bh_adjust(const double *p, double *q, size_t n);

/*
 * Stratified rank test over hosts (van Elteren, weights 1/(N_h+1), normal
 * approximation with tie correction, no continuity correction): used when a
 * series is sharded over hosts and each host compares its own base and patch.
 * With one stratum it equals the Mann-Whitney normal approximation without
 * continuity correction.
 */
struct fw_stratum {
	const double *a, *b;
	size_t na, nb;
};
int fw_van_elteren(const struct fw_stratum *s, size_t ns, double *z, double *p);

/*
 * Minimum detectable effect (% of |ref|) of a two-sided rank test at alpha with
 * power, given a noise sigma (same units as the values) and group sizes:
 * the normal-theory MDE inflated by the Mann-Whitney efficiency 3/pi.
 */
double fw_mde_pct(double sigma, double ref, size_t na, size_t nb, double alpha, double power);
/* Boots per side needed to detect effect_pct with this relative noise (sigma_pct). */
int fw_boots_needed(double sigma_pct, double effect_pct, double alpha, double power);

enum fw_verdict {
	FW_NO_CHANGE = 0,
	FW_IMPROVEMENT,
	FW_REGRESSION,
	FW_UNSURE,
};
const char *fw_verdict_name(enum fw_verdict v);   /* "no change", "improvement", ... */

/*
 * The decision for one metric. A change is reported only when it is both
 * significant (q <= alpha) and at least min_effect_pct; direction comes from
 * the metric's declaration. Not significant while this setup could not have
 * detected min_effect_pct (mde_pct > min_effect_pct, or the smallest reachable
 * p is above alpha) is `unsure`, not `no change`.
 */
struct fw_verdict_in {
	int higher_is_better;
	double delta_pct;        /* of medians, b against a */
	double q;                /* BH-adjusted p (or the raw p when alone) */
	double min_p;            /* smallest reachable p for these sizes */
	double mde_pct;
	double alpha;            /* default 0.05 */
	double min_effect_pct;   /* default 2 */
	/* 1: the two sides do not overlap and their means differ by more than the
	 * distribution-free (Chebyshev) bound from the same-kernel noise
	 * (fw_chebyshev_beyond): a change of at least the minimum effect is a
	 * change whatever the rank test's p. 0 (the default): rank test only. */
	int beyond_bound;
};
enum fw_verdict fw_verdict_decide(const struct fw_verdict_in *in);

/*
 * The distribution-free rule for rank rows (per-boot medians a, b; the
 * environment's same-kernel CV upper bound cv_hi_pct): by Chebyshev's
 * inequality the difference of the two means strays beyond k standard
 * errors with probability at most 1/k^2 whatever the noise's shape, so with
 * k = 1/sqrt(alpha) a difference beyond k * se (se = cv_hi * sqrt(1/na +
 * (mean_b/mean_a)^2/nb), relative to mean_a) is a false alarm with
 * probability at most alpha. Needs the two sides not to overlap. Returns the
 * bound in % (NaN when it cannot be computed) and sets *beyond.
 */
double fw_chebyshev_bound(const double *a, size_t na, const double *b, size_t nb, double cv_hi_pct,
			  double alpha, int *beyond);

/* Chi-square distribution: CDF and quantile (regularized incomplete gamma, bisection). */
double fw_chi2_cdf(double x, double df);
double fw_chi2_ppf(double p, double df);
/* Student t quantile: the t with P(T <= t) = p (bisection on fw_t_two_sided_p). */
double fw_t_ppf(double p, double df);

/*
 * Same-kernel noise of one metric in one environment (issue 12): the spread
 * of per-boot medians between repeated boots of the *same* kernel, pooled
 * over every kernel measured there. Each kernel contributes its squared
 * deviations from its own mean, relative to that mean, so kernels at
 * different levels pool; a kernel with one boot contributes nothing.
 * Beside it, the spread of the rounds within each boot, pooled the same way
 * (each boot around its own mean): a metric whose rounds disagree inside a
 * boot is not deterministic even when the boots' medians happen to agree (the
 * lazyfree reclaim under icount: round 1 takes one of two values 9% apart,
 * and a run where every boot of a kernel drew the same value made a
 * comment-only patch a "deterministic" +4.6% regression).
 */
struct fw_noise {
	double cv_pct;      /* pooled within-kernel sd of per-boot medians, % of the level; NaN: no repeats */
	double df;          /* degrees of freedom: sum over kernels of (boots - 1) */
	int boots;          /* boots it rests on (of kernels with >= 2 boots) */
	int kernels;        /* kernels with >= 2 boots */
	double range_pct;   /* largest same-kernel spread of per-boot medians (range / |median|, %); 0 none */
	double ss;          /* accumulator: sum of squared relative deviations */
	double within_cv_pct;   /* pooled sd of rounds within a boot, % of the boot's mean; NaN: none */
	double within_df;       /* sum over boots of (rounds - 1) */
	double within_ss;       /* accumulator, as ss */
};
void fw_noise_init(struct fw_noise *n);
/* Adds one kernel's per-boot medians (any order). */
void fw_noise_add_kernel(struct fw_noise *n, const double *medians, size_t nb);
/* Adds one boot's rounds (any order); a boot of one round contributes nothing. */
void fw_noise_add_boot(struct fw_noise *n, const double *rounds, size_t nr);
/* Computes cv_pct and within_cv_pct from what was added (NaN when their df is 0). */
void fw_noise_finish(struct fw_noise *n);
/*
 * Confidence bounds of cv_pct (chi-square on df): *lo and *hi are one-sided
 * bounds at `level` each (0.95: a 90% two-sided interval). NaN without data.
 */
void fw_noise_bounds(const struct fw_noise *n, double level, double *lo, double *hi);
/* The same bounds of within_cv_pct. */
void fw_noise_within_bounds(const struct fw_noise *n, double level, double *lo, double *hi);
/*
 * An upper bound (at `level`) of the sd of one boot's median, % of the level,
 * for distribution-free rules: the between-boot bound combined with the
 * within-boot one (sqrt of the sum of squares), since a boot's median can
 * land anywhere its rounds can when which value a round takes is decided per
 * boot. NaN without between-boot evidence.
 */
double fw_noise_boot_hi(const struct fw_noise *n, double level);
/* The point estimate of the same: cv_pct combined with within_cv_pct when there is one. */
double fw_noise_boot_cv(const struct fw_noise *n);

/*
 * How a metric is compared in an environment:
 *   FW_MODE_RANK   Mann-Whitney U on per-boot medians (or samples), BH over the series;
 *   FW_MODE_FLOOR  "deterministic": the delta against a noise floor estimated from
 *                  the environment's same-kernel boots (fw_verdict_floor);
 *   FW_MODE_EXACT  a count whose same-kernel boots agree: compared exactly.
 */
enum fw_mode { FW_MODE_RANK = 0, FW_MODE_FLOOR, FW_MODE_EXACT };
const char *fw_mode_name(enum fw_mode m);   /* "rank", "deterministic", "exact" */

/*
 * The determinism bound: a metric is deterministic in an environment when
 * repeated boots of one kernel agree to a within-kernel CV of per-boot
 * medians of at most this many percent.
 */
#define FW_DETERMINISTIC_CV_PCT 0.5
/*
 * Alpha spending of the rank rows over K planned looks (issue 12): the share
 * of alpha look k (1..K) tests at, the increment of an O'Brien-Fleming-type
 * spending function a(t) = 2 - 2 Phi(z(1 - alpha/2) / sqrt(t)) at t = k/K
 * (Lan-DeMets). The shares sum to alpha, and each look is tested at its share
 * alone (a union bound, so no correlation between looks is assumed): the
 * chance of a false alarm at any look stays below alpha whatever is booted
 * between looks. Early looks get little (K = 4, alpha 0.05: 0.00009, 0.0055,
 * 0.018, 0.026): a rank row with 3 boots cannot be significant anyway, and one
 * that runs to the budget keeps half of alpha instead of a quarter. (The
 * floors, decided at the first look, split theirs equally: floor_alpha / K.)
 * K <= 1: alpha (a fixed design).
 */
double fw_alpha_at_look(double alpha, int look, int looks);

/* One-sided confidence of the "shown" / "refuted" decisions of fw_classify. */
#define FW_CLASSIFY_LEVEL 0.95

/*
 * Measured, not assumed: with same-kernel evidence (df >= 1) whose upper
 * bound (FW_CLASSIFY_LEVEL) of the CV is <= bound_pct, the metric is shown
 * deterministic; whose lower bound is > bound_pct, shown not deterministic.
 * Rounds within a boot must agree as well: a within-boot lower bound above
 * bound_pct shows it not deterministic, and "shown deterministic" needs the
 * within-boot upper bound <= bound_pct too (when there are such rounds).
 * Otherwise (no repeats, or an interval straddling the bound) the default
 * (a table entry) decides. A deterministic count is FW_MODE_EXACT.
 * *from_data: 1 when the evidence decided, 0 when the default did.
 */
enum fw_mode fw_classify(const struct fw_noise *n, int is_count, int default_deterministic,
			 double bound_pct, int *from_data);

/*
 * The floor rule for a FW_MODE_FLOOR or FW_MODE_EXACT row, on per-boot
 * medians a (reference) and b (candidate):
 *   se    = cv * sqrt(r(na)/na + r(nb)/nb), r(n) = pi/2 for n >= 3 (a median's
 *           variance), 1 for n <= 2; cv from the environment's evidence;
 *   floor = max(floor_min_pct, t(1 - alpha/2, df) * se)          (FLOOR)
 *           max(range_pct,     t(1 - alpha/2, df) * se)          (EXACT: no minimum, the
 *           largest same-kernel disagreement ever seen; 0 for a count that always agreed)
 *   |delta| > floor and the two groups do not overlap: a change (direction from the metric);
 *   |delta| > floor but overlapping: unsure (the floor was not the whole noise);
 *   |delta| <= floor: no change if mde = floor + z(power) * se <= min_effect_pct
 *           (an effect of the minimum size would have shown), else unsure.
 * FLOOR needs >= 2 boots per side and df >= 1; EXACT >= 1 boot per side (df 0:
 * exact by construction, floor 0). alpha is the look's level (fw_alpha_at_look of floor_alpha).
 */
struct fw_floor_in {
	const double *a, *b;
	size_t na, nb;
	int higher_is_better;
	int exact;
	const struct fw_noise *noise;
	double floor_min_pct;     /* FLOOR only: the smallest floor (opts noise_floor_pct, 0.5) */
	double alpha;             /* two-sided level of the floor, after spending over looks */
	double power;             /* 0.8 */
	double min_effect_pct;
};
struct fw_floor_out {
	enum fw_verdict verdict;
	double delta_pct, floor_pct, mde_pct, se_pct;
	int boots_needed;         /* per side for mde <= min effect; -1: no number of boots does */
};
void fw_verdict_floor(const struct fw_floor_in *in, struct fw_floor_out *out);
/* Boots per side for mde <= min_effect_pct under the floor rule (>= have); -1 when unreachable. */
int fw_floor_boots_needed(const struct fw_noise *noise, int exact, double floor_min_pct, double alpha,
			  double power, double min_effect_pct, int have);

/*
 * Change points along a history (E-divisive means, as in Apache Otava/hunter):
 * binary segmentation on the energy statistic, each candidate accepted when a
 * Welch t-test between the two sides gives p < max_p. Writes sorted indices
 * (first index of each new segment) into cp (capacity n), returns the count.
 */
struct fw_cp_opts {
	double max_p;       /* default 0.001 */
	size_t min_size;    /* smallest segment, default 3 */
};
size_t fw_change_points(const double *x, size_t n, const struct fw_cp_opts *o, size_t *cp);
/* The fewest commits with a change point possible: two segments of the default min_size. */
#define FW_CP_MIN_COMMITS 6

#endif
