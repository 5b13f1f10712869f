/*
 * The results array of a run document from a complete capture (see run-doc-build.h):
 * one result per (workload, variant, metric), in order of first sample, with
 * its params, per-round counters and errors. A capture may hold 200,000
 * records, so records are sorted into groups once (O(R log R)) rather than
 * rescanned per sample; tests/unit/test-resultchan.c checks the output against
 * the old scanning code (tests/unit/run-doc-ref.h) on random captures.
 */
#include "run-doc-build.h"
#include "utf8.h"
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Numbers stay numbers in params ("512" -> 512), everything else is text. */
static void add_scalar(cJSON *obj, const char *key, const char *val)
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

static cJSON *error_result(const char *workload, const char *variant, const char *metric,
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

static cJSON *results_for_bad_capture(const struct fw_chan *c, const char *workloads, int *n_errors)
{
	cJSON *arr = cJSON_CreateArray();
	char why[400], msg[512];

	fw_chan_describe(c, why, sizeof(why));
	snprintf(msg, sizeof(msg), "result channel %s; no numbers kept", why);
	for (const char *p = workloads; p && *p;) {
		size_t len = strcspn(p, ",");
		char name[101];
		snprintf(name, sizeof(name), "%.*s", UTF8_FIT(p, len, 100));
		if (*name && !strchr(name, '/')) {
			cJSON_AddItemToArray(arr, error_result(name, "all", "status", "", "lower_is_better",
							       "count", msg));
			(*n_errors)++;
		}
		p += len + (p[len] == ',');
	}
	return arr;
}

/*
 * The grouping keys of one record. Results are made from arrays of these
 * sorted by the keys, never by rescanning the capture for each sample: a
 * capture may hold 200,000 records, and a hostile one must not stall the
 * collector. The record's index is the last key of every sort, so records
 * with equal keys stay in capture order, which decides what comes first.
 */
struct rec_key {
	const char *w, *v;
	const char *m;       /* metric= of a sample */
	long round;          /* of a sample or counters record */
	int wv;              /* its workload/variant group (groups.wv) */
	size_t i;            /* index in c->rec */
};

/* A run of equal keys in a sorted array: [start, end). */
struct run {
	size_t start, end;
};

/* One workload/variant: its records, and what all its results share. */
struct wv_group {
	struct run r;         /* in groups.k, in capture order */
	size_t first_error;   /* index of its first error record (SIZE_MAX: none) */
	int has_sample;
	cJSON *params;        /* made for its first result, copied into the others */
	int errors_done;
	struct strbuf errors; /* its error messages joined (the last 4000 bytes) */
};

struct groups {
	const struct fw_chan *c;
	struct rec_key *k;    /* records naming workload and variant, by (workload, variant) */
	size_t nk;
	struct wv_group *wv;
	size_t nwv;
	int *wv_of;           /* record index -> its group, -1 for none */
	struct rec_key *s;    /* samples by (group, metric) */
	struct run *res;      /* runs of s: one result each, in order of first sample */
	size_t ns, nres;
	struct rec_key *ck;   /* counters by (group, round) */
	struct run *cr;       /* runs of ck: one (group, round) each */
	cJSON **cr_obj;       /* the counters object of each, made when first asked for */
	size_t nck, ncr;
	size_t global[2];     /* the boot-wide info records that can add params */
	int nglobal;
};

static void *alloc_array(size_t n, size_t size)
{
	void *p = calloc(n + 1, size); /* + 1: never calloc(0) */

	if (!p)
		abort();
	return p;
}

static int cmp_index(const struct rec_key *a, const struct rec_key *b)
{
	return a->i < b->i ? -1 : a->i > b->i;
}

static int cmp_wv(const void *pa, const void *pb)
{
	const struct rec_key *a = pa, *b = pb;
	int d = strcmp(a->w, b->w);

	if (!d)
		d = strcmp(a->v, b->v);
	return d ? d : cmp_index(a, b);
}

static int cmp_metric(const struct rec_key *a, const struct rec_key *b)
{
	return a->wv != b->wv ? (a->wv < b->wv ? -1 : 1) : strcmp(a->m, b->m);
}

static int cmp_round(const struct rec_key *a, const struct rec_key *b)
{
	if (a->wv != b->wv)
		return a->wv < b->wv ? -1 : 1;
	return a->round < b->round ? -1 : a->round > b->round;
}

static int cmp_metric_index(const void *pa, const void *pb)
{
	int d = cmp_metric(pa, pb);

	return d ? d : cmp_index(pa, pb);
}

static int cmp_round_index(const void *pa, const void *pb)
{
	int d = cmp_round(pa, pb);

	return d ? d : cmp_index(pa, pb);
}

static int cmp_run_first(const void *pa, const void *pb, void *keys)
{
	const struct rec_key *k = keys;
	const struct run *a = pa, *b = pb;

	return cmp_index(&k[a->start], &k[b->start]);
}

/* Sorts k and splits it into runs of keys that same() calls equal; returns how many. */
static size_t sort_runs(struct rec_key *k, size_t n, int (*cmp)(const void *, const void *),
			int (*same)(const struct rec_key *, const struct rec_key *), struct run **out)
{
	size_t nr = 0;

	if (n > 1)
		qsort(k, n, sizeof(*k), cmp);
	*out = alloc_array(n, sizeof(**out));
	for (size_t j = 0; j < n; j++) {
		if (!j || !same(&k[j - 1], &k[j]))
			(*out)[nr++].start = j;
		(*out)[nr - 1].end = j + 1;
	}
	return nr;
}

static int same_wv(const struct rec_key *a, const struct rec_key *b)
{
	return !strcmp(a->w, b->w) && !strcmp(a->v, b->v);
}

static int same_metric(const struct rec_key *a, const struct rec_key *b)
{
	return !cmp_metric(a, b);
}

static int same_round(const struct rec_key *a, const struct rec_key *b)
{
	return !cmp_round(a, b);
}

static void groups_build(struct groups *g, const struct fw_chan *c)
{
	struct run *runs;
	int have_memcg = 0, have_cpus = 0;

	memset(g, 0, sizeof(*g));
	g->c = c;
	g->k = alloc_array(c->nrec, sizeof(*g->k));
	g->wv_of = alloc_array(c->nrec, sizeof(*g->wv_of));
	for (size_t i = 0; i < c->nrec; i++) {
		const struct fw_chan_rec *r = &c->rec[i];
		const char *w = fw_chan_get(r, "workload"), *v = fw_chan_get(r, "variant");
		g->wv_of[i] = -1;
		if (r->type == FW_REC_BEGIN || r->type == FW_REC_END || !w || !v)
			continue;
		g->k[g->nk++] = (struct rec_key){
			.w = w, .v = v, .m = r->type == FW_REC_SAMPLE ? fw_chan_get(r, "metric") : NULL,
			.round = r->round, .i = i,
		};
	}
	g->nwv = sort_runs(g->k, g->nk, cmp_wv, same_wv, &runs);
	g->wv = alloc_array(g->nwv, sizeof(*g->wv));
	g->s = alloc_array(g->nk, sizeof(*g->s));
	g->ck = alloc_array(g->nk, sizeof(*g->ck));
	for (size_t x = 0; x < g->nwv; x++) {
		struct wv_group *wv = &g->wv[x];
		wv->r = runs[x];
		wv->first_error = SIZE_MAX;
		strbuf_init(&wv->errors, 0);
		for (size_t j = wv->r.start; j < wv->r.end; j++) {
			struct rec_key *k = &g->k[j];
			enum fw_chan_type type = c->rec[k->i].type;
			k->wv = (int)x;
			g->wv_of[k->i] = (int)x;
			wv->has_sample |= type == FW_REC_SAMPLE;
			if (type == FW_REC_SAMPLE)
				g->s[g->ns++] = *k;
			if (type == FW_REC_COUNTERS)
				g->ck[g->nck++] = *k;
			if (type == FW_REC_ERROR && wv->first_error == SIZE_MAX)
				wv->first_error = k->i;
		}
	}
	free(runs);
	/* one result per (workload, variant, metric), in order of first sample */
	g->nres = sort_runs(g->s, g->ns, cmp_metric_index, same_metric, &g->res);
	if (g->nres > 1)
		qsort_r(g->res, g->nres, sizeof(*g->res), cmp_run_first, g->s);
	g->ncr = sort_runs(g->ck, g->nck, cmp_round_index, same_round, &g->cr);
	g->cr_obj = alloc_array(g->ncr, sizeof(*g->cr_obj));
	/*
	 * Boot-wide info records add only memcg= and cpus= to params, and of
	 * each only the first can ever be added (the first value wins, and the
	 * 64-key limit only gets closer): the first record with memcg= and the
	 * first with cpus= stand for all of them.
	 */
	for (size_t i = 0; i < c->nrec && !(have_memcg && have_cpus); i++) {
		const struct fw_chan_rec *r = &c->rec[i];
		int memcg, cpus;
		if (r->type != FW_REC_INFO || fw_chan_get(r, "workload"))
			continue;
		memcg = !have_memcg && fw_chan_get(r, "memcg");
		cpus = !have_cpus && fw_chan_get(r, "cpus");
		if (memcg || cpus)
			g->global[g->nglobal++] = i;
		have_memcg |= memcg;
		have_cpus |= cpus;
	}
}

static void groups_release(struct groups *g)
{
	for (size_t x = 0; x < g->nwv; x++) {
		cJSON_Delete(g->wv[x].params);
		strbuf_release(&g->wv[x].errors);
	}
	for (size_t x = 0; x < g->ncr; x++)
		cJSON_Delete(g->cr_obj[x]);
	free(g->k);
	free(g->wv);
	free(g->wv_of);
	free(g->s);
	free(g->res);
	free(g->ck);
	free(g->cr);
	free(g->cr_obj);
}

static void add_params(cJSON *params, const struct fw_chan_rec *p)
{
	int global = p->type == FW_REC_INFO && !fw_chan_get(p, "workload");

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
		add_scalar(params, key, p->kv[k].val);
	}
}

