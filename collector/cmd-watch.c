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
#include "budget.h"
#include "cache.h"
#include "fw-db.h"
#include "atomic-file.h"
#include "cmdopt.h"
#include "commands.h"
#include "runcmd.h"
#include "run-passthrough.h"
#include "watch-bisect.h"
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
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;
	int ret;

	/* a unique temp, fsync'd and renamed: a crash or a second watcher never leaves half a state */
	strbuf_addf(&text, "%s %d\n", sha, pos);
	ret = fw_write_file_atomic(path, text.buf, text.len, 0644, &err);
	if (ret)
		fprintf(stderr, "watch: %s\n", err.buf);
	strbuf_release(&text);
	strbuf_release(&err);
	return ret;
}

/*
 * Sparse watching: the new commits' shas to measure, comma-separated, into
 * only (empty: every commit). --heads: the head alone; --every N: the commits
 * whose position is a multiple of N, and the head. Positions stay first-parent
 * order, so a commit measured later (a bisect's midpoint) finds its place.
 */
static int sparse_pick(char *tree, const char *range, int first, int every, int heads, struct strbuf *only)
{
	const char *argv[] = { "git", "rev-list", "--reverse", "--first-parent", "--end-of-options", range, NULL };
	struct strbuf out = STRBUF_INIT;
	int pos = first, ret = -1;

	strbuf_reset(only);
	if (!heads && every <= 1)
		return 0;
	if (git_out(tree, argv, &out))
		goto cleanup;
	for (char *line = out.buf, *next; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		pos++;
		if ((!next || !*next) || (!heads && pos % every == 0))
			strbuf_addf(only, "%s%s", only->len ? "," : "", line);
	}
	ret = only->len ? 0 : -1;
cleanup:
	strbuf_release(&out);
	return ret;
}

/*
 * One look at the branch: what is new since the state file goes to run as a
 * range (a watched series: README "Deciding"). run_argv holds "run" and the
 * passed-on options (nrun of them), with room for 11 more. 0: measured or nothing new; 1: run failed (the next pass
 * retries); -1: the branch or its history cannot be read.
 */
static int watch_pass(char *tree, const char *branch, char *series, const char *ref, const char *state,
		      const int sparse[2], char **run_argv, int nrun)
{
	/* run parses a char ** argv: writable copies of the option names */
	static char o_series[] = "--series", o_tree[] = "--tree", o_range[] = "--range", o_first[] = "--first-position",
		    o_only[] = "--only", o_watched[] = "--watched";
	const char *head_argv[] = { "git", "rev-parse", "--verify", "-q", "--end-of-options", ref, NULL };
	struct strbuf out = STRBUF_INIT, range = STRBUF_INIT, pos = STRBUF_INIT, only = STRBUF_INIT;
	char last[41], head[41];
	int last_pos = 0, first, n, k = nrun, ret = -1;

	if (git_out(tree, head_argv, &out) || out.len != 40) {
		fprintf(stderr, "watch: no branch %s in %s\n", branch, tree);
		goto cleanup;
	}
	memcpy(head, out.buf, 41);
	if (read_state(state, last, &last_pos) == 0) {
		if (!strcmp(last, head)) {
			ret = 0;
			goto cleanup;
		}
		strbuf_addf(&range, "%s..%s", last, head);
		first = last_pos;
	} else {
		/* first sight of the branch: its head and the commit before it */
		strbuf_addf(&range, "%s~1..%s", head, head);
		first = 0;
	}
	const char *count_argv[] = { "git", "rev-list", "--count", "--first-parent", "--end-of-options", range.buf,
				     NULL };
	if (git_out(tree, count_argv, &out) || (n = atoi(out.buf)) < 1) {
		fprintf(stderr, "watch: cannot count %s (history rewritten?)\n", range.buf);
		goto cleanup;
	}
	if (sparse_pick(tree, range.buf, first, sparse[0], sparse[1], &only)) {
		fprintf(stderr, "watch: cannot list %s\n", range.buf);
		goto cleanup;
	}
	strbuf_addf(&pos, "%d", first);
	if (only.len) {
		run_argv[k++] = o_only;
		run_argv[k++] = only.buf;
	}
	run_argv[k++] = o_series;
	run_argv[k++] = series;
	run_argv[k++] = o_tree;
	run_argv[k++] = tree;
	run_argv[k++] = o_range;
	run_argv[k++] = range.buf;
	run_argv[k++] = o_first;
	run_argv[k++] = pos.buf;
	run_argv[k++] = o_watched;
	run_argv[k] = NULL;
	if (only.len) {
		int m = 1;
		for (const char *c = only.buf; (c = strchr(c, ',')); c++)
			m++;
		printf("watch: %s: %d new commit(s) on %s, measuring %d of them (%s)\n", series, n, branch, m,
		       sparse[1] ? "--heads" : "--every");
	}
	else
		printf("watch: %s: %d new commit(s) on %s\n", series, n, branch);
	fflush(stdout);
	if (cmd_run(k, run_argv) != 0) {
		/* what was measured is stored; the next pass retries the rest */
		fprintf(stderr, "watch: run reported failures; will retry\n");
		ret = 1;
	} else {
		write_state(state, head, first + n);
		ret = 0;
	}
cleanup:
	run_argv[nrun] = NULL;
	strbuf_release(&out);
	strbuf_release(&range);
	strbuf_release(&pos);
	strbuf_release(&only);
	return ret;
}

