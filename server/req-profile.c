/*
 * The parameters of a profile diff (issue 13), shared by GET /api/v1/profile
 * and the page /series/{name}/profile: head, base (default: head's parent),
 * workload, variant, env, sort, match, limit. Every bad one is a 400 naming it.
 */
#include <stdlib.h>
#include <string.h>
#include "routes.h"
#include "req-profile.h"

#define PROFILE_LIMIT_MAX 1000

static int bad(struct fw_req *r, enum MHD_Result *ret, unsigned status, const char *code,
	       const char *field, const char *msg)
{
	*ret = reply_error(r, status, code, field, msg);
	return -1;
}

/* ?key= as text by the document's rules (1..max bytes); 1 absent, 0 given, -1 replied. */
static int text_arg(struct fw_req *r, const char *key, size_t max, struct strbuf *out, enum MHD_Result *ret)
{
	int rc = req_query(r, key, out);

	if (rc == -1)
		return 1;
	if (rc == -2 || fw_text_problem(out->buf, 1, max, 0))
		return bad(r, ret, 400, "bad_parameter", key, rc == -2 ? "bad percent-encoding" :
			   fw_text_problem(out->buf, 1, max, 0));
	return 0;
}

/* The head's parent in the series (by sha, else the commit before it), or -1. */
static int parent_of(const struct fw_series *s, int hi)
{
	const char *p = s->commits[hi].parent;
	int i = p && *p ? fw_series_find_commit(s, p) : -1;

	return i >= 0 ? i : hi - 1;
}

static int commit_arg(struct fw_req *r, const struct fw_series *s, const char *key, struct strbuf *v,
		      enum MHD_Result *ret)
{
	return req_commit(r, s, key, v->buf, ret);
}

static int env_arg(struct fw_req *r, const struct fw_series *s, struct fw_prof_req *p, enum MHD_Result *ret)
{
	int rc = text_arg(r, "env", 64, &p->env, ret);

	if (rc)
		return rc < 0 ? -1 : 0;
	for (int i = 0; i < s->nmetrics; i++)
		if (!strncmp(s->metrics[i].env, p->env.buf, p->env.len)) {
			strbuf_reset(&p->env);
			strbuf_addstr(&p->env, s->metrics[i].env);
			p->q.env_fingerprint = p->env.buf;
			return 0;
		}
	return bad(r, ret, 404, "not_found", "env", "no environment of this series starts with this");
}

static int names_args(struct fw_req *r, const struct fw_series *s, struct fw_prof_req *p, enum MHD_Result *ret)
{
	int rc = text_arg(r, "workload", FW_DOC_MAX_NAME, &p->workload, ret), known = 0;

	if (rc > 0)
		return bad(r, ret, 400, "missing_parameter", "workload", "workload=NAME is required");
	if (rc < 0)
		return -1;
	for (int i = 0; i < s->nmetrics && !known; i++)
		known = !strcmp(s->metrics[i].workload, p->workload.buf);
	if (!known)
		return bad(r, ret, 404, "not_found", "workload", "no such workload in this series");
	p->q.workload = p->workload.buf;
	if ((rc = text_arg(r, "variant", FW_DOC_MAX_NAME, &p->variant, ret)) < 0)
		return -1;
	p->q.variant = rc ? NULL : p->variant.buf;
	if ((rc = text_arg(r, "match", FW_DOC_MAX_FUNCTION, &p->match, ret)) < 0)
		return -1;
	p->q.match = rc ? NULL : p->match.buf;
	return 0;
}

static int order_args(struct fw_req *r, struct fw_prof_req *p, enum MHD_Result *ret)
{
	struct strbuf v = STRBUF_INIT;
	int rc = text_arg(r, "sort", 16, &v, ret), out = 0;

	if (rc < 0 || (!rc && fw_profile_sort_parse(v.buf, &p->q.sort))) {
		out = rc < 0 ? -1 : bad(r, ret, 400, "bad_parameter", "sort", "sort must be self, total or hits");
		goto cleanup;
	}
	p->q.limit = FW_PROFILE_LIMIT_DEFAULT;
	rc = text_arg(r, "limit", 16, &v, ret);
	if (rc < 0) {
		out = -1;
	} else if (!rc) {
		char *end = NULL;
		long n = strtol(v.buf, &end, 10);
		if (*end || n < 1 || n > PROFILE_LIMIT_MAX)
			out = bad(r, ret, 400, "bad_parameter", "limit", "limit must be a number 1..1000");
		p->q.limit = (int)n;
	}
cleanup:
	strbuf_release(&v);
	return out;
}

int req_profile(struct fw_req *r, const char *series, struct fw_prof_req *p, enum MHD_Result *ret)
{
	struct strbuf v = STRBUF_INIT;
	int rc, out = -1;

	memset(p, 0, sizeof(*p));
	strbuf_init(&p->workload, 0);
	strbuf_init(&p->variant, 0);
	strbuf_init(&p->match, 0);
	strbuf_init(&p->env, 0);
	if (req_series(r, series, "series", &p->s, ret))
		goto cleanup;
	p->loaded = 1;
	if ((rc = text_arg(r, "head", 100, &v, ret)) > 0)
		bad(r, ret, 400, "missing_parameter", "head", "head=SHA (or a unique prefix) is required");
	if (rc || (p->head = commit_arg(r, &p->s, "head", &v, ret)) < 0)
		goto cleanup;
	if ((rc = text_arg(r, "base", 100, &v, ret)) < 0)
		goto cleanup;
	p->base = rc ? parent_of(&p->s, p->head) : commit_arg(r, &p->s, "base", &v, ret);
	if (p->base < 0) {
		if (rc)
			bad(r, ret, 400, "missing_parameter", "base", "head has no parent in this series: give base=SHA");
		goto cleanup;
	}
	if (p->base == p->head) {
		bad(r, ret, 400, "bad_parameter", "base", "base and head are the same commit");
		goto cleanup;
	}
	if (names_args(r, &p->s, p, ret) || env_arg(r, &p->s, p, ret) || order_args(r, p, ret))
		goto cleanup;
	p->q.base_commit = p->s.commits[p->base].id;
	p->q.head_commit = p->s.commits[p->head].id;
	out = 0;
cleanup:
	strbuf_release(&v);
	if (out)
		req_profile_free(p);
	return out;
}

void req_profile_free(struct fw_prof_req *p)
{
	if (p->loaded)
		fw_series_free(&p->s);
	p->loaded = 0;
	strbuf_release(&p->workload);
	strbuf_release(&p->variant);
	strbuf_release(&p->match);
	strbuf_release(&p->env);
}
