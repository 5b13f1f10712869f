/*
 * foliowatch-server export --db FILE --out DIR [--series NAME] [--static DIR]:
 * the dashboard's pages and plots as static files with relative links, so a
 * series report can be published on any static web host.
 *
 * The pages come from the same renderers as the server (server/ui.h) with an
 * export link mode: every file sits flat in DIR (static files in DIR/static),
 * named by ui_href_* from ui_safe_name, so the name a page links is the name
 * written here, and no series name, sha or hash from the DB can reach outside
 * DIR ('/', '.' and every other byte become '_' plus a hash). Each file is
 * written to a temp name in DIR and renamed into place. Plots are rendered
 * into a scratch folder inside DIR and moved to their names.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "analysis.h"
#include "store.h"
#include "atomic-file.h"
#include "cmdopt.h"
#include "commands.h"
#include "fw-db.h"
#include "plot.h"
#include "routes.h"
#include "ui.h"
#include "xalloc.h"

struct export {
	const char *out;
	const char *static_dir;
	struct fw_ui ui;
	char *scratch;        /* DIR/.plots-<pid>: gnuplot's working files */
	int files;
	int plots_failed;     /* reported and gone past: one plot never stops an export */
};

static int write_file(struct export *ex, const char *name, const char *data, size_t len)
{
	struct strbuf path = STRBUF_INIT, err = STRBUF_INIT;
	int ret = -1;

	strbuf_addf(&path, "%s/%s", ex->out, name);
	if (fw_write_file_atomic(path.buf, data, len, 0644, &err)) {
		fprintf(stderr, "export: %s\n", err.buf);
		goto cleanup;
	}
	ex->files++;
	ret = 0;
cleanup:
	strbuf_release(&path);
	strbuf_release(&err);
	return ret;
}

static int write_sb(struct export *ex, const struct strbuf *name, const struct strbuf *data)
{
	return write_file(ex, name->buf, data->buf, data->len);
}

/* The stylesheet and icon the pages link (by the same href function). */
static int copy_static(struct export *ex)
{
	static const char *files[] = { "style.css", "favicon.svg" };
	struct strbuf dir = STRBUF_INIT, src = STRBUF_INIT, data = STRBUF_INIT, name = STRBUF_INIT;
	int ret = -1;

	strbuf_addf(&dir, "%s/static", ex->out);
	if (mkdir(dir.buf, 0755) && errno != EEXIST) {
		fprintf(stderr, "export: %s: %s\n", dir.buf, strerror(errno));
		goto cleanup;
	}
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		strbuf_reset(&src);
		strbuf_reset(&data);
		strbuf_reset(&name);
		strbuf_addf(&src, "%s/%s", ex->static_dir, files[i]);
		if (strbuf_read_file(&data, src.buf, 1 << 20)) {
			fprintf(stderr, "export: %s: %s (use --static DIR)\n", src.buf, strerror(errno));
			goto cleanup;
		}
		ui_href_static(&name, &ex->ui, files[i]);
		if (write_sb(ex, &name, &data))
			goto cleanup;
	}
	ret = 0;
cleanup:
	strbuf_release(&dir);
	strbuf_release(&src);
	strbuf_release(&data);
	strbuf_release(&name);
	return ret;
}

/*
 * The image a page links when no plot can be drawn: the link must resolve in
 * the export, and the reader sees why (fixed text, nothing from the data).
 */
static int write_plot_placeholder(struct export *ex, const struct strbuf *name, int big, const char *why)
{
	struct strbuf svg = STRBUF_INIT;
	int w = big ? 960 : 320, h = big ? 480 : 120, ret;

	strbuf_addf(&svg, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		    "viewBox=\"0 0 %d %d\" role=\"img\"><title>cannot plot: %s</title>"
		    "<rect width=\"100%%\" height=\"100%%\" fill=\"#f6f6f6\" stroke=\"#999\"/>"
		    "<text x=\"50%%\" y=\"50%%\" text-anchor=\"middle\" font-family=\"sans-serif\" "
		    "font-size=\"%d\">cannot plot: %s</text></svg>\n", w, h, w, h, why, big ? 18 : 11, why);
	ret = write_sb(ex, name, &svg);
	strbuf_release(&svg);
	return ret;
}

