/*
 * A regression as the API and `regressions --json` give it: the analysis
 * code's list entry (fw_regressions_list) with URLs (links.commit, .metric,
 * .plot, .trend, .self) instead of the database's internal ids, and numbers
 * rounded like every answer (json_pct, json_prob).
 */
#include <math.h>
#include <string.h>
#include "routes.h"
#include "analysis.h"
#include "html.h"
#include "run-doc.h"

/* "?revision=N[&env=FP]": a combined regression has no one environment. */
static void link_args(struct strbuf *sb, const cJSON *g, char sep)
{
	strbuf_addf(sb, "%crevision=%d", sep, fw_json_int(g, "revision", 0));
	if (strcmp(fw_json_str(g, "env_fingerprint", ""), FW_ENV_COMBINED)) {
		strbuf_addstr(sb, "&env=");
		html_url_arg(sb, fw_json_str(g, "env_fingerprint", ""));
	}
}

static void add_links(cJSON *o, const cJSON *g)
{
	static const char *const kinds[] = { "self", "commit", "metric", "plot", "trend" };
	cJSON *links = cJSON_AddObjectToObject(o, "links");
	struct strbuf sb = STRBUF_INIT;

	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		strbuf_reset(&sb);
		if (k == 0) {
			strbuf_addf(&sb, "/api/v1/regressions/%lld", (long long)fw_json_num(g, "id", 0));
		} else if (k == 1) {
			strbuf_addstr(&sb, "/series/");
			html_url_arg(&sb, fw_json_str(g, "series", ""));
			strbuf_addstr(&sb, "/commit/");
			html_url_arg(&sb, fw_json_str(g, "sha", ""));
			strbuf_addf(&sb, "?revision=%d", fw_json_int(g, "revision", 0));
		} else if (k == 4) {
			strbuf_addstr(&sb, "/api/v1/trend?series=");
			html_url_arg(&sb, fw_json_str(g, "series", ""));
			strbuf_addstr(&sb, "&metric=");
			html_url_arg(&sb, fw_json_str(g, "workload", ""));
			strbuf_addstr(&sb, "%2F");
			html_url_arg(&sb, fw_json_str(g, "variant", ""));
			strbuf_addstr(&sb, "%2F");
			html_url_arg(&sb, fw_json_str(g, "metric", ""));
			link_args(&sb, g, '&');
		} else {
			strbuf_addstr(&sb, k == 2 ? "/series/" : "/plot/");
			html_url_arg(&sb, fw_json_str(g, "series", ""));
			strbuf_addstr(&sb, k == 2 ? "/metric/" : "/");
			html_url_arg(&sb, fw_json_str(g, "workload", ""));
			strbuf_addch(&sb, '/');
			html_url_arg(&sb, fw_json_str(g, "variant", ""));
			strbuf_addch(&sb, '/');
			html_url_arg(&sb, fw_json_str(g, "metric", ""));
			if (k == 3)
				strbuf_addstr(&sb, "/big.svg");
			link_args(&sb, g, '?');
		}
		cJSON_AddStringToObject(links, kinds[k], sb.buf);
	}
	strbuf_release(&sb);
}

cJSON *fw_regression_json(const cJSON *g)
{
	static const char *const strs[] = { "series", "env_fingerprint", "workload", "variant", "metric",
		"sha", "subject" };
	static const char *const tail[] = { "status", "status_by", "status_at", "created_at" };
	cJSON *o = cJSON_CreateObject();

	cJSON_AddNumberToObject(o, "id", fw_json_num(g, "id", 0));
	cJSON_AddStringToObject(o, "series", fw_json_str(g, "series", ""));
	cJSON_AddNumberToObject(o, "revision", fw_json_num(g, "revision", 0));
	for (size_t i = 1; i < sizeof(strs) / sizeof(strs[0]); i++)
		cJSON_AddStringToObject(o, strs[i], fw_json_str(g, strs[i], ""));
	json_pct(o, "delta_pct", fw_json_num(g, "delta_pct", NAN));
	json_prob(o, "p_value", fw_json_num(g, "p_value", NAN));
	for (size_t i = 0; i < sizeof(tail) / sizeof(tail[0]); i++)
		cJSON_AddStringToObject(o, tail[i], fw_json_str(g, tail[i], ""));
	cJSON_AddStringToObject(o, "status_note", fw_json_str(g, "status_note", ""));
	/* every status change with who, note and time (regression_history, oldest first) */
	const cJSON *h = cJSON_GetObjectItemCaseSensitive(g, "history");
	cJSON_AddItemToObject(o, "history", h ? cJSON_Duplicate(h, 1) : cJSON_CreateArray());
	add_links(o, g);
	if (cJSON_IsString(cJSON_GetObjectItemCaseSensitive(g, "found_sha"))) {
		/* moved by a bisect to its culprit (sha): where it was found first, and the bisect */
		struct strbuf sb = STRBUF_INIT;
		cJSON_AddStringToObject(o, "found_sha", fw_json_str(g, "found_sha", ""));
		strbuf_addf(&sb, "/api/v1/bisects/%lld", (long long)fw_json_num(g, "bisect_id", 0));
		cJSON_AddStringToObject(cJSON_GetObjectItemCaseSensitive(o, "links"), "bisect", sb.buf);
		strbuf_release(&sb);
	}
	return o;
}

