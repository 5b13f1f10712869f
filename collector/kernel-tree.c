/*
 * The default kernel tree: Debian's linux-source-6.12 tarball unpacked once
 * into the cache and committed as one git commit, so that a series can be
 * applied with `git am` and every build is keyed by a commit id. Work happens
 * in a temporary folder renamed into place, so a half-unpacked tree is never
 * mistaken for a finished one.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "kernel-build.h"
#include "cache.h"
#include "runcmd.h"

#define DEFAULT_TARBALL "/usr/src/linux-source-6.12.tar.xz"



static int run_in(const char *dir, const char *const *argv, struct strbuf *err)
{
	struct strbuf out = STRBUF_INIT;
	struct runcmd rc = { 0 };
	int ret = -1;

	rc.argv = argv;
	rc.dir = dir;
	rc.out = &out;
	rc.merge_stderr = 1;
	if (runcmd_run(&rc) != 0) {
		strbuf_tail(&out, 2000);
		strbuf_addf(err, "%s failed (exit %d): %s", argv[0], rc.exit_code, out.buf);
		goto cleanup;
	}
	ret = 0;
cleanup:
	strbuf_release(&out);
	return ret;
}

/*
 * Whether a rename onto tree failed (errno e) because another process put
 * its own finished tree there first: on a new machine `make test`'s kernel
 * prebuild and the test lanes both unpack (the host lock comes after). A
 * tree is renamed into place only once committed, so .git/HEAD means done.
 */
static int unpacked_beside(const char *tree, int e)
{
	struct strbuf head = STRBUF_INIT;
	struct stat st;
	int done;

	strbuf_addf(&head, "%s/.git/HEAD", tree);
	done = (e == ENOTEMPTY || e == EEXIST) && stat(head.buf, &st) == 0;
	strbuf_release(&head);
	errno = e;
	return done;
}

int fw_kernel_tree_default(const char *cache, const char *tarball, struct strbuf *tree,
			   struct strbuf *err)
{
	struct strbuf src = STRBUF_INIT, tmp = STRBUF_INIT, name = STRBUF_INIT,
		      from = STRBUF_INIT, ver = STRBUF_INIT, msg = STRBUF_INIT;
	const char *base;
	struct stat st;
	int ret = -1;

	if (!tarball)
		tarball = DEFAULT_TARBALL;
	if (stat(tarball, &st) < 0) {
		strbuf_addf(err, "%s: %s (apt-get install linux-source-6.12)", tarball,
			    strerror(errno));
		goto cleanup;
	}
	/* linux-source-6.12.tar.xz -> linux-source-6.12, the folder it holds. */
	base = strrchr(tarball, '/');
	strbuf_addstr(&name, base ? base + 1 : tarball);
	if (name.len > 7 && !strcmp(name.buf + name.len - 7, ".tar.xz"))
		strbuf_setlen(&name, name.len - 7);
	strbuf_addf(&src, "%s/src", cache);
	strbuf_reset(tree);
	strbuf_addf(tree, "%s/%s", src.buf, name.buf);
	strbuf_addf(&from, "%s/.git/HEAD", tree->buf);
	if (stat(from.buf, &st) == 0) {
		ret = 0; /* unpacked and committed before */
		goto cleanup;
	}
	strbuf_addf(&tmp, "%s/.tmp-%d", src.buf, (int)getpid());
	if (fw_mkdirs(tmp.buf) < 0) {
		strbuf_addf(err, "mkdir %s: %s", tmp.buf, strerror(errno));
		goto cleanup;
	}
	{
		const char *tar[] = { "tar", "-xJf", tarball, "-C", tmp.buf, NULL };

		fprintf(stderr, "unpacking %s into %s\n", tarball, src.buf);
		if (run_in(NULL, tar, err) < 0)
			goto cleanup;
	}
	strbuf_reset(&from);
	strbuf_addf(&from, "%s/%s", tmp.buf, name.buf);
	{
		/* Debian's top-level .gitignore ignores everything at the top level: add -f. */
		const char *init[] = { "git", "init", "-q", NULL };
		const char *add[] = { "git", "add", "-f", "-A", ".", NULL };
		const char *kver[] = { "make", "-s", "kernelversion", NULL };

		if (run_in(from.buf, init, err) < 0 || run_in(from.buf, add, err) < 0)
			goto cleanup;
		if (runcmd_capture(kver, from.buf, &ver) != 0) {
			strbuf_addstr(err, "make kernelversion failed in the unpacked tree");
			goto cleanup;
		}
		strbuf_addf(&msg, "%s %s (Debian package, unpacked by foliowatch)", name.buf,
			    ver.buf);
		{
			const char *commit[] = { "git", "-c", "user.name=foliowatch",
						 "-c", "user.email=foliowatch@localhost",
						 "commit", "-q", "-m", msg.buf, NULL };

			if (run_in(from.buf, commit, err) < 0)
				goto cleanup;
		}
	}
	if (rename(from.buf, tree->buf) < 0 && !unpacked_beside(tree->buf, errno)) {
		strbuf_addf(err, "rename %s -> %s: %s", from.buf, tree->buf, strerror(errno));
		goto cleanup;
	}
	ret = 0;
cleanup:
	if (tmp.len) {
		const char *rm[] = { "rm", "-rf", tmp.buf, NULL };
		struct strbuf ignore = STRBUF_INIT;

		run_in(NULL, rm, &ignore);
		strbuf_release(&ignore);
	}
	strbuf_release(&src);
	strbuf_release(&tmp);
	strbuf_release(&name);
	strbuf_release(&from);
	strbuf_release(&ver);
	strbuf_release(&msg);
	return ret;
}
