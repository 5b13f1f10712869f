/*
 * foliowatch-collect series --tree DIR (--range BASE..HEAD | --base REV --mbox FILE) [--worktree DIR]
 * Lists what a run would measure: position, sha, commit key and subject, one per line;
 * with --mail also the mail headers a run keeps from an mbox.
 */
#include <stdio.h>
#include <stdlib.h>
#include "cmdopt.h"
#include "commands.h"
#include "patchset.h"

int cmd_series(int argc, char **argv)
{
	static const struct fw_option opts[] = {
		{ "tree", 0, required_argument, 't', "DIR", ".", "the git tree" },
		{ "range", 0, required_argument, 'r', "BASE..HEAD", "none", "the series is BASE and the commits up to HEAD" },
		{ "only", 0, required_argument, 'O', "SHA,...", "every commit",
		  "with --range: the base and these commits (as run --only)" },
		{ "base", 0, required_argument, 'b', "REV", "none", "with --mbox: the commit the patches apply to" },
		{ "mbox", 0, required_argument, 'm', "FILE", "none", "patches to apply with git am onto --base" },
		{ "worktree", 0, required_argument, 'w', "DIR", "none", "with --mbox: the worktree to apply the patches in" },
		{ "mail", 0, no_argument, 'M', NULL, "off",
		  "then the mail headers kept from the mbox, tab-separated:\n"
		  "cover MESSAGE-ID SUBJECT, and mail POSITION MESSAGE-ID FROM TO CC SUBJECT" },
		{ 0 },
	};
	static const struct fw_usage usage = { "foliowatch-collect", "series",
		"[--tree DIR] --range BASE..HEAD [--only SHA,...]\n[--tree DIR] --base REV --mbox FILE --worktree DIR",
		"Lists what 'run' would measure, one commit per line: position (0 is the\n"
		"base), sha, commit key and subject. Give either --range, or --base, --mbox\n"
		"and --worktree.\n"
		"Exit: 0 ok, 1 error (bad range, a patch that does not apply), 2 usage error.",
		opts, "--tree ~/linux --range v6.12..my-branch\n"
		"--tree ~/linux --base v6.12 --mbox my-series.mbox --worktree /tmp/fw-am" };
	struct fw_getopt g = FW_GETOPT_INIT(&usage);
	const char *tree = ".", *range = NULL, *only = NULL, *base = NULL, *mbox = NULL, *worktree = NULL;
	struct fw_patchset s = { 0 };
	struct strbuf err = STRBUF_INIT;
	int opt, ret = 1, mail = 0;

	while ((opt = fw_getopt(&g, argc, argv)) != -1) {
		switch (opt) {
		case 't': tree = optarg; break;
		case 'r': range = optarg; break;
		case 'O': only = optarg; break;
		case 'b': base = optarg; break;
		case 'm': mbox = optarg; break;
		case 'w': worktree = optarg; break;
		case 'M': mail = 1; break;
		default:
			ret = g.exit;
			goto cleanup;
		}
	}
	if (optind != argc) {
		fw_usage_error(&usage, "unexpected argument '%s'", argv[optind]);
		goto usage;
	}
	if (!range && !mbox) {
		fw_usage_error(&usage, "give --range BASE..HEAD, or --base REV --mbox FILE --worktree DIR");
		goto usage;
	}
	if (range && (mbox || base || worktree)) {
		fw_usage_error(&usage, "--range excludes %s", mbox ? "--mbox" : base ? "--base" : "--worktree");
		goto usage;
	}
	if (mbox && (!base || !worktree)) {
		fw_usage_error(&usage, "--mbox needs %s", !base ? "--base REV" : "--worktree DIR");
		goto usage;
	}
	if (only && !range) {
		fw_usage_error(&usage, "--only goes with --range");
		goto usage;
	}
	if (range ? patchset_from_range(&s, tree, range, &err) || (only && patchset_keep_only(&s, only, &err))
		  : patchset_from_mbox(&s, tree, base, mbox, worktree, &err)) {
		fprintf(stderr, "series: %s\n", err.buf);
		goto cleanup;
	}
	for (int i = 0; i < s.nr; i++)
		printf("%d %s %s %s\n", s.commits[i].position, s.commits[i].sha, s.commits[i].key,
		       s.commits[i].subject);
#define OR_DASH(x) ((x) ? (x) : "-")
	if (mail && s.cover)
		printf("cover\t%s\t%s\n", OR_DASH(s.cover->message_id), OR_DASH(s.cover->subject));
	for (int i = 0; mail && i < s.nr; i++) {
		const struct fw_mail *m = s.commits[i].mail;
		if (m)
			printf("mail\t%d\t%s\t%s\t%s\t%s\t%s\n", s.commits[i].position, OR_DASH(m->message_id),
			       OR_DASH(m->from), OR_DASH(m->to), OR_DASH(m->cc), OR_DASH(m->subject));
	}
#undef OR_DASH
	ret = 0;
	goto cleanup;
usage: /* the message is out */
	ret = 2;
cleanup:
	patchset_release(&s);
	strbuf_release(&err);
	return ret;
}
