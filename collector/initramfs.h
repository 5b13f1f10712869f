#ifndef FW_INITRAMFS_H
#define FW_INITRAMFS_H
#include "strbuf.h"

/*
 * The guest's initramfs: a cpio "newc" archive written directly (no shell,
 * no cpio binary). It holds /init (the static guest init), the directories
 * the init mounts on, /dev/console (the kernel opens it for init's stdio
 * before devtmpfs exists) and any extra files. Times and owners are fixed,
 * so the same inputs give the same bytes.
 */
struct fw_initramfs_file {
	const char *src;    /* host file */
	const char *dst;    /* path inside the archive, without leading '/' */
	unsigned mode;      /* permission bits, e.g. 0755 */
};

/* Writes out through a temp file and rename(). 0, or -1 with err set. */
int fw_initramfs_write(const char *out, const char *init_path,
		       const struct fw_initramfs_file *extra, int n_extra, struct strbuf *err);

#endif
