/*
 * The optional `profiles[]` of a run document (issue 13): kernel functions
 * from the ftrace function profiler per workload/variant. Names end up in
 * pages, CSV and gnuplot labels, so they get a strict character set here.
 */
#include "run-doc.h"
#include "utf8.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char fn_chars[] =
	"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.";

/* A workload/variant by the rules of results[]: 1..FW_DOC_MAX_NAME bytes, no '/', no control characters. */
static const char *plain_name(const cJSON *v)
{
	size_t len;

	if (!cJSON_IsString(v))
		return v ? "must be a string" : "required string is missing";
	len = strlen(v->valuestring);
	if (len < 1 || len > FW_DOC_MAX_NAME)
		return "length is outside 1..100";
	for (const unsigned char *p = (const unsigned char *)v->valuestring; *p; p++)
		if (*p < 0x20 || *p == 0x7f || *p == '/')
			return "'/' and control characters are not allowed";
	return NULL;
}

static const char *number_problem(const cJSON *v, int required, int integer)
{
	if (!v || cJSON_IsNull(v))
		return required ? "required number is missing" : NULL;
	if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble))
		return "must be a finite number";
	if (integer && v->valuedouble != floor(v->valuedouble))
		return "must be an integer";
	if (v->valuedouble < 0 || v->valuedouble > FW_DOC_MAX_PROFILE_VALUE)
		return "is outside 0..1e12";
	return NULL;
}

/*
 * A profile explains a result of its run; a profile-only boot (issue 27: no
 * results, booted for the profiles of a decided change) explains its
 * commit's other boots, so there any workload the boot ran will do.
 */
static int has_result(const cJSON *doc, const char *w, const char *v)
{
	const cJSON *r, *results = cJSON_GetObjectItemCaseSensitive(doc, "results");

	if (!cJSON_GetArraySize(results)) {
		cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(doc, "workloads"))
			if (cJSON_IsString(r) && !strcmp(r->valuestring, w))
				return 1;
		return 0;
	}
	cJSON_ArrayForEach(r, results)
		if (!strcmp(fw_json_str(r, "workload", ""), w) && !strcmp(fw_json_str(r, "variant", ""), v))
			return 1;
	return 0;
}

/* One entry's fields: 0, or -1 with the error naming profiles[i].key. */
static int check_entry(const cJSON *doc, const cJSON *p, int i, struct fw_error *e)
{
	static const char *const keys[] = { "workload", "variant", "function", "hits", "time_us", "self_us" };
	char path[64];
	const char *why = NULL;
	int k;

	if (!cJSON_IsObject(p)) {
		snprintf(path, sizeof(path), "profiles[%d]", i);
		fw_error_set(e, path, "must be an object");
		return -1;
	}
	for (k = 0; k < 6 && !why; k++) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(p, keys[k]);
		if (k < 2) {
			why = plain_name(v);
		} else if (k == 2) {
			size_t len = cJSON_IsString(v) ? strlen(v->valuestring) : 0;
			if (!cJSON_IsString(v))
				why = v ? "must be a string" : "required string is missing";
			else if (len < 1 || len > FW_DOC_MAX_FUNCTION)
				why = "length is outside 1..128";
			else if (strspn(v->valuestring, fn_chars) != len)
				why = "only letters, digits, '_' and '.' are allowed (a kernel symbol)";
		} else {
			why = number_problem(v, k < 5, k == 3);
		}
	}
	if (why) {
		snprintf(path, sizeof(path), "profiles[%d].%s", i, keys[k - 1]);
		fw_error_set(e, path, "%s", why);
		return -1;
	}
	if (!has_result(doc, fw_json_str(p, "workload", ""), fw_json_str(p, "variant", ""))) {
		snprintf(path, sizeof(path), "profiles[%d].variant", i);
		fw_error_set(e, path, cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(doc, "results"))
					      ? "no result of this run has this workload/variant"
					      : "a profile-only run (no results) profiles only the workloads it ran");
		return -1;
	}
	return 0;
}

struct ent {
	const cJSON *p;
	int i;
};

static int cmp_wv(const struct ent *a, const struct ent *b)
{
	int c = strcmp(fw_json_str(a->p, "workload", ""), fw_json_str(b->p, "workload", ""));

	return c ? c : strcmp(fw_json_str(a->p, "variant", ""), fw_json_str(b->p, "variant", ""));
}

/* By workload, variant, function, then document order (so a duplicate is reported at the later one). */
static int cmp_ent(const void *pa, const void *pb)
{
	const struct ent *a = pa, *b = pb;
	int c = cmp_wv(a, b);

	if (!c)
		c = strcmp(fw_json_str(a->p, "function", ""), fw_json_str(b->p, "function", ""));
	return c ? c : (a->i > b->i) - (a->i < b->i);
}

/* Sorted entries: duplicates and the per-workload/variant bound. */
static int check_groups(struct ent *v, int n, struct fw_error *e)
{
	char path[64];

	qsort(v, (size_t)n, sizeof(*v), cmp_ent);
	for (int s = 0, j; s < n; s = j) {
		for (j = s + 1; j < n && !cmp_wv(&v[s], &v[j]); j++) {
			if (strcmp(fw_json_str(v[j - 1].p, "function", ""), fw_json_str(v[j].p, "function", "")))
				continue;
			snprintf(path, sizeof(path), "profiles[%d]", v[j].i);
			fw_error_set(e, path, "same workload/variant/function as profiles[%d]", v[j - 1].i);
			return -1;
		}
		if (j - s > FW_DOC_MAX_PROFILE_FUNCS) {
			fw_error_set(e, "profiles", "%d entries for %.*s/%.*s, at most %d per workload/variant",
				     j - s, UTF8_CUT(fw_json_str(v[s].p, "workload", ""), 100),
				     UTF8_CUT(fw_json_str(v[s].p, "variant", ""), 100),
				     FW_DOC_MAX_PROFILE_FUNCS);
			return -1;
		}
	}
	return 0;
}

int fw_doc_check_profiles(const cJSON *doc, struct fw_error *e)
{
	const cJSON *prof = cJSON_GetObjectItemCaseSensitive(doc, "profiles"), *p;
	struct ent *v;
	int n, i = 0, ret;

	if (!prof)
		return 0;
	if (!cJSON_IsArray(prof)) {
		fw_error_set(e, "profiles", "must be an array");
		return -1;
	}
	n = cJSON_GetArraySize(prof);
	if (n > FW_DOC_MAX_PROFILES) {
		fw_error_set(e, "profiles", "%d entries, at most %d", n, FW_DOC_MAX_PROFILES);
		return -1;
	}
	cJSON_ArrayForEach(p, prof)
		if (check_entry(doc, p, i++, e))
			return -1;
	v = calloc((size_t)n + 1, sizeof(*v));
	if (!v)
		abort();
	i = 0;
	cJSON_ArrayForEach(p, prof) {
		v[i].p = p;
		v[i].i = i;
		i++;
	}
	ret = check_groups(v, n, e);
	free(v);
	return ret;
}
