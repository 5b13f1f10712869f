/*
 * The analysis over the DB: loads a series (or two commits), groups like with
 * like (workload, variant, params, metric, environment fingerprint), compares
 * each commit with its parent and with the base, adjusts p-values across the
 * series (Benjamini-Hochberg), finds change points along the history, and
 * caches the result keyed by a hash of the runs it came from.
 * What it reads comes from the store (schema/store-analysis.c), loaded by
 * analysis-data.c; statistics come from stats.h/analysis-row.c; the cache's
 * rows from analysis-cache.c; a history a part at a time from analysis-history.c.
 */
#include <math.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "analysis-data.h"
#include "analysis-internal.h"
#include "fw-db.h"
#include "store-analysis.h"
#include "history-window.h"
#include "inflight.h"
#include "sha256.h"
#include "stats.h"
#include "xalloc.h"

/* The slices of one (key, env) group: per commit present, its [start, end) in the obs arrays. */
struct slice {
	size_t commit, start, end;
};

struct ctx {
	sqlite3 *db;
	const struct fw_analysis_opts *o;
	struct data *d;
	const struct fw_det_table *det;
	struct fw_store_evidence ev;    /* same-kernel evidence, and the newest-kernels cutoff */
	int failed;                     /* an SQL error in a group: message in err */
	struct strbuf *err;
	cJSON *rows, *cps, *determinism;
	double *p;       /* rank p per row, parallel to rows */
	int *pos;        /* the row's commit position, parallel to p (a history's BH windows) */
	size_t np, ap;
	long *where;     /* commit index -> slice index in the current group, -1 */
	cJSON *combined;
	double *cp_p;    /* p per combined row */
	int *cp_pos;     /* its position */
	size_t ncp, acp;
};

static cJSON *row_head(const struct ctx *x, size_t key, size_t env, size_t cb, size_t ca,
		       const char *against)
{
	const struct data *d = x->d;
	const struct key_info *k = &d->k[key];
	const struct commit_info *b = &d->c[cb], *a = &d->c[ca];
	cJSON *row = cJSON_CreateObject();

	cJSON_AddNumberToObject(row, "commit_id", (double)b->id);
	cJSON_AddStringToObject(row, "sha", b->sha);
	cJSON_AddStringToObject(row, "subject", b->subject);
	cJSON_AddNumberToObject(row, "position", b->position);
	cJSON_AddStringToObject(row, "against", against);
	cJSON_AddNumberToObject(row, "ref_commit_id", (double)a->id);
	cJSON_AddStringToObject(row, "ref_sha", a->sha);
	cJSON_AddStringToObject(row, "env_fingerprint", d->e[env].fp);
	cJSON_AddStringToObject(row, "host", d->e[env].host);
	cJSON_AddStringToObject(row, "accel", d->e[env].accel);
	cJSON_AddStringToObject(row, "workload", k->workload);
	cJSON_AddStringToObject(row, "variant", k->variant);
	cJSON_AddStringToObject(row, "params", k->params);
	cJSON_AddStringToObject(row, "metric", k->metric);
	cJSON_AddStringToObject(row, "unit", k->unit);
	cJSON_AddStringToObject(row, "direction", k->direction);
	cJSON_AddStringToObject(row, "kind", k->kind);
	return row;
}

/* Planned looks of the boots of a slice (the most any boot planned), and the newest boot's look. */
static int slice_looks(const struct data *d, const struct slice *s, int *look)
{
	int k = 1;

	for (size_t i = s->start; i < s->end; i++) {
		if (d->ob_looks[i] > k)
			k = d->ob_looks[i];
		if (d->ob_look[i] > *look)
			*look = d->ob_look[i];
	}
	return k;
}

static void add_row(struct ctx *x, size_t key, size_t env, const struct slice *sb,
		    const struct slice *sa, const char *against, const struct fw_row_meta *gm)
{
	const struct data *d = x->d;
	struct fw_side a = { d->ob_v + sa->start, d->ob_run + sa->start, sa->end - sa->start };
	struct fw_side b = { d->ob_v + sb->start, d->ob_run + sb->start, sb->end - sb->start };
	struct fw_row_meta m = *gm;
	int pos = d->c[sb->commit].position, look = 1, la, lb;
	cJSON *row;
	double p;

	/* a part of a history: rows where it decides, and the p of those in their BH windows (no more) */
	if (d->partial && (pos > d->keep_to || pos < d->keep_from - (FW_HISTORY_BH_WINDOW - 1)))
		return;
	row = row_head(x, key, env, sb->commit, sa->commit, against);
	la = slice_looks(d, sa, &look);
	lb = slice_looks(d, sb, &look);
	m.looks = la > lb ? la : lb;
	m.look = look;
	if (x->o->max_looks > m.looks)
		m.looks = x->o->max_looks;
	if (fw_row_compute(row, &a, &b, &m, x->o, &p)) {
		cJSON_Delete(row);
		return;
	}
	if (fw_data_keeps(d, pos))
		cJSON_AddItemToArray(x->rows, row);
	else
		cJSON_Delete(row);  /* only its p: a part's rows stay a part's in memory */
	if (x->np >= x->ap) { /* parallel arrays: one capacity */
		x->ap = fw_alloc_nr(x->np + 1, x->ap);
		x->p = xreallocarray(x->p, x->ap, sizeof(*x->p));
		x->pos = xreallocarray(x->pos, x->ap, sizeof(*x->pos));
	}
	x->pos[x->np] = pos;
	x->p[x->np++] = p;
}

