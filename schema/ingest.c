/*
 * Stores a validated run document in one transaction. Every statement is
 * prepared and bound, and kept with the connection (FW_CACHED) for the next
 * document.
 */
#include "ingest.h"
#include "utf8.h"
#include "fw-db.h"
#include "stmt-cache.h"
#include "ingest-conflict.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *fw_ingest_status_name(enum fw_ingest_status s)
{
	switch (s) {
	case FW_INGEST_STORED: return "stored";
	case FW_INGEST_DUPLICATE: return "duplicate";
	case FW_INGEST_CONFLICT: return "conflict";
	case FW_INGEST_INVALID: return "invalid";
	case FW_INGEST_DB_ERROR: return "db-error";
	}
	return "?";
}

struct tx {
	sqlite3 *db;
	struct fw_ingest_info *info;
};

static int db_fail(struct tx *t, const char *what)
{
	fw_error_set(&t->info->err, "", "database error (%s): %s", what, sqlite3_errmsg(t->db));
	return -1;
}

/* Binds args described by fmt: 't' text (NULL ok), 'i' int64, 'd' double, 'D' double or NULL if NaN. */
static int bind_all(sqlite3_stmt *st, const char *fmt, va_list ap)
{
	for (int i = 1; *fmt; fmt++, i++) {
		int rc;
		switch (*fmt) {
		case 't': {
			const char *s = va_arg(ap, const char *);
			rc = s ? sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT) : sqlite3_bind_null(st, i);
			break;
		}
		case 'i':
			rc = sqlite3_bind_int64(st, i, va_arg(ap, long long));
			break;
		case 'd':
			rc = sqlite3_bind_double(st, i, va_arg(ap, double));
			break;
		case 'D': {
			double d = va_arg(ap, double);
			rc = d != d ? sqlite3_bind_null(st, i) : sqlite3_bind_double(st, i, d);
			break;
		}
		default:
			rc = SQLITE_MISUSE;
		}
		if (rc != SQLITE_OK)
			return rc;
	}
	return SQLITE_OK;
}

/* Runs one statement; if out_id is given, returns the first column of the first row (or last insert id). */
static int stmt(struct tx *t, const char *sql, long long *out_id, const char *fmt, ...)
{
	sqlite3_stmt *st = fw_stmt_get(t->db, sql);
	va_list ap;
	int rc, ret = -1;

	if (!st)
		return db_fail(t, "prepare");
	va_start(ap, fmt);
	rc = bind_all(st, fmt, ap);
	va_end(ap);
	if (rc != SQLITE_OK) {
		db_fail(t, "bind");
		goto cleanup;
	}
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		if (out_id)
			*out_id = sqlite3_column_int64(st, 0);
		ret = 1;
	} else if (rc == SQLITE_DONE) {
		if (out_id && sqlite3_changes(t->db) > 0 && !sqlite3_stmt_readonly(st))
			*out_id = sqlite3_last_insert_rowid(t->db);
		ret = 0;
	} else {
		db_fail(t, "step");
	}
cleanup:
	fw_stmt_done(st);
	return ret;
}

/* INSERT ... ON CONFLICT DO NOTHING, then look the row up: id of new or existing row. */
static int upsert_tree(struct tx *t, const cJSON *doc, long long *id)
{
	const cJSON *tree = cJSON_GetObjectItemCaseSensitive(doc, "tree");
	const char *name = fw_json_str(tree, "name", "");

	if (stmt(t, FW_CACHED("INSERT INTO trees(name, url) VALUES (?, ?) ON CONFLICT(name) DO NOTHING"), NULL,
		 "tt", name, fw_json_str(tree, "url", "")) < 0)
		return -1;
	return stmt(t, FW_CACHED("SELECT id FROM trees WHERE name = ?"), id, "t", name) == 1 ? 0 : -1;
}

