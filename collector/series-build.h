#ifndef FW_SERIES_BUILD_H
#define FW_SERIES_BUILD_H
#include "kernel-build.h"
#include "measure.h"
#include "patchset.h"
#include "progress.h"
#include "strbuf.h"

/* One commit's kernel: built (ok), or why not (log_tail). */
struct fw_built {
	int ok;
	struct fw_kbuild kb;
	struct fw_kfacts kf;
	struct strbuf log_tail;
};

/*
 * Checkout + incremental build of every commit of s in checkout (the default
 * tree itself, or a worktree of the user's), into b (s->nr of them, zeroed).
 * A failed build is recorded in b (the caller says it); the others go on. run and
 * `kernel --mbox` build through it: one build folder, one host lock per
 * checkout and build; a kernel in the cache is taken with no checkout.
 * Returns 1 when it checked out a commit (the caller restores the branch).
 */
int fw_series_build(const struct fw_patchset *s, const char *cache, const char *checkout, const char *fragment,
		    int jobs, struct fw_built *b, struct progress *pr);
void fw_built_release(struct fw_built *b);
/* Leaves the default tree on its branch (head_ref "refs/heads/..."), as `kernel` and the tests expect. */
void fw_default_tree_restore(const char *tree, const char *head_ref);

#endif
