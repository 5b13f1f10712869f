/* Turning a range or an mbox into the list of commits to measure (git through runcmd only). */
#include "patchset.h"
#include "xalloc.h"
#include "runcmd.h"
#include "sha256.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int git(const char *dir, struct strbuf *out, struct strbuf *err, const char *const *argv)
{
	struct runcmd rc = { 0 };
	struct strbuf tmp = STRBUF_INIT;

	rc.argv = argv;
	rc.dir = dir;
	rc.out = out ? out : &tmp;
	rc.merge_stderr = !out;
	if (runcmd_run(&rc) != 0) {
		strbuf_addf(err, "git %s failed (exit %d)", argv[1], rc.exit_code);
		if (!out && tmp.len) {
			strbuf_tail(&tmp, 2000);
			strbuf_addf(err, ": %s", tmp.buf);
		}
		strbuf_release(&tmp);
		return -1;
	}
	if (out)
		while (out->len && out->buf[out->len - 1] == '\n')
			strbuf_setlen(out, out->len - 1);
	strbuf_release(&tmp);
	return 0;
}

static int valid_sha(const char *s)
{
	return strlen(s) == 40 && strspn(s, "0123456789abcdef") == 40;
}

/* Fills sha, parent, subject and author of rev from `git log -1`. */
static int describe(const char *tree, const char *rev, struct fw_patchset_commit *c, struct strbuf *err)
{
	struct strbuf out = STRBUF_INIT;
	/* rev is user input: after --end-of-options it can never be taken for an option */
	const char *argv[] = { "git", "log", "-1", "--no-show-signature", "--format=%H%x00%P%x00%an <%ae>%x00%s",
			       "--end-of-options", rev, "--", NULL };
	char *f[4];
	int ret = -1;

	if (git(tree, &out, err, argv))
		goto cleanup;
	f[0] = out.buf;
	for (int i = 1; i < 4; i++) {
		f[i] = memchr(f[i - 1], '\0', out.len - (size_t)(f[i - 1] - out.buf));
		if (!f[i]) {
			strbuf_addf(err, "unexpected git log output for %s", rev);
			goto cleanup;
		}
		f[i]++;
	}
	if (!valid_sha(f[0])) {
		strbuf_addf(err, "%s is not a commit", rev);
		goto cleanup;
	}
	memcpy(c->sha, f[0], 41);
	snprintf(c->parent, sizeof(c->parent), "%.40s", f[1]); /* first parent */
	c->author = xstrdup(f[2]);
	c->subject = strndup(f[3], 1000); /* the document's limit; git subjects are one line */
	snprintf(c->key, sizeof(c->key), "%s", c->sha);
	ret = 0;
cleanup:
	strbuf_release(&out);
	return ret;
}

static struct fw_patchset_commit *add_commit(struct fw_patchset *s)
{
	struct fw_patchset_commit *n;

	FW_ALLOC_GROW(s->commits, s->nr + 1, s->alloc);
	n = s->commits;
	memset(&n[s->nr], 0, sizeof(*n));
	n[s->nr].position = s->nr;
	return &n[s->nr++];
}

/*
 * Base first, then rev-list --reverse of the range in first-parent order. A
 * merge on that line is a commit like any other (it is where a merged branch's
 * change lands); the merged branch's own commits are not listed.
 */
static int collect(struct fw_patchset *s, const char *dir, const char *base, const char *head,
		   struct strbuf *err)
{
	struct strbuf range = STRBUF_INIT, list = STRBUF_INIT;
	const char *argv[] = { "git", "rev-list", "--reverse", "--first-parent", "--end-of-options", NULL, NULL };
	int ret = -1;