static int export_plot(struct export *ex, const struct fw_series *s, int mi, const struct fw_an *an,
		       const struct fw_regs *regs, int big)
{
	struct strbuf path = STRBUF_INIT, name = STRBUF_INIT, dst = STRBUF_INIT, err = STRBUF_INIT;
	struct fw_plot_marks pm = { 0 };
	struct fw_plot_opts o = { .big = big };
	char etag[72];
	int rendered, rc, ret = -1;

	if (big) {
		fw_plot_marks_build(s, &s->metrics[mi], an, regs, &pm);
		fw_plot_marks_change_points(s, &s->metrics[mi], an, &pm);
		o.marks = &pm;
	}
	rc = fw_plot_metric_ex(ex->scratch, s, mi, &o, &path, etag, &rendered, &err);
	if (rc == 1) {
		ret = 0;  /* no samples: the pages say so and link no plot */
		goto cleanup;
	}
	ui_href_plot(&name, &ex->ui, s, &s->metrics[mi], big ? "big" : "small");
	if (rc != 0) {
		fprintf(stderr, "export: plot of %s (%s) not drawn, a placeholder written, going on: %s\n",
			s->metrics[mi].id, big ? "big" : "small",
			rc == 2 ? "every sample is beyond +-1e307 (gnuplot cannot draw it)" : err.buf);
		ex->plots_failed += rc < 0;
		ret = write_plot_placeholder(ex, &name, big, rc == 2 ? "values out of range (beyond +-1e307)"
								  : "gnuplot failed (the export's log says why)");
		goto cleanup;
	}
	strbuf_addf(&dst, "%s/%s", ex->out, name.buf);
	if (rename(path.buf, dst.buf)) {
		fprintf(stderr, "export: %s: %s\n", dst.buf, strerror(errno));
		goto cleanup;
	}
	ex->files++;
	ret = 0;
cleanup:
	fw_plot_marks_free(&pm);
	strbuf_release(&path);
	strbuf_release(&name);
	strbuf_release(&dst);
	strbuf_release(&err);
	return ret;
}

static int config_file(const char *hash, const char *body, void *ctx)
{
	struct export *ex = ctx;
	struct strbuf name = STRBUF_INIT;
	int ret;

	ui_href_config(&name, &ex->ui, hash);
	ret = write_file(ex, name.buf, body, strlen(body));
	strbuf_release(&name);
	return ret ? 1 : 0;
}

/* The .config files the commit pages link (a link exists only when the config is stored). */
static int export_configs(struct export *ex, const struct fw_series *s)
{
	int rc = fw_store_series_configs(ex->ui.db, s->id, config_file, ex);

	if (rc < 0)
		fprintf(stderr, "export: configs: %s\n", fw_db_errmsg(ex->ui.db));
	return rc ? -1 : 0;
}

/* The series' compare page: its first commit against its last (the server's default). */
static int export_compare(struct export *ex, const struct fw_series *s)
{
	struct strbuf name = STRBUF_INIT, page = STRBUF_INIT;
	struct fw_an *an;
	int ret;

	if (!s->ncommits)
		return 0;
	an = ui_compare_analysis(ex->ui.db, s, s, 0, s->ncommits - 1);
	ui_compare_render(&ex->ui, s, s, 0, s->ncommits - 1, an, &page);
	ui_href_compare(&name, &ex->ui, s->name, NULL, NULL);
	ret = write_sb(ex, &name, &page);
	fw_an_free(an);
	strbuf_release(&name);
	strbuf_release(&page);
	return ret;
}

/*
 * Every stored regression (of the exported series), and one page per filter
 * value (a static page cannot run the server's query; they link each other).
 */
static int export_regressions(struct export *ex)
{
	struct strbuf page = STRBUF_INIT, err = STRBUF_INIT, name = STRBUF_INIT;
	struct ui_reg_filter f = { 0 };
	struct fw_regs *all = NULL;
	cJSON *facets = NULL, *p;
	int ret = -1;

	if (fw_regressions_of(ex->ui.db, NULL, NULL, &all, &err)) {
		fprintf(stderr, "export: regressions: %s\n", err.buf);
		goto cleanup;
	}
	ui_regressions_render(&ex->ui, all, &f, &page);
	if (write_file(ex, "regressions.html", page.buf, page.len))
		goto cleanup;
	facets = ui_reg_facets(&ex->ui, all);
	cJSON_ArrayForEach(p, facets) {
		ui_reg_filter_of(p, &f);
		strbuf_reset(&page);
		strbuf_reset(&name);
		ui_regressions_render(&ex->ui, all, &f, &page);
		ui_href_regressions_filter(&name, &ex->ui, p->child->valuestring, p->child->next->valuestring);
		if (write_sb(ex, &name, &page))
			goto cleanup;
	}
	ret = 0;
cleanup:
	cJSON_Delete(facets);
	fw_regs_free(all);
	strbuf_release(&page);
	strbuf_release(&name);
	strbuf_release(&err);
	return ret;
}

