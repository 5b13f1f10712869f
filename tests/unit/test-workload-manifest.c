/*
 * Your own workload's manifest (issue 33): a good one reads into the struct;
 * each mistake a user makes is refused with the file and the field named.
 * And the line format of what one run printed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "workload-manifest.h"
#include "workload-plan.h"

static const char *const builtin[] = { "split", "mthp", "lazyfree", "filemap", NULL };

#define GOOD_HEAD "\"format\": \"foliowatch-workload/1\", \"name\": \"lru-x\", \"program\": \"prog\","
#define GOOD_VARIANTS "\"variants\": [{\"name\": \"16k\", \"params\": {\"threads\": 2, \"loops\": 40}, \"quick\": {\"loops\": 4}}],"
#define GOOD_METRICS "\"metrics\": [{\"name\": \"wall_s\", \"unit\": \"s\", \"direction\": \"lower_is_better\", \"kind\": \"time\"}," \
	"{\"name\": \"ops\", \"unit\": \"ops/s\", \"direction\": \"higher_is_better\", \"kind\": \"rate\"}]"

static const char good[] = "{" GOOD_HEAD GOOD_VARIANTS GOOD_METRICS ","
	"\"args\": [\"-t\", \"{threads}\", \"--loops={loops}\"], \"timeout_s\": 30, \"accel\": \"icount\","
	"\"counters\": [\"thp_fault_alloc\", \"mthp/16kB/anon_fault_alloc\"],"
	"\"checks\": [{\"counter\": \"thp_fault_alloc\", \"min\": 1},"
	"  {\"counter\": \"mthp/16kB/anon_fault_alloc\", \"min_ratio\": 0.9, \"of\": \"program/expected\"}],"
	"\"needs\": {\"memcg\": \"v1\", \"tmpfs_huge\": \"always\", \"debugfs\": true, \"thp\": {\"enabled\": \"never\"},"
	"  \"mthp\": {\"16kB\": \"always\"}}}";

/* The error parsing text gives ("" when it parses). */
static char *error_of(const char *text)
{
	struct fw_workload_def w;
	struct strbuf err = STRBUF_INIT;

	if (!fw_workload_parse(text, "wl/workload.json", builtin, &w, &err))
		fw_workload_release(&w);
	return strbuf_detach(&err, NULL);
}

/* error_of must contain want. */
static void refused(const char *text, const char *want, const char *desc)
{
	char *e = error_of(text);

	if (!ok(strstr(e, want) != NULL, desc))
		printf("#   got '%s', expected it to contain '%s'\n", e, want);
	free(e);
}

static void good_manifest(void)
{
	struct fw_workload_def w;
	struct strbuf err = STRBUF_INIT;
	char **argv;

	ok(!fw_workload_parse(good, "wl/workload.json", builtin, &w, &err), "a good manifest reads");
	is_str(err.buf, "", "... with no message");
	is_str(w.name, "lru-x", "its name");
	is_int(w.nvariants, 1, "one variant");
	is_int(w.nmetrics, 2, "two metrics");
	ok(!w.metrics[0].higher_is_better && w.metrics[0].kind == FW_WL_TIME, "wall_s: lower is better, a time");
	ok(w.metrics[1].higher_is_better && w.metrics[1].kind == FW_WL_RATE, "ops: higher is better, a rate");
	ok(w.icount && w.timeout_s == 30, "icount, timeout 30 s");
	ok(w.nchecks == 2 && w.checks[1].min_ratio == 0.9 && !strcmp(w.checks[1].of, "program/expected"),
	   "the checks, one a share of a counter the program prints");
	ok(w.needs.memcg == 1 && !strcmp(w.needs.tmpfs_huge, "always") && w.needs.debugfs && !w.needs.block_device,
	   "needs: memcg v1, tmpfs huge=always, debugfs");
	ok(w.needs.nmthp == 1 && !strcmp(w.needs.mthp_size[0], "16kB") && !strcmp(w.needs.mthp_enabled[0], "always") &&
	   !strcmp(w.needs.thp_enabled, "never"), "needs: 16kB mTHP always, PMD THP never");
	argv = fw_workload_argv(&w, &w.variants[0], NULL);
	ok(!strcmp(argv[1], "-t") && !strcmp(argv[2], "2") && !strcmp(argv[3], "--loops=40") && !argv[4],
	   "argv: {param} replaced by the variant's default");
	fw_workload_argv_free(argv);
	argv = fw_workload_argv(&w, &w.variants[0], "quick");
	is_str(argv[3], "--loops=4", "... and by the quick profile's value");
	fw_workload_argv_free(argv);
	fw_workload_release(&w);
	strbuf_release(&err);
}

