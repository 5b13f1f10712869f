/*
 * The cached analysis of a series, row by row (migration 0010): the head in
 * analysis_cache, the rows in analysis_rows with their position, metric and
 * whether they are decided, so a page of a long history reads a window or a
 * metric through an index instead of parsing the whole result.
 */
#include <limits.h>
#include "fw-db.h"
#include "store-analysis.h"

/* A write of our own, or inside the caller's transaction: 1 when we began one. */
static int begin_own(sqlite3 *db, int *own)
{
	*own = !fw_db_in_transaction(db);
	return *own ? fw_db_begin(db, NULL) : 0;
}

static int put_rows(sqlite3 *db, const char *key, int (*next)(struct fw_store_cache_row *row, void *ctx),
		    void *ctx)
{
	sqlite3_stmt *st = NULL;
	struct fw_store_cache_row row;
	int seq = 0, rc = SQLITE_DONE;

	if (sqlite3_prepare_v2(db, "INSERT INTO analysis_rows(key, seq, position, metric_key, decided, body) "
			       "VALUES (?1, ?2, ?3, ?4, ?5, ?6)", -1, &st, NULL) != SQLITE_OK)
		return -1;
	while (rc == SQLITE_DONE && next(&row, ctx) == 1) {
		sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
		sqlite3_bind_int(st, 2, seq++);
		sqlite3_bind_int(st, 3, row.position);
		sqlite3_bind_text(st, 4, row.metric_key, -1, SQLITE_STATIC);
		sqlite3_bind_int(st, 5, row.decided);
		sqlite3_bind_text(st, 6, row.body, -1, SQLITE_STATIC);
		rc = sqlite3_step(st);
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

int fw_store_cache_put(sqlite3 *db, const char *key, const char *hash, const char *head, const char *now,
			long long compute_ms, int (*next)(struct fw_store_cache_row *row, void *ctx), void *ctx)
{
	sqlite3_stmt *st = NULL, *del = NULL;
	int own, ok = 0;

	if (begin_own(db, &own))
		return -1;
	if (sqlite3_prepare_v2(db, "DELETE FROM analysis_rows WHERE key = ?1", -1, &del, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "INSERT INTO analysis_cache(key, data_hash, body, computed_at, compute_ms) "
			       "VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT(key) DO UPDATE SET "
			       "data_hash = excluded.data_hash, body = excluded.body, computed_at = excluded.computed_at, "
			       "compute_ms = excluded.compute_ms, regressions_stored = 0", -1, &st, NULL) != SQLITE_OK)
		goto done;
	sqlite3_bind_text(del, 1, key, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, hash, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, head, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, now, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 5, compute_ms);
	ok = sqlite3_step(del) == SQLITE_DONE && sqlite3_step(st) == SQLITE_DONE && !put_rows(db, key, next, ctx);
done:
	sqlite3_finalize(del);
	sqlite3_finalize(st);
	if (own && fw_db_end(db, ok, NULL))
		ok = 0;
	return ok ? 0 : -1;
}

/*
 * The rows of part: by metric through (key, metric_key, position, seq), the
 * decided ones through their partial index, else a range of the key.
 * INDEXED BY: without statistics of this table the planner took the key's
 * range for a metric too, reading every row.
 */
static int get_rows(sqlite3 *db, const char *key, const struct fw_store_cache_part *p,
		    int (*each)(const char *body, void *ctx), void *ctx)
{
	static const struct fw_store_cache_part all = { -1, -1, NULL, 0 };
	sqlite3_stmt *st = NULL;
	int rc;

	if (!p)
		p = &all;
	rc = sqlite3_prepare_v2(db, p->metric_key ?
				"SELECT body FROM analysis_rows INDEXED BY analysis_rows_by_metric "
				"WHERE key = ?1 AND metric_key = ?4 "
				"AND position BETWEEN ?2 AND ?3 AND (?5 = 0 OR decided = 1) ORDER BY position, seq" :
				p->decided_only ?  /* a few rows of the key's: their own index (migration 0013) */
				"SELECT body FROM analysis_rows INDEXED BY analysis_rows_decided WHERE key = ?1 "
				"AND decided = 1 AND position BETWEEN ?2 AND ?3 AND ?5 = 1 ORDER BY position, seq" :
				"SELECT body FROM analysis_rows WHERE key = ?1 "
				"AND position BETWEEN ?2 AND ?3 AND ?5 = 0 ORDER BY position, seq",
				-1, &st, NULL);
	if (rc != SQLITE_OK)
		return -1;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 2, p->from < 0 ? INT_MIN : p->from);
	sqlite3_bind_int(st, 3, p->to < 0 ? INT_MAX : p->to);
	if (p->metric_key)
		sqlite3_bind_text(st, 4, p->metric_key, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 5, p->decided_only);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && !each(fw_db_text(st, 0), ctx))
		;
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

int fw_store_cache_get(sqlite3 *db, const char *key, const char *hash, const struct fw_store_cache_part *part,
		       struct strbuf *head, int (*each)(const char *body, void *ctx), void *ctx)
{
	sqlite3_stmt *st = NULL;
	int own = !fw_db_in_transaction(db), found = 0;

	/* head and rows from one snapshot: a writer may replace both in between */
	if (own && fw_db_exec(db, "BEGIN", NULL))
		return 0;
	if (sqlite3_prepare_v2(db, head ? "SELECT body FROM analysis_cache WHERE key = ?1 AND (?2 IS NULL OR data_hash = ?2)"
				   : "SELECT 1 FROM analysis_cache WHERE key = ?1 AND (?2 IS NULL OR data_hash = ?2)",
			       -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
		if (hash)
			sqlite3_bind_text(st, 2, hash, -1, SQLITE_STATIC);
		if (sqlite3_step(st) == SQLITE_ROW) {
			if (head)
				strbuf_addstr(head, fw_db_text(st, 0));
			found = 1;
		}
	}
	sqlite3_finalize(st);
	if (found && get_rows(db, key, part, each, ctx))
		found = 0;
	if (own)
		fw_db_exec(db, "COMMIT", NULL);
	return found;
}

int fw_store_cache_regressions_stored(sqlite3 *db, const char *key, const char *hash)
{
	sqlite3_stmt *st = NULL;
	int yes = 0;

	if (sqlite3_prepare_v2(db, "SELECT regressions_stored FROM analysis_cache WHERE key = ?1 AND data_hash = ?2",
			       -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, hash, -1, SQLITE_STATIC);
		yes = sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) == 1;
	}
	sqlite3_finalize(st);
	return yes;
}

void fw_store_cache_mark_regressions(sqlite3 *db, const char *key, const char *hash)
{
	sqlite3_stmt *st = NULL;

	if (sqlite3_prepare_v2(db, "UPDATE analysis_cache SET regressions_stored = 1 WHERE key = ?1 AND data_hash = ?2",
			       -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, hash, -1, SQLITE_STATIC);
		sqlite3_step(st);
	}
	sqlite3_finalize(st);
}

long long fw_store_cache_compute_ms(sqlite3 *db, const char *key)
{
	sqlite3_stmt *st = NULL;
	long long ms = -1;

	if (sqlite3_prepare_v2(db, "SELECT compute_ms FROM analysis_cache WHERE key = ?1", -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
		if (sqlite3_step(st) == SQLITE_ROW)
			ms = sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	return ms;
}

int fw_store_cache_patch(sqlite3 *db, const char *key, const char *old_hash, const char *new_hash,
			 const char *head, const char *now, long long compute_ms, const int *ranges, size_t n,
			 int (*next)(struct fw_store_cache_row *row, void *ctx), void *ctx)
{
	sqlite3_stmt *st = NULL, *del = NULL;
	int own, ok = 0;

	if (begin_own(db, &own))
		return -1;
	/* compare and swap: another writer may have stored a newer analysis since it was read */
	if (sqlite3_prepare_v2(db, "UPDATE analysis_cache SET data_hash = ?3, body = ?4, computed_at = ?5, "
			       "compute_ms = ?6, regressions_stored = 0 WHERE key = ?1 AND data_hash = ?2",
			       -1, &st, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "DELETE FROM analysis_rows WHERE key = ?1 AND position BETWEEN ?2 AND ?3",
			       -1, &del, NULL) != SQLITE_OK)
		goto done;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, old_hash, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, new_hash, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, head, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, now, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 6, compute_ms);
	if (sqlite3_step(st) != SQLITE_DONE || sqlite3_changes(db) != 1)
		goto done;
	for (size_t i = 0; i < n; i++) {
		sqlite3_bind_text(del, 1, key, -1, SQLITE_STATIC);
		sqlite3_bind_int(del, 2, ranges[2 * i]);
		sqlite3_bind_int(del, 3, ranges[2 * i + 1]);
		if (sqlite3_step(del) != SQLITE_DONE)
			goto done;
		sqlite3_reset(del);
	}
	ok = !put_rows(db, key, next, ctx);
done:
	sqlite3_finalize(del);
	sqlite3_finalize(st);
	if (own)
		fw_db_end(db, ok, NULL);
	return ok ? 0 : -1;
}

int fw_store_series_runs_since(sqlite3 *db, long long series_id, long long upto, long long *count,
			       long long *max_id, long long *count_upto, int (*each)(int position, void *ctx),
			       void *ctx, struct strbuf *err)
{
	sqlite3_stmt *st = NULL, *pos = NULL;
	int rc = SQLITE_ERROR;

	if (sqlite3_prepare_v2(db, "SELECT count(*), coalesce(max(r.id), 0), coalesce(sum(r.id <= ?2), 0) "
			       "FROM commits c JOIN runs r ON r.commit_id = c.id WHERE c.series_id = ?1",
			       -1, &st, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "SELECT DISTINCT c.position FROM runs r JOIN commits c ON c.id = r.commit_id "
			       "WHERE r.id > ?2 AND c.series_id = ?1 ORDER BY c.position", -1, &pos, NULL) != SQLITE_OK)
		goto done;
	sqlite3_bind_int64(st, 1, series_id);
	sqlite3_bind_int64(st, 2, upto);
	if ((rc = sqlite3_step(st)) != SQLITE_ROW)
		goto done;
	*count = sqlite3_column_int64(st, 0);
	*max_id = sqlite3_column_int64(st, 1);
	*count_upto = sqlite3_column_int64(st, 2);
	sqlite3_bind_int64(pos, 1, series_id);
	sqlite3_bind_int64(pos, 2, upto);
	while ((rc = sqlite3_step(pos)) == SQLITE_ROW && !each(sqlite3_column_int(pos, 0), ctx))
		;
done:
	if (rc != SQLITE_DONE)
		strbuf_addf(err, "reading the series' runs: %s", sqlite3_errmsg(db));
	sqlite3_finalize(st);
	sqlite3_finalize(pos);
	return rc == SQLITE_DONE ? 0 : -1;
}
