/*
 * Stored regressions, typed: the one reader of the regressions list's JSON by
 * key (the list is the API's answer; pages, plots and the CLI read these
 * fields). Strings point into the list the result owns.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analysis-json.h"
#include "run-doc.h" /* fw_json_num, fw_json_str */

struct fw_regs_store {
	cJSON *list;
	const cJSON **json;   /* r[i]'s object */
};

static const cJSON *item(const cJSON *o, const char *k)
{
	return cJSON_GetObjectItemCaseSensitive(o, k);
}

void fw_reg_read(const cJSON *o, struct fw_reg *g)
{
	const cJSON *p = item(o, "p_value");

	g->id = (long long)fw_json_num(o, "id", 0);
	g->commit_id = (long long)fw_json_num(o, "commit_id", 0);
	g->bisect_id = (long long)fw_json_num(o, "bisect_id", 0);
	g->series = fw_json_str(o, "series", "");
	g->env = fw_json_str(o, "env_fingerprint", "");
	g->workload = fw_json_str(o, "workload", "");
	g->variant = fw_json_str(o, "variant", "");
	g->metric = fw_json_str(o, "metric", "");
	g->sha = fw_json_str(o, "sha", "");
	g->subject = fw_json_str(o, "subject", "");
	g->status = fw_json_str(o, "status", "");
	g->status_by = fw_json_str(o, "status_by", "");
	g->status_at = fw_json_str(o, "status_at", "");
	g->created_at = fw_json_str(o, "created_at", "");
	g->status_note = fw_json_str(o, "status_note", "");
	g->found_sha = cJSON_GetStringValue(item(o, "found_sha"));
	g->revision = fw_json_int(o, "revision", 0);
	g->position = fw_json_int(o, "position", -1);
	g->first_position = fw_json_int(o, "first_position", 0);
	g->last_position = fw_json_int(o, "last_position", 0);
	g->delta_pct = fw_json_num(o, "delta_pct", NAN);
	g->p_value = cJSON_IsNumber(p) ? p->valuedouble : NAN;
	g->history = NULL;
	g->nhistory = 0;
}

/* The regression's status changes: 0, or -1 out of memory. */
static int history(const cJSON *o, struct fw_reg *g)
{
	const cJSON *h = item(o, "history"), *e;
	size_t i = 0;

	g->nhistory = (size_t)cJSON_GetArraySize(h);
	if (g->nhistory && !(g->history = calloc(g->nhistory, sizeof(*g->history))))
		return -1;
	cJSON_ArrayForEach(e, h) {
		struct fw_reg_change *c = &g->history[i++];

		c->status = fw_json_str(e, "status", "");
		c->by = fw_json_str(e, "by", "");
		c->note = fw_json_str(e, "note", "");
		c->at = fw_json_str(e, "at", "");
	}
	return 0;
}

struct fw_regs *fw_regs_from_json(cJSON *list)
{
	struct fw_regs *regs = calloc(1, sizeof(*regs));
	size_t n = (size_t)cJSON_GetArraySize(list), i = 0;
	const cJSON *o;

	if (!regs || !(regs->store = calloc(1, sizeof(*regs->store)))) {
		free(regs);
		cJSON_Delete(list);
		return NULL;
	}
	regs->store->list = list;
	if (n && (!(regs->r = calloc(n, sizeof(*regs->r))) ||
		  !(regs->store->json = calloc(n, sizeof(*regs->store->json))))) {
		fw_regs_free(regs);
		return NULL;
	}
	cJSON_ArrayForEach(o, list) {
		fw_reg_read(o, &regs->r[i]);
		regs->store->json[i] = o;
		regs->n = ++i;
		if (history(o, &regs->r[i - 1])) {
			fw_regs_free(regs);
			return NULL;
		}
	}
	return regs;
}

const cJSON *fw_regs_json(const struct fw_regs *regs)
{
	return regs ? regs->store->list : NULL;
}

const cJSON *fw_reg_json(const struct fw_regs *regs, const struct fw_reg *g)
{
	return regs->store->json[g - regs->r];
}

size_t fw_regs_keep_revision(struct fw_regs *regs, int revision)
{
	size_t k = 0;

	for (size_t i = 0; i < regs->n; i++) {
		if (regs->r[i].revision != revision) {
			free(regs->r[i].history);
			continue;
		}
		regs->store->json[k] = regs->store->json[i];
		regs->r[k++] = regs->r[i];
	}
	return regs->n = k;
}

void fw_regs_free(struct fw_regs *regs)
{
	if (!regs)
		return;
	for (size_t i = 0; i < regs->n; i++)
		free(regs->r[i].history);
	free(regs->r);
	if (regs->store) {
		cJSON_Delete(regs->store->list);
		free(regs->store->json);
		free(regs->store);
	}
	free(regs);
}
