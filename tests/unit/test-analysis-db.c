/*
 * The analysis over a DB: documents built from schema/examples/run-ok.json,
 * ingested through the one ingest; checks any-two-commits comparison (across
 * series revisions), the cache (hit, and invalidated by new data), and that
 * a result with an error or a boot that failed contributes nothing.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tap.h"
#include "analysis-json.h"
#include "an-typed-check.h"
#include "fw-db.h"
#include "ingest.h"
#include "run-doc.h"

static cJSON *tmpl;

/* One boot of series/revision/commit with split_ms samples around `level`. */
static int add_run(sqlite3 *db, int revision, const char *sha, int position, int boot, double level)
{
	cJSON *d = cJSON_Duplicate(tmpl, 1), *s, *res, *r0, *samples, *ctr;
	struct strbuf rid = STRBUF_INIT;
	struct fw_ingest_info info;
	char fp[65];
	int ret;

	s = cJSON_GetObjectItem(d, "series");
	cJSON_ReplaceItemInObject(s, "revision", cJSON_CreateNumber(revision));
	s = cJSON_GetObjectItem(d, "commit");
	cJSON_ReplaceItemInObject(s, "sha", cJSON_CreateString(sha));
	cJSON_ReplaceItemInObject(s, "key", cJSON_CreateString(sha));
	cJSON_ReplaceItemInObject(s, "position", cJSON_CreateNumber(position));
	cJSON_ReplaceItemInObject(d, "boot_index", cJSON_CreateNumber(boot));
	res = cJSON_GetObjectItem(d, "results");
	r0 = cJSON_GetArrayItem(res, 0);
	samples = cJSON_CreateArray();
	ctr = cJSON_CreateArray();
	for (int i = 0; i < 2; i++) {
		/* Small deterministic spread between boots and rounds. */
		cJSON_AddItemToArray(samples, cJSON_CreateNumber(level * (1 + 0.002 * ((boot * 7 + i * 3) % 5 - 2))));
		cJSON_AddItemToArray(ctr, cJSON_Duplicate(cJSON_GetArrayItem(cJSON_GetObjectItem(r0, "counters"), 0), 1));
	}
	cJSON_ReplaceItemInObject(r0, "samples", samples);
	cJSON_ReplaceItemInObject(r0, "counters", ctr);
	fw_env_fingerprint(cJSON_GetObjectItem(d, "environment"), fp);
	cJSON_ReplaceItemInObject(cJSON_GetObjectItem(d, "environment"), "fingerprint", cJSON_CreateString(fp));
	fw_doc_expected_run_id(d, &rid);
	cJSON_ReplaceItemInObject(d, "run_id", cJSON_CreateString(rid.buf));
	ret = fw_ingest_doc(db, d, &info) == FW_INGEST_STORED ? 0 : -1;
	if (ret)
		printf("# ingest: %s %s: %s\n", fw_ingest_status_name(info.status), info.err.field, info.err.detail);
	strbuf_release(&rid);
	cJSON_Delete(d);
	return ret;
}