/* A group's params: its param/info records and the boot-wide info, in capture order. */
static const cJSON *wv_params(struct groups *g, struct wv_group *wv)
{
	size_t j = wv->r.start;
	int x = 0;

	if (wv->params)
		return wv->params;
	wv->params = cJSON_CreateObject();
	while (j < wv->r.end || x < g->nglobal) {
		const struct fw_chan_rec *p;
		if (x < g->nglobal && (j == wv->r.end || g->global[x] < g->k[j].i))
			p = &g->c->rec[g->global[x++]];
		else
			p = &g->c->rec[g->k[j++].i];
		if (p->type == FW_REC_PARAM || p->type == FW_REC_INFO)
			add_params(wv->params, p);
	}
	return wv->params;
}

/*
 * A group's error messages joined by newlines, each once: a message that is
 * already part of the text (once per round says nothing new) is left out.
 * The last 4000 bytes; empty without error records. Made once per group,
 * but each new message still searches the text so far.
 */
static const char *wv_errors(struct groups *g, struct wv_group *wv)
{
	struct strbuf *msg = &wv->errors;

	if (wv->errors_done)
		return msg->buf;
	wv->errors_done = 1;
	for (size_t j = wv->r.start; j < wv->r.end; j++) {
		const struct fw_chan_rec *e = &g->c->rec[g->k[j].i];
		if (e->type == FW_REC_ERROR && !strstr(msg->buf, fw_chan_get(e, "msg")))
			strbuf_addf(msg, "%s%s", msg->len ? "\n" : "", fw_chan_get(e, "msg"));
	}
	strbuf_tail(msg, 4000);
	return msg->buf;
}

