/*
 * What moved (issue 56): `report`'s default text, short enough to paste. The
 * seeds' cover letters paste two or three rows, not a table of every metric:
 * how it was measured in a line or two; per patch against its parent only
 * the rows decided better or worse, in their shape (Before, After, change,
 * the spread), with the kernel functions behind them; one line for the
 * unsure rows and what they need, one for the tables that did not move; then
 * the whole series against its base. Every line at most 72 columns. The
 * table of every row is fw_report_cover (report --all).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "analysis-internal.h"
#include "analysis-json.h"
#include "utf8.h"

/* "  metric  unit  Before  After  change  spread verdict": 2+19+8+10+10+9+8+6 = 72 columns at most. */
static void moved_head(struct strbuf *sb, const struct fw_an_row *r, int show_host)
{
	struct strbuf t = STRBUF_INIT;

	strbuf_addf(&t, "%s/%s", r->workload, r->variant);
	if (show_host)
		strbuf_addf(&t, " (%s %s)", r->host, r->accel);
	strbuf_addstr(sb, "  ");
	fw_cover_cell(sb, t.buf, 26, 0);
	fw_cover_cell(sb, "Before", 9, 1);
	fw_cover_cell(sb, "After", 9, 1);
	fw_cover_cell(sb, "change", 8, 1);
	fw_cover_cell(sb, "spread", 7, 1);
	strbuf_setlen(sb, sb->len - 1);  /* the cell's trailing space */
	strbuf_addstr(sb, "\n");
	strbuf_release(&t);
}

static void moved_row(struct strbuf *sb, const struct fw_an_row *r)
{
	struct strbuf t = STRBUF_INIT;

	fw_cover_row_values(sb, r, 18, 7, 9);
	/* the pooled spread of the units compared, in % of Before (LKP's %stddev) */
	if (isnan(r->noise_pct))
		strbuf_addstr(&t, "-");
	else
		strbuf_addf(&t, r->noise_pct < 9.995 ? "+-%.2f%%" : r->noise_pct < 99.95 ? "+-%.1f%%" : "+-%.0f%%",
			    r->noise_pct);
	fw_cover_cell(sb, t.buf, 7, 1);
	strbuf_addf(sb, "%s\n", fw_verdict_short(r->verdict));
	strbuf_release(&t);
}

/* What one comparison's rows that did not move add up to. */
struct quiet {
	struct strbuf unsure, same;
	int unsure_lo, unsure_hi, undecidable;
	double floor_lo, floor_hi;
};

/* "filemap/4k (2 metrics)" or ", filemap/thp (2)" onto list. */
static void name_table(struct strbuf *list, const struct fw_an_row *r, int n)
{
	strbuf_addf(list, "%s%s/%s (%d%s)", list->len ? ", " : "", r->workload, r->variant, n,
		    list->len ? "" : n == 1 ? " metric" : " metrics");
}

static void quiet_add(struct quiet *q, const struct fw_an_row *t, const struct fw_an_row *to)
{
	int nsame = 0, nunsure = 0;

	for (const struct fw_an_row *r = t; r != to; r++) {
		if (r->v == FW_UNSURE) {
			double need = fw_an_whole(r->boots_needed);
			nunsure++;
			if (isnan(need)) {
				q->undecidable++;
				continue;
			}
			q->unsure_lo = !q->unsure_lo || need < q->unsure_lo ? (int)need : q->unsure_lo;
			q->unsure_hi = need > q->unsure_hi ? (int)need : q->unsure_hi;
		} else if (r->v == FW_NO_CHANGE) {
			nsame++;
			if (strcmp(r->mode, "rank") && r->has_floor && !isnan(r->floor_pct)) {
				q->floor_lo = isnan(q->floor_lo) || r->floor_pct < q->floor_lo ? r->floor_pct : q->floor_lo;
				q->floor_hi = isnan(q->floor_hi) || r->floor_pct > q->floor_hi ? r->floor_pct : q->floor_hi;
			}
		}
	}
	if (nunsure)
		name_table(&q->unsure, t, nunsure);
	if (nsame)
		name_table(&q->same, t, nsame);
}

