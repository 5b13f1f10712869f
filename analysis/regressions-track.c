/*
 * Regressions from rows fed in position order (regressions-track.h). A row
 * that is a regression, or a host's row of a combined regression, is kept;
 * a later row of the same metric and environment whose median is back within
 * the kept row's min effect of its old level (or better) undoes it. A
 * combined regression is undone when every host row it rests on is. Kept
 * rows are found by a hash of their metric and environment: a history has
 * hundreds of thousands of rows and a few hundred regressions.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analysis.h"
#include "regressions-track.h"
#include "regressions-db.h"
#include "fw-db.h"
#include "xalloc.h"

#define BUCKETS 4096

struct kept {
	long long commit_id;
	int position, higher_is_better, regression, undone;
	char *env, *workload, *variant, *params, *metric;
	double a_median, min_effect_pct, delta_pct, q;
	long combined;      /* the combined regression it is a host row of, -1 none */
	long next;          /* the next kept row in its bucket, -1 none */
};

struct combined {
	long long commit_id;
	int position;
	char *workload, *variant, *params, *metric;
	double delta_pct, q;
	int hosts, undone_hosts;
};

struct fw_reg_track {
	long long series_id;
	int from;
	struct kept *k;
	size_t nk, ak;
	struct combined *c;
	size_t nc, ac, cnext;  /* cnext: the first combined not behind the rows fed */
	int sorted;
	long bucket[BUCKETS];
};

struct fw_reg_track *fw_reg_track_new(long long series_id, int from)
{
	struct fw_reg_track *t = xcalloc(1, sizeof(*t));

	t->series_id = series_id;
	t->from = from;
	for (size_t i = 0; i < BUCKETS; i++)
		t->bucket[i] = -1;
	return t;
}

void fw_reg_track_free(struct fw_reg_track *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nk; i++) {
		free(t->k[i].env);
		free(t->k[i].workload);
		free(t->k[i].variant);
		free(t->k[i].params);
		free(t->k[i].metric);
	}
	for (size_t i = 0; i < t->nc; i++) {
		free(t->c[i].workload);
		free(t->c[i].variant);
		free(t->c[i].params);
		free(t->c[i].metric);
	}
	free(t->k);
	free(t->c);
	free(t);
}

void fw_reg_track_combined(struct fw_reg_track *t, long long commit_id, int position, const char *workload,
			   const char *variant, const char *params, const char *metric, double delta_pct, double q)
{
	FW_ALLOC_GROW(t->c, t->nc + 1, t->ac);
	t->c[t->nc++] = (struct combined){ commit_id, position, xstrdup(workload), xstrdup(variant), xstrdup(params),
					   xstrdup(metric), delta_pct, q, 0, 0 };
	t->sorted = 0;
}

static unsigned hash_of(const char *const *s, size_t n)
{
	unsigned h = 2166136261u;

	for (size_t i = 0; i < n; i++) {
		for (const char *p = s[i]; *p; p++)
			h = (h ^ (unsigned char)*p) * 16777619u;
		h = (h ^ 0xff) * 16777619u;
	}
	return h % BUCKETS;
}

static unsigned bucket_of(const char *env, const char *workload, const char *variant, const char *params,
			  const char *metric)
{
	const char *s[] = { env, workload, variant, params, metric };

	return hash_of(s, 5);
}

static int same_metric(const char *w1, const char *v1, const char *p1, const char *m1, const char *w2,
		       const char *v2, const char *p2, const char *m2)
{
	return !strcmp(w1, w2) && !strcmp(v1, v2) && !strcmp(p1, p2) && !strcmp(m1, m2);
}

/* Has r returned to the level before k? Within k's min effect of it, or better. */
static int undoes(const struct kept *k, const struct fw_reg_row *r)
{
	double old = k->a_median, tol = k->min_effect_pct / 100, m = r->b_median;

	if (isnan(old) || isnan(tol) || isnan(m))
		return 0;
	return k->higher_is_better ? m >= old - tol * fabs(old) : m <= old + tol * fabs(old);
}

static int cmp_combined_pos(const void *pa, const void *pb)
{
	const struct combined *a = pa, *b = pb;

	return (a->position > b->position) - (a->position < b->position);
}

/* The combined regression r is a host row of, or -1. */
static long combined_of(struct fw_reg_track *t, const struct fw_reg_row *r)
{
	if (!t->sorted) {
		/* stable enough: combined rows of one position differ by metric, matched by name below */
		if (t->nc)  /* t->c is NULL when there are none: qsort's argument must not be */
			qsort(t->c, t->nc, sizeof(*t->c), cmp_combined_pos);
		t->sorted = 1;
		t->cnext = 0;
	}
	while (t->cnext < t->nc && t->c[t->cnext].position < r->position)
		t->cnext++;
	for (size_t i = t->cnext; i < t->nc && t->c[i].position == r->position; i++)
		if (same_metric(t->c[i].workload, t->c[i].variant, t->c[i].params, t->c[i].metric, r->workload,
				r->variant, r->params, r->metric))
			return (long)i;
	return -1;
}

