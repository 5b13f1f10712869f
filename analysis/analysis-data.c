/*
 * A series' samples as the analysis holds them: commits (with base and
 * parents), keys (workload, variant, params, metric), environments, and the
 * observations in parallel arrays, loaded from the store's callbacks.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analysis-data.h"
#include "xalloc.h"

void fw_data_free(struct data *d)
{
	for (size_t i = 0; i < d->nc; i++) {
		free(d->c[i].sha);
		free(d->c[i].key);
		free(d->c[i].subject);
		free(d->c[i].parent_sha);
	}
	for (size_t i = 0; i < d->nkv; i++) {  /* k[] points into kv[] */
		free(d->kv[i].workload);
		free(d->kv[i].variant);
		free(d->kv[i].params);
		free(d->kv[i].metric);
		free(d->kv[i].unit);
		free(d->kv[i].direction);
		free(d->kv[i].kind);
	}
	for (size_t i = 0; i < d->nruns; i++)
		free(d->runs[i].key);
	for (size_t i = 0; i < d->ne; i++) {
		free(d->e[i].fp);
		free(d->e[i].host);
		free(d->e[i].accel);
	}
	free(d->c);
	free(d->k);
	free(d->kv);
	free(d->runs);
	free(d->e);
	free(d->ob_kv);
	free(d->ob_runi);
	free(d->ob_round);
	free(d->ob_min_effect);
	free(d->ob_key);
	free(d->ob_env);
	free(d->ob_commit);
	free(d->ob_run);
	free(d->ob_looks);
	free(d->ob_look);
	free(d->ob_v);
	free(d->sorted_ids);
	free(d->sorted_idx);
	memset(d, 0, sizeof(*d));
}

static int cmp_ll_idx(const void *pa, const void *pb, void *arg)
{
	const long long *ids = arg;
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	return (ids[a] > ids[b]) - (ids[a] < ids[b]);
}

