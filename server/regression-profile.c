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
#include "analysis-json.h"
#include "html.h"
#include "ui.h"
#include "store-analysis.h"

const struct fw_an_row *fw_regression_row(const struct fw_an *an, const struct fw_reg *g)
{
	for (size_t i = 0; an && i < an->nrows; i++) {
		const struct fw_an_row *r = &an->rows[i];

		if (r->commit_id == g->commit_id && r->against == FW_AGAINST_PARENT && !strcmp(r->env, g->env) &&
		    !strcmp(r->workload, g->workload) && !strcmp(r->variant, g->variant) && !strcmp(r->metric, g->metric))
			return r;
	}
	return NULL;
}

/* The analysis row's decision at the top level (nulls where the row has none). */
static void decision(cJSON *root, const struct fw_an_row *row)
{
	cJSON_AddStringToObject(root, "parent_sha", row->ref_sha);
	cJSON_AddStringToObject(root, "unit", row->unit);
	fw_json_num_or_null(root, "before", row->a.median);
	fw_json_num_or_null(root, "after", row->b.median);
	json_pct(root, "ci_low_pct", row->ci_lo_pct);
	json_pct(root, "ci_high_pct", row->ci_hi_pct);
	json_prob(root, "q_value", row->q);
	cJSON_AddStringToObject(root, "mode", row->mode);
	json_pct(root, "floor_pct", row->floor_pct);
	fw_json_num_or_null(root, "decided_at_boots", row->decided ? fw_an_whole(row->decided_at_boots) : NAN);
}

/* "profile": the row's attribution as the analysis wrote it (the JSON edge), and the whole diff's link. */
static void profile_section(cJSON *root, const struct fw_an *an, const struct fw_an_row *row, const struct fw_reg *reg)
{
	const cJSON *attr = cJSON_GetObjectItemCaseSensitive(fw_an_row_json(an, row), "attribution");
	struct strbuf link = STRBUF_INIT;
	cJSON *p;

	if (!cJSON_IsArray(attr))
		return;
	p = cJSON_AddObjectToObject(root, "profile");
	cJSON_AddStringToObject(p, "base", row->ref_sha);
	cJSON_AddStringToObject(p, "head", row->sha);
	cJSON_AddStringToObject(p, "env_fingerprint", row->env);
	cJSON_AddItemToObject(p, "attribution", cJSON_Duplicate(attr, 1));
	strbuf_addstr(&link, "/api/v1/profile?series=");
	html_url_arg(&link, reg->series);
	strbuf_addf(&link, "&revision=%d&head=", reg->revision);
	html_url_arg(&link, row->sha);
	strbuf_addstr(&link, "&base=");
	html_url_arg(&link, row->ref_sha);
	strbuf_addstr(&link, "&workload=");
	html_url_arg(&link, row->workload);
	strbuf_addstr(&link, "&variant=");
	html_url_arg(&link, row->variant);
	strbuf_addstr(&link, "&env=");
	html_url_arg(&link, row->env);
	cJSON_AddStringToObject(p, "diff", link.buf);
	strbuf_release(&link);
}

void fw_regression_profile(sqlite3 *db, const struct fw_reg *g, cJSON *root)
{
	static const struct fw_store_cache_part decided = { -1, -1, NULL, 1 };  /* a regression's row is decided */
	struct fw_an *an = fw_ui_analysis_part(db, g->series, g->revision, &decided);
	const struct fw_an_row *row = fw_regression_row(an, g);

	if (row) {
		decision(root, row);
		profile_section(root, an, row, g);
	}
	fw_an_free(an);
}
