/*
 * Data layer: migrations, ingest of the example document with read-back of
 * every field, idempotency, conflicts, failed builds, and malformed documents
 * rejected with the right field path and nothing written.
 */
#include <math.h>
#include <stdlib.h>
#include <unistd.h>
#include "tap.h"
#include "fw-db.h"
#include "ingest.h"
#include "run-doc.h"
#include "runcmd.h"
#include "sha256.h"

static char tmpdir[] = "/tmp/fw-ingest-XXXXXX";
static struct strbuf example = STRBUF_INIT;

static sqlite3 *open_db(const char *name)
{
	struct strbuf path = STRBUF_INIT, err = STRBUF_INIT;
	sqlite3 *db;

	strbuf_addf(&path, "%s/%s", tmpdir, name);
	db = fw_db_open(path.buf, &err);
	if (!db)
		printf("# open: %s\n", err.buf);
	strbuf_release(&path);
	strbuf_release(&err);
	return db;
}

static long long count(sqlite3 *db, const char *table)
{
	char sql[128];
	sqlite3_stmt *st;
	long long n = -1;

	snprintf(sql, sizeof(sql), "SELECT count(*) FROM %s", table); /* table names are literals here */
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

static long long total_rows(sqlite3 *db)
{
	static const char *const tables[] = { "trees", "series", "commits", "configs", "environments",
		"builds", "runs", "results", "samples", "counters", NULL };
	long long n = 0;
	for (int i = 0; tables[i]; i++)
		n += count(db, tables[i]);
	return n;
}

/* Text of column 0 of a query with no parameters. */
static char *query_text(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	char *out = NULL;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW &&
	    sqlite3_column_text(st, 0))
		out = strdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return out;
}

static void is_query(sqlite3 *db, const char *sql, const char *want, const char *desc)
{
	char *got = query_text(db, sql);
	is_str(got, want, desc);
	free(got);
}

static void test_migrations(void)
{
	struct strbuf err = STRBUF_INIT, path = STRBUF_INIT;
	int latest = fw_db_latest_version();

	ok(latest >= 2, "at least two migrations compiled in");
	for (int v = 0; v <= latest; v++) {
		sqlite3 *db;
		char desc[128];

		strbuf_reset(&path);
		strbuf_addf(&path, "%s/mig-%d.db", tmpdir, v);
		db = fw_db_open_at(path.buf, v, &err);
		is_int(db ? fw_db_user_version(db) : -1, v, "open at an earlier version");
		fw_db_close(db);
		db = fw_db_open(path.buf, &err);
		snprintf(desc, sizeof(desc), "migrates from version %d to the latest", v);
		is_int(db ? fw_db_user_version(db) : -1, latest, desc);
		if (db) {
			is_query(db, "PRAGMA journal_mode", "wal", "WAL mode");
			is_query(db, "PRAGMA foreign_keys", "1", "foreign keys on");
			is_query(db, "PRAGMA integrity_check", "ok", "integrity after migration");
		}
		fw_db_close(db);
	}
	/* a DB from the future is refused, not damaged */
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/future.db", tmpdir);
	sqlite3 *db = fw_db_open(path.buf, &err);
	fw_db_exec(db, "PRAGMA user_version = 999", &err);
	fw_db_close(db);
	strbuf_reset(&err);
	db = fw_db_open(path.buf, &err);
	ok(!db && strstr(err.buf, "newer"), "a newer schema version is refused with a message");
	fw_db_close(db);
	strbuf_release(&err);
	strbuf_release(&path);
}

