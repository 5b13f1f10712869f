/*
 * foliowatch-collect run: a patch series in, one measured kernel per commit out.
 *
 *   series (range or mbox) -> for each commit: checkout + incremental build
 *   -> boots in plan order (interleaved, sharded) -> run documents
 *   -> DB (ingest) or server (post, spooled) -> the series table.
 *
 * Resumable: a boot whose run id is already stored (or already posted, for
 * --post) is not measured again, so killing a run and starting the same
 * command again measures only what is missing.
 */
#include <errno.h>
#include <ftw.h>
#include <glob.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "cmdopt.h"
#include "commands.h"
#include "fw-db.h"
#include "ingest.h"
#include "adaptive.h"
#include "analysis-json.h"
#include "boot-pool.h"
#include "budget.h"
#include "kernel-build.h"
#include "series-build.h"
#include "lock.h"
#include "measure.h"
#include "plan.h"
#include "post.h"
#include "profile-plan.h"
#include "progress.h"
#include "prune.h"
#include "runcmd.h"
#include "store.h"
#include "patchset.h"
#include "workload-dirs.h"
#include "sha256.h"

/* not_run documents of failed builds: the highest boot index a document may carry */
#define FAILED_BUILD_BOOT_INDEX 100000

struct run_opts {
	const char *series, *tree, *range, *only, *base, *mbox, *workloads, *profile, *accel, *db;
	const char *post_url, *token_file, *host, *origin, *shard, *cache, *fragment, *append, *budget;
	const char *decide_metric; /* --decide-metric: the only metric whose unsure rows get more boots */
	double floor_alpha;        /* --floor-alpha: the floor rule's level (0: the analysis' default) */
	int rounds, boots, interleave, jobs, quiet, vcpus, memory_mib, revision, no_report, max_looks, max_boots;
	int profile_boots;    /* boots 0..N-1 of each commit also run the profiling round; 0: where flagged */
	int no_profile;       /* --no-profile: no profiling at all */
	int parallel;         /* --parallel; 0: what the host's CPUs hold (fw_default_parallel) */
	int first_position;   /* position of the base: watch mode continues a history */
	int watched;          /* --watched: the series is a history (decided commit by commit) */
	double timeout;
	struct fw_budget bud; /* --budget, parsed */
	struct fw_user_workloads user;  /* --workload-dir */
	struct strbuf default_workloads, icount_user;
	int workloads_given;
};

/* One built commit: what its boots need. */
/* watch passes these on to run (all but --range, --mbox, --base and --first-position): see commands.h */
const struct fw_option fw_run_options[] = {
	{ .help = "What to measure:" },
	{ "series", 0, required_argument, 'S', "NAME", "required", "the series' name (what reports and pages show)" },
	{ "tree", 0, required_argument, 't', "DIR", "linux-source-6.12 in the cache",
	  "the git tree (never touched: commits are checked out in a\nworktree in the cache)" },
	{ "range", 0, required_argument, 'r', "BASE..HEAD", "none",
	  "the base and the commits up to HEAD (give --range or --mbox)" },
	{ "only", 0, required_argument, 'O', "SHA,...", "every commit of the range",
	  "with --range: the base and these commits only (shas or unique\n"
	  "prefixes); positions stay their first-parent order in the range" },
	{ "mbox", 0, required_argument, 'm', "FILE", "none",
	  "patches applied with git am onto --base (a cover letter is\nskipped; Message-IDs are kept for report --format email)" },
	{ "base", 0, required_argument, 'b', "REV", "HEAD of --tree; master of the default tree", "with --mbox: the commit the patches apply to" },
	{ "revision", 0, required_argument, 'V', "N", "1", "revision of the series (a re-post of the patches is 2, ...)" },
	{ "first-position", 0, required_argument, 'F', "N", "0",
	  "position of the base, 0..90000 (watch continues a history)" },
	{ "watched", 0, no_argument, 'W', NULL, "off",
	  "the series is a watched history: each commit is decided once,\n"
	  "from the commits up to it (README \"Deciding\"); watch sets it" },
	{ .help = "How to measure:" },
	{ "workloads", 0, required_argument, 'w', "LIST", "split,mthp,lazyfree,filemap and each --workload-dir's",
	  "comma-separated workloads" },
	{ "workload-dir", 0, required_argument, 'u', "DIR", "none",
	  "add your own workload (kernel/workloads/README.md); repeatable" },
	{ "profile", 0, required_argument, 'p', "NAME", "quick", "workload parameters: quick or seed" },
	{ "boots", 0, required_argument, 'B', "N", "3", "boots per commit in the first round (1..1000)" },
	{ "rounds", 0, required_argument, 'R', "N", "2", "samples per workload per boot (1..1000)" },
	{ "budget", 0, required_argument, 'G', "TIME|Nboots|none", "45m",
	  "what the boots may spend, the first round included (45m, 2h,\n"
	  "600s, 40boots): after the first round, commits whose rows are\n"
	  "still unsure get more boots until every row is decided or the\n"
	  "budget is spent; none: the first round only (a fixed design)" },
	{ "max-looks", 0, required_argument, 'K', "K", "4",
	  "rounds of analysis planned, the first included (1..1000): the\n"
	  "error rate is spent over them (README \"Deciding\")" },
	{ "max-boots", 0, required_argument, 'N', "N", "24", "at most N boots per commit, environment and workload" },
	{ "decide-metric", 0, required_argument, 'D', "W/V/M", "every metric",
	  "later looks add boots only where this metric is unsure (a\nbisect's steps: other metrics' rows do not buy boots)" },
	{ "floor-alpha", 0, required_argument, 'L', "P", "0.001",
	  "two-sided level of the floor rule per row (0 < P <= 0.5), spent\n"
	  "over the looks; a bisect gives each step its share" },
	{ "interleave", 0, no_argument, 'i', NULL, "on",
	  "boot base, p1, p2, ..., base, p1, ... (machine drift spreads evenly)" },
	{ "no-interleave", 0, no_argument, 'I', NULL, "off", "all boots of a commit in a row" },
	{ "parallel", 0, required_argument, 'J', "N", "as many as the CPUs hold under icount and tcg, 1 under kvm",
	  "boots at once (1..64), each its own QEMU; at most one boot per\n"
	  "host CPU runs at once across every collector (the host lock's\n"
	  "slots): 2 icount boots on 2 cores, 1 TCG boot of 2 vCPUs" },
	{ "accel", 0, required_argument, 'a', "MODE", "plan",
	  "plan, auto, kvm, tcg or icount. plan: kvm if a test boot works,\n"
	  "else icount for the workloads measured to repeat under icount\n"
	  "(split, mthp, lazyfree, filemap) and tcg for the others; auto:\n"
	  "kvm if a test boot works, else tcg; icount: deterministic TCG" },
	{ "timeout", 0, required_argument, 'x', "SECONDS", "900", "per boot (a profiled boot gets more: --profile-boots)" },
	{ "profile-boots", 0, required_argument, 'e', "N", "0",
	  "0: after the deciding boots, one profile-only boot (the\n"
	  "workload once more, untimed, under the ftrace function profiler;\n"
	  "README \"Why did it change\") of each commit with a row decided\n"
	  "regression or improvement and of the other side of that row,\n"
	  "only those rows' workloads; within the budget. N > 0: the first\n"
	  "N boots of every commit end with the profiling round instead.\n"
	  "At most " FW_PROFILE_TIMEOUT_S_STR " guest seconds per workload" },
	{ "no-profile", 0, no_argument, 'E', NULL, "off", "no profiling at all" },
	{ "vcpus", 0, required_argument, 'v', "N", "the usable CPUs under kvm (at most 64), 2 under tcg, 1 under icount",
	  "guest CPUs (1..256)" },
	{ "memory", 0, required_argument, 'M', "MiB", "2048", "guest memory (64..1048576)" },
	{ "append", 0, required_argument, 'A', "ARGS", "none", "more kernel command line arguments" },
	{ "shard", 0, required_argument, 's', "K/N", "1/1", "this runner's share of the boots (CI runners K of N)" },
	{ "host", 0, required_argument, 'H', "LABEL", "the host name", "host label in the documents" },
	{ "origin", 0, required_argument, 'o', "NAME", "none", "who or what produced the runs (e.g. the CI job)" },
	{ .help = "Building:" },
	{ "cache", 0, required_argument, 'c', "DIR", "$FOLIOWATCH_CACHE or ~/.cache/foliowatch",
	  "trees, worktrees, build folders, kernels and run documents" },
	{ "config", 0, required_argument, 'f', "FRAGMENT", "kernel/foliowatch.config",
	  "config fragment merged into the defconfig" },
	{ "jobs", 0, required_argument, 'j', "N", "the number of CPUs", "parallel make jobs (1..1024)" },
	{ .help = "Where the results go:" },
	{ "db", 0, required_argument, 'd', "FILE", FW_DB_DEFAULT " unless --post", "the database (created if missing)" },
	{ "post", 0, required_argument, 'P', "URL", "none", "send the documents to a server instead of --db" },
	{ "token-file", 0, required_argument, 'T', "FILE", "none", "the API token file (required with --post)" },
	{ "quiet", 0, no_argument, 'q', NULL, "off", "no progress and no series table" },
	{ "no-report", 0, no_argument, 'n', NULL, "off", "no series table at the end" },
	{ 0 },
};