/* Change points along the commits' medians of one (key, env) group. */
static void add_change_points(struct ctx *x, size_t key, size_t env, const struct slice *s, size_t ns)
{
	const struct data *d = x->d;
	double *med = xmalloc((ns + 1) * sizeof(*med)), *tmp = xmalloc((d->no + 1) * sizeof(*tmp));
	size_t *cp = xmalloc((ns + 1) * sizeof(*cp)), ncp, prev = 0;

	for (size_t i = 0; i < ns; i++) {
		size_t n = fw_group_medians(d->ob_v + s[i].start, d->ob_run + s[i].start,
					    s[i].end - s[i].start, tmp);
		med[i] = fw_median(tmp, n);
	}
	ncp = fw_change_points(med, ns, NULL, cp);
	for (size_t i = 0; i < ncp; i++) {
		size_t next = i + 1 < ncp ? cp[i + 1] : ns;
		double before = fw_median(med + prev, cp[i] - prev), after = fw_median(med + cp[i], next - cp[i]);
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "workload", d->k[key].workload);
		cJSON_AddStringToObject(o, "variant", d->k[key].variant);
		cJSON_AddStringToObject(o, "metric", d->k[key].metric);
		cJSON_AddStringToObject(o, "env_fingerprint", d->e[env].fp);
		cJSON_AddNumberToObject(o, "position", d->c[s[cp[i]].commit].position);
		cJSON_AddStringToObject(o, "sha", d->c[s[cp[i]].commit].sha);
		fw_json_num_or_null(o, "before", before);
		fw_json_num_or_null(o, "after", after);
		fw_json_num_or_null(o, "delta_pct", fabs(before) > 0 ? 100 * (after - before) / fabs(before) : NAN);
		cJSON_AddItemToArray(x->cps, o);
		prev = cp[i];
	}
	free(med);
	free(tmp);
	free(cp);
}

/* Units of one slice as the rows use them: per-boot medians with >= 3 boots on both sides. */
static double *slice_units(const struct data *d, const struct slice *s, int per_boot, size_t *n)
{
	double *u = xmalloc((s->end - s->start + 1) * sizeof(*u));

	if (per_boot) {
		*n = fw_group_medians(d->ob_v + s->start, d->ob_run + s->start, s->end - s->start, u);
	} else {
		memcpy(u, d->ob_v + s->start, (s->end - s->start) * sizeof(*u));
		*n = s->end - s->start;
	}
	return u;
}

static size_t boots_in(const struct data *d, const struct slice *s)
{
	size_t n = 0;

	for (size_t i = s->start; i < s->end; i++)
		n += i == s->start || d->ob_run[i] != d->ob_run[i - 1];
	return n;
}

/*
 * Sharded CI: a commit measured on several hosts, each against its parent on
 * the same host, combined with van Elteren's stratified test. Never pools a
 * base from one host with a patch from another. Key range [ks, ke) holds the
 * key's env groups one after the other.
 */
static void add_combined(struct ctx *x, size_t ks, size_t ke)
{
	struct data *d = x->d;
	size_t nenv = 0, *gs = xmalloc((d->ne + 1) * sizeof(*gs)), *ge = xmalloc((d->ne + 1) * sizeof(*ge));
	struct slice **sl = xcalloc(d->ne + 1, sizeof(*sl));
	size_t *ns = xcalloc(d->ne + 1, sizeof(*ns));

	for (size_t i = ks; i < ke;) {
		size_t j = i;
		while (j < ke && d->ob_env[j] == d->ob_env[i])
			j++;
		gs[nenv] = i;
		ge[nenv] = j;
		sl[nenv] = xmalloc((d->nc + 1) * sizeof(**sl));
		for (size_t k = i; k < j; k++) {
			if (!ns[nenv] || sl[nenv][ns[nenv] - 1].commit != d->ob_commit[k]) {
				sl[nenv][ns[nenv]].commit = d->ob_commit[k];
				sl[nenv][ns[nenv]++].start = k;
			}
			sl[nenv][ns[nenv] - 1].end = k + 1;
		}
		nenv++;
		i = j;
	}
	for (size_t ci = 0; nenv >= 2 && ci < d->nc; ci++) {
		struct fw_stratum st[16];
		double *units[32], wsum = 0, dsum = 0, z, p;
		size_t nst = 0, nu = 0;
		long par = d->c[ci].parent;
		const struct key_info *k = &d->k[d->ob_key[ks]];

		if ((long)ci == d->base || par < 0 ||
		    (d->watched && d->c[par].position < d->c[ci].position - FW_HISTORY_LOOKBACK))
			continue;
		for (size_t e = 0; e < nenv && nst < 16; e++) {
			const struct slice *a = NULL, *b = NULL;
			size_t na, nb;
			for (size_t i = 0; i < ns[e]; i++) {
				if (sl[e][i].commit == ci)
					b = &sl[e][i];
				if ((long)sl[e][i].commit == par)
					a = &sl[e][i];
			}
			if (!a || !b)
				continue;
			int per_boot = boots_in(d, a) >= 3 && boots_in(d, b) >= 3;
			double *ua = slice_units(d, a, per_boot, &na), *ub = slice_units(d, b, per_boot, &nb);
			double ma = fw_median(ua, na), w = (double)na * (double)nb / (double)(na + nb + 1);
			units[nu++] = ua;
			units[nu++] = ub;
			st[nst++] = (struct fw_stratum){ ua, ub, na, nb };
			if (fabs(ma) > 0) {
				dsum += w * 100 * (fw_median(ub, nb) - ma) / fabs(ma);
				wsum += w;
			}
		}
		if (nst >= 2 && !fw_van_elteren(st, nst, &z, &p)) {
			cJSON *o = cJSON_CreateObject();
			cJSON_AddNumberToObject(o, "commit_id", (double)d->c[ci].id);
			cJSON_AddStringToObject(o, "sha", d->c[ci].sha);
			cJSON_AddNumberToObject(o, "position", d->c[ci].position);
			cJSON_AddStringToObject(o, "against", "parent");
			cJSON_AddStringToObject(o, "workload", k->workload);
			cJSON_AddStringToObject(o, "variant", k->variant);
			cJSON_AddStringToObject(o, "params", k->params);
			cJSON_AddStringToObject(o, "metric", k->metric);
			cJSON_AddStringToObject(o, "direction", k->direction);
			cJSON_AddBoolToObject(o, "higher_is_better", !strcmp(k->direction, "higher_is_better"));
			cJSON_AddNumberToObject(o, "hosts", (double)nst);
			cJSON_AddStringToObject(o, "test", "van Elteren (stratified by environment)");
			/* Weighted like the test: na*nb/(N+1) per host. */
			fw_json_num_or_null(o, "delta_pct", wsum > 0 ? dsum / wsum : NAN);
			fw_json_num_or_null(o, "z", z);
			fw_json_num_or_null(o, "p", p);
			cJSON_AddNumberToObject(o, "min_effect_pct",
						isnan(k->min_effect) ? x->o->min_effect_pct : k->min_effect);
			cJSON_AddItemToArray(x->combined, o);
			if (x->ncp >= x->acp) {
				x->acp = fw_alloc_nr(x->ncp + 1, x->acp);
				x->cp_p = xreallocarray(x->cp_p, x->acp, sizeof(*x->cp_p));
				x->cp_pos = xreallocarray(x->cp_pos, x->acp, sizeof(*x->cp_pos));
			}
			x->cp_pos[x->ncp] = d->c[ci].position;
			x->cp_p[x->ncp++] = p;
		}
		for (size_t i = 0; i < nu; i++)
			free(units[i]);
	}
	for (size_t e = 0; e < nenv; e++)
		free(sl[e]);
	free(sl);
	free(ns);
	free(gs);
	free(ge);
}

