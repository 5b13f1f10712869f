/*
 * The typed analysis result against its JSON, field by field (issue 28):
 * analysis/an-result.c is the one reader of the analysis by key, so a key
 * mistyped there would turn a number into NaN without a word. Each field is
 * compared here under its own spelling of the key; a number the JSON has as
 * null or leaves out must be NaN (or FW_AN_NA) in the struct.
 */
#ifndef FW_AN_TYPED_CHECK_H
#define FW_AN_TYPED_CHECK_H
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "analysis-json.h"

static int tc_bad;

static void tc_num(const char *what, double typed, const cJSON *o, const char *key)
{
	const cJSON *v = o ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;
	double want = cJSON_IsNumber(v) ? v->valuedouble : NAN;

	if (!(typed == want || (isnan(typed) && isnan(want)))) {
		if (tc_bad++ < 5)
			printf("#   %s.%s: typed %g, JSON %g\n", what, key, typed, want);
	}
}

static void tc_int(const char *what, int typed, const cJSON *o, const char *key)
{
	tc_num(what, fw_an_whole(typed), o, key);
}

static void tc_str(const char *what, const char *typed, const cJSON *o, const char *key)
{
	const char *want = cJSON_GetStringValue(o ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL);

	if (strcmp(typed ? typed : "", want ? want : "") && tc_bad++ < 5)
		printf("#   %s.%s: typed '%s', JSON '%s'\n", what, key, typed ? typed : "", want ? want : "");
}

static void tc_bool(const char *what, int typed, const cJSON *o, const char *key)
{
	if (!typed != !cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, key)) && tc_bad++ < 5)
		printf("#   %s.%s: typed %d\n", what, key, typed);
}

static void tc_side(const char *what, const struct fw_an_side *s, const cJSON *o)
{
	tc_int(what, s->boots, o, "boots");
	tc_int(what, s->samples, o, "samples");
	tc_num(what, s->median, o, "median");
	tc_num(what, s->hmean, o, "hmean");
}

static void tc_row(const struct fw_an_row *r, const cJSON *j)
{
	static const char *const skeys[] = { "sha", "subject", "ref_sha", "against", "env_fingerprint", "host", "accel",
		"workload", "variant", "params", "metric", "unit", "direction", "kind", "unit_of_comparison", "mode",
		"mode_source", "verdict" };
	const char *svals[] = { r->sha, r->subject, r->ref_sha, r->against_name, r->env, r->host, r->accel, r->workload,
		r->variant, r->params, r->metric, r->unit, r->direction, r->kind, r->unit_of_comparison, r->mode,
		r->mode_source, r->verdict };
	static const char *const nkeys[] = { "min_effect_pct", "delta_pct", "shift", "ci_lo_pct", "ci_hi_pct", "ci_level",
		"p", "q", "mde_pct", "noise_pct", "min_p", "floor_pct", "alpha_used", "bound_pct" };
	const double nvals[] = { r->min_effect_pct, r->delta_pct, r->shift, r->ci_lo_pct, r->ci_hi_pct, r->ci_level, r->p,
		r->q, r->mde_pct, r->noise_pct, r->min_p, r->floor_pct, r->alpha_used, r->bound_pct };
	static const char *const ikeys[] = { "position", "boots_for_5pct", "floor_boots", "looks", "look",
		"boots_for_min_effect", "decided_at_boots", "boots_needed" };
	const int ivals[] = { r->position, r->boots_for_5pct, r->floor_boots, r->looks, r->look, r->boots_for_min_effect,
		r->decided_at_boots, r->boots_needed };
	const cJSON *sk = cJSON_GetObjectItemCaseSensitive(j, "same_kernel");

	for (size_t i = 0; i < sizeof(skeys) / sizeof(*skeys); i++)
		tc_str("row", svals[i], j, skeys[i]);
	for (size_t i = 0; i < sizeof(nkeys) / sizeof(*nkeys); i++)
		tc_num("row", nvals[i], j, nkeys[i]);
	for (size_t i = 0; i < sizeof(ikeys) / sizeof(*ikeys); i++)
		tc_int("row", ivals[i], j, ikeys[i]);
	tc_num("row", (double)r->commit_id, j, "commit_id");
	tc_num("row", (double)r->ref_commit_id, j, "ref_commit_id");
	tc_bool("row", r->decided, j, "decided");
	tc_bool("row", r->exact, j, "exact");
	tc_bool("row", r->beyond_bound, j, "beyond_bound");
	tc_bool("row", r->higher_is_better, j, "higher_is_better");
	tc_side("row.a", &r->a, cJSON_GetObjectItemCaseSensitive(j, "a"));
	tc_side("row.b", &r->b, cJSON_GetObjectItemCaseSensitive(j, "b"));
	if (!r->same_kernel.present != !sk && tc_bad++ < 5)
		printf("#   row.same_kernel: present %d\n", r->same_kernel.present);
	tc_num("row.same_kernel", r->same_kernel.cv_pct, sk, "cv_pct");
	tc_num("row.same_kernel", r->same_kernel.range_pct, sk, "range_pct");
	tc_int("row.same_kernel", r->same_kernel.boots, sk, "boots");
	tc_int("row.same_kernel", r->same_kernel.kernels, sk, "kernels");
	tc_num("row.same_kernel", r->same_kernel.within_cv_pct, sk, "within_boot_cv_pct");
	if ((int)r->ncounters != cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(j, "counters")) ||
	    (int)r->nattribution != cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(j, "attribution")))
		tc_bad++;
	for (size_t i = 0; i < r->ncounters; i++) {
		const cJSON *c = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(j, "counters"), (int)i);
		tc_str("counter", r->counters[i].name, c, "name");
		tc_num("counter", r->counters[i].a, c, "a");
		tc_num("counter", r->counters[i].b, c, "b");
		tc_num("counter", r->counters[i].delta_pct, c, "delta_pct");
	}
}

