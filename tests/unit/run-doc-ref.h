#ifndef FW_RUN_DOC_REF_H
#define FW_RUN_DOC_REF_H
/*
 * The results conversion as it was before it became O(R log R) (collector/rundoc.c at
 * f28b4f8), kept word for word but renamed: the reference the unit test
 * compares fw_rundoc_results() against, byte for byte. It rescans the whole
 * capture for every sample (quadratic), so only small captures go through it.
 */
#include "run-doc-build.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Numbers stay numbers in params ("512" -> 512), everything else is text. */
static void ref_add_scalar(cJSON *obj, const char *key, const char *val)
{
	char *end;
	double d;

	if (cJSON_GetObjectItemCaseSensitive(obj, key) || cJSON_GetArraySize(obj) >= 64)
		return; /* first one wins; the validator allows 64 keys */
	errno = 0;
	d = strtod(val, &end);
	if (*val && !*end && !errno && isfinite(d) && strspn(val, "0123456789+-.eE") == strlen(val))
		cJSON_AddNumberToObject(obj, key, d);
	else
		cJSON_AddStringToObject(obj, key, val);
}

static int ref_same(const struct fw_chan_rec *r, const char *w, const char *v)
{
	return !strcmp(fw_chan_get(r, "workload"), w) && !strcmp(fw_chan_get(r, "variant"), v);
}

static cJSON *ref_error_result(const char *workload, const char *variant, const char *metric,
			   const char *unit, const char *direction, const char *kind, const char *msg)
{
	cJSON *r = cJSON_CreateObject();

	cJSON_AddStringToObject(r, "workload", workload);
	cJSON_AddStringToObject(r, "variant", variant);
	cJSON_AddStringToObject(r, "metric", metric);
	cJSON_AddStringToObject(r, "unit", unit);
	cJSON_AddStringToObject(r, "direction", direction);
	cJSON_AddStringToObject(r, "kind", kind);
	cJSON_AddStringToObject(r, "error", msg);
	return r;
}

static cJSON *ref_results_for_bad_capture(const struct fw_chan *c, const char *workloads, int *n_errors)
{
	cJSON *arr = cJSON_CreateArray();
	char why[400], msg[512];

	fw_chan_describe(c, why, sizeof(why));
	snprintf(msg, sizeof(msg), "result channel %s; no numbers kept", why);
	for (const char *p = workloads; p && *p;) {
		size_t len = strcspn(p, ",");
		char name[101];
		snprintf(name, sizeof(name), "%.*s", (int)(len > 100 ? 100 : len), p);
		if (*name && !strchr(name, '/')) {
			cJSON_AddItemToArray(arr, ref_error_result(name, "all", "status", "", "lower_is_better",
							       "count", msg));
			(*n_errors)++;
		}
		p += len + (p[len] == ',');
	}
	return arr;
}

