/* A series' samples one row at a time (schema/sample-cursor.h). */
#include <stdlib.h>
#include "fw-db.h"
#include "sample-cursor.h"
#include "stmt-cache.h"
#include "xalloc.h"

struct fw_sample_cursor {
	sqlite3 *db;
	sqlite3_stmt *st;
};

/*
 * The order is the indexes' (commits_by_position, runs_by_commit, results'
 * UNIQUE key, samples' primary key), so SQLite streams it without sorting: a
 * metric-major order sorted every sample of the series first (a temp B-tree
 * spilled to disk, 27 MB/s at 10,000 commits).
 */
static const char sql_samples[] =
	"SELECT c.position, c.sha, res.workload, res.variant, res.metric, res.unit, res.direction,"
	" e.fingerprint, ru.id, s.value"
	" FROM runs ru JOIN commits c ON c.id = ru.commit_id"
	" JOIN environments e ON e.id = ru.env_id"
	" JOIN results res ON res.run_id = ru.id"
	" JOIN samples s ON s.result_id = res.id"
	" WHERE c.series_id = ?1 AND c.position BETWEEN ?2 AND ?3 AND res.error IS NULL"
	" ORDER BY c.position, c.id, ru.id, res.workload, res.variant, res.metric, s.round";

struct fw_sample_cursor *fw_sample_cursor_open(const char *dbpath, long long series_id, int from, int to,
					       struct strbuf *err)
{
	struct fw_sample_cursor *c = xcalloc(1, sizeof(*c));

	c->db = fw_db_open_existing(dbpath, err);
	if (!c->db)
		goto fail;
	if (sqlite3_prepare_v2(c->db, sql_samples, -1, &c->st, NULL) != SQLITE_OK) {
		strbuf_addf(err, "%s", sqlite3_errmsg(c->db));
		goto fail;
	}
	sqlite3_bind_int64(c->st, 1, series_id);
	sqlite3_bind_int(c->st, 2, from);
	sqlite3_bind_int(c->st, 3, to);
	return c;
fail:
	fw_sample_cursor_close(c);
	return NULL;
}

int fw_sample_cursor_next(struct fw_sample_cursor *c, struct fw_sample_row *row, struct strbuf *err)
{
	int rc = sqlite3_step(c->st);

	if (rc == SQLITE_DONE)
		return 0;
	if (rc != SQLITE_ROW) {
		strbuf_addf(err, "%s", sqlite3_errmsg(c->db));
		return -1;
	}
	row->position = sqlite3_column_int(c->st, 0);
	row->sha = fw_db_text(c->st, 1);
	row->workload = fw_db_text(c->st, 2);
	row->variant = fw_db_text(c->st, 3);
	row->metric = fw_db_text(c->st, 4);
	row->unit = fw_db_text(c->st, 5);
	row->direction = fw_db_text(c->st, 6);
	row->env = fw_db_text(c->st, 7);
	row->run = sqlite3_column_int64(c->st, 8);
	row->value = sqlite3_column_double(c->st, 9);
	return 1;
}

void fw_sample_cursor_close(struct fw_sample_cursor *c)
{
	if (!c)
		return;
	sqlite3_finalize(c->st);
	fw_db_close(c->db);
	free(c);
}
