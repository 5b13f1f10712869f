/*
 * `foliowatch-collect boot`: one measured boot of one kernel.
 * initramfs -> lock -> QEMU -> parse channel + console -> run document
 * (validated) -> --out file (temp + rename) and/or --db (fw_ingest).
 * Exit: 0 boot ok, 3 document stored but boot status not ok, 1 failure, 2 usage.
 */
#include "cmdopt.h"
#include "commands.h"
#include "fw-db.h"
#include "ingest.h"
#include "lock.h"
#include "measure.h"
#include "workload-dirs.h"
#include "run-doc-build.h"
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct boot_opts {
	const char *kernel, *series, *commit, *workloads, *profile, *accel, *host, *out, *db;
	const char *init, *append, *workdir, *tree, *origin;
	int rounds, vcpus, memory_mib, boot_index, virtfs, keep, fprofile, workloads_given;
	double timeout;
	struct fw_user_workloads user;
	struct strbuf default_workloads;
};

static const struct fw_option boot_options[] = {
	{ "kernel", 0, required_argument, 'k', "bzImage", "required", "the kernel image to boot" },
	{ "workloads", 0, required_argument, 'w', "LIST", "split,mthp,lazyfree,filemap and each --workload-dir's",
	  "comma-separated workloads" },
	{ "workload-dir", 0, required_argument, 'u', "DIR", "none",
	  "add your own workload (kernel/workloads/README.md); repeatable" },
	{ "profile", 0, required_argument, 'p', "NAME", "quick", "workload parameters: quick or seed" },
	{ "rounds", 0, required_argument, 'r', "N", "2", "samples per workload (1..1000)" },
	{ "accel", 0, required_argument, 'a', "MODE", "auto", "auto, kvm, tcg or icount (auto: kvm if a test boot works)" },
	{ "timeout", 0, required_argument, 'T', "SECONDS", "900",
	  "kill the guest after this long (--function-profile adds\n10 x " FW_PROFILE_TIMEOUT_S_STR " s per workload)" },
	{ "function-profile", 0, no_argument, 'F', NULL, "off",
	  "end with the profiling round: every workload once more,\nuntimed, under the ftrace function profiler" },
	{ "vcpus", 0, required_argument, 'v', "N", "the usable CPUs under kvm (at most 64), 2 under tcg, 1 under icount",
	  "guest CPUs (1..256)" },
	{ "memory", 0, required_argument, 'M', "MiB", "2048", "guest memory (64..1048576)" },
	{ "append", 0, required_argument, 'A', "ARGS", "none", "more kernel command line arguments" },
	{ "init", 0, required_argument, 'i', "PATH", "guest/fw-init beside this program", "the guest's init program" },
	{ "virtfs", 0, no_argument, '9', NULL, "off",
	  "share the host's / read-only over 9p (mount tag host), for an --init of your own;\nno built-in workload uses it (filemap's tools are packed into the initramfs)" },
	{ "no-virtfs", 0, no_argument, 'V', NULL, "off", "no 9p share: what boot does without --virtfs (kept for older scripts)" },
	{ .help = "Where the run document goes (neither: printed on stdout):" },
	{ "out", 0, required_argument, 'o', "FILE", "none", "write it to FILE" },
	{ "db", 0, required_argument, 'd', "FILE", "none", "store it in the database (created if missing)" },
	{ .help = "What the document says it measured:" },
	{ "series", 0, required_argument, 's', "NAME", "adhoc-<kernel version>", "series name (with --commit)" },
	{ "commit", 0, required_argument, 'c', "SHA", "the image's hash", "commit (with --series)" },
	{ "host", 0, required_argument, 'H', "LABEL", "the host name", "host label in the environment" },
	{ "boot-index", 0, required_argument, 'b', "N", "0", "which boot of this kernel this is, 0..99999 (part of the run id)" },
	{ "tree", 0, required_argument, 't', "NAME", "local", "tree name" },
	{ "origin", 0, required_argument, 'O', "NAME", "none", "who or what produced the run" },
	{ .help = "Debugging:" },
	{ "workdir", 0, required_argument, 'W', "DIR", "a temp folder", "keep console, channel and initramfs here" },
	{ "keep", 0, no_argument, 'K', NULL, "off", "keep the temp folder" },
	{ 0 },
};

static const struct fw_usage boot_usage = { "foliowatch-collect", "boot", "--kernel bzImage [options]",
	"One measured boot: builds the initramfs, boots the kernel under QEMU, runs\n"
	"the workloads and writes a validated run document.\n"
	"Exit: 0 boot ok, 3 document written but the boot failed, 1 error, 2 usage error.",
	boot_options, "--kernel ~/.cache/foliowatch/kernels/6.12-abc/bzImage --accel tcg --workloads split\n"
	"--kernel bzImage --series my-series --commit 1a2b3c --db foliowatch.db" };


static int rm_entry(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)flag;
	(void)f;
	return remove(p);
}

