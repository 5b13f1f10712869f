/*
 * The one table writer: renders an analysed series (struct fw_an) as the long
 * plain-text table (report --verbose), as CSV, or as its JSON. Everything
 * that prints a comparison reads the same typed result, so a number is
 * computed in one place.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "analysis-internal.h"
#include "history-window.h"
#include "numfmt.h"
#include "utf8.h"

int fw_report_format_parse(const char *s, enum fw_report_format *f)
{
	if (!strcmp(s, "text"))
		*f = FW_REPORT_TEXT;
	else if (!strcmp(s, "json"))
		*f = FW_REPORT_JSON;
	else if (!strcmp(s, "csv"))
		*f = FW_REPORT_CSV;
	else
		return -1;
	return 0;
}

/*
 * Values with 4 significant digits: enough to see a 0.1% change on any scale;
 * counters in full (131072 pages, not 1.311e+05).
 */
static void add_value(struct strbuf *sb, double v, const char *unit)
{
	if (isnan(v)) {
		strbuf_addstr(sb, "-");
		return;
	}
	fw_num_human(sb, v, 4);
	strbuf_addf(sb, " %s", unit);
}

static void add_pct(struct strbuf *sb, double v)
{
	if (isnan(v))
		strbuf_addstr(sb, "-");
	else
		strbuf_addf(sb, "%+.1f%%", v);
}

static void pad_to(struct strbuf *sb, size_t line_start, size_t col)
{
	while (sb->len - line_start < col)
		strbuf_addch(sb, ' ');
	strbuf_addch(sb, ' ');
}

void fw_report_needs(struct strbuf *sb, const struct fw_an_row *r)
{
	double need = fw_an_whole(r->boots_needed), mde = r->mde_pct;

	strbuf_addstr(sb, ": MDE ");
	if (isnan(mde))
		strbuf_addstr(sb, "-");
	else
		strbuf_addf(sb, "%.1f%%", mde);
	if (isnan(need))
		strbuf_addstr(sb, ", no number of boots decides it");
	else
		strbuf_addf(sb, ", needs %.0f boots", need);
}

/* ", decided at 3 boots" or ": MDE 3.1%, needs 8 boots", plus where a floor came from. */
static void decided_text(struct strbuf *sb, const struct fw_an_row *r)
{
	if (r->decided)
		strbuf_addf(sb, ", decided at %.0f boots", fw_an_whole(r->decided_at_boots));
	else
		fw_report_needs(sb, r);
	if (strcmp(r->mode, "rank"))
		strbuf_addf(sb, " (%s; floor %.2f%% from %.0f boots)", r->mode, r->floor_pct, fw_an_whole(r->floor_boots));
	else if (r->beyond_bound && r->decided)
		strbuf_addf(sb, " (beyond the distribution-free bound %.1f%%)", r->bound_pct);
}

static void text_counters(struct strbuf *sb, const struct fw_an_row *r)
{
	for (size_t i = 0; i < r->ncounters; i++) {
		const struct fw_an_counter *c = &r->counters[i];

		strbuf_addf(sb, "      %s ", c->name);
		fw_num_human(sb, c->a, 6);
		strbuf_addstr(sb, " -> ");
		fw_num_human(sb, c->b, 6);
		strbuf_addstr(sb, " (");
		add_pct(sb, c->delta_pct);
		strbuf_addstr(sb, c->moved ? "; moved: every value apart)\n"
			      : "; not shown as moved: values overlap, or under 3 a side)\n");
	}
	for (size_t i = 0; i < r->nattribution; i++) {
		strbuf_addstr(sb, "      profile: ");
		fw_attribution_line(&r->attribution[i], sb);
		strbuf_addch(sb, '\n');
	}
}

