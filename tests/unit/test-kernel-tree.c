/*
 * The default kernel tree unpacked into the cache (collector/kernel-tree.c)
 * from a small tarball shaped like Debian's linux-source-6.12: committed
 * once, found again; and when another process renames its finished tree
 * into place first (a `tar` first on PATH plays that process: it unpacks,
 * then puts a committed tree where this one is going), this one takes
 * theirs instead of failing, as `make test` on a new machine needs (its
 * kernel prebuild and the test lanes both unpack). A stale tree that was
 * never committed is still an error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tap.h"
#include "kernel-build.h"
#include "strbuf.h"

static char root[] = "/tmp/fw-test-ktree-XXXXXX";

static int sh(const char *cmd)
{
	return system(cmd);
}

static int exists(const char *dir, const char *rel)
{
	char path[4200];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	return stat(path, &st) == 0;
}

/* root/linux-source-6.12.tar.xz: a top folder with a Makefile that knows kernelversion. */
static int make_tarball(void)
{
	char cmd[8192];

	snprintf(cmd, sizeof(cmd),
		 "set -e; cd %s; mkdir -p t/linux-source-6.12; "
		 "printf 'kernelversion:\\n\\t@echo 6.12.99\\n' > t/linux-source-6.12/Makefile; "
		 "echo x > t/linux-source-6.12/README; tar -cJf linux-source-6.12.tar.xz -C t linux-source-6.12",
		 root);
	return sh(cmd);
}

/* root/bin/tar: the real one, then another process's committed tree lands at $FW_TEST_WINNER. */
static int fake_tar(void)
{
	char cmd[8192];

	snprintf(cmd, sizeof(cmd),
		 "set -e; mkdir -p %s/bin; cat > %s/bin/tar <<'EOF'\n"
		 "#!/bin/sh\n/usr/bin/tar \"$@\" || exit $?\n"
		 "mkdir -p \"$FW_TEST_WINNER/.git\" && echo 'ref: refs/heads/master' > \"$FW_TEST_WINNER/.git/HEAD\"\n"
		 "echo theirs > \"$FW_TEST_WINNER/WINNER\"\nEOF\nchmod +x %s/bin/tar",
		 root, root, root);
	return sh(cmd);
}

int main(void)
{
	struct strbuf tree = STRBUF_INIT, err = STRBUF_INIT;
	char tarball[256], cache[256], path[2048], winner[512];

	if (!mkdtemp(root) || make_tarball() || fake_tar())
		return printf("Bail out! scratch tarball\n"), 1;
	snprintf(tarball, sizeof(tarball), "%s/linux-source-6.12.tar.xz", root);

	snprintf(cache, sizeof(cache), "%s/cache1", root);
	ok(!fw_kernel_tree_default(cache, tarball, &tree, &err), "a tree unpacked and committed");
	if (err.len)
		printf("# %s\n", err.buf);
	snprintf(path, sizeof(path), "%s/src/linux-source-6.12", cache);
	is_str(tree.buf, path, "... at cache/src/linux-source-6.12");
	ok(exists(tree.buf, ".git/HEAD") && exists(tree.buf, "Makefile"), "... a git tree with the tarball's files");
	ok(!fw_kernel_tree_default(cache, tarball, &tree, &err), "... found again, not unpacked twice");

	/* another process finishes first */
	snprintf(cache, sizeof(cache), "%s/cache2", root);
	snprintf(winner, sizeof(winner), "%s/src/linux-source-6.12", cache);
	setenv("FW_TEST_WINNER", winner, 1);
	snprintf(path, sizeof(path), "%s/bin:%s", root, getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
	setenv("PATH", path, 1);
	strbuf_reset(&err);
	ok(!fw_kernel_tree_default(cache, tarball, &tree, &err), "another process's tree landed first: taken");
	if (err.len)
		printf("# %s\n", err.buf);
	is_str(tree.buf, winner, "... its path");
	ok(exists(tree.buf, "WINNER") && !exists(tree.buf, "Makefile"), "... theirs, not this one's");
	snprintf(path, sizeof(path), "ls -A %s/src | grep -q '^\\.tmp-'", cache);
	ok(sh(path) != 0, "... this one's unpacked copy removed");

	/* a folder in the way that was never committed (a crash before the rename cannot leave one) */
	snprintf(cache, sizeof(cache), "%s/cache3", root);
	snprintf(winner, sizeof(winner), "%s/src/linux-source-6.12-not-this", cache);
	setenv("FW_TEST_WINNER", winner, 1);
	snprintf(path, sizeof(path), "mkdir -p %s/src/linux-source-6.12 && echo junk > %s/src/linux-source-6.12/junk",
		 cache, cache);
	sh(path);
	strbuf_reset(&err);
	ok(fw_kernel_tree_default(cache, tarball, &tree, &err) < 0, "an uncommitted folder in the way: an error");
	ok(strstr(err.buf, "rename") && strstr(err.buf, "not empty"), "... naming the rename and why");
	printf("# %s\n", err.buf);

	snprintf(path, sizeof(path), "rm -rf %s", root);
	sh(path);
	strbuf_release(&tree);
	strbuf_release(&err);
	return done_testing();
}
