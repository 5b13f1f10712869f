/* THP/mTHP sysfs knobs: each workload states the sizes it allows. */
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "fw.h"

#define THP_DIR "/sys/kernel/mm/transparent_hugepage"

int thp_anon_only(unsigned size_kb)
{
	struct dirent *de;
	char path[512];
	int ret = -1, found = 0;
	DIR *d;

	/* Sizes left at "inherit" would follow the top-level knob: set it too. */
	if (write_text(THP_DIR "/enabled", "never") < 0)
		goto cleanup_nodir;
	d = opendir(THP_DIR);
	if (!d) {
		fail("opendir %s", THP_DIR);
		goto cleanup_nodir;
	}
	while ((de = readdir(d))) {
		unsigned kb;
		char tail[8];

		if (sscanf(de->d_name, "hugepages-%ukB%7s", &kb, tail) != 1)
			continue;
		snprintf(path, sizeof(path), THP_DIR "/%s/enabled", de->d_name);
		/* Sizes that are file/shmem-only (order 1 on x86) have no anon knob. */
		if (access(path, F_OK) < 0 && kb != size_kb)
			continue;
		if (write_text(path, kb == size_kb ? "always" : "never") < 0)
			goto cleanup;
		found |= kb == size_kb;
	}
	if (!found) {
		fail("no %s/hugepages-%ukB (mTHP size not supported)", THP_DIR, size_kb);
		goto cleanup;
	}
	ret = 0;
cleanup:
	closedir(d);
cleanup_nodir:
	return ret;
}

int mthp_stat(unsigned size_kb, const char *stat, uint64_t *v)
{
	char path[256];

	snprintf(path, sizeof(path), THP_DIR "/hugepages-%ukB/stats/%s", size_kb, stat);
	return read_u64(path, v);
}