static void quiet_say(struct strbuf *sb, struct quiet *q)
{
	struct strbuf t = STRBUF_INIT;

	if (q->unsure.len) {
		strbuf_addstr(&t, "unsure");
		if (q->unsure_hi)
			strbuf_addf(&t, q->unsure_lo == q->unsure_hi ? ", needs %d boots" : ", needs %d-%d boots",
				    q->unsure_lo, q->unsure_hi);
		if (q->undecidable)
			strbuf_addf(&t, "%s%d no number of boots decides", q->unsure_hi ? "; " : ": ", q->undecidable);
		strbuf_addf(&t, ": %s", q->unsure.buf);
		fw_report_wrap(sb, t.buf, 2, 4);
	}
	if (q->same.len) {
		strbuf_reset(&t);
		strbuf_addf(&t, "no change: %s", q->same.buf);
		if (!isnan(q->floor_lo))
			strbuf_addf(&t, q->floor_hi - q->floor_lo < 0.005 ? "; floor %.2f%%" : "; floors %.2f-%.2f%%",
				    q->floor_lo, q->floor_hi);
		fw_report_wrap(sb, t.buf, 2, 4);
	}
	strbuf_release(&t);
}

/*
 * One comparison (a commit against its parent or the base) from row i: what
 * moved, with the kernel functions behind it for a patch (the whole series'
 * are its patches'). The next row's index.
 */
static size_t moved_tables(struct strbuf *sb, const struct fw_an *an, size_t i, int show_host, int patch)
{
	const struct fw_an_row *start = &an->rows[i];
	struct quiet q = { STRBUF_INIT, STRBUF_INIT, 0, 0, 0, NAN, NAN };

	while (i < an->nrows && fw_cover_same_comparison(&an->rows[i], start)) {
		size_t t = i, moved = 0;

		for (; i < an->nrows && fw_cover_same_comparison(&an->rows[i], start) &&
		       fw_cover_same_table(&an->rows[i], &an->rows[t]); i++)
			moved += fw_cover_flagged(&an->rows[i]);
		quiet_add(&q, &an->rows[t], an->rows + i);
		if (!moved)
			continue;
		moved_head(sb, &an->rows[t], show_host);
		for (size_t k = t; k < i; k++)
			if (fw_cover_flagged(&an->rows[k]))
				moved_row(sb, &an->rows[k]);
		if (patch)
			fw_cover_why(sb, &an->rows[t], an->rows + i);
	}
	quiet_say(sb, &q);
	strbuf_release(&q.unsure);
	strbuf_release(&q.same);
	return i;
}

/* One line (wrapped) for each environment: kernel, accelerator, machine, boots. */
static void moved_measured(struct strbuf *sb, const cJSON *facts, int lo, int hi)
{
	const cJSON *e;
	struct strbuf t = STRBUF_INIT;

	cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(facts, "envs")) {
		double vcpus = fw_json_num(e, "vcpus", 0);

		strbuf_reset(&t);
		strbuf_addf(&t, "Measured on kernel %s under QEMU %s, %.0f vCPU%s, %.0f MiB, host %s; profile %s, "
			    "%.0f boots in all", fw_json_str(e, "kernel_version", ""), fw_json_str(e, "accel", ""), vcpus,
			    vcpus == 1 ? "" : "s", fw_json_num(e, "memory_mib", 0), fw_json_str(e, "host", ""),
			    fw_json_str(e, "profile", ""), fw_json_num(e, "boots", 0));
		if (lo > 0)
			strbuf_addf(&t, lo == hi ? ", %d a side" : ", %d-%d a side", lo, hi);
		strbuf_addch(&t, '.');
		fw_report_wrap(sb, t.buf, 0, 2);
	}
	strbuf_release(&t);
}

void fw_report_moved(const struct fw_an *s, const cJSON *facts, struct strbuf *sb)
{
	int lo = 0, hi = 0, show_host = fw_cover_scan(s, &lo, &hi);

	fw_cover_title(sb, s);
	moved_measured(sb, facts, lo, hi);
	/* one patch: the whole series is that patch again */
	fw_cover_body(sb, s, show_host, 2, moved_tables);
	strbuf_addstr(sb, "\nEvery row: report --all; p, q, intervals, counters: --verbose.\n");
}