/* -1: go on; else the exit code (help printed, or a usage error named). */
static int parse_boot_args(int argc, char **argv, struct boot_opts *o)
{
	static const char *const accels[] = { "auto", "kvm", "tcg", "icount", NULL };
	struct fw_getopt g = FW_GETOPT_INIT(&boot_usage);
	struct strbuf err = STRBUF_INIT;
	int opt, bad = 0;

	o->workloads = "split,mthp,lazyfree,filemap";
	o->profile = "quick";
	o->accel = "auto";
	o->rounds = 2;
	o->vcpus = 0; /* decided with the accelerator: fw_default_vcpus() */
	o->memory_mib = 2048;
	o->timeout = 900;
	o->virtfs = 0;
	while (!bad && (opt = fw_getopt(&g, argc, argv)) != -1) {
		switch (opt) {
		case 'k': o->kernel = optarg; break;
		case 's': o->series = optarg; break;
		case 'c': o->commit = optarg; break;
		case 'w': o->workloads = optarg; o->workloads_given = 1; break;
		case 'u':
			if (fw_user_workloads_queue(&o->user, optarg))
				bad = fw_usage_error(&boot_usage, "more than %d --workload-dir", FW_WL_DIRS_MAX);
			break;
		case 'p': o->profile = optarg; break;
		case 'a':
			o->accel = optarg;
			bad = fw_opt_choice(&boot_usage, "accel", optarg, accels);
			break;
		case 'H': o->host = optarg; break;
		case 'o': o->out = optarg; break;
		case 'd': o->db = optarg; break;
		case 'i': o->init = optarg; break;
		case 'A': o->append = optarg; break;
		case 'W': o->workdir = optarg; break;
		case 't': o->tree = optarg; break;
		case 'O': o->origin = optarg; break;
		case 'r': bad = fw_opt_int(&boot_usage, "rounds", optarg, 1, 1000, &o->rounds); break;
		case 'v': bad = fw_opt_int(&boot_usage, "vcpus", optarg, 1, 256, &o->vcpus); break;
		case 'M': bad = fw_opt_int(&boot_usage, "memory", optarg, 64, 1 << 20, &o->memory_mib); break;
		case 'b': bad = fw_opt_int(&boot_usage, "boot-index", optarg, 0, 99999, &o->boot_index); break;
		case 'T': bad = fw_opt_double(&boot_usage, "timeout", optarg, 0, 86400, 1, &o->timeout); break;
		case 'F': o->fprofile = 1; break;
		case 'V': o->virtfs = 0; break;
		case '9': o->virtfs = 1; break;
		case 'K': o->keep = 1; break;
		default: return g.exit;
		}
	}
	if (bad)
		return 2;
	if (fw_user_workloads_load(&o->user, &err)) {
		fprintf(stderr, "foliowatch-collect boot: %s\n", err.buf);
		strbuf_release(&err);
		return 1;
	}
	if (!o->workloads_given && o->user.n) {
		fw_user_workloads_default(&o->user, &o->default_workloads);
		o->workloads = o->default_workloads.buf;
	}
	/* one message per condition: the first that fails */
	if (optind != argc)
		return fw_usage_error(&boot_usage, "unexpected argument '%s'", argv[optind]);
	if (!o->kernel)
		return fw_usage_error(&boot_usage, "--kernel bzImage is required");
	if (!fw_plain_list(o->workloads))
		return fw_usage_error(&boot_usage, "--workloads must be names (a-z, 0-9, '_', '-') separated by ',', "
				      "not '%s'", o->workloads);
	if (!fw_plain_list(o->profile))
		return fw_usage_error(&boot_usage, "--profile must be a name (a-z, 0-9, '_', '-'), not '%s'", o->profile);
	if (!o->series != !o->commit)
		return fw_usage_error(&boot_usage, "%s needs %s (or give neither)", o->series ? "--series" : "--commit",
				      o->series ? "--commit" : "--series");
	return -1;
}

/* --workdir, or a temp folder (*made set: removed at the end unless --keep). 0 or -1 (said). */
static int make_workdir(const struct boot_opts *o, char *work, size_t n, int *made)
{
	if (o->workdir) {
		snprintf(work, n, "%s", o->workdir);
		if (mkdir(work, 0755) < 0 && errno != EEXIST) {
			fprintf(stderr, "foliowatch-collect boot: cannot create %s: %s\n", work, strerror(errno));
			return -1;
		}
		return 0;
	}
	snprintf(work, n, "%s/fw-boot.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(work)) {
		fprintf(stderr, "foliowatch-collect boot: cannot create a temp dir: %s\n", strerror(errno));
		work[0] = 0;
		return -1;
	}
	*made = 1;
	return 0;
}

