/*
 * Storing the regressions an analysis finds. A regression is a row of an
 * analysed series compared with its parent whose verdict is "regression".
 * Storing is idempotent (the table's UNIQUE key); one that a later commit
 * undoes is marked fixed by "analysis". A series sharded over hosts also has
 * combined rows (van Elteren over the hosts); a combined regression is stored
 * with env_fingerprint FW_ENV_COMBINED, since with a share of the boots each
 * host alone is often unsure where the combination is not.
 *
 * The detection streams the stored rows (regressions-track.h), one parsed at
 * a time, and on a patched history only those from where it was patched: a
 * year of history is not read whole, nor held, after each new boot.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis-internal.h"
#include "fw-db.h"
#include "inflight.h"
#include "regressions-db.h"
#include "regressions-track.h"
#include "store-analysis.h"
#include "xalloc.h"

static void combined_all(struct fw_reg_track *t, const struct fw_an *an)
{
	for (size_t i = 0; i < an->ncombined; i++) {
		const struct fw_an_combined *c = &an->combined[i];

		if (!strcmp(c->verdict, "regression"))
			fw_reg_track_combined(t, c->commit_id, c->position, c->workload, c->variant, c->params,
					      c->metric, c->delta_pct, c->q);
	}
}

static int cmp_row_position(const void *pa, const void *pb)
{
	const struct fw_an_row *a = *(const struct fw_an_row *const *)pa, *b = *(const struct fw_an_row *const *)pb;

	if (a->position != b->position)
		return (a->position > b->position) - (a->position < b->position);
	return (a > b) - (a < b);  /* the analysis' own order within a commit */
}

int fw_regressions_update(sqlite3 *db, const struct fw_an *an, struct strbuf *err)
{
	struct fw_reg_track *t = fw_reg_track_new(an->series_id, -1);
	const struct fw_an_row **order = xmalloc((an->nrows + 1) * sizeof(*order));
	int ret;

	combined_all(t, an);
	for (size_t i = 0; i < an->nrows; i++)
		order[i] = &an->rows[i];
	qsort(order, an->nrows, sizeof(*order), cmp_row_position);
	for (size_t i = 0; i < an->nrows; i++) {
		const struct fw_an_row *r = order[i];
		struct fw_reg_row rr = { r->commit_id, r->position, r->env, r->workload, r->variant, r->params,
					 r->metric, r->higher_is_better, !strcmp(r->verdict, "regression"),
					 r->a.median, r->b.median, r->min_effect_pct, r->delta_pct, r->q };

		if (r->against == FW_AGAINST_PARENT)
			fw_reg_track_row(t, &rr);
	}
	ret = fw_reg_track_store(t, db, err);
	free(order);
	fw_reg_track_free(t);
	return ret;
}

static double num_or_nan(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);

	return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

/* One stored row (its JSON body) to the tracker when it compares a commit with its parent. */
static int stream_row(const char *body, void *ctx)
{
	cJSON *o = cJSON_Parse(body);
	struct fw_reg_row r;

	if (!o)
		return 1;  /* a damaged row: this refresh stops, the next analysis rewrites it */
	if (!strcmp(fw_json_str(o, "against", ""), "parent")) {
		r = (struct fw_reg_row){ (long long)fw_json_num(o, "commit_id", 0), (int)fw_json_num(o, "position", 0),
					 fw_json_str(o, "env_fingerprint", ""), fw_json_str(o, "workload", ""),
					 fw_json_str(o, "variant", ""), fw_json_str(o, "params", ""),
					 fw_json_str(o, "metric", ""),
					 cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "higher_is_better")),
					 !strcmp(fw_json_str(o, "verdict", ""), "regression"),
					 num_or_nan(cJSON_GetObjectItemCaseSensitive(o, "a"), "median"),
					 num_or_nan(cJSON_GetObjectItemCaseSensitive(o, "b"), "median"),
					 num_or_nan(o, "min_effect_pct"), num_or_nan(o, "delta_pct"), num_or_nan(o, "q") };
		fw_reg_track_row(ctx, &r);
	}
	cJSON_Delete(o);
	return 0;
}

/* The open (new, acknowledged) stored regressions below from: where their rows are. */
struct held {
	const struct fw_an *head;
	int from;
	struct held_row {
		int position;
		char metric_key[3 * FW_DOC_MAX_NAME + 3];
	} *r;
	size_t n, alloc;
};

static int position_of(const struct fw_an *head, long long commit_id)
{
	for (size_t i = 0; i < head->ncommits; i++)
		if (head->commits[i].id == commit_id)
			return head->commits[i].position;
	return -1;
}

static int held_add(const struct fw_regression_row *g, void *ctx)
{
	struct held *h = ctx;
	int pos;

	if (strcmp(g->status, "new") && strcmp(g->status, "acknowledged"))
		return 0;
	pos = position_of(h->head, g->commit_id);
	if (pos < 0 || pos >= h->from)
		return 0;
	FW_ALLOC_GROW(h->r, h->n + 1, h->alloc);
	h->r[h->n].position = pos;
	snprintf(h->r[h->n].metric_key, sizeof(h->r[h->n].metric_key), "%s/%s/%s", g->workload, g->variant, g->metric);
	h->n++;
	return 0;
}

