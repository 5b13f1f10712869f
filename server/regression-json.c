/*
 * A regression as the API and `regressions --json` give it, written from
 * the typed stored regression (struct fw_reg) with URLs (links.commit, .metric,
 * .plot, .trend, .self) instead of the database's internal ids, and numbers
 * rounded like every answer (json_pct, json_prob).
 */
#include <math.h>
#include <string.h>
#include "routes.h"
#include "analysis-json.h"
#include "html.h"
#include "ui.h"

/* "?revision=N[&env=FP]": a combined regression has no one environment. */
static void link_args(struct strbuf *sb, const struct fw_reg *g, char sep)
{
	strbuf_addf(sb, "%crevision=%d", sep, g->revision);
	if (strcmp(g->env, FW_ENV_COMBINED)) {
		strbuf_addstr(sb, "&env=");
		html_url_arg(sb, g->env);
	}
}

/* SERIES/WORKLOAD/VARIANT/METRIC path segments, each percent-encoded. */
static void metric_path(struct strbuf *sb, const struct fw_reg *g, const char *between)
{
	html_url_arg(sb, g->series);
	strbuf_addstr(sb, between);
	html_url_arg(sb, g->workload);
	strbuf_addch(sb, '/');
	html_url_arg(sb, g->variant);
	strbuf_addch(sb, '/');
	html_url_arg(sb, g->metric);
}

/* "&from=A&to=B": the metric's positions around the regression (ui_reg_window). */
static void window_args(struct strbuf *sb, const struct fw_reg *g)
{
	int from, to;

	if (ui_reg_window(g->position, g->first_position, g->last_position, &from, &to))
		strbuf_addf(sb, "&from=%d&to=%d", from, to);
}

static void add_links(cJSON *o, const struct fw_reg *g)
{
	static const char *const kinds[] = { "self", "commit", "metric", "plot", "trend" };
	cJSON *links = cJSON_AddObjectToObject(o, "links");
	struct strbuf sb = STRBUF_INIT;

	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		strbuf_reset(&sb);
		if (k == 0) {
			strbuf_addf(&sb, "/api/v1/regressions/%lld", g->id);
		} else if (k == 1) {
			strbuf_addstr(&sb, "/series/");
			html_url_arg(&sb, g->series);
			strbuf_addstr(&sb, "/commit/");
			html_url_arg(&sb, g->sha);
			strbuf_addf(&sb, "?revision=%d", g->revision);
		} else if (k == 4) {
			strbuf_addstr(&sb, "/api/v1/trend?series=");
			html_url_arg(&sb, g->series);
			strbuf_addstr(&sb, "&metric=");
			html_url_arg(&sb, g->workload);
			strbuf_addstr(&sb, "%2F");
			html_url_arg(&sb, g->variant);
			strbuf_addstr(&sb, "%2F");
			html_url_arg(&sb, g->metric);
			link_args(&sb, g, '&');
			window_args(&sb, g);
		} else {
			strbuf_addstr(&sb, k == 2 ? "/series/" : "/plot/");
			metric_path(&sb, g, k == 2 ? "/metric/" : "/");
			if (k == 3)
				strbuf_addstr(&sb, "/big.svg");
			link_args(&sb, g, '?');
			window_args(&sb, g);
		}
		cJSON_AddStringToObject(links, kinds[k], sb.buf);
	}
	strbuf_release(&sb);
}

cJSON *fw_regression_json(const struct fw_reg *g)
{
	const char *strs[] = { g->env, g->workload, g->variant, g->metric, g->sha, g->subject };
	static const char *const skeys[] = { "env_fingerprint", "workload", "variant", "metric", "sha", "subject" };
	const char *tail[] = { g->status, g->status_by, g->status_at, g->created_at, g->status_note };
	static const char *const tkeys[] = { "status", "status_by", "status_at", "created_at", "status_note" };
	cJSON *o = cJSON_CreateObject(), *h;

	cJSON_AddNumberToObject(o, "id", (double)g->id);
	cJSON_AddStringToObject(o, "series", g->series);
	cJSON_AddNumberToObject(o, "revision", g->revision);
	for (size_t i = 0; i < sizeof(skeys) / sizeof(skeys[0]); i++)
		cJSON_AddStringToObject(o, skeys[i], strs[i]);
	json_pct(o, "delta_pct", g->delta_pct);
	json_prob(o, "p_value", g->p_value);
	for (size_t i = 0; i < sizeof(tkeys) / sizeof(tkeys[0]); i++)
		cJSON_AddStringToObject(o, tkeys[i], tail[i]);
	/* every status change with who, note and time (regression_history, oldest first) */
	h = cJSON_AddArrayToObject(o, "history");
	for (size_t i = 0; i < g->nhistory; i++) {
		cJSON *e = cJSON_CreateObject();

		cJSON_AddStringToObject(e, "status", g->history[i].status);
		cJSON_AddStringToObject(e, "by", g->history[i].by);
		cJSON_AddStringToObject(e, "note", g->history[i].note);
		cJSON_AddStringToObject(e, "at", g->history[i].at);
		cJSON_AddItemToArray(h, e);
	}
	add_links(o, g);
	if (g->found_sha) {
		/* moved by a bisect to its culprit (sha): where it was found first, and the bisect */
		struct strbuf sb = STRBUF_INIT;
		cJSON_AddStringToObject(o, "found_sha", g->found_sha);
		strbuf_addf(&sb, "/api/v1/bisects/%lld", g->bisect_id);
		cJSON_AddStringToObject(cJSON_GetObjectItemCaseSensitive(o, "links"), "bisect", sb.buf);
		strbuf_release(&sb);
	}
	return o;
}

cJSON *fw_regression_json_of(const cJSON *g)
{
	struct fw_reg reg;

	fw_reg_read(g, &reg);
	return fw_regression_json(&reg);
}
