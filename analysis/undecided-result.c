/*
 * The sequential design's answer, typed: the one reader of its JSON by key
 * (the JSON is what `undecided` prints); the collector plans its next look
 * from these fields.
 */
#include <stdlib.h>
#include "analysis-json.h"
#include "run-doc.h" /* fw_json_num, fw_json_str */

struct fw_und_store {
	cJSON *tree;
};

/* The commit's workloads: 0, or -1 out of memory. */
static int workloads(const cJSON *e, struct fw_und_commit *c)
{
	const cJSON *arr = cJSON_GetObjectItemCaseSensitive(e, "workloads"), *w;
	size_t i = 0;

	c->nworkloads = (size_t)cJSON_GetArraySize(arr);
	if (c->nworkloads && !(c->workloads = calloc(c->nworkloads, sizeof(*c->workloads))))
		return -1;
	cJSON_ArrayForEach(w, arr) {
		struct fw_und_workload *x = &c->workloads[i++];

		x->workload = fw_json_str(w, "workload", "");
		x->boots = fw_json_int(w, "boots", 0);
		x->boots_next = fw_json_int(w, "boots_next", 0);
	}
	return 0;
}

static int commits(const cJSON *t, struct fw_undecided *u)
{
	const cJSON *arr = cJSON_GetObjectItemCaseSensitive(t, "commits"), *e;
	size_t i = 0;

	u->ncommits = (size_t)cJSON_GetArraySize(arr);
	if (u->ncommits && !(u->commits = calloc(u->ncommits, sizeof(*u->commits))))
		return -1;
	cJSON_ArrayForEach(e, arr) {
		struct fw_und_commit *c = &u->commits[i++];

		c->commit_id = (long long)fw_json_num(e, "commit_id", 0);
		c->sha = fw_json_str(e, "sha", "");
		c->env = fw_json_str(e, "env_fingerprint", "");
		c->host = fw_json_str(e, "host", "");
		c->accel = fw_json_str(e, "accel", "");
		c->position = fw_json_int(e, "position", -1);
		c->boots_next = fw_json_int(e, "boots_next", 0);
		if (workloads(e, c))
			return -1;
	}
	return 0;
}

struct fw_undecided *fw_undecided_from_json(cJSON *t)
{
	struct fw_undecided *u = calloc(1, sizeof(*u));

	if (!u || !(u->store = calloc(1, sizeof(*u->store)))) {
		free(u);
		cJSON_Delete(t);
		return NULL;
	}
	u->store->tree = t;
	u->max_looks = fw_json_int(t, "max_looks", 0);
	u->max_boots = fw_json_int(t, "max_boots", 0);
	u->look = fw_json_int(t, "look", 0);
	u->final = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(t, "final"));
	u->nrows = (size_t)cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(t, "rows"));
	if (commits(t, u)) {
		fw_undecided_free(u);
		return NULL;
	}
	return u;
}

int fw_analysis_undecided_of(sqlite3 *db, const char *series, int revision, const struct fw_analysis_opts *o,
			     const struct fw_seq_opts *s, struct fw_undecided **out, struct strbuf *err)
{
	cJSON *t = NULL;

	*out = NULL;
	if (fw_analysis_undecided(db, series, revision, o, s, &t, err))
		return -1;
	if (!(*out = fw_undecided_from_json(t))) {
		strbuf_addstr(err, "out of memory reading the undecided rows");
		return -1;
	}
	return 0;
}

void fw_undecided_free(struct fw_undecided *u)
{
	if (!u)
		return;
	for (size_t i = 0; i < u->ncommits; i++)
		free(u->commits[i].workloads);
	free(u->commits);
	if (u->store) {
		cJSON_Delete(u->store->tree);
		free(u->store);
	}
	free(u);
}
