/*
 * A series' observations put in the analysis' order: by workload, variant,
 * params, metric, environment fingerprint, position, commit, run (its
 * document run_id), round; every comparison a byte compare as SQLite's
 * BINARY collation makes it. Sorting here instead of in the samples query
 * spares SQLite a temp B-tree spilled to disk (60% of a history's first
 * analysis at 10,000 commits), and lets a history's window move on: the
 * observations held stay sorted, those added are sorted and merged in.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analysis-data.h"
#include "xalloc.h"

struct order {
	const struct data *d;
	size_t *env_rank;
};

static int cmp_key4(const struct key_info *a, const struct key_info *b)
{
	int r = strcmp(a->workload, b->workload);

	if (!r)
		r = strcmp(a->variant, b->variant);
	if (!r)
		r = strcmp(a->params, b->params);
	return r ? r : strcmp(a->metric, b->metric);
}

static int cmp_kv_idx(const void *pa, const void *pb, void *arg)
{
	const struct key_info *kv = arg;

	return cmp_key4(&kv[*(const size_t *)pa], &kv[*(const size_t *)pb]);
}

static int cmp_env_idx(const void *pa, const void *pb, void *arg)
{
	const struct env_info *e = arg;

	return strcmp(e[*(const size_t *)pa].fp, e[*(const size_t *)pb].fp);
}

/* kv[].rank: equal for the same workload, variant, params, metric; in their order. */
static void rank_keys(struct data *d)
{
	size_t *idx = xmalloc((d->nkv + 1) * sizeof(*idx)), r = 0;

	for (size_t i = 0; i < d->nkv; i++)
		idx[i] = i;
	qsort_r(idx, d->nkv, sizeof(*idx), cmp_kv_idx, d->kv);
	for (size_t i = 0; i < d->nkv; i++) {
		if (i && cmp_key4(&d->kv[idx[i - 1]], &d->kv[idx[i]]))
			r++;
		d->kv[idx[i]].rank = r;
	}
	free(idx);
}

static size_t *rank_envs(const struct data *d)
{
	size_t *idx = xmalloc((d->ne + 1) * sizeof(*idx)), *rank = xmalloc((d->ne + 1) * sizeof(*rank));

	for (size_t i = 0; i < d->ne; i++)
		idx[i] = i;
	qsort_r(idx, d->ne, sizeof(*idx), cmp_env_idx, d->e);
	for (size_t i = 0; i < d->ne; i++)
		rank[idx[i]] = i;  /* fingerprints are distinct (env_of) */
	free(idx);
	return rank;
}

#define CMP(x, y) do { if ((x) != (y)) return (x) < (y) ? -1 : 1; } while (0)

/* Observation a against b in the analysis' order; their indexes last (a total order). */
static int cmp_obs(const struct order *o, size_t a, size_t b)
{
	const struct data *d = o->d;
	const struct commit_info *ca = &d->c[d->ob_commit[a]], *cb = &d->c[d->ob_commit[b]];
	int r;

	CMP(d->kv[d->ob_kv[a]].rank, d->kv[d->ob_kv[b]].rank);
	CMP(o->env_rank[d->ob_env[a]], o->env_rank[d->ob_env[b]]);
	CMP(ca->position, cb->position);  /* not the index: a pair is loaded a first */
	CMP(ca->id, cb->id);
	if (d->ob_runi[a] != d->ob_runi[b] && (r = strcmp(d->runs[d->ob_runi[a]].key, d->runs[d->ob_runi[b]].key)))
		return r;
	CMP(d->ob_round[a], d->ob_round[b]);
	CMP(a, b);
	return 0;
}

static int cmp_obs_idx(const void *pa, const void *pb, void *arg)
{
	return cmp_obs(arg, *(const size_t *)pa, *(const size_t *)pb);
}

/* The order of all observations: [0, sorted_no) as they are, the rest sorted, merged. */
static size_t *merged_order(const struct data *d, struct order *o)
{
	size_t nold = d->sorted_no, nnew = d->no - nold, i = 0, j = 0, n = 0;
	size_t *fresh = xmalloc((nnew + 1) * sizeof(*fresh)), *perm = xmalloc((d->no + 1) * sizeof(*perm));

	for (size_t k = 0; k < nnew; k++)
		fresh[k] = nold + k;
	qsort_r(fresh, nnew, sizeof(*fresh), cmp_obs_idx, o);
	while (i < nold || j < nnew)
		perm[n++] = j >= nnew || (i < nold && cmp_obs(o, i, fresh[j]) < 0) ? i++ : fresh[j++];
	free(fresh);
	return perm;
}

