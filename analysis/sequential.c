/*
 * The sequential design (issue 12): between rounds of boots ("looks") the
 * collector asks which rows are still unsure and how many boots would decide
 * them. Error control: alpha spent over the K planned looks (rank rows an
 * O'Brien-Fleming-type share at each look, floors floor_alpha / K; see
 * analysis.h), applied by the analysis itself from the looks the boots
 * record, so this only has to ask the
 * analysis with K and read the answer. Contract in analysis.h.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "analysis-internal.h"

/* The entry of (commit, env, workload) of a row's side in `entries`, created with its boots when missing. */
static cJSON *side_entry(cJSON *entries, const struct fw_an_row *row, int ref, double boots)
{
	double id = (double)(ref ? row->ref_commit_id : row->commit_id);
	const char *env = row->env, *wl = row->workload;
	cJSON *c;

	cJSON_ArrayForEach(c, entries)
		if (fw_json_num(c, "commit_id", NAN) == id && !strcmp(fw_json_str(c, "env_fingerprint", ""), env) &&
		    !strcmp(fw_json_str(c, "workload", ""), wl)) {
			/* Metrics of one workload come from the same boots; the fewest is what it has. */
			if (boots < fw_json_num(c, "boots", NAN))
				cJSON_SetNumberValue(cJSON_GetObjectItemCaseSensitive(c, "boots"), boots);
			return c;
		}
	c = cJSON_CreateObject();
	cJSON_AddNumberToObject(c, "commit_id", id);
	cJSON_AddStringToObject(c, "sha", ref ? row->ref_sha : row->sha);
	cJSON_AddStringToObject(c, "env_fingerprint", env);
	cJSON_AddStringToObject(c, "host", row->host);
	cJSON_AddStringToObject(c, "accel", row->accel);
	cJSON_AddStringToObject(c, "workload", wl);
	cJSON_AddNumberToObject(c, "boots", boots);
	cJSON_AddNumberToObject(c, "need", 0);
	cJSON_AddItemToArray(entries, c);
	return c;
}

static void raise_need(cJSON *c, double need)
{
	cJSON *n = cJSON_GetObjectItemCaseSensitive(c, "need");

	if (need > n->valuedouble)
		cJSON_SetNumberValue(n, need);
}

/* The commit (in its environment) of `commits` an entry belongs to, created when missing. */
static cJSON *commit_of(cJSON *commits, const cJSON *e, const struct fw_an *an)
{
	double id = fw_json_num(e, "commit_id", NAN);
	const char *env = fw_json_str(e, "env_fingerprint", "");
	cJSON *c;

	cJSON_ArrayForEach(c, commits)
		if (fw_json_num(c, "commit_id", NAN) == id && !strcmp(fw_json_str(c, "env_fingerprint", ""), env))
			return c;
	c = cJSON_CreateObject();
	cJSON_AddNumberToObject(c, "commit_id", id);
	cJSON_AddStringToObject(c, "sha", fw_json_str(e, "sha", ""));
	for (size_t i = 0; i < an->ncommits; i++)
		if ((double)an->commits[i].id == id)
			cJSON_AddNumberToObject(c, "position", an->commits[i].position);
	cJSON_AddStringToObject(c, "env_fingerprint", env);
	cJSON_AddStringToObject(c, "host", fw_json_str(e, "host", ""));
	cJSON_AddStringToObject(c, "accel", fw_json_str(e, "accel", ""));
	cJSON_AddNumberToObject(c, "boots_next", 0);
	cJSON_AddArrayToObject(c, "workloads");
	cJSON_AddItemToArray(commits, c);
	return c;
}

int fw_metric_is(const char *w, const char *v, const char *m, const char *metric)
{
	size_t lw, lv;

	if (!metric)
		return 1;
	if (!w || !v || !m)
		return 0;
	lw = strlen(w);
	lv = strlen(v);
	return !strncmp(metric, w, lw) && metric[lw] == '/' && !strncmp(metric + lw + 1, v, lv) &&
	       metric[lw + 1 + lv] == '/' && !strcmp(metric + lw + lv + 2, m);
}

int fw_row_is_metric(const struct fw_an_row *r, const char *metric)
{
	return fw_metric_is(r->workload, r->variant, r->metric, metric);
}