static int upsert_series(struct tx *t, const cJSON *doc, long long tree_id, long long *id)
{
	const cJSON *s = cJSON_GetObjectItemCaseSensitive(doc, "series");
	const char *name = fw_json_str(s, "name", "");
	long long rev = (long long)fw_json_num(s, "revision", 1);
	char now[32];

	fw_now_iso(now);
	if (stmt(t, FW_CACHED("INSERT INTO series(tree_id, name, revision, base, created_at) VALUES (?, ?, ?, ?, ?) "
		 "ON CONFLICT(name, revision) DO NOTHING"), NULL, "ititt",
		 tree_id, name, rev, fw_json_str(s, "base", ""), now) < 0)
		return -1;
	if (stmt(t, FW_CACHED("SELECT id FROM series WHERE name = ? AND revision = ?"), id, "ti", name, rev) != 1)
		return -1;
	/* sticky: one document of the history's says so, and it stays a history */
	if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(s, "watched")) &&
	    stmt(t, FW_CACHED("UPDATE series SET watched = 1 WHERE id = ? AND watched = 0"), NULL, "i", *id) < 0)
		return -1;
	return 0;
}

static int upsert_commit(struct tx *t, const cJSON *doc, long long series_id, long long *id)
{
	const cJSON *c = cJSON_GetObjectItemCaseSensitive(doc, "commit");
	const char *key = fw_json_str(c, "key", "");

	if (stmt(t, FW_CACHED("INSERT INTO commits(series_id, sha, commit_key, subject, author, position, parent_sha) "
		 "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(series_id, commit_key) DO NOTHING"), NULL, "ittttit",
		 series_id, fw_json_str(c, "sha", ""), key, fw_json_str(c, "subject", ""),
		 fw_json_str(c, "author", ""), (long long)fw_json_num(c, "position", 0),
		 fw_json_str(c, "parent", NULL)) < 0)
		return -1;
	return stmt(t, FW_CACHED("SELECT id FROM commits WHERE series_id = ? AND commit_key = ?"), id, "it",
		    series_id, key) == 1 ? 0 : -1;
}

/* The optional mail headers (commit.mail, series.cover): stored once, the first document's. */
static int insert_mail(struct tx *t, const cJSON *doc, long long series_id, long long commit_id)
{
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(doc, "commit"), "mail");
	const cJSON *cv = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(doc, "series"), "cover");

	if (cJSON_IsObject(m) &&
	    stmt(t, FW_CACHED("INSERT INTO commit_mail(commit_id, message_id, from_addr, to_addrs, cc_addrs, subject) "
		 "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(commit_id) DO NOTHING"), NULL, "ittttt", commit_id,
		 fw_json_str(m, "message_id", NULL), fw_json_str(m, "from", NULL), fw_json_str(m, "to", NULL),
		 fw_json_str(m, "cc", NULL), fw_json_str(m, "subject", NULL)) < 0)
		return -1;
	if (cJSON_IsObject(cv) &&
	    stmt(t, FW_CACHED("INSERT INTO series_cover(series_id, message_id, subject) VALUES (?, ?, ?) "
		 "ON CONFLICT(series_id) DO NOTHING"), NULL, "itt", series_id,
		 fw_json_str(cv, "message_id", NULL), fw_json_str(cv, "subject", NULL)) < 0)
		return -1;
	return 0;
}

static int upsert_env(struct tx *t, const cJSON *doc, long long *id)
{
	const cJSON *e = cJSON_GetObjectItemCaseSensitive(doc, "environment");
	const char *fp = fw_json_str(e, "fingerprint", "");

	if (stmt(t, FW_CACHED("INSERT INTO environments(fingerprint, host, accel, qemu_version, vcpus, memory_mib, "
		 "host_kernel, cpu_model, foliowatch_version, fio_version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
		 "ON CONFLICT(fingerprint) DO NOTHING"), NULL, "ttttiitttt", fp, fw_json_str(e, "host", ""),
		 fw_json_str(e, "accel", ""), fw_json_str(e, "qemu_version", ""),
		 (long long)fw_json_num(e, "vcpus", 0), (long long)fw_json_num(e, "memory_mib", 0),
		 fw_json_str(e, "host_kernel", ""), fw_json_str(e, "cpu_model", ""),
		 fw_json_str(e, "foliowatch_version", ""), fw_json_str(e, "fio_version", "")) < 0)
		return -1;
	return stmt(t, FW_CACHED("SELECT id FROM environments WHERE fingerprint = ?"), id, "t", fp) == 1 ? 0 : -1;
}