static void test_example_roundtrip(void)
{
	sqlite3 *db = open_db("example.db");
	struct fw_ingest_info info;

	is_int(fw_ingest(db, example.buf, example.len, &info), FW_INGEST_STORED, "example document stored");
	is_int(info.results, 3, "three results");
	is_int(info.samples, 4, "four samples");
	is_query(db, "SELECT name || '|' || url FROM trees", "linux-source-6.12|", "tree read back");
	is_query(db, "SELECT name || '|' || revision || '|' || base FROM series",
		 "example|1|9f1c2d3e4b5a69788796a5b4c3d2e1f0a9b8c7d6", "series read back");
	is_query(db, "SELECT sha || '|' || commit_key || '|' || subject || '|' || author || '|' || position || '|' || parent_sha FROM commits",
		 "3b2f6a1c9d8e7f60514253647586970a1b2c3d4e|3b2f6a1c9d8e7f60514253647586970a1b2c3d4e|"
		 "mm: let small-order large folios use the per-CPU LRU cache|A Developer <dev@example.org>|1|"
		 "9f1c2d3e4b5a69788796a5b4c3d2e1f0a9b8c7d6", "commit read back");
	is_query(db, "SELECT status || '|' || seconds || '|' || kernel_version || '|' || compiler || '|' || length(config_hash) FROM builds",
		 "ok|14.2|6.12.117|gcc (Debian 12.2.0-14+deb12u1) 12.2.0|64", "build read back");
	is_query(db, "SELECT body FROM configs",
		 "CONFIG_SMP=y\nCONFIG_TRANSPARENT_HUGEPAGE=y\nCONFIG_ADVISE_SYSCALLS=y\n", "full .config stored once");
	is_query(db, "SELECT host || '|' || accel || '|' || qemu_version || '|' || vcpus || '|' || memory_mib || '|' || host_kernel || '|' || cpu_model || '|' || foliowatch_version || '|' || fio_version FROM environments",
		 "runner-1|tcg|7.2.18|2|2048|6.1.0-40-amd64|Intel Xeon Processor (Cascadelake)|0.1|fio-3.33",
		 "environment read back");
	is_query(db, "SELECT origin || '|' || profile || '|' || workloads || '|' || boot_index || '|' || created_at || '|' || boot_status || '|' || taint || '|' || boot_seconds FROM runs",
		 "local|quick|split,lazyfree|0|2026-11-29T22:00:00Z|ok|0|41.7", "run read back");
	is_query(db, "SELECT kernel_cmdline FROM runs", "console=ttyS0 panic=-1 fw.workloads=split,lazyfree",
		 "kernel command line read back");
	is_query(db, "SELECT boot_log_tail FROM runs", "[    2.101] Run /init as init process\nfoliowatch: done\n",
		 "boot log tail read back");
	is_query(db, "SELECT group_concat(workload || '/' || variant || '/' || metric || ':' || unit || ':' || direction || ':' || kind, ' ') FROM results ORDER BY id",
		 "split/pmd-to-0/split_ms:ms:lower_is_better:time lazyfree/pmd/reclaim_s:s:lower_is_better:time "
		 "filemap/4k/bw_mib_s:MiB/s:higher_is_better:rate", "results read back");
	is_query(db, "SELECT params FROM results WHERE workload = 'split'", "{\"file_mib\":512,\"fs\":\"tmpfs\",\"order\":0}",
		 "params stored in canonical form");
	is_query(db, "SELECT min_effect_pct FROM results WHERE workload = 'split'", "2.0", "min_effect_pct read back");
	is_query(db, "SELECT error FROM results WHERE workload = 'filemap'",
		 "fio exited with status 1: mmap: Cannot allocate memory", "workload error read back");
	is_query(db, "SELECT group_concat(value, ',') FROM (SELECT value FROM samples s JOIN results r ON r.id = s.result_id WHERE r.workload = 'split' ORDER BY round)",
		 "61.96,61.88", "samples in round order");
	is_query(db, "SELECT group_concat(round || ':' || name || '=' || value, ',') FROM (SELECT c.* FROM counters c JOIN results r ON r.id = c.result_id WHERE r.workload = 'lazyfree' ORDER BY round, name)",
		 "0:pglazyfree=131072.0,0:pglazyfreed=131072.0,0:thp_split_pmd=256.0,1:pglazyfree=131072.0,1:pglazyfreed=131072.0,1:thp_split_pmd=256.0",
		 "counters per round read back");

	long long before = total_rows(db);
	is_int(fw_ingest(db, example.buf, example.len, &info), FW_INGEST_DUPLICATE, "identical re-import is a no-op");
	is_int(total_rows(db), before, "no duplicate rows");

	/* same run id, other content: conflict, nothing changes */
	cJSON *doc = cJSON_Parse(example.buf);
	cJSON *s0 = cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "results"), 0), "samples"), 0);
	cJSON_SetNumberValue(s0, 99.5);
	char *txt = cJSON_PrintUnformatted(doc);
	is_int(fw_ingest(db, txt, strlen(txt), &info), FW_INGEST_CONFLICT, "same run id with other content is a conflict");
	/* a sample differs, the run's own fields agree: the first field that differs is its results */
	is_str(info.err.field, "results", "conflict names the first field that differs: results");
	is_int(total_rows(db), before, "conflict writes nothing");
	is_query(db, "SELECT value FROM samples WHERE round = 0 ORDER BY result_id LIMIT 1", "61.96", "stored sample unchanged");
	free(txt);
	cJSON_Delete(doc);
	fw_db_close(db);
}

