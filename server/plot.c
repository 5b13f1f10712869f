/* gnuplot trend plots through runcmd (argv, timeout), cached on disk by content hash. */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "analysis.h"
#include "atomic-file.h"
#include "plot.h"
#include "runcmd.h"
#include "sha256.h"
#include "run-doc.h"

void fw_plot_label(struct strbuf *sb, const char *s, size_t max)
{
	size_t start = sb->len;

	for (; s && *s && sb->len - start < max; s++) {
		unsigned char c = (unsigned char)*s;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		    strchr(" ._:,()+-%/", c))
			strbuf_addch(sb, c);
		else
			strbuf_addch(sb, '_');
	}
}

/* The same, cut at a word boundary with ".." when longer than max (a subject never ends mid-word). */
static void plot_label_words(struct strbuf *sb, const char *s, size_t max)
{
	size_t n = s ? strlen(s) : 0, cut = max;

	if (n <= max) {
		fw_plot_label(sb, s, max);
		return;
	}
	while (cut > max / 2 && s[cut] != ' ')
		cut--;
	if (s[cut] != ' ')
		cut = max;
	fw_plot_label(sb, s, cut);
	strbuf_addstr(sb, "..");
}

/*
 * Labels live in the data file inside double quotes and are printed as
 * text by gnuplot (noenhanced): never parsed as commands or formats, so
 * '%' is kept for "+10.3%" and only quotes, backslashes, markup and
 * controls need to go.
 *
 * Data blocks, selected by name (gnuplot's index "name" finds the block whose
 * first comment has it; numbers would shift past an empty block): 0 every sample, 1 per-boot medians,
 * 2 commit medians with the x tic label in column 3 (a quoted, filtered string),
 * 3 the interval band, 4 and 5 the markers (this host's, all hosts'), 6 their labels,
 * 7 the floor band (x lo hi, at both ends), 8 the y axis label (the unit):
 * DB text reaches gnuplot only as quoted data, never as script text.
 */
static void write_data(struct strbuf *d, const struct fw_series *s, const struct fw_metric *m, int big,
		       const struct fw_plot_marks *pm, const struct fw_plot_yrange *y, int *nband, int nmark[2])
{
	/* a long history: the commits' medians and band only, and every step-th commit's label */
	int dense = s->ncommits > FW_PLOT_DENSE_COMMITS, step = s->ncommits / (big ? 40 : 12) + 1;

	strbuf_addstr(d, "# samples\n");
	for (int c = 0; !dense && c < s->ncommits; c++)
		for (int k = 0; k < m->cells[c].n; k++)
			strbuf_addf(d, "%d %.17g\n", c + 1, m->cells[c].vals[k].v);
	strbuf_addstr(d, "\n\n# boot medians\n");
	for (int c = 0; !dense && c < s->ncommits; c++) {
		long long last = -1;

		for (int k = 0; k < m->cells[c].n; k++) {
			if (m->cells[c].vals[k].run == last)
				continue;
			last = m->cells[c].vals[k].run;
			strbuf_addf(d, "%d %.17g\n", c + 1, fw_cell_run_median(&m->cells[c], last));
		}
	}
	strbuf_addstr(d, "\n\n# commit medians\n");
	for (int c = 0; c < s->ncommits; c++) {
		if (isnan(m->cells[c].median))
			continue;
		strbuf_addf(d, "%d %.17g \"", c + 1, m->cells[c].median);
		if (dense && c % step && c != s->ncommits - 1) {
			strbuf_addstr(d, "\"\n");
			continue;
		}
		fw_plot_label(d, s->commits[c].sha, 7);
		if (big && !dense) {
			strbuf_addch(d, ' ');
			plot_label_words(d, s->commits[c].subject, 28);
		}
		strbuf_addstr(d, "\"\n");
	}
	/* 3: the interval band (x lo hi); 4: regression markers (x y "label"), labels as data. */
	*nband = nmark[0] = nmark[1] = 0;
	strbuf_addstr(d, "\n\n# interval band\n");
	for (int c = 0; pm && c < s->ncommits && c < pm->n; c++) {
		if (isnan(pm->lo[c]) || isnan(pm->hi[c]))
			continue;
		strbuf_addf(d, "%d %.17g %.17g\n", c + 1, pm->lo[c], pm->hi[c]);
		(*nband)++;
	}
	/* One marker per stored regression: this host's (or an older revision's verdict), then all hosts'. */
	for (int k = 0; k < 2; k++) {
		strbuf_addstr(d, k ? "\n\n# all-hosts marks\n" : "\n\n# host marks\n");
		for (int c = 0; pm && c < s->ncommits && c < pm->n; c++) {
			if (!(pm->kind[c] & (k ? FW_MARK_ALL : FW_MARK_HOST)) || isnan(m->cells[c].median))
				continue;
			strbuf_addf(d, "%d %.17g\n", c + 1, m->cells[c].median);
			nmark[k]++;
		}
	}
	/* One label per commit, however many markers it has: texts never stack on each other. */
	strbuf_addstr(d, "\n\n# mark labels\n");
	for (int c = 0; pm && c < s->ncommits && c < pm->n; c++) {
		if (!pm->label[c] || isnan(m->cells[c].median))
			continue;
		strbuf_addf(d, "%d %.17g \"", c + 1, m->cells[c].median);
		fw_plot_label(d, pm->label[c], 64);
		strbuf_addstr(d, "\"\n");
	}
	/* the decision floor around the base's level: within it, nothing moved */
	strbuf_addstr(d, "\n\n# floor band\n");
	if (y->band)
		strbuf_addf(d, "0.5 %.17g %.17g\n%d.5 %.17g %.17g\n", y->band_lo, y->band_hi, s->ncommits, y->band_lo,
			    y->band_hi);
	strbuf_addstr(d, "\n\n# y label\n\"");
	fw_plot_label(d, m->unit, 24);
	strbuf_addstr(d, "\"\n");
}

