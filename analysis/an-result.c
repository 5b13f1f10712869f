/*
 * The analysis result, typed: the one reader of the analysis' JSON by key
 * (the JSON is what the cache stores and the API answers). Every field the
 * result has is read here once; strings point into the tree the result owns.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analysis-json.h"
#include "run-doc.h" /* fw_json_num, fw_json_str */

struct fw_an_store {
	cJSON *tree;
	const cJSON **row_json;   /* rows[i]'s object, for the edge */
	struct fw_an_commit up_to;
};

static const cJSON *item(const cJSON *o, const char *k)
{
	return cJSON_GetObjectItemCaseSensitive(o, k);
}

/* A string field, NULL when absent or not a string. */
static const char *str_or_null(const cJSON *o, const char *k)
{
	return cJSON_GetStringValue(item(o, k));
}

/* A number: NAN when absent or null. */
static double num(const cJSON *o, const char *k)
{
	const cJSON *v = item(o, k);

	return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

/* A whole number: FW_AN_NA when absent or null. */
static int whole(const cJSON *o, const char *k)
{
	const cJSON *v = item(o, k);

	return cJSON_IsNumber(v) ? (int)v->valuedouble : FW_AN_NA;
}

static long long id_of(const cJSON *o, const char *k)
{
	const cJSON *v = item(o, k);

	return cJSON_IsNumber(v) ? (long long)v->valuedouble : 0;
}

static void side(const cJSON *o, struct fw_an_side *s)
{
	s->boots = whole(o, "boots");
	s->samples = whole(o, "samples");
	s->median = num(o, "median");
	s->hmean = num(o, "hmean");
}

static void commit(const cJSON *o, struct fw_an_commit *c)
{
	c->id = id_of(o, "id");
	c->sha = fw_json_str(o, "sha", "");
	c->key = fw_json_str(o, "key", "");
	c->subject = fw_json_str(o, "subject", "");
	c->parent_sha = str_or_null(o, "parent_sha");
	c->position = whole(o, "position");
	c->is_base = cJSON_IsTrue(item(o, "is_base"));
}

static void same_kernel(const cJSON *o, struct fw_an_same_kernel *s)
{
	s->present = cJSON_IsObject(o);
	s->cv_pct = num(o, "cv_pct");
	s->cv_lo_pct = num(o, "cv_lo_pct");
	s->cv_hi_pct = num(o, "cv_hi_pct");
	s->range_pct = num(o, "range_pct");
	s->df = whole(o, "df");
	s->boots = whole(o, "boots");
	s->kernels = whole(o, "kernels");
	s->within_cv_pct = num(o, "within_boot_cv_pct");
	s->within_cv_lo_pct = num(o, "within_boot_cv_lo_pct");
	s->within_cv_hi_pct = num(o, "within_boot_cv_hi_pct");
	s->within_df = whole(o, "within_boot_df");
}

static void prof_nums(const cJSON *o, struct fw_an_prof_nums *n)
{
	n->hits = num(o, "hits");
	n->time_us = num(o, "time_us");
	n->self_us = num(o, "self_us");
}

void fw_an_function_read(const cJSON *o, struct fw_an_function *f)
{
	f->function = fw_json_str(o, "function", "");
	prof_nums(item(o, "before"), &f->before);
	prof_nums(item(o, "after"), &f->after);
	prof_nums(item(o, "delta"), &f->delta);
	prof_nums(item(o, "delta_pct"), &f->delta_pct);
	f->only_in = str_or_null(o, "only_in");
}

static enum fw_verdict verdict_of(const char *v)
{
	if (!strcmp(v, "improvement"))
		return FW_IMPROVEMENT;
	if (!strcmp(v, "regression"))
		return FW_REGRESSION;
	if (!strcmp(v, "no change"))
		return FW_NO_CHANGE;
	return FW_UNSURE;
}

static enum fw_against against_of(const char *a)
{
	if (!strcmp(a, "parent"))
		return FW_AGAINST_PARENT;
	return !strcmp(a, "base") ? FW_AGAINST_BASE : FW_AGAINST_OTHER;
}

/* The row's counters and attribution: 0, or -1 out of memory. */
static int row_lists(const cJSON *o, struct fw_an_row *r)
{
	const cJSON *arr = item(o, "counters"), *e;
	size_t i = 0;

	r->ncounters = (size_t)cJSON_GetArraySize(arr);
	if (r->ncounters && !(r->counters = calloc(r->ncounters, sizeof(*r->counters))))
		return -1;
	cJSON_ArrayForEach(e, arr) {
		struct fw_an_counter *c = &r->counters[i++];
		c->name = fw_json_str(e, "name", "");
		c->a = num(e, "a");
		c->b = num(e, "b");
		c->delta_pct = num(e, "delta_pct");
		c->moved = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "moved"));
	}
	arr = item(o, "attribution");
	i = 0;
	r->nattribution = (size_t)cJSON_GetArraySize(arr);
	if (r->nattribution && !(r->attribution = calloc(r->nattribution, sizeof(*r->attribution))))
		return -1;
	cJSON_ArrayForEach(e, arr)
		fw_an_function_read(e, &r->attribution[i++]);
	return 0;
}

