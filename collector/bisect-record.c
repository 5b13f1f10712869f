/* A bisect's record, written to the series' database as the bisect goes. */
#include "bisect-record.h"
#include "bisect-db.h"
#include "fw-db.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Writes the record's state; err says why it could not. */
static int write_record(const struct fw_bisect_record_log *l, struct fw_bisect_record *r, struct strbuf *err)
{
	sqlite3 *db = fw_db_open(l->db_path, err);
	char *steps = cJSON_PrintUnformatted(l->steps);
	int ret = -1;

	r->id = l->id;
	r->steps = steps;
	if (db && !fw_bisect_db_update(db, r, err))
		ret = 0;
	free(steps);
	fw_db_close(db);
	return ret;
}

void fw_bisect_record_begin(struct fw_bisect_record_log *l, const char *db_path, const char *series,
			    const char *metric, const char *direction, const char *good, const char *bad)
{
	struct strbuf err = STRBUF_INIT;
	char now[32], w[320], *v, *m;
	sqlite3 *db;

	l->db_path = db_path;
	l->id = -1;
	l->steps = cJSON_CreateArray();
	snprintf(w, sizeof(w), "%s", metric);
	v = strchr(w, '/');
	m = v ? strchr(v + 1, '/') : NULL;
	if (!m)
		return;
	*v++ = '\0';
	*m++ = '\0';
	fw_now_iso(now);
	struct fw_bisect_record r = { .series = series, .workload = w, .variant = v, .metric = m,
				      .direction = direction, .good_sha = good, .bad_sha = bad, .started_at = now };
	if ((db = fw_db_open(db_path, &err)) && fw_bisect_db_abandon(db, &r, &err) >= 0)
		l->id = fw_bisect_db_begin(db, &r, &err);
	if (l->id < 0)
		fprintf(stderr, "bisect: the record is not stored: %s\n", err.buf);
	fw_db_close(db);
	strbuf_release(&err);
}

void fw_bisect_record_step(struct fw_bisect_record_log *l, const char *sha, int position, long long boots,
			   const char *verdict, long long total_boots, double seconds)
{
	struct strbuf err = STRBUF_INIT;
	cJSON *s = cJSON_CreateObject();

	cJSON_AddStringToObject(s, "sha", sha);
	cJSON_AddNumberToObject(s, "position", position);
	cJSON_AddNumberToObject(s, "boots", (double)boots);
	cJSON_AddStringToObject(s, "verdict", verdict);
	cJSON_AddItemToArray(l->steps, s);
	struct fw_bisect_record r = { .state = "running", .boots = total_boots, .seconds = seconds };
	if (l->id >= 0 && write_record(l, &r, &err))
		fprintf(stderr, "bisect: the record is not updated: %s\n", err.buf);
	strbuf_release(&err);
}

void fw_bisect_record_end(struct fw_bisect_record_log *l, const char *state, const char *culprit, const char *lo,
			  const char *hi, const char *why, long long total_boots, double seconds)
{
	struct strbuf err = STRBUF_INIT;
	char now[32];

	fw_now_iso(now);
	struct fw_bisect_record r = { .state = state, .culprit_sha = culprit, .range_lo_sha = lo, .range_hi_sha = hi,
				      .why = why, .boots = total_boots, .seconds = seconds, .finished_at = now };
	if (l->id >= 0 && write_record(l, &r, &err))
		fprintf(stderr, "bisect: the record is not updated: %s\n", err.buf);
	else if (l->id >= 0)
		printf("bisect: stored as bisect %lld\n", l->id);
	cJSON_Delete(l->steps);
	l->steps = NULL;
	strbuf_release(&err);
}

void fw_bisect_record_move(const struct fw_bisect_record_log *l, const char *workload, const char *variant,
			   const char *metric)
{
	struct strbuf err = STRBUF_INIT;
	sqlite3 *db;
	int moved = -1;

	if (l->id < 0)
		return;
	if ((db = fw_db_open(l->db_path, &err)))
		moved = fw_bisect_db_move_regressions(db, l->id, workload, variant, metric, &err);
	if (moved < 0)
		fprintf(stderr, "bisect: %s\n", err.buf);
	else if (moved)
		printf("bisect: %d stored regression(s) of %s/%s/%s moved to the culprit\n", moved, workload, variant,
		       metric);
	fw_db_close(db);
	strbuf_release(&err);
}
