/*
 * GET /plot/{series}/{workload}/{variant}/{metric}/{small|big}.svg (or .png)
 * [?env=PREFIX&revision=N&from=A&to=B]: a trend plot from the disk cache
 * (rendered on first request), with ETag; of a long history, its newest
 * FW_METRIC_PAGE_COMMITS positions unless from/to say (?from=0: all). The
 * big plot carries the analysis interval band and the regression markers.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "routes.h"
#include "plot.h"
#include "ui.h"

static enum MHD_Result plot(struct fw_req *r, int png)
{
	struct strbuf wvm = STRBUF_INIT, env = STRBUF_INIT, path = STRBUF_INIT, err = STRBUF_INIT;
	struct fw_series s;
	struct fw_plot_marks pm = { 0 };
	struct fw_plot_opts o = { 0 };
	struct fw_an *an = NULL;
	struct fw_regs *regs = NULL;
	enum MHD_Result ret;
	char etag[72];
	int mi, rendered, rc, loaded = 0;

	o.big = !strcmp(r->args[4], "big");
	o.png = png;
	if (!o.big && strcmp(r->args[4], "small")) {
		ret = reply_error(r, 404, "not_found", "size", "plot size is small or big");
		goto cleanup;
	}
	strbuf_addf(&wvm, "%s/%s/%s", r->args[1], r->args[2], r->args[3]);
	{
		struct fw_series_only only = { wvm.buf, -1, { 0, 0 } };  /* this metric's samples only */
		/*
		 * A long history: its newest positions unless from=/to= ask, as
		 * its metric page and trend answer (at 10,000 commits the whole
		 * was 3.4 MB and 2.8 s on every request).
		 */
		if (req_series_part(r, r->args[0], "series", FW_METRIC_PAGE_COMMITS, &only, &s, &ret))
			goto cleanup;
	}
	loaded = 1;
	req_query(r, "env", &env);
	mi = req_metric(r, &s, wvm.buf, env.buf, &ret);
	if (mi < 0)
		goto cleanup;
	if (o.big) {
		an = req_analysis_for(r, &s, s.metrics[mi].id);
		regs = fw_ui_regressions(req_db(r), s.name, s.revision);
		fw_plot_marks_build(&s, &s.metrics[mi], an, regs, &pm);
		fw_plot_marks_change_points(&s, &s.metrics[mi], an, &pm);
		o.marks = &pm;
	}
	rc = fw_plot_metric_ex(r->srv->cache_dir, &s, mi, &o, &path, etag, &rendered, &err);
	if (rc == 1) {
		ret = reply_error(r, 404, "no_data", "metric", "no samples to plot");
		goto cleanup;
	}
	if (rc == 2) {
		ret = reply_error(r, 422, "cannot_plot", "samples",
				  "every sample is beyond +-1e307, which gnuplot cannot draw (the API has them)");
		goto cleanup;
	}
	if (rc < 0) {
		fprintf(stderr, "serve: plot: %s\n", err.buf);
		ret = reply_error(r, 500, "plot_failed", NULL, "could not render the plot");
		goto cleanup;
	}
	atomic_fetch_add(rendered ? &r->srv->plots_rendered : &r->srv->plots_cached, 1);
	ret = reply_file(r, path.buf, png ? "image/png" : "image/svg+xml", etag);
	if (rendered && atomic_fetch_add(&r->srv->renders_since_prune, 1) + 1 >= 64 &&
	    !pthread_mutex_trylock(&r->srv->prune_lock)) {
		struct fw_plot_prune pr;

		atomic_store(&r->srv->renders_since_prune, 0);
		/* After the reply: its file is open, so even a tiny cache limit cannot pull it away. */
		fw_plot_cache_prune(r->srv->cache_dir, r->srv->plot_cache_bytes, r->srv->plot_cache_age,
				    time(NULL), &pr);
		pthread_mutex_unlock(&r->srv->prune_lock);
	}
cleanup:
	if (loaded)
		fw_series_free(&s);
	fw_plot_marks_free(&pm);
	fw_an_free(an);
	fw_regs_free(regs);
	strbuf_release(&wvm);
	strbuf_release(&env);
	strbuf_release(&path);
	strbuf_release(&err);
	return ret;
}

enum MHD_Result ui_plot(struct fw_req *r)
{
	return plot(r, 0);
}

enum MHD_Result ui_plot_png(struct fw_req *r)
{
	return plot(r, 1);
}
