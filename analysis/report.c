/*
 * The one table writer: renders an analysed series (analysis.h's JSON) as the
 * plain-text Before/After table of the seeds, as JSON, or as CSV. Everything
 * that prints a comparison (report, pages, collector) goes through here or
 * reads the same JSON, so a number is computed and rounded in one place.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "analysis-internal.h"
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

static const cJSON *obj_of(const cJSON *o, const char *k)
{
	return cJSON_GetObjectItemCaseSensitive(o, k);
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

void fw_report_needs(struct strbuf *sb, const cJSON *r)
{
	double need = fw_json_num(r, "boots_needed", NAN), mde = fw_json_num(r, "mde_pct", NAN);

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
static void decided_text(struct strbuf *sb, const cJSON *r)
{
	if (cJSON_IsTrue(obj_of(r, "decided")))
		strbuf_addf(sb, ", decided at %.0f boots", fw_json_num(r, "decided_at_boots", NAN));
	else
		fw_report_needs(sb, r);
	if (strcmp(fw_json_str(r, "mode", ""), "rank"))
		strbuf_addf(sb, " (%s; floor %.2f%% from %.0f boots)", fw_json_str(r, "mode", ""),
			    fw_json_num(r, "floor_pct", NAN), fw_json_num(r, "floor_boots", NAN));
	else if (cJSON_IsTrue(obj_of(r, "beyond_bound")) && cJSON_IsTrue(obj_of(r, "decided")))
		strbuf_addf(sb, " (beyond the distribution-free bound %.1f%%)", fw_json_num(r, "bound_pct", NAN));
}

static void text_row(struct strbuf *sb, const cJSON *r, int show_host)
{
	const cJSON *a = obj_of(r, "a"), *b = obj_of(r, "b"), *c;
	const char *unit = fw_json_str(r, "unit", ""), *per = fw_json_str(r, "unit_of_comparison", "");
	size_t start = sb->len;
	double q = fw_json_num(r, "q", NAN);

	strbuf_addf(sb, "  %s%s%s/%s %s", show_host ? fw_json_str(r, "host", "") : "", show_host ? ":" : "",
		    fw_json_str(r, "workload", ""), fw_json_str(r, "variant", ""), fw_json_str(r, "metric", ""));
	pad_to(sb, start, 40);
	strbuf_addf(sb, "%.0f/%.0f%c", fw_json_num(a, per[0] == 'b' ? "boots" : "samples", NAN),
		    fw_json_num(b, per[0] == 'b' ? "boots" : "samples", NAN), per[0] == 'b' ? 'b' : 's');
	pad_to(sb, start, 49);
	add_value(sb, fw_json_num(a, "median", NAN), unit);
	pad_to(sb, start, 63);
	add_value(sb, fw_json_num(b, "median", NAN), unit);
	pad_to(sb, start, 77);
	add_pct(sb, fw_json_num(r, "delta_pct", NAN));
	pad_to(sb, start, 85);
	strbuf_addch(sb, '[');
	add_pct(sb, fw_json_num(r, "ci_lo_pct", NAN));
	strbuf_addstr(sb, ", ");
	add_pct(sb, fw_json_num(r, "ci_hi_pct", NAN));
	strbuf_addch(sb, ']');
	pad_to(sb, start, 104);
	if (strcmp(fw_json_str(r, "mode", ""), "rank"))
		strbuf_addf(sb, "floor %.2f%%", fw_json_num(r, "floor_pct", NAN));
	else if (isnan(q))
		strbuf_addstr(sb, "-");
	else
		strbuf_addf(sb, q < 0.001 ? "%.1e" : "%.3f", q);
	pad_to(sb, start, 116);
	if (isnan(fw_json_num(r, "mde_pct", NAN)))
		strbuf_addstr(sb, "-");
	else
		strbuf_addf(sb, "%.1f%%", fw_json_num(r, "mde_pct", NAN));
	pad_to(sb, start, 123);
	strbuf_addstr(sb, fw_json_str(r, "verdict", ""));
	decided_text(sb, r);
	strbuf_addch(sb, '\n');
	if (!strcmp(fw_json_str(r, "kind", ""), "rate") && !isnan(fw_json_num(a, "hmean", NAN))) {
		strbuf_addstr(sb, "      harmonic mean: ");
		add_value(sb, fw_json_num(a, "hmean", NAN), unit);
		strbuf_addstr(sb, " -> ");
		add_value(sb, fw_json_num(b, "hmean", NAN), unit);
		strbuf_addch(sb, '\n');
	}
	cJSON_ArrayForEach(c, obj_of(r, "counters")) {
		strbuf_addf(sb, "      %s ", fw_json_str(c, "name", ""));
		fw_num_human(sb, fw_json_num(c, "a", NAN), 6);
		strbuf_addstr(sb, " -> ");
		fw_num_human(sb, fw_json_num(c, "b", NAN), 6);
		strbuf_addstr(sb, " (");
		add_pct(sb, fw_json_num(c, "delta_pct", NAN));
		strbuf_addstr(sb, ")\n");
	}
	cJSON_ArrayForEach(c, obj_of(r, "attribution")) {
		strbuf_addstr(sb, "      profile: ");
		fw_attribution_line(c, sb);
		strbuf_addch(sb, '\n');
	}
}

/* How each metric is compared in each environment, and the same-kernel evidence behind it. */
static void determinism_text(const cJSON *s, struct strbuf *sb, int show_host)
{
	const cJSON *d;

	if (cJSON_GetArraySize(obj_of(s, "determinism")))
		strbuf_addstr(sb, "\nhow each metric is compared (same-kernel boots: CV of per-boot medians between "
			      "boots of one kernel, pooled; rounds: CV of the rounds inside a boot, pooled):\n");
	cJSON_ArrayForEach(d, obj_of(s, "determinism")) {
		const cJSON *k = obj_of(d, "same_kernel");
		size_t start = sb->len;

		strbuf_addf(sb, "  %s%s%s/%s %s", show_host ? fw_json_str(d, "host", "") : "", show_host ? ":" : "",
			    fw_json_str(d, "workload", ""), fw_json_str(d, "variant", ""),
			    fw_json_str(d, "metric", ""));
		pad_to(sb, start, 40);
		strbuf_addf(sb, "%-7s %-13s (%s)", fw_json_str(d, "accel", ""), fw_json_str(d, "mode", ""),
			    fw_json_str(d, "mode_source", ""));
		if (k && fw_json_num(k, "kernels", NAN) > 0)
			strbuf_addf(sb, ", CV %.3g%% [%.3g, %.3g] from %.0f boots of %.0f kernels",
				    fw_json_num(k, "cv_pct", NAN), fw_json_num(k, "cv_lo_pct", NAN),
				    fw_json_num(k, "cv_hi_pct", NAN), fw_json_num(k, "boots", NAN),
				    fw_json_num(k, "kernels", NAN));
		else
			strbuf_addstr(sb, ", no repeated boots yet");
		if (k && fw_json_num(k, "within_boot_df", NAN) > 0)
			strbuf_addf(sb, "; rounds CV %.3g%% [%.3g, %.3g]", fw_json_num(k, "within_boot_cv_pct", NAN),
				    fw_json_num(k, "within_boot_cv_lo_pct", NAN),
				    fw_json_num(k, "within_boot_cv_hi_pct", NAN));
		strbuf_addch(sb, '\n');
	}
}

