/*
 * The pure checks that decide whether a workload measured what it claims,
 * on counter values alone: no I/O, so tests/unit/test-guest-checks.c runs
 * them on the host. Each returns 0, or -1 with the reason in msg.
 */
#ifndef FW_GUEST_CHECKS_H
#define FW_GUEST_CHECKS_H
#include <stddef.h>
#include <stdint.h>

/* mthp: at least 90% of the expected faults happened (MADV_DONTNEED emptied the
 * buffer each loop) and at least 90% of them got 16 KiB folios: a run that
 * mostly fell back to order 0 measures a path the seed's patch does not touch. */
#define MTHP_MIN_LARGE_PCT 90
int mthp_faults_check(uint64_t alloc, uint64_t fallback, uint64_t expect, char *msg, size_t size);

/* filemap: the memcg limit really bit (the file is larger than the limit, and
 * file refaults or the memcg's failcnt moved); drop_caches alone moves pgpgin. */
int filemap_refill_check(uint64_t file_mib, uint64_t limit_mib, int64_t refaults, int64_t failcnt,
			 char *msg, size_t size);

/* filemap thp: share of the memcg's page cache held in PMD-size folios
 * (FileHugePages / memcg cache). The file is twice the limit, so what is
 * resident is what the last readahead brought: 100% measured (kernel/guest-notes.md). */
#define FILEMAP_MIN_HUGE_PCT 50
int filemap_huge_share_check(int64_t file_huge_kb, uint64_t cache_kb, char *msg, size_t size);

#endif