	if (describe(dir, base, add_commit(s), err))
		goto cleanup;
	s->commits[0].parent[0] = '\0';
	memcpy(s->base, s->commits[0].sha, 41);
	strbuf_addf(&range, "%s..%s", s->base, head);
	argv[5] = range.buf;
	if (git(dir, &list, err, argv))
		goto cleanup;
	for (char *line = list.buf, *next; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (describe(dir, line, add_commit(s), err))
			goto cleanup;
	}
	if (s->nr < 2) {
		strbuf_addf(err, "range %s..%s has no commits", base, head);
		goto cleanup;
	}
	ret = 0;
cleanup:
	strbuf_release(&range);
	strbuf_release(&list);
	return ret;
}

int patchset_from_range(struct fw_patchset *s, const char *tree, const char *range, struct strbuf *err)
{
	const char *dots = strstr(range, "..");
	char *base;
	int ret;

	if (!dots || dots == range || !dots[2] || dots[2] == '.') {
		strbuf_addf(err, "--range must be BASE..HEAD, got \"%s\"", range);
		return -1;
	}
	base = strndup(range, (size_t)(dots - range));
	s->tree = xstrdup(tree);
	ret = collect(s, tree, base, dots + 2, err);
	free(base);
	return ret;
}

/* The index of the one commit of s whose sha starts with name (>= 7 hex digits), or -1 (said in err). */
static int find_named(const struct fw_patchset *s, const char *name, size_t len, struct strbuf *err)
{
	int found = -1;

	if (len < 7 || len > 40 || strspn(name, "0123456789abcdef") < len) {
		strbuf_addf(err, "--only: '%.*s' is not a sha (7 to 40 lowercase hex digits)", (int)(len > 60 ? 60 : len),
			    name);
		return -1;
	}
	for (int i = 0; i < s->nr; i++)
		if (!strncmp(s->commits[i].sha, name, len)) {
			if (found >= 0) {
				strbuf_addf(err, "--only: '%.*s' names more than one commit of the range", (int)len, name);
				return -1;
			}
			found = i;
		}
	if (found < 0)
		strbuf_addf(err, "--only: %.*s is not a commit of the range", (int)len, name);
	return found;
}

int patchset_keep_only(struct fw_patchset *s, const char *list, struct strbuf *err)
{
	char *keep = calloc((size_t)s->nr, 1);
	int n = 0;

	if (!keep)
		abort();
	keep[0] = 1; /* the base: what the first kept commit is compared with */
	for (const char *p = list; *p;) {
		size_t len = strcspn(p, ",");
		int i = find_named(s, p, len, err);
		if (i < 0) {
			free(keep);
			return -1;
		}
		keep[i] = 1;
		p += len;
		if (*p == ',')
			p++;
	}
	for (int i = 0; i < s->nr; i++) {
		if (keep[i]) {
			s->commits[n++] = s->commits[i];
			continue;
		}
		free(s->commits[i].subject);
		free(s->commits[i].author);
	}
	s->nr = n;
	free(keep);
	return 0;
}

int patchset_checkout(const char *tree, const char *worktree, const char *sha, struct strbuf *err)
{
	if (access(worktree, F_OK) != 0) {
		const char *add[] = { "git", "worktree", "add", "--force", "--detach", worktree, sha, NULL };
		/* --force also re-adds our own worktree whose folder was deleted; no prune of the user's */
		return git(tree, NULL, err, add);
	}
	const char *co[] = { "git", "checkout", "-q", "--detach", "--force", sha, NULL };
	return git(worktree, NULL, err, co);
}

/*
 * A worktree at sha for git am with the whole tree in its index and no file in
 * its folder: git apply --index reads a file missing from the folder from the
 * index (as in a sparse checkout), so am's commits are whole. A whole checkout
 * of the kernel took 40-66 s a series and its removal 18 s; this takes 2-5.
 * A worktree already there (a run that died) is checked out as before.
 */