/* The keys of one counters object, sorted: a lookup must not walk the object (up to 256 keys). */
struct key_set {
	const char *key[256];
	int n;
};

/* Adds key unless it is there already or the set is full; says whether it did. */
static int key_set_add(struct key_set *ks, const char *key)
{
	int lo = 0, hi = ks->n;

	while (lo < hi) {
		int mid = (lo + hi) / 2, d = strcmp(ks->key[mid], key);
		if (!d)
			return 0;
		if (d < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (ks->n == 256)
		return 0;
	memmove(&ks->key[lo + 1], &ks->key[lo], (size_t)(ks->n - lo) * sizeof(ks->key[0]));
	ks->key[lo] = key;
	ks->n++;
	return 1;
}

/*
 * The counters of a sample's round, or NULL without a counters record: the
 * first value of a key wins, at most 256 keys (the validator's limit).
 */
static const cJSON *round_counters(struct groups *g, const struct rec_key *sample)
{
	size_t lo = 0, hi = g->ncr, x;
	struct key_set ks = { .n = 0 };
	cJSON *cobj;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (cmp_round(&g->ck[g->cr[mid].start], sample) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	x = lo;
	if (x == g->ncr || cmp_round(&g->ck[g->cr[x].start], sample))
		return NULL;
	if (g->cr_obj[x])
		return g->cr_obj[x];
	cobj = g->cr_obj[x] = cJSON_CreateObject();
	for (size_t j = g->cr[x].start; j < g->cr[x].end; j++) {
		const struct fw_chan_rec *q = &g->c->rec[g->ck[j].i];
		for (int y = 0; y < q->nkv; y++)
			if (strcmp(q->kv[y].key, "workload") && strcmp(q->kv[y].key, "variant") &&
			    strcmp(q->kv[y].key, "round") && key_set_add(&ks, q->kv[y].key))
				cJSON_AddNumberToObject(cobj, q->kv[y].key, strtod(q->kv[y].val, NULL));
	}
	return cobj;
}

/* The guest writes rounds in order: a sample whose round repeats or goes back makes c corrupt. */
static int rounds_in_order(const struct groups *g, struct fw_chan *c)
{
	for (size_t x = 0; x < g->nres; x++) {
		long prev_round = -1;
		for (size_t j = g->res[x].start; j < g->res[x].end; j++) {
			const struct fw_chan_rec *t = &c->rec[g->s[j].i];
			if (t->round <= prev_round) {
				c->status = FW_CHAN_CORRUPT;
				c->bad_line = t->line;
				snprintf(c->why, sizeof(c->why), "sample for round %ld repeats or goes back", t->round);
				return 0;
			}
			prev_round = t->round;
		}
	}
	return 1;
}

static cJSON *one_result(struct groups *g, const struct run *res, int *n_errors)
{
	const struct rec_key *first = &g->s[res->start];
	const struct fw_chan_rec *s = &g->c->rec[first->i];
	struct wv_group *wv = &g->wv[first->wv];
	cJSON *r = cJSON_CreateObject(), *samples, *counters;
	const char *msg = wv_errors(g, wv);
	int n = (int)(res->end - res->start), have_counters = 0;
	char rounds[64];

	/* A diagnostic round's sample (diag=1): one per boot by design, after the
	 * timed rounds; its params say so, so it is never compared with a timed one. */
	const char *diag_val = fw_chan_get(s, "diag");
	int diag = diag_val && !strcmp(diag_val, "1");
	cJSON *params = cJSON_Duplicate(wv_params(g, wv), 1);

	if (diag)
		cJSON_AddTrueToObject(params, "diagnostic_round");
	cJSON_AddStringToObject(r, "workload", first->w);
	cJSON_AddStringToObject(r, "variant", first->v);
	cJSON_AddItemToObject(r, "params", params);
	cJSON_AddStringToObject(r, "metric", first->m);
	cJSON_AddStringToObject(r, "unit", fw_chan_get(s, "unit"));
	cJSON_AddStringToObject(r, "direction", fw_chan_get(s, "direction"));
	cJSON_AddStringToObject(r, "kind", fw_chan_get(s, "kind"));
	/* error records or missing rounds: this result's numbers are not whole */
	if (!*msg && diag && n != 1) {
		snprintf(rounds, sizeof(rounds), "%d diagnostic samples, expected 1", n);
		msg = rounds;
	} else if (!*msg && !diag && g->c->rounds > 0 && n != g->c->rounds) {
		snprintf(rounds, sizeof(rounds), "%d of %ld rounds reported", n, g->c->rounds);
		msg = rounds;
	}
	if (*msg) {
		cJSON_AddStringToObject(r, "error", msg);
		(*n_errors)++;
		return r;
	}
	samples = cJSON_AddArrayToObject(r, "samples");
	counters = cJSON_CreateArray();
	for (size_t j = res->start; j < res->end; j++) {
		const cJSON *cobj = round_counters(g, &g->s[j]);
		cJSON_AddItemToArray(samples, cJSON_CreateNumber(g->c->rec[g->s[j].i].value));
		cJSON_AddItemToArray(counters, cobj ? cJSON_Duplicate(cobj, 1) : cJSON_CreateObject());
		have_counters |= cobj != NULL;
	}
	if (have_counters)
		cJSON_AddItemToObject(r, "counters", counters);
	else
		cJSON_Delete(counters);
	return r;
}

cJSON *fw_rundoc_results(struct fw_chan *c, const char *workloads, int *n_errors)
{
	struct groups g;
	cJSON *arr, *r;

	*n_errors = 0;
	if (c->status != FW_CHAN_COMPLETE)
		return results_for_bad_capture(c, workloads, n_errors);
	groups_build(&g, c);
	if (!rounds_in_order(&g, c)) {
		groups_release(&g);
		return results_for_bad_capture(c, workloads, n_errors);
	}
	arr = cJSON_CreateArray();
	for (size_t x = 0; x < g.nres; x++)
		cJSON_AddItemToArray(arr, one_result(&g, &g.res[x], n_errors));
	/* error records of a workload/variant without any sample, in order of its first one */
	for (size_t i = 0; i < c->nrec; i++) {
		struct wv_group *wv = g.wv_of[i] < 0 ? NULL : &g.wv[g.wv_of[i]];
		if (!wv || wv->has_sample || wv->first_error != i)
			continue;
		cJSON_AddItemToArray(arr, error_result(g.k[wv->r.start].w, g.k[wv->r.start].v, "status", "",
						       "lower_is_better", "count", wv_errors(&g, wv)));
		(*n_errors)++;
	}
	groups_release(&g);
	/* a requested workload that reported nothing at all did not run: say so
	 * (a profile-only boot, 0 rounds, has no timed results to report) */
	for (const char *p = c->rounds == 0 ? NULL : workloads; p && *p;) {
		size_t len = strcspn(p, ",");
		char name[101];
		int found = 0;
		snprintf(name, sizeof(name), "%.*s", UTF8_FIT(p, len, 100));
		cJSON_ArrayForEach(r, arr)
			found |= !strcmp(fw_json_str(r, "workload", ""), name);
		if (*name && !found && !strchr(name, '/')) {
			cJSON_AddItemToArray(arr, error_result(name, "all", "status", "", "lower_is_better", "count",
							       "workload reported no results"));
			(*n_errors)++;
		}
		p += len + (p[len] == ',');
	}
	return arr;
}
