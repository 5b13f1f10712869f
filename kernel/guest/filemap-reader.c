/*
 * filemap's reader (issue 27): what the seed's fio does in its measured
 * phase (--ioengine=mmap --rw=randread --buffered=1, --numjobs N, thp:
 * --thp=1 --readonly), in the guest init, so that nothing comes over 9p
 * while it runs. Each job is a process in the memcg that maps the whole file
 * read-only and copies 4 KiB blocks out of the mapping in random order, each
 * block once per pass (fio's random map), as fio's mmap engine copies
 * between the mapping and its I/O buffer, with fio's advice: MADV_RANDOM
 * (its default fadvise_hint for a random pattern), and for thp a private
 * mapping with MADV_HUGEPAGE (fio's thp=1). Bandwidth and IOPS over the jobs: bytes and reads
 * of all jobs over the longest job's time (fio's group_reporting).
 *
 * Differences from fio, written down in kernel/guest-notes.md: no ramp
 * under fixed work (the first reads are measured, so a fixed count repeats
 * from the start), a full-period LCG permutation per job instead of fio's
 * tausworthe generator with its random map, no I/O depth or latency
 * accounting, and the jobs start together behind a pipe rather than fio's
 * startup barrier.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "filemap-reader.h"
#include "fw.h"

#define BLOCK 4096

struct job_result {
	uint64_t reads;
	double seconds;
	int err;          /* errno of a failed step, 0: fine */
};

/* The next block of a full-period LCG over [0, 2^k) skipping those past n: every block once a pass. */
static uint64_t next_block(uint64_t *x, uint64_t mask, uint64_t n)
{
	do
		*x = (*x * 6364136223846793005ull + 1442695040888963407ull) & mask;
	while (*x >= n);
	return *x;
}

/* One job: ramp (time-based only), then the measured reads. */
static void job(const struct reader_cfg *c, int id, int go_fd, int out_fd)
{
	static char buf[BLOCK];
	struct job_result r = { 0 };
	uint64_t n = c->file_bytes / BLOCK, mask = 1, x = (uint64_t)id * 0x9e3779b97f4a7c15ull;
	volatile char sink = 0;
	char go;
	double t0;
	int fd;
	char *map;

	while (mask < n)
		mask <<= 1;
	mask--;
	x &= mask;
	if (c->memcg && memcg_join(c->memcg) < 0) {
		r.err = errno ? errno : EINVAL;
		goto out;
	}
	if ((fd = open(c->path, O_RDONLY | O_CLOEXEC)) < 0) {
		r.err = errno;
		goto out;
	}
	/* as fio's mmap engine: private with thp=1, shared otherwise */
	map = mmap(NULL, c->file_bytes, PROT_READ, c->thp ? MAP_PRIVATE : MAP_SHARED, fd, 0);
	close(fd);
	if (map == MAP_FAILED) {
		r.err = errno;
		goto out;
	}
	/* fio: MADV_HUGEPAGE with thp=1 (errors ignored), then its default
	 * fadvise_hint for a random pattern, MADV_RANDOM: no read-around, and a
	 * PMD-size readahead per fault of a VM_HUGEPAGE mapping */
	if (c->thp)
		madvise(map, c->file_bytes, MADV_HUGEPAGE);
	if (posix_madvise(map, c->file_bytes, POSIX_MADV_RANDOM)) {
		r.err = EINVAL;
		goto out;
	}
	if (read(go_fd, &go, 1) != 0) { /* every job waits for the start: the pipe's close */
		/* nothing: EOF is the signal */
	}
	t0 = now_s();
	for (double end = t0 + c->ramp_s; !c->reads_per_job && c->ramp_s > 0 && now_s() < end;)
		for (int i = 0; i < 64; i++)
			memcpy(buf, map + next_block(&x, mask, n) * BLOCK, BLOCK);
	t0 = now_s();
	if (c->reads_per_job) {
		for (uint64_t i = 0; i < c->reads_per_job; i++)
			memcpy(buf, map + next_block(&x, mask, n) * BLOCK, BLOCK);
		r.reads = c->reads_per_job;
	} else {
		for (double end = t0 + c->runtime_s; now_s() < end; r.reads += 64)
			for (int i = 0; i < 64; i++)
				memcpy(buf, map + next_block(&x, mask, n) * BLOCK, BLOCK);
	}
	r.seconds = now_s() - t0;
	sink = buf[0];
	(void)sink;
out:
	if (write(out_fd, &r, sizeof(r)) != (ssize_t)sizeof(r))
		_exit(2);
	_exit(r.err ? 1 : 0);
}

int reader_run(const struct reader_cfg *c, double *bw_mib, double *iops)
{
	int go[2], res[2], ret = -1, started = 0;
	uint64_t reads = 0;
	double longest = 0;
	pid_t pids[64];

	if (c->jobs < 1 || c->jobs > 64 || c->file_bytes < BLOCK)
		return fail("filemap reader: %d jobs over %llu bytes", c->jobs, (unsigned long long)c->file_bytes);
	if (pipe2(go, O_CLOEXEC) < 0 || pipe2(res, O_CLOEXEC) < 0)
		return fail("filemap reader: pipe: %s", strerror(errno));
	for (; started < c->jobs; started++) {
		if ((pids[started] = fork()) < 0) {
			fail("filemap reader: fork: %s", strerror(errno));
			break;
		}
		if (pids[started] == 0) {
			close(go[1]);
			close(res[0]);
			job(c, started, go[0], res[1]);
		}
	}
	close(go[0]);
	close(go[1]); /* the start */
	close(res[1]);
	for (int i = 0; i < started; i++) {
		struct job_result r;
		if (read(res[0], &r, sizeof(r)) != (ssize_t)sizeof(r)) {
			fail("filemap reader: a job died without a result");
			goto cleanup;
		}
		if (r.err) {
			fail("filemap reader: a job failed: %s", strerror(r.err));
			goto cleanup;
		}
		reads += r.reads;
		if (r.seconds > longest)
			longest = r.seconds;
	}
	if (started == c->jobs && reads && longest > 0) {
		*iops = (double)reads / longest;
		*bw_mib = *iops * BLOCK / 1048576.0;
		ret = 0;
	} else if (started == c->jobs) {
		fail("filemap reader: read nothing");
	}
cleanup:
	close(res[0]);
	for (int i = 0; i < started; i++) {
		if (ret)
			kill(pids[i], SIGKILL);
		while (waitpid(pids[i], NULL, 0) < 0 && errno == EINTR)
			;
	}
	return ret;
}
