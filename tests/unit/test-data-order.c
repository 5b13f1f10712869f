/*
 * The analysis' observations in SQLite's order (analysis/analysis-sort.c):
 * a series ingested in a shuffled order, on two hosts, with keys whose names
 * sort differently from their arrival, loaded whole and through a history's
 * moving window, each compared sample by sample with the ORDER BY the
 * samples query used to do itself.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tap.h"
#include "analysis-data.h"
#include "fw-db.h"
#include "ingest.h"
#include "run-doc.h"
#include "stmt-cache.h"

#define NPOS 24
#define NBOOT 3

static cJSON *tmpl;

static void set_str(cJSON *o, const char *k, const char *v)
{
	cJSON_ReplaceItemInObject(o, k, cJSON_CreateString(v));
}

/* One boot of commit position pos on host, its results renamed so their order differs from the document's. */
static int add_run(sqlite3 *db, int pos, const char *host, int boot)
{
	cJSON *d = cJSON_Duplicate(tmpl, 1), *c = cJSON_GetObjectItem(d, "commit"), *res = cJSON_GetObjectItem(d, "results");
	cJSON *env = cJSON_GetObjectItem(d, "environment"), *extra;
	struct strbuf rid = STRBUF_INIT;
	struct fw_ingest_info info;
	char sha[41], parent[41], fp[65];
	int ret;

	snprintf(sha, sizeof(sha), "%040x", pos + 1);
	snprintf(parent, sizeof(parent), "%040x", pos);
	set_str(c, "sha", sha);
	set_str(c, "key", sha);
	if (pos)
		set_str(c, "parent", parent);
	cJSON_ReplaceItemInObject(c, "position", cJSON_CreateNumber(pos));
	set_str(cJSON_GetObjectItem(d, "series"), "base", "0000000000000000000000000000000000000001");
	cJSON_ReplaceItemInObject(d, "boot_index", cJSON_CreateNumber(boot));
	set_str(env, "host", host);
	/* a second split variant that sorts before the first, after it in the document */
	extra = cJSON_Duplicate(cJSON_GetArrayItem(res, 0), 1);
	set_str(extra, "variant", "a-first");
	cJSON_AddItemToArray(res, extra);
	for (int i = 0; i < cJSON_GetArraySize(res); i++) {
		cJSON *samples = cJSON_GetObjectItem(cJSON_GetArrayItem(res, i), "samples");
		for (int k = 0; samples && k < cJSON_GetArraySize(samples); k++)
			cJSON_ReplaceItemInArray(samples, k, cJSON_CreateNumber(100 + pos + boot * 0.01 + k * 0.001 + i));
	}
	fw_env_fingerprint(env, fp);
	set_str(env, "fingerprint", fp);
	fw_doc_expected_run_id(d, &rid);
	set_str(d, "run_id", rid.buf);
	ret = fw_ingest_doc(db, d, &info) == FW_INGEST_STORED ? 0 : -1;
	if (ret)
		printf("# ingest: %s %s: %s\n", fw_ingest_status_name(info.status), info.err.field, info.err.detail);
	strbuf_release(&rid);
	cJSON_Delete(d);
	return ret;
}

/* d's observations against the ORDER BY (positions from..to and the base; from > to: all): mismatches. */
static int mismatches(sqlite3 *db, const struct data *d, int from, int to)
{
	sqlite3_stmt *st;
	size_t i = 0;
	int bad = 0, rc;

	sqlite3_prepare_v2(db,
		"SELECT res.workload, res.variant, res.params, res.metric, e.fingerprint, c.position, r.run_id, "
		"s.round, s.value, r.id FROM samples s JOIN results res ON res.id = s.result_id "
		"JOIN runs r ON r.id = res.run_id JOIN commits c ON c.id = r.commit_id "
		"JOIN environments e ON e.id = r.env_id WHERE r.boot_status = 'ok' AND res.error IS NULL "
		"AND (?1 > ?2 OR c.position BETWEEN ?1 AND ?2 OR c.position = 0) ORDER BY res.workload, "
		"res.variant, res.params, res.metric, e.fingerprint, c.position, c.id, r.run_id, s.round",
		-1, &st, NULL);
	sqlite3_bind_int(st, 1, from);
	sqlite3_bind_int(st, 2, to);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const struct key_info *k;
		if (i >= d->no) {
			bad++;
			continue;
		}
		k = &d->k[d->ob_key[i]];
		if (strcmp(k->workload, (const char *)sqlite3_column_text(st, 0)) ||
		    strcmp(k->variant, (const char *)sqlite3_column_text(st, 1)) ||
		    strcmp(k->params, (const char *)sqlite3_column_text(st, 2)) ||
		    strcmp(k->metric, (const char *)sqlite3_column_text(st, 3)) ||
		    strcmp(d->e[d->ob_env[i]].fp, (const char *)sqlite3_column_text(st, 4)) ||
		    d->c[d->ob_commit[i]].position != sqlite3_column_int(st, 5) ||
		    strcmp(d->runs[d->ob_runi[i]].key, (const char *)sqlite3_column_text(st, 6)) ||
		    d->ob_round[i] != sqlite3_column_int(st, 7) || d->ob_v[i] != sqlite3_column_double(st, 8) ||
		    d->ob_run[i] != sqlite3_column_int64(st, 9))
			bad++;
		i++;
	}
	sqlite3_finalize(st);
	return bad + (int)(d->no > i ? d->no - i : 0) + (rc != SQLITE_DONE);
}

