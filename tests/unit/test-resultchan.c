/* Result channel parser over recorded captures (tests/data/resultchan/), and the
 * results/run document made from them: complete captures give numbers, every
 * other kind gives a named reason and no numbers. */
#include "tap.h"
#include "resultchan.h"
#include "rundoc.h"
#include "crc32.h"
#include <stdlib.h>

#define DIR "tests/data/resultchan/"

static struct fw_chan c;

static enum fw_chan_status parse(const char *name)
{
	fw_chan_release(&c);
	return fw_chan_parse_file(name, &c);
}

static void expect(const char *file, enum fw_chan_status st, int line, const char *why_part)
{
	char desc[300];

	snprintf(desc, sizeof(desc), "%s is %s", file, fw_chan_status_name(st));
	is_int(parse(file), st, desc);
	snprintf(desc, sizeof(desc), "%s: problem at line %d", file, line);
	is_int(c.bad_line, line, desc);
	if (why_part) {
		snprintf(desc, sizeof(desc), "%s: reason mentions '%s'", file, why_part);
		if (!ok(strstr(c.why, why_part) != NULL, desc))
			printf("#   why: %s\n", c.why);
	}
}

/* Counts samples in a results array: numbers are present only where allowed. */
static int count_samples(const cJSON *results)
{
	const cJSON *r;
	int n = 0;

	cJSON_ArrayForEach(r, results)
		n += cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(r, "samples"));
	return n;
}

static const struct fw_hostfacts host = {
	"unit-host", "7.2.22", "6.1.0-test", "Test CPU", "fio-3.33",
};

static cJSON *doc_for(const char *file, const char *workloads, const char *boot_status)
{
	struct fw_rundoc_facts f = { 0 };
	struct fw_error e;
	cJSON *doc;

	parse(file);
	f.tree_name = "linux-source-6.12";
	f.series = "adhoc-6.12.117";
	f.series_base = "6.12.117";
	f.commit_sha = "abc";
	f.kernel_version = "6.12.117";
	f.config_hash = "32b1e20d58ea96611a9de39a373547344052db4368a4c02696edd4b8920a74af";
	f.host = &host;
	f.accel = "tcg";
	f.vcpus = 2;
	f.memory_mib = 2048;
	f.boot_status = boot_status;
	f.boot_seconds = 12.5;
	f.build_seconds = -1;
	f.qemu_cmdline = "qemu-system-x86_64 -accel tcg";
	f.kernel_cmdline = "console=ttyS0";
	f.boot_log_tail = "[ 1.0] hello\x1b[0m\n";
	f.profile = "quick";
	f.workloads = workloads;
	doc = fw_rundoc_build(&f, &c, &e);
	if (!doc)
		printf("# invalid document: %s: %s\n", e.field, e.detail);
	return doc;
}

