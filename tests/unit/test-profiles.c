/*
 * Issue 13: the run document's profiles[] -- validation (good, bad, hostile:
 * every error names profiles[i].field and writes nothing), storage and
 * idempotent re-ingest, and the profile diff's medians and ranking.
 */
#include <math.h>
#include <stdlib.h>
#include <unistd.h>
#include "tap.h"
#include "analysis-json.h"
#include "fw-db.h"
#include "ingest.h"
#include "run-doc.h"
#include "runcmd.h"

static char tmpdir[] = "/tmp/fw-profiles-XXXXXX";
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

static long long count(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	long long n = -1;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

static cJSON *entry(const char *w, const char *v, const char *fn, double hits, double t, double self)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "workload", w);
	cJSON_AddStringToObject(o, "variant", v);
	cJSON_AddStringToObject(o, "function", fn);
	cJSON_AddNumberToObject(o, "hits", hits);
	cJSON_AddNumberToObject(o, "time_us", t);
	if (!isnan(self))
		cJSON_AddNumberToObject(o, "self_us", self);
	return o;
}

/* The example with a valid profile of split/pmd-to-0 (3 functions, the last without self time). */
static cJSON *with_profiles(void)
{
	cJSON *doc = cJSON_Parse(example.buf), *p = cJSON_AddArrayToObject(doc, "profiles");

	cJSON_AddItemToArray(p, entry("split", "pmd-to-0", "split_huge_page_to_list_to_order", 512, 5000, 800));
	cJSON_AddItemToArray(p, entry("split", "pmd-to-0", "__split_huge_page", 512, 3000, 2000));
	cJSON_AddItemToArray(p, entry("split", "pmd-to-0", "xas_split.constprop.0", 512, 600, NAN));
	return doc;
}

static enum fw_ingest_status ingest_doc(sqlite3 *db, cJSON *doc, struct fw_ingest_info *info)
{
	char *txt = cJSON_PrintUnformatted(doc);
	enum fw_ingest_status s = fw_ingest(db, txt, strlen(txt), info);

	free(txt);
	return s;
}

static cJSON *prof(cJSON *d, int i) { return cJSON_GetArrayItem(cJSON_GetObjectItem(d, "profiles"), i); }
static void set(cJSON *d, int i, const char *k, cJSON *v) { cJSON_ReplaceItemInObject(prof(d, i), k, v); }
static void m_markup(cJSON *d) { set(d, 0, "function", cJSON_CreateString("<script>alert(1)</script>")); }
static void m_quote(cJSON *d) { set(d, 1, "function", cJSON_CreateString("a\"; system(\"x")); }
static void m_space(cJSON *d) { set(d, 1, "function", cJSON_CreateString("foo bar")); }
static void m_empty_fn(cJSON *d) { set(d, 0, "function", cJSON_CreateString("")); }
static void m_long_fn(cJSON *d)
{
	char s[130];
	memset(s, 'a', 129);
	s[129] = 0;
	set(d, 2, "function", cJSON_CreateString(s));
}
static void m_no_fn(cJSON *d) { cJSON_DeleteItemFromObject(prof(d, 1), "function"); }
static void m_neg_hits(cJSON *d) { set(d, 0, "hits", cJSON_CreateNumber(-1)); }
static void m_frac_hits(cJSON *d) { set(d, 0, "hits", cJSON_CreateNumber(1.5)); }
static void m_absurd_hits(cJSON *d) { set(d, 1, "hits", cJSON_CreateNumber(1e13)); }
static void m_str_time(cJSON *d) { set(d, 0, "time_us", cJSON_CreateString("5000")); }
static void m_no_time(cJSON *d) { cJSON_DeleteItemFromObject(prof(d, 0), "time_us"); }
static void m_neg_self(cJSON *d) { set(d, 1, "self_us", cJSON_CreateNumber(-0.5)); }
static void m_absurd_self(cJSON *d) { set(d, 1, "self_us", cJSON_CreateNumber(2e12)); }
static void m_no_result(cJSON *d) { set(d, 2, "variant", cJSON_CreateString("pte")); }
static void m_slash(cJSON *d) { set(d, 2, "workload", cJSON_CreateString("../split")); }
static void m_dup(cJSON *d) { cJSON_AddItemToArray(cJSON_GetObjectItem(d, "profiles"), cJSON_Duplicate(prof(d, 0), 1)); }
static void m_not_array(cJSON *d) { cJSON_ReplaceItemInObject(d, "profiles", cJSON_CreateObject()); }
static void m_not_object(cJSON *d) { cJSON_ReplaceItemInArray(cJSON_GetObjectItem(d, "profiles"), 1, cJSON_CreateNumber(3)); }
static void fill(cJSON *d, const char *w, const char *v, int n)
{
	char fn[32];
	for (int i = 0; i < n; i++) {
		snprintf(fn, sizeof(fn), "f%d", i);
		cJSON_AddItemToArray(cJSON_GetObjectItem(d, "profiles"), entry(w, v, fn, 1, 1, 1));
	}
}
static void m_too_many_wv(cJSON *d) { fill(d, "lazyfree", "pmd", 301); }
static void m_too_many(cJSON *d)
{
	cJSON_DeleteItemFromObject(d, "profiles");
	cJSON_AddArrayToObject(d, "profiles");
	fill(d, "lazyfree", "pmd", 4001);
}