/* BH q of a family: the whole series, or a history's window of commits up to each row's. */
static void family_q(const struct ctx *x, const double *p, const int *pos, size_t n, double *q)
{
	if (x->d->watched)
		fw_bh_window(pos, p, n, FW_HISTORY_BH_WINDOW, q);
	else
		fw_bh_adjust(p, q, n);
}

/* Combined rows are their own BH family; their verdicts need significance and min effect. */
static void finish_combined(struct ctx *x, double alpha)
{
	double *q = xmalloc((x->ncp + 1) * sizeof(*q));
	cJSON *o;
	size_t i = 0;

	family_q(x, x->cp_p, x->cp_pos, x->ncp, q);
	for (cJSON *next = (o = x->combined->child) ? o->next : NULL; o; o = next, next = o ? o->next : NULL) {
		if (!fw_data_keeps(x->d, x->cp_pos[i])) {
			cJSON_Delete(cJSON_DetachItemViaPointer(x->combined, o));
			i++;
			continue;
		}
		struct fw_verdict_in in = {
			.higher_is_better = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "higher_is_better")),
			.delta_pct = fw_json_num(o, "delta_pct", NAN),
			.q = q[i],
			.min_p = 0,
			/* No MDE for the combination: not significant means unsure. */
			.mde_pct = NAN,
			.alpha = alpha,
			.min_effect_pct = fw_json_num(o, "min_effect_pct", NAN),
		};
		fw_json_num_or_null(o, "q", q[i++]);
		cJSON_AddNumberToObject(o, "alpha_used", alpha);
		cJSON_AddStringToObject(o, "verdict", fw_verdict_name(fw_verdict_decide(&in)));
	}
	free(q);
}

/*
 * The oldest kernel (build) of the evidence of env: the newest kernels
 * measured there up to the newest run read, until FW_EVIDENCE_BOOTS boots or
 * FW_EVIDENCE_KERNELS kernels.
 */
struct cutoff_walk {
	long long boots, cutoff;
	int kernels;
};

static int count_kernel(long long build_id, long long boots, void *ctx)
{
	struct cutoff_walk *w = ctx;

	w->boots += boots;
	if (w->boots >= FW_EVIDENCE_BOOTS || ++w->kernels >= FW_EVIDENCE_KERNELS) {
		w->cutoff = build_id;
		return 1;
	}
	return 0;
}

static long long env_cutoff(struct ctx *x, size_t env)
{
	struct env_info *e = &x->d->e[env];
	struct cutoff_walk w = { 0 };

	if (e->cutoff >= 0)
		return e->cutoff;
	if (fw_store_evidence_kernels(&x->ev, e->fp, x->d->max_run, count_kernel, &w, x->err) < 0)
		x->failed = -1;
	e->cutoff = w.cutoff;
	return e->cutoff;
}

/* The rounds of each boot of one kernel (v ordered by run) as within-boot evidence. */
static void add_boots(struct fw_noise *nz, const double *v, const long *run, size_t n)
{
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i; j < n && run[j] == run[i]; j++)
			;
		fw_noise_add_boot(nz, v + i, j - i);
	}
}

/* One kernel's samples at a time, in parallel arrays (v/run handed to stats as-is). */
struct kernel_samples {
	struct fw_noise *nz;
	double *v, *med;
	long *run;
	size_t n, alloc;
	long long build;
};

/* The kernel read so far is complete: its per-boot medians and rounds go into the evidence. */
static void flush_kernel(struct kernel_samples *ks)
{
	if (ks->n) {
		size_t nb = fw_group_medians(ks->v, ks->run, ks->n, ks->med);
		fw_noise_add_kernel(ks->nz, ks->med, nb);
		add_boots(ks->nz, ks->v, ks->run, ks->n);
	}
	ks->n = 0;
}

static int add_evidence(long long build_id, long long run_id, double value, void *ctx)
{
	struct kernel_samples *ks = ctx;

	if (build_id != ks->build) {
		flush_kernel(ks);
		ks->build = build_id;
	}
	if (ks->n >= ks->alloc) { /* parallel arrays: one capacity, FW_ALLOC_GROW's policy */
		ks->alloc = fw_alloc_nr(ks->n + 1, ks->alloc);
		ks->v = xreallocarray(ks->v, ks->alloc, sizeof(*ks->v));
		ks->run = xreallocarray(ks->run, ks->alloc, sizeof(*ks->run));
		ks->med = xreallocarray(ks->med, ks->alloc, sizeof(*ks->med));
	}
	ks->run[ks->n] = (long)run_id;
	ks->v[ks->n++] = value;
	return 0;
}

/*
 * Same-kernel evidence of one metric in one environment: per-boot medians of
 * every kernel (build) measured there, by any series, up to the newest run
 * this analysis read, pooled (fw_noise), and the rounds within each boot.
 */