/* An unsure row against the parent, as the answer lists it. */
static cJSON *undecided_row(const struct fw_an_row *r, int max_boots)
{
	const char *str[] = { r->sha, r->ref_sha, r->env, r->host, r->accel, r->workload, r->variant,
		r->params, r->metric, r->mode };
	static const char *str_key[] = { "sha", "ref_sha", "env_fingerprint", "host", "accel", "workload",
		"variant", "params", "metric", "mode" };
	double num[] = { (double)r->commit_id, r->position, (double)r->ref_commit_id, r->delta_pct, r->mde_pct,
		r->min_effect_pct, r->boots_needed == FW_AN_NA ? NAN : r->boots_needed };
	static const char *num_key[] = { "commit_id", "position", "ref_commit_id", "delta_pct", "mde_pct",
		"min_effect_pct", "boots_needed" };
	double need = num[6];
	cJSON *u = cJSON_CreateObject();

	for (size_t i = 0; i < sizeof(str) / sizeof(*str); i++)
		cJSON_AddStringToObject(u, str_key[i], str[i]);
	for (size_t i = 0; i < sizeof(num) / sizeof(*num); i++)
		fw_json_num_or_null(u, num_key[i], num[i]);
	cJSON_AddNumberToObject(u, "boots_a", r->a.boots == FW_AN_NA ? NAN : r->a.boots);
	cJSON_AddNumberToObject(u, "boots_b", r->b.boots == FW_AN_NA ? NAN : r->b.boots);
	cJSON_AddBoolToObject(u, "reachable", !isnan(need) && need <= max_boots);
	return u;
}

int fw_analysis_undecided(sqlite3 *db, const char *series, int revision,
			  const struct fw_analysis_opts *o, const struct fw_seq_opts *s,
			  cJSON **out, struct strbuf *err)
{
	struct fw_analysis_opts oo;
	int looks = s && s->max_looks >= 1 ? s->max_looks : 4;
	int max_boots = s && s->max_boots >= 1 ? s->max_boots : 24;
	struct fw_an *res = NULL;
	cJSON *ans, *rows, *entries, *e, *next;
	int look, final;

	*out = NULL;
	if (o)
		oo = *o;
	else
		fw_analysis_opts_init(&oo);
	oo.max_looks = looks;
	if (fw_analysis_series(db, series, revision, &oo, &res, err))
		return -1;
	look = res->look;
	/* Boots that record no look (a first round before the collector knew) are look 1. */
	if (look < 1 && res->nrows)
		look = 1;
	final = look >= looks;

	ans = cJSON_CreateObject();
	cJSON_AddStringToObject(ans, "series", series);
	cJSON_AddNumberToObject(ans, "revision", res->revision);
	cJSON_AddNumberToObject(ans, "max_looks", looks);
	cJSON_AddItemToObject(ans, "alpha_at_looks",
			      cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(fw_an_json(res), "alpha_at_looks"), 1));
	cJSON_AddNumberToObject(ans, "max_boots", max_boots);
	cJSON_AddNumberToObject(ans, "look", look);
	cJSON_AddBoolToObject(ans, "final", final);
	rows = cJSON_AddArrayToObject(ans, "rows");
	entries = cJSON_CreateArray();

	for (size_t i = 0; i < res->nrows; i++) {
		const struct fw_an_row *r = &res->rows[i];
		double ba = r->a.boots == FW_AN_NA ? NAN : r->a.boots, bb = r->b.boots == FW_AN_NA ? NAN : r->b.boots;
		double need = r->boots_needed == FW_AN_NA ? NAN : r->boots_needed;

		if (r->against != FW_AGAINST_PARENT || strcmp(r->verdict, "unsure") ||
		    !fw_row_is_metric(r, s ? s->metric : NULL))
			continue;
		cJSON_AddItemToArray(rows, undecided_row(r, max_boots));
		/* Out of reach: boots up to the budget still sharpen a large effect. */
		if (isnan(need) || need > max_boots)
			need = max_boots;
		raise_need(side_entry(entries, r, 0, bb), need);
		raise_need(side_entry(entries, r, 1, ba), need);
	}

	next = cJSON_AddArrayToObject(ans, "commits");
	cJSON_ArrayForEach(e, entries) {
		double have = fw_json_num(e, "boots", NAN), target = fw_json_num(e, "need", NAN);
		cJSON *c, *w, *bn;

		if (final)
			break;
		/* Before the last look grow at most 2x, so a row decided early stops early. */
		if (look + 1 < looks && target > 2 * have)
			target = 2 * have;
		if (target < have + 1)
			target = have + 1;
		if (target > max_boots)
			target = max_boots;
		if (target <= have)
			continue;
		c = commit_of(next, e, res);
		w = cJSON_CreateObject();
		cJSON_AddStringToObject(w, "workload", fw_json_str(e, "workload", ""));
		cJSON_AddNumberToObject(w, "boots", have);
		cJSON_AddNumberToObject(w, "boots_next", target);
		cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(c, "workloads"), w);
		bn = cJSON_GetObjectItemCaseSensitive(c, "boots_next");
		if (target > bn->valuedouble)
			cJSON_SetNumberValue(bn, target);
	}
	cJSON_Delete(entries);
	fw_an_free(res);
	*out = ans;
	return 0;
}
