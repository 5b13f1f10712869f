/* Result channel parser over recorded captures (tests/data/resultchan/), and the
 * results/run document made from them: complete captures give numbers, every
 * other kind gives a named reason and no numbers. */
#include "tap.h"
#include "resultchan.h"
#include "run-doc-build.h"
#include "crc32.h"
#include "run-doc-ref.h"
#include "rundoc-facts.h"
#include <stdlib.h>
#include <time.h>

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

/* Captures made in memory, as the guest writes them: seq numbers in order, zlib crc32. */
static void rec_add(struct strbuf *cap, unsigned long *seq, const char *type, const char *fields)
{
	size_t start = cap->len;

	strbuf_addf(cap, "FW1 %lu %s%s%s", (*seq)++, type, *fields ? " " : "", fields);
	strbuf_addf(cap, " *%08x\n", (unsigned)crc32_update(0, cap->buf + start, cap->len - start));
}

/* Percent-encodes what a writer may not leave plain (space, newline, tab, ...). */
static void add_enc(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if ((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') ||
		    strchr("._,:+-", ch))
			strbuf_addch(sb, ch);
		else
			strbuf_addf(sb, "%%%02X", ch);
	}
}

static void add_kv(struct strbuf *sb, const char *key, const char *val)
{
	if (sb->len)
		strbuf_addch(sb, ' ');
	strbuf_addf(sb, "%s=", key);
	add_enc(sb, val);
}

/* A diagnostic round's sample (diag=1, after the timed rounds) is a one-sample
 * result marked in its params, with its own counters; the timed ones are untouched. */
static void check_diag_round(void)
{
	static const char *const lines[][2] = {
		{ "begin", "format=1 kernel=6.12.117 profile=quick workloads=mthp rounds=2" },
		{ "param", "workload=mthp variant=16k threads=4" },
		{ "sample", "workload=mthp variant=16k metric=wall_s unit=s direction=lower_is_better kind=time round=0 value=3.0" },
		{ "counters", "workload=mthp variant=16k round=0 pgfault=10" },
		{ "sample", "workload=mthp variant=16k metric=wall_s unit=s direction=lower_is_better kind=time round=1 value=3.1" },
		{ "counters", "workload=mthp variant=16k round=1 pgfault=11" },
		{ "sample", "workload=mthp variant=16k metric=lru_lock_per_fault unit=1/fault direction=lower_is_better kind=count round=2 diag=1 value=0.5" },
		{ "counters", "workload=mthp variant=16k round=2 folio_batch_move_lru_calls=40960 lock_contended=7" },
	};
	struct strbuf cap = STRBUF_INIT;
	unsigned long seq = 0;
	const cJSON *r, *p;
	cJSON *res;
	int n_err, i;

	for (i = 0; i < (int)(sizeof(lines) / sizeof(lines[0])); i++) {
		if (strstr(lines[i][1], "unit=1/fault")) {
			/* '/' is not plain in a value: encode the unit as the guest does */
			struct strbuf f = STRBUF_INIT;
			strbuf_addstr(&f, "workload=mthp variant=16k metric=lru_lock_per_fault");
			add_kv(&f, "unit", "1/fault");
			strbuf_addstr(&f, " direction=lower_is_better kind=count round=2 diag=1 value=0.5");
			rec_add(&cap, &seq, lines[i][0], f.buf);
			strbuf_release(&f);
		} else {
			rec_add(&cap, &seq, lines[i][0], lines[i][1]);
		}
	}
	{
		char end[32];
		snprintf(end, sizeof(end), "records=%lu", seq);
		rec_add(&cap, &seq, "end", end);
	}
	fw_chan_release(&c);
	is_int(fw_chan_parse(cap.buf, cap.len, &c), FW_CHAN_COMPLETE, "diag: capture complete");
	res = fw_rundoc_results(&c, "mthp", &n_err);
	is_int(n_err, 0, "diag: no error results (1 diagnostic sample is not '1 of 2 rounds')");
	is_int(cJSON_GetArraySize(res), 2, "diag: a timed and a diagnostic result");
	r = cJSON_GetArrayItem(res, 0);
	is_int(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(r, "samples")), 2, "diag: timed result keeps 2 rounds");
	ok(!cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(r, "params"), "diagnostic_round"),
	   "diag: timed result not marked");
	r = cJSON_GetArrayItem(res, 1);
	is_str(fw_json_str(r, "metric", ""), "lru_lock_per_fault", "diag: second result is the diagnostic one");
	is_int(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(r, "samples")), 1, "diag: one sample");
	p = cJSON_GetObjectItemCaseSensitive(r, "params");
	ok(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(p, "diagnostic_round")), "diag: params say diagnostic_round");
	is_int((int)fw_json_num(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(r, "counters"), 0),
				"folio_batch_move_lru_calls", 0), 40960, "diag: its round's counters attached");
	cJSON_Delete(res);
	strbuf_release(&cap);
}