typedef void (*mutator)(cJSON *);
static const struct {
	const char *name;
	mutator fn;
	const char *field;
} bad[] = {
	{ "markup in a function name", m_markup, "profiles[0].function" },
	{ "quotes in a function name", m_quote, "profiles[1].function" },
	{ "a space in a function name", m_space, "profiles[1].function" },
	{ "an empty function name", m_empty_fn, "profiles[0].function" },
	{ "a 129-byte function name", m_long_fn, "profiles[2].function" },
	{ "no function", m_no_fn, "profiles[1].function" },
	{ "negative hits", m_neg_hits, "profiles[0].hits" },
	{ "fractional hits", m_frac_hits, "profiles[0].hits" },
	{ "absurd hits", m_absurd_hits, "profiles[1].hits" },
	{ "time as a string", m_str_time, "profiles[0].time_us" },
	{ "no time", m_no_time, "profiles[0].time_us" },
	{ "negative self time", m_neg_self, "profiles[1].self_us" },
	{ "absurd self time", m_absurd_self, "profiles[1].self_us" },
	{ "a workload/variant without a result", m_no_result, "profiles[2].variant" },
	{ "'/' in a workload", m_slash, "profiles[2].workload" },
	{ "a duplicate function", m_dup, "profiles[3]" },
	{ "profiles not an array", m_not_array, "profiles" },
	{ "an entry not an object", m_not_object, "profiles[1]" },
	{ "301 functions of one workload/variant", m_too_many_wv, "profiles" },
	{ "4001 entries", m_too_many, "profiles" },
};

static void test_validation(void)
{
	sqlite3 *db = open_db("bad.db");
	struct fw_ingest_info info;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		cJSON *doc = with_profiles();
		char desc[200];
		bad[i].fn(doc);
		snprintf(desc, sizeof(desc), "rejected: %s", bad[i].name);
		is_int(ingest_doc(db, doc, &info), FW_INGEST_INVALID, desc);
		if (!ok(!strcmp(info.err.field, bad[i].field), "... the error names the field"))
			printf("#   detail '%s'\n", info.err.detail);
		cJSON_Delete(doc);
	}
	is_int(count(db, "SELECT count(*) FROM runs"), 0, "nothing written");
	{
		cJSON *doc = with_profiles();
		char *txt = cJSON_PrintUnformatted(doc), *cut = strstr(txt, "\"profiles\"");
		is_int(fw_ingest(db, txt, (size_t)(cut - txt) + 60, &info), FW_INGEST_INVALID,
		       "a document cut inside its profile list is rejected");
		free(txt);
		cJSON_Delete(doc);
	}
	fw_db_close(db);
}

