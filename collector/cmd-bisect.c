/*
 * foliowatch-collect bisect --series S --metric W/V/M --good SHA --bad SHA [--tree DIR] [run options]
 *
 * Finds the commit where a metric moved between two measured commits of a
 * series (issue 30). The range's commits in first-parent order are the
 * points; each step measures a midpoint with `run --only` at its own position
 * (so it joins the series like any measured commit), and the analysis decides
 * it against the measured commits either side with the same rules as every
 * comparison. bisect-step.c says what to measure next.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>
#include "analysis.h"
#include "bisect.h"
#include "bisect-record.h"
#include "bisect-db.h"
#include "bisect-step.h"
#include "budget.h"
#include "cache.h"
#include "commands.h"
#include "fw-db.h"
#include "kernel-build.h"
#include "run-doc.h"
#include "run-passthrough.h"
#include "runcmd.h"
#include "sha256.h"
#include "strbuf.h"
#include "xalloc.h"

struct commit_point {
	char sha[41];
	char *subject;
};

struct bisect {
	const char *series, *metric, *want, *db_path;
	struct strbuf tree;
	struct commit_point *c;    /* points 0..n-1: good, the range's first-parent commits up to bad */
	struct fw_bisect_point *p;
	int n, alloc, good_position;
	char **run_argv;           /* "run" and the passed-on options (nrun), room for 22 more */
	int nrun, steps;
	struct fw_bisect_record_log log;
	struct fw_budget bud;      /* --bisect-budget; neither seconds nor boots: none */
	int profile_steps;         /* the user asked for --profile-boots N: every step profiles as asked */
	int profile_culprit;       /* profile the culprit and its parent at the end (unless --no-profile) */
	const char *budget_text;
	char step_budget[64];      /* "--budget=...": what is left, for the next step's run; "" none */
	double floor_alpha;        /* each step's share of the floors' alpha (fw_bisect_step_floor_alpha) */
	char floor_opt[48];        /* "--floor-alpha=...": the same, for each step's run */
};

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int rev_parse(const char *tree, const char *rev, char sha[41])
{
	struct strbuf out = STRBUF_INIT, r = STRBUF_INIT;
	const char *argv[] = { "git", "rev-parse", "--verify", "-q", "--end-of-options", NULL, NULL };
	int ret;

	strbuf_addf(&r, "%s^{commit}", rev);
	argv[5] = r.buf;
	ret = runcmd_capture(argv, tree, &out) || out.len < 40 ? -1 : 0;
	if (!ret)
		snprintf(sha, 41, "%.40s", out.buf);
	strbuf_release(&out);
	strbuf_release(&r);
	return ret;
}

static void add_point(struct bisect *b, const char *sha, size_t len, const char *subject, int merge)
{
	FW_ALLOC_GROW(b->c, b->n + 1, b->alloc);
	b->p = xreallocarray(b->p, (size_t)b->alloc, sizeof(*b->p));
	snprintf(b->c[b->n].sha, sizeof(b->c[b->n].sha), "%.*s", (int)len, sha);
	b->c[b->n].subject = xstrdup(subject);
	b->p[b->n] = (struct fw_bisect_point){ FW_BP_UNMEASURED, FW_BV_NONE, merge };
	b->n++;
}

/*
 * good, then good..bad in first-parent order, one line per commit: "SHA
 * PARENTS<TAB>SUBJECT" (an empty subject is an empty field, never a missing
 * line). The first commit's first parent must be good: with --first-parent
 * any bad lists, but only a descendant of good on that line is a range.
 */