static int checkout_for_am(const char *tree, const char *worktree, const char *sha, struct strbuf *err)
{
	const char *add[] = { "git", "worktree", "add", "--force", "--no-checkout", "--detach", worktree, sha, NULL };
	const char *read_tree[] = { "git", "read-tree", sha, NULL };

	if (access(worktree, F_OK) == 0)
		return patchset_checkout(tree, worktree, sha, err);
	return git(tree, NULL, err, add) || git(worktree, NULL, err, read_tree) ? -1 : 0;
}

/* Subjects of the patches in an mbox, in order ("Subject:" headers of "From " blocks). */
static char **mbox_subjects(const char *mbox, int *n)
{
	struct strbuf txt = STRBUF_INIT;
	char **subj = NULL;
	int in_header = 0, alloc = 0;

	*n = 0;
	if (strbuf_read_file(&txt, mbox, 64 << 20))
		return NULL;
	for (char *line = txt.buf, *next; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (!strncmp(line, "From ", 5)) {
			in_header = 1;
		} else if (in_header && !*line) {
			in_header = 0;
		} else if (in_header && !strncmp(line, "Subject: ", 9)) {
			FW_ALLOC_GROW(subj, *n + 1, alloc);
			subj[(*n)++] = xstrdup(line + 9);
		}
	}
	strbuf_release(&txt);
	return subj;
}

/* git patch-id --stable of one commit: stable across re-applying, unlike the sha. */
static int patch_id(const char *dir, const char *sha, char out[41], struct strbuf *err)
{
	char tmpl[] = "/tmp/fw-patch-XXXXXX";
	int fd = mkstemp(tmpl), ret = -1;
	struct runcmd rc = { 0 };
	struct strbuf id = STRBUF_INIT;
	const char *show[] = { "git", "show", "--no-color", "--format=", sha, NULL };
	const char *pid[] = { "git", "patch-id", "--stable", NULL };

	if (fd < 0) {
		strbuf_addstr(err, "cannot create a temp file for patch-id");
		return -1;
	}
	close(fd);
	rc.argv = show;
	rc.dir = dir;
	rc.stdout_path = tmpl;
	if (runcmd_run(&rc) != 0) {
		strbuf_addf(err, "git show %s failed", sha);
		goto cleanup;
	}
	memset(&rc, 0, sizeof(rc));
	rc.argv = pid;
	rc.dir = dir;
	rc.stdin_path = tmpl;
	rc.out = &id;
	if (runcmd_run(&rc) != 0 || id.len < 40) {
		strbuf_addf(err, "git patch-id failed for %s", sha);
		goto cleanup;
	}
	memcpy(out, id.buf, 40);
	out[40] = '\0';
	ret = 0;
cleanup:
	unlink(tmpl);
	strbuf_release(&id);
	return ret;
}

/*
 * The mail of each patch: the mbox's messages but the cover letter, in order,
 * when there are as many as applied commits (else none: a guess could thread
 * a reply under the wrong patch).
 */
static void attach_mails(struct fw_patchset *s, const char *mbox)
{
	struct strbuf txt = STRBUF_INIT;
	int k = 1;

	if (strbuf_read_file(&txt, mbox, 64 << 20))
		return;
	s->mails = fw_mbox_read(txt.buf, txt.len, &s->nmails);
	strbuf_release(&txt);
	for (int i = 0; i < s->nmails; i++)
		if (fw_mail_is_cover(&s->mails[i]) && !s->cover)
			s->cover = &s->mails[i];
	if (s->nmails - !!s->cover != s->nr - 1)
		return;
	for (int i = 0; i < s->nmails; i++)
		if (&s->mails[i] != s->cover)
			s->commits[k++].mail = &s->mails[i];
}