static long long series_id(sqlite3 *db)
{
	sqlite3_stmt *st;
	long long id = -1;

	sqlite3_prepare_v2(db, "SELECT id FROM series WHERE name = 'example'", -1, &st, NULL);
	if (sqlite3_step(st) == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return id;
}

static long long max_run(sqlite3 *db, int from, int to)
{
	sqlite3_stmt *st;
	long long m = -1;

	sqlite3_prepare_v2(db, "SELECT MAX(r.id) FROM runs r JOIN commits c ON c.id = r.commit_id "
			   "WHERE c.position BETWEEN ?1 AND ?2 OR c.position = 0", -1, &st, NULL);
	sqlite3_bind_int(st, 1, from);
	sqlite3_bind_int(st, 2, to);
	if (sqlite3_step(st) == SQLITE_ROW)
		m = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return m;
}

int main(void)
{
	struct strbuf err = STRBUF_INIT, doc = STRBUF_INIT;
	char path[] = "/tmp/fw-test-order-XXXXXX", dbpath[64];
	const char *hosts[2] = { "runner-b", "runner-a" };
	const char *base = "0000000000000000000000000000000000000001";
	int order[NPOS * NBOOT * 2], fails = 0, bad_win = 0, bad_runs = 0;
	unsigned seed = 12345;
	struct data whole = { 0 }, win = { 0 };
	struct fw_store_scope sc = { 0 };
	sqlite3 *db;

	if (!mkdtemp(path) || strbuf_read_file(&doc, "schema/examples/run-ok.json", FW_DOC_MAX_BYTES)) {
		printf("Bail out! no temp dir or no schema/examples/run-ok.json\n");
		return 1;
	}
	snprintf(dbpath, sizeof(dbpath), "%s/db.sqlite", path);
	tmpl = cJSON_Parse(doc.buf);
	db = fw_db_open(dbpath, &err);
	ok(db && tmpl, "opened a DB and the example document");
	/* every boot of every commit on both hosts, in a shuffled order: row ids do not follow the sort */
	for (int i = 0; i < NPOS * NBOOT * 2; i++)
		order[i] = i;
	for (int i = NPOS * NBOOT * 2 - 1; i > 0; i--) {
		int j = (int)((seed = seed * 1103515245u + 12345u) >> 16) % (i + 1), t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	for (int i = 0; i < NPOS * NBOOT * 2; i++)
		fails |= add_run(db, order[i] / (NBOOT * 2), hosts[order[i] % 2], order[i] / 2 % NBOOT);
	ok(!fails, "ingested every boot in a shuffled order");

	sc.series_id = series_id(db);
	fw_store_scope_commits(db, &sc, fw_data_add_commit, &whole, &err);
	fw_data_index_commits(&whole, base);
	ok(!fw_data_load_samples(db, &sc, &whole, &err), "the whole series loaded");
	is_int(whole.no, NPOS * NBOOT * 2 * 3 * 2, "every sample of the ok results");
	is_int(mismatches(db, &whole, 1, 0), 0, "in the ORDER BY's order, sample by sample");
	{
		struct data none = { 0 };
		struct fw_store_scope empty = { .series_id = sc.series_id, .span = 1, .from = 1000, .to = 1010, .also = -1 };

		fw_store_scope_commits(db, &empty, fw_data_add_commit, &none, &err);
		fw_data_index_commits(&none, base);
		ok(!fw_data_load_samples(db, &empty, &none, &err) && none.no == 0 && none.nk == 0,
		   "a span without samples loads and sorts nothing (no NULL handed to memcpy: UBSan)");
		fw_data_free(&none);
	}
	is_int(whole.nk, 3, "three keys");
	ok(whole.nk == 3 && !strcmp(whole.k[1].variant, "a-first"), "... in name order, not the documents'");

	/* a history's window moving on by 4 positions, 7 behind and 5 ahead: equal to a fresh load each time */
	for (int a = 0; a < NPOS; a += 4) {
		struct data fresh = { 0 };

		if (fw_data_window(db, sc.series_id, base, &win, a - 7, a + 5, &err) ||
		    fw_data_window(db, sc.series_id, base, &fresh, a - 7, a + 5, &err)) {
			bad_win++;
			break;
		}
		bad_win += mismatches(db, &win, a - 7, a + 5) + mismatches(db, &fresh, a - 7, a + 5);
		bad_win += win.max_run != max_run(db, a - 7, a + 5);
		bad_runs += win.nruns > (size_t)(13 + 1) * NBOOT * 2 * 3;  /* runs of positions left behind dropped */
		fw_data_free(&fresh);
	}
	is_int(bad_win, 0, "a moving window equals a fresh load of its span at every step (and its newest run)");
	is_int(bad_runs, 0, "... holding only the runs of its span");
	ok(!fw_data_window(db, sc.series_id, base, &win, 2, 9, &err) && !mismatches(db, &win, 2, 9),
	   "a window moved back is loaded anew");

	fw_data_free(&whole);
	fw_data_free(&win);
	fw_db_close(db);
	cJSON_Delete(tmpl);
	strbuf_release(&err);
	strbuf_release(&doc);
	unlink(dbpath);
	{
		char wal[80];
		snprintf(wal, sizeof(wal), "%s-wal", dbpath);
		unlink(wal);
		snprintf(wal, sizeof(wal), "%s-shm", dbpath);
		unlink(wal);
	}
	rmdir(path);
	return done_testing();
}
