/* QEMU boots: argv, timed run, console classification (see qemu.h). */
#include "qemu.h"
#include "boot-phases.h"
#include "utf8.h"
#include "xalloc.h"
#include "runcmd.h"
#include <errno.h>
#include <sched.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *fw_accel_name(enum fw_accel a)
{
	switch (a) {
	case FW_ACCEL_KVM: return "kvm";
	case FW_ACCEL_TCG: return "tcg";
	case FW_ACCEL_ICOUNT: return "icount";
	}
	return "?";
}

int fw_accel_parse(const char *s, enum fw_accel *out)
{
	static const enum fw_accel all[] = { FW_ACCEL_KVM, FW_ACCEL_TCG, FW_ACCEL_ICOUNT };

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (!strcmp(s, fw_accel_name(all[i]))) {
			*out = all[i];
			return 0;
		}
	return -1;
}

int fw_default_vcpus(enum fw_accel accel, int host_cpus)
{
	/* KVM: every CPU this process may use, up to the guest's NR_CPUS (64),
	 * so a many-core runner shows the contention seed 001 measured. TCG: 2.
	 * icount: 1. It runs one vCPU at a time, so a second adds no parallelism
	 * (mthp wall_s 0.691 s with 1 or 2), only spin-waiting whose amount
	 * depends on where the round-robin slices fall: mthp cpu_s varied 3.6%
	 * between boots with 2 vCPUs, 0.11% with 1 (kernel/guest-notes.md). */
	if (accel == FW_ACCEL_KVM && host_cpus > 0)
		return host_cpus > FW_GUEST_NR_CPUS ? FW_GUEST_NR_CPUS : host_cpus;
	return accel == FW_ACCEL_ICOUNT ? 1 : 2;
}

int fw_default_parallel(enum fw_accel accel, int vcpus, int host_cpus)
{
	/* KVM guests use every CPU they are given and their timings are not
	 * exact: a second guest beside one would be measured. icount guests run
	 * one host thread each (vCPUs take turns); TCG ones one per vCPU. */
	int threads = accel == FW_ACCEL_ICOUNT ? 1 : vcpus;

	if (accel == FW_ACCEL_KVM || threads < 1 || host_cpus <= threads)
		return 1;
	return host_cpus / threads;
}

int fw_usable_cpus(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return 1;
	return CPU_COUNT(&set);
}

const char *fw_boot_status_name(enum fw_boot_status s)
{
	switch (s) {
	case FW_BOOT_OK: return "ok";
	case FW_BOOT_WARN: return "warn";
	case FW_BOOT_ERROR: return "error";
	case FW_BOOT_TIMEOUT: return "timeout";
	case FW_BOOT_OOPS: return "oops";
	case FW_BOOT_PANIC: return "panic";
	}
	return "?";
}

void fw_boot_raise(struct fw_boot *b, enum fw_boot_status s, const char *reason)
{
	/* enum order is severity order: a panic explains a timeout or a missing channel */
	if (s > b->status || (s == b->status && !b->reason[0])) {
		b->status = s;
		snprintf(b->reason, sizeof(b->reason), "%s", reason);
	}
}

struct argv_b {
	char **v;
	int n, alloc;
};

