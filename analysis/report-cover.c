/*
 * The text people paste (issue 29): the analysed series as a cover letter's
 * Before / After tables, each line at most 72 columns. Per patch, against its
 * parent, one table per workload/variant: metric, unit, Before, After, delta
 * and a short verdict, the long form of the verdict on an indented line under
 * it; the kernel functions behind a decided change once per table, at most
 * three; then the series against its base and how it was measured, with the
 * collector command. p, q, counters and the rest: report --verbose.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "analysis-internal.h"
#include "numfmt.h"
#include "runcmd.h"
#include "utf8.h"

#define COVER_WIDTH 72

static const cJSON *obj_of(const cJSON *o, const char *k)
{
	return cJSON_GetObjectItemCaseSensitive(o, k);
}

const char *fw_verdict_short(const char *verdict)
{
	static const char *const map[][2] = {
		{ "improvement", "better" }, { "regression", "worse" }, { "no change", "same" },
		{ "unsure", "unsure" },
	};

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(verdict, map[i][0]))
			return map[i][1];
	return verdict;
}

/* Display width of the first n bytes of s: characters, not bytes (units like "µs"). */
static size_t width_n(const char *s, size_t n)
{
	size_t w = 0;

	for (size_t i = 0; i < n && s[i]; i++)
		w += ((unsigned char)s[i] & 0xc0) != 0x80;
	return w;
}

/* s left- or right-aligned in w columns (cut at a character when longer), then a space. */
static void cell(struct strbuf *sb, const char *s, size_t w, int right)
{
	size_t n = width_n(s, strlen(s));

	if (n > w) {
		strbuf_addf(sb, "%.*s ", UTF8_CUT(s, w));
		return;
	}
	for (size_t i = 0; right && i < w - n; i++)
		strbuf_addch(sb, ' ');
	strbuf_addstr(sb, s);
	for (size_t i = 0; !right && i < w - n; i++)
		strbuf_addch(sb, ' ');
	strbuf_addch(sb, ' ');
}

void fw_report_wrap(struct strbuf *sb, const char *text, int indent, int more)
{
	fw_report_wrap_to(sb, text, indent, more, COVER_WIDTH);
}

void fw_report_wrap_to(struct strbuf *sb, const char *text, int indent, int more, int width)
{
	const char *p = text;
	int col = 0, at_start = 1;

	while (*p) {
		const char *w = p + strspn(p, " ");
		size_t n = strcspn(w, " ");

		if (!n)
			break;
		if (!at_start && col + 1 + (int)width_n(w, n) > width) {
			strbuf_addch(sb, '\n');
			at_start = 1;
			indent += more;
			more = 0;
		}
		if (at_start) {
			strbuf_addf(sb, "%*s", indent, "");
			col = indent;
		} else {
			strbuf_addch(sb, ' ');
			col++;
		}
		strbuf_add(sb, w, n);
		col += (int)width_n(w, n);
		at_start = 0;
		p = w + n;
	}
	strbuf_addch(sb, '\n');
}

static void value(struct strbuf *sb, double v)
{
	struct strbuf t = STRBUF_INIT;

	if (isnan(v))
		strbuf_addstr(&t, "-");
	else
		fw_num_human(&t, v, 4);
	cell(sb, t.buf, 10, 1);
	strbuf_release(&t);
}

/* "  metric  unit  Before  After  delta verdict": 2+20+1+8+1+10+1+10+1+8+1+7 = 70 columns at most. */
static void table_head(struct strbuf *sb, const cJSON *r, int show_host, int spread)
{
	struct strbuf t = STRBUF_INIT;

	strbuf_addf(&t, "%s/%s", fw_json_str(r, "workload", ""), fw_json_str(r, "variant", ""));
	if (show_host)
		strbuf_addf(&t, " (%s %s)", fw_json_str(r, "host", ""), fw_json_str(r, "accel", ""));
	strbuf_addstr(sb, "\n  ");
	cell(sb, t.buf, 29, 0);
	cell(sb, "Before", 10, 1);
	cell(sb, "After", 10, 1);
	cell(sb, "delta", 8, 1);
	if (spread)
		cell(sb, "%stddev", 7, 1);
	strbuf_addstr(sb, "verdict\n");
	strbuf_release(&t);
}