static const struct fw_usage run_usage = { "foliowatch-collect", "run",
	"--series NAME [--tree DIR] --range BASE..HEAD [options]\n"
	"--series NAME [--tree DIR] [--base REV] --mbox FILE [options]",
	"Measures a patch series: every commit (the base too) is checked out and\n"
	"built incrementally, then booted under QEMU --boots times; each boot's run\n"
	"document goes to --db or to a server (--post). A commit that does not build\n"
	"is recorded as such and the series goes on. Killing run and starting the\n"
	"same command again measures only what is missing. At the end it prints the\n"
	"series table (foliowatch-server report).\n"
	"Exit: 0 ok, 1 some build, boot or delivery failed, 2 usage error.",
	fw_run_options, "--series my-series --mbox my-series.mbox\n"
	"--series my-series --tree ~/linux --range v6.12..my-branch --workloads split,lazyfree \\\n"
	"      --boots 5 --rounds 3 --interleave --accel auto --db foliowatch.db\n"
	"--series my-series --tree ~/linux --range v6.12..my-branch --shard 1/2 --host runner-1 \\\n"
	"      --post https://fw.example.org --token-file runner.token" };

/* A folder name from arbitrary text: a readable prefix plus a hash, never a path. */
static void safe_name(struct strbuf *out, const char *text)
{
	char hex[65];

	sha256_hex(text, strlen(text), hex);
	for (const char *p = text; *p && out->len < 24; p++)
		strbuf_addch(out, strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_", *p) ? *p : '_');
	strbuf_addf(out, "-%.12s", hex);
}


/*
 * runs/<series>[@<host>]: one archive per host, so shards of a series started
 * on one machine (each its own --host) never share decide.db: each would
 * decide from the other's documents and race on the file.
 */
static void archive_name(struct strbuf *out, const char *series, const char *host)
{
	safe_name(out, series);
	if (host) {
		struct strbuf h = STRBUF_INIT;
		safe_name(&h, host);
		strbuf_addf(out, "@%s", h.buf);
		strbuf_release(&h);
	}
}

static int rm_entry(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)flag;
	(void)f;
	return remove(p);
}

static void remove_tree(const char *dir)
{
	nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* Is this run id stored already? In --post mode the local document archive answers. */
static int already_measured(sqlite3 *db, const char *archive, const char *run_id)
{
	int found = 0;

	if (db)
		return fw_store_run_exists(db, run_id) == 1;
	struct strbuf path = STRBUF_INIT;
	const char *hex = strchr(run_id, ':');
	strbuf_addf(&path, "%s/%s.posted", archive, hex ? hex + 1 : run_id);
	found = access(path.buf, F_OK) == 0;
	strbuf_release(&path);
	return found;
}

/* Stores or posts one document, keeping a copy in the archive (the run's log). */
static int deliver(const struct run_opts *o, sqlite3 *db, sqlite3 *decide_db, const char *archive, cJSON *doc,
		   const struct post_opts *po)
{
	struct strbuf path = STRBUF_INIT, err = STRBUF_INIT, mark = STRBUF_INIT;
	const char *rid = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(doc, "run_id"));
	const char *hex = rid ? strchr(rid, ':') : NULL;
	int ret = -1;

	strbuf_addf(&path, "%s/%s.json", archive, hex ? hex + 1 : "unknown");
	if (fw_rundoc_write(doc, path.buf, &err)) {
		fprintf(stderr, "run: %s\n", err.buf);
		goto cleanup;
	}
	if (db) {
		struct fw_ingest_info info;
		if (fw_ingest_doc(db, doc, &info) != FW_INGEST_STORED && info.status != FW_INGEST_DUPLICATE) {
			fprintf(stderr, "run: storing %s: %s %s %s\n", path.buf, fw_ingest_status_name(info.status),
				info.err.field, info.err.detail);
			goto cleanup;
		}
	} else {
		enum post_result r = post_file(po, path.buf, &err);
		if (r == POST_REJECTED) {
			fprintf(stderr, "run: %s\n", err.buf);
			goto cleanup;
		}
		if (r == POST_FAILED)
			fprintf(stderr, "run: %s\n", err.buf); /* spooled: post sends it later */
		/* posted or spooled: either way it is measured and will not be measured again */
		struct fw_ingest_info info;
		if (decide_db && fw_ingest_doc(decide_db, doc, &info) != FW_INGEST_STORED &&
		    info.status != FW_INGEST_DUPLICATE)
			fprintf(stderr, "run: keeping %s for the looks: %s\n", path.buf, fw_ingest_status_name(info.status));
		strbuf_addf(&mark, "%s/%s.posted", archive, hex ? hex + 1 : "unknown");
		FILE *fp = fopen(mark.buf, "w");
		if (fp)
			fclose(fp);
	}
	(void)o;
	ret = 0;
cleanup:
	strbuf_release(&path);
	strbuf_release(&err);
	strbuf_release(&mark);
	return ret;
}

