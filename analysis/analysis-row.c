/*
 * One comparison row: the numbers of the series table for one metric, one
 * environment and one pair of commits. No SQL here: the collector's end-of-run
 * table can call it with values it holds in memory.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analysis-internal.h"
#include "stats.h"

void fw_analysis_opts_init(struct fw_analysis_opts *o)
{
	o->alpha = 0.05;
	o->min_effect_pct = 2;
	o->noise_floor_pct = 0.5;
	o->floor_alpha = 0.001;
	o->ci_level = 0.95;
	o->max_looks = 0;
	o->determinism_file = getenv("FOLIOWATCH_DETERMINISM");
	o->use_cache = 1;
	o->page = 0;
	o->wake = NULL;
}

static size_t count_boots(const struct fw_side *s)
{
	size_t n = 0;

	/* Samples arrive grouped by run (the loader orders them so). */
	for (size_t i = 0; i < s->n; i++)
		if (!i || s->boot[i] != s->boot[i - 1])
			n++;
	return n;
}

/* The unit of comparison: per-boot medians with >= 3 boots on both sides, else samples. */
static double *units_of(const struct fw_side *s, int per_boot, size_t *n)
{
	double *u = malloc((s->n ? s->n : 1) * sizeof(*u));

	if (!u)
		return NULL;
	if (per_boot) {
		*n = fw_group_medians(s->v, s->boot, s->n, u);
	} else {
		memcpy(u, s->v, s->n * sizeof(*u));
		*n = s->n;
	}
	return u;
}

static cJSON *side_json(const struct fw_side *s, size_t boots, double median, int is_rate)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddNumberToObject(o, "boots", (double)boots);
	cJSON_AddNumberToObject(o, "samples", (double)s->n);
	fw_json_num_or_null(o, "median", median);
	if (is_rate)
		fw_json_num_or_null(o, "hmean", fw_harmonic_mean(s->v, s->n));
	return o;
}

/*
 * Pooled noise of the two sides, in value units: the pooled sample standard
 * deviation. (A MAD of 3-5 boot medians is too coarse: it often comes out
 * near zero and would promise an MDE the data cannot deliver.)
 */
static double pooled_sigma(const double *ua, size_t na, const double *ub, size_t nb)
{
	double sa = fw_stdev(ua, na), sb = fw_stdev(ub, nb);

	if (isnan(sa))
		return sb;
	if (isnan(sb))
		return sa;
	return sqrt(((double)(na - 1) * sa * sa + (double)(nb - 1) * sb * sb) / (double)(na + nb - 2));
}

void fw_noise_json(cJSON *row, const struct fw_noise *nz)
{
	cJSON *o;
	double lo, hi;

	if (!nz || (!nz->kernels && !nz->within_df))
		return;
	o = cJSON_AddObjectToObject(row, "same_kernel");
	fw_noise_bounds(nz, FW_CLASSIFY_LEVEL, &lo, &hi);
	fw_json_num_or_null(o, "cv_pct", nz->cv_pct);
	fw_json_num_or_null(o, "cv_lo_pct", lo);
	fw_json_num_or_null(o, "cv_hi_pct", hi);
	cJSON_AddNumberToObject(o, "df", nz->df);
	cJSON_AddNumberToObject(o, "boots", nz->boots);
	cJSON_AddNumberToObject(o, "kernels", nz->kernels);
	cJSON_AddNumberToObject(o, "range_pct", nz->range_pct);
	fw_noise_within_bounds(nz, FW_CLASSIFY_LEVEL, &lo, &hi);
	fw_json_num_or_null(o, "within_boot_cv_pct", nz->within_cv_pct);
	fw_json_num_or_null(o, "within_boot_cv_lo_pct", lo);
	fw_json_num_or_null(o, "within_boot_cv_hi_pct", hi);
	cJSON_AddNumberToObject(o, "within_boot_df", nz->within_df);
}

static void decided_json(cJSON *row, enum fw_verdict v, size_t boots_a, size_t boots_b, double needed)
{
	size_t have = boots_a < boots_b ? boots_a : boots_b;

	cJSON_AddBoolToObject(row, "decided", v != FW_UNSURE);
	if (v != FW_UNSURE)
		cJSON_AddNumberToObject(row, "decided_at_boots", (double)have);
	else
		fw_json_num_or_null(row, "boots_needed", needed);
}