static int upsert_build(struct tx *t, const cJSON *doc, long long commit_id, long long env_id, long long *id)
{
	const cJSON *b = cJSON_GetObjectItemCaseSensitive(doc, "build");
	const char *hash = fw_json_str(b, "config_hash", "");
	const char *config = fw_json_str(b, "config", NULL);

	if (config && stmt(t, FW_CACHED("INSERT INTO configs(hash, body) VALUES (?, ?) ON CONFLICT(hash) DO NOTHING"),
			   NULL, "tt", hash, config) < 0)
		return -1;
	if (stmt(t, FW_CACHED("INSERT INTO builds(commit_id, env_id, config_hash, status, seconds, kernel_version, "
		 "compiler, log_tail) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
		 "ON CONFLICT(commit_id, env_id, config_hash) DO NOTHING"), NULL, "iittDttt", commit_id, env_id,
		 hash, fw_json_str(b, "status", ""), fw_json_num(b, "seconds", 0.0 / 0.0),
		 fw_json_str(b, "kernel_version", ""), fw_json_str(b, "compiler", ""),
		 fw_json_str(b, "log_tail", "")) < 0)
		return -1;
	return stmt(t, FW_CACHED("SELECT id FROM builds WHERE commit_id = ? AND env_id = ? AND config_hash = ?"), id,
		    "iit", commit_id, env_id, hash) == 1 ? 0 : -1;
}

static int insert_results(struct tx *t, const cJSON *doc, long long run)
{
	const cJSON *r;
	sqlite3_stmt *ss, *cs;
	int ret = -1;

	ss = fw_stmt_get(t->db, FW_CACHED("INSERT INTO samples(result_id, round, value) VALUES (?, ?, ?)"));
	cs = fw_stmt_get(t->db, FW_CACHED("INSERT INTO counters(result_id, round, name, value) VALUES (?, ?, ?, ?)"));
	if (!ss || !cs) {
		db_fail(t, "prepare");
		goto cleanup;
	}
	cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(doc, "results")) {
		const cJSON *params = cJSON_GetObjectItemCaseSensitive(r, "params"), *v;
		char *pj = params ? fw_json_canonical(params) : NULL;
		long long rid = 0;
		int round = 0, rc;

		rc = stmt(t, FW_CACHED("INSERT INTO results(run_id, workload, variant, metric, params, unit, "
			  "direction, kind, min_effect_pct, error) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"), &rid, "itttttttDt",
			  run, fw_json_str(r, "workload", ""), fw_json_str(r, "variant", ""),
			  fw_json_str(r, "metric", ""), pj ? pj : "{}", fw_json_str(r, "unit", ""),
			  fw_json_str(r, "direction", ""), fw_json_str(r, "kind", ""),
			  fw_json_num(r, "min_effect_pct", 0.0 / 0.0), fw_json_str(r, "error", NULL));
		free(pj);
		if (rc < 0)
			goto cleanup;
		t->info->results++;
		cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(r, "samples")) {
			sqlite3_reset(ss);
			sqlite3_bind_int64(ss, 1, rid);
			sqlite3_bind_int(ss, 2, round++);
			sqlite3_bind_double(ss, 3, v->valuedouble);
			if (sqlite3_step(ss) != SQLITE_DONE) {
				db_fail(t, "sample");
				goto cleanup;
			}
			t->info->samples++;
		}
		round = 0;
		cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(r, "counters")) {
			const cJSON *c;
			cJSON_ArrayForEach(c, v) {
				sqlite3_reset(cs);
				sqlite3_bind_int64(cs, 1, rid);
				sqlite3_bind_int(cs, 2, round);
				sqlite3_bind_text(cs, 3, c->string, -1, SQLITE_STATIC);
				sqlite3_bind_double(cs, 4, c->valuedouble);
				if (sqlite3_step(cs) != SQLITE_DONE) {
					db_fail(t, "counter");
					goto cleanup;
				}
			}
			round++;
		}
	}
	ret = 0;