/*
 * The script is these constants and numbers only; which parts appear depends
 * on counts. The key sits below the plot (never over data); the y label (the
 * unit) is read from data block 5 by stats. No hypertext: gnuplot writes it
 * as on* JavaScript attributes, which the CSP blocks.
 */
static const char script_head[] =
	"set terminal %s size %d,%d font 'sans,%d' noenhanced background rgb 'white'\n"
	"set border 3\nset tics nomirror\nset grid ytics lc rgb '#dddddd'\n"
	"ylabel = ''\nstats 'data' index 'y label' using (ylabel = strcol(1), 0) nooutput\nset ylabel ylabel\n"
	"set key %s\nset xrange [0.5:%d.5]\n"
	"set xtics rotate by -35 left\nset lmargin 10\nset style fill transparent solid 0.25 noborder\n";
/* The y range (fw_plot_yrange: never narrower than the floor, 0 for what cannot be negative). */
static const char script_yrange[] = "set yrange [%.17g:%.17g]\n";
/* The floor band behind everything: a "no change" series stays inside it. */
static const char script_floor[] =
	"'data' index 'floor band' using 1:2:3 with filledcurves fc rgb '#9e9e9e' fs transparent solid 0.18 "
	"title sprintf('no-change floor +-%%.2f%%%% of the base', %.17g), \\\n     ";
/* A change point: a dashed line between the last commit before it and the first after (x numbers only). */
static const char script_cp_line[] =
	"set arrow from %d.5, graph 0 to %d.5, graph 1 nohead dt 2 lw 1.2 lc rgb '#6a1b9a' back\n";
static const char script_cp_key[] = ", \\\n     NaN with lines dt 2 lw 1.2 lc rgb '#6a1b9a' title 'change point'";
/* One box per commit (x +- 0.3, lo..hi): an interval belongs to its commit, not to the space between two. */
static const char script_band[] =
	"'data' index 'interval band' using 1:(($2+$3)/2):($1-0.3):($1+0.3):2:3 with boxxyerror "
	"lc rgb '#1f5fa8' title 'interval (vs parent)', \\\n     ";
static const char script_main[] =
	"'data' index 'samples' using 1:2 with points pt 7 ps 0.35 lc rgb '#8aa4bf' title 'samples', \\\n"
	"     '' index 'boot medians' using 1:2 with points pt 6 ps 0.8 lc rgb '#555555' title 'boot median', \\\n"
	"     '' index 'commit medians' using 1:2:xtic(3) with linespoints lw 2 pt 7 ps 0.6 lc rgb '#1f5fa8' title 'median'";