static void env_noise(struct ctx *x, size_t key, size_t env, struct fw_noise *nz)
{
	const struct key_info *k = &x->d->k[key];
	struct fw_store_result_key rk = {
		.env_fingerprint = x->d->e[env].fp, .workload = k->workload, .variant = k->variant,
		.params = k->params, .metric = k->metric,
	};
	struct kernel_samples ks = { .nz = nz, .build = -1 };
	long long cutoff = env_cutoff(x, env);

	fw_noise_init(nz);
	if (fw_store_evidence_samples(&x->ev, &rk, x->d->max_run, cutoff, add_evidence, &ks, x->err))
		x->failed = -1;
	else
		flush_kernel(&ks);
	fw_noise_finish(nz);
	free(ks.v);
	free(ks.run);
	free(ks.med);
}

/* The group's mode from its evidence nz: measured first, the determinism table when it is inconclusive. */
static void group_meta(const struct ctx *x, size_t key, size_t env, const struct fw_noise *nz, struct fw_row_meta *m)
{
	const struct key_info *k = &x->d->k[key];
	const char *source;
	int from_data, def = fw_det_table_lookup(x->det, x->d->e[env].accel, k->workload, k->variant, k->metric,
						 k->kind, &source);

	memset(m, 0, sizeof(*m));
	m->higher_is_better = !strcmp(k->direction, "higher_is_better");
	m->is_rate = !strcmp(k->kind, "rate");
	m->mode = fw_classify(nz, !strcmp(k->kind, "count"), def, FW_DETERMINISTIC_CV_PCT, &from_data);
	m->mode_source = from_data ? "data" : source;
	m->table_deterministic = def;
	m->noise = nz;
	m->looks = 1;
	m->look = 1;
	m->min_effect_pct = isnan(k->min_effect) ? x->o->min_effect_pct : k->min_effect;
}

/* The determinism section's line of one group (a history's: its newest commit's evidence). */
static void determinism_entry(struct ctx *x, size_t key, size_t env, const struct fw_row_meta *m)
{
	const struct key_info *k = &x->d->k[key];
	const struct env_info *e = &x->d->e[env];
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "env_fingerprint", e->fp);
	cJSON_AddStringToObject(o, "host", e->host);
	cJSON_AddStringToObject(o, "accel", e->accel);
	cJSON_AddStringToObject(o, "workload", k->workload);
	cJSON_AddStringToObject(o, "variant", k->variant);
	cJSON_AddStringToObject(o, "params", k->params);
	cJSON_AddStringToObject(o, "metric", k->metric);
	cJSON_AddStringToObject(o, "kind", k->kind);
	cJSON_AddStringToObject(o, "mode", fw_mode_name(m->mode));
	cJSON_AddStringToObject(o, "mode_source", m->mode_source);
	cJSON_AddBoolToObject(o, "table_deterministic", m->table_deterministic);
	fw_noise_json(o, m->noise);
	cJSON_AddItemToArray(x->determinism, o);
}

/* The group's mode over the environment's evidence (any series' newest kernels). */
static void classify_group(struct ctx *x, size_t key, size_t env, struct fw_noise *nz, struct fw_row_meta *m)
{
	env_noise(x, key, env, nz);
	group_meta(x, key, env, nz, m);
	determinism_entry(x, key, env, m);
}

/* The rows of slice i of a group: against its parent's slice (or the one before) and the base. */
static void slice_rows(struct ctx *x, size_t key, size_t env, const struct slice *sl, size_t i,
		       const struct fw_row_meta *m)
{
	const struct data *d = x->d;
	size_t ci = sl[i].commit;
	long par = d->c[ci].parent, pw = par >= 0 ? x->where[par] : -1;

	if ((long)ci == d->base)
		return;
	/*
	 * A parent with no samples of this metric here (not measured: a
	 * sparse watch, a build that failed, other workloads): the previous
	 * commit that has them, as a bisect compares its midpoints.
	 */
	if (pw < 0 && i > 0)
		pw = (long)i - 1;
	/* a history looks back a bounded way: what it compares never depends on older commits */
	if (pw >= 0 && d->watched && d->c[sl[pw].commit].position < d->c[ci].position - FW_HISTORY_LOOKBACK)
		pw = -1;
	if (pw >= 0)
		add_row(x, key, env, &sl[i], &sl[pw], "parent", m);
	if (d->base >= 0 && (pw < 0 || (long)sl[pw].commit != d->base) && x->where[d->base] >= 0)
		add_row(x, key, env, &sl[i], &sl[x->where[d->base]], "base", m);
}

/* Change points of a group's slices [s, e) (a history: each block of positions alone). */
static void group_change_points(struct ctx *x, size_t key, size_t env, const struct slice *sl, size_t ns)
{
	const struct data *d = x->d;

	for (size_t a = 0, b; a < ns; a = b) {
		int block = d->c[sl[a].commit].position / FW_HISTORY_CP_BLOCK;
		for (b = a; b < ns && (!d->watched || d->c[sl[b].commit].position / FW_HISTORY_CP_BLOCK == block); b++)
			;
		/* a part recomputes the blocks it touches, whole (its load covers them) */
		if (!d->partial || (block >= d->keep_from / FW_HISTORY_CP_BLOCK && block <= d->keep_to / FW_HISTORY_CP_BLOCK))
			add_change_points(x, key, env, sl + a, b - a);
	}
}

/* A history's group: each commit's mode and floors from its own window of the series' kernels. */
static void history_group(struct ctx *x, size_t key, size_t env, const struct slice *sl, size_t ns)
{
	const struct data *d = x->d;
	struct fw_kernel_noise *kn = xmalloc((ns + 1) * sizeof(*kn));
	double *tmp = xmalloc((d->no + 1) * sizeof(*tmp));
	struct fw_noise nz;
	struct fw_row_meta m;

	for (size_t i = 0; i < ns; i++)
		fw_kernel_noise_of(&kn[i], d->c[sl[i].commit].position, d->ob_v + sl[i].start, d->ob_run + sl[i].start,
				   sl[i].end - sl[i].start, tmp);
	for (size_t i = 0; i < ns; i++) {
		fw_history_noise(kn, i, &nz);
		group_meta(x, key, env, &nz, &m);
		slice_rows(x, key, env, sl, i, &m);
		/* the groups measured in the tip's BH window, at their newest commit: within any part that has the tip */
		if (i + 1 == ns && kn[i].position > d->tip - FW_HISTORY_BH_WINDOW && fw_data_keeps(d, d->tip))
			determinism_entry(x, key, env, &m);
	}
	free(kn);
	free(tmp);
}