static int no_history(const struct fw_regression_change *c, void *ctx)
{
	(void)c;
	(void)ctx;
	return 0;
}

static int cmp_held(const void *pa, const void *pb)
{
	const struct held_row *a = pa, *b = pb;

	if (a->position != b->position)
		return (a->position > b->position) - (a->position < b->position);
	return strcmp(a->metric_key, b->metric_key);
}

/*
 * Feeds t the rows the refresh of head rests on: below from, those of the
 * open stored regressions (a later row may undo them); from there, every row.
 * 1 fed, 0 head is no longer the stored analysis, -1 with err.
 */
static int feed_rows(sqlite3 *db, const struct fw_an *head, int from, struct fw_reg_track *t, struct strbuf *err)
{
	struct held h = { head, from, NULL, 0, 0 };
	struct fw_store_cache_part rest = { from, -1, NULL, 0 };
	int ok = 1;

	if (from > 0 && fw_regressions_read(db, head->series, NULL, 0, held_add, no_history, &h, err)) {
		free(h.r);
		return -1;
	}
	if (h.n)
		qsort(h.r, h.n, sizeof(*h.r), cmp_held);
	for (size_t i = 0; ok && i < h.n; i++) {
		struct fw_store_cache_part one = { h.r[i].position, h.r[i].position, h.r[i].metric_key, 0 };

		if (i && !cmp_held(&h.r[i - 1], &h.r[i]))
			continue;
		ok = fw_analysis_rows_each(db, head, &one, stream_row, t);
	}
	free(h.r);
	return ok && fw_analysis_rows_each(db, head, &rest, stream_row, t);
}

/* The regressions of head's analysis streamed from its stored rows: 0 (also when it was replaced meanwhile), -1. */
static int update_streamed(sqlite3 *db, const struct fw_an *head, struct strbuf *err)
{
	int from = fw_analysis_regressions_from(head), fed;
	struct fw_reg_track *t = fw_reg_track_new(head->series_id, from);

	combined_all(t, head);
	/* one snapshot for the reads; ended before the write (see fw_regressions_refresh) */
	if (fw_db_exec(db, "BEGIN", err)) {
		fw_reg_track_free(t);
		return -1;
	}
	fed = feed_rows(db, head, from, t, err);
	fw_db_exec(db, "COMMIT", NULL);
	if (fed == 1 && fw_reg_track_store(t, db, err) < 0)
		fed = -1;
	fw_reg_track_free(t);
	return fed < 0 ? -1 : fed ? 0 : 1;
}

/*
 * Analyses the named series, or every series (newest revision), storing
 * regressions. The names first, their statement finalized, then each series:
 * a statement left open would pin this connection's read snapshot, and in WAL
 * mode the BEGIN IMMEDIATE of fw_regressions_update() on a snapshot that
 * another connection has since committed past fails at once with SQLITE_BUSY
 * (no busy wait helps): the server's detection thread and a GET refresh concurrently.
 */
int fw_regressions_refresh(sqlite3 *db, const char *series, const struct fw_analysis_opts *o,
			   struct strbuf *err)
{
	char **names;
	int n, ret = fw_store_series_names(db, series, &names, &n, err);

	for (int i = 0; i < n; i++) {
		struct fw_an *head = NULL;
		char flight[FW_REGS_FLIGHT_MAX];
		struct fw_series_key *k = NULL;
		int owned = 0, rc = 0;

		/* a GET after a GET: stored from this very result already; one refresh at a time */
		while (!owned && !ret) {
			fw_series_key_free(k);
			if (fw_series_key_get(db, names[i], o, &k, err))
				ret = -1;
			else if (fw_analysis_regressions_current(db, k, o, flight))
				break;
			else
				owned = !*flight || fw_inflight_begin(flight);
		}
		if (owned && o && !o->use_cache) {  /* nothing stored to stream: the whole result */
			if (fw_analysis_series_at(db, names[i], k, o, &head, err) ||
			    (!head->stale && fw_regressions_update(db, head, err) < 0))
				ret = -1;
			if (*flight)
				fw_inflight_end(flight);
		} else if (owned) {
			if (fw_analysis_series_head(db, names[i], k, o, &head, err))
				ret = -1;
			/* an older analysis (a page's, while the newest is computed): its regressions are stored */
			else if (!head->stale && (rc = update_streamed(db, head, err)) < 0)
				ret = -1;
			else if (!rc)  /* 1: replaced while read; the next refresh stores from the new one */
				fw_analysis_regressions_stored(db, head);
			if (*flight)
				fw_inflight_end(flight);
		}
		fw_an_free(head);
		fw_series_key_free(k);
		free(names[i]);
	}
	free(names);
	return ret;
}
