/* Small glue shared by the handlers that show one series. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include "routes.h"
#include "analysis.h"
#include "store-analysis.h"
#include "ui.h"
#include "run-doc.h"
#include "utf8.h"

int req_commit(struct fw_req *r, const struct fw_series *s, const char *field, const char *sha,
	       enum MHD_Result *ret)
{
	struct strbuf d = STRBUF_INIT;
	int i = fw_series_find_commit(s, sha), n = 0;

	if (i >= 0)
		return i;
	if (i == -1) {
		*ret = reply_error(r, 404, "not_found", field, strlen(sha) < 4
				   ? "no such commit in this series (a sha prefix needs 4 characters)"
				   : "no such commit in this series");
		return -1;
	}
	/* the candidates are stored shas, the caller's prefix is not repeated */
	strbuf_addstr(&d, "sha prefix matches several commits:");
	for (int j = 0; j < s->ncommits; j++)
		if (!strncmp(s->commits[j].sha, sha, strlen(sha)) && n++ < 8)
			strbuf_addf(&d, " %.*s", UTF8_CUT(s->commits[j].sha, 12));
	if (n > 8)
		strbuf_addf(&d, " and %d more", n - 8);
	*ret = reply_error(r, 409, "ambiguous", field, d.buf);
	strbuf_release(&d);
	return -1;
}

/* ?KEY=N: 0 when absent (the default), -1 when not a positive number. */
int req_revision_arg(struct fw_req *r, const char *key)
{
	struct strbuf v = STRBUF_INIT;
	char *end = NULL;
	long n = 0;

	int rc = req_query(r, key, &v);

	if (rc == 0) {
		n = strtol(v.buf, &end, 10);
		if (!v.len || *end || n <= 0 || n > 1000000)
			n = -1;
	} else if (rc == -2) {
		n = -1;  /* bad percent-encoding is an error, not "absent" */
	}
	strbuf_release(&v);
	return (int)n;
}

/* ?revision=N: 0 when absent (the newest), -1 when not a positive number. */
int req_revision(struct fw_req *r)
{
	return req_revision_arg(r, "revision");
}

int req_series(struct fw_req *r, const char *name, const char *field, struct fw_series *s,
	       enum MHD_Result *ret)
{
	return req_series_window(r, name, field, 0, s, ret);
}

/* A commit position argument: -1 absent, -2 not a number 0..10000000, else it. */
static int position_arg(struct fw_req *r, const char *key)
{
	struct strbuf v = STRBUF_INIT;
	char *end = NULL;
	long n = -1;
	int rc = req_query(r, key, &v);

	if (rc == 0) {
		n = strtol(v.buf, &end, 10);
		if (!v.len || *end || n < 0 || n > 10000000)
			n = -2;
	} else if (rc == -2) {
		n = -2;
	}
	strbuf_release(&v);
	return (int)n;
}

/* ?from=P&to=Q (positions, inclusive): -1 each when absent; 0, or -1 with the 400 sent. */
static int window_args(struct fw_req *r, int *from, int *to, enum MHD_Result *ret)
{
	*from = position_arg(r, "from");
	*to = position_arg(r, "to");
	if (*from < -1 || *to < -1 || (*from >= 0 && *to >= 0 && *from > *to)) {
		*ret = reply_error(r, 400, "bad_parameter", *from < -1 ? "from" : "to",
				   "from and to are commit positions (0, 1, ...), from <= to");
		return -1;
	}
	return 0;
}

int req_series_window(struct fw_req *r, const char *name, const char *field, int last_n, struct fw_series *s,
		      enum MHD_Result *ret)
{
	return req_series_part(r, name, field, last_n, NULL, s, ret);
}

int req_series_only(struct fw_req *r, const char *name, const char *field, const struct fw_series_only *only,
		    struct fw_series *s, enum MHD_Result *ret)
{
	return req_series_part(r, name, field, 0, only, s, ret);
}

int req_series_samples(struct fw_req *r, struct fw_series *s, const struct fw_series_only *only,
		       enum MHD_Result *ret)
{
	struct strbuf err = STRBUF_INIT;
	int rc = fw_series_load_samples(req_db(r), s, only, &err);

	if (!rc)
		fw_series_levels(s);
	else
		*ret = reply_error(r, 503, "db_error", NULL, err.buf);
	strbuf_release(&err);
	return rc;
}

int req_series_part(struct fw_req *r, const char *name, const char *field, int last_n,
		    const struct fw_series_only *only, struct fw_series *s, enum MHD_Result *ret)
{
	struct strbuf err = STRBUF_INIT;
	sqlite3 *db = req_db(r);
	int rc, rev, from, to, count, first, last;

	rev = req_revision(r);
	if (rev < 0) {
		*ret = reply_error(r, 400, "bad_parameter", "revision", "revision must be a positive number");
		return -1;
	}
	if (window_args(r, &from, &to, ret))
		return -1;
	/* A page of a long history shows its newest last_n positions unless asked otherwise. */
	if (from < 0 && to < 0 && last_n > 0 && !fw_series_span(db, name, rev, &count, &first, &last) &&
	    count > last_n)
		from = last - last_n + 1;
	rc = fw_series_load_only(db, name, rev, from < 0 ? 0 : from, to, only, s, &err);
	if (!rc)
		fw_series_levels(s);
	if (rc == 1 && rev > 0)
		*ret = reply_error(r, 404, "not_found", "revision", "no such revision of this series");
	else if (rc == 1)
		*ret = reply_error(r, 404, "not_found", field, "no such series");
	else if (rc < 0)
		*ret = reply_error(r, 503, "db_error", NULL, err.buf);
	strbuf_release(&err);
	return rc ? -1 : 0;
}

