/*
 * mthp (seed 001): 16 KiB mTHP always, every other size never; N threads
 * each mmap M MiB anonymous memory and loop { memset 0x55; MADV_DONTNEED }.
 * Records wall, user and sys time of the whole process, and lock contention
 * (count and wait) from the lock tracepoints. Verified: every madvise()
 * succeeded and 16 KiB anon_fault_alloc+fallback covers every loop's faults
 * (if MADV_DONTNEED did nothing, only the first loop would fault).
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include "fw.h"

#define WL "mthp"
#define VARIANT "16k"
#define MTHP_KB 16

static const struct fw_metric m_wall = { "wall_s", "s", "lower_is_better", "time" };
static const struct fw_metric m_user = { "user_s", "s", "lower_is_better", "time" };
static const struct fw_metric m_sys = { "sys_s", "s", "lower_is_better", "time" };

struct mthp_job {
	size_t size;
	int loops;
	int err;            /* errno of the first failing call, 0 if none */
	const char *what;
};

static void *worker(void *arg)
{
	struct mthp_job *job = arg;
	void *addr;
	int i;

	addr = mmap(NULL, job->size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (addr == MAP_FAILED) {
		job->err = errno;
		job->what = "mmap";
		goto cleanup;
	}
	for (i = 0; i < job->loops; i++) {
		memset(addr, 0x55, job->size);
		if (madvise(addr, job->size, MADV_DONTNEED) < 0) {
			job->err = errno;
			job->what = "madvise(MADV_DONTNEED)";
			break;
		}
	}
	if (munmap(addr, job->size) < 0 && !job->err) {
		job->err = errno;
		job->what = "munmap";
	}
cleanup:
	return NULL;
}

struct mthp_cfg {
	int threads, mib, loops;
};

static int one_round(const struct fw_ctx *ctx, const struct mthp_cfg *cfg, int round)
{
	static const char *const always[] = { "thp_fault_alloc", "pgfault", NULL };
	struct mthp_job jobs[64];
	pthread_t tids[64];
	struct lockstat ls = { 0, 0, 0 };
	struct vmstat a, b;
	struct fw_rec r;
	uint64_t fa0, fa1, fb0, fb1, expect;
	double t0, t1, u0, u1, s0, s1;
	int i, started = 0, traced = 0, ret = -1;

	if (ctx->locktrace) {
		if (locktrace_start() < 0) {
			/* Not fatal: the times are still right; say why it is missing. */
			emit_info("lock_trace", fw_errbuf);
		} else {
			traced = 1;
		}
	}
	if (mthp_stat(MTHP_KB, "anon_fault_alloc", &fa0) < 0 ||
	    mthp_stat(MTHP_KB, "anon_fault_fallback", &fb0) < 0 || vmstat_read(&a) < 0)
		goto cleanup;
	u0 = rusage_user_s();
	s0 = rusage_sys_s();
	t0 = now_s();
	for (i = 0; i < cfg->threads; i++) {
		jobs[i] = (struct mthp_job){ (size_t)cfg->mib << 20, cfg->loops, 0, NULL };
		errno = pthread_create(&tids[i], NULL, worker, &jobs[i]);
		if (errno) {
			fail("pthread_create: %s", strerror(errno));
			goto cleanup;
		}
		started++;
	}
	for (i = 0; i < started; i++)
		pthread_join(tids[i], NULL);
	started = 0;
	t1 = now_s();
	u1 = rusage_user_s();
	s1 = rusage_sys_s();
	if (vmstat_read(&b) < 0 || mthp_stat(MTHP_KB, "anon_fault_alloc", &fa1) < 0 ||
	    mthp_stat(MTHP_KB, "anon_fault_fallback", &fb1) < 0)
		goto cleanup;
	if (traced && locktrace_read(&ls) < 0)
		goto cleanup;
	for (i = 0; i < cfg->threads; i++) {
		if (jobs[i].err) {
			fail("thread %d: %s: %s", i, jobs[i].what, strerror(jobs[i].err));
			goto cleanup;
		}
	}
	/* Each loop faults every 16 KiB of every thread's buffer again. */
	expect = (uint64_t)cfg->threads * (uint64_t)cfg->loops * ((uint64_t)cfg->mib << 10) / MTHP_KB;
	if ((fa1 - fa0) + (fb1 - fb0) < expect * 9 / 10) {
		fail("16kB anon faults %llu+%llu, expected about %llu: memset/DONTNEED had no effect",
		     (unsigned long long)(fa1 - fa0), (unsigned long long)(fb1 - fb0),
		     (unsigned long long)expect);
		goto cleanup;
	}
	if (emit_sample(WL, VARIANT, &m_wall, round, t1 - t0) < 0 ||
	    emit_sample(WL, VARIANT, &m_user, round, u1 - u0) < 0 ||
	    emit_sample(WL, VARIANT, &m_sys, round, s1 - s0) < 0)
		goto cleanup;
	rec_start(&r, "counters");
	rec_kv(&r, "workload", WL);
	rec_kv(&r, "variant", VARIANT);
	rec_kvi(&r, "round", round);
	rec_kvu(&r, "mthp_16kB_anon_fault_alloc", fa1 - fa0);
	rec_kvu(&r, "mthp_16kB_anon_fault_fallback", fb1 - fb0);
	if (traced) {
		rec_kvu(&r, "lock_contended", ls.contended);
		rec_kvu(&r, "lock_wait_us", ls.wait_us);
		rec_kvu(&r, "lock_trace_dropped", ls.dropped);
	}
	rec_vmstat_delta(&r, &a, &b, always);
	if (rec_emit(&r) < 0)
		goto cleanup;
	ret = 0;
cleanup:
	for (i = 0; i < started; i++)
		pthread_join(tids[i], NULL);
	if (traced)
		locktrace_stop();
	return ret;
}

int wl_mthp(const struct fw_ctx *ctx)
{
	/* seed: 20 threads x 16 MiB x 1000 loops; quick: 4 x 16 MiB x 20. */
	struct mthp_cfg cfg = ctx->seed ? (struct mthp_cfg){ 20, 16, 1000 }
					: (struct mthp_cfg){ 4, 16, 20 };
	struct fw_rec r;
	int round, ret = -1;

	rec_start(&r, "param");
	rec_kv(&r, "workload", WL);
	rec_kv(&r, "variant", VARIANT);
	rec_kvi(&r, "threads", cfg.threads);
	rec_kvi(&r, "mib_per_thread", cfg.mib);
	rec_kvi(&r, "loops", cfg.loops);
	rec_kvi(&r, "mthp_kb", MTHP_KB);
	rec_kv(&r, "lock_trace", ctx->locktrace ? "hist" : "off");
	if (rec_emit(&r) < 0)
		goto cleanup;
	if (thp_anon_only(MTHP_KB) < 0) {
		emit_error(WL, VARIANT, "%s", fw_errbuf);
		goto cleanup;
	}
	for (round = 0; round < ctx->rounds; round++) {
		if (one_round(ctx, &cfg, round) < 0) {
			emit_error(WL, VARIANT, "round %d: %s", round, fw_errbuf);
			goto cleanup;
		}
	}
	ret = 0;
cleanup:
	return ret;
}