static int list_points(struct bisect *b, const char *good, const char *bad, struct strbuf *err)
{
	struct strbuf range = STRBUF_INIT, out = STRBUF_INIT;
	const char *argv[] = { "git", "log", "--reverse", "--first-parent", "--no-show-signature", "--format=%H %P%x09%s",
			       "--end-of-options", NULL, "--", NULL };
	int ret = -1, descends = 0;

	strbuf_addf(&range, "%s..%s", good, bad);
	argv[7] = range.buf;
	if (runcmd_capture(argv, b->tree.buf, &out)) {
		strbuf_addf(err, "cannot list %s in %s", range.buf, b->tree.buf);
		goto cleanup;
	}
	add_point(b, good, 40, "(good)", 0);
	for (char *line = out.buf, *next; line && *line; line = next) {
		char *tab = strchr(line, '\t'), *sp = strchr(line, ' ');
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (!tab || !sp || sp > tab || sp - line != 40)
			break;
		*tab = '\0';
		if (b->n == 1)
			descends = !strncmp(sp + 1, good, 40);
		/* "SHA PARENT PARENT2": a second parent makes a merge */
		add_point(b, line, 40, tab + 1, strchr(sp + 1, ' ') != NULL);
	}
	if (b->n < 2 || !descends || strcmp(b->c[b->n - 1].sha, bad)) {
		strbuf_addf(err, "%.12s is not a first-parent descendant of %.12s in %s", bad, good, b->tree.buf);
		goto cleanup;
	}
	ret = 0;
cleanup:
	strbuf_release(&range);
	strbuf_release(&out);
	return ret;
}

static int resolve_range(struct bisect *b, const char *good, const char *bad)
{
	struct strbuf err = STRBUF_INIT;
	char g[41], h[41];
	int bad_good = rev_parse(b->tree.buf, good, g), bad_bad = !bad_good && rev_parse(b->tree.buf, bad, h);

	if (bad_good || bad_bad)
		strbuf_addf(&err, "%s is not a commit of %s", bad_good ? good : bad, b->tree.buf);
	else
		list_points(b, g, h, &err);
	if (err.len)
		fprintf(stderr, "bisect: %s\n", err.buf);
	strbuf_release(&err);
	return bad_good || bad_bad || err.len ? -1 : 0;
}

/*
 * The series' analysis now (from the database the runs write), its floors at
 * the step's share of their alpha: not cached, the pages' cached analysis
 * (at the whole alpha) stays theirs.
 */
static struct fw_an *analyse(const struct bisect *b, struct strbuf *err)
{
	struct fw_analysis_opts ao;
	sqlite3 *db = fw_db_open(b->db_path, err);
	struct fw_an *a = NULL;

	if (!db)
		return NULL;
	fw_analysis_opts_init(&ao);
	ao.floor_alpha = b->floor_alpha;
	ao.use_cache = 0;
	if (fw_analysis_series(db, b->series, 0, &ao, &a, err))
		a = NULL;
	fw_db_close(db);
	return a;
}


/* Positions must be first-parent order (watch, run --range): bad sits n-1 after good. */
static int check_positions(struct bisect *b, const struct fw_an *a, struct strbuf *err)
{
	int pb = fw_bisect_position_of(a, b->c[b->n - 1].sha);

	b->good_position = fw_bisect_position_of(a, b->c[0].sha);
	if (b->good_position < 0 || pb < 0) {
		strbuf_addf(err, "%s %.12s is not a measured commit of series %s", b->good_position < 0 ? "good" : "bad",
			    b->good_position < 0 ? b->c[0].sha : b->c[b->n - 1].sha, b->series);
		return -1;
	}
	if (pb - b->good_position != b->n - 1) {
		strbuf_addf(err,
			    "series %s has good at position %d and bad at %d, but %d first-parent commits lie between "
			    "them: its positions are not the branch's order (measure with watch or run --range)",
			    b->series, b->good_position, pb, b->n - 1);
		return -1;
	}
	return 0;
}

/* The delta of the metric's row of point i against its parent, or NAN. */
static double delta_of(const struct fw_an *a, const struct bisect *b, int i)
{
	for (size_t k = 0; k < a->nrows; k++) {
		const struct fw_an_row *row = &a->rows[k];
		double d = row->delta_pct;

		if (!strcmp(row->sha, b->c[i].sha) && fw_bisect_row_is(row, b->metric))
			return fabs(d) < 0.0005 ? 0 : d; /* printed to 0.001: no "-0.000%" */
	}
	return NAN;
}

