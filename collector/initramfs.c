/* cpio newc initramfs writer (see initramfs.h; format: Documentation/driver-api/early-userspace/buffer-format.rst). */
#include "initramfs.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

struct cpio {
	FILE *fp;
	unsigned ino;
	size_t off;
};

static int pad4(struct cpio *c)
{
	static const char zeros[4];
	size_t n = (4 - c->off % 4) % 4;

	c->off += n;
	return n && fwrite(zeros, 1, n, c->fp) != n ? -1 : 0;
}

static int entry(struct cpio *c, const char *name, unsigned mode, unsigned rmaj, unsigned rmin,
		 const void *data, size_t size)
{
	char hdr[111];
	size_t namesize = strlen(name) + 1;

	/* 13 eight-digit hex fields; mtime 0 and root owner keep the archive reproducible */
	snprintf(hdr, sizeof(hdr), "070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X",
		 ++c->ino, mode, 0u, 0u, S_ISDIR(mode) ? 2u : 1u, 0u, (unsigned)size, 0u, 0u, rmaj, rmin, (unsigned)namesize, 0u);
	if (fwrite(hdr, 1, 110, c->fp) != 110 || fwrite(name, 1, namesize, c->fp) != namesize)
		return -1;
	c->off += 110 + namesize;
	if (pad4(c))
		return -1;
	if (size && fwrite(data, 1, size, c->fp) != size)
		return -1;
	c->off += size;
	return pad4(c);
}

static int file_entry(struct cpio *c, const char *name, const char *src, unsigned perm, struct strbuf *err)
{
	struct strbuf data = STRBUF_INIT;
	int ret = -1;

	if (strbuf_read_file(&data, src, 512u * 1024 * 1024) < 0) {
		strbuf_addf(err, "cannot read %s: %s", src, strerror(errno));
		goto cleanup;
	}
	if (entry(c, name, S_IFREG | perm, 0, 0, data.buf, data.len)) {
		strbuf_addf(err, "cannot write the archive: %s", strerror(errno));
		goto cleanup;
	}
	ret = 0;
cleanup:
	strbuf_release(&data);
	return ret;
}

/*
 * The folders above path that the archive lacks (the kernel's unpacker
 * creates no parents): made holds those written so far, one per line,
 * besides the fixed top folders.
 */
static int parents(struct cpio *c, const char *path, struct strbuf *made)
{
	static const char *const fixed = "\ndev\nproc\nsys\ntmp\nmnt\nhost\nroot\n";
	char dir[4096], key[4100];

	for (const char *slash = strchr(path, '/'); slash; slash = strchr(slash + 1, '/')) {
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
		snprintf(key, sizeof(key), "\n%s\n", dir);
		if (strstr(fixed, key) || (made->len && strstr(made->buf, key)))
			continue;
		if (entry(c, dir, S_IFDIR | 0755, 0, 0, NULL, 0))
			return -1;
		if (!made->len)
			strbuf_addch(made, '\n');
		strbuf_addf(made, "%s\n", dir);
	}
	return 0;
}

int fw_initramfs_write(const char *out, const char *init_path,
		       const struct fw_initramfs_file *extra, int n_extra, struct strbuf *err)
{
	static const char *const dirs[] = { "dev", "proc", "sys", "tmp", "mnt", "host", "root", NULL };
	struct strbuf tmp = STRBUF_INIT, made = STRBUF_INIT;
	struct cpio c = { NULL, 0, 0 };
	int ret = -1;

	strbuf_addf(&tmp, "%s.tmp.%ld", out, (long)getpid());
	if (!(c.fp = fopen(tmp.buf, "wbe"))) {
		strbuf_addf(err, "cannot create %s: %s", tmp.buf, strerror(errno));
		goto cleanup;
	}
	for (int i = 0; dirs[i]; i++)
		if (entry(&c, dirs[i], S_IFDIR | 0755, 0, 0, NULL, 0))
			goto write_error;
	/* char 5:1 = console, 4:64/4:65 = ttyS0/ttyS1: usable before devtmpfs is mounted */
	if (entry(&c, "dev/console", S_IFCHR | 0600, 5, 1, NULL, 0) ||
	    entry(&c, "dev/ttyS0", S_IFCHR | 0600, 4, 64, NULL, 0) ||
	    entry(&c, "dev/ttyS1", S_IFCHR | 0600, 4, 65, NULL, 0))
		goto write_error;
	if (file_entry(&c, "init", init_path, 0755, err))
		goto cleanup;
	for (int i = 0; i < n_extra; i++) {
		const char *dst = extra[i].dst;
		while (*dst == '/')
			dst++;
		if (!*dst || strstr(dst, "..")) {
			strbuf_addf(err, "bad archive path \"%s\"", extra[i].dst);
			goto cleanup;
		}
		if (parents(&c, dst, &made))
			goto write_error;
		if (file_entry(&c, dst, extra[i].src, extra[i].mode & 07777, err))
			goto cleanup;
	}
	if (entry(&c, "TRAILER!!!", 0, 0, 0, NULL, 0))
		goto write_error;
	if (fflush(c.fp) || fsync(fileno(c.fp)))
		goto write_error;
	if (fclose(c.fp)) {
		c.fp = NULL;
		goto write_error;
	}
	c.fp = NULL;
	if (rename(tmp.buf, out)) {
		strbuf_addf(err, "cannot rename %s to %s: %s", tmp.buf, out, strerror(errno));
		goto cleanup;
	}
	ret = 0;
	goto cleanup;
write_error:
	strbuf_addf(err, "cannot write %s: %s", tmp.buf, strerror(errno));
cleanup:
	if (c.fp)
		fclose(c.fp);
	if (ret)
		unlink(tmp.buf);
	strbuf_release(&tmp);
	strbuf_release(&made);
	return ret;
}
