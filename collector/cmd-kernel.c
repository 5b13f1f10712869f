/*
 * foliowatch-collect kernel [--tree DIR | --mbox FILE] [--cache DIR] [--jobs N] [--config FRAGMENT]
 * Builds (or reuses) a kernel and prints the path of its cached bzImage.
 * Without --tree: Debian's linux-source-6.12, unpacked once into the cache.
 * With --mbox: also each commit of the series applied onto it, as run builds
 * them (same build folder, same cache keys), so a later run finds them built.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cmdopt.h"
#include "kernel-build.h"
#include "lock.h"
#include "patchset.h"
#include "runcmd.h"
#include "series-build.h"
#include "sha256.h"
#include "xalloc.h"

/* kernel/foliowatch.config next to the binary's source tree (build/../kernel). */
void fw_default_fragment(struct strbuf *out)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	strbuf_reset(out);
	if (n > 0) {
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			strbuf_addf(out, "%s/../kernel/foliowatch.config", exe);
			if (access(out->buf, R_OK) == 0)
				return;
			strbuf_reset(out);
		}
	}
	strbuf_addstr(out, "kernel/foliowatch.config");
}

/*
 * The default kernel is the tree's own commit. A series run checks patches
 * out in this tree and puts the branch back when done; one that was killed
 * may have left a patch checked out: never build that. The host lock (taken
 * here into lock), held to the end of the build, keeps a running series from
 * checking out its next commit under this build (and this checkout from
 * landing under its build). 0, or -1 said.
 */
static int default_tree_on_branch(const char *tree, struct fw_lock *lock)
{
	const char *ref[] = { "git", "symbolic-ref", "-q", "HEAD", NULL };
	const char *co[] = { "git", "checkout", "-q", "--force", "master", NULL };
	struct strbuf out = STRBUF_INIT;
	int ret = -1;

	if (fw_lock_acquire(lock, NULL, "kernel"))
		goto cleanup;
	if (runcmd_capture(ref, tree, &out) != 0) {
		fprintf(stderr, "foliowatch-collect kernel: the default tree was left on another commit; "
				"checking its base out again\n");
		strbuf_reset(&out);
		if (runcmd_capture(co, tree, &out) != 0) {
			fprintf(stderr, "foliowatch-collect kernel: cannot check out master in %s\n", tree);
			goto cleanup;
		}
	}
	ret = 0;
cleanup:
	strbuf_release(&out);
	return ret;
}

/*
 * The series in mbox applied onto the default tree's branch (its own am
 * worktree, named after the file) and each commit built in the tree, as run
 * builds it; the tree is put back on its branch. 0 when every kernel built.
 */
static int build_mbox(const char *tree, const char *cache, const char *fragment, int jobs, const char *mbox)
{
	struct fw_patchset s = { 0 };
	struct strbuf err = STRBUF_INIT, amdir = STRBUF_INIT;
	struct fw_built *b = NULL;
	struct progress pr;
	char hex[65];
	int ret = 1;

	progress_init(&pr, 0);
	pr.out = stderr; /* stdout carries the bzImage paths */
	pr.tty = isatty(STDERR_FILENO);
	sha256_hex(mbox, strlen(mbox), hex);
	strbuf_addf(&amdir, "%s/am/kernel-%.12s", cache, hex);
	/* master, not HEAD: another collector may hold the tree at a patch between its builds */
	if (patchset_from_mbox(&s, tree, "master", mbox, amdir.buf, &err)) {
		fprintf(stderr, "foliowatch-collect kernel: %s\n", err.buf);
		goto cleanup;
	}
	b = xcalloc((size_t)s.nr, sizeof(*b));
	if (fw_series_build(&s, cache, tree, fragment, jobs, b, &pr))
		fw_default_tree_restore(tree, "refs/heads/master");
	ret = 0;
	for (int i = 1; i < s.nr; i++) { /* 0 is the base, printed above */
		if (b[i].ok) {
			printf("%s\n", b[i].kb.bzimage.buf);
			continue;
		}
		fprintf(stderr, "foliowatch-collect kernel: commit %.12s (%s) failed to build: %s\n", s.commits[i].sha,
			s.commits[i].subject, b[i].log_tail.buf);
		ret = 1;
	}
cleanup:
	if (b)
		for (int i = 0; i < s.nr; i++)
			fw_built_release(&b[i]);
	free(b);
	patchset_release(&s);
	strbuf_release(&amdir);
	strbuf_release(&err);
	return ret;
}

