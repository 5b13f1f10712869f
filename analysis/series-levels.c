/*
 * A loaded series' levels: each cell's median is the median of its per-boot
 * medians, the level the analysis compares (README "Deciding"), computed here,
 * in the analysis (the store, schema/series-db.c, computes nothing).
 */
#include <math.h>
#include <stdlib.h>
#include "series-levels.h"
#include "stats.h"

double fw_cell_run_median(const struct fw_cell *c, long long run)
{
	double *t = malloc(sizeof(*t) * (size_t)(c->n ? c->n : 1)), m;
	int k = 0;

	if (!t)
		return NAN;
	for (int i = 0; i < c->n; i++)
		if (c->vals[i].run == run)
			t[k++] = c->vals[i].v;
	m = fw_median(t, (size_t)k);
	free(t);
	return m;
}

/* The median of the per-boot medians: the level the analysis compares (README "Deciding"). */
static double boots_median(const struct fw_cell *c)
{
	double *meds = malloc(sizeof(*meds) * (size_t)(c->n ? c->n : 1)), m;
	int k = 0;

	if (!meds)
		abort();
	for (int i = 0; i < c->n; i++) {
		int seen = 0;
		for (int j = 0; j < i && !seen; j++)
			seen = c->vals[j].run == c->vals[i].run;
		if (!seen)
			meds[k++] = fw_cell_run_median(c, c->vals[i].run);
	}
	m = fw_median(meds, (size_t)k);
	free(meds);
	return m;
}

void fw_series_levels(struct fw_series *s)
{
	for (int i = 0; i < s->nmetrics; i++)
		for (int c = 0; c < s->ncommits; c++)
			s->metrics[i].cells[c].median = boots_median(&s->metrics[i].cells[c]);
}
