/*
 * foliowatch-collect series --tree DIR (--range BASE..HEAD | --base REV --mbox FILE) [--worktree DIR]
 * Lists what a run would measure: position, sha, commit key and subject, one per line.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include "commands.h"
#include "patchset.h"

int cmd_series(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "tree", required_argument, NULL, 't' },
		{ "range", required_argument, NULL, 'r' },
		{ "base", required_argument, NULL, 'b' },
		{ "mbox", required_argument, NULL, 'm' },
		{ "worktree", required_argument, NULL, 'w' },
		{ NULL, 0, NULL, 0 },
	};
	const char *tree = ".", *range = NULL, *base = NULL, *mbox = NULL, *worktree = NULL;
	struct fw_patchset s = { 0 };
	struct strbuf err = STRBUF_INIT;
	int opt, ret = 1;

	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 't': tree = optarg; break;
		case 'r': range = optarg; break;
		case 'b': base = optarg; break;
		case 'm': mbox = optarg; break;
		case 'w': worktree = optarg; break;
		default: goto usage;
		}
	}
	if (range ? (mbox || base) : !(mbox && base && worktree))
		goto usage;
	if (range ? patchset_from_range(&s, tree, range, &err)
		  : patchset_from_mbox(&s, tree, base, mbox, worktree, &err)) {
		fprintf(stderr, "series: %s\n", err.buf);
		goto cleanup;
	}
	for (int i = 0; i < s.nr; i++)
		printf("%d %s %s %s\n", s.commits[i].position, s.commits[i].sha, s.commits[i].key,
		       s.commits[i].subject);
	ret = 0;
	goto cleanup;
usage:
	fprintf(stderr, "usage: foliowatch-collect series --tree DIR (--range BASE..HEAD | "
			"--base REV --mbox FILE --worktree DIR)\n");
	ret = 2;
cleanup:
	patchset_release(&s);
	strbuf_release(&err);
	return ret;
}