/* A failed build: boot not_run, no results, log tail kept. */
static void test_failed_build(void)
{
	sqlite3 *db = open_db("failed.db");
	cJSON *doc = cJSON_Parse(example.buf);
	struct fw_ingest_info info;
	struct strbuf rid = STRBUF_INIT;
	cJSON *build = cJSON_GetObjectItem(doc, "build"), *boot = cJSON_GetObjectItem(doc, "boot");

	cJSON_ReplaceItemInObject(build, "status", cJSON_CreateString("failed"));
	cJSON_ReplaceItemInObject(build, "log_tail", cJSON_CreateString("mm/rmap.c:1234:5: error: expected ';'\nmake: *** [vmlinux] Error 2\n"));
	cJSON_ReplaceItemInObject(boot, "status", cJSON_CreateString("not_run"));
	cJSON_ReplaceItemInObject(doc, "results", cJSON_CreateArray());
	fw_doc_expected_run_id(doc, &rid);
	cJSON_ReplaceItemInObject(doc, "run_id", cJSON_CreateString(rid.buf));
	char *txt = cJSON_PrintUnformatted(doc);
	is_int(fw_ingest(db, txt, strlen(txt), &info), FW_INGEST_STORED, "failed-build document stored");
	is_query(db, "SELECT b.status || '|' || r.boot_status FROM runs r JOIN builds b ON b.id = r.build_id",
		 "failed|not_run", "failed build and not_run boot recorded");
	is_query(db, "SELECT log_tail FROM builds", "mm/rmap.c:1234:5: error: expected ';'\nmake: *** [vmlinux] Error 2\n",
		 "build log tail kept");
	is_int(count(db, "results"), 0, "no results for a failed build");
	free(txt);
	strbuf_release(&rid);
	cJSON_Delete(doc);
	fw_db_close(db);
}

/* --- malformed documents --- */

