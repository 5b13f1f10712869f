/*
 * split (seed 000): tmpfs huge=always, fallocate a file, then time one write
 * of "<path>,0x0,0x<pages>,<order>" to /sys/kernel/debug/split_huge_pages:
 * PMD-sized shmem folios split uniformly to order 0.
 * Verified: ShmemHugePages covers the file before and drops after, and
 * thp_split_page grew by the number of PMD folios.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>
#include "fw.h"

#define WL "split"
#define VARIANT "pmd-to-0"
#define DIR_ "/mnt/split"
#define FILE_ DIR_ "/big"

static const struct fw_metric m_split = { "split_ms", "ms", "lower_is_better", "time" };
/* The write's precise CPU time (the thread's sum_exec_runtime); getrusage's
 * tick-sampled sys time is a counter only (split_sys_ms). */
static const struct fw_metric m_cpu = { "split_cpu_ms", "ms", "lower_is_better", "time" };

static int one_round(uint64_t size, int order, int round)
{
	static const char *const always[] = { "thp_split_page", "thp_split_page_failed",
					      "thp_deferred_split_page", NULL };
	struct vmstat a, b;
	struct fw_rec r;
	char cmd[256];
	double t0, t1, s0, s1, c0, c1;
	int64_t huge_before, huge_after, want_kb = (int64_t)(size >> 10);
	int64_t splits, want_splits = (int64_t)(size >> 21);
	int fd = -1, mounted = 0, ret = -1;

	if (mkdir_p(DIR_) < 0)
		goto cleanup;
	snprintf(cmd, sizeof(cmd), "size=%llum,huge=always",
		 (unsigned long long)(2 * size >> 20));
	if (mount("tmpfs", DIR_, "tmpfs", 0, cmd) < 0) {
		fail("mount tmpfs huge=always: %s", strerror(errno));
		goto cleanup;
	}
	mounted = 1;
	huge_before = meminfo_kb("ShmemHugePages");
	fd = open(FILE_, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		fail("open %s: %s", FILE_, strerror(errno));
		goto cleanup;
	}
	if (fallocate(fd, 0, 0, (off_t)size) < 0) {
		fail("fallocate %llu: %s", (unsigned long long)size, strerror(errno));
		goto cleanup;
	}
	huge_after = meminfo_kb("ShmemHugePages");
	if (huge_after - huge_before < want_kb) {
		fail("fallocate gave only %lld kB of ShmemHugePages for %lld kB",
		     (long long)(huge_after - huge_before), (long long)want_kb);
		goto cleanup;
	}
	huge_before = huge_after;
	snprintf(cmd, sizeof(cmd), "%s,0x0,0x%llx,%d", FILE_,
		 (unsigned long long)(size >> 12), order);
	if (vmstat_read(&a) < 0)
		goto cleanup;
	s0 = rusage_sys_s();
	c0 = thread_cpu_s();
	kprof_section_begin();
	t0 = now_s();
	if (write_text("/sys/kernel/debug/split_huge_pages", cmd) < 0)
		goto cleanup;
	t1 = now_s();
	kprof_section_end(VARIANT);
	c1 = thread_cpu_s();
	s1 = rusage_sys_s();
	if (vmstat_read(&b) < 0)
		goto cleanup;
	huge_after = meminfo_kb("ShmemHugePages");
	splits = vmstat_delta(&a, &b, "thp_split_page");
	if (splits < want_splits || huge_after > huge_before - want_kb) {
		fail("split had no full effect: thp_split_page +%lld of %lld, "
		     "ShmemHugePages %lld -> %lld kB", (long long)splits,
		     (long long)want_splits, (long long)huge_before, (long long)huge_after);
		goto cleanup;
	}
	if (emit_sample(WL, VARIANT, &m_split, round, (t1 - t0) * 1e3) < 0 ||
	    emit_sample(WL, VARIANT, &m_cpu, round, (c1 - c0) * 1e3) < 0)
		goto cleanup;
	rec_start(&r, "counters");
	rec_kv(&r, "workload", WL);
	rec_kv(&r, "variant", VARIANT);
	rec_kvi(&r, "round", round);
	rec_kvi(&r, "ShmemHugePages_before_kb", huge_before);
	rec_kvi(&r, "ShmemHugePages_after_kb", huge_after);
	rec_kvd(&r, "split_sys_ms", (s1 - s0) * 1e3);
	rec_vmstat_delta(&r, &a, &b, always);
	if (rec_emit(&r) < 0)
		goto cleanup;
	ret = 0;
cleanup:
	if (fd >= 0)
		close(fd);
	if (mounted) {
		unlink(FILE_);
		if (umount(DIR_) < 0 && ret == 0)
			ret = fail("umount %s: %s", DIR_, strerror(errno));
	}
	return ret;
}

int wl_split(const struct fw_ctx *ctx)
{
	/* seed: 1 GiB file (0x40000 pages) split to order 0; quick: 512 MiB. */
	uint64_t size = ctx->seed ? (1ULL << 30) : (512ULL << 20);
	int order = 0, round, ret = -1;
	struct fw_rec r;

	rec_start(&r, "param");
	rec_kv(&r, "workload", WL);
	rec_kv(&r, "variant", VARIANT);
	rec_kvu(&r, "file_mib", size >> 20);
	rec_kvi(&r, "order", order);
	rec_kv(&r, "fs", "tmpfs");
	rec_kv(&r, "huge", "always");
	if (rec_emit(&r) < 0)
		goto cleanup;
	for (round = 0; round < ctx->rounds; round++) {
		if (one_round(size, order, round) < 0) {
			emit_error(WL, VARIANT, "round %d: %s", round, fw_errbuf);
			goto cleanup;
		}
	}
	ret = 0;
cleanup:
	return ret;
}