/* Each parallel array rearranged as perm says (tmp: room for d->no of the widest element). */
#define PERMUTE(arr, perm, n, tmp) do { \
	__typeof__(arr) t_ = (void *)(tmp); \
	for (size_t i_ = 0; i_ < (n); i_++) \
		t_[i_] = (arr)[(perm)[i_]]; \
	memcpy((arr), t_, (n) * sizeof(*(arr))); \
} while (0)

static void permute_obs(struct data *d, const size_t *perm)
{
	void *tmp = xmalloc((d->no + 1) * 8);

	_Static_assert(sizeof(size_t) <= 8 && sizeof(long) <= 8 && sizeof(double) <= 8, "tmp holds any element");
	PERMUTE(d->ob_kv, perm, d->no, tmp);
	PERMUTE(d->ob_env, perm, d->no, tmp);
	PERMUTE(d->ob_commit, perm, d->no, tmp);
	PERMUTE(d->ob_runi, perm, d->no, tmp);
	PERMUTE(d->ob_run, perm, d->no, tmp);
	PERMUTE(d->ob_round, perm, d->no, tmp);
	PERMUTE(d->ob_v, perm, d->no, tmp);
	PERMUTE(d->ob_min_effect, perm, d->no, tmp);
	PERMUTE(d->ob_looks, perm, d->no, tmp);
	PERMUTE(d->ob_look, perm, d->no, tmp);
	free(tmp);
}

/*
 * k[]: one key per run of equal ranks, as its first observation declared it;
 * its min_effect the last one declared (what a sorted stream gave before).
 */
static void index_keys(struct data *d)
{
	d->nk = 0;
	for (size_t i = 0; i < d->no; i++) {
		const struct key_info *kv = &d->kv[d->ob_kv[i]];

		if (!d->nk || kv->rank != d->k[d->nk - 1].rank) {
			FW_ALLOC_GROW(d->k, d->nk + 1, d->ak);
			d->k[d->nk] = *kv;  /* its strings stay kv's */
			d->k[d->nk++].min_effect = NAN;
		}
		if (!isnan(d->ob_min_effect[i]))
			d->k[d->nk - 1].min_effect = d->ob_min_effect[i];
		d->ob_key[i] = d->nk - 1;
	}
}

void fw_data_sort(struct data *d)
{
	struct order o = { d, NULL };
	size_t *perm;

	rank_keys(d);
	o.env_rank = rank_envs(d);
	perm = merged_order(d, &o);
	if (d->no)  /* no samples: the arrays are NULL, which memcpy may not be given */
		permute_obs(d, perm);
	free(perm);
	free(o.env_rank);
	index_keys(d);
	d->sorted_no = d->no;
	/* every run held has an observation (run_of, fw_data_drop_before) */
	d->max_run = 0;
	d->max_look = 0;
	for (size_t i = 0; i < d->nruns; i++) {
		if (d->runs[i].id > d->max_run)
			d->max_run = (long)d->runs[i].id;
		if (d->runs[i].look > d->max_look)
			d->max_look = d->runs[i].look;
	}
}

/* Only the runs observations still name, renumbered. */
static void compact_runs(struct data *d)
{
	size_t *to = xmalloc((d->nruns + 1) * sizeof(*to)), n = 0;

	for (size_t i = 0; i < d->nruns; i++)
		to[i] = (size_t)-1;
	for (size_t i = 0; i < d->no; i++)
		to[d->ob_runi[i]] = 0;
	for (size_t i = 0; i < d->nruns; i++) {
		if (to[i]) {
			free(d->runs[i].key);
			continue;
		}
		to[i] = n;
		d->runs[n++] = d->runs[i];
	}
	d->nruns = n;
	for (size_t i = 0; i < d->no; i++)
		d->ob_runi[i] = to[d->ob_runi[i]];
	free(to);
}

void fw_data_drop_before(struct data *d, int pos)
{
	size_t n = 0;

	for (size_t i = 0; i < d->no; i++) {
		if (d->c[d->ob_commit[i]].position < pos && (long)d->ob_commit[i] != d->base)
			continue;
		d->ob_kv[n] = d->ob_kv[i];
		d->ob_env[n] = d->ob_env[i];
		d->ob_commit[n] = d->ob_commit[i];
		d->ob_runi[n] = d->ob_runi[i];
		d->ob_run[n] = d->ob_run[i];
		d->ob_round[n] = d->ob_round[i];
		d->ob_v[n] = d->ob_v[i];
		d->ob_min_effect[n] = d->ob_min_effect[i];
		d->ob_looks[n] = d->ob_looks[i];
		d->ob_look[n] = d->ob_look[i];
		n++;
	}
	d->no = d->sorted_no = n;  /* what stays keeps its order */
	compact_runs(d);
}