static void test_store(void)
{
	sqlite3 *db = open_db("good.db");
	struct fw_ingest_info info;
	cJSON *doc = with_profiles();

	fill(doc, "lazyfree", "pmd", 300);
	is_int(ingest_doc(db, doc, &info), FW_INGEST_STORED, "300 functions of a workload/variant are fine");
	is_int(info.profiles, 303, "303 profile entries stored");
	is_int(count(db, "SELECT count(*) FROM profiles WHERE self_us IS NULL"), 1, "a missing self time is NULL");
	is_int(count(db, "SELECT hits FROM profiles WHERE function = 'xas_split.constprop.0'"), 512,
	       "a symbol with a '.' suffix is kept verbatim");
	is_int(ingest_doc(db, doc, &info), FW_INGEST_DUPLICATE, "a re-POST is a duplicate");
	is_int(count(db, "SELECT count(*) FROM profiles"), 303, "... and stores nothing twice");
	set(doc, 0, "hits", cJSON_CreateNumber(513));
	is_int(ingest_doc(db, doc, &info), FW_INGEST_CONFLICT, "other profiles under the same run id: conflict");
	is_int(count(db, "SELECT sum(hits) FROM profiles WHERE function LIKE 'split_huge%'"), 512, "... nothing changed");
	cJSON_Delete(doc);
	fw_db_close(db);
}

/* A boot of the example's commit (head: another commit on top of it) with the given profile. */
static void boot(sqlite3 *db, int head, int index, double split_self, int with_xas, int with_new)
{
	cJSON *doc = cJSON_Parse(example.buf), *p = cJSON_AddArrayToObject(doc, "profiles");
	cJSON *c = cJSON_GetObjectItem(doc, "commit");
	struct strbuf rid = STRBUF_INIT;
	struct fw_ingest_info info;

	if (head) {
		cJSON_ReplaceItemInObject(c, "parent", cJSON_CreateString(fw_json_str(c, "sha", "")));
		cJSON_ReplaceItemInObject(c, "sha", cJSON_CreateString("cccccccccccccccccccccccccccccccccccccccc"));
		cJSON_ReplaceItemInObject(c, "key", cJSON_CreateString("cccccccccccccccccccccccccccccccccccccccc"));
		cJSON_ReplaceItemInObject(c, "position", cJSON_CreateNumber(2));
	}
	cJSON_ReplaceItemInObject(doc, "boot_index", cJSON_CreateNumber(index));
	cJSON_AddItemToArray(p, entry("split", "pmd-to-0", "split_huge_page_to_list_to_order", 512, 5000, head ? 900 : 800));
	cJSON_AddItemToArray(p, entry("split", "pmd-to-0", "__split_huge_page", 512, 3000, split_self));
	if (with_xas)
		cJSON_AddItemToArray(p, entry("split", "pmd-to-0", "xas_split", 512, 600, NAN));
	if (with_new)
		cJSON_AddItemToArray(p, entry("split", "pmd-to-0", "new_fn", 10000, 50, 50));
	fw_doc_expected_run_id(doc, &rid);
	cJSON_ReplaceItemInObject(doc, "run_id", cJSON_CreateString(rid.buf));
	if (ingest_doc(db, doc, &info) != FW_INGEST_STORED)
		printf("# boot not stored: %s: %s\n", info.err.field, info.err.detail);
	strbuf_release(&rid);
	cJSON_Delete(doc);
}

/* The names of the functions of variant 0, comma-separated. */
static void names(const cJSON *res, struct strbuf *out)
{
	const cJSON *f;

	strbuf_reset(out);
	cJSON_ArrayForEach(f, cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(res, "variants"), 0), "functions"))
		strbuf_addf(out, "%s%s", out->len ? "," : "", fw_json_str(f, "function", "?"));
}