cleanup:
	fw_stmt_done(ss);
	fw_stmt_done(cs);
	return ret;
}

/* profiles[] (validated: unique per run, workload, variant, function). */
static int insert_profiles(struct tx *t, const cJSON *doc, long long run)
{
	const cJSON *p;
	sqlite3_stmt *st = NULL;
	int ret = -1;

	cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(doc, "profiles")) {
		if (!st && !(st = fw_stmt_get(t->db, FW_CACHED("INSERT INTO profiles(run_id, workload, variant, "
							 "function, hits, time_us, self_us) VALUES (?, ?, ?, ?, ?, ?, ?)")))) {
			db_fail(t, "prepare");
			goto cleanup;
		}
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, run);
		sqlite3_bind_text(st, 2, fw_json_str(p, "workload", ""), -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, fw_json_str(p, "variant", ""), -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 4, fw_json_str(p, "function", ""), -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 5, (long long)fw_json_num(p, "hits", 0));
		sqlite3_bind_double(st, 6, fw_json_num(p, "time_us", 0));
		if (cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(p, "self_us")))
			sqlite3_bind_double(st, 7, fw_json_num(p, "self_us", 0));
		else
			sqlite3_bind_null(st, 7);
		if (sqlite3_step(st) != SQLITE_DONE) {
			db_fail(t, "profile");
			goto cleanup;
		}
		t->info->profiles++;
	}
	ret = 0;
cleanup:
	if (st)
		fw_stmt_done(st);
	return ret;
}

static int insert_run(struct tx *t, const cJSON *doc, const char *hash, long long commit_id,
		      long long build_id, long long env_id, long long *run)
{
	const cJSON *boot = cJSON_GetObjectItemCaseSensitive(doc, "boot"), *w;
	const cJSON *seq = cJSON_GetObjectItemCaseSensitive(doc, "sequential");
	const cJSON *ext = cJSON_GetObjectItemCaseSensitive(doc, "extensions");
	struct strbuf wl = STRBUF_INIT;
	char *ext_json = ext ? fw_json_canonical(ext) : NULL;
	char now[32];
	int rc;

	fw_now_iso(now);
	cJSON_ArrayForEach(w, cJSON_GetObjectItemCaseSensitive(doc, "workloads"))
		strbuf_addf(&wl, "%s%s", wl.len ? "," : "", w->valuestring);
	rc = stmt(t, FW_CACHED("INSERT INTO runs(run_id, doc_hash, origin, commit_id, build_id, env_id, "
		  "profile, workloads, boot_index, created_at, ingested_at, boot_status, taint, boot_seconds, qemu_cmdline, "
		  "kernel_cmdline, boot_log_tail, look, max_looks, extensions) "
		  "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"),
		  run, "tttiiittitttiDtttDDt",
		  fw_json_str(doc, "run_id", ""), hash, fw_json_str(doc, "origin", ""), commit_id, build_id,
		  env_id, fw_json_str(doc, "profile", ""), wl.buf, (long long)fw_json_num(doc, "boot_index", 0),
		  fw_json_str(doc, "created_at", ""), now, fw_json_str(boot, "status", ""),
		  (long long)fw_json_num(boot, "taint", 0), fw_json_num(boot, "seconds", 0.0 / 0.0),
		  fw_json_str(boot, "qemu_cmdline", ""), fw_json_str(boot, "kernel_cmdline", ""),
		  fw_json_str(boot, "log_tail", ""),
		  fw_json_num(seq, "look", 0.0 / 0.0), fw_json_num(seq, "max_looks", 0.0 / 0.0), ext_json);
	free(ext_json);
	strbuf_release(&wl);
	return rc < 0 ? -1 : 0;
}

/*
 * A document's own transaction; inside the caller's (import stores a batch
 * of documents in one: fw-db.h), a savepoint, so a refused document leaves
 * the others of the batch.
 */
static int doc_begin(sqlite3 *db, int nested)
{
	return fw_db_exec(db, nested ? "SAVEPOINT fw_doc" : "BEGIN IMMEDIATE", NULL);
}