static void fill_identity(struct fw_rundoc_facts *f, const struct run_opts *o, const struct fw_patchset *s,
			  const struct fw_patchset_commit *c, const char *tree_name)
{
	f->origin = o->origin;
	f->tree_name = tree_name;
	f->tree_url = "";
	f->series = o->series;
	f->series_base = s->base;
	f->revision = o->revision;
	f->commit_sha = c->sha;
	f->commit_key = c->key;
	f->commit_subject = c->subject;
	f->commit_author = c->author;
	f->mail = c->mail;
	f->cover = s->cover;
	/* the first parent (not the set's previous commit: with --only it may not be measured) */
	f->commit_parent = c->position && c->parent[0] ? c->parent : NULL;
	f->position = o->first_position + c->position;
	f->watched = o->watched;
	f->profile = o->profile;
	f->workloads = o->workloads;
	f->workload_content = o->user.content.len ? o->user.content.buf : NULL;
	f->vcpus = o->vcpus;
	f->memory_mib = o->memory_mib;
	f->boot_seconds = -1;
}

/*
 * Every commit's kernel (series-build.c); a failed build is said here and
 * recorded later, the series goes on. 1 when a commit was checked out.
 */
static int build_all(const struct run_opts *o, const struct fw_patchset *s, const char *cache,
		     const char *checkout, const char *fragment, struct fw_built *b, struct progress *pr)
{
	int checked_out = fw_series_build(s, cache, checkout, fragment, o->jobs, b, pr);

	for (int i = 0; i < s->nr; i++)
		if (!b[i].ok)
			fprintf(stderr, "run: commit %.12s (%s) failed to build; recorded as not_run, going on\n",
				s->commits[i].sha, s->commits[i].subject);
	return checked_out;
}

/* A failed build becomes one not_run document (boot index 0), stored like any run. */
static int record_failed_build(const struct run_opts *o, sqlite3 *db, sqlite3 *decide_db, const char *archive,
			       const struct post_opts *po, const struct fw_patchset *s, int i,
			       const struct fw_built *b, const struct fw_hostfacts *host, const char *accel,
			       int vcpus, const char *tree_name)
{
	struct fw_rundoc_facts f = { 0 };
	struct fw_error e;
	char hash[65];
	cJSON *doc;
	int ret = -1;

	fill_identity(&f, o, s, &s->commits[i], tree_name);
	f.build_failed = 1;
	f.build_seconds = -1;
	f.kernel_version = b->kb.version.len ? b->kb.version.buf : "";
	if (b->kb.config_hash.len) {
		f.config_hash = b->kb.config_hash.buf;
	} else {
		sha256_hex("", 0, hash); /* never configured: the empty config */
		f.config_hash = hash;
	}
	f.compiler = "";
	f.build_log_tail = b->log_tail.buf;
	f.host = host;
	f.accel = accel;
	f.vcpus = vcpus;
	/* a reserved boot index: a later good build of the same config never shares its run id */
	f.boot_index = FAILED_BUILD_BOOT_INDEX;
	doc = fw_rundoc_not_run(&f, &e);
	if (!doc) {
		fprintf(stderr, "run: internal error, not_run document invalid at %s: %s\n", e.field, e.detail);
		return -1;
	}
	const char *rid = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(doc, "run_id"));
	ret = already_measured(db, archive, rid) ? 0 : deliver(o, db, decide_db, archive, doc, po);
	cJSON_Delete(doc);
	return ret;
}

/*
 * What moved, from the analysis, in this process: what `foliowatch-server
 * report` prints (the same fw_report_moved), with the regressions it finds
 * stored, so `regressions --fail-on new` sees them.
 */
static int print_local_report(const struct run_opts *o)
{
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	struct fw_analysis_opts ao;
	sqlite3 *db = fw_db_open(o->db, &err);
	struct fw_an *res = NULL;
	cJSON *facts = NULL;
	int ret = 1;

	fw_analysis_opts_init(&ao);
	if (!db || fw_analysis_series(db, o->series, o->revision, &ao, &res, &err) ||
	    fw_regressions_update(db, res, &err) < 0) {
		fprintf(stderr, "run: report: %s\n", err.buf);
		goto cleanup;
	}
	if (fw_mail_facts(db, o->series, res->revision == FW_AN_NA ? 1 : res->revision, &facts, &err)) {
		fprintf(stderr, "run: report: %s\n", err.buf);
		goto cleanup;
	}
	fw_report_moved(res, facts, &out);
	fwrite(out.buf, 1, out.len, stdout);
	fflush(stdout);
	ret = 0;
cleanup:
	cJSON_Delete(facts);
	fw_an_free(res);
	fw_db_close(db);
	strbuf_release(&err);
	strbuf_release(&out);
	return ret;
}