static void write_text(const cJSON *s, struct strbuf *sb)
{
	const cJSON *rows = obj_of(s, "rows"), *r, *cp;
	const char *last_sha = NULL, *last_against = NULL, *first_env = NULL;
	int show_host = 0, tests = 0, samples_rows = 0;

	cJSON_ArrayForEach(r, rows) {
		if (!first_env)
			first_env = fw_json_str(r, "env_fingerprint", "");
		else if (strcmp(first_env, fw_json_str(r, "env_fingerprint", "")))
			show_host = 1;
		tests += !isnan(fw_json_num(r, "p", NAN)) && !strcmp(fw_json_str(r, "mode", ""), "rank");
		samples_rows += !strcmp(fw_json_str(r, "unit_of_comparison", ""), "samples");
	}
	strbuf_addf(sb, "series %s v%.0f, base %.*s\n", fw_json_str(s, "series", ""),
		    fw_json_num(s, "revision", NAN), UTF8_CUT(fw_json_str(s, "base", ""), 12));
	strbuf_addf(sb, "p: Mann-Whitney U, two-sided; q: Benjamini-Hochberg over %d tests of this series.\n"
		    "A change needs q <= %.3g and |delta| >= the metric's minimum effect (default %.3g%%);\n"
		    "deterministic rows (same-kernel boots agree within %.3g%%) compare the delta with a floor\n"
		    "from the environment's same-kernel noise (at least %.3g%%); exact counts: any difference\n"
		    "beyond their same-kernel spread.\n",
		    tests, fw_json_num(s, "alpha", NAN), fw_json_num(s, "min_effect_pct", NAN),
		    fw_json_num(s, "deterministic_cv_pct", NAN), fw_json_num(s, "noise_floor_pct", NAN));
	if (fw_json_num(s, "looks", NAN) > 1) {
		const cJSON *a;
		int k = 0;
		strbuf_addf(sb, "Boots were added over up to %.0f looks: a rank row tests at the share of alpha of the "
			    "look of its\nnewest boot (", fw_json_num(s, "looks", NAN));
		cJSON_ArrayForEach(a, obj_of(s, "alpha_at_looks"))
			strbuf_addf(sb, "%s%.2g", k++ ? ", " : "", a->valuedouble);
		strbuf_addf(sb, "; O'Brien-Fleming-type), a floor at %.3g / %.0f.\n",
			    fw_json_num(s, "floor_alpha", NAN), fw_json_num(s, "looks", NAN));
	}
	if (samples_rows)
		strbuf_addf(sb, "n ending in s: fewer than 3 boots on a side, so %d row(s) compare samples "
			    "(rounds of one boot are not independent: read their q with care).\n", samples_rows);
	if (!cJSON_GetArraySize(rows))
		strbuf_addstr(sb, "\n(no comparable results)\n");
	cJSON_ArrayForEach(r, rows) {
		const char *sha = fw_json_str(r, "sha", ""), *against = fw_json_str(r, "against", "");
		if (!last_sha || strcmp(sha, last_sha) || strcmp(against, last_against)) {
			size_t start;
			strbuf_addf(sb, "\n[%.0f] %.*s %s\n    against %s %.*s\n",
				    fw_json_num(r, "position", NAN), UTF8_CUT(sha, 12), fw_json_str(r, "subject", ""),
				    against, UTF8_CUT(fw_json_str(r, "ref_sha", ""), 12));
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
			last_sha = sha;
			last_against = against;
		}
		text_row(sb, r, show_host);
	}
	if (cJSON_GetArraySize(obj_of(s, "combined")))
		strbuf_addstr(sb, "\ncombined over hosts (each host against its own parent; van Elteren):\n");
	cJSON_ArrayForEach(cp, obj_of(s, "combined")) {
		double q = fw_json_num(cp, "q", NAN);
		strbuf_addf(sb, "  [%.0f] %.*s %s/%s %s on %.0f hosts: ", fw_json_num(cp, "position", NAN),
			    UTF8_CUT(fw_json_str(cp, "sha", ""), 12), fw_json_str(cp, "workload", ""),
			    fw_json_str(cp, "variant", ""), fw_json_str(cp, "metric", ""), fw_json_num(cp, "hosts", NAN));
		add_pct(sb, fw_json_num(cp, "delta_pct", NAN));
		if (isnan(q))
			strbuf_addstr(sb, "  q -");
		else
			strbuf_addf(sb, "  q %.3g", q);
		strbuf_addf(sb, "  %s\n", fw_json_str(cp, "verdict", ""));
	}
	if (cJSON_GetArraySize(obj_of(s, "change_points")))
		strbuf_addstr(sb, "\nchange points along the series (E-divisive means, Welch t-test):\n");
	cJSON_ArrayForEach(cp, obj_of(s, "change_points")) {
		strbuf_addf(sb, "  %s/%s %s at [%.0f] %.*s: ", fw_json_str(cp, "workload", ""),
			    fw_json_str(cp, "variant", ""), fw_json_str(cp, "metric", ""), fw_json_num(cp, "position", NAN),
			    UTF8_CUT(fw_json_str(cp, "sha", ""), 12));
		fw_num_human(sb, fw_json_num(cp, "before", NAN), 4);
		strbuf_addstr(sb, " -> ");
		fw_num_human(sb, fw_json_num(cp, "after", NAN), 4);
		strbuf_addstr(sb, " (");
		add_pct(sb, fw_json_num(cp, "delta_pct", NAN));
		strbuf_addstr(sb, ")\n");
	}
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
static void csv_attribution(struct strbuf *sb, const cJSON *r)
{
	struct strbuf at = STRBUF_INIT;
	const cJSON *c;

	cJSON_ArrayForEach(c, obj_of(r, "attribution")) {
		const char *k = fw_attribution_key(c);
		strbuf_addf(&at, "%s%s %s ", at.len ? "; " : "", fw_json_str(c, "function", ""), k);
		fw_num_exact(&at, fw_json_num(obj_of(c, "before"), k, NAN));
		strbuf_addstr(&at, "->");
		fw_num_exact(&at, fw_json_num(obj_of(c, "after"), k, NAN));
		strbuf_addstr(&at, " hits ");
		fw_num_exact(&at, fw_json_num(obj_of(c, "before"), "hits", NAN));
		strbuf_addstr(&at, "->");
		fw_num_exact(&at, fw_json_num(obj_of(c, "after"), "hits", NAN));
	}
	csv_str(sb, at.buf);
	strbuf_release(&at);
}

static void write_csv(const cJSON *s, struct strbuf *sb)
{
	static const char *text_cols[] = { "sha", "against", "ref_sha", "host", "accel", "env_fingerprint",
		"workload", "variant", "params", "metric", "unit", "direction", "kind", "unit_of_comparison" };
	static const char *num_cols[] = { "delta_pct", "ci_lo_pct", "ci_hi_pct", "ci_level", "p", "q",
		"mde_pct", "boots_for_5pct", "min_effect_pct" };
	static const char *seq_cols[] = { "decided", "decided_at_boots", "boots_needed", "floor_pct", "floor_boots",
		"same_kernel_cv_pct", "looks", "alpha_used" };
	const cJSON *r, *c;

	strbuf_addstr(sb, "series,revision,position,commit_id");
	for (size_t i = 0; i < sizeof(text_cols) / sizeof(*text_cols); i++)
		strbuf_addf(sb, ",%s", text_cols[i]);
	strbuf_addstr(sb, ",a_boots,a_samples,a_median,b_boots,b_samples,b_median");
	for (size_t i = 0; i < sizeof(num_cols) / sizeof(*num_cols); i++)
		strbuf_addf(sb, ",%s", num_cols[i]);
	strbuf_addstr(sb, ",mode,verdict");
	for (size_t i = 0; i < sizeof(seq_cols) / sizeof(*seq_cols); i++)
		strbuf_addf(sb, ",%s", seq_cols[i]);
	strbuf_addstr(sb, ",mode_source,counters,attribution\n");
	cJSON_ArrayForEach(r, obj_of(s, "rows")) {
		struct strbuf ct = STRBUF_INIT;
		csv_str(sb, fw_json_str(s, "series", ""));
		strbuf_addf(sb, ",%.0f,%.0f,%.0f", fw_json_num(s, "revision", NAN),
			    fw_json_num(r, "position", NAN), fw_json_num(r, "commit_id", NAN));
		for (size_t i = 0; i < sizeof(text_cols) / sizeof(*text_cols); i++) {
			strbuf_addch(sb, ',');
			csv_str(sb, fw_json_str(r, text_cols[i], ""));
		}
		for (int side = 0; side < 2; side++) {
			const cJSON *x = obj_of(r, side ? "b" : "a");
			strbuf_addch(sb, ',');
			csv_num(sb, fw_json_num(x, "boots", NAN));
			strbuf_addch(sb, ',');
			csv_num(sb, fw_json_num(x, "samples", NAN));
			strbuf_addch(sb, ',');
			csv_num(sb, fw_json_num(x, "median", NAN));
		}
		for (size_t i = 0; i < sizeof(num_cols) / sizeof(*num_cols); i++) {
			strbuf_addch(sb, ',');
			csv_num(sb, fw_json_num(r, num_cols[i], NAN));
		}
		strbuf_addch(sb, ',');
		csv_str(sb, fw_json_str(r, "mode", ""));
		strbuf_addch(sb, ',');
		csv_str(sb, fw_json_str(r, "verdict", ""));
		strbuf_addstr(sb, cJSON_IsTrue(obj_of(r, "decided")) ? ",1" : ",0");
		for (size_t i = 1; i < sizeof(seq_cols) / sizeof(*seq_cols); i++) {
			strbuf_addch(sb, ',');
			if (!strcmp(seq_cols[i], "same_kernel_cv_pct"))
				csv_num(sb, fw_json_num(obj_of(r, "same_kernel"), "cv_pct", NAN));
			else
				csv_num(sb, fw_json_num(r, seq_cols[i], NAN));
		}
		strbuf_addch(sb, ',');
		csv_str(sb, fw_json_str(r, "mode_source", ""));
		cJSON_ArrayForEach(c, obj_of(r, "counters"))
		{
			strbuf_addf(&ct, "%s%s ", ct.len ? "; " : "", fw_json_str(c, "name", ""));
			fw_num_exact(&ct, fw_json_num(c, "a", NAN));
			strbuf_addstr(&ct, "->");
			fw_num_exact(&ct, fw_json_num(c, "b", NAN));
		}
		strbuf_addch(sb, ',');
		csv_str(sb, ct.buf);
		strbuf_addch(sb, ',');
		csv_attribution(sb, r);
		strbuf_addch(sb, '\n');
		strbuf_release(&ct);
	}
}

void fw_report_write(const cJSON *series_json, enum fw_report_format f, struct strbuf *out)
{
	char *text;

	switch (f) {
	case FW_REPORT_TEXT:
		write_text(series_json, out);
		break;
	case FW_REPORT_CSV:
		write_csv(series_json, out);
		break;
	case FW_REPORT_JSON:
		text = cJSON_Print(series_json);
		if (text)
			strbuf_addf(out, "%s\n", text);
		cJSON_free(text);
		break;
	}
}