static void row_head(const cJSON *o, struct fw_an_row *r)
{
	r->commit_id = id_of(o, "commit_id");
	r->ref_commit_id = id_of(o, "ref_commit_id");
	r->sha = fw_json_str(o, "sha", "");
	r->subject = fw_json_str(o, "subject", "");
	r->ref_sha = fw_json_str(o, "ref_sha", "");
	r->against_name = fw_json_str(o, "against", "");
	r->against = against_of(r->against_name);
	r->position = whole(o, "position");
	r->env = fw_json_str(o, "env_fingerprint", "");
	r->host = fw_json_str(o, "host", "");
	r->accel = fw_json_str(o, "accel", "");
	r->workload = fw_json_str(o, "workload", "");
	r->variant = fw_json_str(o, "variant", "");
	r->params = fw_json_str(o, "params", "");
	r->metric = fw_json_str(o, "metric", "");
	r->unit = fw_json_str(o, "unit", "");
	r->direction = fw_json_str(o, "direction", "");
	r->kind = fw_json_str(o, "kind", "");
}

static int row(const cJSON *o, struct fw_an_row *r)
{
	row_head(o, r);
	r->higher_is_better = cJSON_IsTrue(item(o, "higher_is_better"));
	r->min_effect_pct = num(o, "min_effect_pct");
	r->unit_of_comparison = fw_json_str(o, "unit_of_comparison", "");
	r->per_boot = !strcmp(r->unit_of_comparison, "boots");
	side(item(o, "a"), &r->a);
	side(item(o, "b"), &r->b);
	r->delta_pct = num(o, "delta_pct");
	r->shift = num(o, "shift");
	r->ci_lo_pct = num(o, "ci_lo_pct");
	r->ci_hi_pct = num(o, "ci_hi_pct");
	r->ci_level = num(o, "ci_level");
	r->p = num(o, "p");
	r->q = num(o, "q");
	r->min_p = num(o, "min_p");
	r->mde_pct = num(o, "mde_pct");
	r->noise_pct = num(o, "noise_pct");
	r->exact = cJSON_IsTrue(item(o, "exact"));
	r->boots_for_5pct = whole(o, "boots_for_5pct");
	r->mode = fw_json_str(o, "mode", "");
	r->mode_source = fw_json_str(o, "mode_source", "");
	same_kernel(item(o, "same_kernel"), &r->same_kernel);
	r->has_floor = item(o, "floor_pct") != NULL;
	r->floor_pct = num(o, "floor_pct");
	r->floor_boots = whole(o, "floor_boots");
	r->looks = whole(o, "looks");
	r->look = whole(o, "look");
	r->alpha_used = num(o, "alpha_used");
	r->boots_for_min_effect = whole(o, "boots_for_min_effect");
	r->beyond_bound = cJSON_IsTrue(item(o, "beyond_bound"));
	r->bound_pct = num(o, "bound_pct");
	r->verdict = fw_json_str(o, "verdict", "unsure");
	r->v = verdict_of(r->verdict);
	r->decided = cJSON_IsTrue(item(o, "decided"));
	r->decided_at_boots = whole(o, "decided_at_boots");
	r->has_boots_needed = item(o, "boots_needed") != NULL;
	r->boots_needed = whole(o, "boots_needed");
	return row_lists(o, r);
}