/*
 * One (key, env) group [s, e). pair_mode: compare the second commit with the
 * first (any two commits); else each commit with its parent and with the base.
 */
static void process_group(struct ctx *x, size_t s, size_t e, int pair_mode)
{
	struct data *d = x->d;
	struct slice *sl = xmalloc((d->nc + 1) * sizeof(*sl));
	size_t ns = 0, key = d->ob_key[s], env = d->ob_env[s];
	struct fw_row_meta m;
	struct fw_noise nz;

	for (size_t i = s; i < e; i++) {
		if (!ns || sl[ns - 1].commit != d->ob_commit[i]) {
			sl[ns].commit = d->ob_commit[i];
			sl[ns].start = i;
			ns++;
		}
		sl[ns - 1].end = i + 1;
	}
	for (size_t i = 0; i < ns; i++)
		x->where[sl[i].commit] = (long)i;
	if (pair_mode) {
		classify_group(x, key, env, &nz, &m);
		if (d->nc == 2 && x->where[0] >= 0 && x->where[1] >= 0)
			add_row(x, key, env, &sl[x->where[1]], &sl[x->where[0]], "other", &m);
	} else if (d->watched) {
		history_group(x, key, env, sl, ns);
		group_change_points(x, key, env, sl, ns);
	} else {
		classify_group(x, key, env, &nz, &m);
		for (size_t i = 0; i < ns; i++)
			slice_rows(x, key, env, sl, i, &m);
		group_change_points(x, key, env, sl, ns);
	}
	for (size_t i = 0; i < ns; i++)
		x->where[sl[i].commit] = -1;
	free(sl);
}

/* Table order: by commit, parent before base, then metric and environment. */
static int cmp_rows(const void *pa, const void *pb)
{
	const cJSON *a = *(const cJSON *const *)pa, *b = *(const cJSON *const *)pb;
	static const char *keys[] = { "against", "workload", "variant", "params", "metric", "env_fingerprint" };
	double pa_ = fw_json_num(a, "position", NAN), pb_ = fw_json_num(b, "position", NAN);

	if (pa_ != pb_)
		return (pa_ > pb_) - (pa_ < pb_);
	for (int i = 0; i < 6; i++) {
		const cJSON *x = cJSON_GetObjectItemCaseSensitive(a, keys[i]);
		const cJSON *y = cJSON_GetObjectItemCaseSensitive(b, keys[i]);
		/* "base" < "other" < "parent": reversed for against, so parent comes first */
		int c = strcmp(cJSON_IsString(x) ? x->valuestring : "", cJSON_IsString(y) ? y->valuestring : "");
		if (c)
			return i == 0 ? -c : c;
	}
	return 0;
}

/* A history's change points and combined rows in one order however they were computed (whole or in parts). */
static int cmp_fields(const cJSON *a, const cJSON *b, const char *const *keys)
{
	for (; *keys; keys++) {
		int c = strcmp(fw_json_str(a, *keys, ""), fw_json_str(b, *keys, ""));
		if (c)
			return c;
	}
	return (fw_json_num(a, "position", 0) > fw_json_num(b, "position", 0)) -
	       (fw_json_num(a, "position", 0) < fw_json_num(b, "position", 0));
}

static int cmp_cps(const void *pa, const void *pb)
{
	static const char *const keys[] = { "workload", "variant", "metric", "env_fingerprint", NULL };
	const cJSON *a = *(const cJSON *const *)pa, *b = *(const cJSON *const *)pb;
	int c = cmp_fields(a, b, keys);
	double x = fw_json_num(a, "before", 0), y = fw_json_num(b, "before", 0);

	/* two groups that differ in params only: by their levels */
	return c ? c : (x > y) - (x < y);
}

static int cmp_combined(const void *pa, const void *pb)
{
	static const char *const keys[] = { "workload", "variant", "params", "metric", NULL };
	return cmp_fields(*(const cJSON *const *)pa, *(const cJSON *const *)pb, keys);
}

/*
 * One walk of the list, then relinked in order: detaching by index walks the
 * list each time (quadratic: 22% of the CPU at 600 commits).
 */
static void sort_by_key(cJSON *arr, int (*cmp)(const void *, const void *))
{
	int n = cJSON_GetArraySize(arr), i = 0;
	cJSON **v = xmalloc(((size_t)n + 1) * sizeof(*v));

	for (cJSON *c = arr->child; c; c = c->next)
		v[i++] = c;
	qsort(v, (size_t)n, sizeof(*v), cmp);
	arr->child = NULL;
	for (i = 0; i < n; i++) {
		v[i]->next = v[i]->prev = NULL;
		cJSON_AddItemToArray(arr, v[i]);
	}
	free(v);
}

void fw_an_sort_history(cJSON *cps, cJSON *combined)
{
	sort_by_key(cps, cmp_cps);
	if (combined)
		sort_by_key(combined, cmp_combined);
}

/* Runs every group, then the BH adjustment over the whole family and the verdicts. */
/*
 * Driven from the environment's runs of the newest kernels (runs_by_env_build),
 * each looked up in results by its unique (run_id, workload, variant, metric).
 */
/* The most looks any boot planned (and at least opts max_looks): the series' K. */
static int data_looks(const struct data *d, const struct fw_analysis_opts *o)
{
	int k = o->max_looks > 1 ? o->max_looks : 1;

	for (size_t i = 0; i < d->no; i++)
		if (d->ob_looks[i] > k)
			k = d->ob_looks[i];
	return k;
}

/*
 * Whether a row gets the counters and profiles that explain its change: a
 * decided one; in a history only against the parent. There every commit
 * after a step differs from the base (a quarter of a million rows at 10,000
 * commits, 23% of the first analysis in their queries) and nothing shows
 * why a commit differs from a base of a year ago: the commit page, the
 * feeds and the regressions read the rows against the parent.
 */
static int explains(const struct data *d, const cJSON *row)
{
	const char *v = fw_json_str(row, "verdict", "");

	if (strcmp(v, "regression") && strcmp(v, "improvement"))
		return 0;
	return !d->watched || !strcmp(fw_json_str(row, "against", ""), "parent");
}