static cJSON *ref_rundoc_results(struct fw_chan *c, const char *workloads, int *n_errors)
{
	cJSON *arr = NULL, *r;
	struct strbuf msg = STRBUF_INIT;

	*n_errors = 0;
	if (c->status != FW_CHAN_COMPLETE)
		return ref_results_for_bad_capture(c, workloads, n_errors);
	arr = cJSON_CreateArray();
	/* one result per (workload, variant, metric), in order of first sample */
	for (size_t i = 0; i < c->nrec; i++) {
		const struct fw_chan_rec *s = &c->rec[i];
		const char *w = fw_chan_get(s, "workload"), *v = fw_chan_get(s, "variant");
		const char *m = fw_chan_get(s, "metric");
		cJSON *samples, *counters, *params;
		int seen = 0, have_counters = 0, n = 0;
		long prev_round = -1;

		if (s->type != FW_REC_SAMPLE)
			continue;
		for (size_t j = 0; j < i && !seen; j++)
			seen = c->rec[j].type == FW_REC_SAMPLE && ref_same(&c->rec[j], w, v) &&
			       !strcmp(fw_chan_get(&c->rec[j], "metric"), m);
		if (seen)
			continue;
		r = cJSON_CreateObject();
		cJSON_AddStringToObject(r, "workload", w);
		cJSON_AddStringToObject(r, "variant", v);
		params = cJSON_AddObjectToObject(r, "params");
		for (size_t j = 0; j < c->nrec; j++) {
			const struct fw_chan_rec *p = &c->rec[j];
			int global = p->type == FW_REC_INFO && !fw_chan_get(p, "workload");
			if (!(p->type == FW_REC_PARAM || p->type == FW_REC_INFO))
				continue;
			if (!global && !(fw_chan_get(p, "workload") && fw_chan_get(p, "variant") && ref_same(p, w, v)))
				continue;
			for (int k = 0; k < p->nkv; k++) {
				const char *key = p->kv[k].key;
				if (!strcmp(key, "workload") || !strcmp(key, "variant"))
					continue;
				/*
				 * params decide what is comparable: of the boot-wide facts keep
				 * only the setup (memcg version, vCPUs seen), never what varies
				 * by boot or kernel (workload_seconds, mem_total_kb, ...).
				 */
				if (global && strcmp(key, "memcg") && strcmp(key, "cpus"))
					continue;
				ref_add_scalar(params, key, p->kv[k].val);
			}
		}
		cJSON_AddStringToObject(r, "metric", m);
		cJSON_AddStringToObject(r, "unit", fw_chan_get(s, "unit"));
		cJSON_AddStringToObject(r, "direction", fw_chan_get(s, "direction"));
		cJSON_AddStringToObject(r, "kind", fw_chan_get(s, "kind"));
		samples = cJSON_AddArrayToObject(r, "samples");
		counters = cJSON_CreateArray();
		/* samples in round order; the guest writes rounds in order, so anything else is corrupt */
		for (size_t j = i; j < c->nrec; j++) {
			const struct fw_chan_rec *t = &c->rec[j];
			cJSON *cobj;
			if (t->type != FW_REC_SAMPLE || !ref_same(t, w, v) || strcmp(fw_chan_get(t, "metric"), m))
				continue;
			if (t->round <= prev_round) {
				c->status = FW_CHAN_CORRUPT;
				c->bad_line = t->line;
				snprintf(c->why, sizeof(c->why), "sample for round %ld repeats or goes back", t->round);
				cJSON_Delete(r);
				cJSON_Delete(counters);
				cJSON_Delete(arr);
				*n_errors = 0;
				arr = ref_results_for_bad_capture(c, workloads, n_errors);
				goto cleanup;
			}
			prev_round = t->round;
			cJSON_AddItemToArray(samples, cJSON_CreateNumber(t->value));
			n++;
			cobj = cJSON_CreateObject();
			for (size_t k = 0; k < c->nrec; k++) {
				const struct fw_chan_rec *q = &c->rec[k];
				if (q->type != FW_REC_COUNTERS || !ref_same(q, w, v) || q->round != t->round)
					continue;
				have_counters = 1;
				for (int x = 0; x < q->nkv; x++)
					if (strcmp(q->kv[x].key, "workload") && strcmp(q->kv[x].key, "variant") &&
					    strcmp(q->kv[x].key, "round") && cJSON_GetArraySize(cobj) < 256 &&
					    !cJSON_GetObjectItemCaseSensitive(cobj, q->kv[x].key))
						cJSON_AddNumberToObject(cobj, q->kv[x].key, strtod(q->kv[x].val, NULL));
			}
			cJSON_AddItemToArray(counters, cobj);
		}
		if (have_counters)
			cJSON_AddItemToObject(r, "counters", counters);
		else
			cJSON_Delete(counters);
		/* error records or missing rounds: this result's numbers are not whole */
		strbuf_reset(&msg);
		for (size_t j = 0; j < c->nrec; j++)
			if (c->rec[j].type == FW_REC_ERROR && ref_same(&c->rec[j], w, v) &&
			    !strstr(msg.buf, fw_chan_get(&c->rec[j], "msg"))) /* once per round says nothing new */
				strbuf_addf(&msg, "%s%s", msg.len ? "\n" : "", fw_chan_get(&c->rec[j], "msg"));
		if (!msg.len && c->rounds > 0 && n != c->rounds)
			strbuf_addf(&msg, "%d of %ld rounds reported", n, c->rounds);
		if (msg.len) {
			cJSON_DeleteItemFromObjectCaseSensitive(r, "samples");
			cJSON_DeleteItemFromObjectCaseSensitive(r, "counters");
			strbuf_tail(&msg, 4000);
			cJSON_AddStringToObject(r, "error", msg.buf);
			(*n_errors)++;
		}
		cJSON_AddItemToArray(arr, r);
	}
	/* error records of a workload/variant without any sample */
	for (size_t i = 0; i < c->nrec; i++) {
		const struct fw_chan_rec *e = &c->rec[i];
		const char *w = fw_chan_get(e, "workload"), *v = fw_chan_get(e, "variant");
		int seen = 0;
		if (e->type != FW_REC_ERROR)
			continue;
		for (size_t j = 0; j < c->nrec && !seen; j++)
			seen = (c->rec[j].type == FW_REC_SAMPLE || (j < i && c->rec[j].type == FW_REC_ERROR)) &&
			       ref_same(&c->rec[j], w, v);
		if (seen)
			continue;
		strbuf_reset(&msg);
		for (size_t j = i; j < c->nrec; j++)
			if (c->rec[j].type == FW_REC_ERROR && ref_same(&c->rec[j], w, v) &&
			    !strstr(msg.buf, fw_chan_get(&c->rec[j], "msg")))
				strbuf_addf(&msg, "%s%s", msg.len ? "\n" : "", fw_chan_get(&c->rec[j], "msg"));
		strbuf_tail(&msg, 4000);
		cJSON_AddItemToArray(arr, ref_error_result(w, v, "status", "", "lower_is_better", "count", msg.buf));
		(*n_errors)++;
	}
	/* a requested workload that reported nothing at all did not run: say so
	 * (not in a profile-only boot, 0 rounds: issue 27) */
	for (const char *p = c->rounds == 0 ? NULL : workloads; p && *p;) {
		size_t len = strcspn(p, ",");
		char name[101];
		int found = 0;
		snprintf(name, sizeof(name), "%.*s", (int)(len > 100 ? 100 : len), p);
		cJSON_ArrayForEach(r, arr)
			found |= !strcmp(fw_json_str(r, "workload", ""), name);
		if (*name && !found && !strchr(name, '/')) {
			cJSON_AddItemToArray(arr, ref_error_result(name, "all", "status", "", "lower_is_better", "count",
							       "workload reported no results"));
			(*n_errors)++;
		}
		p += len + (p[len] == ',');
	}
cleanup:
	strbuf_release(&msg);
	return arr;
}

#endif