void fw_reg_track_row(struct fw_reg_track *t, const struct fw_reg_row *r)
{
	unsigned b = bucket_of(r->env, r->workload, r->variant, r->params, r->metric);
	long c, *link = &t->bucket[b];
	struct kept *k;

	/* undo what it returns to; an undone row leaves its bucket (it stays undone) */
	while (*link >= 0) {
		k = &t->k[*link];
		if (k->position < r->position && !strcmp(k->env, r->env) &&
		    same_metric(k->workload, k->variant, k->params, k->metric, r->workload, r->variant, r->params,
				r->metric) && undoes(k, r)) {
			k->undone = 1;
			if (k->combined >= 0)
				t->c[k->combined].undone_hosts++;
			*link = k->next;
			continue;
		}
		link = &k->next;
	}
	c = combined_of(t, r);
	if (!r->regression && c < 0)
		return;
	FW_ALLOC_GROW(t->k, t->nk + 1, t->ak);
	k = &t->k[t->nk];
	*k = (struct kept){ r->commit_id, r->position, r->higher_is_better, r->regression, 0,
			    xstrdup(r->env), xstrdup(r->workload), xstrdup(r->variant), xstrdup(r->params),
			    xstrdup(r->metric), r->a_median, r->min_effect_pct, r->delta_pct, r->q, c, t->bucket[b] };
	t->bucket[b] = (long)t->nk++;
	if (c >= 0)
		t->c[c].hosts++;
}

/* Stores one regression (a no-op when known) or, below from, only marks it fixed. Newly stored, or -1. */
static int store_one(struct fw_reg_track *t, struct fw_regression_writer *w, const struct fw_regression_key *key,
		     int position, double delta_pct, double q, int undone, const char *now)
{
	int busy = fw_regression_in_bisect(w, key), stored = 0;

	if (busy)  /* a bisect's midpoint: the bisect decides where the regression is (or a DB error) */
		return busy < 0 ? -1 : 0;
	if (t->from < 0 || position >= t->from)
		stored = fw_regression_insert(w, key, delta_pct, q, now);
	if (stored < 0)
		return -1;
	if (undone && fw_regression_mark_fixed(w, key, now))
		return -1;
	return stored;
}

static int store_all(struct fw_reg_track *t, struct fw_regression_writer *w, const char *now)
{
	int stored = 0, n;

	for (size_t i = 0; i < t->nk; i++) {
		const struct kept *k = &t->k[i];
		struct fw_regression_key key = { t->series_id, k->commit_id, k->env, k->workload, k->variant,
						 k->metric };

		if (!k->regression)
			continue;
		if ((n = store_one(t, w, &key, k->position, k->delta_pct, k->q, k->undone, now)) < 0)
			return -1;
		stored += n;
	}
	for (size_t i = 0; i < t->nc; i++) {
		const struct combined *c = &t->c[i];
		struct fw_regression_key key = { t->series_id, c->commit_id, FW_ENV_COMBINED, c->workload, c->variant,
						 c->metric };

		if ((n = store_one(t, w, &key, c->position, c->delta_pct, c->q,
				   c->hosts > 0 && c->undone_hosts == c->hosts, now)) < 0)
			return -1;
		stored += n;
	}
	return stored;
}

int fw_reg_track_store(struct fw_reg_track *t, sqlite3 *db, struct strbuf *err)
{
	struct fw_regression_writer w;
	char now[32];
	int stored = 0, ret = -1;

	fw_now_iso(now);
	if (fw_regression_writer_open(&w, db, err))
		goto cleanup;
	if (fw_db_begin(db, NULL)) {
		strbuf_addf(err, "storing regressions: %s", fw_db_errmsg(db));
		goto cleanup;
	}
	if ((stored = store_all(t, &w, now)) < 0) {
		strbuf_addf(err, "storing regressions: %s", fw_db_errmsg(db));
		fw_db_end(db, 0, NULL);
		goto cleanup;
	}
	{
		struct strbuf e = STRBUF_INIT;  /* COMMIT's message: read before the rollback */
		int failed = fw_db_end(db, 1, &e);

		if (failed)
			strbuf_addf(err, "storing regressions: %s", e.buf);
		strbuf_release(&e);
		if (failed)
			goto cleanup;
	}
	ret = stored;
cleanup:
	fw_regression_writer_close(&w);
	return ret;
}
