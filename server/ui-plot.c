/*
 * GET /plot/{series}/{workload}/{variant}/{metric}/{small|big}.svg[?env=PREFIX]:
 * a trend plot from the disk cache (rendered on first request), with ETag.
 */
#include <stdio.h>
#include <string.h>
#include "routes.h"
#include "plot.h"

enum MHD_Result ui_plot(struct fw_req *r)
{
	struct strbuf wvm = STRBUF_INIT, env = STRBUF_INIT, path = STRBUF_INIT, err = STRBUF_INIT;
	struct fw_series s;
	enum MHD_Result ret;
	char etag[72];
	int mi, big, rendered, rc, loaded = 0;

	r->is_page = 0;
	big = !strcmp(r->args[4], "big");
	if (!big && strcmp(r->args[4], "small")) {
		ret = reply_error(r, 404, "not_found", "size", "plot size is small or big");
		goto cleanup;
	}
	if (req_series(r, r->args[0], "series", &s, &ret))
		goto cleanup;
	loaded = 1;
	strbuf_addf(&wvm, "%s/%s/%s", r->args[1], r->args[2], r->args[3]);
	req_query(r, "env", &env);
	mi = fw_series_find_metric(&s, wvm.buf, env.buf, 0);
	if (mi < 0) {
		ret = reply_error(r, 404, "not_found", "metric", "no such metric in this series");
		goto cleanup;
	}
	rc = fw_plot_metric(r->srv->cache_dir, &s, mi, big, &path, etag, &rendered, &err);
	if (rc == 1) {
		ret = reply_error(r, 404, "no_data", "metric", "no samples to plot");
		goto cleanup;
	}
	if (rc < 0) {
		fprintf(stderr, "serve: plot: %s\n", err.buf);
		ret = reply_error(r, 500, "plot_failed", NULL, "could not render the plot");
		goto cleanup;
	}
	atomic_fetch_add(rendered ? &r->srv->plots_rendered : &r->srv->plots_cached, 1);
	ret = reply_file(r, path.buf, "image/svg+xml", etag);
cleanup:
	if (loaded)
		fw_series_free(&s);
	strbuf_release(&wvm);
	strbuf_release(&env);
	strbuf_release(&path);
	strbuf_release(&err);
	return ret;
}
