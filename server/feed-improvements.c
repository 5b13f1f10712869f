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
#include <string.h>
#include "routes.h"
#include "analysis.h"
#include "run-doc.h"
#include "store.h"
#include "ui.h"
#include "store-analysis.h"

#define FEED_MAX_SERIES 50

/* The subject of commit_id in the analysis' commits ("" when missing). */
static const char *subject_of(const cJSON *an, double commit_id)
{
	const cJSON *c;

	cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(an, "commits"))
		if (fw_json_num(c, "id", -1) == commit_id)
			return fw_json_str(c, "subject", "");
	return "";
}

static void copy_str(cJSON *to, const cJSON *from, const char *k, const char *dflt)
{
	cJSON_AddStringToObject(to, k, fw_json_str(from, k, dflt));
}

/* Appends the improvements of one analysis to out; how many are in out now. */
static int add_rows(cJSON *out, const cJSON *an, const char *when, int max)
{
	static const char *const families[] = { "rows", "combined" };
	int n = cJSON_GetArraySize(out);

	for (int f = 0; f < 2; f++) {
		const cJSON *r;

		cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(an, families[f])) {
			cJSON *g;

			if (n >= max)
				return n;
			if (strcmp(fw_json_str(r, "against", ""), "parent") ||
			    strcmp(fw_json_str(r, "verdict", ""), "improvement"))
				continue;
			g = cJSON_CreateObject();
			cJSON_AddNumberToObject(g, "id", 0);
			copy_str(g, an, "series", "");
			cJSON_AddNumberToObject(g, "revision", fw_json_num(an, "revision", 1));
			copy_str(g, r, "sha", "");
			cJSON_AddStringToObject(g, "subject", subject_of(an, fw_json_num(r, "commit_id", -1)));
			copy_str(g, r, "env_fingerprint", FW_ENV_COMBINED);
			copy_str(g, r, "workload", "");
			copy_str(g, r, "variant", "");
			copy_str(g, r, "metric", "");
			cJSON_AddNumberToObject(g, "delta_pct", fw_json_num(r, "delta_pct", 0));
			cJSON_AddStringToObject(g, "status", "improvement");
			cJSON_AddStringToObject(g, "status_by", "analysis");
			cJSON_AddStringToObject(g, "status_at", when);
			cJSON_AddStringToObject(g, "created_at", when);
			cJSON_AddItemToArray(out, g);
			n++;
		}
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
	cJSON *an = fw_ui_analysis_part(t->db, s->name, s->revision, &decided);

	if (an)
		t->n = add_rows(t->out, an, s->last_ingest ? s->last_ingest : "1970-01-01T00:00:00Z", t->max);
	cJSON_Delete(an);
	return t->n >= t->max;
}

int fw_feed_improvements(sqlite3 *db, const char *series, int max, cJSON *out)
{
	struct feed_rows t = { .db = db, .out = out, .max = max };

	if (max <= 0)
		return 0;
	return fw_store_newest_series(db, series, FEED_MAX_SERIES, series_rows, &t) ? -1 : t.n;
}