typedef void (*mutator)(cJSON *doc);
static cJSON *result0(cJSON *d) { return cJSON_GetArrayItem(cJSON_GetObjectItem(d, "results"), 0); }
static void m_nan_sample(cJSON *d) { cJSON_SetNumberValue(cJSON_GetArrayItem(cJSON_GetObjectItem(result0(d), "samples"), 1), NAN); }
static void m_str_sample(cJSON *d) { cJSON_ReplaceItemInArray(cJSON_GetObjectItem(result0(d), "samples"), 0, cJSON_CreateString("61.9")); }
static void m_no_direction(cJSON *d) { cJSON_DeleteItemFromObject(result0(d), "direction"); }
static void m_bad_direction(cJSON *d) { cJSON_ReplaceItemInObject(result0(d), "direction", cJSON_CreateString("smaller")); }
static void m_counters_misaligned(cJSON *d) { cJSON_DeleteItemFromArray(cJSON_GetObjectItem(result0(d), "counters"), 1); }
static void m_counter_string(cJSON *d) { cJSON_ReplaceItemInObject(cJSON_GetArrayItem(cJSON_GetObjectItem(result0(d), "counters"), 0), "thp_split_page", cJSON_CreateString("many")); }
static void m_huge_samples(cJSON *d)
{
	cJSON *a = cJSON_CreateArray();
	for (int i = 0; i < FW_DOC_MAX_SAMPLES + 1; i++)
		cJSON_AddItemToArray(a, cJSON_CreateNumber(1));
	cJSON_ReplaceItemInObject(result0(d), "samples", a);
	cJSON_DeleteItemFromObject(result0(d), "counters");
}
static void m_wrong_type_series(cJSON *d) { cJSON_ReplaceItemInObject(d, "series", cJSON_CreateString("demo")); }
static void m_missing_commit_sha(cJSON *d) { cJSON_DeleteItemFromObject(cJSON_GetObjectItem(d, "commit"), "sha"); }
static void m_bad_format(cJSON *d) { cJSON_ReplaceItemInObject(d, "format", cJSON_CreateString("foliowatch-run/9")); }
static void m_bad_accel(cJSON *d) { cJSON_ReplaceItemInObject(cJSON_GetObjectItem(d, "environment"), "accel", cJSON_CreateString("hvf")); }
static void m_bad_fingerprint(cJSON *d) { cJSON_ReplaceItemInObject(cJSON_GetObjectItem(d, "environment"), "host", cJSON_CreateString("other-host")); }
static void m_bad_run_id(cJSON *d) { cJSON_ReplaceItemInObject(d, "boot_index", cJSON_CreateNumber(7)); }
static void m_slash_metric(cJSON *d) { cJSON_ReplaceItemInObject(result0(d), "metric", cJSON_CreateString("../../etc/passwd")); }
static void m_results_on_not_run(cJSON *d) { cJSON_ReplaceItemInObject(cJSON_GetObjectItem(d, "boot"), "status", cJSON_CreateString("not_run")); }
static void m_dup_metric(cJSON *d) { cJSON_AddItemToArray(cJSON_GetObjectItem(d, "results"), cJSON_Duplicate(result0(d), 1)); }
static void m_float_vcpus(cJSON *d) { cJSON_ReplaceItemInObject(cJSON_GetObjectItem(d, "environment"), "vcpus", cJSON_CreateNumber(2.5)); }
static void m_config_hash(cJSON *d) { cJSON_ReplaceItemInObject(cJSON_GetObjectItem(d, "build"), "config", cJSON_CreateString("CONFIG_SMP=n\n")); }
static void m_control_char(cJSON *d) { cJSON_ReplaceItemInObject(cJSON_GetObjectItem(d, "commit"), "subject", cJSON_CreateString("mm: fix\x1b[31m")); }
static void m_samples_and_error(cJSON *d) { cJSON_AddStringToObject(result0(d), "error", "boom"); }
static void m_seq(cJSON *d, double look, double max_looks)
{
	cJSON *q = cJSON_AddObjectToObject(d, "sequential");
	cJSON_AddNumberToObject(q, "look", look);
	cJSON_AddNumberToObject(q, "max_looks", max_looks);
}
static void m_seq_late(cJSON *d) { m_seq(d, 5, 4); }
static void m_seq_zero(cJSON *d) { m_seq(d, 1, 0); }
static void m_seq_float(cJSON *d) { m_seq(d, 1.5, 4); }
static void m_seq_string(cJSON *d) { cJSON_AddStringToObject(d, "sequential", "look 1 of 4"); }
#define HASH64 "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
static void m_wc_unlisted(cJSON *d) { cJSON_AddStringToObject(cJSON_AddObjectToObject(d, "workload_content"), "nosuch", HASH64); }
static void m_wc_short(cJSON *d)
{
	const char *first = cJSON_GetArrayItem(cJSON_GetObjectItem(d, "workloads"), 0)->valuestring;

	cJSON_AddStringToObject(cJSON_AddObjectToObject(d, "workload_content"), first, "abc123");
}

static const struct {
	const char *name;
	mutator fn;
	const char *field;
} mutations[] = {
	{ "NaN sample", m_nan_sample, "results[0].samples[1]" },
	{ "string sample", m_str_sample, "results[0].samples[0]" },
	{ "missing direction", m_no_direction, "results[0].direction" },
	{ "unknown direction", m_bad_direction, "results[0].direction" },
	{ "counters not aligned with samples", m_counters_misaligned, "results[0].counters" },
	{ "counter value not a number", m_counter_string, "results[0].counters[0].thp_split_page" },
	{ "more samples than the limit", m_huge_samples, "results[0].samples" },
	{ "series of the wrong type", m_wrong_type_series, "series" },
	{ "commit without sha", m_missing_commit_sha, "commit.sha" },
	{ "unknown format", m_bad_format, "format" },
	{ "unknown accel", m_bad_accel, "environment.accel" },
	{ "fingerprint not matching the environment", m_bad_fingerprint, "environment.fingerprint" },
	{ "run id not matching identity fields", m_bad_run_id, "run_id" },
	{ "'/' in a metric name", m_slash_metric, "results[0].metric" },
	{ "results on a run that did not boot", m_results_on_not_run, "results" },
	{ "duplicate metric", m_dup_metric, "results[3]" },
	{ "non-integer vcpus", m_float_vcpus, "environment.vcpus" },
	{ "config not matching its hash", m_config_hash, "build.config_hash" },
	{ "control characters in a subject", m_control_char, "commit.subject" },
	{ "samples and error together", m_samples_and_error, "results[0].error" },
	{ "a look after the last planned one", m_seq_late, "sequential.look" },
	{ "no planned looks", m_seq_zero, "sequential.max_looks" },
	{ "a fractional look", m_seq_float, "sequential.look" },
	{ "sequential not an object", m_seq_string, "sequential" },
	{ "content hash of a workload the run does not have", m_wc_unlisted, "workload_content.nosuch" },
	{ "content hash not a sha256", m_wc_short, "workload_content.split" },
};

