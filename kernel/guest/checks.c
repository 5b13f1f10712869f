/* Pure checks on counter values (see checks.h). */
#include <stdio.h>
#include "checks.h"

int mthp_faults_check(uint64_t alloc, uint64_t fallback, uint64_t expect, char *msg, size_t size)
{
	uint64_t faults = alloc + fallback;

	if (!faults || faults < expect * 9 / 10) {
		snprintf(msg, size, "16kB anon faults %llu+%llu, expected about %llu: "
			 "memset/MADV_DONTNEED had no effect", (unsigned long long)alloc,
			 (unsigned long long)fallback, (unsigned long long)expect);
		return -1;
	}
	if (alloc * 100 < faults * MTHP_MIN_LARGE_PCT) {
		snprintf(msg, size, "only %llu of %llu faults (%.1f%%) got 16 KiB folios, %llu fell "
			 "back to order 0 (need %d%%): not the path being measured",
			 (unsigned long long)alloc, (unsigned long long)faults,
			 faults ? 100.0 * (double)alloc / (double)faults : 0.0,
			 (unsigned long long)fallback, MTHP_MIN_LARGE_PCT);
		return -1;
	}
	return 0;
}

int filemap_refill_check(uint64_t file_mib, uint64_t limit_mib, int64_t refaults, int64_t failcnt,
			 char *msg, size_t size)
{
	if (refaults <= 0 && failcnt <= 0) {
		snprintf(msg, size, "the memcg limit never bit: workingset_refault_file %lld, "
			 "memory.failcnt %lld during the measured phase",
			 (long long)refaults, (long long)failcnt);
		return -1;
	}
	if (!limit_mib || file_mib <= limit_mib) {
		snprintf(msg, size, "the file (%llu MiB) must be larger than the memcg limit "
			 "(%llu MiB, 0 = none), or the page cache never has to refill",
			 (unsigned long long)file_mib, (unsigned long long)limit_mib);
		return -1;
	}
	return 0;
}

int filemap_huge_share_check(int64_t file_huge_kb, uint64_t cache_kb, char *msg, size_t size)
{
	if (file_huge_kb < 0 || !cache_kb ||
	    (uint64_t)file_huge_kb * 100 < cache_kb * FILEMAP_MIN_HUGE_PCT) {
		snprintf(msg, size, "only %lld of the memcg's %llu kB page cache in PMD-size folios "
			 "(FileHugePages; need %d%%): thp=1 did not give large folios",
			 (long long)file_huge_kb, (unsigned long long)cache_kb, FILEMAP_MIN_HUGE_PCT);
		return -1;
	}
	return 0;
}