/* Past FW_PLOT_DENSE_COMMITS the samples would be tens of thousands of points (3 MB of SVG at 600 commits). */
static const char script_dense[] =
	"'data' index 'commit medians' using 1:2:xtic(3) with lines lw 1.5 lc rgb '#1f5fa8' title 'median'";
/* pt FW_PLOT_REG_PT / FW_PLOT_ALL_PT: the shapes the pages' captions name (plot.h). */
#define STR_(x) #x
#define STR(x) STR_(x)
static const char script_host[] =
	", \\\n     '' index 'host marks' using 1:2 with points pt " STR(FW_PLOT_REG_PT) " ps 1.6 lc rgb '#c62828' title 'regression'";
/* Larger and open: around a host's own diamond at the same commit, both stay visible. */
static const char script_all[] =
	", \\\n     '' index 'all-hosts marks' using 1:2 with points pt " STR(FW_PLOT_ALL_PT) " ps 2.8 lw 1.5 lc rgb '#c62828' title 'all-hosts regression'";
static const char script_labels[] =
	", \\\n     '' index 'mark labels' using 1:2:3 with labels offset 0,1.6 tc rgb '#c62828' notitle";

static int write_file(const char *path, const struct strbuf *sb)
{
	FILE *f = fopen(path, "w");
	int ret = 0;

	if (!f)
		return -1;
	if (fwrite(sb->buf, 1, sb->len, f) != sb->len)
		ret = -1;
	if (fclose(f))
		ret = -1;
	return ret;
}

int fw_plot_render(const char *cache_dir, const struct strbuf *script, const struct strbuf *data, int png,
		   struct strbuf *path, char etag[72], int *rendered, struct strbuf *err)
{
	struct strbuf key = STRBUF_INIT, tmp = STRBUF_INIT, tdata = STRBUF_INIT, tscript = STRBUF_INIT;
	struct sha256_ctx ctx;
	struct stat st;
	char hash[65];
	int ret = -1, fd;

	*rendered = 0;
	sha256_init(&ctx);
	sha256_update(&ctx, script->buf, script->len + 1);
	sha256_update(&ctx, data->buf, data->len);
	sha256_final_hex(&ctx, hash);
	snprintf(etag, 72, "\"%.32s\"", hash);
	strbuf_reset(path);
	strbuf_addf(path, "%s/%s.%s", cache_dir, hash, png ? "png" : "svg");
	if (!stat(path->buf, &st) && S_ISREG(st.st_mode)) {
		fw_plot_cache_touch(path->buf);  /* recently used: pruned last */
		ret = 0;
		goto cleanup;
	}
	/* Unique temp names per thread; the data file name in the script is a constant. */
	strbuf_addf(&tmp, "%s/tmp-%s-%ld-%lx", cache_dir, hash, (long)getpid(), (unsigned long)pthread_self());
	strbuf_addf(&tdata, "%s.d", tmp.buf);
	if (mkdir(tdata.buf, 0700)) {
		strbuf_addf(err, "mkdir %s: %s", tdata.buf, strerror(errno));
		goto cleanup;
	}
	strbuf_addf(&key, "%s/data", tdata.buf);
	strbuf_addf(&tscript, "%s/plot.gp", tdata.buf);
	if (write_file(key.buf, data) || write_file(tscript.buf, script)) {
		strbuf_addf(err, "writing plot data: %s", strerror(errno));
		goto rmdir;
	}
	/* gnuplot writes the plot into a temp next to it (the cache prunes stale ones) */
	if ((fd = fw_atomic_temp(path->buf, &tmp, err)) < 0)
		goto rmdir;
	close(fd);
	{
		const char *argv[] = { "gnuplot", "plot.gp", NULL };
		struct runcmd rc = { 0 };

		rc.argv = argv;
		rc.dir = tdata.buf;
		rc.stdout_path = tmp.buf;
		rc.timeout_s = 20;
		if (runcmd_run(&rc) != 0) {
			strbuf_addf(err, "gnuplot failed (exit %d%s)", rc.exit_code,
				    rc.timed_out ? ", timed out" : "");
			unlink(tmp.buf);
			goto rmdir;
		}
	}
	if (fw_atomic_commit(-1, tmp.buf, path->buf, 0644, err))
		goto rmdir;
	*rendered = 1;
	ret = 0;
rmdir:
	unlink(key.buf);
	unlink(tscript.buf);
	rmdir(tdata.buf);
cleanup:
	strbuf_release(&key);
	strbuf_release(&tmp);
	strbuf_release(&tdata);
	strbuf_release(&tscript);
	return ret;
}