static long long commit_id(sqlite3 *db, int revision, const char *sha)
{
	sqlite3_stmt *st;
	long long id = -1;

	sqlite3_prepare_v2(db, "SELECT c.id FROM commits c JOIN series s ON s.id = c.series_id "
			   "WHERE s.revision = ? AND c.sha = ?", -1, &st, NULL);
	sqlite3_bind_int(st, 1, revision);
	sqlite3_bind_text(st, 2, sha, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return id;
}

/*
 * Progress handler of the refreshing connection: the first time it runs, another
 * connection commits (as the server's detection thread may, mid-refresh).
 */
static int poked;
static int commit_elsewhere(void *other)
{
	if (!poked++)
		sqlite3_exec(other, "CREATE TABLE IF NOT EXISTS poke(x); INSERT INTO poke VALUES (1)", NULL, NULL, NULL);
	return 0;
}

static const struct fw_an_row *row_for(const struct fw_an *res, const char *metric, const char *against)
{
	for (size_t i = 0; res && i < res->nrows; i++)
		if (!strcmp(res->rows[i].metric, metric) && !strcmp(res->rows[i].against_name, against))
			return &res->rows[i];
	return NULL;
}

static int wakes;
static void woken(const char *series)
{
	wakes += !strcmp(series, "example");
}

/* The data hash of series "example" revision 3 (not cached: computed from the runs each time). */
static void hash_of(sqlite3 *db, char out[65])
{
	struct fw_analysis_opts o;
	struct strbuf err = STRBUF_INIT;
	struct fw_an *res = NULL;

	fw_analysis_opts_init(&o);
	o.use_cache = 0;
	snprintf(out, 65, "%s", !fw_analysis_series(db, "example", 3, &o, &res, &err) && res ? res->data_hash : "");
	if (!res)
		printf("# %s\n", err.buf);
	fw_an_free(res);
	strbuf_release(&err);
}

/*
 * The runs' digest is remembered per database and runs generation (issue 31,
 * schema/runs-digest.c): another connection's change to what it reads must
 * still change the hash, and a copy of the file must not share its memo.
 */
static void test_runs_digest(sqlite3 *db, const char *dir)
{
	static const char *const change[][2] = {
		{ "UPDATE runs SET boot_status = 'panic' WHERE id = (SELECT MAX(id) FROM runs)",
		  "UPDATE runs SET boot_status = 'ok' WHERE id = (SELECT MAX(id) FROM runs)" },
		{ "UPDATE runs SET doc_hash = 'x' || doc_hash WHERE id = (SELECT MAX(id) FROM runs)",
		  "UPDATE runs SET doc_hash = substr(doc_hash, 2) WHERE id = (SELECT MAX(id) FROM runs)" },
		{ "UPDATE environments SET fingerprint = fingerprint || 'x'",
		  "UPDATE environments SET fingerprint = substr(fingerprint, 1, length(fingerprint) - 1)" },
		/* the newest run's commit moved to revision 1 and back */
		{ "UPDATE commits SET series_id = (SELECT id FROM series WHERE revision = 1) "
		  "WHERE id = (SELECT commit_id FROM runs WHERE id = (SELECT MAX(id) FROM runs))",
		  "UPDATE commits SET series_id = (SELECT id FROM series WHERE revision = 3) "
		  "WHERE id = (SELECT commit_id FROM runs WHERE id = (SELECT MAX(id) FROM runs))" },
	};
	struct strbuf err = STRBUF_INIT;
	char h0[65], h1[65], h2[65], copy[128];
	sqlite3 *other, *db2;

	snprintf(copy, sizeof(copy), "%s/copy.sqlite", dir);
	other = fw_db_open(sqlite3_db_filename(db, "main"), &err);
	hash_of(db, h0);
	hash_of(db, h1);
	ok(*h0 && !strcmp(h0, h1), "runs digest: the same runs, the same hash twice");
	for (size_t i = 0; i < sizeof(change) / sizeof(change[0]); i++) {
		printf("# another connection: %s\n", change[i][0]);
		ok(!fw_db_exec(other, change[i][0], &err), "another connection changed what the hash reads");
		hash_of(db, h1);
		ok(*h1 && strcmp(h0, h1), "... changes the data hash");
		fw_db_exec(other, change[i][1], &err);
		hash_of(db, h2);
		ok(!strcmp(h0, h2), "... and undone, the hash is the first one again");
	}
	/* A copy starts at the same db_id and generation: each then changes once, differently. */
	{
		struct strbuf sql = STRBUF_INIT;

		strbuf_addf(&sql, "VACUUM INTO '%s'", copy);
		ok(!fw_db_exec(db, sql.buf, &err), "copied the database (VACUUM INTO)");
		strbuf_release(&sql);
	}
	db2 = fw_db_open(copy, &err);
	hash_of(db2, h2);
	ok(!strcmp(h0, h2), "the copy: the same hash");
	fw_db_exec(other, change[0][0], &err);
	fw_db_exec(db2, "UPDATE runs SET boot_status = 'timeout' WHERE id = (SELECT MAX(id) FROM runs)", &err);
	hash_of(db, h1);
	hash_of(db2, h2);
	ok(*h1 && *h2 && strcmp(h1, h2) && strcmp(h0, h2),
	   "each changed at the same generation: the copy's hash is its own, not the original's");
	fw_db_exec(other, change[0][1], &err);
	fw_db_close(db2);
	fw_db_close(other);
	unlink(copy);
	strbuf_release(&err);
}

int main(void)
{
	struct strbuf err = STRBUF_INIT, doc = STRBUF_INIT;
	char path[] = "/tmp/fw-test-analysis-XXXXXX", dbpath[64];
	const char *base = "9f1c2d3e4b5a69788796a5b4c3d2e1f0a9b8c7d6";
	const char *v1 = "1111111111111111111111111111111111111111", *v3 = "3333333333333333333333333333333333333333";
	struct fw_an *res = NULL, *res2 = NULL;
	const struct fw_an_row *row;
	sqlite3 *db;
	int fails = 0;

	if (!mkdtemp(path) || strbuf_read_file(&doc, "schema/examples/run-ok.json", FW_DOC_MAX_BYTES)) {
		printf("Bail out! no temp dir or no schema/examples/run-ok.json\n");
		return 1;
	}
	snprintf(dbpath, sizeof(dbpath), "%s/db.sqlite", path);
	tmpl = cJSON_Parse(doc.buf);
	db = fw_db_open(dbpath, &err);
	ok(db && tmpl, "opened a DB and the example document");
	for (int b = 0; b < 5; b++) {
		fails |= add_run(db, 1, base, 0, b, 62.0);
		fails |= add_run(db, 1, v1, 1, b, 62.0);
		fails |= add_run(db, 3, base, 0, b, 62.0);
		fails |= add_run(db, 3, v3, 1, b, 58.9);   /* v3 of the series is 5% faster */
	}
	ok(!fails, "ingested 20 runs over two revisions");

	ok(!fw_analysis_compare(db, commit_id(db, 1, v1), commit_id(db, 3, v3), NULL, &res, &err),
	   "compare two commits across revisions");
	/* With 4 boots and two metrics in the BH family, 2/70 cannot pass: 5 boots can. */
	row = row_for(res, "split_ms", "other");
	ok(row != NULL, "a row for split_ms");
	if (row) {
		is_str(row->verdict, "improvement", "v3 is 5% faster than v1");
		ok(row->v == FW_IMPROVEMENT, "... typed as one");
		ok(fabs(row->delta_pct + 5) < 0.5, "delta about -5%");
		is_str(row->unit_of_comparison, "boots", "5 boots: per-boot medians");
		ok(row->per_boot && row->a.boots == 5 && row->b.boots == 5, "... 5 boots a side");
	}
	ok(row_for(res, "bw_mib_s", "other") == NULL, "a result with an error is not compared");
	{
		size_t rows = 0;

		ok(an_typed_matches(res, &rows) && rows > 0, "the comparison: every typed field is its JSON's");
	}
	fw_an_free(res);
	res = NULL;
	ok(fw_analysis_compare(db, 1, 1, NULL, &res, &err) && !res, "the same commit twice is refused");

	ok(!fw_analysis_series(db, "example", 3, NULL, &res, &err), "series v3 analysed");
	ok(!fw_analysis_series(db, "example", 3, NULL, &res2, &err), "and again (from the cache)");
	ok(res && res2 && !strcmp(res->data_hash, res2->data_hash) && strlen(res->data_hash) == 64,
	   "same data, same hash");
	{
		char *a = cJSON_PrintUnformatted(fw_an_json(res)), *b = cJSON_PrintUnformatted(fw_an_json(res2));
		ok(a && b && !strcmp(a, b), "cached result equals the computed one");
		free(a);
		free(b);
	}
	fw_an_free(res2);
	res2 = NULL;
	add_run(db, 3, v3, 1, 5, 58.9);
	ok(!fw_analysis_series(db, "example", 3, NULL, &res2, &err), "analysed after a new run arrived");
	ok(res2 && strcmp(res->data_hash, res2->data_hash), "new data, new hash (cache not reused)");
	row = row_for(res2, "split_ms", "parent");
	ok(row && row->b.boots == 6 && row->against == FW_AGAINST_PARENT, "the new boot is counted");
	{
		/* A page (issue 31): a fast series is analysed by the page itself, never behind the data. */
		struct fw_analysis_opts o;
		struct fw_an *fresh = NULL, *stale = NULL;

		add_run(db, 3, v3, 1, 6, 58.9);
		fw_analysis_opts_init(&o);
		o.use_cache = 0;
		ok(!fw_analysis_series(db, "example", 3, &o, &fresh, &err), "newer data: its hash");
		o.use_cache = 1;
		o.page = 1;
		ok(!fw_analysis_series(db, "example", 3, &o, &stale, &err) && stale &&
		   !stale->stale && !strcmp(stale->data_hash, fresh->data_hash),
		   "a page of a fast series: the newest analysis, not stale");
		fw_an_free(fresh);
		fw_an_free(stale);
		stale = NULL;

		/* A slow series (its last analysis took 5 s): a page shows the older one and wakes the detection. */
		ok(!fw_db_exec(db, "UPDATE analysis_cache SET compute_ms = 5000", &err), "the last analysis took 5 s");
		add_run(db, 3, v3, 1, 7, 58.9);
		o.wake = woken;
		ok(!fw_analysis_series(db, "example", 3, &o, &stale, &err) && stale &&
		   stale->stale, "a page after a new boot: the older analysis, stale");
		is_int(stale && stale->analysed_up_to ? stale->analysed_up_to->position : -1, 1,
		       "... analysed up to position 1");
		is_int(wakes, 1, "... and the detection was asked to analyse the series");
		fw_an_free(stale);
		stale = NULL;
		o.page = 0;  /* the detection thread's options */
		ok(!fw_analysis_series(db, "example", 3, &o, &stale, &err) && stale &&
		   !stale->stale, "the detection computes it");
		fw_an_free(stale);
		stale = NULL;

		/* The same key cached by a `report --alpha 0.01`: never shown to a page as the older analysis. */
		o.alpha = 0.01;
		ok(!fw_analysis_series(db, "example", 3, &o, &stale, &err), "analysed with alpha 0.01 (cached)");
		fw_an_free(stale);
		stale = NULL;
		fw_db_exec(db, "UPDATE analysis_cache SET compute_ms = 5000", &err);
		add_run(db, 3, v3, 1, 8, 58.9);
		o.alpha = 0.05;
		o.page = 1;
		ok(!fw_analysis_series(db, "example", 3, &o, &stale, &err) && stale &&
		   !stale->stale && stale->alpha == 0.05,
		   "a page then computes its own (alpha 0.05), not the other options' result");
		fw_an_free(stale);
	}
	fw_an_free(res);
	fw_an_free(res2);
	res = NULL;
	ok(fw_analysis_series(db, "nope", 0, NULL, &res, &err) && strstr(err.buf, "no such series"),
	   "unknown series is an error naming it");

	test_runs_digest(db, path);
	{
		sqlite3 *other = fw_db_open(dbpath, &err);

		sqlite3_progress_handler(db, 1, commit_elsewhere, other);
		strbuf_reset(&err);
		ok(!fw_regressions_refresh(db, NULL, NULL, &err),
		   "a refresh while another connection commits succeeds (no stale snapshot at BEGIN IMMEDIATE)");
		if (err.len)
			printf("# %s\n", err.buf);
		sqlite3_progress_handler(db, 0, NULL, NULL);
		ok(poked, "... the other connection did commit during it");
		fw_db_close(other);
	}
	fw_db_close(db);
	cJSON_Delete(tmpl);
	strbuf_release(&err);
	strbuf_release(&doc);
	{
		char f[96];
		snprintf(f, sizeof(f), "%s/db.sqlite", path);
		unlink(f);
		snprintf(f, sizeof(f), "%s/db.sqlite-wal", path);
		unlink(f);
		snprintf(f, sizeof(f), "%s/db.sqlite-shm", path);
		unlink(f);
		rmdir(path);
	}
	return done_testing();
}