static void text_row(struct strbuf *sb, const struct fw_an_row *r, int show_host)
{
	size_t start = sb->len;
	int per_boot = r->unit_of_comparison[0] == 'b';

	strbuf_addf(sb, "  %s%s%s/%s %s", show_host ? r->host : "", show_host ? ":" : "", r->workload, r->variant,
		    r->metric);
	pad_to(sb, start, 40);
	strbuf_addf(sb, "%.0f/%.0f%c", fw_an_whole(per_boot ? r->a.boots : r->a.samples),
		    fw_an_whole(per_boot ? r->b.boots : r->b.samples), per_boot ? 'b' : 's');
	pad_to(sb, start, 49);
	add_value(sb, r->a.median, r->unit);
	pad_to(sb, start, 63);
	add_value(sb, r->b.median, r->unit);
	pad_to(sb, start, 77);
	add_pct(sb, r->delta_pct);
	pad_to(sb, start, 85);
	strbuf_addch(sb, '[');
	add_pct(sb, r->ci_lo_pct);
	strbuf_addstr(sb, ", ");
	add_pct(sb, r->ci_hi_pct);
	strbuf_addch(sb, ']');
	pad_to(sb, start, 104);
	if (strcmp(r->mode, "rank"))
		strbuf_addf(sb, "floor %.2f%%", r->floor_pct);
	else if (isnan(r->q))
		strbuf_addstr(sb, "-");
	else
		strbuf_addf(sb, r->q < 0.001 ? "%.1e" : "%.3f", r->q);
	pad_to(sb, start, 116);
	if (isnan(r->mde_pct))
		strbuf_addstr(sb, "-");
	else
		strbuf_addf(sb, "%.1f%%", r->mde_pct);
	pad_to(sb, start, 123);
	strbuf_addstr(sb, r->verdict);
	decided_text(sb, r);
	strbuf_addch(sb, '\n');
	if (!strcmp(r->kind, "rate") && !isnan(r->a.hmean)) {
		strbuf_addstr(sb, "      harmonic mean: ");
		add_value(sb, r->a.hmean, r->unit);
		strbuf_addstr(sb, " -> ");
		add_value(sb, r->b.hmean, r->unit);
		strbuf_addch(sb, '\n');
	}
	text_counters(sb, r);
}

/* How each metric is compared in each environment, and the same-kernel evidence behind it. */
static void determinism_text(const struct fw_an *s, struct strbuf *sb, int show_host)
{
	if (s->ndeterminism)
		strbuf_addstr(sb, "\nhow each metric is compared (same-kernel boots: CV of per-boot medians between "
			      "boots of one kernel, pooled; rounds: CV of the rounds inside a boot, pooled):\n");
	for (size_t i = 0; i < s->ndeterminism; i++) {
		const struct fw_an_determinism *d = &s->determinism[i];
		const struct fw_an_same_kernel *k = &d->same_kernel;
		size_t start = sb->len;

		strbuf_addf(sb, "  %s%s%s/%s %s", show_host ? d->host : "", show_host ? ":" : "", d->workload,
			    d->variant, d->metric);
		pad_to(sb, start, 40);
		strbuf_addf(sb, "%-7s %-13s (%s)", d->accel, d->mode, d->mode_source);
		if (k->present && k->kernels > 0)
			strbuf_addf(sb, ", CV %.3g%% [%.3g, %.3g] from %d boots of %d kernels", k->cv_pct,
				    k->cv_lo_pct, k->cv_hi_pct, k->boots, k->kernels);
		else
			strbuf_addstr(sb, ", no repeated boots yet");
		if (k->present && k->within_df > 0)
			strbuf_addf(sb, "; rounds CV %.3g%% [%.3g, %.3g]", k->within_cv_pct, k->within_cv_lo_pct,
				    k->within_cv_hi_pct);
		strbuf_addch(sb, '\n');
	}
}