/* watch's own options; run's follow them (run-passthrough.h) */
static const struct fw_option watch_options[] = {
	{ "tree", 0, required_argument, 't', "DIR", "required", "the git repository to poll (run's --tree)" },
	{ "branch", 0, required_argument, 'b', "NAME", "required", "the branch whose new commits are measured" },
	{ "series", 0, required_argument, 's', "NAME", "required", "the series they are measured as (run's --series)" },
	{ "interval", 0, required_argument, 'i', "SECONDS", "300", "poll this often (at least 1)" },
	{ "once", 0, no_argument, 'o', NULL, "off", "one pass, then exit (for cron or CI)" },
	{ "every", 0, required_argument, 'e', "N", "1",
	  "measure every N-th new commit (by position) and the head;\n"
	  "the others keep their positions for a bisect to fill in" },
	{ "heads", 0, no_argument, 'H', NULL, "off", "measure only the branch head at each pass" },
	{ "bisect", 0, no_argument, 'B', NULL, "off",
	  "after each pass, bisect every regression decided between two\n"
	  "measured commits with unmeasured ones between (once per range)" },
	{ "bisect-improvements", 0, no_argument, 'U', NULL, "off", "with --bisect: improvements instead" },
	{ "bisect-budget", 0, required_argument, 'G', "TIME|Nboots", "none",
	  "with --bisect: what each bisect may spend (30m, 40boots)" },
};

struct watch {
	char *tree, *series;
	const char *branch, *ref, *state;
	int sparse[2], once, bisect;
	double interval;
	char **run_argv;
	int nrun;
	struct fw_bisect_args bis;   /* --bisect: all but metric, good and bad */
};

/* Passes until a signal (or one with --once); each pass's changes bisected with --bisect. */
static int watch_loop(struct watch *w)
{
	int ret = 0;

	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	while (!stop) {
		int r = watch_pass(w->tree, w->branch, w->series, w->ref, w->state, w->sparse, w->run_argv, w->nrun);
		if (r < 0)
			return 1;
		if (r == 0 && w->bisect && fw_watch_bisect(&w->bis, w->state))
			r = 1;
		ret = r;
		if (w->once)
			break;
		for (double t = 0; t < w->interval && !stop; t += 1)
			sleep(1);
	}
	return ret;
}

/* A passed-on run option: into run's argv, and into bisect's unless bisect decides it. */
static void pass_on(struct watch *w, int opt, const char *arg, char **owned, int *nowned, int *post)
{
	const char *name = fw_run_options[opt - FW_RUN_PASSTHROUGH].name;
	char *a = fw_run_passthrough_arg(opt, arg);
	int bisect_decides = 0;

	w->run_argv[w->nrun++] = owned[(*nowned)++] = a;
	for (int k = 0; fw_bisect_decided[k]; k++)
		bisect_decides |= !strcmp(fw_bisect_decided[k], name);
	if (!bisect_decides)
		w->bis.run_opts[w->bis.nrun++] = a;
	if (!strcmp(name, "db"))
		w->bis.db_path = arg;
	if (!strcmp(name, "post"))
		*post = 1;
}