/*
 * The long form of a verdict, short enough for one line: what decided it
 * ("improvement at 2 boots, deterministic, floor 0.50%") or what it still
 * needs ("unsure: MDE 3.1%, needs 8 boots").
 */
static void long_form(struct strbuf *t, const cJSON *r)
{
	const char *mode = fw_json_str(r, "mode", "");

	strbuf_addstr(t, fw_json_str(r, "verdict", ""));
	if (!cJSON_IsTrue(obj_of(r, "decided"))) {
		fw_report_needs(t, r);
		return;
	}
	strbuf_addf(t, " at %.0f boots", fw_json_num(r, "decided_at_boots", NAN));
	if (strcmp(mode, "rank"))
		strbuf_addf(t, ", %s, floor %.2f%%", !strcmp(mode, "exact") ? "exact count" : mode,
			    fw_json_num(r, "floor_pct", NAN));
	else
		strbuf_addf(t, ", rank test, q %.2g", fw_json_num(r, "q", NAN));
}

/* Counters that moved with a decided change, one wrapped line each (the mail shows them). */
static void row_counters(struct strbuf *sb, const cJSON *r)
{
	const char *v = fw_json_str(r, "verdict", "");
	struct strbuf t = STRBUF_INIT;
	const cJSON *c;

	if (strcmp(v, "improvement") && strcmp(v, "regression"))
		return;
	cJSON_ArrayForEach(c, obj_of(r, "counters")) {
		strbuf_reset(&t);
		strbuf_addf(&t, "%s ", fw_json_str(c, "name", ""));
		fw_num_human(&t, fw_json_num(c, "a", NAN), 6);
		strbuf_addstr(&t, " -> ");
		fw_num_human(&t, fw_json_num(c, "b", NAN), 6);
		strbuf_addf(&t, " (%+.1f%%)", fw_json_num(c, "delta_pct", NAN));
		fw_report_wrap(sb, t.buf, 4, 4);
	}
	strbuf_release(&t);
}

static void table_row(struct strbuf *sb, const cJSON *r, int spread, int counters)
{
	struct strbuf t = STRBUF_INIT;
	double d = fw_json_num(r, "delta_pct", NAN);
	const char *verdict = fw_json_str(r, "verdict", "");

	strbuf_addstr(sb, "  ");
	if (width_n(fw_json_str(r, "metric", ""), 100) > 20) {  /* a long name gets a line of its own */
		strbuf_addf(sb, "%s\n  ", fw_json_str(r, "metric", ""));
		cell(sb, "", 20, 0);
	} else {
		cell(sb, fw_json_str(r, "metric", ""), 20, 0);
	}
	cell(sb, fw_json_str(r, "unit", ""), 8, 0);
	value(sb, fw_json_num_at(r, "a", "median", NAN));
	value(sb, fw_json_num_at(r, "b", "median", NAN));
	if (isnan(d))
		strbuf_addstr(&t, "-");
	else  /* four digits before the point lose the decimals, never the '%' */
		strbuf_addf(&t, fabs(d) < 999.995 ? "%+.2f%%" : "%+.0f%%", d);
	cell(sb, t.buf, 8, 1);
	if (spread) {  /* LKP's %stddev: the pooled spread of the units compared, in % of Before */
		double sd = fw_json_num(r, "noise_pct", NAN);
		strbuf_reset(&t);
		if (isnan(sd))
			strbuf_addstr(&t, "-");
		else
			strbuf_addf(&t, "%.1f%%", sd);
		cell(sb, t.buf, 7, 1);
	}
	strbuf_addf(sb, "%s\n", fw_verdict_short(verdict));
	strbuf_reset(&t);
	long_form(&t, r);
	fw_report_wrap(sb, t.buf, 4, 2);
	if (counters)
		row_counters(sb, r);
	strbuf_release(&t);
}

static int flagged(const cJSON *r)
{
	const char *v = fw_json_str(r, "verdict", "");

	return !strcmp(v, "improvement") || !strcmp(v, "regression");
}

/*
 * The kernel functions behind the table's first decided change: once, at
 * most three. A table with a decided change but no profile of both sides
 * says so (profiles are taken where a row is decided, issue 27).
 */