int fw_analyse(sqlite3 *db, struct data *d, const struct fw_analysis_opts *o,
		   const struct fw_det_table *det, cJSON *out, int pair_mode, struct strbuf *err)
{
	struct ctx x = { .db = db, .o = o, .d = d, .det = det, .err = err };
	double *q = NULL;
	size_t s = 0, i = 0;
	cJSON *row;
	int ret = -1, looks = data_looks(d, o);

	cJSON_AddNumberToObject(out, "looks", looks);
	cJSON_AddNumberToObject(out, "look", d->max_look);
	{
		cJSON *a = cJSON_AddArrayToObject(out, "alpha_at_looks");
		for (int k = 1; k <= looks; k++)
			cJSON_AddItemToArray(a, cJSON_CreateNumber(fw_alpha_at_look(o->alpha, k, looks)));
	}
	if (fw_store_evidence_open(&x.ev, db, err))
		goto cleanup;
	x.determinism = cJSON_AddArrayToObject(out, "determinism");
	x.rows = cJSON_AddArrayToObject(out, "rows");
	x.cps = cJSON_AddArrayToObject(out, "change_points");
	if (!pair_mode)
		x.combined = cJSON_AddArrayToObject(out, "combined");
	x.where = xmalloc((d->nc + 1) * sizeof(*x.where));
	for (size_t c = 0; c < d->nc; c++)
		x.where[c] = -1;
	while (s < d->no) {
		size_t e = s;
		while (e < d->no && d->ob_key[e] == d->ob_key[s] && d->ob_env[e] == d->ob_env[s])
			e++;
		process_group(&x, s, e, pair_mode);
		if (x.failed)
			goto cleanup;
		s = e;
	}
	for (s = 0; !pair_mode && s < d->no;) {
		size_t e = s;
		while (e < d->no && d->ob_key[e] == d->ob_key[s])
			e++;
		add_combined(&x, s, e);
		s = e;
	}
	if (!pair_mode)
		finish_combined(&x, fw_alpha_at_look(o->alpha, d->max_look, looks));
	q = xmalloc((x.np + 1) * sizeof(*q));
	family_q(&x, x.p, x.pos, x.np, q);
	for (row = x.rows->child; row; row = row->next) {
		while (!fw_data_keeps(d, x.pos[i]))  /* a p for the BH windows of the part's rows only */
			i++;
		fw_row_finish(row, q[i++], o);
		if (explains(d, row) && (fw_analysis_counters(db, row, err) || fw_profile_attribution(db, row, err)))
			goto cleanup;
	}
	sort_by_key(x.rows, cmp_rows);
	if (d->watched)
		fw_an_sort_history(x.cps, x.combined);
	ret = 0;
cleanup:
	free(q);
	free(x.p);
	free(x.pos);
	free(x.cp_p);
	free(x.cp_pos);
	free(x.where);
	fw_store_evidence_close(&x.ev);
	return ret;
}

void fw_an_opts_json(cJSON *out, const struct fw_analysis_opts *o, int watched)
{
	cJSON_AddNumberToObject(out, "alpha", o->alpha);
	if (watched) {
		/* a history: README "Deciding", history-window.h */
		cJSON_AddBoolToObject(out, "watched", 1);
		cJSON_AddStringToObject(out, "fdr", "benjamini-hochberg over the rows of the newest 50 commits up to "
					"each commit (a watched series: decided commit by commit)");
	} else {
		cJSON_AddStringToObject(out, "fdr", "benjamini-hochberg over all rows of the series");
	}
	cJSON_AddNumberToObject(out, "min_effect_pct", o->min_effect_pct);
	cJSON_AddNumberToObject(out, "noise_floor_pct", o->noise_floor_pct);
	cJSON_AddNumberToObject(out, "floor_alpha", o->floor_alpha);
	cJSON_AddNumberToObject(out, "deterministic_cv_pct", FW_DETERMINISTIC_CV_PCT);
	cJSON_AddStringToObject(out, "alpha_spending", "rank rows: O'Brien-Fleming-type shares of alpha per look "
				"(alpha_at_looks, union bound); floors: floor_alpha / K at every look");
	cJSON_AddNumberToObject(out, "ci_level_requested", o->ci_level);
	cJSON_AddStringToObject(out, "analysis", FW_ANALYSIS_VERSION);
}

void fw_an_commits_json(cJSON *out, const struct data *d)
{
	cJSON *arr = cJSON_AddArrayToObject(out, "commits");

	for (size_t i = 0; i < d->nc; i++) {
		cJSON *c = cJSON_CreateObject();
		cJSON_AddNumberToObject(c, "id", (double)d->c[i].id);
		cJSON_AddStringToObject(c, "sha", d->c[i].sha);
		cJSON_AddStringToObject(c, "key", d->c[i].key);
		cJSON_AddStringToObject(c, "subject", d->c[i].subject);
		cJSON_AddNumberToObject(c, "position", d->c[i].position);
		if (d->c[i].parent_sha)
			cJSON_AddStringToObject(c, "parent_sha", d->c[i].parent_sha);
		cJSON_AddBoolToObject(c, "is_base", (long)i == d->base);
		cJSON_AddItemToArray(arr, c);
	}
}

/*
 * The data hash: every run the analysis could read (id, content hash, boot
 * status), the same-kernel evidence of its environments (how many runs each
 * had up to the series' newest run: runs are never rewritten, so a count is
 * enough), plus the options, the determinism table and the analysis version.
 * A new, replaced or deleted run changes it, whoever wrote it.
 */