/*
 * A point its run left without a row: skipped when it did not build or boot
 * (git bisect's "skip"), else the bisect cannot go on (the budget ran out,
 * the run failed: -1 with err).
 */
static int not_measured(struct bisect *b, int i, struct strbuf *err)
{
	sqlite3 *db = fw_db_open(b->db_path, err);
	int failed = db ? fw_bisect_db_commit_failed(db, b->series, b->c[i].sha) : -1;

	fw_db_close(db);
	if (failed == 1) {
		b->p[i].state = FW_BP_SKIPPED;
		return 0;
	}
	if (!err->len)
		strbuf_addf(err, "%.12s was not measured: %s", b->c[i].sha,
			    failed < 0 ? "the database cannot be read"
				       : "its run measured nothing (the budget is spent, or see the run's errors above)");
	return -1;
}

/* Commits of the range whose stored runs failed to build or boot are skipped without trying them again. */
static void skip_failed(struct bisect *b)
{
	struct strbuf err = STRBUF_INIT;
	sqlite3 *db = fw_db_open(b->db_path, &err);

	for (int i = 1; db && i < b->n - 1; i++)
		if (b->p[i].state == FW_BP_UNMEASURED && fw_bisect_db_commit_failed(db, b->series, b->c[i].sha) == 1)
			b->p[i].state = FW_BP_SKIPPED;
	fw_db_close(db);
	strbuf_release(&err);
}

/* Boots of the series in the database (what a step and the whole bisect cost). */
static long long boots_stored(const struct bisect *b)
{
	struct strbuf err = STRBUF_INIT;
	sqlite3 *db = fw_db_open(b->db_path, &err);
	long long n = db ? fw_bisect_db_boots(db, b->series) : -1;

	fw_db_close(db);
	strbuf_release(&err);
	return n;
}

/*
 * Measures point i with run: the range good..bad, only i and the measured
 * points either side (so that run's added boots reach both comparisons),
 * the metric's workload only, at i's own position.
 */
static void measure_point(struct bisect *b, int i, int profile)
{
	static char o_series[] = "--series", o_tree[] = "--tree", o_range[] = "--range", o_only[] = "--only",
		    o_first[] = "--first-position", o_workloads[] = "--workloads", o_db[] = "--db",
		    o_no_report[] = "--no-report", o_no_profile[] = "--no-profile", o_decide[] = "--decide-metric",
		    none[] = "";
	struct strbuf range = STRBUF_INIT, only = STRBUF_INIT, first = STRBUF_INIT, workload = STRBUF_INIT,
		      series = STRBUF_INIT, db = STRBUF_INIT, metric = STRBUF_INIT;
	int lo = i - 1, hi = i + 1, k = b->nrun;

	while (lo > 0 && b->p[lo].state != FW_BP_MEASURED)
		lo--;
	while (hi < b->n - 1 && b->p[hi].state != FW_BP_MEASURED)
		hi++;
	strbuf_addf(&range, "%s..%s", b->c[0].sha, b->c[b->n - 1].sha);
	if (lo > 0)
		strbuf_addf(&only, "%s,", b->c[lo].sha);
	strbuf_addf(&only, "%s,%s", b->c[i].sha, b->c[hi].sha);
	strbuf_addf(&first, "%d", b->good_position);
	strbuf_add(&workload, b->metric, strcspn(b->metric, "/"));
	strbuf_addstr(&metric, b->metric); /* the step's looks buy boots for its metric only */
	strbuf_addstr(&series, b->series); /* run parses a char ** argv: writable copies */
	strbuf_addstr(&db, b->db_path);
	char *add[] = { o_series, series.buf, o_tree, b->tree.buf, o_range, range.buf, o_only, only.buf,
			o_first, first.buf, o_workloads, workload.buf, o_decide, metric.buf, o_db, db.buf, o_no_report,
			b->floor_opt, b->step_budget,
			profile ? none : o_no_profile };
	for (size_t j = 0; j < sizeof(add) / sizeof(add[0]); j++)
		if (*add[j])
			b->run_argv[k++] = add[j];
	b->run_argv[k] = NULL;
	fflush(stdout);
	cmd_run(k, b->run_argv); /* what it measured is in the database; a failure shows as a point without rows */
	b->run_argv[b->nrun] = NULL;
	strbuf_release(&range);
	strbuf_release(&only);
	strbuf_release(&first);
	strbuf_release(&workload);
	strbuf_release(&metric);
	strbuf_release(&series);
	strbuf_release(&db);
}

