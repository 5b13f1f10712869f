/* Whole-file replacement: temp in the same folder, fsync, rename, fsync the folder. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "atomic-file.h"

static void error_to(struct strbuf *err, const char *what, const char *path)
{
	if (err)
		strbuf_addf(err, "cannot %s %s: %s", what, path, strerror(errno));
}

int fw_atomic_temp(const char *path, struct strbuf *tmp, struct strbuf *err)
{
	const char *slash = strrchr(path, '/');
	int fd;

	strbuf_reset(tmp);
	if (slash)
		strbuf_addf(tmp, "%.*s/.%s.tmp-XXXXXX", (int)(slash - path), path, slash + 1);
	else
		strbuf_addf(tmp, ".%s.tmp-XXXXXX", path);
	fd = mkostemp(tmp->buf, O_CLOEXEC);
	if (fd < 0)
		error_to(err, "create a temp file for", path);
	return fd;
}

/* fsync of the folder holding path: the rename itself survives a crash. */
static int sync_dir(const char *path)
{
	const char *slash = strrchr(path, '/');
	struct strbuf dir = STRBUF_INIT;
	int fd, ret;

	if (slash == path)
		strbuf_addch(&dir, '/');
	else if (slash)
		strbuf_add(&dir, path, (size_t)(slash - path));
	else
		strbuf_addch(&dir, '.');
	fd = open(dir.buf, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	strbuf_release(&dir);
	if (fd < 0)
		return -1;
	ret = fsync(fd);
	if (close(fd))
		ret = -1;
	return ret;
}

int fw_atomic_commit(int fd, const char *tmp, const char *path, mode_t mode, struct strbuf *err)
{
	if (fd < 0 && (fd = open(tmp, O_WRONLY | O_CLOEXEC)) < 0) {
		error_to(err, "write", path);
		unlink(tmp);
		return -1;
	}
	if (fchmod(fd, mode) || fsync(fd)) {
		error_to(err, "write", path);
		close(fd);
		unlink(tmp);
		return -1;
	}
	if (close(fd)) {
		error_to(err, "write", path);
		unlink(tmp);
		return -1;
	}
	if (rename(tmp, path)) {
		error_to(err, "rename a temp file onto", path);
		unlink(tmp);
		return -1;
	}
	if (sync_dir(path)) {
		error_to(err, "sync the folder of", path);
		return -1;
	}
	return 0;
}

int fw_write_file_atomic(const char *path, const void *data, size_t len, mode_t mode,
			 struct strbuf *err)
{
	struct strbuf tmp = STRBUF_INIT;
	const char *p = data;
	int fd = fw_atomic_temp(path, &tmp, err), ret = -1;

	if (fd < 0)
		goto cleanup;
	while (len) {
		ssize_t w = write(fd, p, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (w == 0)
				errno = EIO;
			error_to(err, "write", path);
			close(fd);
			unlink(tmp.buf);
			goto cleanup;
		}
		p += w;
		len -= (size_t)w;
	}
	ret = fw_atomic_commit(fd, tmp.buf, path, mode, err);
cleanup:
	strbuf_release(&tmp);
	return ret;
}