static int doc_end(sqlite3 *db, int nested, int ok, struct strbuf *err)
{
	if (!nested)
		return fw_db_end(db, ok, err);
	if (ok && !fw_db_exec(db, "RELEASE fw_doc", err))
		return 0;
	fw_db_exec(db, "ROLLBACK TO fw_doc", NULL);
	fw_db_exec(db, "RELEASE fw_doc", NULL);
	return -1;
}

enum fw_ingest_status fw_ingest_doc(sqlite3 *db, const cJSON *doc, struct fw_ingest_info *info)
{
	struct tx t = { db, info };
	char hash[65];
	long long tree = 0, series = 0, commit = 0, env = 0, build = 0, run = 0;
	sqlite3_stmt *st;
	int nested = fw_db_in_transaction(db);

	utf8_copy(info->run_id, sizeof(info->run_id), fw_json_str(doc, "run_id", ""));
	utf8_copy(info->series, sizeof(info->series),
		  fw_json_str(cJSON_GetObjectItemCaseSensitive(doc, "series"), "name", ""));
	fw_doc_hash(doc, hash);
	if (doc_begin(db, nested)) {
		db_fail(&t, "begin");
		return info->status = FW_INGEST_DB_ERROR;
	}
	/* Idempotency: look the run id up inside the write transaction. */
	st = fw_stmt_get(db, FW_CACHED("SELECT doc_hash FROM runs WHERE run_id = ?"));
	if (!st) {
		db_fail(&t, "prepare");
		goto fail;
	}
	sqlite3_bind_text(st, 1, info->run_id, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		int same = !strcmp((const char *)sqlite3_column_text(st, 0), hash);
		const char *diff;
		fw_stmt_done(st);
		/* a 409 names what differs, as a 400 names what is wrong */
		diff = same ? NULL : fw_ingest_first_difference(db, info->run_id, doc);
		doc_end(db, nested, 0, NULL);
		if (!same && diff) {
			fw_error_set(&info->err, diff, "already stored with different content: the first field that "
				     "differs is %s", diff);
		} else if (!same) {
			fw_error_set(&info->err, "run_id", "already stored with different content");
		}
		return info->status = same ? FW_INGEST_DUPLICATE : FW_INGEST_CONFLICT;
	}
	fw_stmt_done(st);
	if (rc != SQLITE_DONE) {
		db_fail(&t, "lookup");
		goto fail;
	}
	if (upsert_tree(&t, doc, &tree) || upsert_series(&t, doc, tree, &series) ||
	    upsert_commit(&t, doc, series, &commit) || insert_mail(&t, doc, series, commit) ||
	    upsert_env(&t, doc, &env) ||
	    upsert_build(&t, doc, commit, env, &build) || insert_run(&t, doc, hash, commit, build, env, &run) ||
	    insert_results(&t, doc, run) || insert_profiles(&t, doc, run))
		goto fail;
	{
		struct strbuf e = STRBUF_INIT;  /* COMMIT's message: read before the rollback */

		if (doc_end(db, nested, 1, &e)) {
			fw_error_set(&info->err, "", "database error (commit): %s", e.buf);
			strbuf_release(&e);
			info->results = info->samples = info->profiles = 0;
			return info->status = FW_INGEST_DB_ERROR;
		}
		strbuf_release(&e);
	}
	return info->status = FW_INGEST_STORED;
fail:
	doc_end(db, nested, 0, NULL);
	info->results = info->samples = info->profiles = 0;
	return info->status = FW_INGEST_DB_ERROR;
}

enum fw_ingest_status fw_ingest(sqlite3 *db, const char *buf, size_t len, struct fw_ingest_info *info)
{
	cJSON *doc;
	enum fw_ingest_status s;

	memset(info, 0, sizeof(*info));
	doc = fw_doc_parse(buf, len, &info->err);
	if (!doc)
		return info->status = FW_INGEST_INVALID;
	s = fw_ingest_doc(db, doc, info);
	cJSON_Delete(doc);
	return s;
}
