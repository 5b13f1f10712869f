/*
 * watch --bisect: after a pass, each change the analysis decided between two
 * measured commits with unmeasured ones between them is bisected (issue 30).
 * One bisect per range and workload: the metrics of a workload moved by the
 * same range share it (the midpoints run that workload, so its other metrics
 * get rows too); another workload moved by the same range gets a bisect of
 * its own (its midpoints must run it). A range once bisected for a workload
 * is not bisected again: <state>.bisected lists "GOOD BAD METRIC RESULT"
 * lines, and a bisect that gave up is not retried by every later pass (one
 * that could not start is).
 */
#include <stdio.h>
#include "run-doc.h"
#include <stdlib.h>
#include <string.h>
#include "analysis.h"
#include "bisect.h"
#include "bisect-step.h"
#include "fw-db.h"
#include "strbuf.h"
#include "watch-bisect.h"


/*
 * Was good..bad bisected before for this workload (a line of the state file,
 * or earlier in this pass), or is it on the to-do list already (same order)?
 */
static int seen(const struct strbuf *done, const char *good, const char *bad, const char *workload)
{
	struct strbuf key = STRBUF_INIT;
	const char *p;
	int found = 0;

	strbuf_addf(&key, "%s %s %s/", good, bad, workload);
	for (p = done->buf; p && *p && !found; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		found = !strncmp(p, key.buf, key.len);
	strbuf_release(&key);
	return found;
}

static void remember(const char *path, struct strbuf *done, const char *good, const char *bad, const char *metric,
		     int result)
{
	FILE *f = fopen(path, "a");

	strbuf_addf(done, "%s %s %s %s\n", good, bad, metric, result == 0 ? "found" : "gave-up");
	if (f) {
		fprintf(f, "%s %s %s %s\n", good, bad, metric, result == 0 ? "found" : "gave-up");
		fclose(f);
	} else {
		fprintf(stderr, "watch: cannot record the bisect in %s\n", path);
	}
}

void fw_watch_ranges(const struct fw_an *a, const char *want, const struct strbuf *done, struct strbuf *todo)
{
	for (size_t i = 0; a && i < a->nrows; i++) {
		const struct fw_an_row *row = &a->rows[i];
		const char *sha = row->sha, *ref = row->ref_sha, *w = row->workload, *var = row->variant;
		const char *m = row->metric;

		if (!*sha || !*ref || !*w || !*var || !*m || row->against != FW_AGAINST_PARENT ||
		    strcmp(row->verdict, want) || !row->decided)
			continue;
		if (fw_bisect_position_of(a, sha) - fw_bisect_position_of(a, ref) < 2 || seen(done, ref, sha, w))
			continue;
		if (!seen(todo, ref, sha, w)) /* the metrics of a workload share its bisect */
			strbuf_addf(todo, "%s %s %s/%s/%s\n", ref, sha, w, var, m);
	}
}

int fw_watch_bisect(const struct fw_bisect_args *base, const char *state_path)
{
	struct strbuf err = STRBUF_INIT, done = STRBUF_INIT, todo = STRBUF_INIT, path = STRBUF_INIT;
	struct fw_analysis_opts ao;
	sqlite3 *db;
	struct fw_an *a = NULL;
	int ret = 0;

	strbuf_addf(&path, "%s.bisected", state_path);
	strbuf_read_file(&done, path.buf, 16 << 20);
	if (!(db = fw_db_open(base->db_path, &err))) {
		fprintf(stderr, "watch: %s\n", err.buf);
		ret = 1;
		goto cleanup;
	}
	fw_analysis_opts_init(&ao);
	/* store the regressions first: a bisect moves the one it explains to the culprit */
	if (fw_regressions_refresh(db, base->series, &ao, &err))
		fprintf(stderr, "watch: storing the regressions of %s: %s\n", base->series, err.buf);
	strbuf_reset(&err);
	if (fw_analysis_series(db, base->series, 0, &ao, &a, &err) == 0)
		fw_watch_ranges(a, base->improvement ? "improvement" : "regression", &done, &todo);
	else
		fprintf(stderr, "watch: cannot analyse %s: %s\n", base->series, err.buf);
	fw_db_close(db);
	for (char *line = todo.buf, *next; line && *line; line = next) {
		char metric[320], workload[320], good[41], bad[41];
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (sscanf(line, "%40s %40s %319s", good, bad, metric) != 3)
			continue;
		snprintf(workload, sizeof(workload), "%.*s", (int)strcspn(metric, "/"), metric);
		if (seen(&done, good, bad, workload))
			continue;
		struct fw_bisect_args b = *base;
		b.metric = metric;
		b.good = good;
		b.bad = bad;
		printf("watch: bisecting %s between %.12s and %.12s\n", metric, good, bad);
		fflush(stdout);
		int r = fw_bisect(&b);
		if (r != 2) /* an answer, or a recorded give-up: not again; could not start: the next pass tries */
			remember(path.buf, &done, good, bad, metric, r);
		if (r)
			ret = 1;
		if (!r && (db = fw_db_open(base->db_path, &err))) {
			/* the culprit's verdict: already stored when the bisect moved the regression to it */
			if (fw_regressions_refresh(db, base->series, &ao, &err))
				fprintf(stderr, "watch: storing the regressions of %s: %s\n", base->series, err.buf);
			fw_db_close(db);
		}
	}
cleanup:
	fw_an_free(a);
	strbuf_release(&err);
	strbuf_release(&done);
	strbuf_release(&todo);
	strbuf_release(&path);
	return ret;
}
