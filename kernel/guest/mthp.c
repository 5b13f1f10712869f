/*
 * mthp (seed 001): 16 KiB mTHP always, every other size never; N threads
 * each mmap M MiB anonymous memory and loop { memset 0x55; MADV_DONTNEED }.
 * Timed rounds run with no tracing at all and record wall time and the
 * process's precise CPU time (cpu_s: sum_exec_runtime of all threads; the
 * tick-sampled user/sys split goes into the counters). Then one untimed
 * diagnostic round counts what the seed's patch changes: calls of
 * folio_batch_move_lru (one lruvec lock round trip per LRU batch) per fault,
 * from the ftrace function profiler, plus lock contention from hist triggers.
 * Verified: every call succeeded, and at least 90% of the expected faults
 * happened and got 16 KiB folios (checks.c).
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include "checks.h"
#include "fw.h"

#define WL "mthp"
#define VARIANT "16k"
#define MTHP_KB 16
#define LRU_FN "folio_batch_move_lru"

static const struct fw_metric m_wall = { "wall_s", "s", "lower_is_better", "time" };
static const struct fw_metric m_cpu = { "cpu_s", "s", "lower_is_better", "time" };
static const struct fw_metric m_lru = { "lru_lock_per_fault", "1/fault", "lower_is_better", "count" };

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

/* What one pass of the threads did. */
struct mthp_pass {
	double wall, cpu, user, sys;
	uint64_t alloc, fallback;
	struct vmstat a, b;
};

static int run_pass(const struct mthp_cfg *cfg, struct mthp_pass *p)
{
	struct mthp_job jobs[64];
	pthread_t tids[64];
	uint64_t fa0, fa1, fb0, fb1, expect;
	double t0, c0, u0, s0;
	char why[256];
	int i, started = 0, ret = -1;

	if (mthp_stat(MTHP_KB, "anon_fault_alloc", &fa0) < 0 ||
	    mthp_stat(MTHP_KB, "anon_fault_fallback", &fb0) < 0 || vmstat_read(&p->a) < 0)
		goto cleanup;
	u0 = rusage_user_s();
	s0 = rusage_sys_s();
	c0 = process_cpu_s();
	kprof_section_begin();
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
	p->wall = now_s() - t0;
	p->cpu = process_cpu_s() - c0;
	kprof_section_end(VARIANT);
	p->user = rusage_user_s() - u0;
	p->sys = rusage_sys_s() - s0;
	if (vmstat_read(&p->b) < 0 || mthp_stat(MTHP_KB, "anon_fault_alloc", &fa1) < 0 ||
	    mthp_stat(MTHP_KB, "anon_fault_fallback", &fb1) < 0)
		goto cleanup;
	for (i = 0; i < cfg->threads; i++) {
		if (jobs[i].err) {
			fail("thread %d: %s: %s", i, jobs[i].what, strerror(jobs[i].err));
			goto cleanup;
		}
	}
	p->alloc = fa1 - fa0;
	p->fallback = fb1 - fb0;
	/* Each loop faults every 16 KiB of every thread's buffer again. */
	expect = (uint64_t)cfg->threads * (uint64_t)cfg->loops * ((uint64_t)cfg->mib << 10) / MTHP_KB;
	if (mthp_faults_check(p->alloc, p->fallback, expect, why, sizeof(why)) < 0) {
		fail("%s", why);
		goto cleanup;
	}
	ret = 0;
cleanup:
	for (i = 0; i < started; i++)
		pthread_join(tids[i], NULL);
	return ret;
}

static void rec_pass(struct fw_rec *r, const struct mthp_pass *p, int round)
{
	static const char *const always[] = { "thp_fault_alloc", "pgfault", NULL };

	rec_start(r, "counters");
	rec_kv(r, "workload", WL);
	rec_kv(r, "variant", VARIANT);
	rec_kvi(r, "round", round);
	rec_kvu(r, "mthp_16kB_anon_fault_alloc", p->alloc);
	rec_kvu(r, "mthp_16kB_anon_fault_fallback", p->fallback);
	rec_kvd(r, "mthp_16kB_fallback_ratio",
		p->alloc + p->fallback ? (double)p->fallback / (double)(p->alloc + p->fallback) : 0);
	/* tick-sampled (HZ): diagnostic only; cpu_s is their precise sum */
	rec_kvd(r, "user_s", p->user);
	rec_kvd(r, "sys_s", p->sys);
	rec_vmstat_delta(r, &p->a, &p->b, always);
}

