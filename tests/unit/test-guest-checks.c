/* The guest's pure checks (kernel/guest/checks.c) on counter values: the host
 * compiles the same file the guest runs. */
#include "tap.h"
#include "../../kernel/guest/checks.c"

int main(void)
{
	char msg[512];

	/* mthp: 4 threads x 16 MiB x 20 loops = 81920 expected 16 KiB faults */
	is_int(mthp_faults_check(81920, 0, 81920, msg, sizeof(msg)), 0, "mthp: all 16 KiB: ok");
	is_int(mthp_faults_check(74000, 7920, 81920, msg, sizeof(msg)), 0, "mthp: 90.3% large: ok");
	is_int(mthp_faults_check(40960, 40960, 81920, msg, sizeof(msg)), -1, "mthp: 50% alloc / 50% fallback is an error");
	ok(strstr(msg, "only 40960 of 81920 faults (50.0%) got 16 KiB folios") != NULL, "mthp: the message gives the share");
	is_int(mthp_faults_check(73000, 8920, 81920, msg, sizeof(msg)), -1, "mthp: 89.1% large is an error");
	is_int(mthp_faults_check(4096, 0, 81920, msg, sizeof(msg)), -1, "mthp: too few faults (DONTNEED did nothing)");
	ok(strstr(msg, "MADV_DONTNEED had no effect") != NULL, "mthp: the message says why");
	is_int(mthp_faults_check(0, 0, 0, msg, sizeof(msg)), -1, "mthp: no faults at all is an error");

	/* filemap: the limit must bite */
	is_int(filemap_refill_check(256, 128, 5000, 0, msg, sizeof(msg)), 0, "filemap: refaults: ok");
	is_int(filemap_refill_check(256, 128, 0, 12, msg, sizeof(msg)), 0, "filemap: failcnt alone: ok");
	is_int(filemap_refill_check(256, 128, 0, 0, msg, sizeof(msg)), -1, "filemap: nothing moved is an error");
	ok(strstr(msg, "never bit") != NULL, "filemap: says the limit never bit");
	is_int(filemap_refill_check(256, 0, 100, 0, msg, sizeof(msg)), -1, "filemap: no limit is an error");
	is_int(filemap_refill_check(128, 256, 100, 5, msg, sizeof(msg)), -1, "filemap: file smaller than the limit is an error");
	ok(strstr(msg, "larger than the memcg limit") != NULL, "filemap: says why");

	/* filemap thp: share of the cache in PMD folios */
	is_int(filemap_huge_share_check(120 * 1024, 128 * 1024, msg, sizeof(msg)), 0, "thp share 94%: ok");
	is_int(filemap_huge_share_check(20 * 1024, 128 * 1024, msg, sizeof(msg)), -1, "thp share 16%: error");
	is_int(filemap_huge_share_check(-1, 128 * 1024, msg, sizeof(msg)), -1, "thp: no FileHugePages field: error");
	is_int(filemap_huge_share_check(1024, 0, msg, sizeof(msg)), -1, "thp: empty cache: error");
	return done_testing();
}
