/*
 * Loads a series for pages and the API (the read-side store: SQL text only
 * here). Every statement is prepared and bound. Medians are not computed
 * here: fw_series_levels (analysis/series-levels.c) fills them.
 */
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "fw-db.h"
#include "series-db.h"
#include "xalloc.h"

int fw_metric_nsamples(const struct fw_series *s, const struct fw_metric *m)
{
	int n = 0;

	for (int c = 0; c < s->ncommits; c++)
		n += m->cells[c].n;
	return n;
}

/* ?2 = 0: the newest revision; otherwise exactly that one. */
static const char sql_series[] =
	"SELECT id, name, revision, base, watched FROM series WHERE name = ?1 AND (?2 = 0 OR revision = ?2) "
	"ORDER BY revision DESC LIMIT 1";
/* The worst boot of a commit is the one shown: a non-ok status sorts first. */
static const char sql_commits[] =
	"SELECT c.id, c.sha, c.subject, c.author, c.position, coalesce(c.parent_sha, ''),"
	" coalesce((SELECT CASE WHEN sum(b.status = 'failed') > 0 THEN 'failed' ELSE 'ok' END"
	"           FROM builds b WHERE b.commit_id = c.id HAVING count(*) > 0), 'none'),"
	" coalesce((SELECT boot_status FROM runs r WHERE r.commit_id = c.id"
	"           ORDER BY boot_status = 'ok', r.id LIMIT 1), 'none'),"
	" (SELECT coalesce(max(taint), 0) FROM runs r WHERE r.commit_id = c.id),"
	" (SELECT count(*) FROM runs r WHERE r.commit_id = c.id),"
	" coalesce((SELECT kernel_version FROM builds b WHERE b.commit_id = c.id LIMIT 1), '')"
	" FROM commits c WHERE c.series_id = ?1 AND c.position BETWEEN ?2 AND ?3 ORDER BY c.position, c.id";
/* The whole revision's commits, whatever window is loaded: for the page's "commits A-B of N". */
static const char sql_span[] =
	"SELECT count(*), coalesce(min(position), 0), coalesce(max(position), 0) FROM commits WHERE series_id = ?1";
static const char sql_samples[] =
	"SELECT ru.commit_id, ru.id, e.fingerprint, res.workload, res.variant, res.metric,"
	" res.unit, res.direction, res.min_effect_pct, res.error IS NOT NULL, s.value"
	" FROM runs ru JOIN commits c ON c.id = ru.commit_id"
	" JOIN environments e ON e.id = ru.env_id"
	" JOIN results res ON res.run_id = ru.id"
	" LEFT JOIN samples s ON s.result_id = res.id"
	" WHERE c.series_id = ?1 AND c.position BETWEEN ?2 AND ?3"
	" AND (?4 < 0 OR c.position IN (?4, ?5))"
	" AND (?6 IS NULL OR res.workload || '/' || res.variant || '/' || res.metric = ?6)"
	" ORDER BY res.workload, res.variant, res.metric, e.fingerprint, c.position, ru.id, s.round";

/*
 * The metrics of the window without their samples (a streamed answer lists
 * them first): what sql_samples would make of the same rows, unit, direction
 * and minimum effect from the first run of each (lowest position, then id).
 */
static const char sql_metric_list[] =
	"SELECT NULL, NULL, e.fingerprint, res.workload, res.variant, res.metric,"
	" res.unit, res.direction, res.min_effect_pct, MIN(c.position * 4294967296 + ru.id)"
	" FROM runs ru JOIN commits c ON c.id = ru.commit_id"
	" JOIN environments e ON e.id = ru.env_id"
	" JOIN results res ON res.run_id = ru.id"
	" WHERE c.series_id = ?1 AND c.position BETWEEN ?2 AND ?3"
	" GROUP BY res.workload, res.variant, res.metric, e.fingerprint"
	" ORDER BY res.workload, res.variant, res.metric, e.fingerprint";

/*
 * Samples come ordered by position within a metric: the commit of the last
 * sample or the next one is nearly always it (a scan per sample was samples
 * x commits).
 */
static int commit_index(const struct fw_series *s, long long id, int *last)
{
	for (int i = *last; i < s->ncommits && i <= *last + 1; i++)
		if (s->commits[i].id == id)
			return *last = i;
	for (int i = 0; i < s->ncommits; i++)
		if (s->commits[i].id == id)
			return *last = i;
	return -1;
}

