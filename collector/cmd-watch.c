/*
 * foliowatch-collect watch --tree DIR --branch NAME --series NAME [--interval S] [--once] [run options]
 *
 * Continuous mode: measures each commit that appears on a branch, so that a
 * tree's history builds up for change-point analysis. It polls the local
 * repository (or runs once, from cron or CI) and hands each new stretch of
 * history to `run` as a range, continuing the series' positions; the last
 * measured commit and its position are kept in <cache>/watch/.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cache.h"
#include "commands.h"
#include "runcmd.h"
#include "sha256.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static int git_out(const char *tree, const char *const *argv, struct strbuf *out)
{
	strbuf_reset(out);
	return runcmd_capture(argv, tree, out);
}

/* State: "<sha> <position>" of the newest measured commit. */
static int read_state(const char *path, char sha[41], int *pos)
{
	struct strbuf s = STRBUF_INIT;
	int ret = -1;

	if (strbuf_read_file(&s, path, 256) == 0 && sscanf(s.buf, "%40s %d", sha, pos) == 2 && strlen(sha) == 40)
		ret = 0;
	strbuf_release(&s);
	return ret;
}

static int write_state(const char *path, const char *sha, int pos)
{
	struct strbuf tmp = STRBUF_INIT;
	FILE *f;
	int ret = -1;

	strbuf_addf(&tmp, "%s.tmp", path);
	if ((f = fopen(tmp.buf, "w"))) {
		int ok = fprintf(f, "%s %d\n", sha, pos) > 0;
		if (fclose(f) == 0 && ok && rename(tmp.buf, path) == 0)
			ret = 0;
	}
	strbuf_release(&tmp);
	return ret;
}

int cmd_watch(int argc, char **argv)
{
	char *tree = NULL, *series = NULL;
	const char *branch = NULL;
	/* run parses a char ** argv: writable copies of the option names */
	static char o_run[] = "run", o_series[] = "--series", o_tree[] = "--tree", o_range[] = "--range",
		    o_first[] = "--first-position";
	double interval = 300;
	int once = 0, ret = 1, nrun = 0;
	char **run_argv = calloc((size_t)argc + 16, sizeof(*run_argv));
	struct strbuf state = STRBUF_INIT, out = STRBUF_INIT, range = STRBUF_INIT, pos = STRBUF_INIT,
		      ref = STRBUF_INIT, hex = STRBUF_INIT;
	char hash[65];

	if (!run_argv)
		abort();
	run_argv[nrun++] = o_run;
	/* watch's own options; everything else is passed to run */
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		char *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "--once")) {
			once = 1;
		} else if (!strcmp(a, "--tree") && v) {
			tree = v;
			i++;
		} else if (!strcmp(a, "--branch") && v) {
			branch = v;
			i++;
		} else if (!strcmp(a, "--interval") && v) {
			interval = atof(v);
			i++;
		} else if (!strcmp(a, "--series") && v) {
			series = v;
			i++;
		} else if (!strcmp(a, "--range") || !strcmp(a, "--mbox") || !strcmp(a, "--base") ||
			   !strcmp(a, "--first-position")) {
			fprintf(stderr, "watch: %s is decided by watch itself\n", a);
			goto usage;
		} else {
			run_argv[nrun++] = argv[i];
		}
	}
	if (!tree || !branch || !series || interval < 1)
		goto usage;
	sha256_hex(series, strlen(series), hash);
	fw_kcache_root(&state);
	strbuf_addstr(&state, "/watch");
	if (fw_mkdirs(state.buf)) {
		fprintf(stderr, "watch: cannot create %s: %s\n", state.buf, strerror(errno));
		goto cleanup;
	}
	strbuf_addf(&state, "/%.16s", hash);
	strbuf_addf(&ref, "refs/heads/%s", branch);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	ret = 0;
	while (!stop) {
		const char *head_argv[] = { "git", "rev-parse", "--verify", "-q", "--end-of-options", ref.buf, NULL };
		char last[41], head[41];
		int last_pos = 0, first;

		if (git_out(tree, head_argv, &out) || out.len != 40) {
			fprintf(stderr, "watch: no branch %s in %s\n", branch, tree);
			ret = 1;
			break;
		}
		memcpy(head, out.buf, 41);
		strbuf_reset(&range);
		if (read_state(state.buf, last, &last_pos) == 0) {
			if (!strcmp(last, head))
				goto idle;
			strbuf_addf(&range, "%s..%s", last, head);
			first = last_pos;
		} else {
			/* first sight of the branch: its head and the commit before it */
			strbuf_addf(&range, "%s~1..%s", head, head);
			first = 0;
		}
		{
			const char *count_argv[] = { "git", "rev-list", "--count", "--first-parent", "--end-of-options",
						     range.buf, NULL };
			int n;
			if (git_out(tree, count_argv, &out) || (n = atoi(out.buf)) < 1) {
				fprintf(stderr, "watch: cannot count %s (history rewritten?)\n", range.buf);
				ret = 1;
				break;
			}
			strbuf_reset(&pos);
			strbuf_addf(&pos, "%d", first);
			int k = nrun;
			run_argv[k++] = o_series;
			run_argv[k++] = series;
			run_argv[k++] = o_tree;
			run_argv[k++] = tree;
			run_argv[k++] = o_range;
			run_argv[k++] = range.buf;
			run_argv[k++] = o_first;
			run_argv[k++] = pos.buf;
			run_argv[k] = NULL;
			printf("watch: %s: %d new commit(s) on %s\n", series, n, branch);
			fflush(stdout);
			if (cmd_run(k, run_argv) != 0) {
				/* what was measured is stored; the next pass retries the rest */
				fprintf(stderr, "watch: run reported failures; will retry\n");
				ret = 1;
			} else {
				write_state(state.buf, head, first + n);
				ret = 0;
			}
		}
idle:
		if (once)
			break;
		for (double t = 0; t < interval && !stop; t += 1)
			sleep(1);
	}
	goto cleanup;
usage:
	fprintf(stderr, "usage: foliowatch-collect watch --tree DIR --branch NAME --series NAME [--interval S] "
			"[--once] [run options: --workloads, --boots, --db, --post, ...]\n");
	ret = 2;
cleanup:
	free(run_argv);
	strbuf_release(&state);
	strbuf_release(&out);
	strbuf_release(&range);
	strbuf_release(&pos);
	strbuf_release(&ref);
	strbuf_release(&hex);
	return ret;
}