static const char *step_verdict(const struct fw_bisect_point *p)
{
	static const char *const names[] = { "no comparison", "moved", "no move", "undecided" };

	return p->state == FW_BP_SKIPPED ? "skipped" : names[p->verdict];
}

static void print_step(const struct bisect *b, const struct fw_an *a, int i, long long boots)
{
	int next = i + 1;

	if (b->p[i].state == FW_BP_SKIPPED) {
		printf("bisect: step %d: %.12s did not build or boot: skipped\n", b->steps, b->c[i].sha);
		return;
	}
	while (next < b->n - 1 && b->p[next].state != FW_BP_MEASURED)
		next++;
	printf("bisect: step %d: %.12s %s (position %d): %s %+.3f%% against the previous measured commit, "
	       "%.12s %s %+.3f%% against it; %lld boot(s)\n",
	       b->steps, b->c[i].sha, b->c[i].subject, b->good_position + i, step_verdict(&b->p[i]), delta_of(a, b, i),
	       b->c[next].sha, step_verdict(&b->p[next]), delta_of(a, b, next), boots);
}

static void print_found(const struct bisect *b, const struct fw_an *a, const struct fw_bisect_next *nx)
{
	if (nx->nfound > 1)
		printf("bisect: the change is spread over %d steps\n", nx->nfound);
	for (int f = 0; f < nx->nfound; f++) {
		const struct fw_bisect_found *s = &nx->found[f];
		if (s->culprit < 0) {
			printf("bisect: narrowest range: %.12s..%.12s (%d commits; those between did not build or boot)\n",
			       b->c[s->lo].sha, b->c[s->hi].sha, s->hi - s->lo);
			continue;
		}
		printf("bisect: culprit: %s %s (position %d): %s %+.3f%% against its parent%s%.12s%s%.12s%s\n",
		       b->c[s->culprit].sha, b->c[s->culprit].subject, b->good_position + s->culprit, b->metric,
		       delta_of(a, b, s->culprit), b->p[s->culprit].merge ? " (a merge: its first-parent range " : "",
		       b->p[s->culprit].merge ? b->c[s->culprit - 1].sha : "", b->p[s->culprit].merge ? ".." : "",
		       b->p[s->culprit].merge ? b->c[s->culprit].sha : "", b->p[s->culprit].merge ? ")" : "");
	}
	if (nx->unsure_lo >= 0)
		printf("bisect: also undecided: %.12s..%.12s\n", b->c[nx->unsure_lo].sha, b->c[nx->unsure_hi].sha);
}

/* Every metric the culprit moved (rows against its parent decided b->want): its stored regressions at bad move. */
static void move_explained(const struct bisect *b, const struct fw_an *a, int culprit)
{
	for (size_t k = 0; k < a->nrows; k++) {
		const struct fw_an_row *row = &a->rows[k];

		if (!strcmp(row->sha, b->c[culprit].sha) && row->against == FW_AGAINST_PARENT &&
		    !strcmp(row->verdict, b->want) && row->decided)
			fw_bisect_record_move(&b->log, row->workload, row->variant, row->metric);
	}
}

