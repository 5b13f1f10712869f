#ifndef FW_PLOT_H
#define FW_PLOT_H
/*
 * Trend plots with gnuplot (SVG). The data goes to a file and the script is
 * a program constant plus numbers; text from the DB only appears as data
 * labels reduced to a safe character set, never as gnuplot code. Plots are
 * cached as <cache>/<sha256 of script+data>.svg, written to a temp name and
 * renamed, so the same data is never rendered twice and ETags are stable.
 */
#include "series-levels.h"
#include "an-result.h"

#include <cjson/cJSON.h>
#include <time.h>

/*
 * What the big plot adds to the samples: per commit, the analysis interval
 * of its level (the parent's median shifted by the row's ci_lo_pct/ci_hi_pct;
 * NAN: none) drawn as a band, and its regression markers: kind has
 * FW_MARK_HOST for this host's stored regression (in an older revision, which
 * has none stored: its analysis verdict) and FW_MARK_ALL for the all-hosts
 * one, one marker each; label (NULL: none) is the commit's one text for both.
 */
#define FW_MARK_HOST 1
#define FW_MARK_ALL 2
struct fw_plot_marks {
	double *lo, *hi;
	char **label;
	unsigned char *kind;
	unsigned char *cp;  /* 1 where a change point starts (a line before that commit); NULL none */
	int n, ncp;
	double floor_pct;   /* the metric's decision floor (or minimum effect), % of its level; NAN: none known */
};
/* From the analysis rows (against the parent) and the stored regressions of the revision. */
void fw_plot_marks_build(const struct fw_series *s, const struct fw_metric *m, const struct fw_an *an,
			 const struct fw_regs *regs, struct fw_plot_marks *pm);
/* After fw_plot_marks_build: the analysis' change points of m (its environment) as dashed lines. */
void fw_plot_marks_change_points(const struct fw_series *s, const struct fw_metric *m, const struct fw_an *an,
				 struct fw_plot_marks *pm);
void fw_plot_marks_free(struct fw_plot_marks *pm);

/*
 * The regression markers, named by the captions: gnuplot point type 13 is a
 * filled diamond (this host's), 12 an open one (all hosts', drawn larger).
 */
#define FW_PLOT_REG_PT 13
#define FW_PLOT_REG_SHAPE "red diamonds"
#define FW_PLOT_ALL_PT 12
#define FW_PLOT_ALL_SHAPE "open red diamonds"

/*
 * The plots' font sizes (px at their intrinsic size): the pages say them
 * (data-font) and keep a plot at least that big on a phone, in a scroll
 * box, so its text is never drawn under 11 px.
 */
#define FW_PLOT_FONT_SMALL 11
#define FW_PLOT_FONT_BIG 11
#define FW_PLOT_FONT_PROFILE 11
struct fw_plot_opts {
	int big;                              /* 900x480 with subjects, else 420x220 */
	int png;                              /* PNG (pngcairo) instead of SVG */
	const struct fw_plot_marks *marks;    /* may be NULL */
};
/*
 * server/plot-range.c: values gnuplot cannot draw (|y| >= FW_PLOT_MAX_ABS)
 * are left out of a plot. fw_plot_clip returns 0 when m (and pm, may be NULL)
 * plot as they are, else 1 with copies in *out without those values (the
 * labels stay m's and pm's); free them with fw_plot_clipped_free.
 */
#define FW_PLOT_MAX_ABS 1e307
/*
 * Plots of more commits than this draw each commit's median and interval,
 * not every sample and boot median, and label every n-th commit (issue 31).
 */
#define FW_PLOT_DENSE_COMMITS 200
struct fw_plot_clipped {
	struct fw_metric m;
	struct fw_plot_marks pm;
	int ncells;
};
int fw_plot_clip(const struct fw_series *s, const struct fw_metric *m, const struct fw_plot_marks *pm,
		 struct fw_plot_clipped *out);
/*
 * The y axis (plot-range.c): what the data span, never narrower than the
 * decision floor around the base's level (pm's floor_pct, else
 * FW_PLOT_FLOOR_PCT), so a metric that did not move is drawn flat; the floor
 * is the band [band_lo, band_hi]; the axis stops at 0 when no value is
 * negative (counts and times). samples: they are drawn (else the commits'
 * medians only); top_pad: the share of the span above the data (room for
 * regression labels).
 */
#define FW_PLOT_FLOOR_PCT 0.5
struct fw_plot_yrange {
	double lo, hi, band_lo, band_hi, floor_pct;
	int band;  /* a base level to draw the band around */
};
void fw_plot_yrange(const struct fw_series *s, const struct fw_metric *m, const struct fw_plot_marks *pm,
		    int samples, double top_pad, struct fw_plot_yrange *y);
/* Samples of m gnuplot can draw (within +-FW_PLOT_MAX_ABS): 0 means a page links no plot. */
int fw_plot_ndrawable(const struct fw_series *s, const struct fw_metric *m);
void fw_plot_clipped_free(struct fw_plot_clipped *c);

/*
 * 0 ok (path and etag set; *rendered 1 if gnuplot ran), 1 no data, 2 no value
 * gnuplot can draw (all beyond FW_PLOT_MAX_ABS), -1 error (err).
 */
int fw_plot_metric_ex(const char *cache_dir, const struct fw_series *s, int mi,
		      const struct fw_plot_opts *o, struct strbuf *path, char etag[72], int *rendered,
		      struct strbuf *err);
/*
 * The renderer under both: runs gnuplot on script (constants and numbers
 * only) with data as the file "data" in its folder, cached by the hash of
 * both. 0 (path, etag, *rendered), -1 error (err).
 */
int fw_plot_render(const char *cache_dir, const struct strbuf *script, const struct strbuf *data, int png,
		   struct strbuf *path, char etag[72], int *rendered, struct strbuf *err);
/*
 * server/plot-profile.c (issue 13): a bar plot of the function deltas of a
 * profile diff's first variant (fw_profile_diff answer), self time (total
 * where self was not measured), at most FW_PLOT_PROFILE_BARS bars.
 * 0 ok, 1 nothing to plot, -1 error (err).
 */
#define FW_PLOT_PROFILE_BARS 15
int fw_plot_profile(const char *cache_dir, const struct fw_prof_diff *diff, struct strbuf *path, char etag[72], int *rendered,
		    struct strbuf *err);
/*
 * server/plot-cache.c. A cache hit refreshes the file's use time; pruning
 * removes plots unused for max_age seconds, then the least recently used
 * until the folder holds at most max_bytes, and hour-old render temps.
 */
struct fw_plot_prune {
	unsigned removed, temps;
	unsigned long long freed, kept_bytes;
};
void fw_plot_cache_touch(const char *path);
int fw_plot_cache_prune(const char *dir, unsigned long long max_bytes, time_t max_age, time_t now,
			struct fw_plot_prune *out);

/* Label text for a plot: keeps [A-Za-z0-9 ._:,()+%/-], maps the rest to '_', max bytes. */
void fw_plot_label(struct strbuf *sb, const char *s, size_t max);

#endif