/* A capture with the given middle records (type, fields), begin and end added. */
static enum fw_chan_status parse_lines(const char *const (*lines)[2], int n, const char *workloads)
{
	struct strbuf cap = STRBUF_INIT;
	unsigned long seq = 0;
	char buf[128];
	enum fw_chan_status st;

	snprintf(buf, sizeof(buf), "format=1 kernel=6.12.117 profile=quick workloads=%s rounds=1", workloads);
	rec_add(&cap, &seq, "begin", buf);
	for (int i = 0; i < n; i++)
		rec_add(&cap, &seq, lines[i][0], lines[i][1]);
	snprintf(buf, sizeof(buf), "records=%lu", seq);
	rec_add(&cap, &seq, "end", buf);
	fw_chan_release(&c);
	st = fw_chan_parse(cap.buf, cap.len, &c);
	strbuf_release(&cap);
	return st;
}

/* profile records (the profiling round): checked by the parser, turned into profiles[]. */
static void check_profiles(void)
{
	static const char *const good[][2] = {
		{ "sample", "workload=split variant=pmd-to-0 metric=split_ms unit=ms direction=lower_is_better kind=time round=0 value=50" },
		{ "sample", "workload=lazyfree variant=pmd metric=reclaim_s unit=s direction=lower_is_better kind=time round=0 value=1" },
		{ "profile", "workload=split variant=pmd-to-0 fn=split_huge_page_to_list_to_order hits=256 time_us=51234.5 self_us=51000" },
		{ "profile", "workload=split variant=pmd-to-0 fn=xas_split.constprop.0 hits=256 time_us=20" },
		{ "profile", "workload=split variant=pmd-to-0 fn=xas_split.constprop.0 hits=1 time_us=1" },
		{ "profile", "workload=split variant=other fn=orphan hits=1 time_us=1" },
		{ "profile", "workload=lazyfree variant=pmd fn=__split_huge_pmd hits=256 time_us=900 self_us=100" },
		{ "info", "profile_error=lazyfree:timed%20out%20after%20240%20s" },
	};
	static const struct { const char *fields, *why; } bad[] = {
		{ "workload=split variant=pmd-to-0 fn=%3Cb%3E hits=1 time_us=1", "fn= missing or not a kernel symbol" },
		{ "workload=split variant=pmd-to-0 fn=a%20b hits=1 time_us=1", "not a kernel symbol" },
		{ "workload=split variant=pmd-to-0 hits=1 time_us=1", "fn= missing" },
		{ "workload=split variant=pmd-to-0 fn=f hits=1.5 time_us=1", "hits= missing or not a whole number" },
		{ "workload=split variant=pmd-to-0 fn=f hits=1e13 time_us=1", "hits=" },
		{ "workload=split variant=pmd-to-0 fn=f hits=1 time_us=-1", "time_us=" },
		{ "workload=split variant=pmd-to-0 fn=f hits=1 time_us=1 self_us=nan", "self_us=" },
		{ "workload=split variant=pmd-to-0 fn=f hits=1", "time_us= missing" },
		{ "workload=sp%2Flit variant=pmd-to-0 fn=f hits=1 time_us=1", "workload= contains '/'" },
	};
	const cJSON *p;
	cJSON *res, *prof;
	int n_err;

	is_int(parse_lines(good, (int)(sizeof(good) / sizeof(good[0])), "split,lazyfree"), FW_CHAN_COMPLETE,
	       "profile: a capture with profile records is complete");
	res = fw_rundoc_results(&c, "split,lazyfree", &n_err);
	is_int(n_err, 0, "profile: its records are no results and no errors");
	is_int(cJSON_GetArraySize(res), 2, "profile: the two timed results only");
	prof = fw_rundoc_profiles(&c, res);
	is_int(cJSON_GetArraySize(prof), 2, "profile: 2 entries (no duplicate, no variant without a result, "
	       "no workload whose round failed)");
	p = cJSON_GetArrayItem(prof, 0);
	is_str(fw_json_str(p, "function", ""), "split_huge_page_to_list_to_order", "profile: first entry's function");
	is_int((int)fw_json_num(p, "hits", 0), 256, "... hits");
	ok(fw_json_num(p, "time_us", 0) == 51234.5 && fw_json_num(p, "self_us", 0) == 51000, "... total and self time");
	p = cJSON_GetArrayItem(prof, 1);
	is_str(fw_json_str(p, "function", ""), "xas_split.constprop.0", "profile: a compiler-suffixed symbol is kept");
	ok(!cJSON_GetObjectItemCaseSensitive(p, "self_us"), "... without self_us when not measured");
	cJSON_Delete(prof);
	cJSON_Delete(res);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *const one[][2] = { { "profile", bad[i].fields } };

		char desc[200];

		snprintf(desc, sizeof(desc), "profile: a bad record is corrupt: %s", bad[i].fields);
		is_int(parse_lines(one, 1, "split"), FW_CHAN_CORRUPT, desc);
		if (!ok(strstr(c.why, bad[i].why) != NULL, "... naming what is wrong"))
			printf("#   why: '%s', expected '%s' in it\n", c.why, bad[i].why);
	}
	{
		static const char *const none[][2] = {
			{ "sample", "workload=split variant=pmd-to-0 metric=split_ms unit=ms direction=lower_is_better kind=time round=0 value=50" },
		};
		parse_lines(none, 1, "split");
		res = fw_rundoc_results(&c, "split", &n_err);
		ok(fw_rundoc_profiles(&c, res) == NULL, "profile: no profile records, no profiles[]");
		cJSON_Delete(res);
	}
}