static int export_series(struct export *ex, const char *series)
{
	struct strbuf err = STRBUF_INIT, name = STRBUF_INIT, page = STRBUF_INIT;
	struct fw_series s;
	struct fw_an *an = NULL;
	struct fw_regs *regs = NULL;
	cJSON *json = NULL;
	char *txt = NULL;
	int rc, ret = -1;

	rc = fw_series_load(ex->ui.db, series, &s, &err);
	if (rc) {
		fprintf(stderr, "export: series %s: %s\n", series, rc == 1 ? "no such series" : err.buf);
		strbuf_release(&err);
		return -1;
	}
	fw_series_levels(&s);
	an = fw_ui_analysis(ex->ui.db, s.name, s.revision);
	an_apply(&s, an);
	regs = fw_ui_regressions(ex->ui.db, s.name, s.revision);

	for (int vs = 0; vs < 2; vs++) {  /* the page against the parent, then against the base */
		strbuf_reset(&page);
		strbuf_reset(&name);
		ex->ui.vs_base = vs;
		ui_series_render(&ex->ui, &s, an, &page);
		ui_href_series_vs(&name, &ex->ui, s.name, vs);
		ex->ui.vs_base = 0;
		if (write_sb(ex, &name, &page))
			goto cleanup;
	}

	/* The series' data files, as the server's API resources they replace. */
	strbuf_reset(&page);
	strbuf_reset(&name);
	{
		struct strbuf ferr = STRBUF_INIT;
		cJSON *facts = NULL;

		if (fw_mail_facts(ex->ui.db, s.name, s.revision, &facts, &ferr))
			facts = NULL;  /* the tables stand without "how it was measured" */
		fw_series_report(&s, an, facts, FW_VIEW_MOVED, &page);
		cJSON_Delete(facts);
		strbuf_release(&ferr);
	}
	ui_href_data(&name, &ex->ui, s.name, "report.txt");
	if (write_sb(ex, &name, &page))
		goto cleanup;
	strbuf_reset(&page);
	strbuf_reset(&name);
	fw_series_csv(&s, &page);
	ui_href_data(&name, &ex->ui, s.name, "csv");
	if (write_sb(ex, &name, &page))
		goto cleanup;
	strbuf_reset(&name);
	json = fw_series_json(ex->ui.db, &s, an);
	txt = cJSON_Print(json);
	ui_href_data(&name, &ex->ui, s.name, "json");
	if (!txt || write_file(ex, name.buf, txt, strlen(txt)))
		goto cleanup;

	for (int c = 0; c < s.ncommits; c++) {
		strbuf_reset(&page);
		strbuf_reset(&name);
		if (ui_commit_render(&ex->ui, &s, c, an, &page)) {
			fprintf(stderr, "export: commit %s: %s\n", s.commits[c].sha, fw_db_errmsg(ex->ui.db));
			goto cleanup;
		}
		ui_href_commit(&name, &ex->ui, s.name, s.commits[c].sha);
		if (write_sb(ex, &name, &page))
			goto cleanup;
	}
	for (int i = 0; i < s.nmetrics; i++) {
		strbuf_reset(&page);
		strbuf_reset(&name);
		ui_metric_render(&ex->ui, &s, i, an, regs, &page);
		ui_href_metric(&name, &ex->ui, &s, &s.metrics[i]);
		if (write_sb(ex, &name, &page) || export_plot(ex, &s, i, an, regs, 0) ||
		    export_plot(ex, &s, i, an, regs, 1))
			goto cleanup;
	}
	ret = export_compare(ex, &s) ? -1 : export_configs(ex, &s);
cleanup:
	free(txt);
	cJSON_Delete(json);
	fw_an_free(an);
	fw_regs_free(regs);
	fw_series_free(&s);
	strbuf_release(&err);
	strbuf_release(&name);
	strbuf_release(&page);
	return ret;
}

struct name_list {
	char **v;
	int n, alloc;
};

static int add_name(const struct fw_store_series_summary *s, void *ctx)
{
	struct name_list *l = ctx;

	FW_ALLOC_GROW(l->v, l->n + 1, l->alloc);
	l->v[l->n++] = xstrdup(s->name);
	return 0;
}

static int has_name(const struct name_list *l, const char *name)
{
	for (int i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], name))
			return 1;
	return 0;
}