static void cell_add(struct fw_cell *c, double v, long long run)
{
	FW_ALLOC_GROW(c->vals, c->n + 1, c->alloc);
	c->vals[c->n].v = v;
	c->vals[c->n].run = run;
	c->n++;
}

static const char *ctext(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	return t ? (const char *)t : "";
}

/* A new metric of s from a row of sql_samples or sql_metric_list (columns 2..8). */
static struct fw_metric *add_metric(struct fw_series *s, sqlite3_stmt *st)
{
	struct fw_metric *m;

	FW_ALLOC_GROW(s->metrics, s->nmetrics + 1, s->ametrics);
	m = &s->metrics[s->nmetrics++];
	memset(m, 0, sizeof(*m));
	m->workload = xstrdup(fw_db_text(st, 3));
	m->variant = xstrdup(fw_db_text(st, 4));
	m->metric = xstrdup(fw_db_text(st, 5));
	m->unit = xstrdup(fw_db_text(st, 6));
	m->direction = xstrdup(fw_db_text(st, 7));
	m->env = xstrdup(fw_db_text(st, 2));
	m->min_effect_pct = sqlite3_column_type(st, 8) == SQLITE_NULL ? NAN : sqlite3_column_double(st, 8);
	snprintf(m->id, sizeof(m->id), "%s/%s/%s", m->workload, m->variant, m->metric);
	m->cells = calloc((size_t)(s->ncommits ? s->ncommits : 1), sizeof(*m->cells));
	if (!m->cells)
		abort();
	return m;
}

/* After the metrics are read: levels and deltas not known yet, and how many environments. */
static void metrics_done(struct fw_series *s)
{
	for (int i = 0; i < s->nmetrics; i++)
		for (int c = 0; c < s->ncommits; c++) {
			s->metrics[i].cells[c].median = NAN;     /* fw_series_levels */
			s->metrics[i].cells[c].delta_pct = NAN;  /* the analysis' (an_apply) */
		}
	/* Distinct environments: metrics are sorted by name then env, so count per name run. */
	s->nenvs = s->nmetrics ? 1 : 0;
	for (int i = 1; i < s->nmetrics; i++)
		if (!strcmp(s->metrics[i].id, s->metrics[i - 1].id))
			s->nenvs = 2;
}

static int load_metrics(sqlite3 *db, struct fw_series *s, const struct fw_series_only *only, struct strbuf *err)
{
	sqlite3_stmt *st = NULL;
	struct fw_metric *m = NULL;
	int rc, ret = -1, last = 0;

	if (only && !only->npos)
		return 0;  /* the commits only */
	if (sqlite3_prepare_v2(db, sql_samples, -1, &st, NULL) != SQLITE_OK)
		goto dberr;
	sqlite3_bind_int64(st, 1, s->id);
	sqlite3_bind_int(st, 2, s->from);
	sqlite3_bind_int(st, 3, s->to);
	sqlite3_bind_int(st, 4, only && only->npos > 0 ? only->pos[0] : -1);
	sqlite3_bind_int(st, 5, only && only->npos > 1 ? only->pos[1] : only && only->npos > 0 ? only->pos[0] : -1);
	if (only && only->metric_key)
		sqlite3_bind_text(st, 6, only->metric_key, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int ci = commit_index(s, sqlite3_column_int64(st, 0), &last);

		if (ci < 0)
			continue;
		if (!m || strcmp(m->workload, ctext(st, 3)) || strcmp(m->variant, ctext(st, 4)) ||
		    strcmp(m->metric, ctext(st, 5)) || strcmp(m->env, ctext(st, 2)))
			m = add_metric(s, st);
		if (sqlite3_column_int(st, 9))
			m->cells[ci].errors++;
		else if (sqlite3_column_type(st, 10) != SQLITE_NULL)
			cell_add(&m->cells[ci], sqlite3_column_double(st, 10), sqlite3_column_int64(st, 1));
	}
	if (rc != SQLITE_DONE)
		goto dberr;
	metrics_done(s);
	ret = 0;
	goto cleanup;
dberr:
	strbuf_addf(err, "%s", sqlite3_errmsg(db));
cleanup:
	sqlite3_finalize(st);
	return ret;
}