static void mistakes(void)
{
	refused("{" GOOD_VARIANTS GOOD_METRICS "}", "wl/workload.json: format: missing", "a missing field is named");
	refused("{\"format\": \"foliowatch-workload/1\", \"program\": \"p\"," GOOD_VARIANTS GOOD_METRICS "}",
		"wl/workload.json: name: missing", "... any of them");
	refused("{" GOOD_HEAD GOOD_VARIANTS GOOD_METRICS ", \"colour\": 1}", "colour: unknown field",
		"an unknown key is refused by name");
	refused("{" GOOD_HEAD GOOD_VARIANTS "\"metrics\": [{\"name\": \"a\", \"unit\": \"s\", \"direction\": "
		"\"lower_is_better\", \"kind\": \"time\", \"colour\": 2}]}", "metrics[0].colour: unknown field",
		"... inside an entry, with its path");
	refused("{" GOOD_HEAD GOOD_VARIANTS "\"metrics\": [{\"name\": \"a\", \"unit\": 5, \"direction\": "
		"\"lower_is_better\", \"kind\": \"time\"}]}", "metrics[0].unit: must be a string", "a wrong type");
	refused("{" GOOD_HEAD GOOD_VARIANTS "\"metrics\": [{\"name\": \"a\", \"unit\": \"s\", \"direction\": "
		"\"lower_is_better\", \"kind\": \"speed\"}]}", "metrics[0].kind: must be one of time, rate, count",
		"a wrong choice lists the right ones");
	refused("{" GOOD_HEAD GOOD_VARIANTS "\"metrics\": [{\"name\": \"a\", \"unit\": \"s\", \"direction\": "
		"\"lower_is_better\", \"kind\": \"time\"}, {\"name\": \"a\", \"unit\": \"s\", \"direction\": "
		"\"lower_is_better\", \"kind\": \"time\"}]}", "metrics[1]: metric 'a' given twice", "a duplicate metric");
	refused("{" GOOD_HEAD GOOD_VARIANTS GOOD_METRICS ", \"name\": \"x\"}", "field 'name' given twice",
		"a key given twice");
	refused("{\"format\": \"foliowatch-workload/1\", \"name\": \"split\", \"program\": \"p\"," GOOD_VARIANTS
		GOOD_METRICS "}", "'split' is a built-in workload", "a built-in's name");
	refused("{\"format\": \"foliowatch-workload/1\", \"name\": \"Bad Name\", \"program\": \"p\"," GOOD_VARIANTS
		GOOD_METRICS "}", "name: 'Bad Name' is not a name", "a name with spaces and capitals");
	refused("{\"format\": \"foliowatch-workload/1\", \"name\": \"x\", \"program\": \"../p\"," GOOD_VARIANTS
		GOOD_METRICS "}", "program: a path inside the workload's folder", "a program outside its folder");
	refused("{" GOOD_HEAD GOOD_VARIANTS GOOD_METRICS ", \"args\": [\"{nope}\"]}",
		"args[0]: {nope}: variant '16k' has no such param", "an argument naming no parameter");
	refused("{" GOOD_HEAD GOOD_VARIANTS GOOD_METRICS ", \"checks\": [{\"counter\": \"pgfault\", \"min\": 1}]}",
		"checks[0]: 'pgfault' is not in counters", "a check of a counter not recorded");
	refused("{" GOOD_HEAD GOOD_VARIANTS GOOD_METRICS ", \"checks\": [{\"counter\": \"program/x\", \"min_ratio\": 0.5}]}",
		"min_ratio needs of", "a share without what it is a share of");
	refused("{" GOOD_HEAD "\"variants\": [{\"name\": \"a\", \"params\": {\"n\": 1}, \"quick\": {\"m\": 2}}],"
		GOOD_METRICS "}", "variants[0].quick: 'm' is not one of the variant's params",
		"a profile value for no parameter");
	refused("{" GOOD_HEAD GOOD_VARIANTS GOOD_METRICS ", \"needs\": {\"mthp\": {\"12kB\": \"always\"}}}",
		"needs.mthp.12kB: not an mTHP size", "an mTHP size that is not one");
	refused("{" GOOD_HEAD GOOD_VARIANTS GOOD_METRICS ", \"timeout_s\": 0}", "timeout_s: a number of seconds",
		"a zero timeout");
	refused("{" GOOD_HEAD "\"variants\": []," GOOD_METRICS "}", "variants: must not be empty", "no variants");
	refused("{\"format\": \"foliowatch-workload/2\", \"name\": \"x\", \"program\": \"p\"," GOOD_VARIANTS
		GOOD_METRICS "}", "format: must be \"foliowatch-workload/1\"", "another format");
	refused("{\"name\": ", "wl/workload.json: not JSON", "not JSON at all");
	refused("{" GOOD_HEAD GOOD_VARIANTS "\"metrics\": [{\"name\": \"a\", \"unit\": \"ops\", \"direction\": "
		"\"higher_is_better\", \"kind\": \"rate\", \"timed\": true}]}",
		"metrics[0].timed: a timed metric is the run's wall time: kind time, unit s, lower_is_better",
		"a timed metric that is not a time in s");
}