int cmd_kernel(int argc, char **argv)
{
	static const struct fw_option opts[] = {
		{ "tree", 0, required_argument, 't', "DIR", "linux-source-6.12 in the cache",
		  "the kernel tree to build (its checked-out commit)" },
		{ "cache", 0, required_argument, 'c', "DIR", "$FOLIOWATCH_CACHE or ~/.cache/foliowatch",
		  "where trees, build folders and built kernels are kept" },
		{ "jobs", 0, required_argument, 'j', "N", "the number of CPUs", "parallel make jobs" },
		{ "config", 0, required_argument, 'f', "FRAGMENT", "kernel/foliowatch.config",
		  "config fragment merged into the defconfig" },
		{ "mbox", 0, required_argument, 'm', "FILE", "none",
		  "also build each patch of FILE applied onto the default tree\n(one bzImage per line, the base first)" },
		{ 0 },
	};
	static const struct fw_usage usage = { "foliowatch-collect", "kernel", "[--tree DIR | --mbox FILE] [--cache DIR] [--jobs N] [--config FRAGMENT]",
		"Builds a kernel, or reuses the one already built from the same commit and\n"
		"config, and prints the path of its cached bzImage on stdout (progress goes to\n"
		"stderr). Without --tree: Debian's linux-source-6.12, unpacked once into the\n"
		"cache (the first build takes about 9 minutes on 2 cores). With --mbox, the\n"
		"series' kernels too, each built incrementally as `run --mbox` would build\n"
		"it, so that the run that follows boots at once.\n"
		"Exit: 0 ok, 1 error (the build failed), 2 usage error.",
		opts, "\n--tree ~/linux --jobs 8\n--mbox series.mbox\n# then: foliowatch-collect boot --kernel \"$(foliowatch-collect kernel)\"" };
	struct fw_getopt g = FW_GETOPT_INIT(&usage);
	struct strbuf cache = STRBUF_INIT, tree = STRBUF_INIT, frag = STRBUF_INIT,
		      err = STRBUF_INIT;
	struct fw_kbuild kb;
	struct fw_lock lock = { .fd = -1 };
	const char *mbox = NULL;
	int opt, jobs = 0, ret = 1;

	fw_kbuild_init(&kb);
	fw_kcache_root(&cache);
	fw_default_fragment(&frag);
	while ((opt = fw_getopt(&g, argc, argv)) != -1) {
		switch (opt) {
		case 't':
			strbuf_reset(&tree);
			strbuf_addstr(&tree, optarg);
			break;
		case 'c':
			strbuf_reset(&cache);
			strbuf_addstr(&cache, optarg);
			break;
		case 'j':
			if (fw_opt_int(&usage, "jobs", optarg, 1, 1024, &jobs)) {
				ret = 2;
				goto cleanup;
			}
			break;
		case 'f':
			strbuf_reset(&frag);
			strbuf_addstr(&frag, optarg);
			break;
		case 'm':
			mbox = optarg;
			break;
		default:
			ret = g.exit;
			goto cleanup;
		}
	}
	if (optind != argc) {
		ret = fw_usage_error(&usage, "unexpected argument '%s'", argv[optind]);
		goto cleanup;
	}
	if (mbox && tree.len) {
		ret = fw_usage_error(&usage, "--mbox applies onto the default tree: give --tree or --mbox, not both");
		goto cleanup;
	}
	if (!jobs) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);

		jobs = n > 0 ? (int)n : 2;
	}
	if (!tree.len) {
		if (fw_kernel_tree_default(cache.buf, NULL, &tree, &err) < 0) {
			fprintf(stderr, "foliowatch-collect kernel: %s\n", err.buf);
			goto cleanup;
		}
		if (default_tree_on_branch(tree.buf, &lock))
			goto cleanup;
		kb.locked = 1;
	}
	kb.tree = tree.buf;
	kb.cache = cache.buf;
	kb.fragment = frag.buf;
	kb.jobs = jobs;
	if (fw_kernel_build(&kb, &err) < 0) {
		fprintf(stderr, "foliowatch-collect kernel: %s\n", err.buf);
		goto cleanup;
	}
	if (kb.reused)
		fprintf(stderr, "reusing %s (%s)\n", kb.kdir.buf, kb.version.buf);
	else
		fprintf(stderr, "built %s in %.1f s (%s)\n", kb.version.buf, kb.seconds, kb.kdir.buf);
	printf("%s\n", kb.bzimage.buf);
	fw_lock_release(&lock);
	ret = mbox ? build_mbox(tree.buf, cache.buf, frag.buf, jobs, mbox) : 0;
cleanup:
	fw_lock_release(&lock);
	fw_kbuild_release(&kb);
	strbuf_release(&cache);
	strbuf_release(&tree);
	strbuf_release(&frag);
	strbuf_release(&err);
	return ret;
}