/* The record's answer: one culprit, the narrowest range, several steps, or why it gave up. */
static void end_record(struct bisect *b, const struct fw_an *a, const struct fw_bisect_next *nx, long long boots,
		       double seconds)
{
	struct strbuf why = STRBUF_INIT;
	const struct fw_bisect_found *f = &nx->found[0];

	if (nx->action != FW_BISECT_DONE)
		fw_bisect_record_end(&b->log, "gave up", NULL, NULL, NULL, nx->why, boots, seconds);
	else if (nx->nfound == 1)
		fw_bisect_record_end(&b->log, "done", f->culprit >= 0 ? b->c[f->culprit].sha : NULL,
				     f->culprit >= 0 ? NULL : b->c[f->lo].sha, f->culprit >= 0 ? NULL : b->c[f->hi].sha,
				     NULL, boots, seconds);
	if (nx->action == FW_BISECT_DONE && nx->nfound == 1 && f->culprit >= 0)
		move_explained(b, a, f->culprit);
	else if (nx->action == FW_BISECT_DONE && nx->nfound > 1) {
		strbuf_addf(&why, "the change is spread over %d steps:", nx->nfound);
		for (int i = 0; i < nx->nfound; i++)
			strbuf_addf(&why, " %.12s..%.12s", b->c[nx->found[i].lo].sha, b->c[nx->found[i].hi].sha);
		fw_bisect_record_end(&b->log, "done", NULL, NULL, NULL, why.buf, boots, seconds);
	}
	strbuf_release(&why);
}

/*
 * --bisect-budget: may another step start, judged by the mean step so far?
 * Sets what is left as the next step's run budget. 0: spent (why says so).
 */
static int budget_left(struct bisect *b, double elapsed, long long spent, char *why, size_t n)
{
	double step_s = b->steps ? elapsed / b->steps : 0, step_boots = b->steps ? (double)spent / b->steps : 1;

	b->step_budget[0] = '\0';
	if (b->bud.seconds > 0 && elapsed + step_s <= b->bud.seconds)
		snprintf(b->step_budget, sizeof(b->step_budget), "--budget=%.0fs", b->bud.seconds - elapsed);
	else if (b->bud.boots > 0 && (double)spent + step_boots <= b->bud.boots)
		snprintf(b->step_budget, sizeof(b->step_budget), "--budget=%lldboots", b->bud.boots - spent);
	else if (b->bud.seconds > 0 || b->bud.boots > 0) {
		snprintf(why, n, "--bisect-budget %s is spent (%d step(s), %lld boot(s), %.0f s) before the change is "
			 "narrowed", b->budget_text, b->steps, spent, elapsed);
		return 0;
	}
	return 1;
}

/*
 * The steps until a culprit, a narrowest range or a reason to give up: 0
 * found, 1 gave up (recorded), 2 could not start (see fw_bisect).
 */
