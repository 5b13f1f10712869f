#ifndef FW_PLOT_H
#define FW_PLOT_H
/*
 * Trend plots with gnuplot (SVG). The data goes to a file and the script is
 * a program constant plus numbers; text from the DB only appears as data
 * labels reduced to a safe character set, never as gnuplot code. Plots are
 * cached as <cache>/<sha256 of script+data>.svg, written to a temp name and
 * renamed, so the same data is never rendered twice and ETags are stable.
 */
#include "series-db.h"

/* 0 ok (path and etag set; *rendered 1 if gnuplot ran), 1 no data, -1 error (err). */
int fw_plot_metric(const char *cache_dir, const struct fw_series *s, int mi, int big,
		   struct strbuf *path, char etag[72], int *rendered, struct strbuf *err);
/* Label text for a plot: keeps [A-Za-z0-9 ._:,()+-], maps the rest to '_', max bytes. */
void fw_plot_label(struct strbuf *sb, const char *s, size_t max);

#endif
