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
size_t fw_cover_width(const char *s, size_t n)
{
	size_t w = 0;

	for (size_t i = 0; i < n && s[i]; i++)
		w += ((unsigned char)s[i] & 0xc0) != 0x80;
	return w;
}

/* s left- or right-aligned in w columns (cut at a character when longer), then a space. */
void fw_cover_cell(struct strbuf *sb, const char *s, size_t w, int right)
{
	size_t n = fw_cover_width(s, strlen(s));

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
		if (!at_start && col + 1 + (int)fw_cover_width(w, n) > width) {
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
		col += (int)fw_cover_width(w, n);
		at_start = 0;
		p = w + n;
	}
	strbuf_addch(sb, '\n');
}

static void value(struct strbuf *sb, double v, size_t w)
{
	struct strbuf t = STRBUF_INIT;

	if (isnan(v))
		strbuf_addstr(&t, "-");
	else
		fw_num_human(&t, v, 4);
	fw_cover_cell(sb, t.buf, w, 1);
	strbuf_release(&t);
}

void fw_cover_row_values(struct strbuf *sb, const struct fw_an_row *r, size_t metric_w, size_t unit_w, size_t value_w)
{
	struct strbuf t = STRBUF_INIT;
	double d = r->delta_pct;

	strbuf_addstr(sb, "  ");
	if (fw_cover_width(r->metric, 100) > metric_w) {  /* a long name gets a line of its own */
		strbuf_addf(sb, "%s\n  ", r->metric);
		fw_cover_cell(sb, "", metric_w, 0);
	} else {
		fw_cover_cell(sb, r->metric, metric_w, 0);
	}
	fw_cover_cell(sb, r->unit, unit_w, 0);
	value(sb, r->a.median, value_w);
	value(sb, r->b.median, value_w);
	if (isnan(d))
		strbuf_addstr(&t, "-");
	else  /* four digits before the point lose the decimals, never the '%' */
		strbuf_addf(&t, fabs(d) < 999.995 ? "%+.2f%%" : "%+.0f%%", d);
	fw_cover_cell(sb, t.buf, 8, 1);
	strbuf_release(&t);
}

/* "  metric  unit  Before  After  delta verdict": 2+20+1+8+1+10+1+10+1+8+1+7 = 70 columns at most. */
static void table_head(struct strbuf *sb, const struct fw_an_row *r, int show_host, int spread)
{
	struct strbuf t = STRBUF_INIT;

	strbuf_addf(&t, "%s/%s", r->workload, r->variant);
	if (show_host)
		strbuf_addf(&t, " (%s %s)", r->host, r->accel);
	strbuf_addstr(sb, "\n  ");
	fw_cover_cell(sb, t.buf, 29, 0);
	fw_cover_cell(sb, "Before", 10, 1);
	fw_cover_cell(sb, "After", 10, 1);
	fw_cover_cell(sb, "delta", 8, 1);
	if (spread)
		fw_cover_cell(sb, "%stddev", 7, 1);
	strbuf_addstr(sb, "verdict\n");
	strbuf_release(&t);
}

/*
 * The long form of a verdict, short enough for one line: what decided it
 * ("improvement at 2 boots, deterministic, floor 0.50%") or what it still
 * needs ("unsure: MDE 3.1%, needs 8 boots").
 */
static void long_form(struct strbuf *t, const struct fw_an_row *r)
{
	strbuf_addstr(t, r->verdict);
	if (!r->decided) {
		fw_report_needs(t, r);
		return;
	}
	if (r->decided_at_boots == FW_AN_NA)
		strbuf_addstr(t, " at nan boots");
	else
		strbuf_addf(t, " at %d boots", r->decided_at_boots);
	if (strcmp(r->mode, "rank"))
		strbuf_addf(t, ", %s, floor %.2f%%", !strcmp(r->mode, "exact") ? "exact count" : r->mode, r->floor_pct);
	else
		strbuf_addf(t, ", rank test, q %.2g", r->q);
}

/*
 * Counters that moved with a decided change, one wrapped line each (the mail
 * shows them): only those their own test says moved (the two commits' values
 * apart); one whose values overlap is not a finding (report --verbose has it).
 */
static void row_counters(struct strbuf *sb, const struct fw_an_row *r)
{
	struct strbuf t = STRBUF_INIT;

	if (r->v != FW_IMPROVEMENT && r->v != FW_REGRESSION)
		return;
	for (size_t i = 0; i < r->ncounters; i++) {
		const struct fw_an_counter *c = &r->counters[i];

		if (!c->moved)
			continue;
		strbuf_reset(&t);
		strbuf_addf(&t, "%s ", c->name);
		fw_num_human(&t, c->a, 6);
		strbuf_addstr(&t, " -> ");
		fw_num_human(&t, c->b, 6);
		strbuf_addf(&t, " (%+.1f%%, moved: every value apart)", c->delta_pct);
		fw_report_wrap(sb, t.buf, 4, 4);
	}
	strbuf_release(&t);
}