static void push(struct argv_b *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void push(struct argv_b *a, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	FW_ALLOC_GROW(a->v, a->n + 2, a->alloc);   /* and the NULL after */
	a->v[a->n++] = strbuf_detach(&sb, NULL);
	a->v[a->n] = NULL;
}

char **fw_qemu_argv(const struct fw_qemu_opts *o)
{
	struct argv_b a = { NULL, 0, 0 };

	push(&a, "%s", o->qemu ? o->qemu : "qemu-system-x86_64");
	switch (o->accel) {
	case FW_ACCEL_KVM:
		push(&a, "-accel");
		push(&a, "kvm");
		push(&a, "-cpu");
		push(&a, "host");
		break;
	case FW_ACCEL_TCG:
		/* multi-threaded TCG: the vCPUs run in parallel like on hardware */
		push(&a, "-accel");
		push(&a, "tcg,thread=multi");
		break;
	case FW_ACCEL_ICOUNT:
		/*
		 * guest time = instructions executed: deterministic, one vCPU runs at
		 * a time. sleep=off: an idle guest jumps to its next timer instead of
		 * waiting in host time (the default, sleep=on, let host load leak into
		 * guest clocks: t3200 once saw two split boots more than 0.5% apart).
		 */
		push(&a, "-accel");
		push(&a, "tcg");
		push(&a, "-icount");
		push(&a, "shift=0,sleep=off");
		/*
		 * Not fixed here: the RTC and RDRAND (-rtc base=...,clock=vm -seed 1
		 * made every boot of a kernel identical, and with no same-kernel
		 * spread an exact count's floor is 0, so a comment-only patch's code
		 * layout moving lru_lock_per_fault by 0.04% was flagged; see
		 * kernel/guest-notes.md, issue 27).
		 */
		break;
	}
	push(&a, "-smp");
	push(&a, "%d", o->vcpus > 0 ? o->vcpus : 2);
	push(&a, "-m");
	push(&a, "%d", o->memory_mib > 0 ? o->memory_mib : 2048);
	/* no default NIC/VGA/floppy: less to probe, nothing the workloads use */
	push(&a, "-nodefaults");
	push(&a, "-no-user-config");
	push(&a, "-display");
	push(&a, "none");
	push(&a, "-monitor");
	push(&a, "none");
	push(&a, "-kernel");
	push(&a, "%s", o->kernel);
	if (o->initrd) {
		push(&a, "-initrd");
		push(&a, "%s", o->initrd);
	}
	push(&a, "-append");
	push(&a, "%s", o->append ? o->append : "console=ttyS0 panic=-1");
	push(&a, "-serial");
	push(&a, "file:%s", o->console_path);
	if (o->chan_path) {
		push(&a, "-serial");
		push(&a, "file:%s", o->chan_path);
	}
	if (o->virtfs) {
		push(&a, "-virtfs");
		push(&a, "local,path=/,mount_tag=host,security_model=none,readonly=on,multidevs=remap");
	}
	push(&a, "-no-reboot");
	return a.v;
}

void fw_qemu_argv_free(char **argv)
{
	for (int i = 0; argv && argv[i]; i++)
		free(argv[i]);
	free(argv);
}

static const struct {
	char letter;
	int bit;
} taint_letters[] = {
	/* kernel/panic.c taint_flags[] (6.12): letter when set, bit number */
	{ 'P', 0 }, { 'F', 1 }, { 'S', 2 }, { 'R', 3 }, { 'M', 4 }, { 'B', 5 }, { 'U', 6 },
	{ 'D', 7 }, { 'A', 8 }, { 'W', 9 }, { 'C', 10 }, { 'I', 11 }, { 'O', 12 }, { 'E', 13 },
	{ 'L', 14 }, { 'K', 15 }, { 'X', 16 }, { 'T', 17 }, { 'N', 18 },
};

unsigned long fw_taint_parse(const char *flags)
{
	unsigned long mask = 0;

	/*
	 * The kernel prints one column per flag (letter or ' ', 'G' for "not
	 * proprietary"); letters are unique, so position does not matter. The
	 * release follows after the columns and starts with a digit: stop there.
	 */
	for (const char *p = flags; *p && (*p == ' ' || (*p >= 'A' && *p <= 'Z')) && p - flags < 24; p++)
		for (size_t i = 0; i < sizeof(taint_letters) / sizeof(taint_letters[0]); i++)
			if (*p == taint_letters[i].letter)
				mask |= 1ul << taint_letters[i].bit;
	return mask;
}

static void line_reason(char *out, size_t n, const char *what, const char *line, size_t len)
{
	while (len && (line[len - 1] == '\r' || line[len - 1] == '\n'))
		len--;
	snprintf(out, n, "%s: %.*s", what, UTF8_FIT(line, len, 200));
	utf8_trim_partial(out);
}

void fw_boot_classify_log(const char *log, size_t len, struct fw_boot *b)
{
	char why[256];

	for (size_t pos = 0; pos < len;) {
		const char *line = log + pos, *nl = memchr(line, '\n', len - pos), *t;
		size_t n = nl ? (size_t)(nl - line) : len - pos;
		char buf[512];

		pos += n + 1;
		/* lines are short; a bounded NUL-terminated copy makes strstr safe on binary junk */
		snprintf(buf, sizeof(buf), "%.*s", (int)(n < sizeof(buf) - 1 ? n : sizeof(buf) - 1), line);
		if (strstr(buf, "Linux version "))
			b->saw_linux = 1;
		if (strstr(buf, "Kernel panic")) {
			line_reason(why, sizeof(why), "panic", buf, strlen(buf));
			fw_boot_raise(b, FW_BOOT_PANIC, why);
		} else if (strstr(buf, "Oops:") || strstr(buf, "BUG:")) {
			line_reason(why, sizeof(why), "oops", buf, strlen(buf));
			fw_boot_raise(b, FW_BOOT_OOPS, why);
		} else if (strstr(buf, "WARNING:") || strstr(buf, "------------[ cut here ]")) {
			line_reason(why, sizeof(why), "warn", buf, strlen(buf));
			fw_boot_raise(b, FW_BOOT_WARN, why);
		}
		if ((t = strstr(buf, "Tainted: ")))
			b->taint |= fw_taint_parse(t + 9);
	}
}

/* The console can grow without bound under a spamming guest: keep the last max bytes. */
static int read_tail(const char *path, size_t max, struct strbuf *out)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = -1;
	char buf[65536];
	ssize_t n;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0)
		goto cleanup;
	if ((size_t)st.st_size > max && lseek(fd, st.st_size - (off_t)max, SEEK_SET) < 0)
		goto cleanup;
	while ((n = read(fd, buf, sizeof(buf))) > 0 && out->len < max)
		strbuf_add(out, buf, (size_t)n);
	ret = n < 0 ? -1 : 0;
