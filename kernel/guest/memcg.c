/*
 * cgroup v1 memory controller: the seeds use memory.force_empty and
 * memory.limit_in_bytes, which only v1 has (CONFIG_MEMCG_V1). v1 and v2
 * memory cannot both be mounted, so the whole guest uses v1 and results
 * record memcg=v1 in their params.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>
#include "fw.h"

#define MEMCG_ROOT "/sys/fs/cgroup/memory"

int memcg_path(char *buf, size_t size, const char *name, const char *file)
{
	int n;

	if (name)
		n = snprintf(buf, size, "%s/%s/%s", MEMCG_ROOT, name, file);
	else
		n = snprintf(buf, size, "%s/%s", MEMCG_ROOT, file);
	return (n < 0 || (size_t)n >= size) ? fail("memcg path too long") : 0;
}

int memcg_v1_mount(void)
{
	struct stat st;

	if (stat(MEMCG_ROOT "/memory.force_empty", &st) == 0)
		return 0;
	if (mount("tmpfs", "/sys/fs/cgroup", "tmpfs", 0, "size=1m") < 0 && errno != EBUSY)
		return fail("mount tmpfs on /sys/fs/cgroup: %s", strerror(errno));
	if (mkdir_p(MEMCG_ROOT) < 0)
		return -1;
	if (mount("cgroup", MEMCG_ROOT, "cgroup", 0, "memory") < 0)
		return fail("mount cgroup v1 memory: %s", strerror(errno));
	return 0;
}

int memcg_create(const char *name, uint64_t limit_bytes)
{
	char path[256];

	if (memcg_v1_mount() < 0)
		return -1;
	snprintf(path, sizeof(path), "%s/%s", MEMCG_ROOT, name);
	if (mkdir(path, 0755) < 0 && errno != EEXIST)
		return fail("mkdir %s: %s", path, strerror(errno));
	if (memcg_path(path, sizeof(path), name, "memory.limit_in_bytes") < 0)
		return -1;
	if (limit_bytes)
		return write_textf(path, "%llu", (unsigned long long)limit_bytes);
	return write_text(path, "-1");
}

int memcg_join(const char *name)
{
	char path[256];

	if (memcg_path(path, sizeof(path), name, "cgroup.procs") < 0)
		return -1;
	return write_textf(path, "%d", (int)getpid());
}

int memcg_usage(const char *name, uint64_t *bytes)
{
	char path[256];

	if (memcg_path(path, sizeof(path), name, "memory.usage_in_bytes") < 0)
		return -1;
	return read_u64(path, bytes);
}

/* One "key value" line of the memcg's memory.stat (v1: bytes for sizes). */
int memcg_stat(const char *name, const char *key, uint64_t *v)
{
	static char buf[8192];
	char path[256];
	size_t klen = strlen(key);
	const char *p;

	if (memcg_path(path, sizeof(path), name, "memory.stat") < 0 ||
	    read_text(path, buf, sizeof(buf)) < 0)
		return -1;
	for (p = buf; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (!strncmp(p, key, klen) && p[klen] == ' ') {
			*v = strtoull(p + klen + 1, NULL, 10);
			return 0;
		}
	}
	return fail("%s has no %s", path, key);
}

int memcg_failcnt(const char *name, uint64_t *v)
{
	char path[256];

	if (memcg_path(path, sizeof(path), name, "memory.failcnt") < 0)
		return -1;
	return read_u64(path, v);
}
