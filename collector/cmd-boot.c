/*
 * `foliowatch-collect boot`: one measured boot of one kernel.
 * initramfs -> lock -> QEMU -> parse channel + console -> run document
 * (validated) -> --out file (temp + rename) and/or --db (fw_ingest).
 * Exit: 0 boot ok, 3 document stored but boot status not ok, 1 failure, 2 usage.
 */
#include "commands.h"
#include "fw-db.h"
#include "ingest.h"
#include "initramfs.h"
#include "lock.h"
#include "resultchan.h"
#include "rundoc.h"
#include "sha256.h"
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <libgen.h>
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

/* Workload names travel on the kernel command line: keep them to plain names. */
static int plain_list(const char *s)
{
	return *s && strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_-,") == strlen(s);
}

/* The release string in a bzImage's setup header (boot protocol: kernel_version at 0x20e). */
static void bzimage_version(const char *path, char *out, size_t n)
{
	unsigned char hdr[0x210];
	char buf[128];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t got;

	*out = '\0';
	if (fd < 0)
		return;
	if (pread(fd, hdr, sizeof(hdr), 0) == (ssize_t)sizeof(hdr) && !memcmp(hdr + 0x202, "HdrS", 4)) {
		off_t off = (off_t)(hdr[0x20e] | hdr[0x20f] << 8) + 0x200;
		if ((got = pread(fd, buf, sizeof(buf) - 1, off)) > 0) {
			buf[got] = '\0';
			buf[strcspn(buf, " ")] = '\0';
			snprintf(out, n, "%s", buf);
		}
	}
	close(fd);
}

/* Build facts from the kernel's folder (cache layout: bzImage, .config, kernelversion). */
struct kfacts {
	char version[128], compiler[201], config_hash[65], image_hash[65];
	struct strbuf config;
};

static int kernel_facts(const char *kernel, struct kfacts *k)
{
	struct strbuf sb = STRBUF_INIT, path = STRBUF_INIT;
	char *dup = strdup(kernel), *dir;
	const char *cc;
	int ret = -1;

	if (!dup)
		abort();
	dir = dirname(dup);
	strbuf_init(&k->config, 0);
	if (strbuf_read_file(&sb, kernel, 256u * 1024 * 1024) < 0) {
		fprintf(stderr, "foliowatch-collect boot: cannot read %s: %s\n", kernel, strerror(errno));
		goto cleanup;
	}
	sha256_hex(sb.buf, sb.len, k->image_hash);
	strbuf_addf(&path, "%s/kernelversion", dir);
	strbuf_reset(&sb);
	if (!strbuf_read_file(&sb, path.buf, 4096) && sb.len) {
		sb.buf[strcspn(sb.buf, "\n")] = '\0';
		snprintf(k->version, sizeof(k->version), "%s", sb.buf);
	} else {
		bzimage_version(kernel, k->version, sizeof(k->version));
	}
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/.config", dir);
	k->compiler[0] = '\0';
	if (!strbuf_read_file(&k->config, path.buf, 512 * 1024) && k->config.len) {
		sha256_hex(k->config.buf, k->config.len, k->config_hash);
		if ((cc = strstr(k->config.buf, "CONFIG_CC_VERSION_TEXT=\""))) {
			cc += 24;
			snprintf(k->compiler, sizeof(k->compiler), "%.*s", (int)strcspn(cc, "\"\n"), cc);
		}
	} else {
		/* no .config beside it: the image itself is the best identity there is */
		strbuf_reset(&k->config);
		memcpy(k->config_hash, k->image_hash, sizeof(k->config_hash));
	}
	ret = 0;
cleanup:
	free(dup);
	strbuf_release(&sb);
	strbuf_release(&path);
	return ret;
}

static int rm_entry(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)flag;
	(void)f;
	return remove(p);
}

/* build/guest/fw-init next to this program's build folder. */
static void default_init(char *out, size_t n)
{
	char self[4096];
	ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (len <= 0) {
		snprintf(out, n, "build/guest/fw-init");
		return;
	}
	self[len] = '\0';
	snprintf(out, n, "%s/guest/fw-init", dirname(self));
}

/* Final status: the console decides first, then the channel and workload errors. */
static const char *final_status(struct fw_boot *b, const struct fw_chan *c, int n_errors)
{
	char why[300];

	if (c->status != FW_CHAN_COMPLETE) {
		fw_chan_describe(c, why, sizeof(why));
		fw_boot_raise(b, FW_BOOT_ERROR, why);
	} else if (n_errors) {
		snprintf(why, sizeof(why), "%d workload result(s) reported errors", n_errors);
		fw_boot_raise(b, FW_BOOT_ERROR, why);
	}
	return fw_boot_status_name(b->status);
}