static void expect_invalid(sqlite3 *db, const char *buf, size_t len, const char *field, const char *name)
{
	struct fw_ingest_info info;
	long long before = total_rows(db);
	char desc[200];
	enum fw_ingest_status s = fw_ingest(db, buf, len, &info);

	snprintf(desc, sizeof(desc), "rejected: %s", name);
	is_int(s, FW_INGEST_INVALID, desc);
	snprintf(desc, sizeof(desc), "error names %s", field[0] ? field : "the document");
	if (!ok(!strcmp(info.err.field, field), desc))
		printf("#   field '%s' detail '%s'\n", info.err.field, info.err.detail);
	ok(info.err.detail[0], "error has a detail");
	is_int(total_rows(db), before, "nothing written");
}

/* The optional `sequential` of an adaptive design is stored with the run; documents without it store NULL. */
static void test_sequential(void)
{
	sqlite3 *db = open_db("sequential.db");
	struct fw_ingest_info info;
	cJSON *doc = cJSON_Parse(example.buf);
	char *txt;

	m_seq(doc, 2, 4);
	txt = cJSON_PrintUnformatted(doc);
	is_int(fw_ingest(db, txt, strlen(txt), &info), FW_INGEST_STORED, "a boot of look 2 of 4 is stored");
	is_query(db, "SELECT look || '/' || max_looks FROM runs", "2/4", "its look and planned looks are kept");
	free(txt);
	cJSON_Delete(doc);
	fw_db_close(db);
	db = open_db("sequential-none.db");
	is_int(fw_ingest(db, example.buf, example.len, &info), FW_INGEST_STORED, "a document without it is stored");
	is_query(db, "SELECT coalesce(look, 'null') || '/' || coalesce(max_looks, 'null') FROM runs", "null/null",
		 "... as a fixed design");
	fw_db_close(db);
}

/* A user workload's content hash is part of the run id: a changed program is a new run. */
static void test_workload_content(void)
{
	sqlite3 *db = open_db("content.db");
	struct fw_ingest_info info;
	struct strbuf rid = STRBUF_INIT;
	cJSON *doc = cJSON_Parse(example.buf);
	const char *old = cJSON_GetStringValue(cJSON_GetObjectItem(doc, "run_id"));
	char *txt;

	cJSON_AddStringToObject(cJSON_AddObjectToObject(doc, "workload_content"), "lazyfree", HASH64);
	fw_doc_expected_run_id(doc, &rid);
	ok(strcmp(rid.buf, old) != 0, "a content hash changes the run id");
	cJSON_ReplaceItemInObject(doc, "run_id", cJSON_CreateString(rid.buf));
	txt = cJSON_PrintUnformatted(doc);
	is_int(fw_ingest(db, txt, strlen(txt), &info), FW_INGEST_STORED, "a document with a content hash is stored");
	is_int(fw_ingest(db, example.buf, example.len, &info), FW_INGEST_STORED,
	       "... and the same boot without it is another run, not a duplicate");
	free(txt);
	strbuf_release(&rid);
	cJSON_Delete(doc);
	fw_db_close(db);
}

