/*
 * Kernel function profiles of two commits side by side (issue 13): per
 * function the median over each commit's profiled boots of hits, time (with
 * children) and self time, and the delta. In icount mode every boot of a
 * kernel gives the same numbers, so the medians -- and the delta -- are exact.
 * A function missing from a boot's list counts as 0 there (it was not hit, or
 * fell off the collector's top list).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analysis-internal.h"
#include "store-analysis.h"
#include "xalloc.h"

#define ATTRIBUTION_TOP 5

enum { HITS, TIME, SELF, NV };
static const char *const vnames[NV] = { "hits", "time_us", "self_us" };

struct pfn {
	char *name;
	double v[NV];     /* medians; v[SELF] NaN when a boot did not measure it */
};

struct side {
	struct pfn *f;
	size_t n;
	int boots;
};

/* Medians of one function's values over `boots` boots (the missing ones 0). */
static void close_fn(struct side *s, size_t *alloc, char *name, double *vals[NV], size_t nv, int self_missing)
{
	FW_ALLOC_GROW(s->f, s->n + 1, *alloc);
	s->f[s->n].name = name;
	for (int k = 0; k < NV; k++) {
		for (size_t i = nv; i < (size_t)s->boots; i++)
			vals[k][i] = 0;
		s->f[s->n].v[k] = k == SELF && self_missing ? NAN : fw_median(vals[k], (size_t)s->boots);
	}
	s->n++;
}

/* Gathers one side's rows, function by function. */
struct side_build {
	struct side *s;
	size_t alloc, nv;
	double *vals[NV];
	char *cur;
	int self_missing;
};

static int add_row(const struct fw_store_profile_row *p, void *ctx)
{
	struct side_build *b = ctx;

	if (b->cur && strcmp(p->function, b->cur)) {
		close_fn(b->s, &b->alloc, b->cur, b->vals, b->nv, b->self_missing);
		b->cur = NULL;
	}
	if (!b->cur) {
		b->cur = xstrdup(p->function);
		b->nv = 0;
		b->self_missing = 0;
	}
	if (b->nv < (size_t)b->s->boots) {  /* one row per boot: the primary key says so */
		b->vals[HITS][b->nv] = p->hits;
		b->vals[TIME][b->nv] = p->time_us;
		b->vals[SELF][b->nv] = isnan(p->self_us) ? 0 : p->self_us;
		b->self_missing |= isnan(p->self_us);
		b->nv++;
	}
	return 0;
}

/* One commit's profile of a workload/variant, sorted by function name. */
static int load_side(sqlite3 *db, long long commit, const struct fw_prof_query *q, const char *variant,
		     struct side *s, struct strbuf *err)
{
	struct fw_store_profile_key k = {
		.commit_id = commit, .env_fingerprint = q->env_fingerprint, .workload = q->workload, .variant = variant,
	};
	struct side_build b = { .s = s };
	int ret = -1, boots;

	memset(s, 0, sizeof(*s));
	boots = fw_store_profile_boots(db, &k, err);
	if (boots <= 0)
		return boots;
	s->boots = boots;
	for (int i = 0; i < NV; i++)
		b.vals[i] = xreallocarray(NULL, (size_t)s->boots, sizeof(double));
	if (fw_store_profile_rows(db, &k, add_row, &b, err) == 0) {
		if (b.cur)
			close_fn(s, &b.alloc, b.cur, b.vals, b.nv, b.self_missing);
		b.cur = NULL;
		ret = 0;
	}
	free(b.cur);
	for (int i = 0; i < NV; i++)
		free(b.vals[i]);
	return ret;
}

static void side_free(struct side *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->f[i].name);
	free(s->f);
}

struct entry {
	const char *name;
	const double *a, *b;   /* NULL: not in that profile (all 0) */
	double key;
};

static const double zeros[NV] = { 0, 0, 0 };

static double entry_key(const struct entry *e, enum fw_prof_sort sort)
{
	const double *a = e->a ? e->a : zeros, *b = e->b ? e->b : zeros;
	int k = sort == FW_PROF_SORT_HITS ? HITS : sort == FW_PROF_SORT_TOTAL ? TIME : SELF;

	/* self time when both sides measured it (a missing function measured 0), else total time */
	if (k == SELF && (isnan(a[SELF]) || isnan(b[SELF])))
		k = TIME;
	return fabs(b[k] - a[k]);
}