static int print_report(const struct run_opts *o)
{
	struct strbuf url = STRBUF_INIT;
	struct runcmd rc = { 0 };
	int ret;

	if (o->db) {
		ret = print_local_report(o);
	} else {
		/* the server's own report route: the same table writer, on the server's data */
		strbuf_addf(&url, "%s/api/v1/series/", o->post_url);
		for (const unsigned char *p = (const unsigned char *)o->series; *p; p++)
			if (strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~", *p) && *p)
				strbuf_addch(&url, *p);
			else
				strbuf_addf(&url, "%%%02X", *p);
		strbuf_addf(&url, "/report.txt?revision=%d", o->revision);
		const char *argv[] = { "curl", "-sS", "--fail-with-body", url.buf, NULL };
		rc.argv = argv;
		ret = runcmd_run(&rc);
	}
	strbuf_release(&url);
	return ret;
}

/* The --workload-dir folders, loaded once the options parsed: -1, or 1 (said, as `workload check` would). */
static int load_workload_dirs(struct run_opts *o)
{
	struct strbuf err = STRBUF_INIT;
	int ret = -1;

	if (fw_user_workloads_load(&o->user, &err)) {
		fprintf(stderr, "foliowatch-collect run: %s\n", err.buf);
		ret = 1;
	}
	for (int i = 0; i < o->user.n; i++)
		if (o->user.def[i].icount)
			strbuf_addf(&o->icount_user, "%s%s", o->icount_user.len ? "," : "", o->user.def[i].name);
	strbuf_release(&err);
	return ret;
}

/* --workloads (the built-ins and each --workload-dir's by default) and --profile: -1 ok, else the usage error. */
static int check_workloads(struct run_opts *o, const struct fw_usage *u)
{
	int ret = load_workload_dirs(o);

	if (ret != -1)
		return ret;
	if (!o->workloads_given && o->user.n) {
		fw_user_workloads_default(&o->user, &o->default_workloads);
		o->workloads = o->default_workloads.buf;
	}
	if (!fw_plain_list(o->workloads))
		return fw_usage_error(u, "--workloads must be names (a-z, 0-9, '_', '-') separated by ',', not '%s'",
				      o->workloads);
	if (!fw_plain_list(o->profile))
		return fw_usage_error(u, "--profile must be a name (a-z, 0-9, '_', '-'), not '%s'", o->profile);
	return -1;
}

/* -1: go on; else the exit code (help printed, or a usage error named). */
static int parse_args(int argc, char **argv, struct run_opts *o)
{
	static const char *const accels[] = { "plan", "auto", "kvm", "tcg", "icount", NULL };
	const struct fw_usage *u = &run_usage;
	struct fw_getopt g = FW_GETOPT_INIT(u);
	int opt, bad = 0;

	o->workloads = "split,mthp,lazyfree,filemap";
	o->profile = "quick";
	o->accel = "plan";
	o->rounds = 2;
	o->boots = 3;
	o->interleave = 1;
	o->budget = "45m";
	o->max_looks = 4;
	o->max_boots = 24;
	o->profile_boots = 0;
	o->vcpus = 0; /* decided with the accelerator: fw_default_vcpus() */
	o->memory_mib = 2048;
	o->revision = 1;
	o->timeout = 900;
	o->shard = "1/1";
	while (!bad && (opt = fw_getopt(&g, argc, argv)) != -1) {
		switch (opt) {
		case 'S': o->series = optarg; break;
		case 't': o->tree = optarg; break;
		case 'r': o->range = optarg; break;
		case 'O': o->only = optarg; break;
		case 'b': o->base = optarg; break;
		case 'm': o->mbox = optarg; break;
		case 'w': o->workloads = optarg; o->workloads_given = 1; break;
		case 'u':
			if (fw_user_workloads_queue(&o->user, optarg))
				bad = fw_usage_error(u, "more than %d --workload-dir", FW_WL_DIRS_MAX);
			break;
		case 'p': o->profile = optarg; break;
		case 'R': bad = fw_opt_int(u, "rounds", optarg, 1, 1000, &o->rounds); break;
		case 'B': bad = fw_opt_int(u, "boots", optarg, 1, 1000, &o->boots); break;
		case 'i': o->interleave = 1; break;
		case 'I': o->interleave = 0; break;
		case 'J': bad = fw_opt_int(u, "parallel", optarg, 1, FW_LOCK_MAX_SLOTS, &o->parallel); break;
		case 'G': o->budget = optarg; break;
		case 'K': bad = fw_opt_int(u, "max-looks", optarg, 1, 1000, &o->max_looks); break;
		case 'N': bad = fw_opt_int(u, "max-boots", optarg, 1, 100000, &o->max_boots); break;
		case 'D':
			o->decide_metric = optarg;
			if (!fw_metric_id_ok(optarg))
				bad = fw_usage_error(u, "--decide-metric must be workload/variant/metric, not '%s'", optarg);
			break;
		case 'L': bad = fw_opt_double(u, "floor-alpha", optarg, 0, 0.5, 1, &o->floor_alpha); break;
		case 'a':
			o->accel = optarg;
			bad = fw_opt_choice(u, "accel", optarg, accels);
			break;
		case 'j': bad = fw_opt_int(u, "jobs", optarg, 1, 1024, &o->jobs); break;
		case 'd': o->db = optarg; break;
		case 'P': o->post_url = optarg; break;
		case 'T': o->token_file = optarg; break;
		case 'H': o->host = optarg; break;
		case 'o': o->origin = optarg; break;
		case 's': o->shard = optarg; break;
		case 'c': o->cache = optarg; break;
		case 'f': o->fragment = optarg; break;
		case 'A': o->append = optarg; break;
		case 'x': bad = fw_opt_double(u, "timeout", optarg, 0, 86400, 1, &o->timeout); break;
		case 'e': bad = fw_opt_int(u, "profile-boots", optarg, 0, 1000, &o->profile_boots); break;
		case 'E': o->no_profile = 1; break;
		case 'v': bad = fw_opt_int(u, "vcpus", optarg, 1, 256, &o->vcpus); break;
		case 'M': bad = fw_opt_int(u, "memory", optarg, 64, 1 << 20, &o->memory_mib); break;
		case 'V': bad = fw_opt_int(u, "revision", optarg, 1, 1000000, &o->revision); break;
		case 'F': bad = fw_opt_int(u, "first-position", optarg, 0, 90000, &o->first_position); break;
		case 'W': o->watched = 1; break;
		case 'q': o->quiet = 1; break;
		case 'n': o->no_report = 1; break;
		default: return g.exit;
		}
	}
	if (bad)
		return 2;
	/* one message per condition: the first that fails */
	if (optind != argc)
		return fw_usage_error(u, "unexpected argument '%s'", argv[optind]);
	if (!o->series)
		return fw_usage_error(u, "--series NAME is required (the name reports and pages show)");
	if (!*o->series)
		return fw_usage_error(u, "--series must not be empty");
	if (!o->range && !o->mbox)
		return fw_usage_error(u, "what to measure: give --range BASE..HEAD or --mbox FILE");
	if (o->range && o->mbox)
		return fw_usage_error(u, "--range and --mbox exclude each other: give one of them");
	if (o->only && !o->range)
		return fw_usage_error(u, "--only goes with --range (it picks commits of the range)");
	if (o->range && o->base)
		return fw_usage_error(u, "--base goes with --mbox (a --range names its own base)");
	if ((bad = check_workloads(o, u)) != -1)
		return bad;
	if (o->post_url && o->db)
		return fw_usage_error(u, "--post and --db exclude each other: results go to one place");
	if (o->post_url && !o->token_file)
		return fw_usage_error(u, "--post needs --token-file FILE (from 'foliowatch-server token add')");
	if (!o->post_url && o->token_file)
		return fw_usage_error(u, "--token-file goes with --post URL");
	{
		char why[200];
		if (fw_budget_parse(o->budget, &o->bud, why, sizeof(why)))
			return fw_usage_error(u, "%s", why);
	}
	if (o->max_boots < o->boots)
		return fw_usage_error(u, "--max-boots %d is below --boots %d: the first round would not fit",
				      o->max_boots, o->boots);
	if (!o->post_url && !o->db)
		o->db = FW_DB_DEFAULT;
	if (!o->jobs)
		o->jobs = (int)sysconf(_SC_NPROCESSORS_ONLN);
	return -1;
}

static double fw_now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Everything the boots of one run share. */
struct run_ctx {
	const struct run_opts *o;
	const struct fw_patchset *s;
	struct fw_built *b;
	const struct fw_hostfacts *host;
	const struct post_opts *po;
	struct progress *pr;
	sqlite3 *db;          /* the documents' store; NULL with --post */
	sqlite3 *decide_db;   /* what the looks read: db, or this host's own documents (--post) */
	const char *archive, *work, *tree_name;
	struct fw_accel_group groups[FW_ACCEL_GROUPS];
	int ngroups, vcpus[FW_ACCEL_GROUPS];
	int shard, shards;
	int parallel;         /* boots at once (--parallel, or what the host's CPUs hold) */
	int *next_boot;       /* per commit x group: the first boot index an added boot may take */
	double first_start;   /* when the first boot started (0: none yet) */
	double last_end;      /* when the last document was delivered */
	double boot_seconds;  /* the boots' own durations, summed (their mean judges the budget) */
	int started, booted, measured, skipped, failed, out_of_budget;
};

/* One boot from its claim to its delivery (boot-pool.h). */
struct boot_state {
	struct boot_job job;
	struct fw_rundoc_facts f;
	struct strbuf bootdir, err;
	cJSON *doc;
	enum fw_boot_status status;
	char reason[256];
	double seconds;
};

struct boot_batch {
	struct run_ctx *x;
	struct boot_state *st;
};

/* The run id a boot would get (it does not depend on what the boot gives): 0, or -1 said. */
static int run_id_for(struct fw_rundoc_facts *f, int boot, char *rid, size_t n)
{
	struct fw_error e;
	cJSON *probe;
	const char *id;

	f->boot_index = boot;
	probe = fw_rundoc_not_run(f, &e);
	id = probe ? cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(probe, "run_id")) : NULL;
	if (id)
		snprintf(rid, n, "%s", id);
	else /* identity facts that no document can carry: say so before spending a boot */
		fprintf(stderr, "run: commit %.12s cannot be recorded (%s: %s); skipped\n", f->commit_sha, e.field,
			e.detail);
	cJSON_Delete(probe);
	return id ? 0 : -1;
}