static int data_hash(sqlite3 *db, long long series_id, int watched, const struct fw_analysis_opts *o,
		     const struct fw_det_table *det, char out[65], char rule[65], struct strbuf *err)
{
	struct sha256_ctx h, r;
	char buf[384], runs[65];

	sha256_init(&h);
	/*
	 * The analysis' code too: a changed analysis must not serve an old one's
	 * answers, while a server rebuilt for anything else (pages, API) keeps
	 * them (fw_version here made every deploy re-analyse all history).
	 */
	snprintf(buf, sizeof(buf), "%s %s\n%lld\n%.17g %.17g %.17g %.17g %.17g %d\n%s\n", FW_ANALYSIS_VERSION,
		 fw_analysis_code, series_id, o->alpha, o->min_effect_pct, o->noise_floor_pct, o->ci_level,
		 o->floor_alpha, o->max_looks, det->hash);
	sha256_update(&h, buf, strlen(buf));
	if (watched)  /* another rule: a patch series' hash stays what it was */
		sha256_update(&h, "watched\n", 8);
	/* the rule without the data: a history's stored part is reused only under the same one */
	r = h;
	sha256_final_hex(&r, rule);
	if (fw_store_series_runs_digest(db, series_id, runs, err))
		return -1;
	sha256_update(&h, runs, 64);
	sha256_final_hex(&h, out);
	return 0;
}

/*
 * A page (opts page) whose series took longer than this to analyse
 * last time shows that analysis rather than computing the new one itself.
 */
#define FW_PAGE_COMPUTE_MAX_MS 1000

static void series_key_release(struct fw_series_key *k)
{
	free(k->base);
	fw_det_table_free(&k->det);
}

void fw_series_key_free(struct fw_series_key *k)
{
	if (k)
		series_key_release(k);
	free(k);
}

/* 0, or -1 with err ("no such series" when unknown). */
static int series_key(sqlite3 *db, const char *series, int revision, const struct fw_analysis_opts *o,
		      struct fw_series_key *k, struct strbuf *err)
{
	int found = fw_store_series_ref(db, series, revision, &k->sid, &k->revision, &k->base, &k->watched, err);

	if (found <= 0) {
		if (!found)
			strbuf_addf(err, "no such series: %s%s", series, revision > 0 ? " (at that revision)" : "");
		return -1;
	}
	snprintf(k->key, sizeof(k->key), "series:%lld", k->sid);
	return fw_det_table_load(&k->det, o->determinism_file, err) || data_hash(db, k->sid, k->watched, o, &k->det, k->hash, k->rule, err)
		       ? -1 : 0;
}

/* o, or the default options in *defaults when o is NULL (callers may pass none). */
static const struct fw_analysis_opts *opts_or_default(const struct fw_analysis_opts *o,
						      struct fw_analysis_opts *defaults)
{
	if (o)
		return o;
	fw_analysis_opts_init(defaults);
	return defaults;
}

int fw_series_key_get(sqlite3 *db, const char *series, const struct fw_analysis_opts *o,
		      struct fw_series_key **out, struct strbuf *err)
{
	struct fw_analysis_opts defaults;

	o = opts_or_default(o, &defaults);
	*out = calloc(1, sizeof(**out));
	if (*out && !series_key(db, series, 0, o, *out, err))
		return 0;
	fw_series_key_free(*out);
	*out = NULL;
	return -1;
}

/*
 * The cached analysis of older data, marked stale, when it was made with the
 * same options (a `report --alpha` writes the same key): else NULL.
 */
static cJSON *older(sqlite3 *db, const struct fw_series_key *k, const struct fw_analysis_opts *o,
		    const struct fw_store_cache_part *part)
{
	cJSON *res = fw_an_cache_get(db, k->key, NULL, part);

	if (res && (fw_json_num(res, "alpha", NAN) != o->alpha ||
		    fw_json_num(res, "min_effect_pct", NAN) != o->min_effect_pct ||
		    fw_json_num(res, "noise_floor_pct", NAN) != o->noise_floor_pct ||
		    fw_json_num(res, "floor_alpha", NAN) != o->floor_alpha ||
		    fw_json_num(res, "ci_level_requested", NAN) != o->ci_level ||
		    strcmp(fw_json_str(res, "analysis", ""), FW_ANALYSIS_VERSION))) {
		cJSON_Delete(res);
		return NULL;
	}
	if (res)
		fw_an_mark_stale(res, k->hash);
	return res;
}

double fw_an_seconds_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int page_leaves_it(sqlite3 *db, const struct fw_series_key *k, const struct fw_analysis_opts *o)
{
	return o->page && fw_store_cache_compute_ms(db, k->key) > FW_PAGE_COMPUTE_MAX_MS;
}

static cJSON *compute_series(sqlite3 *db, const char *series, struct fw_series_key *k,
			     const struct fw_analysis_opts *o, struct strbuf *err)
{
	struct data d = { 0 };
	struct fw_store_scope sc = { .series_id = k->sid };
	cJSON *res = NULL;

	if (k->watched)
		return fw_history_whole(db, series, k, o, err);
	if (fw_store_scope_commits(db, &sc, fw_data_add_commit, &d, err))
		goto cleanup;
	fw_data_index_commits(&d, k->base);
	if (fw_data_load_samples(db, &sc, &d, err))
		goto cleanup;
	res = fw_an_head(series, k, o, k->watched, &d);
	if (fw_analyse(db, &d, o, &k->det, res, 0, err)) {
		cJSON_Delete(res);
		res = NULL;
	}
cleanup:
	fw_data_free(&d);
	return res;
}

cJSON *fw_an_head(const char *series, const struct fw_series_key *k, const struct fw_analysis_opts *o, int watched,
		  const struct data *d)
{
	cJSON *res = cJSON_CreateObject();

	cJSON_AddStringToObject(res, "series", series);
	cJSON_AddNumberToObject(res, "series_id", (double)k->sid);
	cJSON_AddNumberToObject(res, "revision", k->revision);
	cJSON_AddStringToObject(res, "base", k->base);
	cJSON_AddStringToObject(res, "data_hash", k->hash);
	fw_an_opts_json(res, o, watched);
	fw_an_commits_json(res, d);
	return res;
}

/* The series' analysis under key k (computed by this call or read from the cache). */
static cJSON *series_keyed(sqlite3 *db, const char *series, struct fw_series_key *k,
			   const struct fw_analysis_opts *o, const struct fw_store_cache_part *part,
			   struct strbuf *err)
{
	char flight[160];
	cJSON *res = NULL;
	int owned = 0, leave = -1;  /* read on the first miss, once: a hit never asks */
	double t0;

