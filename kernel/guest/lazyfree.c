/*
 * lazyfree (seed 002): in a v1 memcg, fault in PMD THPs, madvise(MADV_FREE),
 * then time memory.force_empty (mem_cgroup_force_empty() reclaims them).
 * The task moves back to the root cgroup before MADV_FREE: its charges stay
 * in the memcg (v1 does not move charges), so force_empty sees only the
 * lazyfree THPs, not the task's stack or the init binary.
 * Verified: AnonHugePages grew by the buffer, pglazyfree counts every page,
 * and the memcg usage fell by at least 90% of the buffer (reclaim that freed
 * nothing is an error: the DESIGN.md trap with madvise returning ENOSYS).
 * The timed write runs SCHED_FIFO: reclaim queues vmpressure work about
 * every 512 pages scanned, and on one vCPU whether its kworker preempts the
 * writer (about 650 context switches a round, or none) depended on the
 * scheduler's state, so round times took one of two values 9% apart
 * (kernel/guest-notes.md). As FIFO the work runs after the write: what is
 * timed is the reclaim path itself.
 */
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include "fw.h"

#define WL "lazyfree"
#define VARIANT "pmd"
#define CG "fw-lazyfree"
#define PMD_SIZE (2UL << 20)

static const struct fw_metric m_reclaim = { "reclaim_s", "s", "lower_is_better", "time" };

/* SCHED_FIFO (priority 1) for the timed write, SCHED_OTHER again after it. */
static int timed_policy(int fifo)
{
	struct sched_param sp = { .sched_priority = fifo ? 1 : 0 };

	if (sched_setscheduler(0, fifo ? SCHED_FIFO : SCHED_OTHER, &sp) < 0)
		return fail("sched_setscheduler(%s): %s", fifo ? "SCHED_FIFO" : "SCHED_OTHER", strerror(errno));
	return 0;
}

static int one_round(uint64_t size, int round)
{
	static const char *const always[] = { "pglazyfreed", "thp_split_pmd", "pgsteal_direct",
					      NULL };
	struct vmstat a, b, c;
	struct fw_rec r;
	char path[256];
	uint64_t usage0, usage1, pages = size >> 12;
	int64_t ahp0, ahp1, lazy;
	double t0, t1;
	char *map = MAP_FAILED, *buf;
	size_t maplen = (size_t)size + PMD_SIZE;
	int ret = -1;

	if (memcg_join(CG) < 0)
		goto cleanup;
	map = mmap(NULL, maplen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED) {
		fail("mmap %zu: %s", maplen, strerror(errno));
		goto cleanup;
	}
	buf = (char *)(((uintptr_t)map + PMD_SIZE - 1) & ~(uintptr_t)(PMD_SIZE - 1));
	if (madvise(buf, (size_t)size, MADV_HUGEPAGE) < 0) {
		fail("madvise(MADV_HUGEPAGE): %s", strerror(errno));
		goto cleanup;
	}
	ahp0 = meminfo_kb("AnonHugePages");
	memset(buf, 0x55, (size_t)size);
	ahp1 = meminfo_kb("AnonHugePages");
	if (ahp1 - ahp0 < (int64_t)(size >> 10) * 9 / 10) {
		fail("only %lld of %llu kB faulted in as PMD THPs (AnonHugePages)",
		     (long long)(ahp1 - ahp0), (unsigned long long)(size >> 10));
		goto cleanup;
	}
	if (memcg_join(NULL) < 0 || vmstat_read(&a) < 0)
		goto cleanup;
	if (madvise(buf, (size_t)size, MADV_FREE) < 0) {
		fail("madvise(MADV_FREE): %s", strerror(errno));
		goto cleanup;
	}
	if (vmstat_read(&b) < 0 || memcg_usage(CG, &usage0) < 0)
		goto cleanup;
	lazy = vmstat_delta(&a, &b, "pglazyfree");
	if (lazy < (int64_t)pages) {
		fail("pglazyfree +%lld, expected %llu pages", (long long)lazy,
		     (unsigned long long)pages);
		goto cleanup;
	}
	if (memcg_path(path, sizeof(path), CG, "memory.force_empty") < 0)
		goto cleanup;
	if (timed_policy(1) < 0)
		goto cleanup;
	kprof_section_begin();
	t0 = now_s();
	if (write_text(path, "0") < 0) {
		timed_policy(0);
		goto cleanup;
	}
	t1 = now_s();
	kprof_section_end(VARIANT);
	if (timed_policy(0) < 0)
		goto cleanup;
	if (vmstat_read(&c) < 0 || memcg_usage(CG, &usage1) < 0)
		goto cleanup;
	if (usage1 > usage0 || usage0 - usage1 < size * 9 / 10) {
		fail("force_empty freed %lld of %llu bytes (usage %llu -> %llu)",
		     (long long)(usage0 - usage1), (unsigned long long)size,
		     (unsigned long long)usage0, (unsigned long long)usage1);
		goto cleanup;
	}
	if (emit_sample(WL, VARIANT, &m_reclaim, round, t1 - t0) < 0)
		goto cleanup;
	rec_start(&r, "counters");
	rec_kv(&r, "workload", WL);
	rec_kv(&r, "variant", VARIANT);
	rec_kvi(&r, "round", round);
	rec_kvi(&r, "AnonHugePages_faulted_kb", ahp1 - ahp0);
	rec_kvi(&r, "pglazyfree", lazy);
	rec_kvu(&r, "memcg_usage_before_kb", usage0 >> 10);
	rec_kvu(&r, "memcg_usage_after_kb", usage1 >> 10);
	rec_vmstat_delta(&r, &b, &c, always);
	if (rec_emit(&r) < 0)
		goto cleanup;
	ret = 0;
cleanup:
	if (map != MAP_FAILED && munmap(map, maplen) < 0 && ret == 0)
		ret = fail("munmap: %s", strerror(errno));
	memcg_join(NULL);
	return ret;
}

int wl_lazyfree(const struct fw_ctx *ctx)
{
	/* seed: 1 GiB; quick: 512 MiB (about 0.15 s of reclaim under TCG). */
	uint64_t size = ctx->seed ? (1ULL << 30) : (512ULL << 20);
	struct fw_rec r;
	int round, ret = -1;

	rec_start(&r, "param");
	rec_kv(&r, "workload", WL);
	rec_kv(&r, "variant", VARIANT);
	rec_kvu(&r, "mib", size >> 20);
	rec_kv(&r, "memcg", "v1");
	rec_kv(&r, "thp", "pmd");
	rec_kv(&r, "reclaim", "memory.force_empty");
	rec_kv(&r, "sched", "fifo");
	if (rec_emit(&r) < 0)
		goto cleanup;
	if (thp_anon_only(2048) < 0 || memcg_create(CG, 0) < 0) {
		emit_error(WL, VARIANT, "%s", fw_errbuf);
		goto cleanup;
	}
	for (round = 0; round < ctx->rounds; round++) {
		if (one_round(size, round) < 0) {
			emit_error(WL, VARIANT, "round %d: %s", round, fw_errbuf);
			goto cleanup;
		}
	}
	ret = 0;
cleanup:
	return ret;
}
