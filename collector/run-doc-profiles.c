/*
 * The run document's profiles[] from a complete capture's `profile` records
 * (kernel/result-channel.md): one entry per workload, variant and kernel
 * function, only for a workload/variant with a result without error in the
 * same document (a profile explains numbers; none, nothing to explain; a
 * profile-only boot, 0 rounds, explains its commit's other boots), no
 * duplicates, at most FW_PROFILE_MAX_PER_WV per workload/variant and
 * FW_PROFILE_MAX in all (what the document's validator allows). A workload
 * whose profiling round failed or was cut (an info profile_error=<wl>:why)
 * has no profile at all: records it wrote before may be a part only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "run-doc-build.h"
#include "run-doc.h"

/* 1 if results has a result of workload/variant without an error. */
static int has_clean_result(const cJSON *results, const char *w, const char *v)
{
	const cJSON *r;

	cJSON_ArrayForEach(r, results)
		if (!strcmp(fw_json_str(r, "workload", ""), w) && !strcmp(fw_json_str(r, "variant", ""), v) &&
		    !cJSON_GetObjectItemCaseSensitive(r, "error"))
			return 1;
	return 0;
}

/* Entries of w/v so far, and whether fn is among them. */
static int count_wv(const cJSON *arr, const char *w, const char *v, const char *fn, int *dup)
{
	const cJSON *p;
	int n = 0;

	cJSON_ArrayForEach(p, arr) {
		if (strcmp(fw_json_str(p, "workload", ""), w) || strcmp(fw_json_str(p, "variant", ""), v))
			continue;
		n++;
		*dup |= !strcmp(fw_json_str(p, "function", ""), fn);
	}
	return n;
}

/* 1 if an info record says workload w's profiling round failed. */
static int profile_failed(const struct fw_chan *c, const char *w)
{
	size_t len = strlen(w);

	for (size_t i = 0; i < c->nrec; i++) {
		const char *e = c->rec[i].type == FW_REC_INFO ? fw_chan_get(&c->rec[i], "profile_error") : NULL;

		if (e && !strncmp(e, w, len) && e[len] == ':')
			return 1;
	}
	return 0;
}

void fw_rundoc_profile_notes(const struct fw_chan *c, FILE *out)
{
	for (size_t i = 0; i < c->nrec; i++) {
		const char *e = c->rec[i].type == FW_REC_INFO ? fw_chan_get(&c->rec[i], "profile_error") : NULL;
		const char *s = c->rec[i].type == FW_REC_INFO ? fw_chan_get(&c->rec[i], "profile_seconds") : NULL;

		if (e)
			fprintf(out, "profiling round: no profile of %s\n", e);
		if (s)
			fprintf(out, "profiling round: %s s\n", s);
	}
}

cJSON *fw_rundoc_profiles(const struct fw_chan *c, const cJSON *results)
{
	cJSON *arr;
	int total = 0;

	if (c->status != FW_CHAN_COMPLETE)
		return NULL;
	arr = cJSON_CreateArray();
	for (size_t i = 0; i < c->nrec && total < FW_PROFILE_MAX; i++) {
		const struct fw_chan_rec *r = &c->rec[i];
		const char *w = fw_chan_get(r, "workload"), *v = fw_chan_get(r, "variant"), *fn = fw_chan_get(r, "fn");
		const char *self = fw_chan_get(r, "self_us");
		int dup = 0;
		cJSON *p;

		/* the parser checked every profile record's keys and numbers */
		/* a profile-only boot (0 rounds) has no results by design: its profiles stand alone */
		if (r->type != FW_REC_PROFILE || (c->rounds != 0 && !has_clean_result(results, w, v)) ||
		    profile_failed(c, w) ||
		    count_wv(arr, w, v, fn, &dup) >= FW_PROFILE_MAX_PER_WV || dup)
			continue;
		p = cJSON_CreateObject();
		cJSON_AddStringToObject(p, "workload", w);
		cJSON_AddStringToObject(p, "variant", v);
		cJSON_AddStringToObject(p, "function", fn);
		cJSON_AddNumberToObject(p, "hits", strtod(fw_chan_get(r, "hits"), NULL));
		cJSON_AddNumberToObject(p, "time_us", strtod(fw_chan_get(r, "time_us"), NULL));
		if (self)
			cJSON_AddNumberToObject(p, "self_us", strtod(self, NULL));
		cJSON_AddItemToArray(arr, p);
		total++;
	}
	if (!total) {
		cJSON_Delete(arr);
		return NULL;
	}
	return arr;
}
