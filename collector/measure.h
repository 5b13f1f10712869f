#ifndef FW_MEASURE_H
#define FW_MEASURE_H
#include <cjson/cJSON.h>
#include "qemu.h"
#include "run-doc-build.h"
#include "strbuf.h"
#include "workload-manifest.h"

/*
 * One measured boot of a built kernel: initramfs, the host-wide lock, QEMU,
 * the result channel and the console, then a validated run document. Used by
 * `boot` (one kernel) and `run` (a series).
 */

/* Build facts read from a kernel's cache folder (bzImage, .config, kernelversion). */
struct fw_kfacts {
	char version[128], compiler[201], config_hash[65], image_hash[65];
	struct strbuf config;
};
int fw_kernel_facts(const char *kernel, struct fw_kfacts *k);
void fw_kfacts_release(struct fw_kfacts *k);

struct fw_measure {
	const char *kernel;        /* bzImage */
	const char *init;          /* NULL: build/guest/fw-init beside this program */
	const char *workdir;       /* existing folder for initramfs, console and channel logs */
	const char *workloads, *profile, *append;
	int rounds, vcpus, memory_mib, virtfs;
	double timeout;            /* the timed part's; a profiled boot adds FW_PROFILE_HOST_S per workload */
	int fprofile;              /* 1: the profiling round after the timed rounds (fw.fprofile=1) */
	enum fw_accel accel;
	const struct fw_workload_def *user;  /* user workloads (--workload-dir); those named in workloads are packed */
	const char (*user_hash)[65];         /* their content hashes when loaded, or NULL: a changed one is refused */
	int nuser;
	/* identity, build and host facts filled by the caller; the boot fields are filled here */
	struct fw_rundoc_facts *facts;
	/* results */
	enum fw_boot_status status;
	double seconds;
	char reason[256];
};

/*
 * The guest's limit on one workload's profiling round (fw.fprofile_timeout_s),
 * in guest seconds, and what a profiled boot adds to QEMU's timeout per
 * workload, in host seconds: under icount a guest second of traced code took
 * about 7 host seconds here (split: 2.2 s guest, ~15 s host; quick filemap's
 * round takes ~50 guest seconds, its fio runs by the clock), so 10x leaves
 * room; a round cut by the guest's limit costs its profile only, a boot cut
 * by QEMU's would cost the timed samples too.
 */
#define FW_PROFILE_TIMEOUT_S 120
#define FW_PROFILE_TIMEOUT_S_STR "120"
#define FW_PROFILE_HOST_S (10 * FW_PROFILE_TIMEOUT_S)

/* Workload and profile names travel on the kernel command line: plain names only. */
int fw_plain_list(const char *s);

/* Returns the run document (caller frees), or NULL with err set if QEMU could not run. */
cJSON *fw_measure_boot(struct fw_measure *m, struct strbuf *err);

#endif