	snprintf(flight, sizeof(flight), "%s@%s", k->key, k->hash);
	/* a miss computes once per process: a second asker waits, then reads the cache */
	while (o->use_cache) {
		if ((res = fw_an_cache_get(db, k->key, k->hash, part)))
			goto cleanup;
		/* a page does not compute a slow analysis itself: the older one, and the detection is told */
		if (leave < 0)
			leave = page_leaves_it(db, k, o);
		if (leave && (res = older(db, k, o, part))) {
			if (o->wake)
				o->wake(series);
			goto cleanup;
		}
		if ((owned = fw_inflight_begin(flight)))
			break;
	}
	t0 = fw_an_seconds_now();
	/* a history computes what its new data decide, when its stored part allows */
	if (k->watched && o->use_cache && ((res = fw_history_update(db, series, k, o, part, t0)) ||
					   (res = fw_history_first(db, series, k, o, part, t0))))
		goto cleanup;
	res = compute_series(db, series, k, o, err);
	if (res && o->use_cache)
		fw_an_cache_put(db, k->key, k->hash, res, fw_an_seconds_now() - t0);
	fw_an_keep_part(res, part);
cleanup:
	if (owned)
		fw_inflight_end(flight);
	return res;
}

/* *out: the typed result of res (taken); 0, or -1 (err says why, unless it already does). */
static int typed(cJSON *res, struct fw_an **out, struct strbuf *err)
{
	if (!res)
		return *out = NULL, -1;
	if (!(*out = fw_an_from_json(res))) {
		strbuf_addstr(err, "out of memory reading the analysis");
		return -1;
	}
	return 0;
}

int fw_analysis_series_part(sqlite3 *db, const char *series, int revision, const struct fw_analysis_opts *o,
			    const struct fw_store_cache_part *part, struct fw_an **out, struct strbuf *err)
{
	struct fw_analysis_opts defaults;
	struct fw_series_key k = { 0 };
	cJSON *res = NULL;

	*out = NULL;
	o = opts_or_default(o, &defaults);
	if (!series_key(db, series, revision, o, &k, err))
		res = series_keyed(db, series, &k, o, part, err);
	series_key_release(&k);
	return typed(res, out, err);
}

int fw_analysis_series_at(sqlite3 *db, const char *series, struct fw_series_key *k,
			  const struct fw_analysis_opts *o, struct fw_an **out, struct strbuf *err)
{
	struct fw_analysis_opts defaults;

	o = opts_or_default(o, &defaults);
	return typed(series_keyed(db, series, k, o, NULL, err), out, err);
}

int fw_analysis_series_head(sqlite3 *db, const char *series, struct fw_series_key *k,
			    const struct fw_analysis_opts *o, struct fw_an **out, struct strbuf *err)
{
	static const struct fw_store_cache_part no_rows = { 1, 0, NULL, 0 };
	struct fw_analysis_opts defaults;

	o = opts_or_default(o, &defaults);
	return typed(series_keyed(db, series, k, o, &no_rows, err), out, err);
}

int fw_analysis_rows_each(sqlite3 *db, const struct fw_an *head, const struct fw_store_cache_part *part,
			  int (*each)(const char *body, void *ctx), void *ctx)
{
	char key[64];

	snprintf(key, sizeof(key), "series:%lld", head->series_id);
	return fw_store_cache_get(db, key, head->data_hash, part, NULL, each, ctx);
}

int fw_analysis_regressions_from(const struct fw_an *head)
{
	const cJSON *h = cJSON_GetObjectItemCaseSensitive(fw_an_json(head), "history");

	return (int)fw_json_num(h, "regressions_from", -1);
}

int fw_analysis_series(sqlite3 *db, const char *series, int revision,
		       const struct fw_analysis_opts *o, struct fw_an **out, struct strbuf *err)
{
	return fw_analysis_series_part(db, series, revision, o, NULL, out, err);
}

int fw_analysis_regressions_current(sqlite3 *db, const struct fw_series_key *k, const struct fw_analysis_opts *o,
				    char regs_flight[FW_REGS_FLIGHT_MAX])
{
	struct fw_analysis_opts defaults;

	o = opts_or_default(o, &defaults);
	regs_flight[0] = '\0';
	if (!o->use_cache || !k)
		return 0;
	snprintf(regs_flight, FW_REGS_FLIGHT_MAX, "regs:%s@%s", k->key, k->hash);
	return fw_store_cache_regressions_stored(db, k->key, k->hash) || page_leaves_it(db, k, o);
}

void fw_analysis_regressions_stored(sqlite3 *db, const struct fw_an *an)
{
	char key[64];

	snprintf(key, sizeof(key), "series:%lld", an->series_id);
	fw_store_cache_mark_regressions(db, key, an->data_hash);
}

int fw_analysis_compare(sqlite3 *db, long long commit_a, long long commit_b,
			const struct fw_analysis_opts *o, struct fw_an **out, struct strbuf *err)
{
	struct fw_analysis_opts defaults;
	struct fw_det_table det = { 0 };
	struct data d = { 0 };
	struct fw_store_scope sc = { .commit_a = commit_a, .commit_b = commit_b };
	cJSON *res = NULL;
	int ret = -1;

	*out = NULL;
	o = opts_or_default(o, &defaults);
	/* Ordered so that a is index 0 and b index 1, whatever their positions. */
	if (fw_store_scope_commits(db, &sc, fw_data_add_commit, &d, err))
		goto cleanup;
	if (d.nc != 2) {
		strbuf_addstr(err, "no such commit (need two different commit ids)");
		goto cleanup;
	}
	fw_data_index_commits(&d, NULL);
	if (fw_data_load_samples(db, &sc, &d, err))
		goto cleanup;
	res = cJSON_CreateObject();
	fw_an_opts_json(res, o, 0);
	fw_an_commits_json(res, &d);
	if (fw_det_table_load(&det, o->determinism_file, err) || fw_analyse(db, &d, o, &det, res, 1, err))
		goto cleanup;
	ret = 0;
cleanup:
	if (ret) {
		cJSON_Delete(res);
		res = NULL;
	}
	fw_data_free(&d);
	fw_det_table_free(&det);
	return ret ? ret : typed(res, out, err);
}