static int timed_round(const struct mthp_cfg *cfg, int round)
{
	struct mthp_pass p;
	struct fw_rec r;

	if (run_pass(cfg, &p) < 0)
		return -1;
	if (emit_sample(WL, VARIANT, &m_wall, round, p.wall) < 0 ||
	    emit_sample(WL, VARIANT, &m_cpu, round, p.cpu) < 0)
		return -1;
	rec_pass(&r, &p, round);
	return rec_emit(&r);
}

/* Untimed: tracing on, so its times are not samples; what it counts is exact. */
static int diag_round(const struct fw_ctx *ctx, const struct mthp_cfg *cfg, int round)
{
	struct lockstat ls = { 0, 0, 0 };
	struct mthp_pass p;
	struct fw_rec r;
	uint64_t lru = 0;
	int traced = 0, profiled = 0, ret = -1;

	if (ctx->locktrace) {
		if (locktrace_start() < 0)
			emit_info("lock_trace", fw_errbuf); /* not fatal: say why it is missing */
		else
			traced = 1;
	}
	if (fprof_start(LRU_FN) < 0)
		emit_info("lru_lock", fw_errbuf);
	else
		profiled = 1;
	if (run_pass(cfg, &p) < 0)
		goto cleanup;
	if (profiled && fprof_hits(LRU_FN, &lru) < 0)
		goto cleanup;
	if (traced && locktrace_read(&ls) < 0)
		goto cleanup;
	if (profiled && emit_diag_sample(WL, VARIANT, &m_lru, round,
					 (double)lru / (double)(p.alloc + p.fallback)) < 0)
		goto cleanup;
	rec_pass(&r, &p, round);
	if (profiled)
		rec_kvu(&r, LRU_FN "_calls", lru);
	if (traced) {
		rec_kvu(&r, "lock_contended", ls.contended);
		rec_kvu(&r, "lock_wait_us", ls.wait_us);
		rec_kvu(&r, "lock_trace_dropped", ls.dropped);
	}
	if (rec_emit(&r) < 0)
		goto cleanup;
	ret = 0;
cleanup:
	if (profiled)
		fprof_stop();
	if (traced)
		locktrace_stop();
	return ret;
}

/* Tests only: real fallbacks, from failures injected into order>=2 allocations
 * that cannot sleep (mTHP's; CONFIG_FAIL_PAGE_ALLOC). */
static int inject_failures(int pct)
{
	static const char *const knobs[][2] = {
		{ "min-order", "2" }, { "ignore-gfp-wait", "Y" }, { "ignore-gfp-highmem", "N" },
		{ "interval", "1" }, { "times", "-1" }, { "verbose", "0" }, { "task-filter", "N" },
	};
	char path[128];

	for (size_t i = 0; i < sizeof(knobs) / sizeof(knobs[0]); i++) {
		snprintf(path, sizeof(path), "/sys/kernel/debug/fail_page_alloc/%s", knobs[i][0]);
		if (write_text(path, knobs[i][1]) < 0)
			return -1;
	}
	return write_textf("/sys/kernel/debug/fail_page_alloc/probability", "%d", pct);
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
	rec_kv(&r, "tracing", "diagnostic-round-only");
	if (ctx->mthp_fail_pct)
		rec_kvi(&r, "injected_fail_pct", ctx->mthp_fail_pct);
	if (rec_emit(&r) < 0)
		goto cleanup;
	if (thp_anon_only(MTHP_KB) < 0 || (ctx->mthp_fail_pct && inject_failures(ctx->mthp_fail_pct) < 0)) {
		emit_error(WL, VARIANT, "%s", fw_errbuf);
		goto cleanup;
	}
	for (round = 0; round < ctx->rounds; round++) {
		if (timed_round(&cfg, round) < 0) {
			emit_error(WL, VARIANT, "round %d: %s", round, fw_errbuf);
			goto cleanup;
		}
	}
	if (ctx->diag && diag_round(ctx, &cfg, ctx->rounds) < 0) {
		emit_error(WL, VARIANT, "diagnostic round: %s", fw_errbuf);
		goto cleanup;
	}
	ret = 0;
cleanup:
	return ret;
}
