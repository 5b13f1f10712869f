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
#include "ui.h"

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

int fw_feed_improvements(sqlite3 *db, const char *series, int max, cJSON *out)
{
	sqlite3_stmt *st = NULL;
	int n = 0;

	if (sqlite3_prepare_v2(db,
			       "SELECT s.name, s.revision, (SELECT max(r.ingested_at) FROM runs r JOIN commits c "
			       "ON c.id = r.commit_id WHERE c.series_id = s.id) AS t FROM series s "
			       "WHERE (?1 IS NULL OR s.name = ?1) AND s.revision = "
			       "(SELECT max(revision) FROM series x WHERE x.name = s.name) ORDER BY t DESC LIMIT ?2",
			       -1, &st, NULL) != SQLITE_OK)
		return -1;
	if (series)
		sqlite3_bind_text(st, 1, series, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(st, 2, FEED_MAX_SERIES);
	while (n < max && sqlite3_step(st) == SQLITE_ROW) {
		const char *when = (const char *)sqlite3_column_text(st, 2);
		cJSON *an = fw_ui_analysis(db, (const char *)sqlite3_column_text(st, 0), sqlite3_column_int(st, 1));

		if (an)
			n = add_rows(out, an, when ? when : "1970-01-01T00:00:00Z", max);
		cJSON_Delete(an);
	}
	sqlite3_finalize(st);
	return n;
}