/* May one more boot start? Wall time from the first boot, plus a mean boot, within the budget. */
static int budget_allows(const struct run_ctx *x)
{
	double elapsed = x->first_start > 0 ? fw_now_s() - x->first_start : 0;

	return fw_budget_allows(&x->o->bud, elapsed, x->booted ? x->boot_seconds / x->booted : 0, x->started);
}

/*
 * Under the pool's mutex: does job i boot? Not when its commit did not
 * build, when it is measured already (a resumed run) or when the budget does
 * not allow it (then out_of_budget is set). A job without a boot index takes
 * the first of its commit's indices in this shard that no stored boot has.
 */
static int claim_boot(void *ctx, int i)
{
	struct boot_batch *bb = ctx;
	struct run_ctx *x = bb->x;
	struct boot_state *st = &bb->st[i];
	const struct boot_job *job = &st->job;
	const struct fw_patchset_commit *c = &x->s->commits[job->commit];
	struct fw_built *bc = &x->b[job->commit];
	struct fw_rundoc_facts *f = &st->f;
	int *next = &x->next_boot[job->commit * FW_ACCEL_GROUPS + job->group], boot = job->boot;
	char rid[200];

	if (!bc->ok) {
		progress_boot_done(x->pr, 0);
		return 0;
	}
	fill_identity(f, x->o, x->s, c, x->tree_name);
	f->vcpus = x->vcpus[job->group];
	f->build_seconds = bc->kb.reused ? -1 : bc->kb.seconds;
	f->kernel_version = bc->kf.version;
	f->config = bc->kf.config.len ? bc->kf.config.buf : NULL;
	f->config_hash = bc->kf.config_hash;
	f->compiler = bc->kf.compiler;
	f->host = x->host;
	f->accel = fw_accel_name(x->groups[job->group].accel);
	f->workloads = job->workloads;
	f->seq_look = job->look;
	f->seq_max_looks = job->look ? x->o->max_looks : 0;
	for (;;) {
		if (run_id_for(f, boot < 0 ? *next : boot, rid, sizeof(rid))) {
			x->failed++;
			progress_boot_done(x->pr, 0);
			return 0;
		}
		if (!already_measured(x->db, x->archive, rid))
			break;
		if (boot >= 0) {
			x->skipped++;
			progress_boot_done(x->pr, 0);
			return 0;
		}
		*next += x->shards;
	}
	if (!budget_allows(x)) {
		x->out_of_budget = 1;
		progress_boot_done(x->pr, 0);
		return 0;
	}
	if (boot < 0)
		*next += x->shards;
	if (!x->started++)
		x->first_start = fw_now_s();
	f->parallel = x->started - x->booted; /* this one and those still running */
	progress_step(x->pr, "boot: commit %d/%d %.12s boot %d (%s, %s)%s", job->commit + 1, x->s->nr, c->sha,
		      f->boot_index, f->accel, job->workloads,
		      job->profile_only ? " (profile only: a row was decided)"
		      : job->look > 1 ? " (added: still unsure)" : "");
	return 1;
}

/* Unlocked, several at once: one boot in a fresh folder (another boot never shares its files). */
static void work_boot(void *ctx, int i)
{
	struct boot_batch *bb = ctx;
	struct run_ctx *x = bb->x;
	struct boot_state *st = &bb->st[i];
	struct fw_measure m = { 0 };
	double t0 = fw_now_s();

	strbuf_addf(&st->bootdir, "%s/boot-XXXXXX", x->work);
	if (!mkdtemp(st->bootdir.buf)) {
		strbuf_addf(&st->err, "cannot create a work folder in %s: %s", x->work, strerror(errno));
		strbuf_reset(&st->bootdir);
		return;
	}
	m.kernel = x->b[st->job.commit].kb.bzimage.buf;
	m.workdir = st->bootdir.buf;
	m.workloads = st->job.workloads;
	m.profile = x->o->profile;
	m.append = x->o->append;
	m.rounds = st->job.profile_only ? 0 : x->o->rounds;
	m.vcpus = st->f.vcpus;
	m.memory_mib = x->o->memory_mib;
	m.virtfs = 0;  /* no workload reads the host over 9p (issue 27): one device less, nothing to wait on */
	m.timeout = x->o->timeout;
	m.fprofile = st->job.profile_only || (!x->o->no_profile && st->f.boot_index < x->o->profile_boots);
	m.accel = x->groups[st->job.group].accel;
	m.user = x->o->user.def;
	m.user_hash = (const char (*)[65])x->o->user.hash;
	m.nuser = x->o->user.n;
	m.facts = &st->f;
	st->doc = fw_measure_boot(&m, &st->err);
	st->status = m.status;
	snprintf(st->reason, sizeof(st->reason), "%s", m.reason);
	st->seconds = fw_now_s() - t0;
}