static void combined(const cJSON *o, struct fw_an_combined *c)
{
	c->commit_id = id_of(o, "commit_id");
	c->sha = fw_json_str(o, "sha", "");
	c->workload = fw_json_str(o, "workload", "");
	c->variant = fw_json_str(o, "variant", "");
	c->params = fw_json_str(o, "params", "");
	c->metric = fw_json_str(o, "metric", "");
	c->direction = fw_json_str(o, "direction", "");
	c->test = fw_json_str(o, "test", "");
	c->verdict = fw_json_str(o, "verdict", "unsure");
	c->position = whole(o, "position");
	c->hosts = whole(o, "hosts");
	c->delta_pct = num(o, "delta_pct");
	c->z = num(o, "z");
	c->p = num(o, "p");
	c->q = num(o, "q");
	c->min_effect_pct = num(o, "min_effect_pct");
}

static void change_point(const cJSON *o, struct fw_change_point *c)
{
	c->workload = fw_json_str(o, "workload", "");
	c->variant = fw_json_str(o, "variant", "");
	c->metric = fw_json_str(o, "metric", "");
	c->env = fw_json_str(o, "env_fingerprint", "");
	c->sha = fw_json_str(o, "sha", "");
	c->position = whole(o, "position");
	c->before = num(o, "before");
	c->after = num(o, "after");
	c->delta_pct = num(o, "delta_pct");
}

static void determinism(const cJSON *o, struct fw_an_determinism *d)
{
	d->env = fw_json_str(o, "env_fingerprint", "");
	d->host = fw_json_str(o, "host", "");
	d->accel = fw_json_str(o, "accel", "");
	d->workload = fw_json_str(o, "workload", "");
	d->variant = fw_json_str(o, "variant", "");
	d->params = fw_json_str(o, "params", "");
	d->metric = fw_json_str(o, "metric", "");
	d->kind = fw_json_str(o, "kind", "");
	d->mode = fw_json_str(o, "mode", "");
	d->mode_source = fw_json_str(o, "mode_source", "");
	same_kernel(item(o, "same_kernel"), &d->same_kernel);
}

static void head(const cJSON *t, struct fw_an *an)
{
	const cJSON *up = item(t, "analysed_up_to");

	an->series = fw_json_str(t, "series", "");
	an->series_id = id_of(t, "series_id");
	an->base = fw_json_str(t, "base", "");
	an->data_hash = fw_json_str(t, "data_hash", "");
	an->revision = whole(t, "revision");
	an->alpha = num(t, "alpha");
	an->min_effect_pct = num(t, "min_effect_pct");
	an->noise_floor_pct = num(t, "noise_floor_pct");
	an->floor_alpha = num(t, "floor_alpha");
	an->deterministic_cv_pct = num(t, "deterministic_cv_pct");
	an->looks = whole(t, "looks");
	an->look = whole(t, "look");
	an->stale = cJSON_IsTrue(item(t, "stale"));
	an->watched = cJSON_IsTrue(item(t, "watched"));
	if (cJSON_IsObject(up)) {
		commit(up, &an->store->up_to);
		an->analysed_up_to = &an->store->up_to;
	}
}

/* n elements of size sz for the array at t.k: 0, or -1 out of memory. */
static int alloc_for(const cJSON *t, const char *k, size_t sz, void **out, size_t *n)
{
	*n = (size_t)cJSON_GetArraySize(item(t, k));
	*out = NULL;
	return *n && !(*out = calloc(*n, sz)) ? -1 : 0;
}