/* Chebyshev: a difference far beyond the same-kernel noise needs no rank test. */
static void bound_json(cJSON *row, const struct fw_noise *nz, const double *ua, size_t na, const double *ub,
		       size_t nb, double alpha)
{
	int beyond;

	fw_json_num_or_null(row, "bound_pct", fw_chebyshev_bound(ua, na, ub, nb,
								 fw_noise_boot_hi(nz, FW_CLASSIFY_LEVEL), alpha, &beyond));
	cJSON_AddBoolToObject(row, "beyond_bound", beyond);
}

int fw_row_compute(cJSON *row, const struct fw_side *a, const struct fw_side *b,
		   const struct fw_row_meta *m, const struct fw_analysis_opts *o, double *p)
{
	size_t boots_a = count_boots(a), boots_b = count_boots(b), na = 0, nb = 0;
	int looks = m->looks >= 1 ? m->looks : 1, look = m->look >= 1 ? (m->look <= looks ? m->look : looks) : 1;
	/* The floor modes always compare per-boot medians: their noise is that of boots. */
	int per_boot = (boots_a >= 3 && boots_b >= 3) || m->mode != FW_MODE_RANK;
	/* Rank rows spend alpha O'Brien-Fleming-like over the looks; boots are sized for the last look's share. */
	double alpha = fw_alpha_at_look(o->alpha, look, looks), alpha_last = fw_alpha_at_look(o->alpha, looks, looks);
	double *ua = NULL, *ub = NULL, ma, mb, delta, sigma, ref_pct;
	struct fw_mwu mw;
	struct fw_hl hl;
	int ret = -1;

	*p = NAN;
	if (!a->n || !b->n)
		goto cleanup;
	ua = units_of(a, per_boot, &na);
	ub = units_of(b, per_boot, &nb);
	if (!ua || !ub)
		goto cleanup;
	ma = fw_median(ua, na);
	mb = fw_median(ub, nb);
	delta = fabs(ma) > 0 ? 100 * (mb - ma) / fabs(ma) : NAN;
	ref_pct = fabs(ma) > 0 ? 100 / fabs(ma) : NAN;

	cJSON_AddStringToObject(row, "unit_of_comparison", per_boot ? "boots" : "samples");
	cJSON_AddItemToObject(row, "a", side_json(a, boots_a, ma, m->is_rate));
	cJSON_AddItemToObject(row, "b", side_json(b, boots_b, mb, m->is_rate));
	fw_json_num_or_null(row, "delta_pct", delta);
	cJSON_AddNumberToObject(row, "min_effect_pct", m->min_effect_pct);

	fw_hodges_lehmann(ua, na, ub, nb, o->ci_level, &hl);
	fw_json_num_or_null(row, "shift", hl.shift);
	fw_json_num_or_null(row, "ci_lo_pct", hl.lo * ref_pct);
	fw_json_num_or_null(row, "ci_hi_pct", hl.hi * ref_pct);
	fw_json_num_or_null(row, "ci_level", hl.conf);

	fw_mannwhitney(ua, na, ub, nb, &mw);
	fw_json_num_or_null(row, "p", mw.p);
	cJSON_AddBoolToObject(row, "exact", mw.exact);
	fw_json_num_or_null(row, "min_p", fw_mwu_min_p(na, nb));

	sigma = pooled_sigma(ua, na, ub, nb);
	fw_json_num_or_null(row, "noise_pct", sigma * ref_pct);
	{
		int need = fw_boots_needed(sigma * ref_pct, 5, o->alpha, 0.95);
		fw_json_num_or_null(row, "boots_for_5pct", need > 0 ? need : NAN);
	}
	cJSON_AddBoolToObject(row, "higher_is_better", m->higher_is_better);
	cJSON_AddStringToObject(row, "mode", fw_mode_name(m->mode));
	cJSON_AddStringToObject(row, "mode_source", m->mode_source ? m->mode_source : "");
	fw_noise_json(row, m->noise);
	cJSON_AddNumberToObject(row, "looks", looks);
	cJSON_AddNumberToObject(row, "look", look);
	cJSON_AddNumberToObject(row, "alpha_used", m->mode == FW_MODE_RANK ? alpha : o->floor_alpha / looks);

	if (m->mode != FW_MODE_RANK) {
		struct fw_noise none;
		struct fw_floor_in in = {
			.a = ua, .b = ub, .na = na, .nb = nb,
			.higher_is_better = m->higher_is_better,
			.exact = m->mode == FW_MODE_EXACT,
			.noise = m->noise,
			.floor_min_pct = o->noise_floor_pct,
			.alpha = o->floor_alpha / looks,
			.power = 0.8,
			.min_effect_pct = m->min_effect_pct,
		};
		struct fw_floor_out out;
		int need;

		if (!in.noise) {
			fw_noise_init(&none);
			in.noise = &none;
		}
		fw_verdict_floor(&in, &out);
		need = fw_floor_boots_needed(in.noise, in.exact, in.floor_min_pct, in.alpha, in.power,
					     in.min_effect_pct, 1);
		fw_json_num_or_null(row, "mde_pct", out.mde_pct);
		fw_json_num_or_null(row, "floor_pct", out.floor_pct);
		cJSON_AddNumberToObject(row, "floor_boots", in.noise->boots);
		fw_json_num_or_null(row, "boots_for_min_effect", need > 0 ? need : NAN);
		cJSON_AddStringToObject(row, "verdict", fw_verdict_name(out.verdict));
		decided_json(row, out.verdict, boots_a, boots_b, out.boots_needed > 0 ? out.boots_needed : NAN);
	} else {
		/*
		 * Boots for the minimum effect at this look's level, from the noise
		 * between boots: the environment's same-kernel CV of per-boot
		 * medians when there is one, with the rounds' spread inside a boot
		 * (a boot's median can land where any of its rounds can), as the
		 * row's own spread comes from fewer boots.
		 */
		double noise_pct = sigma * ref_pct;
		int need;

		if (m->noise && !isnan(m->noise->cv_pct) && m->noise->df >= 2)
			noise_pct = fw_noise_boot_cv(m->noise);
		if (per_boot && m->noise && m->noise->df >= 2)
			bound_json(row, m->noise, ua, na, ub, nb, o->floor_alpha / looks);
		need = fw_boots_needed(noise_pct, m->min_effect_pct, alpha_last, 0.8);
		/* A row whose few boots agree by chance has no smaller MDE than the environment's noise. */
		if (!isnan(noise_pct) && fabs(ma) > 0)
			sigma = fmax(sigma, noise_pct / ref_pct);
		fw_json_num_or_null(row, "mde_pct", fw_mde_pct(sigma, ma, na, nb, alpha, 0.8));
		fw_json_num_or_null(row, "boots_for_min_effect", need > 0 && need < 1000000 ? need : NAN);
		*p = mw.p;
	}
	ret = 0;
cleanup:
	free(ua);
	free(ub);
	return ret;
}