/* Fixed-seed xorshift: the random captures are the same on every run and machine. */
static unsigned long long rng_state = 88172645463325252ull;

static unsigned rnd(unsigned n)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (unsigned)(rng_state % n);
}

#define PICK(a) (a)[rnd(sizeof(a) / sizeof((a)[0]))]

/* One record of a random capture before it gets its seq: type and encoded fields. */
struct gen_rec {
	const char *type;
	char *fields;
	int is_sample;
};

struct gen {
	struct gen_rec *r;
	size_t n, alloc;
};

static void gen_push(struct gen *g, const char *type, struct strbuf *fields, int is_sample)
{
	if (g->n == g->alloc) {
		g->alloc = g->alloc ? g->alloc * 2 : 64;
		g->r = realloc(g->r, g->alloc * sizeof(*g->r));
		if (!g->r)
			abort();
	}
	g->r[g->n].type = type;
	g->r[g->n].fields = strbuf_detach(fields, NULL);
	g->r[g->n].is_sample = is_sample;
	g->n++;
}

/* Moves the last record to a random earlier place: params, infos and errors come at any time. */
static void gen_float(struct gen *g)
{
	size_t to = 1 + rnd((unsigned)g->n), from = g->n - 1;
	struct gen_rec t = g->r[from];

	if (to > from)
		return;
	memmove(&g->r[to + 1], &g->r[to], (from - to) * sizeof(*g->r));
	g->r[to] = t;
}

static const char *const g_workloads[] = { "wa", "wb", "w", "wa2" };
static const char *const g_variants[] = { "v1", "v2", "v", "a b%" };
static const char *const g_metrics[] = { "m1", "m2", "m", "m1x" };
static const char *const g_msgs[] = {
	"boom", "boom twice", "twice", "oom", "a\nb", "b\nc", "c", "x\ty", "failed: 50%",
};
static const char *const g_pkeys[] = { "file_mib", "order", "fs", "memcg", "cpus", "mode" };
static const char *const g_ikeys[] = { "memcg", "cpus", "mem_total_kb", "workload_seconds", "variant", "fs" };
static const char *const g_vals[] = { "512", "tmpfs", "1e3", "-2", "0x10", "1.5.2", "", "+7", "inf", "v2" };
static const char *const g_ckeys[] = { "pgfault", "thp_split_page", "x", "y", "z" };