static int cmp_entry(const void *pa, const void *pb)
{
	const struct entry *a = pa, *b = pb;

	if (a->key != b->key)
		return a->key < b->key ? 1 : -1;
	return strcmp(a->name, b->name);
}

static cJSON *values_json(const double *v)
{
	cJSON *o = cJSON_CreateObject();

	for (int k = 0; k < NV; k++)
		fw_json_num_or_null(o, vnames[k], v[k]);
	return o;
}

static cJSON *entry_json(const struct entry *e)
{
	const double *a = e->a ? e->a : zeros, *b = e->b ? e->b : zeros;
	cJSON *o = cJSON_CreateObject(), *d, *p;

	cJSON_AddStringToObject(o, "function", e->name);
	cJSON_AddItemToObject(o, "before", values_json(a));
	cJSON_AddItemToObject(o, "after", values_json(b));
	d = cJSON_AddObjectToObject(o, "delta");
	p = cJSON_AddObjectToObject(o, "delta_pct");
	for (int k = 0; k < NV; k++) {
		fw_json_num_or_null(d, vnames[k], b[k] - a[k]);
		fw_json_num_or_null(p, vnames[k], a[k] != 0 ? 100 * (b[k] - a[k]) / fabs(a[k]) : NAN);
	}
	if (!e->a || !e->b)
		cJSON_AddStringToObject(o, "only_in", e->a ? "before" : "after");
	return o;
}

/* Merges two name-sorted sides, filters by q->match, ranks and writes the top q->limit. */
static cJSON *diff_json(const struct side *a, const struct side *b, const struct fw_prof_query *q)
{
	struct entry *v = xreallocarray(NULL, a->n + b->n + 1, sizeof(*v));
	size_t ia = 0, ib = 0, n = 0;
	cJSON *arr = cJSON_CreateArray();

	while (ia < a->n || ib < b->n) {
		int c = ia == a->n ? 1 : ib == b->n ? -1 : strcmp(a->f[ia].name, b->f[ib].name);
		struct entry e = { c <= 0 ? a->f[ia].name : b->f[ib].name, c <= 0 ? a->f[ia].v : NULL,
				   c >= 0 ? b->f[ib].v : NULL, 0 };
		ia += c <= 0;
		ib += c >= 0;
		if (q->match && *q->match && !strstr(e.name, q->match))
			continue;
		e.key = entry_key(&e, q->sort);
		v[n++] = e;
	}
	qsort(v, n, sizeof(*v), cmp_entry);
	for (size_t i = 0; i < n && (q->limit <= 0 || i < (size_t)q->limit); i++)
		cJSON_AddItemToArray(arr, entry_json(&v[i]));
	free(v);
	return arr;
}

/* One variant: { variant, boots_before, boots_after, functions, total } or NULL (err). */
static cJSON *variant_json(sqlite3 *db, const struct fw_prof_query *q, const char *variant, struct strbuf *err)
{
	struct side a, b;
	cJSON *o = NULL, *fns;

	if (load_side(db, q->base_commit, q, variant, &a, err))
		return NULL;
	if (load_side(db, q->head_commit, q, variant, &b, err))
		goto cleanup;
	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "variant", variant);
	cJSON_AddNumberToObject(o, "boots_before", a.boots);
	cJSON_AddNumberToObject(o, "boots_after", b.boots);
	fns = diff_json(&a, &b, q);
	cJSON_AddNumberToObject(o, "shown", cJSON_GetArraySize(fns));
	cJSON_AddItemToObject(o, "functions", fns);
	side_free(&b);
cleanup:
	side_free(&a);
	return o;
}