/* Under the mutex: counts the boot and delivers its document. */
static void finish_boot(void *ctx, int i)
{
	struct boot_batch *bb = ctx;
	struct run_ctx *x = bb->x;
	struct boot_state *st = &bb->st[i];
	const char *sha = x->s->commits[st->job.commit].sha;

	x->boot_seconds += st->seconds;
	x->booted++;
	if (!st->doc) {
		fprintf(stderr, "run: boot of %.12s failed to run: %s\n", sha, st->err.buf);
		x->failed++;
		progress_boot_done(x->pr, 0);
		return;
	}
	progress_note(x->pr, "commit %.12s boot %d: %s (%s) in %.0f s", sha, st->f.boot_index,
		      fw_boot_status_name(st->status), st->reason, st->seconds);
	if (st->status == FW_BOOT_OK)
		remove_tree(st->bootdir.buf); /* a failed boot's console and channel stay for a person */
	if (deliver(x->o, x->db, x->decide_db, x->archive, st->doc, x->po))
		x->failed++;
	else
		x->measured++;
	x->last_end = fw_now_s();
	progress_boot_done(x->pr, 1);
}

static int budget_spent(void *ctx)
{
	return ((struct boot_batch *)ctx)->x->out_of_budget;
}

static int commit_of_boot(void *ctx, int i)
{
	return ((struct boot_batch *)ctx)->st[i].job.commit;
}

/* Boots a list of jobs, x->parallel at once. */
static void run_jobs(struct run_ctx *x, const struct boot_job *jobs, int n)
{
	static const struct boot_pool_ops ops = { claim_boot, work_boot, finish_boot, budget_spent, commit_of_boot };
	struct boot_batch bb = { x, calloc((size_t)n + 1, sizeof(struct boot_state)) };

	if (!bb.st)
		abort();
	for (int i = 0; i < n; i++) {
		bb.st[i].job = jobs[i];
		strbuf_init(&bb.st[i].bootdir, 0);
		strbuf_init(&bb.st[i].err, 0);
	}
	boot_pool_run(x->parallel, n, &ops, &bb);
	for (int i = 0; i < n; i++) {
		cJSON_Delete(bb.st[i].doc);
		strbuf_release(&bb.st[i].bootdir);
		strbuf_release(&bb.st[i].err);
	}
	free(bb.st);
}

/* The first round: --boots per commit for every accelerator group, in plan order. */
static void first_round(struct run_ctx *x)
{
	struct plan_job *pj = calloc((size_t)(x->s->nr * x->o->boots), sizeof(*pj));
	struct plan_opts popt = { x->s->nr, x->o->boots, x->o->interleave, x->shard, x->shards };
	struct boot_job *jobs;
	int n, nj = 0;

	if (!pj)
		abort();
	n = plan_jobs(&popt, pj);
	if (!(jobs = calloc((size_t)n * (size_t)x->ngroups + 1, sizeof(*jobs))))
		abort();
	progress_begin_boots(x->pr, n * x->ngroups);
	for (int j = 0; j < n; j++)
		for (int g = 0; g < x->ngroups; g++) {
			struct boot_job job = { pj[j].commit, pj[j].boot, g, "", x->o->bud.none ? 0 : 1, 0 };
			snprintf(job.workloads, sizeof(job.workloads), "%s", x->groups[g].workloads.buf);
			jobs[nj++] = job;
		}
	run_jobs(x, jobs, nj);
	free(jobs);
	free(pj);
}

/*
 * The analysis' options of this run's own decisions (its looks and what to
 * profile). At another floor alpha than the pages' nothing is cached: the
 * cache holds one analysis a series, and it is the pages' (the looks read
 * the database the pages do unless --post).
 */
static void decide_opts(const struct run_opts *o, struct fw_analysis_opts *ao)
{
	fw_analysis_opts_init(ao);
	if (o->floor_alpha > 0 && o->floor_alpha != ao->floor_alpha) {
		ao->floor_alpha = o->floor_alpha;
		ao->use_cache = 0;
	}
}

/*
 * Looks 2..K of the adaptive design: ask the analysis (from this host's own
 * documents) which rows are still unsure, boot what they need, ask again.
 * Stops when nothing is unsure, at the last planned look, when the budget is
 * spent, or when a look measured nothing (boots that keep failing).
 */
static void later_looks(struct run_ctx *x)
{
	struct fw_seq_opts seq = { x->o->max_looks, x->o->max_boots, x->o->decide_metric };
	struct fw_analysis_opts ao;

	decide_opts(x->o, &ao);
	while (!x->o->bud.none && !x->out_of_budget) {
		struct strbuf err = STRBUF_INIT;
		struct boot_job *jobs = NULL;
		struct fw_undecided *u = NULL;
		int look, n, before = x->measured;

		if (fw_analysis_undecided_of(x->decide_db, x->o->series, x->o->revision, &ao, &seq, &u, &err)) {
			fprintf(stderr, "run: cannot tell which rows are unsure: %s\n", err.buf);
			strbuf_release(&err);
			return;
		}
		strbuf_release(&err);
		look = u->look + 1;
		n = u->final || look > x->o->max_looks
			    ? 0
			    : fw_adaptive_jobs(u, x->s, x->host->host, x->groups, x->ngroups, look, &jobs);
		if (n)
			progress_note(x->pr, "look %d of %d: %d row(s) still unsure, %d more boot(s)", look,
				      x->o->max_looks, (int)u->nrows, n);
		fw_undecided_free(u);
		progress_more_boots(x->pr, n);
		run_jobs(x, jobs, n);
		free(jobs);
		if (!n || x->measured == before)
			return;
	}
}

/*
 * Profile-only boots where a verdict needs one (profile-plan.h), after the
 * deciding boots and within the same budget.
 */