static void table_why(struct strbuf *sb, const cJSON *from, const cJSON *to)
{
	struct strbuf t = STRBUF_INIT;
	int n = 0, asked = 0;

	for (const cJSON *r = from; r && r != to && !n; r = r->next) {
		const cJSON *e;

		if (!flagged(r))
			continue;
		asked = 1;
		cJSON_ArrayForEach(e, obj_of(r, "attribution")) {
			const char *k = fw_attribution_key(e);
			double pct = fw_json_num_at(e, "delta_pct", k, NAN);

			if (n == 3)
				break;
			strbuf_addf(&t, "%s%s %s", n++ ? ", " : "why (kernel profile, self time): ",
				    fw_json_str(e, "function", "?"), k[0] == 's' ? "" : "total ");
			if (isnan(pct))
				strbuf_addstr(&t, "new");
			else
				strbuf_addf(&t, "%+.0f%%", pct);
		}
	}
	if (n)
		fw_report_wrap(sb, t.buf, 2, 4);
	else if (asked)
		strbuf_addstr(sb, "  why: not profiled (no kernel profile of both sides)\n");
	strbuf_release(&t);
}

static int same_table(const cJSON *a, const cJSON *b)
{
	return !strcmp(fw_json_str(a, "env_fingerprint", ""), fw_json_str(b, "env_fingerprint", "")) &&
	       !strcmp(fw_json_str(a, "workload", ""), fw_json_str(b, "workload", "")) &&
	       !strcmp(fw_json_str(a, "variant", ""), fw_json_str(b, "variant", ""));
}

static int same_comparison(const cJSON *a, const cJSON *b)
{
	return !strcmp(fw_json_str(a, "sha", ""), fw_json_str(b, "sha", "")) &&
	       !strcmp(fw_json_str(a, "against", ""), fw_json_str(b, "against", ""));
}

const cJSON *fw_report_tables(struct strbuf *sb, const cJSON *r, int show_host, int mail)
{
	const cJSON *start = r;
	int any = 0;

	while (r && same_comparison(r, start)) {
		const cJSON *t = r;

		table_head(sb, t, show_host, mail);
		for (; r && same_comparison(r, start) && same_table(r, t); r = r->next) {
			table_row(sb, r, mail, mail);
			any |= flagged(r);
		}
		table_why(sb, t, r);
	}
	/* profiles are taken only where a row is decided a change: say why there is none */
	if (!any)
		strbuf_addstr(sb, "  not profiled: no change\n");
	return r;
}

static int patches_of(const cJSON *s)
{
	const cJSON *c;
	int n = 0;

	cJSON_ArrayForEach(c, obj_of(s, "commits"))
		n += !cJSON_IsTrue(obj_of(c, "is_base"));
	return n;
}

/* How it was measured: each environment's setup, then the command that measures the same way. */
static void measured(struct strbuf *sb, const cJSON *s, const cJSON *facts, int lo, int hi)
{
	const cJSON *e, *env = cJSON_GetArrayItem(obj_of(facts, "envs"), 0);
	struct strbuf t = STRBUF_INIT;

	strbuf_addstr(sb, "\nHow it was measured:\n");
	if (!env)
		strbuf_addstr(sb, "  (no boots stored)\n");
	cJSON_ArrayForEach(e, obj_of(facts, "envs")) {
		double vcpus = fw_json_num(e, "vcpus", 0);
		strbuf_reset(&t);
		strbuf_addf(&t, "kernel %s built with %s, config %.*s%s; QEMU %s %s, %.0f vCPU%s, "
			    "%.0f MiB on host %s; profile %s, %.0f rounds a boot, %.0f boots in all",
			    fw_json_str(e, "kernel_version", ""), fw_json_str(e, "compiler", ""),
			    UTF8_CUT(fw_json_str(e, "config_hash", ""), 12), fw_json_num(e, "configs", 1) > 1 ? " (newest)" : "",
			    fw_json_str(e, "accel", ""), fw_json_str(e, "qemu_version", ""), vcpus,
			    vcpus == 1 ? "" : "s", fw_json_num(e, "memory_mib", 0), fw_json_str(e, "host", ""),
			    fw_json_str(e, "profile", ""), fw_json_num(e, "rounds", 0), fw_json_num(e, "boots", 0));
		if (lo > 0)
			strbuf_addf(&t, lo == hi ? ", %d a side" : ", %d-%d a side", lo, hi);
		strbuf_addch(&t, '.');
		fw_report_wrap(sb, t.buf, 2, 2);
	}
	if (env)
		fw_report_command(sb, s, env, COVER_WIDTH);
	strbuf_release(&t);
}