int cmd_boot(int argc, char **argv)
{
	struct boot_opts o = { 0 };
	struct kfacts k = { 0 };
	struct fw_hostfacts host;
	struct fw_qemu_opts q = { 0 };
	struct fw_boot b = { 0 };
	struct fw_chan chan = { 0 };
	struct fw_rundoc_facts f = { 0 };
	struct fw_lock lock = { -1 };
	struct fw_error e;
	struct strbuf append = STRBUF_INIT, err = STRBUF_INIT, series = STRBUF_INIT, tail = STRBUF_INIT;
	char work[4096] = "", initrd[4200], console[4200], chanp[4200], initp[4096], desc[300];
	enum fw_accel accel = FW_ACCEL_TCG;
	cJSON *doc = NULL, *results;
	sqlite3 *db = NULL;
	int ret = 1, made_work = 0, booted = 0, n_errors = 0;

	o.workloads = "split,mthp,lazyfree,filemap";
	o.profile = "quick";
	o.accel = "auto";
	o.rounds = 2;
	o.vcpus = 2;
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
	if (!o.kernel || !plain_list(o.workloads) || !plain_list(o.profile) || o.rounds < 1 ||
	    o.rounds > 1000 || o.vcpus < 1 || o.memory_mib < 64 || o.timeout <= 0 || o.boot_index < 0 ||
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
	if (kernel_facts(o.kernel, &k))
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
	snprintf(initrd, sizeof(initrd), "%s/initramfs.cpio", work);
	snprintf(console, sizeof(console), "%s/console.log", work);
	snprintf(chanp, sizeof(chanp), "%s/channel.log", work);
	if (o.init)
		snprintf(initp, sizeof(initp), "%s", o.init);
	else
		default_init(initp, sizeof(initp));
	if (fw_initramfs_write(initrd, initp, NULL, 0, &err)) {
		fprintf(stderr, "foliowatch-collect boot: initramfs: %s\n", err.buf);
		goto cleanup;
	}
	/* panic=-1: a panicking guest reboots at once, and -no-reboot turns that into QEMU's exit */
	strbuf_addf(&append, "console=ttyS0 panic=-1 fw.workloads=%s fw.profile=%s fw.rounds=%d",
		    o.workloads, o.profile, o.rounds);
	if (o.append && *o.append)
		strbuf_addf(&append, " %s", o.append);
	q.accel = accel;
	q.vcpus = o.vcpus;
	q.memory_mib = o.memory_mib;
	q.kernel = o.kernel;
	q.initrd = initrd;
	q.append = append.buf;
	q.console_path = console;
	q.chan_path = chanp;
	q.virtfs = o.virtfs;
	q.timeout_s = o.timeout;

	if (fw_lock_acquire(&lock, NULL, "boot"))
		goto cleanup;
	fprintf(stderr, "foliowatch-collect boot: %s under %s, workloads %s, profile %s, %d round(s)\n",
		o.kernel, fw_accel_name(accel), o.workloads, o.profile, o.rounds);
	if (fw_qemu_boot(&q, &b) < 0) {
		fprintf(stderr, "foliowatch-collect boot: %s\n", b.reason);
		goto cleanup;
	}
	booted = 1;
	fw_lock_release(&lock);

	fw_chan_parse_file(chanp, &chan);
	/* count error results the same way the document will (this may mark chan corrupt, and it stays so) */
	results = fw_rundoc_results(&chan, o.workloads, &n_errors);
	cJSON_Delete(results);

	strbuf_add(&tail, b.log_tail.buf, b.log_tail.len);
	f.boot_status = final_status(&b, &chan, n_errors);
	strbuf_addf(&tail, "%s[foliowatch-collect] boot status %s: %s\n",
		    tail.len && tail.buf[tail.len - 1] != '\n' ? "\n" : "", f.boot_status,
		    b.reason[0] ? b.reason : "clean");
	strbuf_tail(&tail, FW_BOOT_TAIL + 512);
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
	f.accel = fw_accel_name(accel);
	f.vcpus = o.vcpus;
	f.memory_mib = o.memory_mib;
	f.taint = b.taint;
	f.boot_seconds = b.seconds;
	f.qemu_cmdline = b.qemu_cmdline.buf;
	f.kernel_cmdline = append.buf;
	f.boot_log_tail = tail.buf;
	f.profile = o.profile;
	f.boot_index = o.boot_index;
	f.workloads = o.workloads;
	if (!(doc = fw_rundoc_build(&f, &chan, &e))) {
		fprintf(stderr, "foliowatch-collect boot: internal error, document invalid at %s: %s\n",
			e.field, e.detail);
		goto cleanup;
	}
	fw_chan_describe(&chan, desc, sizeof(desc));
	fprintf(stderr, "foliowatch-collect boot: status %s (%s), channel %s, %.1f s\n", f.boot_status,
		b.reason[0] ? b.reason : "clean", desc, b.seconds);
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
	ret = b.status == FW_BOOT_OK ? 0 : 3;
cleanup:
	fw_lock_release(&lock);
	if (made_work && !o.keep)
		nftw(work, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	else if (*work && booted)
		fprintf(stderr, "foliowatch-collect boot: console, channel and initramfs kept in %s\n", work);
	if (db)
		sqlite3_close(db);
	cJSON_Delete(doc);
	fw_chan_release(&chan);
	if (booted || b.qemu_cmdline.alloc)
		fw_boot_release(&b);
	strbuf_release(&k.config);
	strbuf_release(&append);
	strbuf_release(&err);
	strbuf_release(&series);
	strbuf_release(&tail);
	return ret;
}