static void test_malformed(void)
{
	sqlite3 *db = open_db("malformed.db");
	struct fw_ingest_info info;

	for (size_t i = 0; i < sizeof(mutations) / sizeof(mutations[0]); i++) {
		cJSON *doc = cJSON_Parse(example.buf);
		mutations[i].fn(doc);
		char *txt = cJSON_PrintUnformatted(doc);
		if (!txt) /* cJSON prints NaN as null: build the text by hand */
			txt = strdup("{}");
		expect_invalid(db, txt, strlen(txt), mutations[i].field, mutations[i].name);
		free(txt);
		cJSON_Delete(doc);
	}
	/* byte-level problems */
	expect_invalid(db, example.buf, example.len / 2, "", "truncated JSON");
	expect_invalid(db, "", 0, "", "empty body");
	expect_invalid(db, "[1,2,3]", 7, "", "top level not an object");
	{
		struct strbuf s = STRBUF_INIT;
		strbuf_add(&s, example.buf, example.len);
		char *p = strstr(s.buf, "A Developer");
		p[2] = (char)0xc3; /* lone lead byte */
		p[3] = 'X';
		expect_invalid(db, s.buf, s.len, "commit.author", "invalid UTF-8 (named by its path)");
		strbuf_reset(&s);
		for (int i = 0; i < 100; i++)
			strbuf_addch(&s, '[');
		for (int i = 0; i < 100; i++)
			strbuf_addch(&s, ']');
		expect_invalid(db, s.buf, s.len, "", "deep nesting");
		strbuf_reset(&s);
		strbuf_add(&s, example.buf, example.len);
		p = strstr(s.buf, "61.96");
		memcpy(p, "NaN  ", 5);
		expect_invalid(db, s.buf, s.len, "", "NaN literal");
		strbuf_reset(&s);
		strbuf_add(&s, example.buf, example.len);
		p = strstr(s.buf, "61.96");
		memcpy(p, "1e999", 5);
		expect_invalid(db, s.buf, s.len, "results[0].samples[0]", "Infinity via overflow");
		strbuf_reset(&s);
		strbuf_addstr(&s, "{\"format\":\"foliowatch-run/1\",\"format\":\"x\"}");
		expect_invalid(db, s.buf, s.len, "format", "duplicate key");
		strbuf_reset(&s);
		strbuf_add(&s, example.buf, example.len);
		while (s.len <= FW_DOC_MAX_BYTES)
			strbuf_addch(&s, ' ');
		expect_invalid(db, s.buf, s.len, "", "over the size limit");
		strbuf_release(&s);
	}
	/* hostile text in names is stored verbatim and harmlessly */
	{
		cJSON *doc = cJSON_Parse(example.buf);
		const char *hostile = "'); DROP TABLE runs; -- <script>alert(1)</script> \"$(touch /tmp/pwned)\"";
		struct strbuf rid = STRBUF_INIT;
		cJSON_ReplaceItemInObject(cJSON_GetObjectItem(doc, "series"), "name", cJSON_CreateString(hostile));
		cJSON_ReplaceItemInObject(cJSON_GetObjectItem(doc, "commit"), "subject", cJSON_CreateString(hostile));
		cJSON_ReplaceItemInObject(result0(doc), "workload", cJSON_CreateString("<img src=x onerror=alert(1)>'--"));
		fw_doc_expected_run_id(doc, &rid);
		cJSON_ReplaceItemInObject(doc, "run_id", cJSON_CreateString(rid.buf));
		char *txt = cJSON_PrintUnformatted(doc);
		is_int(fw_ingest(db, txt, strlen(txt), &info), FW_INGEST_STORED, "document with SQL/HTML/shell text stored");
		is_query(db, "SELECT name FROM series", hostile, "series name stored verbatim");
		is_query(db, "SELECT subject FROM commits", hostile, "subject stored verbatim");
		is_query(db, "SELECT workload FROM results ORDER BY id LIMIT 1", "<img src=x onerror=alert(1)>'--", "workload stored verbatim");
		is_int(count(db, "runs"), 1, "runs table still there");
		ok(access("/tmp/pwned", F_OK) != 0, "nothing executed");
		free(txt);
		strbuf_release(&rid);
		cJSON_Delete(doc);
	}
	fw_db_close(db);
}

int main(int argc, char **argv)
{
	const char *ex = argc > 1 ? argv[1] : "schema/examples/run-ok.json";

	if (!mkdtemp(tmpdir) || strbuf_read_file(&example, ex, 0)) {
		printf("Bail out! cannot set up (%s)\n", ex);
		return 1;
	}
	test_migrations();
	test_example_roundtrip();
	test_failed_build();
	test_sequential();
	test_workload_content();
	test_malformed();
	strbuf_release(&example);
	{
		struct strbuf cmd = STRBUF_INIT;
		const char *argv_rm[] = { "rm", "-rf", tmpdir, NULL };
		(void)cmd;
		runcmd_capture(argv_rm, NULL, &cmd);
		strbuf_release(&cmd);
	}
	return done_testing();
}