int cmd_watch(int argc, char **argv)
{
	static const char *const decided[] = { "series", "tree", "range", "only", "mbox", "base", "first-position",
					       "watched", "decide-metric", NULL };
	struct watch w = { .sparse = { 1, 0 }, .interval = 300, .bis.db_path = FW_DB_DEFAULT };
	static char o_run[] = "run";
	int ret = 1, nowned = 0, opt, post = 0;
	char **owned = calloc((size_t)argc + 1, sizeof(*owned));
	struct fw_option *opts = calloc(sizeof(watch_options) / sizeof(watch_options[0]) + 64, sizeof(*opts));
	struct fw_usage usage = { "foliowatch-collect", "watch",
		"--tree DIR --branch NAME --series NAME [--once] [--every N | --heads] [--bisect] [run options]",
		"Continuous mode: measures each commit that appears on a branch, so that a\n"
		"history builds up for change-point analysis. It polls the repository (or\n"
		"looks once, for cron or CI) and hands each new stretch of history to run as\n"
		"a range, continuing the series' positions; the last measured commit is kept\n"
		"in <cache>/watch/. The first pass measures the branch head and its parent.\n"
		"--every N and --heads measure fewer commits; positions stay the branch's\n"
		"first-parent order, so 'bisect' can measure the ones between later;\n"
		"--bisect does that after each pass for every regression it finds.\n"
		"Run options other than --range, --mbox, --base and --first-position (which\n"
		"watch decides) are passed on to run.\n"
		"Exit (--once): 0 measured or nothing new, 1 a run failed or a bisect gave up,\n"
		"2 usage error.",
		opts, "--tree ~/linux --branch mm-unstable --series mm-unstable --db foliowatch.db\n"
		"--tree ~/linux --branch mm-unstable --series mm-unstable --once --workloads split \\\n"
		"      --accel icount --post https://fw.example.org --token-file runner.token" };
	struct fw_getopt g = FW_GETOPT_INIT(&usage);
	struct strbuf state = STRBUF_INIT, ref = STRBUF_INIT;
	char hash[65];

	w.run_argv = calloc((size_t)argc + 16, sizeof(*w.run_argv));
	w.bis.run_opts = calloc((size_t)argc + 1, sizeof(*w.bis.run_opts));
	if (!w.run_argv || !w.bis.run_opts || !owned || !opts)
		abort();
	fw_run_passthrough_table(opts, sizeof(watch_options) / sizeof(watch_options[0]) + 64, "Watch options:", watch_options,
				 sizeof(watch_options) / sizeof(watch_options[0]), decided);
	w.run_argv[w.nrun++] = o_run;
	while ((opt = fw_getopt(&g, argc, argv)) != -1) {
		switch (opt) {
		case 't': w.tree = optarg; break;
		case 'b': w.branch = optarg; break;
		case 's': w.series = optarg; break;
		case 'o': w.once = 1; break;
		case 'H': w.sparse[1] = 1; break;
		case 'B': w.bisect = 1; break;
		case 'U': w.bisect = w.bis.improvement = 1; break;
		case 'G': w.bis.budget = optarg; break;
		case 'e':
			if (fw_opt_int(&usage, "every", optarg, 1, 1000000, &w.sparse[0]))
				goto usage;
			break;
		case 'i':
			if (fw_opt_double(&usage, "interval", optarg, 1, 1e9, 0, &w.interval))
				goto usage;
			break;
		default:
			if (opt < FW_RUN_PASSTHROUGH) {
				ret = g.exit;
				goto cleanup;
			}
			pass_on(&w, opt, optarg, owned, &nowned, &post);
		}
	}
	if (optind != argc) {
		fw_usage_error(&usage, "unexpected argument '%s'", argv[optind]);
		goto usage;
	}
	if (w.sparse[1] && w.sparse[0] > 1) {
		fw_usage_error(&usage, "--every and --heads exclude each other: give one of them");
		goto usage;
	}
	if (w.bis.budget) {
		struct fw_budget bud = { 0 };
		char why[200];
		if (fw_budget_parse(w.bis.budget, &bud, why, sizeof(why)) || bud.none) {
			fw_usage_error(&usage, "--bisect-budget: %s", bud.none ? "none is not a budget" : why);
			goto usage;
		}
	}
	if (w.bisect && post) {
		fw_usage_error(&usage, "--bisect reads the series from a local --db (with --post, bisect on the server's "
			       "host: foliowatch-collect bisect --db)");
		goto usage;
	}
	if (!w.tree || !w.branch || !w.series) {
		fw_usage_error(&usage, "%s is required", !w.tree ? "--tree DIR" : !w.branch ? "--branch NAME" : "--series NAME");
		goto usage;
	}
	w.bis.series = w.series;
	w.bis.tree = w.tree;
	sha256_hex(w.series, strlen(w.series), hash);
	fw_kcache_root(&state);
	strbuf_addstr(&state, "/watch");
	if (fw_mkdirs(state.buf)) {
		fprintf(stderr, "watch: cannot create %s: %s\n", state.buf, strerror(errno));
		goto cleanup;
	}
	strbuf_addf(&state, "/%.16s", hash);
	strbuf_addf(&ref, "refs/heads/%s", w.branch);
	w.ref = ref.buf;
	w.state = state.buf;
	ret = watch_loop(&w);
	goto cleanup;
usage: /* the message is out */
	ret = 2;
cleanup:
	for (int i = 0; i < nowned; i++)
		free(owned[i]);
	free(owned);
	free(opts);
	free(w.run_argv);
	free(w.bis.run_opts);
	strbuf_release(&state);
	strbuf_release(&ref);
	return ret;
}
