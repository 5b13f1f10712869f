/*
 * Atom feeds of stored regressions (RFC 4287): GET /feed.atom (every series)
 * and /series/{name}/feed.atom. One entry per regression, updated when its
 * status changes (<updated> is its status time), newest first; then the
 * improvements of the newest analyses (server/feed-improvements.c: not
 * stored, so their id is a hash of what names them and <updated> is the
 * series' newest run). Every text
 * from the DB goes through xml_txt; links are relative to this server
 * (hrefs from fw_regression_json, names percent-encoded).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "fw-db.h"
#include "routes.h"
#include "ui.h"
#include "analysis-json.h"
#include "html.h"
#include "run-doc.h"
#include "series-db.h"
#include "sha256.h"

#define FEED_MAX_ENTRIES 200
#define FEED_MAX_IMPROVEMENTS 100

/* XML text of the string k of o ("" when missing). */
static void put(struct strbuf *sb, const cJSON *o, const char *k)
{
	xml_txt(sb, fw_json_str(o, k, ""));
}

/* "workload/variant metric" of a regression. */
static void put_metric(struct strbuf *sb, const cJSON *g)
{
	put(sb, g, "workload");
	strbuf_addch(sb, '/');
	put(sb, g, "variant");
	strbuf_addch(sb, '/');  /* the metric's id as the pages and the API write it */
	put(sb, g, "metric");
}

/* A link of the feed: absolute under --public-url (a feed reader has no page to resolve a path against). */
static void put_link(struct strbuf *sb, const char *base, const cJSON *links, const char *k)
{
	if (base)
		xml_txt(sb, base);
	put(sb, links, k);
}

static void entry(struct strbuf *sb, const cJSON *g, const char *base)
{
	int improvement = !strcmp(fw_json_str(g, "status", ""), "improvement");
	const cJSON *links = cJSON_GetObjectItemCaseSensitive(g, "links");
	double delta = fw_json_num(g, "delta_pct", NAN);
	char num[32];

	snprintf(num, sizeof(num), isnan(delta) ? "?" : "%+.2f%%", delta);
	if (improvement) {
		static const char *const keys[] = { "series", "sha", "env_fingerprint", "workload", "variant", "metric" };
		struct strbuf k = STRBUF_INIT;
		char hex[65];

		strbuf_addf(&k, "%d", fw_json_int(g, "revision", 0));
		for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
			strbuf_addch(&k, '\0');
			strbuf_addstr(&k, fw_json_str(g, keys[i], ""));
		}
		sha256_hex(k.buf, k.len, hex);
		strbuf_release(&k);
		strbuf_addf(sb, "<entry>\n<id>tag:foliowatch,2026:improvement/%s</id>\n<title>", hex);
	} else {
		strbuf_addf(sb, "<entry>\n<id>tag:foliowatch,2026:regression/%lld</id>\n<title>",
			    (long long)fw_json_num(g, "id", 0));
	}
	put_metric(sb, g);
	strbuf_addf(sb, " %s in ", num);
	put(sb, g, "series");
	strbuf_addstr(sb, ": ");
	put(sb, g, "subject");
	strbuf_addstr(sb, " [");
	put(sb, g, "status");
	strbuf_addstr(sb, "]</title>\n<updated>");
	put(sb, g, "status_at");
	strbuf_addstr(sb, "</updated>\n<published>");
	put(sb, g, "created_at");
	strbuf_addstr(sb, "</published>\n<link rel=\"alternate\" type=\"text/html\" href=\"");
	put_link(sb, base, links, "commit");
	strbuf_addstr(sb, "\"/>\n<link rel=\"related\" type=\"application/json\" href=\"");
	put_link(sb, base, links, improvement ? "trend" : "self");  /* an improvement has no resource of its own */
	strbuf_addf(sb, "\"/>\n<summary type=\"text\">%s ", num);
	put_metric(sb, g);
	strbuf_addstr(sb, " at commit ");
	put(sb, g, "sha");
	strbuf_addstr(sb, " of series ");
	put(sb, g, "series");
	strbuf_addstr(sb, ", environment ");
	put(sb, g, "env_fingerprint");
	strbuf_addstr(sb, "; status ");
	put(sb, g, "status");
	strbuf_addstr(sb, " by ");
	put(sb, g, "status_by");
	if (*fw_json_str(g, "status_note", "")) {
		strbuf_addstr(sb, ": ");
		put(sb, g, "status_note");
	}
	strbuf_addstr(sb, "</summary>\n</entry>\n");
}

