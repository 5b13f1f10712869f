/*
 * GET /api/v1/profile?series=&head=&base=&workload=[&variant=&env=&sort=&match=&limit=]:
 * two commits' kernel function profiles side by side, ranked by delta
 * (analysis/profile-diff.c; parameters: server/req-profile.c).
 */
#include "routes.h"
#include "req-profile.h"

/* Each number of one side-by-side group (before, after, delta, delta_pct) to 0.001, as the answers promise. */
static void round_group(cJSON *fn, const char *group)
{
	cJSON *g = cJSON_GetObjectItemCaseSensitive(fn, group), *v;

	cJSON_ArrayForEach(v, g)
		if (cJSON_IsNumber(v))
			cJSON_SetNumberValue(v, fw_round_fixed(v->valuedouble, 3));
}

/* The diff of a parsed request with the commits' shas and subjects, or NULL (err). */
cJSON *fw_profile_answer(struct fw_req *r, struct fw_prof_req *p, struct strbuf *err)
{
	const struct fw_commit *h = &p->s.commits[p->head], *b = &p->s.commits[p->base];
	cJSON *res = NULL, *var, *fn;

	if (fw_profile_diff(req_db(r), &p->q, &res, err))
		return NULL;
	/* the commits are named by sha (head, base): the DB's row ids mean nothing outside it */
	cJSON_DeleteItemFromObjectCaseSensitive(res, "base_commit_id");
	cJSON_DeleteItemFromObjectCaseSensitive(res, "head_commit_id");
	cJSON_ArrayForEach(var, cJSON_GetObjectItemCaseSensitive(res, "variants"))
		cJSON_ArrayForEach(fn, cJSON_GetObjectItemCaseSensitive(var, "functions")) {
			round_group(fn, "delta");
			round_group(fn, "delta_pct");
		}
	cJSON_AddStringToObject(res, "series", p->s.name);
	cJSON_AddNumberToObject(res, "revision", p->s.revision);
	cJSON_AddStringToObject(res, "head", h->sha);
	cJSON_AddStringToObject(res, "head_subject", h->subject);
	cJSON_AddStringToObject(res, "base", b->sha);
	cJSON_AddStringToObject(res, "base_subject", b->subject);
	cJSON_AddNumberToObject(res, "limit", p->q.limit);
	return res;
}

struct fw_prof_diff *fw_profile_typed(struct fw_req *r, struct fw_prof_req *p, struct strbuf *err)
{
	cJSON *res = fw_profile_answer(r, p, err);
	struct fw_prof_diff *d = res ? fw_prof_diff_from_json(res) : NULL;

	if (res && !d)
		strbuf_addstr(err, "out of memory reading the profile diff");
	return d;
}

enum MHD_Result api_profile(struct fw_req *r)
{
	struct strbuf name = STRBUF_INIT, err = STRBUF_INIT;
	struct fw_prof_req p;
	enum MHD_Result ret;
	cJSON *res;

	if (req_query(r, "series", &name) || !name.len) {
		ret = reply_error(r, 400, "missing_parameter", "series", "series=NAME is required");
		goto cleanup;
	}
	if (req_profile(r, name.buf, &p, &ret))
		goto cleanup;
	res = fw_profile_answer(r, &p, &err);
	ret = res ? reply_json(r, 200, res) : reply_error(r, 503, "db_error", NULL, err.buf);
	req_profile_free(&p);
cleanup:
	strbuf_release(&err);
	strbuf_release(&name);
	return ret;
}
