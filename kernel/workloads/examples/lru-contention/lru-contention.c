/*
 * Seed 001's test, as a foliowatch workload (kernel/workloads/README.md):
 * THREADS threads, each maps SIZE_MIB of anonymous memory and LOOPS times
 * touches all of it (memset) and drops it again (MADV_DONTNEED), so every
 * loop faults the whole mapping in and frees it: with 16 KiB mTHP "always"
 * each fault allocates a 16 KiB folio and puts it on the LRU, which is where
 * the lruvec lock is taken. Prints the line format:
 *   metric wall_s SECONDS
 *   counter folios_16k_expected N   (the faults if every one got a 16 KiB folio)
 * Usage: lru-contention THREADS SIZE_MIB LOOPS
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

static long size_bytes, loops;

static void *worker(void *arg)
{
	char *p = mmap(NULL, (size_t)size_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	(void)arg;
	if (p == MAP_FAILED)
		return (void *)1;
	for (long i = 0; i < loops; i++) {
		memset(p, (int)i, (size_t)size_bytes);
		if (madvise(p, (size_t)size_bytes, MADV_DONTNEED))
			return (void *)1;
	}
	munmap(p, (size_t)size_bytes);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[256];
	struct timespec a, b;
	long threads = argc == 4 ? strtol(argv[1], NULL, 10) : 0;
	int failed = 0;

	size_bytes = argc == 4 ? strtol(argv[2], NULL, 10) << 20 : 0;
	loops = argc == 4 ? strtol(argv[3], NULL, 10) : 0;
	if (threads < 1 || threads > 256 || size_bytes < (1 << 20) || loops < 1) {
		fprintf(stderr, "usage: lru-contention THREADS(1-256) SIZE_MIB(>=1) LOOPS(>=1)\n");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (long i = 0; i < threads; i++)
		if (pthread_create(&t[i], NULL, worker, NULL))
			return 1;
	for (long i = 0; i < threads; i++) {
		void *r;
		pthread_join(t[i], &r);
		failed |= r != NULL;
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	if (failed) {
		fprintf(stderr, "lru-contention: mmap or madvise failed\n");
		return 1;
	}
	printf("metric wall_s %.6f\n", (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9);
	printf("counter folios_16k_expected %ld\n", threads * loops * (size_bytes / 16384));
	return 0;
}