/* "timed": true: foliowatch times the run; the program must not print it, and need not. */
static void timed(void)
{
	struct fw_workload_def w;
	struct fw_wl_output o;
	struct strbuf err = STRBUF_INIT, text = STRBUF_INIT;
	static const char manifest[] = "{" GOOD_HEAD GOOD_VARIANTS "\"metrics\": [{\"name\": \"run_s\", \"unit\": \"s\", "
		"\"direction\": \"lower_is_better\", \"kind\": \"time\", \"timed\": true},"
		"{\"name\": \"ops\", \"unit\": \"ops\", \"direction\": \"higher_is_better\", \"kind\": \"count\"}]}";

	if (fw_workload_parse(manifest, "wl/workload.json", builtin, &w, &err)) {
		ok(0, "a manifest with a timed metric parses");
		printf("# %s\n", err.buf);
		return;
	}
	ok(w.metrics[0].timed && !w.metrics[1].timed, "a manifest with a timed metric parses");
	ok(!fw_workload_parse_output(&w, "metric ops 3\n", &o, &err), "... its output needs no line for the timed one");
	fw_wl_output_release(&o);
	ok(fw_workload_parse_output(&w, "metric ops 3\nmetric run_s 1\n", &o, &err) &&
		   strstr(err.buf, "line 2: metric 'run_s' is timed by foliowatch"), "... and printing it is an error");
	ok(!fw_workload_plan_text(&w, NULL, "abc", &text, &err) && strstr(text.buf, "metric\trun_s\ts\tlower_is_better\ttime\ttimed\n") &&
		   strstr(text.buf, "metric\tops\tops\thigher_is_better\tcount\n"), "... the plan marks it timed");
	fw_workload_release(&w);
	strbuf_release(&err);
	strbuf_release(&text);
}