/* Every field of an (head, commits, rows, change points) is the JSON's. 1 when all are; rows: how many were compared. */
static int an_typed_matches(const struct fw_an *an, size_t *rows)
{
	const cJSON *t = fw_an_json(an), *e;
	size_t i = 0;

	tc_bad = 0;
	tc_str("head", an->series, t, "series");
	tc_str("head", an->base, t, "base");
	tc_str("head", an->data_hash, t, "data_hash");
	tc_int("head", an->revision, t, "revision");
	tc_num("head", an->alpha, t, "alpha");
	tc_num("head", an->min_effect_pct, t, "min_effect_pct");
	tc_num("head", an->noise_floor_pct, t, "noise_floor_pct");
	tc_num("head", an->floor_alpha, t, "floor_alpha");
	tc_num("head", an->deterministic_cv_pct, t, "deterministic_cv_pct");
	tc_int("head", an->looks, t, "looks");
	tc_int("head", an->look, t, "look");
	tc_bool("head", an->stale, t, "stale");
	cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(t, "commits")) {
		const struct fw_an_commit *c = &an->commits[i++];
		tc_str("commit", c->sha, e, "sha");
		tc_str("commit", c->key, e, "key");
		tc_str("commit", c->subject, e, "subject");
		tc_str("commit", c->parent_sha, e, "parent_sha");
		tc_int("commit", c->position, e, "position");
		tc_bool("commit", c->is_base, e, "is_base");
	}
	if (i != an->ncommits)
		tc_bad++;
	for (i = 0; i < an->nrows; i++)
		tc_row(&an->rows[i], fw_an_row_json(an, &an->rows[i]));
	i = 0;
	cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(t, "change_points")) {
		const struct fw_change_point *c = &an->change_points[i++];
		tc_str("change point", c->env, e, "env_fingerprint");
		tc_str("change point", c->metric, e, "metric");
		tc_int("change point", c->position, e, "position");
		tc_num("change point", c->before, e, "before");
		tc_num("change point", c->after, e, "after");
		tc_num("change point", c->delta_pct, e, "delta_pct");
	}
	if (i != an->nchange_points || (int)an->ndeterminism != cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(t, "determinism")))
		tc_bad++;
	*rows = an->nrows;
	return tc_bad == 0;
}
#endif