int req_metric(struct fw_req *r, const struct fw_series *s, const char *wvm, const char *env,
	       enum MHD_Result *ret)
{
	int mi = fw_series_find_metric(s, wvm, env, 0);

	if (mi >= 0)
		return mi;
	/* The metric is there, only not in that environment: say which is wrong. */
	if (env && *env && fw_series_find_metric(s, wvm, NULL, 0) >= 0)
		*ret = reply_error(r, 404, "not_found", "env",
				   "no such environment for this metric in this series (env= is a fingerprint or its start)");
	else
		*ret = reply_error(r, 404, "not_found", "metric", "no such metric in this series");
	return -1;
}

struct fw_an *fw_ui_analysis(sqlite3 *db, const char *series, int revision)
{
	return fw_ui_analysis_part(db, series, revision, NULL);
}

/* The detection queue of this process (serve), so a page can ask it to analyse a slow series. */
static struct fw_notify *page_notify;

void fw_ui_set_notify(struct fw_notify *n)
{
	page_notify = n;
}

static void wake_detection(const char *series)
{
	fw_notify_series(page_notify, series);
}

void fw_ui_analysis_opts(struct fw_analysis_opts *o)
{
	fw_analysis_opts_init(o);
	o->use_cache = 1;
	o->page = 1;
	o->wake = wake_detection;
}

struct fw_an *fw_ui_analysis_part(sqlite3 *db, const char *series, int revision, const struct fw_store_cache_part *part)
{
	struct fw_analysis_opts o;
	struct strbuf err = STRBUF_INIT;
	struct fw_an *out = NULL;

	fw_ui_analysis_opts(&o);
	if (db && fw_analysis_series_part(db, series, revision, &o, part, &out, &err)) {
		fprintf(stderr, "foliowatch-server: analysis of a series failed: %s\n", err.buf);
		out = NULL;
	}
	strbuf_release(&err);
	return out;
}

struct fw_regs *fw_ui_regressions(sqlite3 *db, const char *series, int revision)
{
	struct strbuf err = STRBUF_INIT;
	struct fw_regs *regs = NULL;
	/* Stored from the newest analysis first (as the API does), so a page and its plot agree with it. */
	struct fw_analysis_opts o;

	fw_ui_analysis_opts(&o);  /* while a new analysis is computed, the list of the one shown */
	if (db && fw_regressions_refresh(db, series, &o, &err)) {
		fprintf(stderr, "foliowatch-server: regressions refresh: %s\n", err.buf);
		strbuf_reset(&err);
	}
	if (!db || fw_regressions_of(db, series, NULL, &regs, &err))
		fprintf(stderr, "foliowatch-server: regressions: %s\n", err.buf);
	else  /* the list covers every revision of the name */
		fw_regs_keep_revision(regs, revision);
	strbuf_release(&err);
	return regs;
}

struct fw_an *req_analysis(struct fw_req *r, const char *series, int revision)
{
	return fw_ui_analysis(req_db(r), series, revision);
}

struct fw_an *req_analysis_for(struct fw_req *r, const struct fw_series *s, const char *metric_key)
{
	struct fw_store_cache_part part = { -1, -1, metric_key, 0 };

	if (s->window) {
		part.from = s->from;
		part.to = s->to;
	}
	return fw_ui_analysis_part(req_db(r), s->name, s->revision, &part);
}

/* The nearest double to v rounded to `digits` decimals (fixed) or significant digits. */
static double rounded(double v, int digits, int fixed)
{
	char buf[64];

	if (!isfinite(v) || fabs(v) >= 1e15)
		return v;  /* nothing to round, and %.3f of 1e60 would not fit buf */
	if (fixed)
		snprintf(buf, sizeof(buf), "%.*f", digits, v);
	else
		snprintf(buf, sizeof(buf), "%.*g", digits, v);
	v = strtod(buf, NULL);
	return v == 0 ? 0 : v;  /* no "-0" */
}

double fw_round_fixed(double v, int digits)
{
	return rounded(v, digits, 1);
}

void json_pct(cJSON *obj, const char *key, double v)
{
	fw_json_num_or_null(obj, key, rounded(v, 3, 1));
}

void json_prob(cJSON *obj, const char *key, double v)
{
	fw_json_num_or_null(obj, key, rounded(v, 3, 0));
}

void analysis_fill(cJSON *o, const struct fw_an_row *row)
{
	json_prob(o, "p_value", row ? row->p : NAN);
	json_prob(o, "q_value", row ? row->q : NAN);
	json_pct(o, "ci_low_pct", row ? row->ci_lo_pct : NAN);
	json_pct(o, "ci_high_pct", row ? row->ci_hi_pct : NAN);
	if (row)
		cJSON_AddStringToObject(o, "verdict", row->verdict);
	else
		cJSON_AddNullToObject(o, "verdict");
	/* How it was decided (README "Deciding"): at how many boots, or what an unsure row still needs. */
	if (!row)
		return;
	cJSON_AddStringToObject(o, "mode", row->mode);
	cJSON_AddBoolToObject(o, "decided", row->decided);
	if (row->decided)
		fw_json_num_or_null(o, "decided_at_boots", fw_an_whole(row->decided_at_boots));
	if (row->has_boots_needed)
		fw_json_num_or_null(o, "boots_needed", fw_an_whole(row->boots_needed));
	json_pct(o, "mde_pct", row->mde_pct);
	if (row->has_floor) {
		json_pct(o, "floor_pct", row->floor_pct);
		fw_json_num_or_null(o, "floor_boots", fw_an_whole(row->floor_boots));
	}
}
