#ifndef FW_GUEST_TOOLS_H
#define FW_GUEST_TOOLS_H
#include "initramfs.h"
#include "strbuf.h"

/*
 * Host programs packed into the guest's initramfs (issue 27): filemap's
 * mkfs.xfs with the libraries it loads, so that nothing of filemap comes
 * over 9p (a 9p reply moves an icount guest's timeline by what the host
 * takes). Each file keeps its host path in the guest (/usr/sbin/mkfs.xfs,
 * /lib/x86_64-linux-gnu/libblkid.so.1, the loader at the path the program
 * names); the guest has no ld.so.cache, and the loader finds the libraries
 * in its built-in system folders, which hold those paths on Debian.
 */
#define FW_GUEST_MKFS "/usr/sbin/mkfs.xfs"

struct fw_guest_tools {
	struct fw_initramfs_file files[16];
	char paths[16][2][512];   /* src (the real file), dst (the name the loader looks for) */
	int n;
	char hash[65];            /* sha256 over the packed files' names and contents */
};

/*
 * The program and what `ldd` says it loads. 0, or -1 with err set (the
 * program missing, or a library ldd cannot find).
 */
int fw_guest_tools_collect(struct fw_guest_tools *t, const char *program, struct strbuf *err);
/* t->hash over the packed files' names (as the guest sees them) and contents; after a rename, again. 0, or -1 with err. */
int fw_guest_tools_hash(struct fw_guest_tools *t, struct strbuf *err);
/* Adds host file src as `name` in the guest (busybox as /bin/sh). 0, or -1 with err set. */
int fw_guest_tools_add_as(struct fw_guest_tools *t, const char *src, const char *name, unsigned mode,
			  struct strbuf *err);

#endif
