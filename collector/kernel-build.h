#ifndef FW_KERNEL_BUILD_H
#define FW_KERNEL_BUILD_H
#include "strbuf.h"

/*
 * Kernel trees and builds (issue 3). Cache layout (contract):
 *   <cache>/src/linux-source-<ver>/   Debian's tarball unpacked, git repo, one commit
 *   <cache>/build/<tree name>/        O= build folder kept for incremental builds
 *   <cache>/kernels/<commit12>-<cfghash12>/  bzImage .config kernelversion build.log build-info
 * cfghash is the sha256 of the final .config (the run document's config_hash).
 */

#include "cache.h"

/* Unpacks tarball (NULL: /usr/src/linux-source-6.12.tar.xz) once under
 * <cache>/src and makes it a git repository with one commit; tree gets its path. */
int fw_kernel_tree_default(const char *cache, const char *tarball, struct strbuf *tree,
			   struct strbuf *err);

struct fw_kbuild {
	/* inputs */
	const char *tree;       /* git tree to build */
	const char *cache;      /* cache root */
	const char *fragment;   /* config fragment (kernel/foliowatch.config) */
	int jobs;
	int locked;             /* the caller holds the host lock (lock.h) from checkout to here */
	/* results */
	struct strbuf kdir;     /* <cache>/kernels/<key> */
	struct strbuf bzimage;  /* <kdir>/bzImage */
	struct strbuf version;  /* make kernelversion */
	struct strbuf config_hash;
	double seconds;         /* build time; 0 when reused */
	int reused;
};
void fw_kbuild_init(struct fw_kbuild *kb);
void fw_kbuild_release(struct fw_kbuild *kb);
/*
 * The cached kernel of commit (a sha or ref in kb->tree) by its tree id, as
 * fw_kernel_build finds it after a checkout: 0 and kdir, bzimage, version and
 * config_hash set (reused), or -1 when it was never built. Nothing is checked out.
 */
int fw_kernel_find(struct fw_kbuild *kb, const char *commit);
/* Configures, checks the fragment took effect, builds or reuses. 0 or -1 with err. */
int fw_kernel_build(struct fw_kbuild *kb, struct strbuf *err);
/* Names of fragment options missing from config_text (space separated) into missing; 0 if none. */
int fw_config_check(const char *fragment_text, const char *config_text, struct strbuf *missing);

/* kernel/foliowatch.config beside the program's source tree, else relative to the working directory. */
void fw_default_fragment(struct strbuf *out);

int cmd_kernel(int argc, char **argv);

#endif
