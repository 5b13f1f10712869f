/*
 * The improvements an Atom feed lists beside the stored regressions
 * (server/api-feed.c): the rows of the newest analysis of a series revision
 * whose verdict against the parent is "improvement" (per environment, and the
 * combined ones). They are not stored (no lifecycle: nobody triages a
 * speed-up), so each is shaped like a fw_regressions_list entry with status
 * "improvement" and the time of the series' newest run, and the feed writes it
 * like a regression. Bounded: the series with the newest runs first, at most
 * FEED_MAX_SERIES of them, at most `max` entries.
 */
#include <math.h>
#include <string.h>
#include "routes.h"
#include "analysis.h"
#include "run-doc.h"
#include "store.h"
#include "ui.h"
#include "store-analysis.h"

#define FEED_MAX_SERIES 50

/* The subject of commit_id in the analysis' commits ("" when missing). */
static const char *subject_of(const struct fw_an *an, long long commit_id)
{
	for (size_t i = 0; i < an->ncommits; i++)
		if (an->commits[i].id == commit_id)
			return an->commits[i].subject;
	return "";
}

/* An improvement shaped like a fw_regressions_list entry. */
static cJSON *entry(const struct fw_an *an, long long commit_id, const char *sha, const char *env,
		    const char *workload, const char *variant, const char *metric, double delta_pct, const char *when)
{
	cJSON *g = cJSON_CreateObject();

	cJSON_AddNumberToObject(g, "id", 0);
	cJSON_AddStringToObject(g, "series", an->series);
	cJSON_AddNumberToObject(g, "revision", an->revision == FW_AN_NA ? 1 : an->revision);
	cJSON_AddStringToObject(g, "sha", sha);
	cJSON_AddStringToObject(g, "subject", subject_of(an, commit_id));
	cJSON_AddStringToObject(g, "env_fingerprint", env);
	cJSON_AddStringToObject(g, "workload", workload);
	cJSON_AddStringToObject(g, "variant", variant);
	cJSON_AddStringToObject(g, "metric", metric);
	cJSON_AddNumberToObject(g, "delta_pct", isnan(delta_pct) ? 0 : delta_pct);
	cJSON_AddStringToObject(g, "status", "improvement");
	cJSON_AddStringToObject(g, "status_by", "analysis");
	cJSON_AddStringToObject(g, "status_at", when);
	cJSON_AddStringToObject(g, "created_at", when);
	return g;
}

/* Where the improvement is, for its links' window (ui_reg_window): its position and the revision's span. */
static cJSON *at_position(cJSON *g, const struct fw_an *an, int position)
{
	int first = position, last = position;

	for (size_t i = 0; i < an->ncommits; i++) {
		first = an->commits[i].position < first ? an->commits[i].position : first;
		last = an->commits[i].position > last ? an->commits[i].position : last;
	}
	cJSON_AddNumberToObject(g, "position", position);
	cJSON_AddNumberToObject(g, "first_position", first);
	cJSON_AddNumberToObject(g, "last_position", last);
	return g;
}

/* Appends the improvements of one analysis to out; how many are in out now. */
static int add_rows(cJSON *out, const struct fw_an *an, const char *when, int max)
{
	int n = cJSON_GetArraySize(out);

	for (size_t i = 0; i < an->nrows && n < max; i++) {
		const struct fw_an_row *r = &an->rows[i];

		if (r->against != FW_AGAINST_PARENT || r->v != FW_IMPROVEMENT)
			continue;
		cJSON_AddItemToArray(out, at_position(entry(an, r->commit_id, r->sha, r->env, r->workload, r->variant,
							    r->metric, r->delta_pct, when), an, r->position));
		n++;
	}
	for (size_t i = 0; i < an->ncombined && n < max; i++) {
		const struct fw_an_combined *c = &an->combined[i];

		if (strcmp(c->verdict, "improvement"))
			continue;
		cJSON_AddItemToArray(out, at_position(entry(an, c->commit_id, c->sha, FW_ENV_COMBINED, c->workload,
							    c->variant, c->metric, c->delta_pct, when), an, c->position));
		n++;
	}
	return n;
}

struct feed_rows {
	sqlite3 *db;
	cJSON *out;
	int n, max;
};

static int series_rows(const struct fw_store_series_brief *s, void *ctx)
{
	struct feed_rows *t = ctx;
	static const struct fw_store_cache_part decided = { -1, -1, NULL, 1 };  /* improvements only */
	struct fw_an *an = fw_ui_analysis_part(t->db, s->name, s->revision, &decided);

	if (an)
		t->n = add_rows(t->out, an, s->last_ingest ? s->last_ingest : "1970-01-01T00:00:00Z", t->max);
	fw_an_free(an);
	return t->n >= t->max;
}

int fw_feed_improvements(sqlite3 *db, const char *series, int max, cJSON *out)
{
	struct feed_rows t = { .db = db, .out = out, .max = max };

	if (max <= 0)
		return 0;
	return fw_store_newest_series(db, series, FEED_MAX_SERIES, series_rows, &t) ? -1 : t.n;
}