/* Index of commit id, by binary search over the sorted copy. */
static long commit_index(const struct data *d, long long id)
{
	size_t lo = 0, hi = d->nc;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (d->sorted_ids[mid] == id)
			return (long)d->sorted_idx[mid];
		if (d->sorted_ids[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* Commit indexes by sha, then index. */
static int cmp_sha_idx(const void *pa, const void *pb, void *arg)
{
	const struct commit_info *c = arg;
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	int r = strcmp(c[a].sha, c[b].sha);

	return r ? r : (a > b) - (a < b);
}

/*
 * The last commit (highest index) of sha other than self, -1 none: a binary
 * search of by_sha, where a scan of every commit per commit took 9,600^2
 * string compares for each part of a 10,000-commit history.
 */
static long last_with_sha(const struct data *d, const size_t *by_sha, const char *sha, size_t self)
{
	size_t lo = 0, hi = d->nc;

	while (lo < hi) {  /* the first entry whose sha sorts after sha */
		size_t mid = (lo + hi) / 2;
		if (strcmp(d->c[by_sha[mid]].sha, sha) <= 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo > 0 && !strcmp(d->c[by_sha[lo - 1]].sha, sha); lo--)
		if (by_sha[lo - 1] != self)
			return (long)by_sha[lo - 1];
	return -1;
}

void fw_data_index_commits(struct data *d, const char *base_sha)
{
	long long *ids = xmalloc((d->nc + 1) * sizeof(*ids));
	size_t *idx = xmalloc((d->nc + 1) * sizeof(*idx)), *by_sha;

	for (size_t i = 0; i < d->nc; i++) {
		ids[i] = d->c[i].id;
		idx[i] = i;
	}
	qsort_r(idx, d->nc, sizeof(*idx), cmp_ll_idx, ids);
	d->sorted_idx = idx;
	d->sorted_ids = xmalloc((d->nc + 1) * sizeof(*ids));
	for (size_t i = 0; i < d->nc; i++)
		d->sorted_ids[i] = ids[idx[i]];
	free(ids);

	d->base = -1;
	for (size_t i = 0; i < d->nc; i++)
		if (base_sha && !strcmp(d->c[i].sha, base_sha))
			d->base = (long)i;
	/*
	 * The parent is the series commit whose sha is the declared parent; a
	 * commit whose parent was not measured falls back to the one before it
	 * (and, per metric, to the previous commit with samples: process_group).
	 */
	by_sha = xmalloc((d->nc + 1) * sizeof(*by_sha));
	for (size_t i = 0; i < d->nc; i++)
		by_sha[i] = i;
	qsort_r(by_sha, d->nc, sizeof(*by_sha), cmp_sha_idx, d->c);
	for (size_t i = 0; i < d->nc; i++) {
		d->c[i].parent = d->c[i].parent_sha ? last_with_sha(d, by_sha, d->c[i].parent_sha, i) : -1;
		if (d->c[i].parent < 0 && (long)i != d->base && i > 0)
			d->c[i].parent = (long)i - 1;
	}
	free(by_sha);
}

int fw_data_add_commit(const struct fw_store_commit_row *r, void *ctx)
{
	struct data *d = ctx;
	struct commit_info *c;

	FW_ALLOC_GROW(d->c, d->nc + 1, d->ac);
	c = &d->c[d->nc++];
	c->id = r->id;
	c->sha = xstrdup(r->sha);
	c->key = xstrdup(r->key);
	c->subject = xstrdup(r->subject);
	c->position = r->position;
	c->parent_sha = r->parent_sha ? xstrdup(r->parent_sha) : NULL;
	return 0;
}

static int same_kv(const struct key_info *k, const struct fw_store_obs *o)
{
	return !strcmp(k->workload, o->workload) && !strcmp(k->variant, o->variant) &&
	       !strcmp(k->params, o->params) && !strcmp(k->metric, o->metric) && !strcmp(k->unit, o->unit) &&
	       !strcmp(k->direction, o->direction) && !strcmp(k->kind, o->kind);
}

/* Index of o's key as loaded, added when new (a few dozen: a scan, the last one first). */
static size_t kv_of(struct data *d, const struct fw_store_obs *o)
{
	struct key_info *k;

	if (d->last_kv < d->nkv && same_kv(&d->kv[d->last_kv], o))
		return d->last_kv;
	for (size_t i = 0; i < d->nkv; i++)
		if (same_kv(&d->kv[i], o))
			return d->last_kv = i;
	FW_ALLOC_GROW(d->kv, d->nkv + 1, d->akv);
	k = &d->kv[d->nkv];
	k->workload = xstrdup(o->workload);
	k->variant = xstrdup(o->variant);
	k->params = xstrdup(o->params);
	k->metric = xstrdup(o->metric);
	k->unit = xstrdup(o->unit);
	k->direction = xstrdup(o->direction);
	k->kind = xstrdup(o->kind);
	k->min_effect = NAN;
	return d->last_kv = d->nkv++;
}

/* Index of the environment of fingerprint fp, added when new. */
static size_t env_of(struct data *d, const struct fw_store_obs *o)
{
	size_t ei;

	for (ei = 0; ei < d->ne; ei++)
		if (!strcmp(d->e[ei].fp, o->env_fingerprint))
			return ei;
	FW_ALLOC_GROW(d->e, d->ne + 1, d->ae);
	d->e[d->ne].fp = xstrdup(o->env_fingerprint);
	d->e[d->ne].host = xstrdup(o->host);
	d->e[d->ne].accel = xstrdup(o->accel);
	d->e[d->ne].cutoff = -1;
	return d->ne++;
}

/* Index of o's run: a run's samples mostly come together, so only a change adds one. */
static size_t run_of(struct data *d, const struct fw_store_obs *o)
{
	if (d->nruns && d->runs[d->nruns - 1].id == o->run_id)
		return d->nruns - 1;
	FW_ALLOC_GROW(d->runs, d->nruns + 1, d->aruns);
	d->runs[d->nruns].id = o->run_id;
	d->runs[d->nruns].key = xstrdup(o->run_key);
	d->runs[d->nruns].look = o->look;
	return d->nruns++;
}

static void grow_obs(struct data *d)
{
	/* parallel arrays: one capacity, FW_ALLOC_GROW's policy */
	d->ao = fw_alloc_nr(d->no + 1, d->ao);
	d->ob_key = xreallocarray(d->ob_key, d->ao, sizeof(*d->ob_key));
	d->ob_env = xreallocarray(d->ob_env, d->ao, sizeof(*d->ob_env));
	d->ob_commit = xreallocarray(d->ob_commit, d->ao, sizeof(*d->ob_commit));
	d->ob_kv = xreallocarray(d->ob_kv, d->ao, sizeof(*d->ob_kv));
	d->ob_runi = xreallocarray(d->ob_runi, d->ao, sizeof(*d->ob_runi));
	d->ob_run = xreallocarray(d->ob_run, d->ao, sizeof(*d->ob_run));
	d->ob_looks = xreallocarray(d->ob_looks, d->ao, sizeof(*d->ob_looks));
	d->ob_look = xreallocarray(d->ob_look, d->ao, sizeof(*d->ob_look));
	d->ob_round = xreallocarray(d->ob_round, d->ao, sizeof(*d->ob_round));
	d->ob_v = xreallocarray(d->ob_v, d->ao, sizeof(*d->ob_v));
	d->ob_min_effect = xreallocarray(d->ob_min_effect, d->ao, sizeof(*d->ob_min_effect));
}

int fw_data_add_obs(const struct fw_store_obs *o, void *ctx)
{
	struct data *d = ctx;
	long ci = commit_index(d, o->commit_id);

	if (ci < 0 || (d->skip_base && ci == d->base))
		return 0;
	if (d->no >= d->ao)
		grow_obs(d);
	d->ob_kv[d->no] = kv_of(d, o);
	d->ob_env[d->no] = env_of(d, o);
	d->ob_runi[d->no] = run_of(d, o);
	d->ob_commit[d->no] = (size_t)ci;
	d->ob_run[d->no] = (long)o->run_id;
	d->ob_round[d->no] = o->round;
	d->ob_v[d->no] = o->value;
	d->ob_min_effect[d->no] = o->min_effect_pct;
	d->ob_looks[d->no] = o->max_looks >= 1 ? o->max_looks : 1;  /* 0: not recorded */
	d->ob_look[d->no] = o->look ? o->look : 1;
	d->no++;
	return 0;
}

int fw_data_load_samples(sqlite3 *db, const struct fw_store_scope *sc, struct data *d, struct strbuf *err)
{
	if (fw_store_scope_samples(db, sc, fw_data_add_obs, d, err))
		return -1;
	fw_data_sort(d);
	return 0;
}

int fw_data_window(sqlite3 *db, long long sid, const char *base_sha, struct data *win, int from, int to,
		   struct strbuf *err)
{
	struct fw_store_scope sc = { .series_id = sid, .span = 1, .also = -1 };

	if (win->nc && (from < win->win_from || to < win->win_to))
		fw_data_free(win);  /* moving back: loaded anew */
	if (!win->nc) {
		if (fw_store_scope_commits(db, &sc, fw_data_add_commit, win, err))
			return -1;
		fw_data_index_commits(win, base_sha);
		win->win_to = from - 1;
		sc.also = win->base >= 0 ? win->c[win->base].id : -1;
	} else {
		fw_data_drop_before(win, from);
		win->skip_base = 1;
	}
	sc.from = win->win_to + 1 > from ? win->win_to + 1 : from;
	sc.to = to;
	if (fw_data_load_samples(db, &sc, win, err))
		return -1;
	win->skip_base = 0;
	win->win_from = from;
	win->win_to = to;
	return 0;
}