/* The head of the long table: what was tested, and how. */
static void text_head(const struct fw_an *s, struct strbuf *sb)
{
	int tests = 0, samples_rows = 0;

	for (size_t i = 0; i < s->nrows; i++) {
		tests += !isnan(s->rows[i].p) && !strcmp(s->rows[i].mode, "rank");
		samples_rows += !strcmp(s->rows[i].unit_of_comparison, "samples");
	}
	strbuf_addf(sb, "series %s v%.0f, base %.*s\n", s->series, fw_an_whole(s->revision), UTF8_CUT(s->base, 12));
	if (s->watched)
		strbuf_addf(sb, "A watched history: each commit is decided once, from the commits up to it.\n"
			    "p: Mann-Whitney U, two-sided; q: Benjamini-Hochberg over the rows of the newest %d\n"
			    "commits up to each commit (%d tests in all).\n", FW_HISTORY_BH_WINDOW, tests);
	else
		strbuf_addf(sb, "p: Mann-Whitney U, two-sided; q: Benjamini-Hochberg over %d tests of this series.\n",
			    tests);
	strbuf_addf(sb, "A change needs q <= %.3g and |delta| >= the metric's minimum effect (default %.3g%%);\n"
		    "deterministic rows (same-kernel boots agree within %.3g%%) compare the delta with a floor\n"
		    "from the environment's same-kernel noise (at least %.3g%%); exact counts: any difference\n"
		    "beyond their same-kernel spread.\n",
		    s->alpha, s->min_effect_pct, s->deterministic_cv_pct, s->noise_floor_pct);
	if (s->looks > 1) {
		strbuf_addf(sb, "Boots were added over up to %d looks: a rank row tests at the share of alpha of the "
			    "look of its\nnewest boot (", s->looks);
		for (size_t k = 0; k < s->nalpha_at_looks; k++)
			strbuf_addf(sb, "%s%.2g", k ? ", " : "", s->alpha_at_looks[k]);
		strbuf_addf(sb, "; O'Brien-Fleming-type), a floor at %.3g / %d.\n", s->floor_alpha, s->looks);
	}
	if (samples_rows)
		strbuf_addf(sb, "n ending in s: fewer than 3 boots on a side, so %d row(s) compare samples "
			    "(rounds of one boot are not independent: read their q with care).\n", samples_rows);
	if (!s->nrows)
		strbuf_addstr(sb, "\n(no comparable results)\n");
}

/* The heading of one comparison's rows. */
static void text_columns(struct strbuf *sb, const struct fw_an_row *r)
{
	size_t start;

	strbuf_addf(sb, "\n[%.0f] %.*s %s\n    against %s %.*s\n", fw_an_whole(r->position), UTF8_CUT(r->sha, 12),
		    r->subject, r->against_name, UTF8_CUT(r->ref_sha, 12));
	start = sb->len;
	strbuf_addstr(sb, "  metric");
	pad_to(sb, start, 40);
	strbuf_addstr(sb, "n");
	pad_to(sb, start, 49);
	strbuf_addstr(sb, "Before");
	pad_to(sb, start, 63);
	strbuf_addstr(sb, "After");
	pad_to(sb, start, 77);
	strbuf_addstr(sb, "delta");
	pad_to(sb, start, 85);
	strbuf_addstr(sb, "CI of shift");
	pad_to(sb, start, 104);
	strbuf_addstr(sb, "q");
	pad_to(sb, start, 116);
	strbuf_addstr(sb, "MDE");
	pad_to(sb, start, 123);
	strbuf_addstr(sb, "verdict\n");
}