/* The newest status time of the list: the feed's <updated> (a fixed date when empty). */
static const char *newest(const cJSON *list)
{
	const char *best = "1970-01-01T00:00:00Z";
	const cJSON *g;

	cJSON_ArrayForEach(g, list)
		if (strcmp(fw_json_str(g, "status_at", ""), best) > 0)
			best = fw_json_str(g, "status_at", "");
	return best;
}

/* prefix and the series name (percent-encoded in a URL, else as XML text); nothing without one. */
static void add_series(struct strbuf *sb, const char *series, const char *prefix, int in_url)
{
	if (!series)
		return;
	strbuf_addstr(sb, prefix);
	if (in_url)
		html_url_arg(sb, series);
	else
		xml_txt(sb, series);
}

static enum MHD_Result feed(struct fw_req *r, const char *series)
{
	struct strbuf err = STRBUF_INIT, sb = STRBUF_INIT;
	sqlite3 *db = req_db(r);
	cJSON *list = NULL, *better = cJSON_CreateArray(), *it;
	enum MHD_Result ret;
	struct fw_analysis_opts ao;
	const char *base = r->srv->notify.o.public_url;  /* checked at start: no trailing '/', no markup */
	int n = 0;

	fw_ui_analysis_opts(&ao);  /* a reader's poll: the regressions of the analysis shown while a newer one is computed */
	if (fw_regressions_refresh(db, series, &ao, &err) || fw_regressions_list(db, series, NULL, &list, &err)) {
		ret = reply_error(r, 503, "db_error", NULL, err.buf);
		goto cleanup;
	}
	if (fw_feed_improvements(db, series, FEED_MAX_IMPROVEMENTS, better) < 0) {
		ret = reply_error(r, 503, "db_error", NULL, fw_db_errmsg(db));
		goto cleanup;
	}
	strbuf_addstr(&sb, "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
			   "<feed xmlns=\"http://www.w3.org/2005/Atom\">\n<id>tag:foliowatch,2026:regressions");
	add_series(&sb, series, "/series/", 1);
	strbuf_addstr(&sb, "</id>\n<title>foliowatch regressions and improvements");
	add_series(&sb, series, " in series ", 0);
	strbuf_addstr(&sb, "</title>\n<updated>");
	xml_txt(&sb, strcmp(newest(list), newest(better)) > 0 ? newest(list) : newest(better));
	strbuf_addstr(&sb, "</updated>\n<author><name>foliowatch</name></author>\n"
			   "<link rel=\"alternate\" type=\"text/html\" href=\"");
	if (base)
		xml_txt(&sb, base);
	strbuf_addstr(&sb, "/regressions");
	add_series(&sb, series, "?series=", 1);
	strbuf_addstr(&sb, "\"/>\n");
	/* Newest first (the list is in id order, ids grow with time), at most FEED_MAX_ENTRIES. */
	for (int i = cJSON_GetArraySize(list) - 1; i >= 0 && n < FEED_MAX_ENTRIES; i--, n++) {
		cJSON *o = fw_regression_json_of(cJSON_GetArrayItem(list, i));

		entry(&sb, o, base);
		cJSON_Delete(o);
	}
	cJSON_ArrayForEach(it, better) {
		cJSON *o = fw_regression_json_of(it);

		entry(&sb, o, base);
		cJSON_Delete(o);
	}
	strbuf_addstr(&sb, "</feed>\n");
	ret = reply_buf(r, 200, "application/atom+xml; charset=utf-8", &sb, NULL);
cleanup:
	cJSON_Delete(list);
	cJSON_Delete(better);
	strbuf_release(&sb);
	strbuf_release(&err);
	return ret;
}

enum MHD_Result api_feed(struct fw_req *r)
{
	return feed(r, NULL);
}

enum MHD_Result api_series_feed(struct fw_req *r)
{
	struct fw_series s;
	enum MHD_Result ret;

	memset(&s, 0, sizeof(s));
	struct fw_series_only none = { NULL, 0, { 0, 0 } };  /* only that it exists */

	if (req_series_only(r, r->args[0], "name", &none, &s, &ret) < 0)
		return ret;
	ret = feed(r, s.name);
	fw_series_free(&s);
	return ret;
}
