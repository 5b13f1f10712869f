/*
 * Read-side queries of the analysis (see store-analysis.h): the analysis
 * computes, the store reads. Rows go to a callback; its strings live until
 * it returns.
 */
#include <math.h>
#include <stddef.h>
#include <string.h>
#include "fw-db.h"
#include "store-analysis.h"
#include "stmt-cache.h"
#include "xalloc.h"

/* Called for each row a history decides: prepared once per connection (stmt-cache.h). */
int fw_store_counter_values(sqlite3 *db, const struct fw_store_result_key *k,
			    int (*each)(const char *name, double value, void *ctx), void *ctx, struct strbuf *err)
{
	sqlite3_stmt *st = fw_stmt_get(db, FW_CACHED(
		"SELECT ct.name, ct.value FROM counters ct JOIN results res ON res.id = ct.result_id "
		"JOIN runs r ON r.id = res.run_id JOIN environments e ON e.id = r.env_id "
		"WHERE r.commit_id = ?1 AND e.fingerprint = ?2 AND r.boot_status = 'ok' AND res.workload = ?3 "
		"AND res.variant = ?4 AND res.params = ?5 AND res.metric = ?6 ORDER BY ct.name, ct.value"));
	int rc;

	if (!st) {
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
	fw_stmt_done(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -1;
}

#define PROF_WHERE "FROM profiles p JOIN runs r ON r.id = p.run_id JOIN environments e ON e.id = r.env_id " \
	"WHERE r.commit_id = ?1 AND e.fingerprint = ?2 AND p.workload = ?3 AND p.variant = ?4 AND r.boot_status = 'ok'"

/* sql: FW_CACHED (asked for each row a history decides); hand the statement back with fw_stmt_done. */
static sqlite3_stmt *prep_profile(sqlite3 *db, const char *sql, const struct fw_store_profile_key *k,
				  struct strbuf *err)
{
	sqlite3_stmt *st = fw_stmt_get(db, sql);

	if (!st) {
		strbuf_addf(err, "loading profiles: %s", sqlite3_errmsg(db));
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
	sqlite3_stmt *st = prep_profile(db, FW_CACHED("SELECT COUNT(DISTINCT p.run_id) " PROF_WHERE), k, err);
	int n = -1;

	if (!st)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int(st, 0);
	else
		strbuf_addf(err, "loading profiles: %s", sqlite3_errmsg(db));
	fw_stmt_done(st);
	return n;
}

int fw_store_profile_rows(sqlite3 *db, const struct fw_store_profile_key *k,
			  int (*each)(const struct fw_store_profile_row *p, void *ctx), void *ctx, struct strbuf *err)
{
	sqlite3_stmt *st = prep_profile(db, FW_CACHED("SELECT p.function, p.hits, p.time_us, p.self_us " PROF_WHERE
					" ORDER BY p.function, p.run_id"), k, err);
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
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		strbuf_addf(err, "loading profiles: %s", sqlite3_errmsg(db));
	fw_stmt_done(st);
	return rc == SQLITE_DONE ? 0 : rc == SQLITE_ROW ? 1 : -1;
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
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		strbuf_addf(err, "loading profiles: %s", sqlite3_errmsg(db));
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
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

int fw_store_series_ref(sqlite3 *db, const char *name, int revision, long long *id, int *revision_out,
			char **base, int *watched, struct strbuf *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	*base = NULL;
	if (sqlite3_prepare_v2(db, "SELECT id, revision, base, watched FROM series WHERE name = ?1 AND "
			       "(revision = ?2 OR ?2 <= 0) ORDER BY revision DESC LIMIT 1", -1, &st, NULL) != SQLITE_OK) {
		strbuf_addf(err, "finding series: %s", sqlite3_errmsg(db));
		return -1;
	}
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 2, revision);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*id = sqlite3_column_int64(st, 0);
		*revision_out = sqlite3_column_int(st, 1);
		*base = xstrdup(fw_db_text(st, 2));
		*watched = sqlite3_column_int(st, 3);
	} else if (rc != SQLITE_DONE) {
		strbuf_addf(err, "finding series: %s", sqlite3_errmsg(db));
	}
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

/* Binds a scope: ?1 the series, or ?1, ?2 the two commits. */
static sqlite3_stmt *prep_scope(sqlite3 *db, const struct fw_store_scope *sc, const char *series_sql,
				const char *pair_sql, const char *what, struct strbuf *err)
{
	sqlite3_stmt *st = NULL;

	if (sqlite3_prepare_v2(db, sc->series_id > 0 ? series_sql : pair_sql, -1, &st, NULL) != SQLITE_OK) {
		strbuf_addf(err, "%s: %s", what, sqlite3_errmsg(db));
		sqlite3_finalize(st);
		return NULL;
	}
	if (sc->series_id > 0) {
		sqlite3_bind_int64(st, 1, sc->series_id);
	} else {
		sqlite3_bind_int64(st, 1, sc->commit_a);
		sqlite3_bind_int64(st, 2, sc->commit_b);
	}
	return st;
}

int fw_store_scope_commits(sqlite3 *db, const struct fw_store_scope *sc,
			   int (*each)(const struct fw_store_commit_row *c, void *ctx), void *ctx, struct strbuf *err)
{
	sqlite3_stmt *st = prep_scope(db, sc,
		"SELECT id, sha, commit_key, subject, position, parent_sha FROM commits "
		"WHERE series_id = ?1 ORDER BY position, id",
		/* a is first and b second, whatever their positions */
		"SELECT id, sha, commit_key, subject, position, parent_sha FROM commits "
		"WHERE id IN (?1, ?2) ORDER BY id = ?2", "loading commits", err);
	int rc;

	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct fw_store_commit_row c = {
			.id = sqlite3_column_int64(st, 0), .sha = fw_db_text(st, 1), .key = fw_db_text(st, 2),
			.subject = fw_db_text(st, 3), .position = sqlite3_column_int(st, 4),
			.parent_sha = sqlite3_column_type(st, 5) == SQLITE_NULL ? NULL : fw_db_text(st, 5),
		};

		if (each(&c, ctx))
			break;
	}
	return list_end(db, st, rc, "loading commits", err);
}

#define OBS_SELECT \
	"SELECT c.id, e.fingerprint, e.host, e.accel, r.id, res.workload, res.variant, res.params, " \
	"res.metric, res.unit, res.direction, res.kind, res.min_effect_pct, s.value, r.max_looks, r.look, " \
	"r.run_id, s.round " \
	"FROM samples s JOIN results res ON res.id = s.result_id JOIN runs r ON r.id = res.run_id " \
	"JOIN commits c ON c.id = r.commit_id JOIN environments e ON e.id = r.env_id " \
	"WHERE r.boot_status = 'ok' AND res.error IS NULL AND "
/*
 * No ORDER BY: the analysis sorts in C (analysis/analysis-data.c). Sorting
 * here took a temp B-tree spilled to disk, 60% of a history's first analysis.
 */
int fw_store_scope_samples(sqlite3 *db, const struct fw_store_scope *sc,
			   int (*each)(const struct fw_store_obs *o, void *ctx), void *ctx, struct strbuf *err)
{
	sqlite3_stmt *st = prep_scope(db, sc, sc->span ?
				      OBS_SELECT "c.series_id = ?1 AND (c.position BETWEEN ?3 AND ?4 OR c.id = ?5)"
				      : OBS_SELECT "c.series_id = ?1",
				      OBS_SELECT "c.id IN (?1, ?2)", "loading samples", err);
	int rc;

	if (!st)
		return -1;
	if (sc->series_id > 0 && sc->span) {
		sqlite3_bind_int(st, 3, sc->from);
		sqlite3_bind_int(st, 4, sc->to);
		sqlite3_bind_int64(st, 5, sc->also);
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct fw_store_obs o = {
			.commit_id = sqlite3_column_int64(st, 0), .env_fingerprint = fw_db_text(st, 1),
			.host = fw_db_text(st, 2), .accel = fw_db_text(st, 3), .run_id = sqlite3_column_int64(st, 4),
			.workload = fw_db_text(st, 5), .variant = fw_db_text(st, 6), .params = fw_db_text(st, 7),
			.metric = fw_db_text(st, 8), .unit = fw_db_text(st, 9), .direction = fw_db_text(st, 10),
			.kind = fw_db_text(st, 11),
			.min_effect_pct = sqlite3_column_type(st, 12) == SQLITE_NULL ? NAN : sqlite3_column_double(st, 12),
			.value = sqlite3_column_double(st, 13),
			.max_looks = sqlite3_column_type(st, 14) == SQLITE_NULL ? 0 : sqlite3_column_int(st, 14),
			.look = sqlite3_column_type(st, 15) == SQLITE_NULL ? 0 : sqlite3_column_int(st, 15),
			.run_key = fw_db_text(st, 16), .round = sqlite3_column_int(st, 17),
		};

		if (each(&o, ctx))
			break;
	}
	return list_end(db, st, rc, "loading samples", err);
}

int fw_store_evidence_open(struct fw_store_evidence *ev, sqlite3 *db, struct strbuf *err)
{
	ev->db = db;
	ev->samples = ev->kernels = NULL;
	if (sqlite3_prepare_v2(db,
			       "SELECT r.build_id, r.id, s.value FROM environments e CROSS JOIN runs r CROSS JOIN results res "
			       "CROSS JOIN samples s WHERE e.fingerprint = ?5 AND r.env_id = e.id AND r.build_id >= ?7 "
			       "AND r.id <= ?6 AND r.boot_status = 'ok' AND res.run_id = r.id AND res.workload = ?1 "
			       "AND res.variant = ?2 AND res.metric = ?3 AND res.params = ?4 AND res.error IS NULL "
			       "AND s.result_id = res.id ORDER BY r.build_id, r.id, s.round", -1, &ev->samples, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db,
			       "SELECT r.build_id, COUNT(*) FROM environments e CROSS JOIN runs r "
			       "WHERE e.fingerprint = ?1 AND r.env_id = e.id AND r.id <= ?2 AND r.boot_status = 'ok' "
			       "GROUP BY r.build_id ORDER BY r.build_id DESC", -1, &ev->kernels, NULL) != SQLITE_OK) {
		strbuf_addf(err, "same-kernel evidence: %s", sqlite3_errmsg(db));
		return -1;
	}
	return 0;
}

void fw_store_evidence_close(struct fw_store_evidence *ev)
{
	sqlite3_finalize(ev->samples);
	sqlite3_finalize(ev->kernels);
	ev->samples = ev->kernels = NULL;
}

/* The kept statement back to its start: 0 for a finished list, 1 stopped, -1 (said in err) on an error. */
static int kept_end(sqlite3 *db, sqlite3_stmt *st, int rc, struct strbuf *err)
{
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		strbuf_addf(err, "same-kernel evidence: %s", sqlite3_errmsg(db));
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : rc == SQLITE_ROW ? 1 : -1;
}

int fw_store_evidence_kernels(struct fw_store_evidence *ev, const char *env_fingerprint, long long max_run,
			      int (*each)(long long build_id, long long boots, void *ctx), void *ctx, struct strbuf *err)
{
	sqlite3_stmt *st = ev->kernels;
	int rc;

	sqlite3_reset(st);
	sqlite3_bind_text(st, 1, env_fingerprint, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, max_run);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if (each(sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1), ctx))
			break;
	return kept_end(ev->db, st, rc, err);
}

int fw_store_evidence_samples(struct fw_store_evidence *ev, const struct fw_store_result_key *k, long long max_run,
			      long long min_build,
			      int (*each)(long long build_id, long long run_id, double value, void *ctx), void *ctx,
			      struct strbuf *err)
{
	sqlite3_stmt *st = ev->samples;
	int rc;

	sqlite3_reset(st);
	sqlite3_bind_text(st, 1, k->workload, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, k->variant, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, k->metric, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, k->params, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, k->env_fingerprint, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 6, max_run);
	sqlite3_bind_int64(st, 7, min_build);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if (each(sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1), sqlite3_column_double(st, 2), ctx))
			break;
	return kept_end(ev->db, st, rc, err) < 0 ? -1 : 0;
}

