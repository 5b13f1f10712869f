/*
 * The sequential design (issue 12): between rounds of boots ("looks") the
 * collector asks which rows are still unsure and how many boots would decide
 * them. Error control: a Bonferroni split of alpha over the K planned looks
 * (every look tests at alpha / K; see analysis.h), applied by the analysis
 * itself from the looks the boots record, so this only has to ask the
 * analysis with K and read the answer. Contract in analysis.h.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "analysis-internal.h"

static const char *str_of(const cJSON *o, const char *k)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, k);
	return cJSON_IsString(it) ? it->valuestring : "";
}

/* The entry of commit id in env in `commits`, created with its boots when missing. */
static cJSON *commit_entry(cJSON *commits, const cJSON *row, int ref, double boots)
{
	double id = fw_json_get_num(row, ref ? "ref_commit_id" : "commit_id");
	const char *env = str_of(row, "env_fingerprint");
	cJSON *c;

	cJSON_ArrayForEach(c, commits)
		if (fw_json_get_num(c, "commit_id") == id && !strcmp(str_of(c, "env_fingerprint"), env))
			return c;
	c = cJSON_CreateObject();
	cJSON_AddNumberToObject(c, "commit_id", id);
	cJSON_AddStringToObject(c, "sha", str_of(row, ref ? "ref_sha" : "sha"));
	if (!ref)
		cJSON_AddNumberToObject(c, "position", fw_json_get_num(row, "position"));
	cJSON_AddStringToObject(c, "env_fingerprint", env);
	cJSON_AddStringToObject(c, "host", str_of(row, "host"));
	cJSON_AddStringToObject(c, "accel", str_of(row, "accel"));
	cJSON_AddNumberToObject(c, "boots", boots);
	cJSON_AddNumberToObject(c, "need", 0);
	cJSON_AddItemToArray(commits, c);
	return c;
}

static void raise_need(cJSON *c, double need)
{
	cJSON *n = cJSON_GetObjectItemCaseSensitive(c, "need");

	if (need > n->valuedouble)
		cJSON_SetNumberValue(n, need);
}

int fw_analysis_undecided(sqlite3 *db, const char *series, int revision,
			  const struct fw_analysis_opts *o, const struct fw_seq_opts *s,
			  cJSON **out, struct strbuf *err)
{
	struct fw_analysis_opts oo;
	int looks = s && s->max_looks >= 1 ? s->max_looks : 4;
	int max_boots = s && s->max_boots >= 1 ? s->max_boots : 24;
	cJSON *res = NULL, *ans, *rows, *commits, *c, *next;
	const cJSON *r;
	int look, final;

	*out = NULL;
	if (o)
		oo = *o;
	else
		fw_analysis_opts_init(&oo);
	oo.max_looks = looks;
	if (fw_analysis_series(db, series, revision, &oo, &res, err))
		return -1;
	look = (int)fw_json_get_num(res, "look");
	/* Boots that record no look (a first round before the collector knew) are look 1. */
	if (look < 1 && cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(res, "rows")))
		look = 1;
	final = look >= looks;

	ans = cJSON_CreateObject();
	cJSON_AddStringToObject(ans, "series", series);
	cJSON_AddNumberToObject(ans, "revision", fw_json_get_num(res, "revision"));
	cJSON_AddNumberToObject(ans, "max_looks", looks);
	cJSON_AddNumberToObject(ans, "alpha_per_look", fw_json_get_num(res, "alpha_per_look"));
	cJSON_AddNumberToObject(ans, "max_boots", max_boots);
	cJSON_AddNumberToObject(ans, "look", look);
	cJSON_AddBoolToObject(ans, "final", final);
	rows = cJSON_AddArrayToObject(ans, "rows");
	commits = cJSON_CreateArray();

	cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(res, "rows")) {
		static const char *copy_str[] = { "sha", "ref_sha", "env_fingerprint", "host", "accel", "workload",
			"variant", "params", "metric", "mode" };
		static const char *copy_num[] = { "commit_id", "position", "ref_commit_id", "delta_pct", "mde_pct",
			"min_effect_pct", "boots_needed" };
		double ba = fw_json_get_num(cJSON_GetObjectItemCaseSensitive(r, "a"), "boots");
		double bb = fw_json_get_num(cJSON_GetObjectItemCaseSensitive(r, "b"), "boots");
		double need = fw_json_get_num(r, "boots_needed");
		cJSON *u;

		if (strcmp(str_of(r, "against"), "parent") || strcmp(str_of(r, "verdict"), "unsure"))
			continue;
		u = cJSON_CreateObject();
		for (size_t i = 0; i < sizeof(copy_str) / sizeof(*copy_str); i++)
			cJSON_AddStringToObject(u, copy_str[i], str_of(r, copy_str[i]));
		for (size_t i = 0; i < sizeof(copy_num) / sizeof(*copy_num); i++)
			fw_json_num_or_null(u, copy_num[i], fw_json_get_num(r, copy_num[i]));
		cJSON_AddNumberToObject(u, "boots_a", ba);
		cJSON_AddNumberToObject(u, "boots_b", bb);
		cJSON_AddBoolToObject(u, "reachable", !isnan(need) && need <= max_boots);
		cJSON_AddItemToArray(rows, u);
		/* Out of reach: boots up to the budget still sharpen a large effect. */
		if (isnan(need) || need > max_boots)
			need = max_boots;
		raise_need(commit_entry(commits, r, 0, bb), need);
		raise_need(commit_entry(commits, r, 1, ba), need);
	}

	next = cJSON_AddArrayToObject(ans, "commits");
	while (!final && cJSON_GetArraySize(commits)) {
		double have, target;

		c = cJSON_DetachItemFromArray(commits, 0);
		have = fw_json_get_num(c, "boots");
		target = fw_json_get_num(c, "need");
		/* Before the last look grow at most 2x, so a row decided early stops early. */
		if (look + 1 < looks && target > 2 * have)
			target = 2 * have;
		if (target < have + 1)
			target = have + 1;
		if (target > max_boots)
			target = max_boots;
		cJSON_DeleteItemFromObjectCaseSensitive(c, "need");
		if (target <= have) {
			cJSON_Delete(c);
			continue;
		}
		cJSON_AddNumberToObject(c, "boots_next", target);
		cJSON_AddItemToArray(next, c);
	}
	cJSON_Delete(commits);
	cJSON_Delete(res);
	*out = ans;
	return 0;
}