static void table_row(struct strbuf *sb, const struct fw_an_row *r, int spread, int counters)
{
	struct strbuf t = STRBUF_INIT;

	fw_cover_row_values(sb, r, 20, 8, 10);
	if (spread) {  /* LKP's %stddev: the pooled spread of the units compared, in % of Before */
		double sd = r->noise_pct;
		strbuf_reset(&t);
		if (isnan(sd))
			strbuf_addstr(&t, "-");
		else
			strbuf_addf(&t, "%.1f%%", sd);
		fw_cover_cell(sb, t.buf, 7, 1);
	}
	strbuf_addf(sb, "%s\n", fw_verdict_short(r->verdict));
	strbuf_reset(&t);
	long_form(&t, r);
	fw_report_wrap(sb, t.buf, 4, 2);
	if (counters)
		row_counters(sb, r);
	strbuf_release(&t);
}

int fw_cover_flagged(const struct fw_an_row *r)
{
	return r->v == FW_IMPROVEMENT || r->v == FW_REGRESSION;
}

/*
 * The kernel functions behind the table's first decided change: once, at
 * most three. A table with a decided change but no profile of both sides
 * says so (profiles are taken where a row is decided, issue 27).
 */
void fw_cover_why(struct strbuf *sb, const struct fw_an_row *from, const struct fw_an_row *to)
{
	struct strbuf t = STRBUF_INIT;
	int n = 0, asked = 0;

	for (const struct fw_an_row *r = from; r != to && !n; r++) {
		if (!fw_cover_flagged(r))
			continue;
		asked = 1;
		for (size_t i = 0; i < r->nattribution && n < 3; i++) {
			const struct fw_an_function *e = &r->attribution[i];
			int self = fw_attribution_uses_self(e);
			double pct = self ? e->delta_pct.self_us : e->delta_pct.time_us;

			strbuf_addf(&t, "%s%s %s", n++ ? ", " : "why (kernel profile, self time): ",
				    e->function[0] ? e->function : "?", self ? "" : "total ");
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

int fw_cover_same_table(const struct fw_an_row *a, const struct fw_an_row *b)
{
	return !strcmp(a->env, b->env) && !strcmp(a->workload, b->workload) && !strcmp(a->variant, b->variant);
}

int fw_cover_same_comparison(const struct fw_an_row *a, const struct fw_an_row *b)
{
	return !strcmp(a->sha, b->sha) && !strcmp(a->against_name, b->against_name);
}

size_t fw_report_tables(struct strbuf *sb, const struct fw_an *an, size_t i, int show_host, int mail)
{
	const struct fw_an_row *start = &an->rows[i];
	int any = 0;

	while (i < an->nrows && fw_cover_same_comparison(&an->rows[i], start)) {
		size_t t = i;

		table_head(sb, &an->rows[t], show_host, mail);
		for (; i < an->nrows && fw_cover_same_comparison(&an->rows[i], start) && fw_cover_same_table(&an->rows[i], &an->rows[t]);
		     i++) {
			table_row(sb, &an->rows[i], mail, mail);
			any |= fw_cover_flagged(&an->rows[i]);
		}
		fw_cover_why(sb, &an->rows[t], an->rows + i);
	}
	/* profiles are taken only where a row is decided a change: say why there is none */
	if (!any)
		strbuf_addstr(sb, "  not profiled: no change\n");
	return i;
}

int fw_cover_patches(const struct fw_an *s)
{
	int n = 0;

	for (size_t i = 0; i < s->ncommits; i++)
		n += !s->commits[i].is_base;
	return n;
}

/* How it was measured: each environment's setup, then the command that measures the same way. */
static void measured(struct strbuf *sb, const struct fw_an *s, const cJSON *facts, int lo, int hi)
{
	const cJSON *e, *env = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(facts, "envs"), 0);
	struct strbuf t = STRBUF_INIT;

	strbuf_addstr(sb, "\nHow it was measured:\n");
	if (!env)
		strbuf_addstr(sb, "  (no boots stored)\n");
	cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(facts, "envs")) {
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
void fw_cover_combined(struct strbuf *sb, const struct fw_an *s)
{
	struct strbuf t = STRBUF_INIT;

	if (s->ncombined)
		strbuf_addstr(sb, "\nCombined over hosts (each host against its own parent):\n");
	for (size_t i = 0; i < s->ncombined; i++) {
		const struct fw_an_combined *cp = &s->combined[i];

		strbuf_reset(&t);
		strbuf_addf(&t, "[%d] %.*s %s/%s %s on %d hosts: %+.2f%% %s", cp->position == FW_AN_NA ? 0 : cp->position,
			    UTF8_CUT(cp->sha, 12), cp->workload, cp->variant, cp->metric,
			    cp->hosts == FW_AN_NA ? 0 : cp->hosts, cp->delta_pct, fw_verdict_short(cp->verdict));
		fw_report_wrap(sb, t.buf, 2, 4);
	}
	strbuf_release(&t);
}

/* Whether rows are on more than one environment, and the fewest and most boots a side. */
int fw_cover_scan(const struct fw_an *s, int *lo, int *hi)
{
	int show_host = 0;

	for (size_t i = 0; i < s->nrows; i++) {
		const struct fw_an_row *r = &s->rows[i];

		show_host |= strcmp(s->rows[0].env, r->env) != 0;
		for (int side = 0; side < 2; side++) {
			int n = side ? r->b.boots : r->a.boots;

			n = n == FW_AN_NA ? 0 : n;
			*lo = !*lo || n < *lo ? n : *lo;
			*hi = n > *hi ? n : *hi;
		}
	}
	return show_host;
}

/* The whole series: its last commit against the base. */
static void cover_whole(struct strbuf *sb, const struct fw_an *s, int show_host, fw_cover_tables_fn tables)
{
	const struct fw_an_row *last_base = NULL;
	struct strbuf t = STRBUF_INIT;
	size_t i = 0;

	for (size_t k = 0; k < s->nrows; k++)
		if (s->rows[k].against == FW_AGAINST_BASE)
			last_base = &s->rows[k];
	if (!last_base)
		return;
	while (!fw_cover_same_comparison(&s->rows[i], last_base))
		i++;
	strbuf_addf(&t, "\nThe whole series: %.*s against the base %.*s", UTF8_CUT(last_base->sha, 12),
		    UTF8_CUT(s->base, 12));
	fw_report_wrap(sb, t.buf, 0, 4);
	tables(sb, s, i, show_host, 0);
	strbuf_release(&t);
}

void fw_cover_title(struct strbuf *sb, const struct fw_an *s)
{
	struct strbuf t = STRBUF_INIT;
	int npatches = fw_cover_patches(s);

	strbuf_addf(&t, "%s v%d: %d patch%s on %.*s, each against its parent", s->series,
		    s->revision == FW_AN_NA ? 1 : s->revision, npatches, npatches == 1 ? "" : "es", UTF8_CUT(s->base, 12));
	fw_report_wrap(sb, t.buf, 0, 2);
	strbuf_release(&t);
}

void fw_cover_body(struct strbuf *sb, const struct fw_an *s, int show_host, int whole_from, fw_cover_tables_fn tables)
{
	struct strbuf t = STRBUF_INIT;
	int npatches = fw_cover_patches(s);

	if (!s->nrows)
		strbuf_addstr(sb, "\n(no comparable results)\n");
	for (size_t i = 0; i < s->nrows;) {
		const struct fw_an_row *r = &s->rows[i];

		if (r->against != FW_AGAINST_PARENT) {
			i++;
			continue;
		}
		strbuf_reset(&t);
		strbuf_addf(&t, "[%d/%d] %s (%.*s)", r->position == FW_AN_NA ? 0 : r->position, npatches, r->subject,
			    UTF8_CUT(r->sha, 12));
		strbuf_addch(sb, '\n');
		fw_report_wrap(sb, t.buf, 0, 4);
		i = tables(sb, s, i, show_host, 1);
	}
	if (npatches >= whole_from)
		cover_whole(sb, s, show_host, tables);
	fw_cover_combined(sb, s);
	strbuf_release(&t);
}

static size_t cover_tables(struct strbuf *sb, const struct fw_an *s, size_t i, int show_host, int patch)
{
	(void)patch;  /* every table has its kernel functions */
	return fw_report_tables(sb, s, i, show_host, 0);
}

void fw_report_cover(const struct fw_an *s, const cJSON *facts, struct strbuf *sb)
{
	int lo = 0, hi = 0, show_host = fw_cover_scan(s, &lo, &hi);

	fw_cover_title(sb, s);
	fw_cover_body(sb, s, show_host, 1, cover_tables);
	strbuf_addstr(sb, "\nbetter/worse: a decided change; same: decided, within the noise floor\n"
		      "or the minimum effect; unsure: more boots needed. p, q, intervals and\n"
		      "counters: report --verbose.\n");
	measured(sb, s, facts, lo, hi);
}