/* Whether any regression marker will be drawn (write_data's count, known before it). */
static int marks_of(const struct fw_series *s, const struct fw_metric *m, const struct fw_plot_marks *pm)
{
	for (int c = 0; pm && c < s->ncommits && c < pm->n; c++)
		if (pm->kind[c] && !isnan(m->cells[c].median))
			return 1;
	return 0;
}

int fw_plot_metric_ex(const char *cache_dir, const struct fw_series *s, int mi,
		      const struct fw_plot_opts *o, struct strbuf *path, char etag[72], int *rendered,
		      struct strbuf *err)
{
	const struct fw_metric *m = &s->metrics[mi];
	const struct fw_plot_marks *marks = o->marks;
	struct fw_plot_clipped clip;
	struct fw_plot_yrange yr;
	struct strbuf data = STRBUF_INIT, script = STRBUF_INIT;
	int any = 0, ret = -1, big = o->big, nband, nmark[2];

	*rendered = 0;
	for (int c = 0; c < s->ncommits; c++)
		any += m->cells[c].n;
	if (!any)
		return 1;
	if (fw_plot_clip(s, m, marks, &clip)) {
		m = &clip.m;
		marks = marks ? &clip.pm : NULL;
		if (!fw_metric_nsamples(s, m)) {
			ret = 2;
			goto cleanup;
		}
	}
	/* room above the data for the regression labels */
	fw_plot_yrange(s, m, marks, s->ncommits <= FW_PLOT_DENSE_COMMITS, marks_of(s, m, marks) ? 0.15 : 0.05, &yr);
	write_data(&data, s, m, big, marks, &yr, &nband, nmark);
	strbuf_addf(&script, script_head, o->png ? "pngcairo" : "svg", big ? 900 : 420, big ? 480 : 220,
		    big ? FW_PLOT_FONT_BIG : FW_PLOT_FONT_SMALL, big ? "outside below center horizontal" : "off", s->ncommits);
	if (!isnan(yr.lo))
		strbuf_addf(&script, script_yrange, yr.lo, yr.hi);
	for (int c = 1; marks && marks->cp && c < s->ncommits && c < marks->n; c++)
		if (marks->cp[c])
			strbuf_addf(&script, script_cp_line, c, c);
	strbuf_addstr(&script, "plot ");
	if (yr.band)
		strbuf_addf(&script, script_floor, yr.floor_pct);
	if (nband)
		strbuf_addstr(&script, script_band);
	strbuf_addstr(&script, s->ncommits > FW_PLOT_DENSE_COMMITS ? script_dense : script_main);
	if (nmark[0])
		strbuf_addstr(&script, script_host);
	if (nmark[1])
		strbuf_addstr(&script, script_all);
	if (nmark[0] || nmark[1])
		strbuf_addstr(&script, script_labels);
	if (marks && marks->ncp)
		strbuf_addstr(&script, script_cp_key);
	strbuf_addch(&script, '\n');
	ret = fw_plot_render(cache_dir, &script, &data, o->png, path, etag, rendered, err);
cleanup:
	strbuf_release(&data);
	strbuf_release(&script);
	fw_plot_clipped_free(&clip);
	return ret;
}

void fw_plot_marks_free(struct fw_plot_marks *pm)
{
	for (int i = 0; pm->label && i < pm->n; i++)
		free(pm->label[i]);
	free(pm->lo);
	free(pm->hi);
	free(pm->label);
	free(pm->kind);
	free(pm->cp);
	memset(pm, 0, sizeof(*pm));
}

static int reg_of_metric(const struct fw_reg *it, const struct fw_metric *m)
{
	int all = !strcmp(it->env, FW_ENV_COMBINED);  /* every host's plot */

	return (all || !strcmp(it->env, m->env)) && !strcmp(it->workload, m->workload) &&
	       !strcmp(it->variant, m->variant) && !strcmp(it->metric, m->metric);
}

static int any_stored(const struct fw_metric *m, const struct fw_regs *regs)
{
	for (size_t i = 0; regs && i < regs->n; i++)
		if (reg_of_metric(&regs->r[i], m))
			return 1;
	return 0;
}