/* The document to --out, --db, or stdout. 0 or -1 (said). */
static int emit_doc(const struct boot_opts *o, const cJSON *doc)
{
	struct strbuf err = STRBUF_INIT;
	struct fw_ingest_info info;
	sqlite3 *db = NULL;
	int ret = -1;

	if (o->out && fw_rundoc_write(doc, o->out, &err)) {
		fprintf(stderr, "foliowatch-collect boot: %s\n", err.buf);
		goto cleanup;
	}
	if (o->db) {
		if (!(db = fw_db_open(o->db, &err))) {
			fprintf(stderr, "foliowatch-collect boot: %s\n", err.buf);
			goto cleanup;
		}
		if (fw_ingest_doc(db, doc, &info) != FW_INGEST_STORED && info.status != FW_INGEST_DUPLICATE) {
			fprintf(stderr, "foliowatch-collect boot: ingest %s: %s %s\n",
				fw_ingest_status_name(info.status), info.err.field, info.err.detail);
			goto cleanup;
		}
		fprintf(stderr, "foliowatch-collect boot: run %s %s (%d results, %d samples)\n", info.run_id,
			fw_ingest_status_name(info.status), info.results, info.samples);
	}
	if (!o->out && !o->db) {
		char *text = cJSON_Print(doc);
		if (text)
			printf("%s\n", text);
		free(text);
	}
	ret = 0;
cleanup:
	if (db)
		fw_db_close(db);
	strbuf_release(&err);
	return ret;
}

int cmd_boot(int argc, char **argv)
{
	struct boot_opts o = { .user = FW_USER_WORKLOADS_INIT, .default_workloads = STRBUF_INIT };
	struct fw_kfacts k = { 0 };
	struct fw_hostfacts host;
	struct fw_measure m = { 0 };
	struct fw_rundoc_facts f = { 0 };
	struct strbuf err = STRBUF_INIT, series = STRBUF_INIT;
	char work[4096] = "";
	enum fw_accel accel = FW_ACCEL_TCG;
	cJSON *doc = NULL;
	int ret, made_work = 0, booted = 0;

	if ((ret = parse_boot_args(argc, argv, &o)) != -1)
		goto cleanup;
	ret = 1;
	if (!strcmp(o.accel, "auto"))
		accel = fw_probe_auto(o.kernel);
	else
		fw_accel_parse(o.accel, &accel); /* checked above */
	if (!o.vcpus)
		o.vcpus = fw_default_vcpus(accel, fw_usable_cpus());
	if (fw_kernel_facts(o.kernel, &k))
		goto cleanup;
	fw_hostfacts_collect(&host, o.host, NULL);
	if (make_workdir(&o, work, sizeof(work), &made_work))
		goto cleanup;
	if (o.series) {
		strbuf_addstr(&series, o.series);
	} else {
		/* ad-hoc runs are filed under the kernel version, keyed by the image's hash */
		strbuf_addf(&series, "adhoc-%s", k.version[0] ? k.version : "unknown");
	}
	f.origin = o.origin;
	f.tree_name = o.tree ? o.tree : "local";
	f.series = series.buf;
	f.series_base = k.version[0] ? k.version : "unknown";
	f.revision = 1;
	f.commit_sha = o.commit ? o.commit : k.image_hash;
	f.commit_key = f.commit_sha;
	f.commit_subject = o.commit ? "" : "ad-hoc boot of a kernel image";
	f.commit_author = "";
	f.build_seconds = -1;
	f.kernel_version = k.version;
	f.config = k.config.len ? k.config.buf : NULL;
	f.config_hash = k.config_hash;
	f.compiler = k.compiler;
	f.host = &host;
	f.boot_index = o.boot_index;
	m.kernel = o.kernel;
	m.init = o.init;
	m.workdir = work;
	m.workloads = o.workloads;
	m.profile = o.profile;
	m.append = o.append;
	m.rounds = o.rounds;
	m.vcpus = o.vcpus;
	m.memory_mib = o.memory_mib;
	m.virtfs = o.virtfs;
	m.timeout = o.timeout;
	m.fprofile = o.fprofile;
	m.accel = accel;
	m.user = o.user.def;
	m.user_hash = (const char (*)[65])o.user.hash;
	m.nuser = o.user.n;
	f.workload_content = o.user.content.len ? o.user.content.buf : NULL;
	m.facts = &f;
	fprintf(stderr, "foliowatch-collect boot: %s under %s, workloads %s, profile %s, %d round(s)\n",
		o.kernel, fw_accel_name(accel), o.workloads, o.profile, o.rounds);
	if (!(doc = fw_measure_boot(&m, &err))) {
		fprintf(stderr, "foliowatch-collect boot: %s\n", err.buf);
		goto cleanup;
	}
	booted = 1;
	fprintf(stderr, "foliowatch-collect boot: status %s (%s), %.1f s\n",
		fw_boot_status_name(m.status), m.reason, m.seconds);
	if (emit_doc(&o, doc))
		goto cleanup;
	ret = m.status == FW_BOOT_OK ? 0 : 3;
cleanup:
	if (made_work && !o.keep)
		nftw(work, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	else if (*work && booted)
		fprintf(stderr, "foliowatch-collect boot: console, channel and initramfs kept in %s\n", work);
	cJSON_Delete(doc);
	fw_kfacts_release(&k);
	fw_user_workloads_release(&o.user);
	strbuf_release(&o.default_workloads);
	strbuf_release(&err);
	strbuf_release(&series);
	return ret;
}
