/*
 * A 409 that says what differs (issue 56): a document whose run_id is stored
 * with other content is compared, field by field in the document's order,
 * with what the database holds of that run, and the first field that
 * differs is named ("boot.seconds"). The samples are not compared one by
 * one: past the run's own fields it is "results".
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "ingest-conflict.h"
#include "run-doc.h"
#include "stmt-cache.h"

/* What the runs row (and its commit, series and environment) holds, in the document's field order. */
static const struct {
	const char *path;  /* the document's field, a.b */
	int number;        /* compared as a number (the column is REAL or INTEGER) */
	double absent;     /* a number's value when the document leaves it out, as ingest stores it */
} fields[] = {
	{ "origin", 0, 0 }, { "created_at", 0, 0 }, { "series.name", 0, 0 }, { "series.revision", 1, 1 },
	{ "commit.sha", 0, 0 }, { "commit.position", 1, 0 }, { "environment.fingerprint", 0, 0 },
	{ "boot.status", 0, 0 }, { "boot.taint", 1, 0 }, { "boot.seconds", 1, NAN }, { "boot.qemu_cmdline", 0, 0 },
	{ "boot.kernel_cmdline", 0, 0 }, { "profile", 0, 0 }, { "boot_index", 1, 0 },
};

static const cJSON *at(const cJSON *doc, const char *path)
{
	const char *dot = strchr(path, '.');
	char first[64];

	if (!dot)
		return cJSON_GetObjectItemCaseSensitive(doc, path);
	snprintf(first, sizeof(first), "%.*s", (int)(dot - path), path);
	return cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(doc, first), dot + 1);
}

static int same(const cJSON *v, sqlite3_stmt *st, int col, int number, double absent)
{
	if (sqlite3_column_type(st, col) == SQLITE_NULL)
		return !v || cJSON_IsNull(v);
	if (number) {
		double a = cJSON_IsNumber(v) ? v->valuedouble : !v ? absent : NAN, b = sqlite3_column_double(st, col);
		return a == b;
	}
	return cJSON_IsString(v) && !strcmp(v->valuestring, (const char *)sqlite3_column_text(st, col));
}

const char *fw_ingest_first_difference(sqlite3 *db, const char *run_id, const cJSON *doc)
{
	sqlite3_stmt *st = fw_stmt_get(db, FW_CACHED(
		"SELECT r.origin, r.created_at, s.name, s.revision, c.sha, c.position, e.fingerprint, r.boot_status, "
		"r.taint, r.boot_seconds, r.qemu_cmdline, r.kernel_cmdline, r.profile, r.boot_index "
		"FROM runs r JOIN commits c ON c.id = r.commit_id JOIN series s ON s.id = c.series_id "
		"JOIN environments e ON e.id = r.env_id WHERE r.run_id = ?"));
	const char *diff = "results";  /* the run's own fields agree: its results, samples or counters differ */

	if (!st)
		return NULL;
	sqlite3_bind_text(st, 1, run_id, -1, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_ROW) {
		fw_stmt_done(st);
		return NULL;
	}
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		if (!same(at(doc, fields[i].path), st, (int)i, fields[i].number, fields[i].absent)) {
			diff = fields[i].path;
			break;
		}
	fw_stmt_done(st);
	return diff;
}
