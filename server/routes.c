/*
 * The one route table (after GNU Taler's handlers[]): 404, 405, 413 and 414
 * are decided here and nowhere else. Patterns are matched on the raw path,
 * segment by segment, so an encoded '/' or '.' inside a name stays data:
 *   "*"       one non-empty segment, captured (decoded)
 *   "*.csv"   one segment ending in a literal ".csv" (captured without it)
 *   "**"      the rest of the path, captured raw (the handler checks it)
 */
#include <stdlib.h>
#include <string.h>
#include "routes.h"
#include "run-doc.h"
#include "token-db.h"
#include "xalloc.h"

/*
 * kind: what the route answers, and so how its errors are written (an HTML
 * page for FW_ROUTE_HTML, JSON otherwise); needs: DB (fw_dispatch replies
 * 503 db_unavailable itself when the database cannot be opened), and the
 * token scope the route needs, if any (INGEST, TRIAGE, ADMIN: fw_dispatch
 * answers 401/403 before the handler runs; r->token names the token).
 */
struct fw_route {
	const char *method;
	const char *pattern;
	fw_handler fn;
	enum fw_route_kind kind;
	unsigned needs;
};
enum { NODB = 0, DB = 1, INGEST = FW_SCOPE_INGEST << 1, TRIAGE = FW_SCOPE_TRIAGE << 1,
       ADMIN = FW_SCOPE_ADMIN << 1 };
#define HTML FW_ROUTE_HTML
#define JSON FW_ROUTE_JSON
#define PLOT FW_ROUTE_PLOT

static const struct fw_route routes[] = {
	{ "GET",  "/",                                 ui_index, HTML, DB },
	{ "GET",  "/healthz",                          api_healthz, JSON, NODB },
	{ "GET",  "/metrics",                          api_metrics, JSON, NODB },
	{ "POST", "/api/v1/runs",                      api_runs_post, JSON, DB | INGEST },
	{ "GET",  "/api/v1/series",                    api_series_list, JSON, DB },
	{ "GET",  "/api/v1/series/*.csv",              api_series_csv, JSON, DB },
	{ "GET",  "/api/v1/series/*/report.txt",       api_series_report, JSON, DB },
	{ "GET",  "/api/v1/series/*/report.md",        api_series_report_md, JSON, DB },
	{ "GET",  "/api/v1/series/*",                  api_series_get, JSON, DB },
	{ "POST", "/api/v1/series/*/complete",         api_series_complete, JSON, DB | INGEST },
	{ "GET",  "/api/v1/trend",                     api_trend, JSON, DB },
	{ "GET",  "/api/v1/compare",                   api_compare, JSON, DB },
	{ "GET",  "/api/v1/regressions",               api_regressions_list, JSON, DB },
	{ "GET",  "/api/v1/regressions/*",             api_regression_get, JSON, DB },
	{ "POST", "/api/v1/regressions/*",             api_regression_post, JSON, DB | TRIAGE },
	{ "GET",  "/api/v1/bisects",                   api_bisects_list, JSON, DB },
	{ "GET",  "/api/v1/bisects/*",                 api_bisect_get, JSON, DB },
	{ "GET",  "/api/v1/openapi.json",              api_openapi, JSON, NODB },
	{ "GET",  "/api",                              ui_api, HTML, NODB },
	{ "GET",  "/feed.atom",                        api_feed, JSON, DB },
	{ "GET",  "/series/*/feed.atom",               api_series_feed, JSON, DB },
	{ "GET",  "/series/*",                         ui_series, HTML, DB },
	{ "GET",  "/series/*/metric/*/*/*",            ui_metric, HTML, DB },
	{ "GET",  "/series/*/commit/*",                ui_commit, HTML, DB },
	{ "GET",  "/series/*/compare",                 ui_compare, HTML, DB },
	{ "GET",  "/regressions",                      ui_regressions, HTML, DB },
	{ "GET",  "/config/*",                         ui_config, HTML, DB },
	{ "GET",  "/plot/*/*/*/*/*.svg",               ui_plot, PLOT, DB },
	{ "GET",  "/plot/*/*/*/*/*.png",               ui_plot_png, PLOT, DB },
	{ "GET",  "/static/**",                        ui_static, PLOT, NODB },
	/* issue 13: kernel function profiles, two commits side by side */
	{ "GET",  "/api/v1/profile",                   api_profile, JSON, DB },
	{ "GET",  "/series/*/profile",                 ui_profile, HTML, DB },
	{ "GET",  "/series/*/profile.svg",             ui_profile_plot, PLOT, DB },
};
#undef HTML
#undef JSON
#undef PLOT

static void drop_args(struct fw_req *r)
{
	for (int i = 0; i < r->nargs; i++)
		free(r->args[i]);
	r->nargs = 0;
}

