/*
 * The counters that moved with a change: for a row of the series table, the
 * median of each counter on both commits (all rounds of all ok boots) and the
 * ones with the largest relative movement, each with its own test (moved:
 * the two commits' values do not overlap). They explain a change (e.g. a
 * regression with thp_split_page doubling), so only changed rows get them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analysis-internal.h"
#include "run-doc.h"
#include "store-analysis.h"
#include "xalloc.h"
#include "stats.h"

#define TOP_COUNTERS 3

struct counter {
	char *name;
	double median, lo, hi;
	size_t n;
};

/* Gathers one commit's counter values, name by name, into medians. */
struct side_build {
	struct counter *out;
	size_t n, alloc;
	double *vals;
	size_t nv, av;
	char *cur;
};

/* A name ends: its values came sorted, so the median is direct. */
static void close_name(struct side_build *b)
{
	if (!b->cur)
		return;
	FW_ALLOC_GROW(b->out, b->n + 1, b->alloc);
	b->out[b->n].name = b->cur;
	b->out[b->n].lo = b->vals[0];
	b->out[b->n].hi = b->vals[b->nv - 1];
	b->out[b->n].n = b->nv;
	b->out[b->n++].median = fw_median(b->vals, b->nv);
	b->cur = NULL;
	b->nv = 0;
}

static int add_value(const char *name, double value, void *ctx)
{
	struct side_build *b = ctx;

	if (b->cur && strcmp(name, b->cur))
		close_name(b);
	if (!b->cur)
		b->cur = xstrdup(name);
	FW_ALLOC_GROW(b->vals, b->nv + 1, b->av);
	b->vals[b->nv++] = value;
	return 0;
}

/* Medians per counter name for one commit of the row, sorted by name. */
static int load_side(sqlite3 *db, const cJSON *row, const char *commit_key, struct counter **out,
		     size_t *n, struct strbuf *err)
{
	struct fw_store_result_key k = {
		.commit_id = (long long)fw_json_num(row, commit_key, NAN),
		.env_fingerprint = fw_json_str(row, "env_fingerprint", ""),
		.workload = fw_json_str(row, "workload", ""),
		.variant = fw_json_str(row, "variant", ""),
		.params = fw_json_str(row, "params", ""),
		.metric = fw_json_str(row, "metric", ""),
	};
	struct side_build b = { 0 };
	int ret = fw_store_counter_values(db, &k, add_value, &b, err);

	close_name(&b);
	free(b.vals);
	*out = b.out;
	*n = b.n;
	return ret;
}

static void free_side(struct counter *c, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(c[i].name);
	free(c);
}

/* How much a counter moved, for ranking: relative when it can be, huge when it appears from 0. */
static double movement(double a, double b)
{
	if (a == b)
		return 0;
	if (a == 0)
		return INFINITY;
	return fabs(100 * (b - a) / fabs(a));
}

/*
 * A counter's own test: it moved when every value of one commit (all rounds
 * of all boots) lies beyond every value of the other, at least 3 a side
 * (distribution-free: by chance at most 2 / C(6,3) = 10% with 3 a side, far
 * less with more). Values that overlap say nothing the change did to it.
 */
static int ranges_apart(const struct counter *a, const struct counter *b)
{
	return a->n >= 3 && b->n >= 3 && (a->hi < b->lo || b->hi < a->lo);
}

int fw_analysis_counters(sqlite3 *db, cJSON *row, struct strbuf *err)
{
	struct counter *a = NULL, *b = NULL;
	size_t na = 0, nb = 0, ia = 0, ib = 0, top_n = 0;
	struct { size_t ia, ib; double move; } top[TOP_COUNTERS];
	cJSON *arr;
	int ret = -1;

	if (load_side(db, row, "ref_commit_id", &a, &na, err) ||
	    load_side(db, row, "commit_id", &b, &nb, err))
		goto cleanup;
	/* Both sides are sorted by name: merge, keeping the TOP_COUNTERS biggest movers. */
	while (ia < na && ib < nb) {
		int c = strcmp(a[ia].name, b[ib].name);
		double mv;
		size_t j;
		if (c) {
			c < 0 ? ia++ : ib++;
			continue;
		}
		mv = movement(a[ia].median, b[ib].median);
		if (mv > 0) {
			for (j = top_n; j > 0 && top[j - 1].move < mv; j--)
				if (j < TOP_COUNTERS)
					top[j] = top[j - 1];
			if (j < TOP_COUNTERS) {
				top[j].ia = ia;
				top[j].ib = ib;
				top[j].move = mv;
				if (top_n < TOP_COUNTERS)
					top_n++;
			}
		}
		ia++;
		ib++;
	}
	arr = cJSON_AddArrayToObject(row, "counters");
	for (size_t i = 0; i < top_n; i++) {
		cJSON *o = cJSON_CreateObject();
		double va = a[top[i].ia].median, vb = b[top[i].ib].median;
		cJSON_AddStringToObject(o, "name", a[top[i].ia].name);
		cJSON_AddNumberToObject(o, "a", va);
		cJSON_AddNumberToObject(o, "b", vb);
		fw_json_num_or_null(o, "delta_pct", va != 0 ? 100 * (vb - va) / fabs(va) : NAN);
		cJSON_AddBoolToObject(o, "moved", ranges_apart(&a[top[i].ia], &b[top[i].ib]));
		cJSON_AddItemToArray(arr, o);
	}
	ret = 0;
cleanup:
	free_side(a, na);
	free_side(b, nb);
	return ret;
}