int patchset_from_mbox(struct fw_patchset *s, const char *tree, const char *base, const char *mbox,
		       const char *worktree, struct strbuf *err)
{
	struct strbuf head = STRBUF_INIT, next = STRBUF_INIT;
	const char *am[] = { "git", "-c", "user.name=foliowatch", "-c", "user.email=foliowatch@localhost",
			     "am", "--quiet", "--no-3way", "--empty=drop", mbox, NULL };
	const char *abort_am[] = { "git", "am", "--abort", NULL };
	const char *revparse[] = { "git", "rev-parse", "HEAD", NULL };
	const char *am_next[] = { "git", "rev-parse", "--git-path", "rebase-apply/next", NULL };
	char *abs_mbox = realpath(mbox, NULL);
	char **subjects = NULL;
	int nsubj = 0, ret = -1, added = 0;
	struct fw_patchset_commit basec = { 0 };

	if (!abs_mbox) {
		strbuf_addf(err, "cannot read mbox %s", mbox);
		goto cleanup;
	}
	am[9] = abs_mbox;  /* --empty=drop: a cover letter holds no patch */
	subjects = mbox_subjects(abs_mbox, &nsubj);
	if (!nsubj) {
		strbuf_addf(err, "%s holds no patches (no \"From \" lines with a Subject)", mbox);
		goto cleanup;
	}
	if (describe(tree, base, &basec, err))
		goto cleanup;
	if (checkout_for_am(tree, worktree, basec.sha, err))
		goto cleanup;
	added = 1;
	git(worktree, NULL, err, abort_am); /* a previous run may have died mid-am */
	strbuf_reset(err);
	if (git(worktree, NULL, err, am)) {
		/* Name the patch that failed: rebase-apply/next holds its number. */
		struct strbuf path = STRBUF_INIT, num = STRBUF_INIT;
		long k = 0;
		if (!git(worktree, &path, err, am_next)) {
			if (path.buf[0] != '/') {
				struct strbuf abs = STRBUF_INIT;
				strbuf_addf(&abs, "%s/%s", worktree, path.buf);
				strbuf_reset(&path);
				strbuf_addstr(&path, abs.buf);
				strbuf_release(&abs);
			}
			if (!strbuf_read_file(&num, path.buf, 64))
				k = strtol(num.buf, NULL, 10);
		}
		strbuf_reset(err);
		strbuf_addf(err, "patch %ld/%d does not apply: %s", k, nsubj,
			    k >= 1 && k <= nsubj ? subjects[k - 1] : "(unknown)");
		git(worktree, NULL, &next, abort_am);
		strbuf_release(&path);
		strbuf_release(&num);
		goto cleanup;
	}
	if (git(worktree, &head, err, revparse))
		goto cleanup;
	s->tree = xstrdup(tree);
	s->mbox = xstrdup(mbox);
	if (collect(s, worktree, basec.sha, head.buf, err))
		goto cleanup;
	for (int i = 1; i < s->nr; i++) {
		char id[41];
		if (patch_id(worktree, s->commits[i].sha, id, err))
			goto cleanup;
		snprintf(s->commits[i].key, sizeof(s->commits[i].key), "patch-id:%s+%s", id, s->base);
	}
	attach_mails(s, abs_mbox);
	ret = 0;
cleanup:
	if (added) {
		/*
		 * The commits live in the tree's object store and are built from
		 * there: the worktree was only for git am. Left behind, every mbox
		 * run kept one (when they were whole: 61 GB on the CI machine).
		 */
		const char *rm[] = { "git", "worktree", "remove", "--force", worktree, NULL };
		git(tree, NULL, &next, rm);
	}
	for (int i = 0; i < nsubj; i++)
		free(subjects[i]);
	free(subjects);
	free(basec.subject);
	free(basec.author);
	free(abs_mbox);
	strbuf_release(&head);
	strbuf_release(&next);
	return ret;
}

void patchset_release(struct fw_patchset *s)
{
	for (int i = 0; i < s->nr; i++) {
		free(s->commits[i].subject);
		free(s->commits[i].author);
	}
	free(s->commits);
	fw_mail_free(s->mails, s->nmails);
	free(s->name);
	free(s->tree);
	free(s->mbox);
	memset(s, 0, sizeof(*s));
}