static void profile_flagged(struct run_ctx *x)
{
	struct fw_analysis_opts ao;
	struct strbuf err = STRBUF_INIT;
	struct boot_job *jobs = NULL;
	struct fw_an *a = NULL;
	int n, flagged;

	if (x->o->no_profile || x->o->profile_boots > 0 || x->out_of_budget || !x->decide_db)
		return;
	decide_opts(x->o, &ao);
	if (fw_analysis_series(x->decide_db, x->o->series, x->o->revision, &ao, &a, &err)) {
		fprintf(stderr, "run: cannot tell which rows to profile: %s\n", err.buf);
		strbuf_release(&err);
		return;
	}
	n = fw_profile_jobs(a, x->s, x->host->host, x->groups, x->ngroups, &jobs, &flagged);
	fw_an_free(a);
	if (!n)
		progress_note(x->pr, "profiling: no row decided regression or improvement here, nothing to profile");
	else
		progress_note(x->pr, "profiling: %d row(s) decided regression or improvement, %d profile-only boot(s)",
			      flagged, n);
	progress_more_boots(x->pr, n);
	run_jobs(x, jobs, n);
	free(jobs);
	strbuf_release(&err);
}

/*
 * With --post the looks read a local database of this host's own documents
 * (each host decides alone; the combined verdict stays the server's),
 * filled from the archive so that a resumed run knows its earlier boots.
 */