static void gen_params(struct gen *g, const char *type, const char *w, const char *v,
		       const char *const *keys, size_t nkeys)
{
	struct strbuf f = STRBUF_INIT;

	if (w)
		add_kv(&f, "workload", w);
	if (v)
		add_kv(&f, "variant", v);
	if (!rnd(12)) {
		/* more than the 64 keys params may hold */
		for (int k = 0; k < 70; k++) {
			char key[16];
			snprintf(key, sizeof(key), "p%d", (k * 37) % 70);
			add_kv(&f, key, PICK(g_vals));
		}
	} else {
		unsigned used = 0;
		for (unsigned k = 0, n = 1 + rnd(3); k < n; k++) {
			unsigned x = rnd((unsigned)nkeys);
			if (!(used & (1u << x)) && !(v && !strcmp(keys[x], "variant"))) {
				used |= 1u << x;
				add_kv(&f, keys[x], PICK(g_vals));
			}
		}
	}
	gen_push(g, type, &f, 0);
	gen_float(g);
}

static void gen_counters(struct gen *g, const char *w, const char *v, long round)
{
	struct strbuf f = STRBUF_INIT;
	char num[32];

	add_kv(&f, "workload", w);
	add_kv(&f, "variant", v);
	snprintf(num, sizeof(num), "%ld", round);
	add_kv(&f, "round", num);
	if (!rnd(20)) {
		/* more than the 256 keys a round's counters may hold */
		for (int k = 0; k < 260; k++) {
			snprintf(num, sizeof(num), "%d", rnd(1000));
			strbuf_addf(&f, " c%d=%s", (k * 7) % 260, num);
		}
	} else {
		unsigned used = 0;
		for (unsigned k = 0, n = rnd(4); k < n; k++) {
			unsigned x = rnd(sizeof(g_ckeys) / sizeof(g_ckeys[0]));
			if (!(used & (1u << x))) {
				used |= 1u << x;
				snprintf(num, sizeof(num), "%u.%u", rnd(100000), rnd(10));
				add_kv(&f, g_ckeys[x], num);
			}
		}
	}
	gen_push(g, "counters", &f, 0);
}

static void gen_sample(struct gen *g, const char *w, const char *v, const char *m, long round)
{
	static const char *const units[] = { "ms", "s", "MB/s" };
	struct strbuf f = STRBUF_INIT;
	char num[32];

	add_kv(&f, "workload", w);
	add_kv(&f, "variant", v);
	add_kv(&f, "metric", m);
	/* the first sample names unit, direction and kind: later ones may differ */
	add_kv(&f, "unit", rnd(10) ? "ms" : PICK(units));
	add_kv(&f, "direction", rnd(10) ? "lower_is_better" : "higher_is_better");
	add_kv(&f, "kind", rnd(10) ? "time" : "rate");
	snprintf(num, sizeof(num), "%ld", round);
	add_kv(&f, "round", num);
	snprintf(num, sizeof(num), "%u.%02u", rnd(1000), rnd(100));
	add_kv(&f, "value", num);
	gen_push(g, "sample", &f, 1);
}