static void test_diff(void)
{
	sqlite3 *db = open_db("diff.db");
	struct strbuf err = STRBUF_INIT, got = STRBUF_INIT;
	struct fw_prof_query q = { .base_commit = 1, .head_commit = 2, .workload = "split" };
	cJSON *res = NULL, *f, *row;

	boot(db, 0, 0, 2000, 1, 0);
	boot(db, 0, 1, 9999, 1, 0);   /* an outlier boot: the median ignores it */
	boot(db, 0, 2, 2000, 1, 0);
	boot(db, 1, 0, 3000, 0, 1);
	boot(db, 1, 1, 3000, 0, 1);
	is_int(fw_profile_diff(db, &q, &res, &err), 0, "diff of two profiled commits");
	names(res, &got);
	is_str(got.buf, "__split_huge_page,xas_split,split_huge_page_to_list_to_order,new_fn",
	       "ranked by |delta self| (total time where self is missing)");
	f = cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(res, "variants"), 0), "functions"), 0);
	ok(fw_json_num(cJSON_GetObjectItem(f, "before"), "self_us", 0) == 2000, "before: the median over 3 boots, not the mean");
	ok(fw_json_num(cJSON_GetObjectItem(f, "delta"), "self_us", 0) == 1000, "delta self +1000 us");
	ok(fw_json_num(cJSON_GetObjectItem(f, "delta_pct"), "self_us", 0) == 50, "delta +50%");
	is_int((long long)fw_json_num(cJSON_GetArrayItem(cJSON_GetObjectItem(res, "variants"), 0), "boots_before", 0), 3, "3 boots before");
	cJSON_Delete(res);
	q.sort = FW_PROF_SORT_HITS;
	fw_profile_diff(db, &q, &res, &err);
	names(res, &got);
	is_str(got.buf, "new_fn,xas_split,__split_huge_page,split_huge_page_to_list_to_order", "ranked by |delta hits|");
	cJSON_Delete(res);
	q.sort = FW_PROF_SORT_TOTAL;
	q.match = "split_huge";
	q.limit = 1;
	fw_profile_diff(db, &q, &res, &err);
	names(res, &got);
	is_str(got.buf, "__split_huge_page", "filtered by name and limited");
	cJSON_Delete(res);
	q.head_commit = 99;
	fw_profile_diff(db, &q, &res, &err);
	ok(cJSON_IsNull(cJSON_GetObjectItem(res, "env_fingerprint")) && !cJSON_GetArraySize(cJSON_GetObjectItem(res, "variants")),
	   "a commit without profiles: no environment, no variants");
	cJSON_Delete(res);
	row = cJSON_CreateObject();
	cJSON_AddNumberToObject(row, "commit_id", 2);
	cJSON_AddNumberToObject(row, "ref_commit_id", 1);
	{
		cJSON *ex = cJSON_Parse(example.buf);
		cJSON_AddStringToObject(row, "env_fingerprint", fw_json_str(cJSON_GetObjectItem(ex, "environment"), "fingerprint", ""));
		cJSON_Delete(ex);
	}
	cJSON_AddStringToObject(row, "workload", "split");
	cJSON_AddStringToObject(row, "variant", "pmd-to-0");
	is_int(fw_profile_attribution(db, row, &err), 0, "attribution of a row");
	is_int(cJSON_GetArraySize(cJSON_GetObjectItem(row, "attribution")), 4, "... its functions (at most 5)");
	cJSON_ReplaceItemInObject(row, "variant", cJSON_CreateString("pte"));
	cJSON_DeleteItemFromObject(row, "attribution");
	fw_profile_attribution(db, row, &err);
	ok(!cJSON_GetObjectItem(row, "attribution"), "no attribution without profiles of the row's variant");
	cJSON_Delete(row);
	strbuf_release(&got);
	strbuf_release(&err);
	fw_db_close(db);
}

int main(int argc, char **argv)
{
	const char *ex = argc > 1 ? argv[1] : "schema/examples/run-ok.json";
	const char *argv_rm[] = { "rm", "-rf", tmpdir, NULL };
	struct strbuf out = STRBUF_INIT;

	if (!mkdtemp(tmpdir) || strbuf_read_file(&example, ex, 0)) {
		printf("Bail out! cannot set up (%s)\n", ex);
		return 1;
	}
	test_validation();
	test_store();
	test_diff();
	strbuf_release(&example);
	runcmd_capture(argv_rm, NULL, &out);
	strbuf_release(&out);
	return done_testing();
}
