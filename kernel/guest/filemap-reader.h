#ifndef FW_FILEMAP_READER_H
#define FW_FILEMAP_READER_H
#include <stdint.h>

/* The version filemap's params record ("reader"): bump it when what it measures changes. */
#define FW_READER_VERSION "fw-reader-1"

struct reader_cfg {
	const char *path;          /* the file, on XFS on the ramdisk */
	uint64_t file_bytes;
	const char *memcg;         /* the jobs' v1 memcg, or NULL */
	int jobs;                  /* processes, 1..64 (fio --numjobs) */
	int thp;                   /* madvise(MADV_HUGEPAGE) on the mapping (fio --thp=1) */
	uint64_t reads_per_job;    /* fixed work (icount: it repeats); 0: time-based */
	double ramp_s, runtime_s;  /* time-based only: unmeasured ramp, then the measured time */
};

/* Runs the jobs; bandwidth (MiB/s) and IOPS over all of them. 0, or -1 with fail() said. */
int reader_run(const struct reader_cfg *c, double *bw_mib, double *iops);

#endif