void fw_plot_marks_build(const struct fw_series *s, const struct fw_metric *m, const struct fw_an *an,
			 const struct fw_regs *regs, struct fw_plot_marks *pm)
{
	int n = s->ncommits;

	pm->n = n;
	pm->lo = malloc(sizeof(double) * (size_t)(n ? n : 1));
	pm->hi = malloc(sizeof(double) * (size_t)(n ? n : 1));
	pm->label = calloc((size_t)(n ? n : 1), sizeof(char *));
	pm->kind = calloc((size_t)(n ? n : 1), 1);
	if (!pm->lo || !pm->hi || !pm->label || !pm->kind)
		abort();
	for (int c = 0; c < n; c++)
		pm->lo[c] = pm->hi[c] = NAN;
	pm->floor_pct = NAN;
	for (size_t i = 0; an && i < an->nrows; i++) {
		const struct fw_an_row *r = &an->rows[i];
		double ref, lo, hi;
		int c;

		if (r->against != FW_AGAINST_PARENT || strcmp(r->env, m->env) || strcmp(r->workload, m->workload) ||
		    strcmp(r->variant, m->variant) || strcmp(r->metric, m->metric))
			continue;
		/* the widest floor any comparison of the metric used (a rank-tested row: its minimum effect) */
		double f = r->has_floor && !isnan(r->floor_pct) ? r->floor_pct : r->min_effect_pct;
		if (!isnan(f) && (isnan(pm->floor_pct) || f > pm->floor_pct))
			pm->floor_pct = f;
		c = fw_series_find_commit(s, r->sha);
		if (c < 0)
			continue;
		/* The interval is of the shift against the parent: where this commit's level can be. */
		ref = r->a.median;
		lo = r->ci_lo_pct;
		hi = r->ci_hi_pct;
		if (!isnan(ref) && !isnan(lo) && !isnan(hi)) {
			pm->lo[c] = ref + fabs(ref) * lo / 100.0;
			pm->hi[c] = ref + fabs(ref) * hi / 100.0;
		}
		/* An older revision has nothing stored (only the newest is): its analysis verdicts mark it. */
		if (r->v == FW_REGRESSION && !pm->label[c]) {
			struct strbuf l = STRBUF_INIT;

			strbuf_addf(&l, "regression %+.1f%%", r->delta_pct);
			pm->label[c] = strbuf_detach(&l, NULL);
			pm->kind[c] = FW_MARK_HOST;
		}
	}
	if (any_stored(m, regs))
		for (int c = 0; c < n; c++) {
			free(pm->label[c]);
			pm->label[c] = NULL;
			pm->kind[c] = 0;
		}
	/*
	 * One marker per stored regression (they carry the lifecycle status a
	 * reader wants to see): a filled diamond for this host's, an open one for
	 * the all-hosts one; one label per commit names both.
	 */
	for (size_t i = 0; regs && i < regs->n; i++) {
		const struct fw_reg *it = &regs->r[i];
		struct strbuf l = STRBUF_INIT;
		const char *st = it->status;
		int all = !strcmp(it->env, FW_ENV_COMBINED), c;

		if (!reg_of_metric(it, m) || (c = fw_series_find_commit(s, it->sha)) < 0)
			continue;
		if (pm->label[c])
			strbuf_addf(&l, "%s, ", pm->label[c]);  /* fw_plot_label keeps commas */
		strbuf_addf(&l, "%s%+.1f%% (%s)", all ? "all hosts " : "regression ", it->delta_pct, *st ? st : "?");
		free(pm->label[c]);
		pm->label[c] = strbuf_detach(&l, NULL);
		pm->kind[c] |= all ? FW_MARK_ALL : FW_MARK_HOST;
	}
}

void fw_plot_marks_change_points(const struct fw_series *s, const struct fw_metric *m, const struct fw_an *an,
				 struct fw_plot_marks *pm)
{
	struct fw_change_point *cp;
	int n = fw_analysis_change_points(an, m->id, m->env, &cp);

	free(pm->cp);
	pm->cp = calloc((size_t)(s->ncommits ? s->ncommits : 1), 1);
	pm->ncp = 0;
	if (!pm->cp)
		abort();
	for (int k = 0; k < n; k++) {
		int c = fw_series_find_commit(s, cp[k].sha);

		if (c > 0 && c < pm->n && !pm->cp[c]) {
			pm->cp[c] = 1;
			pm->ncp++;
		}
	}
	free(cp);
}