int main(void)
{
	cJSON *doc, *res;
	const cJSON *r;
	int n_err;

	/* crc32 is zlib's: the guest and the Python generator agree with it */
	is_int(crc32_update(0, "123456789", 9), 0xcbf43926u, "crc32 check value");

	expect(DIR "good.txt", FW_CHAN_COMPLETE, 0, NULL);
	is_int(c.nrec, 12, "good: 12 records");
	is_str(c.kernel, "6.12.117", "good: kernel from begin");
	is_str(c.profile, "quick", "good: profile from begin");
	is_int(c.rounds, 2, "good: rounds from begin");
	is_str(fw_chan_get(&c.rec[3], "metric"), "split_ms", "good: sample metric");
	ok(c.rec[3].value == 61.96, "good: sample value parsed");
	expect(DIR "good-crlf.txt", FW_CHAN_COMPLETE, 0, NULL);

	expect(DIR "empty.txt", FW_CHAN_TRUNCATED, 0, "empty");
	expect(DIR "does-not-exist.txt", FW_CHAN_TRUNCATED, 0, "empty");
	expect(DIR "truncated.txt", FW_CHAN_TRUNCATED, 0, "no end record after 6 records");
	expect(DIR "truncated-midline.txt", FW_CHAN_TRUNCATED, 7, "ends inside line 7");
	expect(DIR "reordered.txt", FW_CHAN_CORRUPT, 4, "gap");
	expect(DIR "gap.txt", FW_CHAN_CORRUPT, 4, "sequence 4 where 3 was expected");
	expect(DIR "bad-checksum.txt", FW_CHAN_CORRUPT, 5, "bad crc");
	expect(DIR "garbage.txt", FW_CHAN_CORRUPT, 6, "not a record");
	expect(DIR "bad-end-count.txt", FW_CHAN_CORRUPT, 12, "counts 3 records");
	expect(DIR "after-end.txt", FW_CHAN_CORRUPT, 13, "after the end");
	expect(DIR "infinite-value.txt", FW_CHAN_CORRUPT, 4, "finite");
	expect(DIR "nan-value.txt", FW_CHAN_CORRUPT, 4, "finite");
	expect(DIR "slash-name.txt", FW_CHAN_CORRUPT, 2, "contains '/'");
	expect(DIR "unencoded.txt", FW_CHAN_CORRUPT, 3, "bad crc");
	expect(DIR "nul-escape.txt", FW_CHAN_CORRUPT, 2, "%00");
	expect(DIR "format2.txt", FW_CHAN_CORRUPT, 1, "format=2");
	expect(DIR "huge-values.txt", FW_CHAN_COMPLETE, 0, NULL);
	ok(c.rec[3].value > 1.7e308, "huge: largest double kept");

	expect(DIR "hostile-names.txt", FW_CHAN_COMPLETE, 0, NULL);
	is_str(fw_chan_get(&c.rec[1], "variant"), "a b\"c'<>&%\xc3\xa9", "hostile: variant decoded byte for byte");
	is_str(fw_chan_get(&c.rec[3], "msg"), "line one\nline two: 50% failed", "hostile: newline in msg decoded");

	/* in-memory edge cases, as a fuzzer would make them (fw_chan_parse overwrites c) */
	fw_chan_release(&c);
	is_int(fw_chan_parse("\0\0\0", 3, &c), FW_CHAN_TRUNCATED, "NULs without newline: truncated");
	fw_chan_release(&c);
	is_int(fw_chan_parse("FW1 \n", 5, &c), FW_CHAN_CORRUPT, "bare prefix: corrupt");
	fw_chan_release(&c);
	is_int(fw_chan_parse("\n\n\r\n", 4, &c), FW_CHAN_TRUNCATED, "blank lines only: truncated");
	fw_chan_release(&c);
	{
		/* right crc, but a %-escape cut at the end of the value */
		char line[128];
		int n = snprintf(line, sizeof(line), "FW1 0 begin format=1 x=%%4");
		n += snprintf(line + n, sizeof(line) - (size_t)n, " *%08x\n", (unsigned)crc32_update(0, line, (size_t)n));
		is_int(fw_chan_parse(line, (size_t)n, &c), FW_CHAN_CORRUPT, "cut %-escape: corrupt");
		ok(strstr(c.why, "escape") != NULL, "cut %-escape: reason says escape");
		fw_chan_release(&c);
	}

	/* results: complete capture gives samples and aligned counters */
	parse(DIR "good.txt");
	res = fw_rundoc_results(&c, "split,lazyfree", &n_err);
	is_int(cJSON_GetArraySize(res), 2, "good: two results");
	is_int(n_err, 0, "good: no error results");
	is_int(count_samples(res), 4, "good: four samples");
	r = cJSON_GetArrayItem(res, 0);
	is_str(fw_json_str(r, "metric", ""), "split_ms", "good: first result is split_ms");
	is_int(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(r, "counters")), 2, "good: counters per round");
	is_int((int)fw_json_num(cJSON_GetObjectItemCaseSensitive(r, "params"), "file_mib", 0), 512, "good: numeric param");
	is_str(fw_json_str(cJSON_GetObjectItemCaseSensitive(r, "params"), "memcg", ""), "v1", "good: info in params");
	cJSON_Delete(res);

	/* a workload that was asked for and said nothing */
	parse(DIR "good.txt");
	res = fw_rundoc_results(&c, "split,lazyfree,mthp", &n_err);
	is_int(n_err, 1, "missing workload becomes an error result");
	cJSON_Delete(res);

	/* error records: that workload's numbers are withheld, the others kept */
	parse(DIR "workload-error.txt");
	res = fw_rundoc_results(&c, "split,lazyfree", &n_err);
	is_int(n_err, 1, "workload error: one error result");
	is_int(count_samples(res), 2, "workload error: only split's samples remain");
	cJSON_Delete(res);

	/* documents: every kind of capture makes a valid document, numbers only when complete */
	{
		static const char *const files[] = {
			"good.txt", "truncated.txt", "truncated-midline.txt", "reordered.txt", "bad-checksum.txt",
			"garbage.txt", "empty.txt", "huge-values.txt", "hostile-names.txt", "workload-error.txt",
			"slash-name.txt", "nul-escape.txt", NULL,
		};
		for (int i = 0; files[i]; i++) {
			char path[200], desc[300];
			snprintf(path, sizeof(path), DIR "%s", files[i]);
			doc = doc_for(path, "split,lazyfree", "ok");
			snprintf(desc, sizeof(desc), "%s: valid document", files[i]);
			ok(doc != NULL, desc);
			if (doc && c.status != FW_CHAN_COMPLETE) {
				snprintf(desc, sizeof(desc), "%s: no samples in the document", files[i]);
				is_int(count_samples(cJSON_GetObjectItemCaseSensitive(doc, "results")), 0, desc);
			}
			cJSON_Delete(doc);
		}
	}
	doc = doc_for(DIR "good.txt", "split,lazyfree", "panic");
	ok(doc && !strcmp(fw_json_str(cJSON_GetObjectItemCaseSensitive(doc, "boot"), "status", ""), "panic"),
	   "boot status carried into the document");
	cJSON_Delete(doc);
	{
		struct fw_rundoc_facts f = { 0 };
		struct fw_error e;
		f.tree_name = "t";
		f.series = "s";
		f.series_base = "b";
		f.commit_sha = "c";
		f.config_hash = "32b1e20d58ea96611a9de39a373547344052db4368a4c02696edd4b8920a74af";
		f.host = &host;
		f.accel = "tcg";
		f.vcpus = 2;
		f.memory_mib = 2048;
		f.build_log_tail = "error: foo.c:1: bad\n";
		f.workloads = "split";
		doc = fw_rundoc_not_run(&f, &e);
		ok(doc != NULL, "failed build gives a valid not_run document");
		ok(doc && !strcmp(fw_json_str(cJSON_GetObjectItemCaseSensitive(doc, "boot"), "status", ""), "not_run"),
		   "not_run status");
		cJSON_Delete(doc);
	}
	fw_chan_release(&c);
	return done_testing();
}