static int lists(const cJSON *t, struct fw_an *an)
{
	const cJSON *e;
	size_t i;

	if (alloc_for(t, "commits", sizeof(*an->commits), (void **)&an->commits, &an->ncommits) ||
	    alloc_for(t, "rows", sizeof(*an->rows), (void **)&an->rows, &an->nrows) ||
	    alloc_for(t, "combined", sizeof(*an->combined), (void **)&an->combined, &an->ncombined) ||
	    alloc_for(t, "change_points", sizeof(*an->change_points), (void **)&an->change_points,
		      &an->nchange_points) ||
	    alloc_for(t, "determinism", sizeof(*an->determinism), (void **)&an->determinism, &an->ndeterminism) ||
	    alloc_for(t, "alpha_at_looks", sizeof(*an->alpha_at_looks), (void **)&an->alpha_at_looks,
		      &an->nalpha_at_looks))
		return -1;
	if (an->nrows && !(an->store->row_json = calloc(an->nrows, sizeof(*an->store->row_json))))
		return -1;
	i = 0;
	cJSON_ArrayForEach(e, item(t, "commits"))
		commit(e, &an->commits[i++]);
	i = 0;
	cJSON_ArrayForEach(e, item(t, "rows")) {
		an->store->row_json[i] = e;
		if (row(e, &an->rows[i++]))
			return -1;
	}
	i = 0;
	cJSON_ArrayForEach(e, item(t, "combined"))
		combined(e, &an->combined[i++]);
	i = 0;
	cJSON_ArrayForEach(e, item(t, "change_points"))
		change_point(e, &an->change_points[i++]);
	i = 0;
	cJSON_ArrayForEach(e, item(t, "determinism"))
		determinism(e, &an->determinism[i++]);
	i = 0;
	cJSON_ArrayForEach(e, item(t, "alpha_at_looks"))
		an->alpha_at_looks[i++] = cJSON_IsNumber(e) ? e->valuedouble : NAN;
	return 0;
}

struct fw_an *fw_an_from_json(cJSON *tree)
{
	struct fw_an *an;

	if (!tree)
		return NULL;
	if (!(an = calloc(1, sizeof(*an))) || !(an->store = calloc(1, sizeof(*an->store)))) {
		free(an);
		cJSON_Delete(tree);
		return NULL;
	}
	an->store->tree = tree;
	head(tree, an);
	if (lists(tree, an)) {
		fw_an_free(an);
		return NULL;
	}
	return an;
}

const cJSON *fw_an_json(const struct fw_an *an)
{
	return an ? an->store->tree : NULL;
}

const cJSON *fw_an_row_json(const struct fw_an *an, const struct fw_an_row *r)
{
	return an->store->row_json[r - an->rows];
}

size_t fw_an_keep_comparison(struct fw_an *an, const char *sha, const char *ref_sha)
{
	size_t k = 0;

	for (size_t i = 0; i < an->nrows; i++) {
		struct fw_an_row *r = &an->rows[i];

		if (strcmp(r->sha, sha) || strcmp(r->ref_sha, ref_sha)) {
			free(r->counters);
			free(r->attribution);
			continue;
		}
		an->store->row_json[k] = an->store->row_json[i];
		an->rows[k++] = *r;
	}
	return an->nrows = k;
}

void fw_an_free(struct fw_an *an)
{
	if (!an)
		return;
	for (size_t i = 0; i < an->nrows; i++) {
		free(an->rows[i].counters);
		free(an->rows[i].attribution);
	}
	free(an->rows);
	free(an->commits);
	free(an->combined);
	free(an->change_points);
	free(an->determinism);
	free(an->alpha_at_looks);
	if (an->store) {
		cJSON_Delete(an->store->tree);
		free(an->store->row_json);
		free(an->store);
	}
	free(an);
}