/* Combined rows and change points. */
static void text_along(const struct fw_an *s, struct strbuf *sb)
{
	if (s->ncombined)
		strbuf_addstr(sb, "\ncombined over hosts (each host against its own parent; van Elteren):\n");
	for (size_t i = 0; i < s->ncombined; i++) {
		const struct fw_an_combined *cp = &s->combined[i];

		strbuf_addf(sb, "  [%.0f] %.*s %s/%s %s on %.0f hosts: ", fw_an_whole(cp->position), UTF8_CUT(cp->sha, 12),
			    cp->workload, cp->variant, cp->metric, fw_an_whole(cp->hosts));
		add_pct(sb, cp->delta_pct);
		if (isnan(cp->q))
			strbuf_addstr(sb, "  q -");
		else
			strbuf_addf(sb, "  q %.3g", cp->q);
		strbuf_addf(sb, "  %s\n", cp->verdict);
	}
	if (s->nchange_points)
		strbuf_addstr(sb, "\nchange points along the series (E-divisive means, Welch t-test):\n");
	else if (s->ncommits < FW_CP_MIN_COMMITS)  /* why none: the question a reader asks */
		strbuf_addf(sb, "\nchange points: none: a patch series is compared commit by commit; change points "
			    "are for histories (%d commits or more, `watch`)\n", FW_CP_MIN_COMMITS);
	else
		strbuf_addstr(sb, "\nchange points: none along the series (E-divisive means, Welch t-test)\n");
	for (size_t i = 0; i < s->nchange_points; i++) {
		const struct fw_change_point *cp = &s->change_points[i];

		strbuf_addf(sb, "  %s/%s %s at [%.0f] %.*s: ", cp->workload, cp->variant, cp->metric,
			    fw_an_whole(cp->position), UTF8_CUT(cp->sha, 12));
		fw_num_human(sb, cp->before, 4);
		strbuf_addstr(sb, " -> ");
		fw_num_human(sb, cp->after, 4);
		strbuf_addstr(sb, " (");
		add_pct(sb, cp->delta_pct);
		strbuf_addstr(sb, ")\n");
	}
}

static void write_text(const struct fw_an *s, struct strbuf *sb)
{
	const char *last_sha = NULL, *last_against = NULL, *first_env = NULL;
	int show_host = 0;

	for (size_t i = 0; i < s->nrows; i++) {
		if (!first_env)
			first_env = s->rows[i].env;
		else if (strcmp(first_env, s->rows[i].env))
			show_host = 1;
	}
	text_head(s, sb);
	for (size_t i = 0; i < s->nrows; i++) {
		const struct fw_an_row *r = &s->rows[i];

		if (!last_sha || strcmp(r->sha, last_sha) || strcmp(r->against_name, last_against)) {
			text_columns(sb, r);
			last_sha = r->sha;
			last_against = r->against_name;
		}
		text_row(sb, r, show_host);
	}
	text_along(s, sb);
	determinism_text(s, sb, show_host);
}

/* RFC 4180 field: always quoted, quotes doubled. */
static void csv_str(struct strbuf *sb, const char *s)
{
	strbuf_addch(sb, '"');
	for (; *s; s++) {
		if (*s == '"')
			strbuf_addch(sb, '"');
		strbuf_addch(sb, *s);
	}
	strbuf_addch(sb, '"');
}

/* The shortest form that reads back exactly: medians as measured, no 17-digit noise. */
static void csv_num(struct strbuf *sb, double v)
{
	if (!isnan(v))
		fw_num_exact(sb, v);
}

/* "FUNCTION self_us BEFORE->AFTER hits BEFORE->AFTER; ..." (time_us where self was not measured). */
static void csv_attribution(struct strbuf *sb, const struct fw_an_row *r)
{
	struct strbuf at = STRBUF_INIT;

	for (size_t i = 0; i < r->nattribution; i++) {
		const struct fw_an_function *c = &r->attribution[i];
		int self = fw_attribution_uses_self(c);

		strbuf_addf(&at, "%s%s %s ", at.len ? "; " : "", c->function, self ? "self_us" : "time_us");
		fw_num_exact(&at, self ? c->before.self_us : c->before.time_us);
		strbuf_addstr(&at, "->");
		fw_num_exact(&at, self ? c->after.self_us : c->after.time_us);
		strbuf_addstr(&at, " hits ");
		fw_num_exact(&at, c->before.hits);
		strbuf_addstr(&at, "->");
		fw_num_exact(&at, c->after.hits);
	}
	csv_str(sb, at.buf);
	strbuf_release(&at);
}