/* Rows combined over hosts (each host against its own parent): what the gate sees on a sharded run. */
static void combined(struct strbuf *sb, const cJSON *s)
{
	const cJSON *cp;
	struct strbuf t = STRBUF_INIT;

	if (cJSON_GetArraySize(obj_of(s, "combined")))
		strbuf_addstr(sb, "\nCombined over hosts (each host against its own parent):\n");
	cJSON_ArrayForEach(cp, obj_of(s, "combined")) {
		strbuf_reset(&t);
		strbuf_addf(&t, "[%.0f] %.*s %s/%s %s on %.0f hosts: %+.2f%% %s", fw_json_num(cp, "position", 0),
			    UTF8_CUT(fw_json_str(cp, "sha", ""), 12), fw_json_str(cp, "workload", ""), fw_json_str(cp, "variant", ""),
			    fw_json_str(cp, "metric", ""), fw_json_num(cp, "hosts", 0), fw_json_num(cp, "delta_pct", NAN),
			    fw_verdict_short(fw_json_str(cp, "verdict", "")));
		fw_report_wrap(sb, t.buf, 2, 4);
	}
	strbuf_release(&t);
}

void fw_report_cover(const cJSON *s, const cJSON *facts, struct strbuf *sb)
{
	const cJSON *rows = obj_of(s, "rows"), *r, *last_base = NULL;
	const char *first_env = NULL;
	int show_host = 0, npatches = patches_of(s), lo = 0, hi = 0;
	struct strbuf t = STRBUF_INIT;

	cJSON_ArrayForEach(r, rows) {
		if (!first_env)
			first_env = fw_json_str(r, "env_fingerprint", "");
		else if (strcmp(first_env, fw_json_str(r, "env_fingerprint", "")))
			show_host = 1;
		if (!strcmp(fw_json_str(r, "against", ""), "base"))
			last_base = r;
		for (int side = 0; side < 2; side++) {
			int n = fw_json_int(obj_of(r, side ? "b" : "a"), "boots", 0);
			lo = !lo || n < lo ? n : lo;
			hi = n > hi ? n : hi;
		}
	}
	strbuf_addf(&t, "%s v%.0f: %d patch%s on %.*s, each against its parent", fw_json_str(s, "series", ""),
		    fw_json_num(s, "revision", 1), npatches, npatches == 1 ? "" : "es",
		    UTF8_CUT(fw_json_str(s, "base", ""), 12));
	fw_report_wrap(sb, t.buf, 0, 2);
	if (!cJSON_GetArraySize(rows))
		strbuf_addstr(sb, "\n(no comparable results)\n");
	for (r = rows ? rows->child : NULL; r;) {
		if (strcmp(fw_json_str(r, "against", ""), "parent")) {
			r = r->next;
			continue;
		}
		strbuf_reset(&t);
		strbuf_addf(&t, "[%.0f/%d] %s (%.*s)", fw_json_num(r, "position", 0), npatches,
			    fw_json_str(r, "subject", ""), UTF8_CUT(fw_json_str(r, "sha", ""), 12));
		strbuf_addch(sb, '\n');
		fw_report_wrap(sb, t.buf, 0, 4);
		r = fw_report_tables(sb, r, show_host, 0);
	}
	if (last_base) {  /* the whole series: its last commit against the base */
		for (r = rows->child; r && !(same_comparison(r, last_base)); r = r->next)
			;
		strbuf_reset(&t);
		strbuf_addf(&t, "\nThe whole series: %.*s against the base %.*s",
			    UTF8_CUT(fw_json_str(last_base, "sha", ""), 12), UTF8_CUT(fw_json_str(s, "base", ""), 12));
		fw_report_wrap(sb, t.buf, 0, 4);
		fw_report_tables(sb, r, show_host, 0);
	}
	combined(sb, s);
	strbuf_addstr(sb, "\nbetter/worse: a decided change; same: decided, within the noise floor\n"
		      "or the minimum effect; unsure: more boots needed. p, q, intervals and\n"
		      "counters: report --verbose.\n");
	measured(sb, s, facts, lo, hi);
	strbuf_release(&t);
}