int cmd_export(int argc, char **argv)
{
	static const struct fw_option opts[] = {
		{ "db", 'd', required_argument, 'd', "FILE", "required", "the database; must exist" },
		{ "out", 'o', required_argument, 'o', "DIR", "required", "where the files go (created if missing)" },
		{ "series", 's', required_argument, 's', "NAME", "every series", "only this series" },
		{ "static", 'S', required_argument, 'S', "DIR", "static", "the folder with style.css and favicon.svg" },
		{ 0 },
	};
	static const struct fw_usage usage = { "foliowatch-server", "export",
		"--db FILE --out DIR [--series NAME] [--static DIR]",
		"Writes the dashboard's pages, SVG plots, report.txt/CSV/JSON and .config\n"
		"files as flat files with relative links into DIR, for any static web host.\n"
		"Exit: 0 ok, 1 error (no such database or series, a file not written), 2 usage error.",
		opts, "--db foliowatch.db --out site\n--db foliowatch.db --out site --series my-series" };
	struct fw_getopt g = FW_GETOPT_INIT(&usage);
	struct export ex = { .static_dir = "static" };
	struct strbuf err = STRBUF_INIT, page = STRBUF_INIT, scratch = STRBUF_INIT;
	const char *dbpath = NULL, *series = NULL;
	struct name_list names = { 0 };
	int opt, ret = 1;

	while ((opt = fw_getopt(&g, argc, argv)) != -1) {
		switch (opt) {
		case 'd': dbpath = optarg; break;
		case 'o': ex.out = optarg; break;
		case 's': series = optarg; break;
		case 'S': ex.static_dir = optarg; break;
		default:
			ret = g.exit;
			goto cleanup;
		}
	}
	if (optind != argc) {
		fw_usage_error(&usage, "unexpected argument '%s'", argv[optind]);
		goto usage;
	}
	if (!dbpath || !ex.out) {
		fw_usage_error(&usage, "%s is required", !dbpath ? "--db FILE" : "--out DIR");
		goto usage;
	}
	/* Export reads an existing DB; opening would otherwise create an empty one. */
	ex.ui.db = fw_db_open_existing(dbpath, &err);
	if (!ex.ui.db) {
		fprintf(stderr, "export: %s\n", err.buf);
		goto cleanup;
	}
	ex.ui.exported = 1;
	ex.ui.only_series = series;
	if (mkdir(ex.out, 0755) && errno != EEXIST) {
		fprintf(stderr, "export: %s: %s\n", ex.out, strerror(errno));
		goto cleanup;
	}
	strbuf_addf(&scratch, "%s/.plots-%ld", ex.out, (long)getpid());
	if (mkdir(scratch.buf, 0700)) {
		fprintf(stderr, "export: %s: %s\n", scratch.buf, strerror(errno));
		goto cleanup;
	}
	ex.scratch = scratch.buf;
	if (copy_static(&ex))
		goto cleanup;
	/* the names first: exporting a series writes the analysis cache */
	if (fw_store_series_list(ex.ui.db, add_name, &names)) {
		fprintf(stderr, "export: %s\n", fw_db_errmsg(ex.ui.db));
		goto cleanup;
	}
	if (series && !has_name(&names, series)) {
		fprintf(stderr, "export: no such series: %s\n", series);
		goto cleanup;
	}
	for (int i = 0; i < names.n; i++)
		if (ui_has_series(&ex.ui, names.v[i]) && export_series(&ex, names.v[i]))
			goto cleanup;
	if (ui_index_render(&ex.ui, &page)) {
		fprintf(stderr, "export: index: %s\n", fw_db_errmsg(ex.ui.db));
		goto cleanup;
	}
	if (write_file(&ex, "index.html", page.buf, page.len) || export_regressions(&ex))
		goto cleanup;
	printf("exported %d files to %s\n", ex.files, ex.out);
	if (ex.plots_failed)
		fprintf(stderr, "export: %d plot(s) could not be written (above); every page was written\n", ex.plots_failed);
	ret = ex.plots_failed ? 1 : 0;
	goto cleanup;
usage: /* the message is out */
	ret = 2;
cleanup:
	/* Only gnuplot's leftovers of a failed render can remain in the scratch folder. */
	if (ex.scratch && rmdir(ex.scratch))
		fprintf(stderr, "export: %s not empty: %s\n", ex.scratch, strerror(errno));
	for (int i = 0; i < names.n; i++)
		free(names.v[i]);
	free(names.v);
	fw_db_close(ex.ui.db);
	strbuf_release(&err);
	strbuf_release(&page);
	strbuf_release(&scratch);
	return ret;
}
