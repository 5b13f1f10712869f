/*
 * The "profile" section of GET /api/v1/regressions/{id} (issue 13): the
 * kernel functions that moved most between the regressed commit and its
 * parent -- the attribution of its analysis row (analysis/profile-diff.c) --
 * with the link to the whole diff. Absent when either commit has no profile
 * of the workload/variant, or for a regression combined over hosts.
 * Beside it, at the top level, how the regression was decided (issue 29):
 * the parent it was compared with, Before and After with the unit, the
 * interval, the mode, the floor and the boots it was decided at.
 */
#include <math.h>
#include <string.h>
#include "routes.h"
#include "analysis.h"
#include "html.h"
#include "ui.h"
#include "store-analysis.h"

const cJSON *fw_regression_row(const cJSON *an, const cJSON *g)
{
	static const char *const keys[] = { "env_fingerprint", "workload", "variant", "metric" };
	const cJSON *row;

	cJSON_ArrayForEach(row, cJSON_GetObjectItemCaseSensitive(an, "rows")) {
		int same = fw_json_num(row, "commit_id", -1) == fw_json_num(g, "commit_id", -2) &&
			   !strcmp(fw_json_str(row, "against", ""), "parent");
		for (int i = 0; i < 4 && same; i++)
			same = !strcmp(fw_json_str(row, keys[i], ""), fw_json_str(g, keys[i], "?"));
		if (same)
			return row;
	}
	return NULL;
}

/* The analysis row's decision at the top level (nulls where the row has none). */
static void decision(cJSON *root, const cJSON *row)
{
	const cJSON *at = cJSON_GetObjectItemCaseSensitive(row, "decided_at_boots");

	cJSON_AddStringToObject(root, "parent_sha", fw_json_str(row, "ref_sha", ""));
	cJSON_AddStringToObject(root, "unit", fw_json_str(row, "unit", ""));
	fw_json_num_or_null(root, "before", fw_json_num_at(row, "a", "median", NAN));
	fw_json_num_or_null(root, "after", fw_json_num_at(row, "b", "median", NAN));
	json_pct(root, "ci_low_pct", fw_json_num(row, "ci_lo_pct", NAN));
	json_pct(root, "ci_high_pct", fw_json_num(row, "ci_hi_pct", NAN));
	json_prob(root, "q_value", fw_json_num(row, "q", NAN));
	cJSON_AddStringToObject(root, "mode", fw_json_str(row, "mode", ""));
	json_pct(root, "floor_pct", fw_json_num(row, "floor_pct", NAN));
	fw_json_num_or_null(root, "decided_at_boots", cJSON_IsNumber(at) ? at->valuedouble : NAN);
}

void fw_regression_profile(sqlite3 *db, const cJSON *g, cJSON *root)
{
	static const struct fw_store_cache_part decided = { -1, -1, NULL, 1 };  /* a regression's row is decided */
	cJSON *an = fw_ui_analysis_part(db, fw_json_str(g, "series", ""), fw_json_int(g, "revision", 0), &decided);
	const cJSON *row = fw_regression_row(an, g), *attr = cJSON_GetObjectItemCaseSensitive(row, "attribution");
	struct strbuf link = STRBUF_INIT;
	cJSON *p;

	if (row)
		decision(root, row);
	if (!cJSON_IsArray(attr))
		goto cleanup;
	p = cJSON_AddObjectToObject(root, "profile");
	cJSON_AddStringToObject(p, "base", fw_json_str(row, "ref_sha", ""));
	cJSON_AddStringToObject(p, "head", fw_json_str(row, "sha", ""));
	cJSON_AddStringToObject(p, "env_fingerprint", fw_json_str(row, "env_fingerprint", ""));
	cJSON_AddItemToObject(p, "attribution", cJSON_Duplicate(attr, 1));
	strbuf_addstr(&link, "/api/v1/profile?series=");
	html_url_arg(&link, fw_json_str(g, "series", ""));
	strbuf_addf(&link, "&revision=%d&head=", fw_json_int(g, "revision", 1));
	html_url_arg(&link, fw_json_str(row, "sha", ""));
	strbuf_addstr(&link, "&base=");
	html_url_arg(&link, fw_json_str(row, "ref_sha", ""));
	strbuf_addstr(&link, "&workload=");
	html_url_arg(&link, fw_json_str(row, "workload", ""));
	strbuf_addstr(&link, "&variant=");
	html_url_arg(&link, fw_json_str(row, "variant", ""));
	strbuf_addstr(&link, "&env=");
	html_url_arg(&link, fw_json_str(row, "env_fingerprint", ""));
	cJSON_AddStringToObject(p, "diff", link.buf);
cleanup:
	strbuf_release(&link);
	cJSON_Delete(an);
}
