/*
 * `foliowatch-collect boot`: one measured boot of one kernel.
 * initramfs -> lock -> QEMU -> parse channel + console -> run document
 * (validated) -> --out file (temp + rename) and/or --db (fw_ingest).
 * Exit: 0 boot ok, 3 document stored but boot status not ok, 1 failure, 2 usage.
 */
#include "commands.h"
#include "fw-db.h"
#include "ingest.h"
#include "lock.h"
#include "measure.h"
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
	int rounds, vcpus, memory_mib, boot_index, virtfs, keep;
	double timeout;
};

static void usage(void)
{
	fprintf(stderr,
		"usage: foliowatch-collect boot --kernel bzImage [--series S --commit C]\n"
		"       [--workloads split,mthp,lazyfree,filemap] [--profile quick|seed] [--rounds N]\n"
		"       [--accel auto|kvm|tcg|icount] [--timeout S] [--host LABEL] [--out doc.json] [--db FILE]\n"
		"       [--vcpus N] [--memory MiB] [--boot-index N] [--append 'kernel args'] [--init PATH]\n"
		"       [--no-virtfs] [--workdir DIR] [--tree NAME] [--origin NAME]\n");
}


static int rm_entry(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)flag;
	(void)f;
	return remove(p);
}

int cmd_boot(int argc, char **argv)
{
	struct boot_opts o = { 0 };
	struct fw_kfacts k = { 0 };
	struct fw_hostfacts host;
	struct fw_measure m = { 0 };
	struct fw_rundoc_facts f = { 0 };
	struct strbuf err = STRBUF_INIT, series = STRBUF_INIT;
	char work[4096] = "";
	enum fw_accel accel = FW_ACCEL_TCG;
	cJSON *doc = NULL;
	sqlite3 *db = NULL;
	int ret = 1, made_work = 0, booted = 0;

	o.workloads = "split,mthp,lazyfree,filemap";
	o.profile = "quick";
	o.accel = "auto";
	o.rounds = 2;
	o.vcpus = 0; /* decided with the accelerator: fw_default_vcpus() */
	o.memory_mib = 2048;
	o.timeout = 900;
	o.virtfs = 1;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
#define OPT(name, field) if (!strcmp(a, name) && v) { o.field = v; i++; continue; }
#define IOPT(name, field) if (!strcmp(a, name) && v) { o.field = atoi(v); i++; continue; }
		OPT("--kernel", kernel) OPT("--series", series) OPT("--commit", commit)
		OPT("--workloads", workloads) OPT("--profile", profile) OPT("--accel", accel)
		OPT("--host", host) OPT("--out", out) OPT("--db", db) OPT("--init", init)
		OPT("--append", append) OPT("--workdir", workdir) OPT("--tree", tree) OPT("--origin", origin)
		IOPT("--rounds", rounds) IOPT("--vcpus", vcpus) IOPT("--memory", memory_mib)
		IOPT("--boot-index", boot_index)
		if (!strcmp(a, "--timeout") && v) {
			o.timeout = atof(v);
			i++;
			continue;
		}
		if (!strcmp(a, "--no-virtfs")) {
			o.virtfs = 0;
			continue;
		}
		if (!strcmp(a, "--keep")) {
			o.keep = 1;
			continue;
		}
#undef OPT
#undef IOPT
		fprintf(stderr, "foliowatch-collect boot: unknown or incomplete option %s\n", a);
		usage();
		ret = 2;
		goto cleanup;
	}
	if (!o.kernel || !fw_plain_list(o.workloads) || !fw_plain_list(o.profile) || o.rounds < 1 ||
	    o.rounds > 1000 || o.vcpus < 0 || o.memory_mib < 64 || o.timeout <= 0 || o.boot_index < 0 ||
	    (!o.series != !o.commit)) {
		fprintf(stderr, "foliowatch-collect boot: need --kernel, plain --workloads/--profile names, "
			"sane numbers, and --series with --commit (or neither)\n");
		usage();
		ret = 2;
		goto cleanup;
	}
	if (!strcmp(o.accel, "auto"))
		accel = fw_probe_auto(o.kernel);
	else if (fw_accel_parse(o.accel, &accel)) {
		fprintf(stderr, "foliowatch-collect boot: --accel must be auto, kvm, tcg or icount\n");
		ret = 2;
		goto cleanup;
	}
	if (!o.vcpus)
		o.vcpus = fw_default_vcpus(accel, fw_usable_cpus());
	if (fw_kernel_facts(o.kernel, &k))
		goto cleanup;
	fw_hostfacts_collect(&host, o.host, NULL);

	if (o.workdir) {
		snprintf(work, sizeof(work), "%s", o.workdir);
		if (mkdir(work, 0755) < 0 && errno != EEXIST) {
			fprintf(stderr, "foliowatch-collect boot: cannot create %s: %s\n", work, strerror(errno));
			goto cleanup;
		}
	} else {
		snprintf(work, sizeof(work), "%s/fw-boot.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
		if (!mkdtemp(work)) {
			fprintf(stderr, "foliowatch-collect boot: cannot create a temp dir: %s\n", strerror(errno));
			goto cleanup;
		}
		made_work = 1;
	}
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
	m.accel = accel;
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
	if (o.out && fw_rundoc_write(doc, o.out, &err)) {
		fprintf(stderr, "foliowatch-collect boot: %s\n", err.buf);
		goto cleanup;
	}
	if (o.db) {
		struct fw_ingest_info info;
		if (!(db = fw_db_open(o.db, &err))) {
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
	if (!o.out && !o.db) {
		char *text = cJSON_Print(doc);
		if (text)
			printf("%s\n", text);
		free(text);
	}
	ret = m.status == FW_BOOT_OK ? 0 : 3;
cleanup:
	if (made_work && !o.keep)
		nftw(work, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	else if (*work && booted)
		fprintf(stderr, "foliowatch-collect boot: console, channel and initramfs kept in %s\n", work);
	if (db)
		fw_db_close(db);
	cJSON_Delete(doc);
	fw_kfacts_release(&k);
	strbuf_release(&err);
	strbuf_release(&series);
	return ret;
}