static void output(void)
{
	struct fw_workload_def w;
	struct fw_wl_output o;
	struct strbuf err = STRBUF_INIT;
	static const char *const bad[][2] = {
		{ "metric wall_s 1.5\n", "metric 'ops' was never printed" },
		{ "metric wall_s 1.5\nmetric ops 2\nmetric wall_s 3\n", "line 3: metric 'wall_s' printed twice" },
		{ "metric wall_s abc\nmetric ops 2\n", "line 1: 'abc' is not a number for wall_s" },
		{ "metric wall_s nan\nmetric ops 2\n", "line 1: 'nan' is not a number" },
		{ "metric speed 1\n", "line 1: metric 'speed' is not in the manifest" },
		{ "metric wall_s\n", "line 1: expected 'metric NAME VALUE'" },
		{ "\x01\x02garbage\xff\n", "metric 'wall_s' was never printed" },
	};

	fw_workload_parse(good, "wl/workload.json", builtin, &w, &err);
	ok(!fw_workload_parse_output(&w, "starting\nmetric ops 1200.5\nmetric wall_s 1.25\ncounter expected 4096\ndone\n",
				     &o, &err), "a run's output reads (other lines are the program's own)");
	ok(o.value[0] == 1.25 && o.value[1] == 1200.5, "... each metric's value in the manifest's order");
	ok(o.ncounters == 1 && !strcmp(o.counter[0], "expected") && o.counter_value[0] == 4096, "... and its counter");
	fw_wl_output_release(&o);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		strbuf_reset(&err);
		ok(fw_workload_parse_output(&w, bad[i][0], &o, &err) && strstr(err.buf, bad[i][1]), bad[i][1]);
	}
	fw_workload_release(&w);
	strbuf_release(&err);
}

/* The plan the guest init reads (kernel/guest/user-plan.h), under the quick profile. */
static void plan(void)
{
	struct fw_workload_def w;
	struct strbuf err = STRBUF_INIT, text = STRBUF_INIT;
	static const char *const want[] = {
		"hash\tabc\n", "timeout_s\t30\n", "need\tthp_enabled\tnever\n", "need\tmthp\t16kB\talways\n",
		"need\tmemcg\tv1\n", "need\ttmpfs_huge\talways\n", "need\tdebugfs\n",
		"counter\tmthp/16kB/anon_fault_alloc\n", "metric\tops\tops/s\thigher_is_better\trate\n",
		"check\tthp_fault_alloc\tmin\t1\n", "check\tmthp/16kB/anon_fault_alloc\tratio\t0.9\tprogram/expected\n",
		"variant\t16k\nparam\tthreads\t2\nparam\tloops\t4\narg\t/fw/wl/lru-x/prog\narg\t-t\narg\t2\narg\t--loops=4\n",
	};
	char *tab;

	if (fw_workload_parse(good, "wl/workload.json", builtin, &w, &err)) {
		ok(0, "the good manifest parses");
		return;
	}
	ok(!fw_workload_plan_text(&w, "quick", "abc", &text, &err), "the plan is written");
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		ok(strstr(text.buf, want[i]) != NULL, want[i]);
	fw_workload_release(&w);
	/* a value with a tab cannot travel in the plan: refused, named */
	tab = strdup(good);
	memcpy(strstr(tab, "--loops="), "--loop\\t", 8);
	strbuf_reset(&text);
	ok(!fw_workload_parse(tab, "wl/workload.json", builtin, &w, &err) &&
		   fw_workload_plan_text(&w, "quick", "abc", &text, &err) && strstr(err.buf, "args[2]: holds a tab"),
	   "an argument holding a tab is refused, named");
	fw_workload_release(&w);
	free(tab);
	strbuf_release(&err);
	strbuf_release(&text);
}

int main(void)
{
	good_manifest();
	mistakes();
	output();
	plan();
	timed();
	return done_testing();
}