static int capture(struct fw_req *r, const char *s, size_t len)
{
	struct strbuf sb = STRBUF_INIT;

	if (r->nargs >= FW_MAX_ARGS || fw_url_decode(s, len, &sb)) {
		strbuf_release(&sb);
		return -1;
	}
	r->args[r->nargs++] = strbuf_detach(&sb, NULL);
	return 0;
}

/* 1 match, 0 no match, -1 bad escape in a captured segment. */
static int match(struct fw_req *r, const char *pat, const char *path)
{
	drop_args(r);
	while (*pat && *path) {
		const char *pe, *se;
		size_t pl, sl;

		if (*pat != '/' || *path != '/')
			return 0;
		pat++;
		path++;
		pe = strchrnul(pat, '/');
		se = strchrnul(path, '/');
		pl = (size_t)(pe - pat);
		sl = (size_t)(se - path);
		if (pl == 2 && !strncmp(pat, "**", 2)) {
			r->args[r->nargs++] = xstrdup(path);
			return *path ? 1 : 0;
		}
		if (pat[0] == '*') {
			size_t suf = pl - 1;  /* literal suffix after '*' */

			if (sl <= suf || strncmp(path + sl - suf, pat + 1, suf))
				return 0;
			if (capture(r, path, sl - suf))
				return -1;
		} else if (pl != sl || strncmp(pat, path, pl)) {
			return 0;
		}
		pat = pe;
		path = se;
	}
	return !*pat && !*path;
}

static int route_find(struct fw_req *r, const char *method, const struct fw_route **route,
		      struct strbuf *allow)
{
	size_t i;

	*route = NULL;
	if (strlen(r->path) > FW_URL_MAX)
		return 414;
	/* HEAD is GET without a body; libmicrohttpd drops the body for us. */
	if (!strcmp(method, "HEAD"))
		method = "GET";
	for (i = 0; i < sizeof(routes) / sizeof(routes[0]); i++) {
		int m = match(r, routes[i].pattern, r->path);

		if (m < 0) {
			drop_args(r);
			return 400;
		}
		if (!m)
			continue;
		if (!strcmp(routes[i].method, method)) {
			*route = &routes[i];
			return 0;
		}
		if (!strstr(allow->buf, routes[i].method)) {
			if (allow->len)
				strbuf_addstr(allow, ", ");
			strbuf_addstr(allow, routes[i].method);
			if (!strcmp(routes[i].method, "GET"))
				strbuf_addstr(allow, ", HEAD");
		}
	}
	drop_args(r);
	return allow->len ? 405 : 404;
}

int fw_route_info(size_t i, const char **method, const char **pattern, enum fw_route_kind *kind)
{
	if (i >= sizeof(routes) / sizeof(routes[0]))
		return -1;
	*method = routes[i].method;
	*pattern = routes[i].pattern;
	*kind = routes[i].kind;
	return 0;
}

int fw_route_find(struct fw_req *r, const char *method, fw_handler *fn, struct strbuf *allow)
{
	const struct fw_route *route;
	int st = route_find(r, method, &route, allow);

	*fn = route ? route->fn : NULL;
	return st;
}

enum MHD_Result fw_dispatch(struct fw_req *r)
{
	struct strbuf allow = STRBUF_INIT;
	const struct fw_route *route;
	enum MHD_Result ret;
	int st;

	if (r->too_large && strlen(r->path) <= FW_URL_MAX)
		return reply_error(r, 413, "too_large", NULL,
				   "request body over the document size limit");
	st = route_find(r, r->method, &route, &allow);
	switch (st) {
	case 0:
		/* The route decides: pages answer errors as HTML, the rest as JSON. */
		r->is_page = route->kind == FW_ROUTE_HTML;
		if (fw_query_unknown(r, (size_t)(route - routes), &ret))
			break;  /* 400 naming it: an API route's parameters are its OpenAPI operation's */
		if ((route->needs & DB) && !req_db(r))
			ret = reply_error(r, 503, "db_unavailable", NULL, "cannot open the database");
		else if (!(route->needs >> 1) || !fw_auth_check(r, route->needs >> 1, &ret))
			ret = route->fn(r);
		break;
	case 414:
		ret = reply_error(r, 414, "uri_too_long", NULL, "request path too long");
		break;
	case 400:
		ret = reply_error(r, 400, "bad_path", "path", "bad percent-encoding in path");
		break;
	case 405:
		r->allow = allow.buf;
		{
			struct strbuf why = STRBUF_INIT;
			strbuf_addf(&why, "this path allows only %s", allow.buf);
			ret = reply_error(r, 405, "method_not_allowed", "method", why.buf);
			strbuf_release(&why);
		}
		r->allow = NULL;
		break;
	default:
		ret = reply_error(r, 404, "not_found", "path", "no such page or resource");
		break;
	}
	strbuf_release(&allow);
	return ret;
}
