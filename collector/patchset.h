#ifndef FW_PATCHSET_H
#define FW_PATCHSET_H
#include "strbuf.h"
#include "mbox-mail.h"

/*
 * A patch set: the commits of a series to measure, the base (position 0, the
 * "Before" of the first patch) and its patches in order. Commits come from a range in the user's tree, or
 * from an mbox applied with `git am` onto the base in a separate worktree;
 * the user's checkout is never touched.
 */
struct fw_patchset_commit {
	char sha[41];
	char parent[41];     /* "" for the base */
	char key[200];       /* sha for a range; "patch-id:<id>+<base sha>" for an mbox patch */
	char *subject;
	char *author;
	int position;
	const struct fw_mail *mail;   /* the patch's mail (into the set's mails), NULL for the base or a range */
};

struct fw_patchset {
	char *name;
	char *tree;          /* the user's git tree */
	char base[41];
	char *mbox;          /* NULL for a range */
	struct fw_patchset_commit *commits;
	int nr, alloc;
	struct fw_mail *mails;        /* every message of the mbox, in order */
	int nmails;
	const struct fw_mail *cover;  /* the "[PATCH 0/N]" cover letter, or NULL */
};

/* Resolves "BASE..HEAD" in tree: base plus each commit of the range, oldest first. */
int patchset_from_range(struct fw_patchset *s, const char *tree, const char *range, struct strbuf *err);
/*
 * Applies mbox onto base with `git am` in worktree (created, detached, if missing).
 * A patch that does not apply is named (number and subject) in err, the am is
 * aborted, and nothing half-applied is returned. A cover letter (no patch)
 * is skipped; the mail headers of the cover and of each patch are kept
 * (commit->mail) when the mbox's patches match the applied commits one to one.
 */
int patchset_from_mbox(struct fw_patchset *s, const char *tree, const char *base, const char *mbox,
		       const char *worktree, struct strbuf *err);
/*
 * Sparse measuring (watch --every/--heads, bisect): keeps the base and the
 * commits named in list (comma-separated shas or unique sha prefixes of at
 * least 7 hex digits) and drops the others. Positions stay the commits'
 * first-parent order in the range, so a commit measured later takes its own
 * position between them. A name that is not a commit of the range is an error
 * naming it; nothing is dropped then.
 */
int patchset_keep_only(struct fw_patchset *s, const char *list, struct strbuf *err);
void patchset_release(struct fw_patchset *s);

/* Makes worktree (detached at sha) if missing, else checks sha out there. */
int patchset_checkout(const char *tree, const char *worktree, const char *sha, struct strbuf *err);

#endif
