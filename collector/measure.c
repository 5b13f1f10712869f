/* One measured boot: initramfs -> lock -> QEMU -> channel + console -> run document. */
#include "measure.h"
#include "adaptive.h"
#include "guest-tools.h"
#include "workload-plan.h"
#include "boot-phases.h"
#include "utf8.h"
#include "initramfs.h"
#include "lock.h"
#include "xalloc.h"
#include "resultchan.h"
#include "sha256.h"
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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


int fw_kernel_facts(const char *kernel, struct fw_kfacts *k)
{
	struct strbuf sb = STRBUF_INIT, path = STRBUF_INIT;
	char *dup = xstrdup(kernel), *dir;
	const char *cc;
	int ret = -1;

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
/* Items of a comma-separated list. */
static int count_items(const char *list)
{
	int n = 1;

	for (const char *p = list; *p; p++)
		n += *p == ',';
	return n;
}

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

int fw_plain_list(const char *s)
{
	return *s && strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_-,") == strlen(s);
}

void fw_kfacts_release(struct fw_kfacts *k)
{
	strbuf_release(&k->config);
}

/*
 * The boot's initramfs; filemap's mkfs.xfs and its libraries ride in it:
 * nothing of filemap comes over 9p. So does each user workload the boot
 * runs: its program, the libraries it loads and its plan (issue 33).
 */
static int write_initramfs(const struct fw_measure *m, const char *initrd, const char *init,
			   struct fw_guest_tools *tools, struct strbuf *err)
{
	struct fw_wl_packed *packed = xcalloc((size_t)m->nuser + 1, sizeof(*packed));
	struct fw_initramfs_file *files = xcalloc((size_t)(m->nuser + 1) * 17, sizeof(*files));
	int n = 0, ret = -1;

	if (fw_list_has(m->workloads, "filemap") && fw_guest_tools_collect(tools, FW_GUEST_MKFS, err)) {
		strbuf_addstr(err, " (filemap needs it in the guest: install xfsprogs)");
		goto cleanup;
	}
	for (int i = 0; i < tools->n; i++)
		files[n++] = tools->files[i];
	for (int u = 0; u < m->nuser; u++) {
		struct fw_wl_packed *p = &packed[u];

		if (!fw_list_has(m->workloads, m->user[u].name))
			continue;
		if (fw_workload_pack(&m->user[u], m->profile, m->workdir, p, err))
			goto cleanup;
		if (m->user_hash && strcmp(p->hash, m->user_hash[u])) {
			/* the documents carry the hash the run started with: never measure another program under it */
			strbuf_addf(err, "workload %s changed since the run started (content %.12s, now %.12s): "
				    "start the run again", m->user[u].name, m->user_hash[u], p->hash);
			goto cleanup;
		}
		for (int i = 0; i < p->tools.n; i++)
			files[n++] = p->tools.files[i];
		files[n++] = (struct fw_initramfs_file){ p->plan, p->plan_dst, 0644 };
	}
	if (fw_initramfs_write(initrd, init, files, n, err)) {
		strbuf_addstr(err, " (initramfs)");
		goto cleanup;
	}
	ret = 0;
cleanup:
	free(files);
	free(packed);
	return ret;
}

/* What the user workloads may take by their own timeout_s (the guest kills a run at it), in guest seconds. */
static double user_time(const struct fw_measure *m)
{
	double s = 0;

	for (int u = 0; u < m->nuser; u++)
		if (fw_list_has(m->workloads, m->user[u].name))
			s += m->user[u].timeout_s * m->user[u].nvariants * (m->rounds > 0 ? m->rounds : 1);
	return s;
}

/* A user workload that needs a block device gets /dev/ram1: brd makes one ramdisk unless told. */
static int user_needs_block(const struct fw_measure *m)
{
	for (int u = 0; u < m->nuser; u++)
		if (m->user[u].needs.block_device && fw_list_has(m->workloads, m->user[u].name))
			return 1;
	return 0;
}

/* What the guest init reads (kernel/guest/main.c). */
static void kernel_cmdline(const struct fw_measure *m, const struct fw_guest_tools *tools, struct strbuf *append)
{
	/* panic=-1: a panicking guest reboots at once, and -no-reboot turns that into QEMU's exit */
	strbuf_addf(append, "console=ttyS0 panic=-1 fw.workloads=%s fw.profile=%s fw.rounds=%d",
		    m->workloads, m->profile, m->rounds);
	if (m->fprofile)
		strbuf_addf(append, " fw.fprofile=1 fw.fprofile_timeout_s=%d", FW_PROFILE_TIMEOUT_S);
	/* under icount a fixed count repeats exactly: no workload runs for a time (issue 27) */
	if (m->accel == FW_ACCEL_ICOUNT)
		strbuf_addstr(append, " fw.fixed_work=1");
	if (tools->n)
		strbuf_addf(append, " fw.tools=%.16s", tools->hash);
	if (user_needs_block(m))
		strbuf_addstr(append, " brd.rd_nr=2");
	if (m->append && *m->append)
		strbuf_addf(append, " %s", m->append);
}

cJSON *fw_measure_boot(struct fw_measure *m, struct strbuf *err)
{
	struct fw_qemu_opts q = { 0 };
	struct fw_boot_phases phases;
	static struct fw_guest_tools no_tools;
	struct fw_guest_tools tools = no_tools;
	struct fw_boot b = { 0 };
	struct fw_chan chan = { 0 };
	struct fw_lock lock = { .fd = -1 };
	struct fw_rundoc_facts *f = m->facts;
	struct fw_error e;
	struct strbuf append = STRBUF_INIT, tail = STRBUF_INIT;
	char initrd[4200], console[4200], chanp[4200], initp[4096];
	cJSON *doc = NULL, *results;
	int booted = 0, n_errors = 0;

	snprintf(initrd, sizeof(initrd), "%s/initramfs.cpio", m->workdir);
	snprintf(console, sizeof(console), "%s/console.log", m->workdir);
	snprintf(chanp, sizeof(chanp), "%s/channel.log", m->workdir);
	if (m->init)
		snprintf(initp, sizeof(initp), "%s", m->init);
	else
		default_init(initp, sizeof(initp));
	if (write_initramfs(m, initrd, initp, &tools, err))
		goto cleanup;
	kernel_cmdline(m, &tools, &append);
	q.accel = m->accel;
	q.vcpus = m->vcpus;
	q.memory_mib = m->memory_mib;
	q.kernel = m->kernel;
	q.initrd = initrd;
	q.append = append.buf;
	q.console_path = console;
	q.chan_path = chanp;
	q.virtfs = m->virtfs;
	q.timeout_s = m->timeout + (m->fprofile ? FW_PROFILE_HOST_S * count_items(m->workloads) : 0) + user_time(m);
	q.phases = &phases;

	/* an icount guest runs on one host thread whatever its vCPUs; TCG and KVM on one per vCPU */
	if (fw_lock_acquire_boot(&lock, NULL, "boot", m->accel == FW_ACCEL_ICOUNT ? 1 : m->vcpus)) {
		strbuf_addstr(err, "cannot take the measurement lock");
		goto cleanup;
	}
	if (fw_qemu_boot(&q, &b) < 0) {
		strbuf_addstr(err, b.reason);
		goto cleanup;
	}
	booted = 1;
	fw_phases_done(&phases, f->phases);
	if (!m->fprofile)
		f->phases[2] = -1; /* no profiling round: its phase would be the end record alone */
	f->has_phases = 1;
	/* parse before letting another measurement reuse the host (and any shared file) */
	fw_chan_parse_file(chanp, &chan);
	fw_lock_release(&lock);
	fw_rundoc_profile_notes(&chan, stderr);
	/* count error results the same way the document will (this may mark chan corrupt, and it stays so) */
	results = fw_rundoc_results(&chan, m->workloads, &n_errors);
	cJSON_Delete(results);

	strbuf_add(&tail, b.log_tail.buf, b.log_tail.len);
	f->boot_status = final_status(&b, &chan, n_errors);
	strbuf_addf(&tail, "%s[foliowatch-collect] boot status %s: %s\n",
		    tail.len && tail.buf[tail.len - 1] != '\n' ? "\n" : "", f->boot_status,
		    b.reason[0] ? b.reason : "clean");
	strbuf_tail(&tail, FW_BOOT_TAIL + 512);
	f->taint = b.taint;
	f->boot_seconds = b.seconds;
	f->qemu_cmdline = b.qemu_cmdline.buf;
	f->kernel_cmdline = append.buf;
	f->boot_log_tail = tail.buf;
	f->profile = m->profile;
	f->workloads = m->workloads;
	f->accel = fw_accel_name(m->accel);
	f->vcpus = m->vcpus;
	f->memory_mib = m->memory_mib;
	if (!(doc = fw_rundoc_build(f, &chan, &e)) && chan.status == FW_CHAN_COMPLETE) {
		/*
		 * A capture that parses but cannot make a valid document (a guest
		 * writing names or values past the document's limits) is corrupt:
		 * the run is kept, with an error status and no numbers.
		 */
		chan.status = FW_CHAN_CORRUPT;
		if (snprintf(chan.why, sizeof(chan.why), "capture gives an invalid document at %.*s: %.*s",
			     UTF8_FIT(e.field, strlen(e.field), 80), UTF8_FIT(e.detail, strlen(e.detail), 120)) < 0)
			chan.why[0] = '\0';
		f->boot_status = final_status(&b, &chan, 0);
		doc = fw_rundoc_build(f, &chan, &e);
	}
	if (!doc) {
		strbuf_addf(err, "internal error, document invalid at %s: %s", e.field, e.detail);
		goto cleanup;
	}
	m->status = b.status;
	m->seconds = b.seconds;
	fw_chan_describe(&chan, m->reason, sizeof(m->reason));
	if (b.reason[0]) {
		size_t used = strlen(m->reason);
		snprintf(m->reason + used, sizeof(m->reason) - used, "; %s", b.reason);
	}
cleanup:
	/* the facts point into buffers that die here: the document holds copies */
	f->qemu_cmdline = f->kernel_cmdline = f->boot_log_tail = NULL;
	fw_lock_release(&lock);
	fw_chan_release(&chan);
	if (booted || b.qemu_cmdline.alloc)
		fw_boot_release(&b);
	strbuf_release(&append);
	strbuf_release(&tail);
	return doc;
}