static int bisect_loop(struct bisect *b, int max_steps)
{
	struct strbuf err = STRBUF_INIT;
	struct fw_bisect_next nx;
	const char **shas = xcalloc((size_t)b->n, sizeof(*shas));
	double t0 = now_s();
	long long runs0 = boots_stored(b);
	struct fw_an *a = analyse(b, &err);
	int ret = 1, limited = 0;  /* limited: --max-steps or --bisect-budget stopped it */

	for (int i = 0; i < b->n; i++)
		shas[i] = b->c[i].sha;
	if (!a || check_positions(b, a, &err))
		goto fail;
	fw_bisect_points_from(a, shas, b->n, b->metric, b->want, b->p);
	skip_failed(b);
	if (b->p[0].state != FW_BP_MEASURED) {
		strbuf_addf(&err, "good %.12s has no measurement of %s in series %s (not measured for that workload, or "
			    "its build or boot failed): measure it first (run --only)", b->c[0].sha, b->metric, b->series);
		goto fail;
	}
	if (b->p[b->n - 1].state != FW_BP_MEASURED) {
		strbuf_addf(&err, "bad %.12s has no measurement of %s in series %s (not measured, or its build or boot "
			    "failed)", b->c[b->n - 1].sha, b->metric, b->series);
		goto fail;
	}
	fw_bisect_record_begin(&b->log, b->db_path, b->series, b->metric, b->want, b->c[0].sha, b->c[b->n - 1].sha);
	for (;;) { /* the points are filled from the newest analysis: before the loop, then after each step */
		fw_bisect_next(b->p, b->n, &nx);
		if (nx.action != FW_BISECT_MEASURE)
			break;
		if (b->steps >= max_steps) {
			snprintf(nx.why, sizeof(nx.why), "%d steps taken (--max-steps) and the change is not narrowed",
				 b->steps);
			nx.action = FW_BISECT_GAVE_UP;
			limited = 1;
			break;
		}
		if (!budget_left(b, now_s() - t0, boots_stored(b) - runs0, nx.why, sizeof(nx.why))) {
			nx.action = FW_BISECT_GAVE_UP;
			limited = 1;
			break;
		}
		long long before = boots_stored(b);
		b->steps++;
		printf("bisect: step %d: measuring %.12s %s (position %d, %d of %d commits)\n", b->steps,
		       b->c[nx.measure].sha, b->c[nx.measure].subject, b->good_position + nx.measure, nx.measure,
		       b->n - 1);
		measure_point(b, nx.measure, b->profile_steps);
		fw_an_free(a);
		if (!(a = analyse(b, &err)))
			goto fail;
		fw_bisect_points_from(a, shas, b->n, b->metric, b->want, b->p);
		if (b->p[nx.measure].state != FW_BP_MEASURED && not_measured(b, nx.measure, &err))
			goto fail;
		long long after = boots_stored(b);
		print_step(b, a, nx.measure, after - before);
		fw_bisect_record_step(&b->log, b->c[nx.measure].sha, b->good_position + nx.measure, after - before,
				      step_verdict(&b->p[nx.measure]), after - runs0, now_s() - t0);
	}
	if (nx.action == FW_BISECT_GAVE_UP && nx.unsure_lo >= 0 && !nx.nfound && !limited)
		snprintf(nx.why, sizeof(nx.why), "the step from %.12s to %.12s is undecided within the boots spent, and no "
			 "other step moved", b->c[nx.unsure_lo].sha, b->c[nx.unsure_hi].sha);
	if (nx.action == FW_BISECT_DONE) {
		print_found(b, a, &nx);
		if (nx.nfound == 1 && nx.found[0].culprit >= 0 && b->profile_culprit) {
			/* the mail's "functions whose cost moved": one profile-only boot of each side */
			printf("bisect: profiling the culprit and the commit before it\n");
			measure_point(b, nx.found[0].culprit, 1);
		}
		ret = 0;
	} else
		printf("bisect: gave up: %s\n", nx.why);
	long long spent = boots_stored(b) - runs0;
	end_record(b, a, &nx, spent, now_s() - t0);
	printf("bisect: %d step(s), %lld boot(s), %.0f s\n", b->steps, spent, now_s() - t0);
	goto cleanup;
fail:
	fprintf(stderr, "bisect: %s\n", err.buf);
	ret = b->log.steps ? 1 : 2; /* begun: an answer (it gave up), else it never started */
	if (b->log.steps) /* the record says why it stopped */
		fw_bisect_record_end(&b->log, "gave up", NULL, NULL, NULL, err.buf, boots_stored(b) - runs0, now_s() - t0);
cleanup:
	fw_an_free(a);
	free(shas);
	strbuf_release(&err);
	return ret;
}

const char *const fw_bisect_decided[] = { "series", "tree", "range", "only", "mbox", "base", "first-position", "watched",
					  "workloads", "db", "post", "token-file", "no-report", "decide-metric",
					  "floor-alpha", NULL };

/*
 * One bisect at a time per series and range (watch from a timer and one by
 * hand would measure the same midpoints twice): a lock file per range in
 * <cache>/bisect, held until the bisect ends. The fd, or -1 (said).
 */