/* A random capture: most complete, some corrupt through rounds, some truncated. */
static void gen_capture(struct strbuf *cap, struct strbuf *workloads)
{
	static const char *const asked[] = { "wa", "wb", "w", "wx", "wa/b", "", "wa2", "wa" };
	struct gen g = { 0 };
	struct strbuf f = STRBUF_INIT;
	unsigned long seq = 0;
	long rounds = 1 + rnd(4);
	unsigned ncombo = 1 + rnd(4);
	struct { const char *w, *v; unsigned nm; const char *m[3]; } combo[4];
	char num[32];

	strbuf_reset(workloads);
	for (unsigned k = 0, n = rnd(5); k < n; k++)
		strbuf_addf(workloads, "%s%s", k ? "," : "", PICK(asked));
	if (!rnd(10))
		strbuf_addf(workloads, ",%0120d", 7); /* longer than a name may be */

	add_kv(&f, "format", "1");
	add_kv(&f, "workloads", workloads->buf);
	if (!rnd(10)) {
		/* names a workload/variant, but is no result's record */
		add_kv(&f, "workload", "wa");
		add_kv(&f, "variant", "v1");
	}
	snprintf(num, sizeof(num), "%ld", !rnd(8) ? 0 : !rnd(8) ? rounds + 1 : rounds);
	if (rnd(8))
		add_kv(&f, "rounds", num);
	gen_push(&g, "begin", &f, 0);

	for (unsigned i = 0; i < ncombo; i++) {
		combo[i].w = PICK(g_workloads);
		combo[i].v = PICK(g_variants);
		combo[i].nm = rnd(4);
		for (unsigned k = 0, m0 = rnd(4); k < combo[i].nm; k++)
			combo[i].m[k] = g_metrics[(m0 + k) % 4];
	}
	for (long r = 0; r < rounds; r++)
		for (unsigned i = 0; i < ncombo; i++) {
			for (unsigned k = 0; k < combo[i].nm; k++)
				if (rnd(8))
					gen_sample(&g, combo[i].w, combo[i].v, combo[i].m[k], r);
			for (unsigned k = 0, n = rnd(3); k < n; k++)
				gen_counters(&g, combo[i].w, combo[i].v, rnd(12) ? r : r + 10);
		}
	for (unsigned i = 0; i < ncombo; i++) {
		for (unsigned k = 0, n = rnd(3); k < n; k++)
			gen_params(&g, "param", combo[i].w, combo[i].v, g_pkeys, 6);
		if (!rnd(4))
			gen_params(&g, "info", combo[i].w, rnd(3) ? combo[i].v : NULL, g_pkeys, 6);
		for (unsigned k = 0, n = combo[i].nm ? (rnd(3) ? 0 : 1 + rnd(4)) : rnd(4); k < n; k++) {
			add_kv(&f, "workload", combo[i].w);
			add_kv(&f, "variant", combo[i].v);
			if (!rnd(30)) {
				/* long messages: the joined text keeps its last 4000 bytes, from a line start if it can */
				size_t len = 1000 + rnd(4500);
				char *big = malloc(len + 1);
				if (!big)
					abort();
				memset(big, 'a' + (char)rnd(3), len);
				big[len] = '\0';
				if (rnd(2))
					big[rnd((unsigned)len)] = '\n';
				add_kv(&f, "msg", big);
				free(big);
			} else {
				add_kv(&f, "msg", PICK(g_msgs));
			}
			gen_push(&g, "error", &f, 0);
			gen_float(&g);
		}
	}
	for (unsigned k = 0, n = rnd(4); k < n; k++)
		gen_params(&g, "info", NULL, NULL, g_ikeys, 6);
	/* the guest writes rounds in order: a swapped or repeated sample makes the capture corrupt */
	if (!rnd(6) && g.n > 2) {
		size_t a = 1 + rnd((unsigned)g.n - 1), b = 1 + rnd((unsigned)g.n - 1);
		struct gen_rec t = g.r[a];
		g.r[a] = g.r[b];
		g.r[b] = t;
	}
	if (!rnd(10) && g.n > 1) {
		size_t a = 1 + rnd((unsigned)g.n - 1);
		if (g.r[a].is_sample) {
			strbuf_addstr(&f, g.r[a].fields);
			gen_push(&g, "sample", &f, 1);
		}
	}
	for (size_t i = 0; i < g.n; i++) {
		rec_add(cap, &seq, g.r[i].type, g.r[i].fields);
		free(g.r[i].fields);
	}
	if (rnd(12)) {
		snprintf(num, sizeof(num), "records=%lu", seq);
		rec_add(cap, &seq, "end", num);
	}
	free(g.r);
	strbuf_release(&f);
}

/* What the paths of the conversion were taken over the random captures (each must be). */
struct coverage {
	int complete, corrupt_rounds, truncated, results, errors_joined, tail_cut, params_full,
	    counters_full, rounds_short, error_only, not_reported;
};

static void cover(struct coverage *cv, const struct fw_chan *ch, const cJSON *res)
{
	const cJSON *r;

	cv->complete += ch->status == FW_CHAN_COMPLETE;
	cv->corrupt_rounds += strstr(ch->why, "repeats or goes back") != NULL;
	cv->truncated += ch->status == FW_CHAN_TRUNCATED;
	cJSON_ArrayForEach(r, res) {
		const char *err = fw_json_str(r, "error", "");
		const cJSON *cs = cJSON_GetObjectItemCaseSensitive(r, "counters"), *o;
		cv->results++;
		cv->errors_joined += strstr(err, "\n") && !strstr(err, "aaaa");
		cv->tail_cut += strlen(err) == 4000;
		cv->params_full += cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(r, "params")) == 64;
		cJSON_ArrayForEach(o, cs)
			cv->counters_full += cJSON_GetArraySize(o) == 256;
		cv->rounds_short += strstr(err, "rounds reported") != NULL;
		cv->error_only += !strcmp(fw_json_str(r, "metric", ""), "status") &&
				  strcmp(fw_json_str(r, "variant", ""), "all");
		cv->not_reported += !strcmp(err, "workload reported no results");
	}
}

