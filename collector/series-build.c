/* A series' kernels, each built once in the tree's one build folder: see series-build.h. */
#include "series-build.h"
#include <stdio.h>
#include <string.h>
#include "lock.h"
#include "runcmd.h"

/*
 * A kernel built before (same tree content, same fragment) is taken from the
 * cache without a checkout: runs of prebuilt series then leave the tree to
 * whoever builds in it. Otherwise the host lock is held from the checkout to
 * the end of the build: another collector (a second series, `watch`,
 * `kernel`) using the same tree must not check out another commit under a
 * build in progress.
 */
int fw_series_build(const struct fw_patchset *s, const char *cache, const char *checkout, const char *fragment,
		    int jobs, struct fw_built *b, struct progress *pr)
{
	int checked_out = 0;

	for (int i = 0; i < s->nr; i++) {
		struct strbuf err = STRBUF_INIT;
		const struct fw_patchset_commit *c = &s->commits[i];
		struct fw_lock lock = { .fd = -1 };

		fw_kbuild_init(&b[i].kb);
		strbuf_init(&b[i].log_tail, 0);
		progress_step(pr, "build %d/%d %.12s %s", i + 1, s->nr, c->sha, c->subject);
		b[i].kb.tree = s->tree;
		b[i].kb.cache = cache;
		b[i].kb.fragment = fragment;
		b[i].kb.jobs = jobs;
		if (fw_kernel_find(&b[i].kb, c->sha) == 0) {
			b[i].kb.tree = checkout;
			if (fw_kernel_facts(b[i].kb.bzimage.buf, &b[i].kf) == 0) {
				b[i].ok = 1;
				progress_note(pr, "built %.12s in 0 s (cached)", c->sha);
				continue;
			}
		}
		b[i].kb.tree = checkout;
		if (fw_lock_acquire(&lock, NULL, "checkout and build")) {
			strbuf_addstr(&b[i].log_tail, "cannot take the host lock for checkout and build");
			continue;
		}
		checked_out = 1;
		if (patchset_checkout(s->tree, checkout, c->sha, &err)) {
			strbuf_addf(&b[i].log_tail, "checkout failed: %s", err.buf);
			fprintf(stderr, "commit %.12s: checkout failed: %s\n", c->sha, err.buf);
			strbuf_release(&err);
			fw_lock_release(&lock);
			continue;
		}
		b[i].kb.locked = 1;
		if (fw_kernel_build(&b[i].kb, &err)) {
			strbuf_addstr(&b[i].log_tail, err.buf);
			strbuf_tail(&b[i].log_tail, 16000);
		} else if (fw_kernel_facts(b[i].kb.bzimage.buf, &b[i].kf) == 0) {
			b[i].ok = 1;
			progress_note(pr, "built %.12s in %.0f s%s", c->sha, b[i].kb.seconds,
				      b[i].kb.reused ? " (cached)" : "");
		}
		fw_lock_release(&lock);
		strbuf_release(&err);
	}
	return checked_out;
}

void fw_built_release(struct fw_built *b)
{
	fw_kbuild_release(&b->kb);
	fw_kfacts_release(&b->kf);
	strbuf_release(&b->log_tail);
}

void fw_default_tree_restore(const char *tree, const char *head_ref)
{
	struct strbuf out = STRBUF_INIT;
	struct fw_lock lock = { .fd = -1 };
	const char *co[] = { "git", "checkout", "-q", "--force", head_ref + strlen("refs/heads/"), NULL };
	struct runcmd rc = { 0 };

	rc.argv = co;
	rc.dir = tree;
	rc.out = &out;
	rc.merge_stderr = 1;
	if (!fw_lock_acquire(&lock, NULL, "restoring the default tree")) {
		runcmd_run(&rc);
		fw_lock_release(&lock);
	}
	strbuf_release(&out);
}