static int lock_range(const struct bisect *b)
{
	struct strbuf key = STRBUF_INIT, path = STRBUF_INIT;
	char hash[65];
	int fd = -1;

	strbuf_addf(&key, "%s\n%s\n%s", b->series, b->c[0].sha, b->c[b->n - 1].sha);
	sha256_hex(key.buf, key.len, hash);
	fw_kcache_root(&path);
	strbuf_addstr(&path, "/bisect");
	if (fw_mkdirs(path.buf) == 0) {
		strbuf_addf(&path, "/%.16s.lock", hash);
		fd = open(path.buf, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	}
	if (fd < 0)
		fprintf(stderr, "bisect: cannot create %s: %s\n", path.buf, strerror(errno));
	else if (flock(fd, LOCK_EX | LOCK_NB)) {
		fprintf(stderr, "bisect: another bisect of %s %.12s..%.12s is running (it holds %s)\n", b->series,
			b->c[0].sha, b->c[b->n - 1].sha, path.buf);
		close(fd);
		fd = -1;
	}
	strbuf_release(&key);
	strbuf_release(&path);
	return fd;
}

int fw_bisect(const struct fw_bisect_args *a)
{
	struct bisect b = { .series = a->series, .metric = a->metric, .want = a->improvement ? "improvement" : "regression",
			    .db_path = a->db_path ? a->db_path : FW_DB_DEFAULT, .tree = STRBUF_INIT };
	static char o_run[] = "run";
	int ret = 2, max_steps = a->max_steps, lock = -1;
	struct fw_analysis_opts defaults;

	b.run_argv = xcalloc((size_t)a->nrun + 24, sizeof(*b.run_argv)); /* "run", then measure_point adds up to 20 and NULL */
	b.budget_text = a->budget;
	if (a->budget) {
		char why[200];
		if (fw_budget_parse(a->budget, &b.bud, why, sizeof(why)) || b.bud.none) {
			fprintf(stderr, "bisect: --bisect-budget: %s\n", b.bud.none ? "none is not a budget" : why);
			goto cleanup;
		}
	}
	b.run_argv[b.nrun++] = o_run;
	b.profile_culprit = 1;
	for (int i = 0; i < a->nrun; i++) {
		b.run_argv[b.nrun++] = a->run_opts[i];
		/* steps profile nothing (a midpoint that moved is not the answer yet): the culprit is profiled at the end */
		if (!strcmp(a->run_opts[i], "--no-profile"))
			b.profile_culprit = 0;
		if (!strncmp(a->run_opts[i], "--profile-boots=", 16) && strcmp(a->run_opts[i], "--profile-boots=0"))
			b.profile_steps = 1, b.profile_culprit = 0;
	}
	if (a->tree) {
		strbuf_addstr(&b.tree, a->tree);
	} else {
		struct strbuf cache = STRBUF_INIT, err = STRBUF_INIT;
		fw_kcache_root(&cache);
		if (fw_kernel_tree_default(cache.buf, NULL, &b.tree, &err))
			fprintf(stderr, "bisect: %s\n", err.buf);
		strbuf_release(&cache);
		strbuf_release(&err);
		if (!b.tree.len)
			goto cleanup;
	}
	if (resolve_range(&b, a->good, a->bad) || (lock = lock_range(&b)) < 0)
		goto cleanup;
	if (!max_steps)
		max_steps = (int)ceil(log2((double)b.n - 1)) + 4;
	fw_analysis_opts_init(&defaults);
	b.floor_alpha = fw_bisect_step_floor_alpha(defaults.floor_alpha, b.n - 1);
	snprintf(b.floor_opt, sizeof(b.floor_opt), "--floor-alpha=%.17g", b.floor_alpha);
	printf("bisect: %s: %s between %.12s and %.12s, %d first-parent commit(s)\n", b.series, b.metric, b.c[0].sha,
	       b.c[b.n - 1].sha, b.n - 1);
	printf("bisect: the floors' alpha %g over %d planned steps: %.3g a step\n", defaults.floor_alpha,
	       fw_bisect_planned_steps(b.n - 1), b.floor_alpha);
	ret = bisect_loop(&b, max_steps);
cleanup:
	if (lock >= 0)
		close(lock); /* releases the range */
	for (int i = 0; i < b.n; i++)
		free(b.c[i].subject);
	free(b.c);
	free(b.p);
	free(b.run_argv);
	strbuf_release(&b.tree);
	return ret;
}

int cmd_bisect(int argc, char **argv)
{
	static const struct fw_option own[] = {
		{ "series", 0, required_argument, 'S', "NAME", "required", "the series good and bad were measured in" },
		{ "metric", 0, required_argument, 'm', "W/V/M", "required",
		  "the metric that moved: workload/variant/metric (a row's id)" },
		{ "good", 0, required_argument, 'g', "REV", "required", "the measured commit before the change" },
		{ "bad", 0, required_argument, 'b', "REV", "required", "the measured commit after it" },
		{ "improvement", 0, no_argument, 'I', NULL, "off", "look for an improvement (default: a regression)" },
		{ "tree", 0, required_argument, 't', "DIR", "linux-source-6.12 in the cache", "the git tree" },
		{ "db", 0, required_argument, 'd', "FILE", FW_DB_DEFAULT, "the series' database (read and written)" },
		{ "max-steps", 0, required_argument, 'k', "N", "ceil(log2(commits)) + 4",
		  "give up after N midpoints (skips count)" },
		{ "bisect-budget", 0, required_argument, 'u', "TIME|Nboots", "none",
		  "what the whole bisect may spend (30m, 2h, 40boots): a step starts\n"
		  "only if the mean step so far fits, and its run gets what is left" },
	};
	struct fw_option opts[sizeof(own) / sizeof(own[0]) + 64];
	struct fw_usage usage = { "foliowatch-collect", "bisect",
		"--series NAME --metric W/V/M --good REV --bad REV [--tree DIR] [--db FILE] [run options]",
		"Finds the commit where a metric moved between two measured commits of a\n"
		"series: measures midpoints of the range's first-parent commits (run --only,\n"
		"at their own positions: they join the series), decides each against the\n"
		"measured commits either side with the analysis' rules, and names the\n"
		"culprit, or the narrowest range when commits do not build or boot, or why it\n"
		"gave up (an undecided step, no single step moved). Positions must be the\n"
		"branch's first-parent order, as watch and run --range make them.\n"
		"Exit: 0 culprit or range found, 1 gave up or error, 2 usage error.",
		opts, "--tree ~/linux --series mm --metric split/pmd-to-0/split_ms --good 1a2b3c4 --bad 5d6e7f8 "
		"--accel icount" };
	struct fw_getopt g = FW_GETOPT_INIT(&usage);
	struct fw_bisect_args a = { 0 };
	char **owned = xcalloc((size_t)argc + 1, sizeof(*owned));
	int ret = 2, opt;

	fw_run_passthrough_table(opts, sizeof(opts) / sizeof(opts[0]), "Bisect options:", own,
				 sizeof(own) / sizeof(own[0]), fw_bisect_decided);
	a.run_opts = owned;
	while ((opt = fw_getopt(&g, argc, argv)) != -1) {
		switch (opt) {
		case 'S': a.series = optarg; break;
		case 'm': a.metric = optarg; break;
		case 'g': a.good = optarg; break;
		case 'b': a.bad = optarg; break;
		case 'I': a.improvement = 1; break;
		case 't': a.tree = optarg; break;
		case 'u': a.budget = optarg; break;
		case 'd': a.db_path = optarg; break;
		case 'k':
			if (fw_opt_int(&usage, "max-steps", optarg, 1, 1000, &a.max_steps))
				goto cleanup;
			break;
		default:
			if (opt < FW_RUN_PASSTHROUGH) {
				ret = g.exit;
				goto cleanup;
			}
			owned[a.nrun++] = fw_run_passthrough_arg(opt, optarg);
		}
	}
	if (optind != argc) {
		fw_usage_error(&usage, "unexpected argument '%s'", argv[optind]);
		goto cleanup;
	}
	if (!a.series || !a.metric || !a.good || !a.bad) {
		fw_usage_error(&usage, "%s is required", !a.series ? "--series NAME" : !a.metric ? "--metric W/V/M"
							 : !a.good ? "--good REV" : "--bad REV");
		goto cleanup;
	}
	if (!fw_metric_id_ok(a.metric)) {
		fw_usage_error(&usage, "--metric must be workload/variant/metric, not '%s'", a.metric);
		goto cleanup;
	}
	ret = fw_bisect(&a) ? 1 : 0;
cleanup:
	for (int i = 0; i < a.nrun; i++)
		free(owned[i]);
	free(owned);
	return ret;
}