int fw_series_revisions(sqlite3 *db, const char *name, int **revs)
{
	sqlite3_stmt *st = NULL;
	int n = 0, alloc = 0, rc;

	*revs = NULL;
	if (sqlite3_prepare_v2(db, "SELECT revision FROM series WHERE name = ?1 ORDER BY revision",
			       -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		FW_ALLOC_GROW(*revs, n + 1, alloc);
		(*revs)[n++] = sqlite3_column_int(st, 0);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? n : -1;
}

int fw_series_load(sqlite3 *db, const char *name, struct fw_series *s, struct strbuf *err)
{
	return fw_series_load_rev(db, name, 0, s, err);
}

int fw_series_load_rev(sqlite3 *db, const char *name, int revision, struct fw_series *s,
		       struct strbuf *err)
{
	return fw_series_load_window(db, name, revision, 0, -1, s, err);
}

/* The revision's commit count and first and last positions into s. */
static int load_span(sqlite3 *db, struct fw_series *s)
{
	sqlite3_stmt *st = NULL;
	int ok = sqlite3_prepare_v2(db, sql_span, -1, &st, NULL) == SQLITE_OK;

	if (ok) {
		sqlite3_bind_int64(st, 1, s->id);
		ok = sqlite3_step(st) == SQLITE_ROW;
	}
	if (ok) {
		s->total_commits = sqlite3_column_int(st, 0);
		s->first_position = sqlite3_column_int(st, 1);
		s->last_position = sqlite3_column_int(st, 2);
	}
	sqlite3_finalize(st);
	return ok ? 0 : -1;
}

int fw_series_span(sqlite3 *db, const char *name, int revision, int *count, int *first, int *last)
{
	struct fw_series s = { 0 };
	sqlite3_stmt *st = NULL;
	int rc = -1;

	if (sqlite3_prepare_v2(db, sql_series, -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int(st, 2, revision > 0 ? revision : 0);
		rc = sqlite3_step(st);
		rc = rc == SQLITE_DONE ? 1 : rc == SQLITE_ROW ? 0 : -1;
		s.id = rc ? 0 : sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	if (!rc && load_span(db, &s))
		rc = -1;
	*count = s.total_commits;
	*first = s.first_position;
	*last = s.last_position;
	return rc;
}

int fw_series_load_window(sqlite3 *db, const char *name, int revision, int from, int to, struct fw_series *s,
			  struct strbuf *err)
{
	return fw_series_load_only(db, name, revision, from, to, NULL, s, err);
}

static void free_metrics(struct fw_series *s)
{
	for (int i = 0; i < s->nmetrics; i++) {
		struct fw_metric *m = &s->metrics[i];

		for (int c = 0; c < s->ncommits; c++)
			free(m->cells[c].vals);
		free(m->cells);
		free(m->workload);
		free(m->variant);
		free(m->metric);
		free(m->unit);
		free(m->direction);
		free(m->env);
	}
	free(s->metrics);
	s->metrics = NULL;
	s->nmetrics = s->ametrics = 0;
}

int fw_series_load_samples(sqlite3 *db, struct fw_series *s, const struct fw_series_only *only, struct strbuf *err)
{
	free_metrics(s);
	return load_metrics(db, s, only, err);
}

int fw_series_load_only(sqlite3 *db, const char *name, int revision, int from, int to,
			const struct fw_series_only *only, struct fw_series *s, struct strbuf *err)
{
	sqlite3_stmt *st = NULL;
	int rc, ret = -1;

	memset(s, 0, sizeof(*s));
	if (sqlite3_prepare_v2(db, sql_series, -1, &st, NULL) != SQLITE_OK)
		goto dberr;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(st, 2, revision > 0 ? revision : 0);
	rc = sqlite3_step(st);
	if (rc == SQLITE_DONE) {
		ret = 1;
		goto cleanup;
	}
	if (rc != SQLITE_ROW)
		goto dberr;
	s->id = sqlite3_column_int64(st, 0);
	s->name = xstrdup(fw_db_text(st, 1));
	s->revision = sqlite3_column_int(st, 2);
	s->base = xstrdup(fw_db_text(st, 3));
	s->watched = sqlite3_column_int(st, 4);
	sqlite3_finalize(st);
	st = NULL;
	if (load_span(db, s))
		goto dberr;
	s->window = from > s->first_position || (to >= 0 && to < s->last_position);
	s->from = from;
	s->to = to < 0 || to > s->last_position ? s->last_position : to;

	if (sqlite3_prepare_v2(db, sql_commits, -1, &st, NULL) != SQLITE_OK)
		goto dberr;
	sqlite3_bind_int64(st, 1, s->id);
	sqlite3_bind_int(st, 2, s->from);
	sqlite3_bind_int(st, 3, s->to);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct fw_commit *c;

		FW_ALLOC_GROW(s->commits, s->ncommits + 1, s->acommits);
		c = &s->commits[s->ncommits++];
		c->id = sqlite3_column_int64(st, 0);
		c->sha = xstrdup(fw_db_text(st, 1));
		c->subject = xstrdup(fw_db_text(st, 2));
		c->author = xstrdup(fw_db_text(st, 3));
		c->position = sqlite3_column_int(st, 4);
		c->parent = xstrdup(fw_db_text(st, 5));
		c->build_status = xstrdup(fw_db_text(st, 6));
		c->boot_status = xstrdup(fw_db_text(st, 7));
		c->taint = sqlite3_column_int(st, 8);
		c->nruns = sqlite3_column_int(st, 9);
		c->kernel_version = xstrdup(fw_db_text(st, 10));
	}
	if (rc != SQLITE_DONE)
		goto dberr;
	sqlite3_finalize(st);
	st = NULL;
	ret = load_metrics(db, s, only, err);
	goto cleanup;
dberr:
	strbuf_addf(err, "%s", sqlite3_errmsg(db));
	ret = -1;
cleanup:
	sqlite3_finalize(st);
	if (ret)
		fw_series_free(s);
	return ret;
}

void fw_series_free(struct fw_series *s)
{
	for (int i = 0; i < s->ncommits; i++) {
		struct fw_commit *c = &s->commits[i];

		free(c->sha);
		free(c->subject);
		free(c->author);
		free(c->parent);
		free(c->build_status);
		free(c->boot_status);
		free(c->kernel_version);
	}
	free_metrics(s);
	free(s->commits);
	free(s->name);
	free(s->base);
	memset(s, 0, sizeof(*s));
}

int fw_series_find_commit(const struct fw_series *s, const char *sha)
{
	size_t len = strlen(sha);
	int found = -1;

	for (int i = 0; i < s->ncommits; i++)
		if (!strcmp(s->commits[i].sha, sha))
			return i;
	for (int i = 0; i < s->ncommits; i++) {
		if (!strncmp(s->commits[i].sha, sha, len)) {
			if (found >= 0)
				return -2;
			found = i;
		}
	}
	return len < 4 ? -1 : found;
}

int fw_series_find_metric(const struct fw_series *s, const char *wvm, const char *env, int from)
{
	for (int i = from; i < s->nmetrics; i++) {
		const struct fw_metric *m = &s->metrics[i];
		size_t lw = strlen(m->workload), lv = strlen(m->variant);

		/* Compare field by field: the display id may be truncated. */
		if (strncmp(wvm, m->workload, lw) || wvm[lw] != '/' ||
		    strncmp(wvm + lw + 1, m->variant, lv) || wvm[lw + 1 + lv] != '/' ||
		    strcmp(wvm + lw + lv + 2, m->metric))
			continue;
		if (env && *env && strncmp(m->env, env, strlen(env)))
			continue;
		return i;
	}
	return -1;
}

int fw_series_load_metric_list(sqlite3 *db, struct fw_series *s, struct strbuf *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	free_metrics(s);
	if (sqlite3_prepare_v2(db, sql_metric_list, -1, &st, NULL) != SQLITE_OK) {
		strbuf_addf(err, "%s", sqlite3_errmsg(db));
		return -1;
	}
	sqlite3_bind_int64(st, 1, s->id);
	sqlite3_bind_int(st, 2, s->from);
	sqlite3_bind_int(st, 3, s->to);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		add_metric(s, st);
	if (rc != SQLITE_DONE)
		strbuf_addf(err, "%s", sqlite3_errmsg(db));
	sqlite3_finalize(st);
	metrics_done(s);
	return rc == SQLITE_DONE ? 0 : -1;
}