static sqlite3 *open_decide_db(const char *archive, struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	sqlite3 *db;
	glob_t g = { 0 };

	strbuf_addf(&path, "%s/decide.db", archive);
	db = fw_db_open(path.buf, err);
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/*.json", archive);
	if (db && glob(path.buf, 0, NULL, &g) == 0)
		for (size_t i = 0; i < g.gl_pathc; i++) {
			struct fw_ingest_info info;
			strbuf_reset(&text);
			if (strbuf_read_file(&text, g.gl_pathv[i], 64 << 20) == 0)
				fw_ingest(db, text.buf, text.len, &info);
		}
	globfree(&g);
	strbuf_release(&path);
	strbuf_release(&text);
	return db;
}

/* The accelerator of each workload (accel-plan.h), decided with the first kernel that built. */
static int plan_accels(struct run_ctx *x)
{
	int kvm_works = 0;

	for (int i = 0; i < x->s->nr; i++)
		if (x->b[i].ok) {
			if (!strcmp(x->o->accel, "plan") || !strcmp(x->o->accel, "auto"))
				kvm_works = fw_probe_auto(x->b[i].kb.bzimage.buf) == FW_ACCEL_KVM;
			break;
		}
	x->ngroups = fw_accel_plan(x->o->workloads, x->o->accel, kvm_works, x->o->icount_user.buf, x->groups);
	x->parallel = x->o->parallel;
	for (int g = 0; g < x->ngroups; g++) {
		int par;
		x->vcpus[g] = x->o->vcpus ? x->o->vcpus : fw_default_vcpus(x->groups[g].accel, fw_usable_cpus());
		par = fw_default_parallel(x->groups[g].accel, x->vcpus[g], fw_usable_cpus());
		if (!x->o->parallel && par > x->parallel)
			x->parallel = par;
		progress_note(x->pr, "%s: %s (%d vCPU%s, %d boot%s at once)", fw_accel_name(x->groups[g].accel),
			      x->groups[g].workloads.buf, x->vcpus[g], x->vcpus[g] == 1 ? "" : "s",
			      x->o->parallel ? x->o->parallel : par, (x->o->parallel ? x->o->parallel : par) == 1 ? "" : "s");
	}
	if (x->parallel > fw_lock_slots())
		progress_note(x->pr, "--parallel %d: at most %d boot(s) run at once here (one per host CPU)", x->parallel,
			      fw_lock_slots());
	x->next_boot = calloc((size_t)x->s->nr * FW_ACCEL_GROUPS, sizeof(*x->next_boot));
	if (!x->next_boot)
		abort();
	/* added boots take indices after the first round's, in this shard's residue */
	for (int i = 0; i < x->s->nr * FW_ACCEL_GROUPS; i++) {
		int first = x->o->boots;
		while (first % x->shards != x->shard - 1)
			first++;
		x->next_boot[i] = first;
	}
	return x->ngroups;
}

/* Boots of the whole run: the first round, then the looks; a summary line. */
static void measure_all(struct run_ctx *x)
{
	for (int i = 0; i < x->s->nr; i++)
		if (!x->b[i].ok && record_failed_build(x->o, x->db, x->decide_db, x->archive, x->po, x->s, i, &x->b[i],
						       x->host, fw_accel_name(x->groups[0].accel), x->vcpus[0], x->tree_name))
			x->failed++;
	first_round(x);
	later_looks(x);
	profile_flagged(x);
	progress_note(x->pr, "done: %d boot(s) measured in %.0f s (first boot to last document, %d at once), "
		      "%d already there, %d failed%s; documents in %s",
		      x->measured, x->last_end > x->first_start ? x->last_end - x->first_start : 0, x->parallel,
		      x->skipped, x->failed,
		      x->out_of_budget ? "; the budget is spent (rows still unsure say what they need)" : "",
		      x->archive);
}

/* The tree, the checkout folder and the series; 0 or -1 (said). */
static int prepare_series(const struct run_opts *o, const char *cache, struct progress *pr, struct fw_patchset *s,
			  struct strbuf *tree, struct strbuf *checkout, struct strbuf *head_ref, int *default_tree)
{
	struct strbuf err = STRBUF_INIT, name = STRBUF_INIT;
	int ret = -1;

	/* The tree: the user's, or Debian's linux-source-6.12 unpacked once into the cache. */
	if (o->tree) {
		char *real = realpath(o->tree, NULL), *dflt;
		if (!real) {
			fprintf(stderr, "run: --tree %s: %s\n", o->tree, strerror(errno));
			goto cleanup;
		}
		strbuf_addstr(tree, real);
		free(real);
		/* --tree naming the cached default tree is the default tree (same build folder) */
		struct strbuf d = STRBUF_INIT;
		strbuf_addf(&d, "%s/src/linux-source-6.12", cache);
		dflt = realpath(d.buf, NULL);
		*default_tree = dflt && !strcmp(dflt, tree->buf);
		free(dflt);
		strbuf_release(&d);
	} else {
		progress_step(pr, "preparing the default tree (linux-source-6.12)");
		if (fw_kernel_tree_default(cache, NULL, tree, &err)) {
			fprintf(stderr, "run: %s\n", err.buf);
			goto cleanup;
		}
		*default_tree = 1;
	}
	/*
	 * Where commits are checked out and built. The default tree is ours: build
	 * in it, with the build folder every test and `kernel` share, so a series on
	 * it rebuilds only the files its patches touch. A user's tree gets a worktree
	 * of its own in the cache (their checkout is never touched) and keeps its
	 * build folder across commits and series.
	 */
	if (*default_tree) {
		const char *argv_ref[] = { "git", "symbolic-ref", "-q", "HEAD", NULL };
		strbuf_addstr(checkout, tree->buf);
		if (runcmd_capture(argv_ref, tree->buf, head_ref))
			strbuf_reset(head_ref);
	} else {
		strbuf_addf(checkout, "%s/worktrees/", cache);
		safe_name(checkout, tree->buf);
	}
	safe_name(&name, o->series);
	if (o->range) {
		progress_step(pr, "resolving %s", o->range);
		if (patchset_from_range(s, tree->buf, o->range, &err) || (o->only && patchset_keep_only(s, o->only, &err))) {
			fprintf(stderr, "run: %s\n", err.buf);
			goto cleanup;
		}
	} else {
		struct strbuf amdir = STRBUF_INIT;
		strbuf_addf(&amdir, "%s/am/%s", cache, name.buf);
		progress_step(pr, "applying %s with git am", o->mbox);
		/*
		 * The default tree's base is its branch, not HEAD: another collector
		 * may hold it detached at a patch between two of its builds.
		 */
		const char *base = o->base ? o->base : !*default_tree ? "HEAD" : head_ref->len ? head_ref->buf : "master";
		int rc = patchset_from_mbox(s, tree->buf, base, o->mbox, amdir.buf, &err);
		strbuf_release(&amdir);
		if (rc) {
			fprintf(stderr, "run: %s; nothing measured\n", err.buf);
			goto cleanup;
		}
	}
	if (o->only)
		progress_note(pr, "series %s: base %.12s and %d of the range's commit(s) (--only)", o->series, s->base,
			      s->nr - 1);
	else
		progress_note(pr, "series %s: base %.12s and %d patch(es)", o->series, s->base, s->nr - 1);
	ret = 0;
cleanup:
	strbuf_release(&err);
	strbuf_release(&name);
	return ret;
}

/* -1: go on; else the usage error's exit code (said). */
static int parse_shard(const struct run_opts *o, struct run_ctx *x)
{
	if (plan_parse_shard(o->shard, &x->shard, &x->shards))
		return fw_usage_error(&run_usage, "--shard must be K/N with 1 <= K <= N, not '%s'", o->shard);
	return -1;
}

static void release_opts(struct run_opts *o)
{
	fw_user_workloads_release(&o->user);
	strbuf_release(&o->default_workloads);
	strbuf_release(&o->icount_user);
}

int cmd_run(int argc, char **argv)
{
	struct run_opts o = { 0 };
	struct strbuf cache = STRBUF_INIT, tree = STRBUF_INIT, checkout = STRBUF_INIT, err = STRBUF_INIT,
		      fragment = STRBUF_INIT, archive = STRBUF_INIT, name = STRBUF_INIT, work = STRBUF_INIT,
		      spool = STRBUF_INIT, head_ref = STRBUF_INIT;
	struct fw_patchset s = { 0 };
	struct fw_built *b = NULL;
	struct fw_hostfacts host;
	struct post_opts po = { 0 };
	struct progress pr;
	struct run_ctx x = { 0 };
	int ret = 1, default_tree = 0;

	if ((ret = parse_args(argc, argv, &o)) != -1 || (ret = parse_shard(&o, &x)) != -1)
		goto cleanup;
	ret = 1;
	progress_init(&pr, o.quiet);
	if (o.cache)
		strbuf_addstr(&cache, o.cache);
	else
		fw_kcache_root(&cache);
	if (o.fragment)
		strbuf_addstr(&fragment, o.fragment);
	else
		fw_default_fragment(&fragment);
	if (prepare_series(&o, cache.buf, &pr, &s, &tree, &checkout, &head_ref, &default_tree))
		goto cleanup;
	{
		int pruned = fw_prune_cache(cache.buf, FW_PRUNE_DAYS, FW_PRUNE_KEEP);
		if (pruned > 0)
			progress_note(&pr, "pruned %d kernel/log folder(s) unused for %d days", pruned, FW_PRUNE_DAYS);
	}
	archive_name(&name, o.series, o.host);
	strbuf_addf(&archive, "%s/runs/%s", cache.buf, name.buf);
	strbuf_addf(&work, "%s/work", archive.buf);
	if (fw_mkdirs(archive.buf) || fw_mkdirs(work.buf)) {
		fprintf(stderr, "run: cannot create %s: %s\n", archive.buf, strerror(errno));
		goto cleanup;
	}
	if (o.db && !(x.db = fw_db_open(o.db, &err))) {
		fprintf(stderr, "run: %s\n", err.buf);
		goto cleanup;
	}
	if (o.post_url) {
		strbuf_addf(&spool, "%s/spool", cache.buf);
		po.url = o.post_url;
		po.token_file = o.token_file;
		po.spool_dir = spool.buf;
		po.retries = 4;
		po.backoff_s = 1;
		/* the looks and the profiling read it (profiling also with --budget none) */
		if (!(x.decide_db = open_decide_db(archive.buf, &err))) {
			fprintf(stderr, "run: %s\n", err.buf);
			goto cleanup;
		}
	} else {
		x.decide_db = x.db;
	}

	b = calloc((size_t)s.nr, sizeof(*b));
	if (!b)
		abort();
	/* a run whose kernels were all cached never moved the tree: nothing to restore */
	if (build_all(&o, &s, cache.buf, checkout.buf, fragment.buf, b, &pr) && default_tree && head_ref.len)
		fw_default_tree_restore(tree.buf, head_ref.buf);
	fw_hostfacts_collect(&host, o.host, NULL);
	x.o = &o;
	x.s = &s;
	x.b = b;
	x.host = &host;
	x.po = &po;
	x.pr = &pr;
	x.archive = archive.buf;
	x.work = work.buf;
	x.tree_name = default_tree ? "linux-source-6.12" : tree.buf;
	plan_accels(&x);
	measure_all(&x);
	if (o.post_url && post_complete(&po, o.series, o.revision, &err)) {
		/* not fatal: the server sends held events after its settle time anyway */
		fprintf(stderr, "run: %s\n", err.buf);
		strbuf_reset(&err);
	}
	if (x.db) {
		if (x.decide_db == x.db) /* the looks read the same handle: never close it twice */
			x.decide_db = NULL;
		fw_db_close(x.db);
		x.db = NULL;
	}
	if (!o.no_report && !o.quiet)
		print_report(&o);
	ret = x.failed ? 1 : 0;
cleanup:
	if (b)
		for (int i = 0; i < s.nr; i++)
			fw_built_release(&b[i]);
	free(b);
	free(x.next_boot);
	fw_accel_plan_release(x.groups, x.ngroups);
	patchset_release(&s);
	if (x.decide_db != x.db)
		fw_db_close(x.decide_db);
	fw_db_close(x.db);
	strbuf_release(&cache);
	strbuf_release(&tree);
	strbuf_release(&checkout);
	strbuf_release(&err);
	strbuf_release(&fragment);
	strbuf_release(&archive);
	strbuf_release(&name);
	strbuf_release(&work);
	strbuf_release(&spool);
	strbuf_release(&head_ref);
	release_opts(&o);
	return ret;
}