static void csv_head(struct strbuf *sb)
{
	strbuf_addstr(sb, "series,revision,position,commit_id,sha,against,ref_sha,host,accel,env_fingerprint,"
		      "workload,variant,params,metric,unit,direction,kind,unit_of_comparison,"
		      "a_boots,a_samples,a_median,b_boots,b_samples,b_median,"
		      "delta_pct,ci_lo_pct,ci_hi_pct,ci_level,p,q,mde_pct,boots_for_5pct,min_effect_pct,mode,verdict,"
		      "decided,decided_at_boots,boots_needed,floor_pct,floor_boots,same_kernel_cv_pct,looks,alpha_used,"
		      "mode_source,counters,attribution\n");
}

static void csv_row(const struct fw_an *s, const struct fw_an_row *r, struct strbuf *sb)
{
	const char *text[] = { r->sha, r->against_name, r->ref_sha, r->host, r->accel, r->env, r->workload,
		r->variant, r->params, r->metric, r->unit, r->direction, r->kind, r->unit_of_comparison };
	double nums[] = { fw_an_whole(r->a.boots), fw_an_whole(r->a.samples), r->a.median, fw_an_whole(r->b.boots),
		fw_an_whole(r->b.samples), r->b.median, r->delta_pct, r->ci_lo_pct, r->ci_hi_pct, r->ci_level, r->p,
		r->q, r->mde_pct, fw_an_whole(r->boots_for_5pct), r->min_effect_pct };
	double seq[] = { fw_an_whole(r->decided_at_boots), fw_an_whole(r->boots_needed), r->floor_pct, fw_an_whole(r->floor_boots),
		r->same_kernel.cv_pct, fw_an_whole(r->looks), r->alpha_used };
	struct strbuf ct = STRBUF_INIT;

	csv_str(sb, s->series);
	strbuf_addf(sb, ",%.0f,%.0f,%lld", fw_an_whole(s->revision), fw_an_whole(r->position), r->commit_id);
	for (size_t i = 0; i < sizeof(text) / sizeof(*text); i++) {
		strbuf_addch(sb, ',');
		csv_str(sb, text[i]);
	}
	for (size_t i = 0; i < sizeof(nums) / sizeof(*nums); i++) {
		strbuf_addch(sb, ',');
		csv_num(sb, nums[i]);
	}
	strbuf_addch(sb, ',');
	csv_str(sb, r->mode);
	strbuf_addch(sb, ',');
	csv_str(sb, r->verdict);
	strbuf_addstr(sb, r->decided ? ",1" : ",0");
	for (size_t i = 0; i < sizeof(seq) / sizeof(*seq); i++) {
		strbuf_addch(sb, ',');
		csv_num(sb, seq[i]);
	}
	strbuf_addch(sb, ',');
	csv_str(sb, r->mode_source);
	for (size_t i = 0; i < r->ncounters; i++) {
		strbuf_addf(&ct, "%s%s ", ct.len ? "; " : "", r->counters[i].name);
		fw_num_exact(&ct, r->counters[i].a);
		strbuf_addstr(&ct, "->");
		fw_num_exact(&ct, r->counters[i].b);
	}
	strbuf_addch(sb, ',');
	csv_str(sb, ct.buf);
	strbuf_addch(sb, ',');
	csv_attribution(sb, r);
	strbuf_addch(sb, '\n');
	strbuf_release(&ct);
}

void fw_report_write(const struct fw_an *an, enum fw_report_format f, struct strbuf *out)
{
	char *text;

	switch (f) {
	case FW_REPORT_TEXT:
		write_text(an, out);
		break;
	case FW_REPORT_CSV:
		csv_head(out);
		for (size_t i = 0; i < an->nrows; i++)
			csv_row(an, &an->rows[i], out);
		break;
	case FW_REPORT_JSON:
		text = cJSON_Print(fw_an_json(an));
		if (text)
			strbuf_addf(out, "%s\n", text);
		cJSON_free(text);
		break;
	}
}
