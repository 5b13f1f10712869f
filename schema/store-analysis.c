/*
 * Read-side queries of the analysis (see store-analysis.h): the analysis
 * computes, the store reads. Rows go to a callback; its strings live until
 * it returns.
 */
#include <math.h>
#include <stddef.h>
#include "store-analysis.h"

int fw_store_counter_values(sqlite3 *db, const struct fw_store_result_key *k,
			    int (*each)(const char *name, double value, void *ctx), void *ctx, struct strbuf *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (sqlite3_prepare_v2(db, "SELECT ct.name, ct.value FROM counters ct JOIN results res ON res.id = ct.result_id "
			       "JOIN runs r ON r.id = res.run_id JOIN environments e ON e.id = r.env_id "
			       "WHERE r.commit_id = ?1 AND e.fingerprint = ?2 AND r.boot_status = 'ok' AND res.workload = ?3 "
			       "AND res.variant = ?4 AND res.params = ?5 AND res.metric = ?6 ORDER BY ct.name, ct.value",
			       -1, &st, NULL) != SQLITE_OK) {
		strbuf_addf(err, "loading counters: %s", sqlite3_errmsg(db));
		return -1;
	}
	sqlite3_bind_int64(st, 1, k->commit_id);
	sqlite3_bind_text(st, 2, k->env_fingerprint, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, k->workload, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, k->variant, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, k->params, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, k->metric, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const unsigned char *name = sqlite3_column_text(st, 0);

		if (each(name ? (const char *)name : "", sqlite3_column_double(st, 1), ctx))
			break;
	}
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		strbuf_addf(err, "loading counters: %s", sqlite3_errmsg(db));
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -1;
}

#define PROF_WHERE "FROM profiles p JOIN runs r ON r.id = p.run_id JOIN environments e ON e.id = r.env_id " \
	"WHERE r.commit_id = ?1 AND e.fingerprint = ?2 AND p.workload = ?3 AND p.variant = ?4 AND r.boot_status = 'ok'"

static sqlite3_stmt *prep_profile(sqlite3 *db, const char *sql, const struct fw_store_profile_key *k,
				  struct strbuf *err)
{
	sqlite3_stmt *st = NULL;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		strbuf_addf(err, "loading profiles: %s", sqlite3_errmsg(db));
		sqlite3_finalize(st);
		return NULL;
	}
	sqlite3_bind_int64(st, 1, k->commit_id);
	sqlite3_bind_text(st, 2, k->env_fingerprint ? k->env_fingerprint : "", -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, k->workload, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, k->variant, -1, SQLITE_STATIC);
	return st;
}

/* 0 for a finished list, 1 when the callback stopped it, -1 (said in err) on a DB error. */
static int list_end(sqlite3 *db, sqlite3_stmt *st, int rc, const char *what, struct strbuf *err)
{
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		strbuf_addf(err, "%s: %s", what, sqlite3_errmsg(db));
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : rc == SQLITE_ROW ? 1 : -1;
}

int fw_store_profile_boots(sqlite3 *db, const struct fw_store_profile_key *k, struct strbuf *err)
{
	sqlite3_stmt *st = prep_profile(db, "SELECT COUNT(DISTINCT p.run_id) " PROF_WHERE, k, err);
	int n = -1;

	if (!st)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int(st, 0);
	else
		strbuf_addf(err, "loading profiles: %s", sqlite3_errmsg(db));
	sqlite3_finalize(st);
	return n;
}

int fw_store_profile_rows(sqlite3 *db, const struct fw_store_profile_key *k,
			  int (*each)(const struct fw_store_profile_row *p, void *ctx), void *ctx, struct strbuf *err)
{
	sqlite3_stmt *st = prep_profile(db, "SELECT p.function, p.hits, p.time_us, p.self_us " PROF_WHERE
					" ORDER BY p.function, p.run_id", k, err);
	int rc;

	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const unsigned char *fn = sqlite3_column_text(st, 0);
		struct fw_store_profile_row p = {
			.function = fn ? (const char *)fn : "",
			.hits = sqlite3_column_double(st, 1), .time_us = sqlite3_column_double(st, 2),
			.self_us = sqlite3_column_type(st, 3) == SQLITE_NULL ? NAN : sqlite3_column_double(st, 3),
		};

		if (each(&p, ctx))
			break;
	}
	return list_end(db, st, rc, "loading profiles", err);
}

int fw_store_profile_env(sqlite3 *db, long long base_commit, long long head_commit, const char *workload,
			 struct strbuf *env, struct strbuf *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (sqlite3_prepare_v2(db,
			       "SELECT e.fingerprint FROM profiles p JOIN runs r ON r.id = p.run_id JOIN environments e "
			       "ON e.id = r.env_id WHERE r.commit_id = ?1 AND p.workload = ?3 AND r.boot_status = 'ok' "
			       "INTERSECT "
			       "SELECT e.fingerprint FROM profiles p JOIN runs r ON r.id = p.run_id JOIN environments e "
			       "ON e.id = r.env_id WHERE r.commit_id = ?2 AND p.workload = ?3 AND r.boot_status = 'ok' "
			       "ORDER BY 1 LIMIT 1", -1, &st, NULL) != SQLITE_OK) {
		strbuf_addf(err, "loading profiles: %s", sqlite3_errmsg(db));
		return -1;
	}
	sqlite3_bind_int64(st, 1, base_commit);
	sqlite3_bind_int64(st, 2, head_commit);
	sqlite3_bind_text(st, 3, workload, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		strbuf_addstr(env, (const char *)sqlite3_column_text(st, 0));
	return list_end(db, st, rc == SQLITE_ROW ? SQLITE_DONE : rc, "loading profiles", err) ? -1
		: rc == SQLITE_ROW;
}

int fw_store_profile_variants(sqlite3 *db, long long base_commit, long long head_commit, const char *env,
			      const char *workload, int (*each)(const char *variant, void *ctx), void *ctx,
			      struct strbuf *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (sqlite3_prepare_v2(db, "SELECT DISTINCT p.variant FROM profiles p JOIN runs r ON r.id = p.run_id "
			       "JOIN environments e ON e.id = r.env_id WHERE r.commit_id IN (?1, ?2) AND e.fingerprint = ?3 "
			       "AND p.workload = ?4 AND r.boot_status = 'ok' ORDER BY 1", -1, &st, NULL) != SQLITE_OK) {
		strbuf_addf(err, "loading profiles: %s", sqlite3_errmsg(db));
		return -1;
	}
	sqlite3_bind_int64(st, 1, base_commit);
	sqlite3_bind_int64(st, 2, head_commit);
	sqlite3_bind_text(st, 3, env, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, workload, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const unsigned char *v = sqlite3_column_text(st, 0);

		if (each(v ? (const char *)v : "", ctx))
			break;
	}
	return list_end(db, st, rc, "loading profiles", err);
}