cleanup:
	close(fd);
	return ret;
}

int fw_qemu_boot(const struct fw_qemu_opts *o, struct fw_boot *b)
{
	char **argv = fw_qemu_argv(o);
	struct runcmd rc = { 0 };
	struct strbuf log = STRBUF_INIT, qout = STRBUF_INIT;
	int ret = -1;

	memset(b, 0, sizeof(*b));
	strbuf_init(&b->qemu_cmdline, 0);
	strbuf_init(&b->log_tail, 0);
	runcmd_quote(&b->qemu_cmdline, (const char *const *)argv);
	/* the serial files must exist even if QEMU dies early: an empty file is a fact */
	unlink(o->console_path);
	if (o->chan_path)
		unlink(o->chan_path);
	rc.argv = (const char *const *)argv;
	rc.out = &qout;           /* QEMU's own complaints (bad option, missing file) */
	rc.merge_stderr = 1;
	rc.timeout_s = o->timeout_s;
	if (o->phases && o->chan_path) {
		fw_phases_init(o->phases, o->chan_path);
		rc.tick = fw_phases_tick;
		rc.tick_arg = o->phases;
		rc.tick_ms = 250;
	}
	if (runcmd_run(&rc) < 0 && !rc.timed_out) {
		snprintf(b->reason, sizeof(b->reason), "cannot run %s: %s", argv[0], strerror(errno));
		b->status = FW_BOOT_ERROR;
		goto cleanup;
	}
	b->seconds = rc.seconds;
	b->timed_out = rc.timed_out;
	b->exit_code = rc.exit_code;
	if (read_tail(o->console_path, 64u * 1024 * 1024, &log) == 0)
		fw_boot_classify_log(log.buf, log.len, b);
	if (rc.timed_out) {
		char why[128];
		snprintf(why, sizeof(why), "timeout: no exit after %.0f s, QEMU killed", o->timeout_s);
		fw_boot_raise(b, FW_BOOT_TIMEOUT, why);
	} else if (rc.exit_code != 0) {
		char why[256];
		strbuf_tail(&qout, 200);
		snprintf(why, sizeof(why), "qemu exited with status %d: %s", rc.exit_code, qout.buf);
		fw_boot_raise(b, FW_BOOT_ERROR, why);
	}
	strbuf_add(&b->log_tail, log.buf, log.len);
	if (qout.len) {
		/* QEMU's stderr belongs with the console: it explains early deaths */
		strbuf_addf(&b->log_tail, "%s[qemu] %s", b->log_tail.len ? "\n" : "", qout.buf);
	}
	strbuf_tail(&b->log_tail, FW_BOOT_TAIL);
	ret = 0;
cleanup:
	strbuf_release(&log);
	strbuf_release(&qout);
	fw_qemu_argv_free(argv);
	return ret;
}

void fw_boot_release(struct fw_boot *b)
{
	strbuf_release(&b->qemu_cmdline);
	strbuf_release(&b->log_tail);
}