void fw_row_finish(cJSON *row, double q, const struct fw_analysis_opts *o)
{
	const cJSON *mode = cJSON_GetObjectItemCaseSensitive(row, "mode");
	struct fw_verdict_in in;
	enum fw_verdict v;
	double alpha = fw_json_num(row, "alpha_used", NAN), need, have;
	double boots_a = fw_json_num(cJSON_GetObjectItemCaseSensitive(row, "a"), "boots", NAN);
	double boots_b = fw_json_num(cJSON_GetObjectItemCaseSensitive(row, "b"), "boots", NAN);

	fw_json_num_or_null(row, "q", q);
	if (!cJSON_IsString(mode) || strcmp(mode->valuestring, "rank"))
		return;
	in.higher_is_better = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(row, "higher_is_better"));
	in.delta_pct = fw_json_num(row, "delta_pct", NAN);
	in.q = q;
	in.min_p = fw_json_num(row, "min_p", NAN);
	in.mde_pct = fw_json_num(row, "mde_pct", NAN);
	in.alpha = isnan(alpha) ? o->alpha : alpha;
	in.min_effect_pct = fw_json_num(row, "min_effect_pct", NAN);
	in.beyond_bound = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(row, "beyond_bound"));
	v = fw_verdict_decide(&in);
	cJSON_AddStringToObject(row, "verdict", fw_verdict_name(v));
	/* Unsure: at least one more boot, even when the MDE says the boots are there (a big delta, not significant). */
	have = fmin(boots_a, boots_b);
	need = fw_json_num(row, "boots_for_min_effect", NAN);
	if (!isnan(need) && need <= have)
		need = have + 1;
	decided_json(row, v, (size_t)boots_a, (size_t)boots_b, need);
}