/* fw_rundoc_results() against the old quadratic code on random captures: same bytes out. */
static void check_against_reference(int ncaptures)
{
	struct strbuf cap = STRBUF_INIT, workloads = STRBUF_INIT;
	struct coverage cv = { 0 };
	int bad = 0;

	for (int i = 0; i < ncaptures; i++) {
		struct fw_chan a, b;
		cJSON *ra, *rb;
		char *ta, *tb;
		int na, nb;
		const char *wl;

		strbuf_reset(&cap);
		gen_capture(&cap, &workloads);
		wl = rnd(10) ? workloads.buf : NULL;
		fw_chan_parse(cap.buf, cap.len, &a);
		fw_chan_parse(cap.buf, cap.len, &b);
		ra = fw_rundoc_results(&a, wl, &na);
		rb = ref_rundoc_results(&b, wl, &nb);
		ta = cJSON_PrintUnformatted(ra);
		tb = cJSON_PrintUnformatted(rb);
		cover(&cv, &b, rb);
		if (strcmp(ta, tb) || na != nb || a.status != b.status || a.bad_line != b.bad_line ||
		    strcmp(a.why, b.why)) {
			if (!bad++) {
				printf("# capture %d differs (n_errors %d/%d, status %d/%d, line %d/%d, why '%s'/'%s')\n",
				       i, na, nb, a.status, b.status, a.bad_line, b.bad_line, a.why, b.why);
				printf("# new: %.2000s\n# ref: %.2000s\n# workloads: %s\n", ta, tb, wl ? wl : "(null)");
				printf("# capture:\n%s", cap.buf);
			}
		}
		free(ta);
		free(tb);
		cJSON_Delete(ra);
		cJSON_Delete(rb);
		fw_chan_release(&a);
		fw_chan_release(&b);
	}
	{
		char desc[100];
		snprintf(desc, sizeof(desc), "%d random captures: results identical to the reference", ncaptures);
		is_int(bad, 0, desc);
	}
	printf("# coverage: %d complete, %d corrupt by rounds, %d truncated; %d results: %d joined errors,"
	       " %d cut tails, %d full params, %d full counters, %d short of rounds, %d error-only,"
	       " %d not reported\n", cv.complete, cv.corrupt_rounds, cv.truncated, cv.results, cv.errors_joined,
	       cv.tail_cut, cv.params_full, cv.counters_full, cv.rounds_short, cv.error_only, cv.not_reported);
	ok(cv.complete && cv.corrupt_rounds && cv.truncated && cv.errors_joined && cv.tail_cut &&
	   cv.params_full && cv.counters_full && cv.rounds_short && cv.error_only && cv.not_reported,
	   "random captures reach every path of the conversion");
	strbuf_release(&cap);
	strbuf_release(&workloads);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A complete capture as a long profile makes it: 4 workload/variants, each round all metrics + counters. */
static void big_capture(struct strbuf *cap, int metrics, int rounds)
{
	static const char *const wv[4][2] = { { "wa", "v1" }, { "wa", "v2" }, { "wb", "v1" }, { "wb", "v2" } };
	struct strbuf f = STRBUF_INIT;
	unsigned long seq = 0;

	strbuf_addf(&f, "format=1 kernel=6.12.117 profile=long workloads=wa,wb rounds=%d", rounds);
	rec_add(cap, &seq, "begin", f.buf);
	rec_add(cap, &seq, "info", "memcg=v2 cpus=2 mem_total_kb=2000000");
	for (int i = 0; i < 4; i++) {
		strbuf_reset(&f);
		strbuf_addf(&f, "workload=%s variant=%s file_mib=512 order=9 fs=tmpfs", wv[i][0], wv[i][1]);
		rec_add(cap, &seq, "param", f.buf);
	}
	for (int r = 0; r < rounds; r++)
		for (int i = 0; i < 4; i++) {
			for (int m = 0; m < metrics / 4; m++) {
				strbuf_reset(&f);
				strbuf_addf(&f, "workload=%s variant=%s metric=m%d unit=ms direction=lower_is_better"
					    " kind=time round=%d value=%d.%02d", wv[i][0], wv[i][1], m, r, 50 + m % 50, r);
				rec_add(cap, &seq, "sample", f.buf);
			}
			strbuf_reset(&f);
			strbuf_addf(&f, "workload=%s variant=%s round=%d pgfault=%d thp_split_page=256 pswpin=0"
				    " pswpout=%d nr_anon=%d", wv[i][0], wv[i][1], r, 1000 + r, r, 4096 + r);
			rec_add(cap, &seq, "counters", f.buf);
		}
	strbuf_reset(&f);
	strbuf_addf(&f, "records=%lu", seq);
	rec_add(cap, &seq, "end", f.buf);
	strbuf_release(&f);
}

/* Times one conversion; the capture is parsed again so each run sees it untouched. */
static double time_results(const struct strbuf *cap, int ref, cJSON **res, int *n_err)
{
	struct fw_chan ch;
	double t0;

	fw_chan_parse(cap->buf, cap->len, &ch);
	t0 = now_s();
	*res = ref ? ref_rundoc_results(&ch, "wa,wb", n_err) : fw_rundoc_results(&ch, "wa,wb", n_err);
	t0 = now_s() - t0;
	fw_chan_release(&ch);
	return t0;
}

/*
 * A large capture must not stall the collector: 2,000 metrics x 50 rounds
 * (100,000 samples) well under a second. The old code took 30 s on it, so
 * it is timed on a tenth of that only.
 */
static void check_scale(void)
{
	struct strbuf cap = STRBUF_INIT;
	struct fw_chan ch;
	cJSON *res, *ref;
	const cJSON *r;
	double t_parse, t_new, t_ref, t_new_small;
	char *a, *b;
	int n_err, n_ref, whole = 1;

	big_capture(&cap, 2000, 50);
	t_parse = now_s();
	fw_chan_parse(cap.buf, cap.len, &ch);
	t_parse = now_s() - t_parse;
	is_int(ch.status, FW_CHAN_COMPLETE, "big capture is complete");
	printf("# big capture: %zu records, %zu bytes, parsed in %.3f s\n", ch.nrec, cap.len, t_parse);
	fw_chan_release(&ch);
	t_new = time_results(&cap, 0, &res, &n_err);
	printf("# big capture: results in %.3f s\n", t_new);
	ok(t_new < 5.0, "100,000 samples turn into results in under 5 s");
	is_int(cJSON_GetArraySize(res), 2000, "big capture: 2,000 results");
	is_int(n_err, 0, "big capture: no error results");
	cJSON_ArrayForEach(r, res)
		whole &= cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(r, "samples")) == 50 &&
			 cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(r, "counters")) == 50;
	ok(whole, "big capture: 50 samples and 50 counter objects in every result");
	cJSON_Delete(res);

	strbuf_reset(&cap);
	big_capture(&cap, 200, 50);
	t_new_small = time_results(&cap, 0, &res, &n_err);
	t_ref = time_results(&cap, 1, &ref, &n_ref);
	a = cJSON_PrintUnformatted(res);
	b = cJSON_PrintUnformatted(ref);
	ok(!strcmp(a, b) && n_err == n_ref, "200 metrics x 50 rounds: results identical to the reference");
	printf("# 200 metrics x 50 rounds: results in %.4f s, reference (old code) %.3f s, %.0fx\n",
	       t_new_small, t_ref, t_ref / (t_new_small > 1e-6 ? t_new_small : 1e-6));
	free(a);
	free(b);
	cJSON_Delete(res);
	cJSON_Delete(ref);
	strbuf_release(&cap);
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

	check_diag_round();
	check_profiles();
	expect(DIR "profile.txt", FW_CHAN_COMPLETE, 0, NULL);  /* also a fuzz seed with profile records */

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
		min_facts(&f, &host);
		f.build_log_tail = "error: foo.c:1: bad\n";
		doc = fw_rundoc_not_run(&f, &e);
		ok(doc != NULL, "failed build gives a valid not_run document");
		ok(doc && !strcmp(fw_json_str(cJSON_GetObjectItemCaseSensitive(doc, "boot"), "status", ""), "not_run"),
		   "not_run status");
		cJSON_Delete(doc);
	}
	fw_chan_release(&c);

	check_against_reference(1000);
	check_scale();
	return done_testing();
}
