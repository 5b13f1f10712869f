#ifndef FW_QEMU_H
#define FW_QEMU_H
#include <stddef.h>
#include "strbuf.h"

/*
 * One guest boot under QEMU: argv construction, a run with a timeout (the
 * process group is killed), and classification of the console log.
 * Serial port 1 is the console (kernel messages), serial port 2 the result
 * channel: results are never interleaved with kernel text.
 */

enum fw_accel { FW_ACCEL_KVM, FW_ACCEL_TCG, FW_ACCEL_ICOUNT };

enum fw_boot_status {
	FW_BOOT_OK, FW_BOOT_WARN, FW_BOOT_ERROR, FW_BOOT_TIMEOUT, FW_BOOT_OOPS, FW_BOOT_PANIC,
};

struct fw_boot_phases;

struct fw_qemu_opts {
	const char *qemu;          /* NULL: qemu-system-x86_64 from PATH */
	enum fw_accel accel;
	int vcpus, memory_mib;
	const char *kernel, *initrd;   /* initrd may be NULL */
	const char *append;        /* kernel command line */
	const char *console_path;  /* first serial port -> this file */
	const char *chan_path;     /* second serial port -> this file (NULL: none) */
	int virtfs;                /* share / read-only over 9p as mount_tag "host" (fio, mkfs) */
	double timeout_s;
	struct fw_boot_phases *phases; /* watch the channel for phase times (boot-phases.h), or NULL */
};

struct fw_boot {
	enum fw_boot_status status;
	unsigned long taint;       /* kernel taint bits from "Tainted:" lines */
	double seconds;            /* wall time of QEMU */
	int timed_out, exit_code;
	int saw_linux;             /* the console shows "Linux version": the kernel ran */
	char reason[256];          /* the line or fact that decided the status */
	struct strbuf qemu_cmdline; /* shell-quoted, for the record */
	struct strbuf log_tail;    /* last FW_BOOT_TAIL bytes of the console */
};
#define FW_BOOT_TAIL (8 * 1024)

const char *fw_accel_name(enum fw_accel a);
int fw_accel_parse(const char *s, enum fw_accel *out);   /* 0 or -1 */
/* CONFIG_NR_CPUS of kernel/foliowatch.config: the guest uses no more. */
#define FW_GUEST_NR_CPUS 64
/* --vcpus when not given: the host's usable CPUs under KVM, 2 under TCG, 1 under icount. */
int fw_default_vcpus(enum fw_accel accel, int host_cpus);
int fw_usable_cpus(void); /* CPUs in this process's affinity mask */
/* Boots at once by default (issue 27): as many as host_cpus hold at the boot's host threads; KVM 1. */
int fw_default_parallel(enum fw_accel accel, int vcpus, int host_cpus);
const char *fw_boot_status_name(enum fw_boot_status s);

/* Builds QEMU's argv; free with fw_qemu_argv_free. */
char **fw_qemu_argv(const struct fw_qemu_opts *o);
void fw_qemu_argv_free(char **argv);

/* Runs one boot and classifies it. Returns 0 if QEMU ran (whatever the guest did), -1 if not. */
int fw_qemu_boot(const struct fw_qemu_opts *o, struct fw_boot *b);
void fw_boot_release(struct fw_boot *b);

/*
 * Classifies console text: panic ("Kernel panic"), oops ("Oops:", "BUG:"),
 * warn ("WARNING:", "cut here") and taint flags; the worst wins. Sets
 * b->status (only ever raising it), b->taint, b->reason, b->saw_linux.
 */
void fw_boot_classify_log(const char *log, size_t len, struct fw_boot *b);
/* Taint letters after "Tainted: " ("G        W  " ...) as the kernel's bit mask. */
unsigned long fw_taint_parse(const char *flags);
/* Raises status to at least s (by severity order). */
void fw_boot_raise(struct fw_boot *b, enum fw_boot_status s, const char *reason);

#endif