/* q->env_fingerprint NULL: the first environment (by fingerprint) where both commits have this workload's profile. */
static int pick_env(sqlite3 *db, const struct fw_prof_query *q, char **env, struct strbuf *err)
{
	struct strbuf e = STRBUF_INIT;
	int rc;

	*env = NULL;
	if (q->env_fingerprint) {
		*env = xstrdup(q->env_fingerprint);
		return 0;
	}
	rc = fw_store_profile_env(db, q->base_commit, q->head_commit, q->workload, &e, err);
	if (rc == 1)
		*env = xstrdup(e.buf);
	strbuf_release(&e);
	return rc < 0 ? -1 : 0;
}

struct variant_list {
	sqlite3 *db;
	const struct fw_prof_query *q;
	cJSON *arr;
	struct strbuf *err;
};

static int add_variant(const char *variant, void *ctx)
{
	struct variant_list *l = ctx;
	cJSON *v = variant_json(l->db, l->q, variant, l->err);

	if (!v)
		return 1;
	cJSON_AddItemToArray(l->arr, v);
	return 0;
}

static int add_variants(sqlite3 *db, const struct fw_prof_query *q, cJSON *arr, struct strbuf *err)
{
	struct variant_list l = { .db = db, .q = q, .arr = arr, .err = err };

	if (q->variant)
		return add_variant(q->variant, &l) ? -1 : 0;
	return fw_store_profile_variants(db, q->base_commit, q->head_commit, q->env_fingerprint, q->workload,
					 add_variant, &l, err) ? -1 : 0;
}

int fw_profile_sort_parse(const char *s, enum fw_prof_sort *out)
{
	static const char *const names[] = { "self", "total", "hits" };

	for (int i = 0; i < 3; i++)
		if (!strcmp(s, names[i])) {
			*out = (enum fw_prof_sort)i;
			return 0;
		}
	return -1;
}

int fw_profile_diff(sqlite3 *db, const struct fw_prof_query *q0, cJSON **out, struct strbuf *err)
{
	static const char *const sorts[] = { "self", "total", "hits" };
	struct fw_prof_query q = *q0;
	char *env = NULL;
	cJSON *res = NULL;
	int ret = -1;

	*out = NULL;
	if (pick_env(db, q0, &env, err))
		return -1;
	q.env_fingerprint = env;
	res = cJSON_CreateObject();
	cJSON_AddNumberToObject(res, "base_commit_id", (double)q.base_commit);
	cJSON_AddNumberToObject(res, "head_commit_id", (double)q.head_commit);
	if (env)
		cJSON_AddStringToObject(res, "env_fingerprint", env);
	else
		cJSON_AddNullToObject(res, "env_fingerprint");
	cJSON_AddStringToObject(res, "workload", q.workload);
	cJSON_AddStringToObject(res, "sort", sorts[q.sort]);
	if (q.match && *q.match)
		cJSON_AddStringToObject(res, "match", q.match);
	if (env && add_variants(db, &q, cJSON_AddArrayToObject(res, "variants"), err))
		goto cleanup;
	if (!env)
		cJSON_AddArrayToObject(res, "variants");
	ret = 0;
cleanup:
	if (ret) {
		cJSON_Delete(res);
		res = NULL;
	}
	*out = res;
	free(env);
	return ret;
}

int fw_profile_attribution(sqlite3 *db, cJSON *row, struct strbuf *err)
{
	struct fw_prof_query q = {
		.base_commit = (long long)fw_json_num(row, "ref_commit_id", 0),
		.head_commit = (long long)fw_json_num(row, "commit_id", 0),
		.env_fingerprint = fw_json_str(row, "env_fingerprint", ""),
		.workload = fw_json_str(row, "workload", ""),
		.sort = FW_PROF_SORT_SELF,
		.limit = ATTRIBUTION_TOP,
	};
	struct side a, b;
	int ret = -1;

	if (load_side(db, q.base_commit, &q, fw_json_str(row, "variant", ""), &a, err))
		return -1;
	if (load_side(db, q.head_commit, &q, fw_json_str(row, "variant", ""), &b, err))
		goto cleanup;
	if (a.boots && b.boots)  /* both profiled: otherwise there is nothing to attribute */
		cJSON_AddItemToObject(row, "attribution", diff_json(&a, &b, &q));
	side_free(&b);
	ret = 0;
cleanup:
	side_free(&a);
	return ret;
}
