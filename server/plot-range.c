/*
 * What gnuplot can draw: it takes |y| >= about 9e307 for undefined and fails
 * ("all points undefined") or overflows its axis range when a range spans
 * more than that. A valid run document may carry any finite sample, so the
 * plot leaves out values beyond +-FW_PLOT_MAX_ABS and draws the rest; the
 * JSON API and the pages still show every value as stored.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "plot.h"

static int plottable(double v)
{
	return isnan(v) || fabs(v) < FW_PLOT_MAX_ABS;  /* NAN already means "none" */
}

static int metric_plottable(const struct fw_series *s, const struct fw_metric *m,
			    const struct fw_plot_marks *pm)
{
	for (int c = 0; c < s->ncommits; c++) {
		if (!plottable(m->cells[c].median) ||
		    (pm && c < pm->n && (!plottable(pm->lo[c]) || !plottable(pm->hi[c]))))
			return 0;
		for (int k = 0; k < m->cells[c].n; k++)
			if (!plottable(m->cells[c].vals[k].v))
				return 0;
	}
	return 1;
}

int fw_plot_ndrawable(const struct fw_series *s, const struct fw_metric *m)
{
	int n = 0;

	for (int c = 0; c < s->ncommits; c++)
		for (int k = 0; k < m->cells[c].n; k++)
			n += !isnan(m->cells[c].vals[k].v) && plottable(m->cells[c].vals[k].v);
	return n;
}

int fw_plot_clip(const struct fw_series *s, const struct fw_metric *m, const struct fw_plot_marks *pm,
		 struct fw_plot_clipped *out)
{
	int n = s->ncommits ? s->ncommits : 1;

	memset(out, 0, sizeof(*out));
	if (metric_plottable(s, m, pm))
		return 0;
	out->m = *m;
	out->m.cells = calloc((size_t)n, sizeof(*out->m.cells));
	if (!out->m.cells)
		abort();
	for (int c = 0; c < s->ncommits; c++) {
		const struct fw_cell *from = &m->cells[c];
		struct fw_cell *to = &out->m.cells[c];

		*to = *from;
		to->vals = calloc((size_t)(from->n ? from->n : 1), sizeof(*to->vals));
		if (!to->vals)
			abort();
		to->n = 0;
		for (int k = 0; k < from->n; k++)
			if (plottable(from->vals[k].v))
				to->vals[to->n++] = from->vals[k];
		to->alloc = from->n;
		if (!plottable(to->median))
			to->median = NAN;
	}
	if (pm) {
		out->pm = *pm;
		out->pm.lo = calloc((size_t)(pm->n ? pm->n : 1), sizeof(double));
		out->pm.hi = calloc((size_t)(pm->n ? pm->n : 1), sizeof(double));
		if (!out->pm.lo || !out->pm.hi)
			abort();
		for (int c = 0; c < pm->n; c++) {
			out->pm.lo[c] = plottable(pm->lo[c]) && plottable(pm->hi[c]) ? pm->lo[c] : NAN;
			out->pm.hi[c] = plottable(pm->lo[c]) && plottable(pm->hi[c]) ? pm->hi[c] : NAN;
		}
	}
	out->ncells = s->ncommits;
	return 1;
}

void fw_plot_clipped_free(struct fw_plot_clipped *c)
{
	for (int i = 0; c->m.cells && i < c->ncells; i++)
		free(c->m.cells[i].vals);
	free(c->m.cells);
	free(c->pm.lo);
	free(c->pm.hi);
	memset(c, 0, sizeof(*c));
}

static void widen(double v, double *lo, double *hi)
{
	if (isnan(v))
		return;
	*lo = isnan(*lo) || v < *lo ? v : *lo;
	*hi = isnan(*hi) || v > *hi ? v : *hi;
}

void fw_plot_yrange(const struct fw_series *s, const struct fw_metric *m, const struct fw_plot_marks *pm,
		    int samples, double top_pad, struct fw_plot_yrange *y)
{
	double lo = NAN, hi = NAN, ref = NAN, span;

	for (int c = 0; c < s->ncommits; c++) {
		const struct fw_cell *cell = &m->cells[c];

		for (int k = 0; samples && k < cell->n; k++)
			widen(cell->vals[k].v, &lo, &hi);
		widen(cell->median, &lo, &hi);
		if (isnan(ref))
			ref = cell->median;  /* the base's level: the first commit measured */
		if (pm && c < pm->n) {
			widen(pm->lo[c], &lo, &hi);
			widen(pm->hi[c], &lo, &hi);
		}
	}
	y->floor_pct = pm && !isnan(pm->floor_pct) ? pm->floor_pct : FW_PLOT_FLOOR_PCT;
	y->band = !isnan(ref);
	if (isnan(lo)) {  /* nothing to draw: gnuplot's own range */
		y->lo = y->hi = NAN;
		y->band = 0;
		return;
	}
	int nonneg = lo >= 0;
	if (y->band) {
		y->band_lo = ref - fabs(ref) * y->floor_pct / 100.0;
		y->band_hi = ref + fabs(ref) * y->floor_pct / 100.0;
		widen(y->band_lo, &lo, &hi);
		widen(y->band_hi, &lo, &hi);
	}
	span = hi - lo;
	if (!(span > 0))  /* all values one (a zero level has no floor around it) */
		span = lo ? fabs(lo) * 0.01 : 1;
	y->lo = lo - span * 0.05;
	y->hi = hi + span * top_pad;
	if (nonneg && y->lo < 0)  /* a count or a time never goes below 0: the axis stops there */
		y->lo = 0;
}
