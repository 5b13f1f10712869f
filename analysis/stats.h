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
double fw_mean(const double *x, size_t n);
double fw_stdev(const double *x, size_t n);          /* sample (n-1); NaN when n < 2 */
double fw_harmonic_mean(const double *x, size_t n);   /* rates (mmtests); NaN if any x <= 0 */
/* Scaled median absolute deviation (1.4826 * MAD: estimates sigma for normal data). */
double fw_mad_sigma(const double *x, size_t n);
/*
 * Per-boot medians: values[i] belongs to boot[i] (any ids, any order). Writes
 * one median per distinct boot into out (capacity n), ordered by boot id,
 * returns how many.
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
};
enum fw_verdict fw_verdict_decide(const struct fw_verdict_in *in);

/*
 * Deterministic mode (icount): values barely move between boots, so a rank
 * test on 3 boots cannot be significant. A change is real when the delta
 * exceeds the noise floor: max(floor_pct, the largest between-boot spread
 * (range/|median| %) seen within a or within b), and the two groups do not
 * overlap. `unsure` with fewer than 2 values per side.
 */
enum fw_verdict fw_verdict_deterministic(const double *a, size_t na, const double *b, size_t nb,
					 int higher_is_better, double floor_pct, double *noise_pct);

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

#endif
