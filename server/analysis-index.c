/*
 * Finding the analysis row of one commit x metric: the series answer and page
 * ask for every commit x metric (800 on a 20 x 40 series) among ~2 rows each,
 * so a linear scan per cell was quadratic (~100 ms of strcmp per uncached
 * answer). The rows are sorted once by their key and searched by bisection.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "routes.h"

struct an_entry {
	char *key;          /* sha \x1f env \x1f workload \x1f variant \x1f metric */
	int parent;         /* against the parent: preferred over against the base */
	size_t i;           /* position in the rows array */
	const struct fw_an_row *row;
};

struct fw_an_index {
	struct an_entry *e;
	size_t n;
};

static char *make_key(const char *sha, const char *env, const char *wl, const char *var, const char *met)
{
	struct strbuf k = STRBUF_INIT;

	strbuf_addf(&k, "%s\x1f%s\x1f%s\x1f%s\x1f%s", sha, env, wl, var, met);
	return strbuf_detach(&k, NULL);
}

/*
 * By key; among equal keys (several params of one metric) the choice the old
 * linear scan made: the first row against the parent, else the last other row.
 */
static int cmp_entry(const void *a, const void *b)
{
	const struct an_entry *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	if (c)
		return c;
	if (x->parent != y->parent)
		return y->parent - x->parent;
	if (x->parent)
		return (x->i > y->i) - (x->i < y->i);
	return (y->i > x->i) - (y->i < x->i);
}

struct fw_an_index *an_index_new(const struct fw_an *an)
{
	struct fw_an_index *ix = calloc(1, sizeof(*ix));
	size_t cap = an ? an->nrows : 0;

	if (!ix)
		return NULL;
	ix->e = cap ? calloc(cap, sizeof(*ix->e)) : NULL;
	if (cap && !ix->e)
		return ix;  /* empty index: every lookup says "not analysed" */
	for (size_t i = 0; i < cap; i++) {
		const struct fw_an_row *row = &an->rows[i];
		struct an_entry *e = &ix->e[ix->n++];

		e->key = make_key(row->sha, row->env, row->workload, row->variant, row->metric);
		e->parent = row->against == FW_AGAINST_PARENT;
		e->i = i;
		e->row = row;
	}
	if (ix->n)
		qsort(ix->e, ix->n, sizeof(*ix->e), cmp_entry);
	return ix;
}

/* The first entry of key (the parent row if there is one), or ix->n. */
static size_t find_first(const struct fw_an_index *ix, const char *sha, const struct fw_metric *m)
{
	size_t lo = 0, hi = ix->n;
	char *key = make_key(sha ? sha : "", m->env, m->workload, m->variant, m->metric);

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(ix->e[mid].key, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < ix->n && strcmp(ix->e[lo].key, key))
		lo = ix->n;
	free(key);
	return lo;
}

const struct fw_an_row *an_index_row(const struct fw_an_index *ix, const char *sha, const struct fw_metric *m)
{
	size_t i;

	if (!ix || !ix->n)
		return NULL;
	i = find_first(ix, sha, m);
	return i < ix->n ? ix->e[i].row : NULL;
}

const struct fw_an_row *an_index_row_against(const struct fw_an_index *ix, const char *sha,
					     const struct fw_metric *m, const char *against)
{
	size_t first, i;

	if (!ix || !ix->n)
		return NULL;
	first = find_first(ix, sha, m);
	for (i = first; i < ix->n && !strcmp(ix->e[i].key, ix->e[first].key); i++)
		if (!strcmp(ix->e[i].row->against_name, against))
			return ix->e[i].row;
	return NULL;
}

void an_index_free(struct fw_an_index *ix)
{
	if (!ix)
		return;
	for (size_t i = 0; i < ix->n; i++)
		free(ix->e[i].key);
	free(ix->e);
	free(ix);
}

/*
 * The analysis' numbers into the cells (one truth, issue 28): a commit's
 * delta is the analysis' against the parent it compared with (never "the
 * previous row"), and its median that comparison's After; NAN where the
 * analysis has no such row (the base, a failed build, not analysed).
 */
void an_apply(struct fw_series *s, const struct fw_an *an)
{
	struct fw_an_index *ix = an_index_new(an);

	for (int i = 0; i < s->nmetrics; i++)
		for (int c = 0; c < s->ncommits; c++) {
			struct fw_cell *cell = &s->metrics[i].cells[c];
			const struct fw_an_row *row = an_index_row_against(ix, s->commits[c].sha, &s->metrics[i], "parent");
			double after = row ? row->b.median : NAN;

			cell->delta_pct = row ? row->delta_pct : NAN;
			if (!isnan(after))
				cell->median = after;
		}
	an_index_free(ix);
}
