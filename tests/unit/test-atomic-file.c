/*
 * fw_write_file_atomic (lib/atomic-file.c): writes, replaces, honours the mode,
 * and on failure leaves the target untouched and no temp file behind.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tap.h"
#include "atomic-file.h"

static char dir[] = "/tmp/fw-atomic-XXXXXX";

static int entries(const char *d)
{
	DIR *dp = opendir(d);
	struct dirent *de;
	int n = 0;

	while (dp && (de = readdir(dp)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			n++;
	if (dp)
		closedir(dp);
	return n;
}

static char *slurp(const char *path)
{
	struct strbuf sb = STRBUF_INIT;

	if (strbuf_read_file(&sb, path, 0)) {
		strbuf_release(&sb);
		return NULL;
	}
	return strbuf_detach(&sb, NULL);
}

int main(void)
{
	struct strbuf err = STRBUF_INIT, tmp = STRBUF_INIT;
	char path[600], sub[600], *s;
	struct stat st;
	int fd;

	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof(path), "%s/doc.json", dir);

	is_int(fw_write_file_atomic(path, "first\n", 6, 0640, &err), 0, "writes a new file");
	is_str(s = slurp(path), "first\n", "with the data");
	free(s);
	ok(!stat(path, &st) && (st.st_mode & 07777) == 0640, "mode 0640 honoured");
	is_int(entries(dir), 1, "no temp file left");

	is_int(fw_write_file_atomic(path, "second, longer\n", 15, 0644, &err), 0, "replaces it");
	is_str(s = slurp(path), "second, longer\n", "with the new data");
	free(s);
	ok(!stat(path, &st) && (st.st_mode & 07777) == 0644, "mode 0644 honoured");
	is_int(fw_write_file_atomic(path, "", 0, 0600, &err), 0, "an empty file");
	ok(!stat(path, &st) && st.st_size == 0, "is empty");
	is_int(entries(dir), 1, "still no temp file");

	/* A folder that does not exist: no temp can be made; the error names the path. */
	snprintf(sub, sizeof(sub), "%s/missing/x.json", dir);
	strbuf_reset(&err);
	is_int(fw_write_file_atomic(sub, "x", 1, 0644, &err), -1, "fails in a missing folder");
	ok(strstr(err.buf, sub) != NULL, "the error names the path");

	/* The target is a folder: the temp is written, the rename fails, the temp goes. */
	snprintf(sub, sizeof(sub), "%s/adir", dir);
	mkdir(sub, 0755);
	strbuf_reset(&err);
	is_int(fw_write_file_atomic(sub, "x", 1, 0644, &err), -1, "fails onto a folder");
	ok(strstr(err.buf, sub) != NULL, "the error names the path");
	is_int(entries(dir), 2, "and leaves no temp file behind");

	/* An unwritable folder (not for root, who may write anyway). */
	if (geteuid() != 0) {
		snprintf(sub, sizeof(sub), "%s/ro", dir);
		mkdir(sub, 0555);
		snprintf(path, sizeof(path), "%s/ro/x.json", dir);
		is_int(fw_write_file_atomic(path, "x", 1, 0644, NULL), -1, "fails in an unwritable folder");
		is_int(entries(sub), 0, "leaving nothing there");
		rmdir(sub);
	} else {
		ok(1, "unwritable folder # skip running as root");
	}

	/* The streaming halves: write through the descriptor, commit. */
	snprintf(path, sizeof(path), "%s/streamed.svg", dir);
	fd = fw_atomic_temp(path, &tmp, &err);
	ok(fd >= 0, "a temp file next to the target");
	ok(!strncmp(tmp.buf, dir, strlen(dir)) && strstr(tmp.buf, "/.streamed.svg.tmp-"), "named .NAME.tmp-XXXXXX");
	ok(write(fd, "<svg/>", 6) == 6, "written");
	is_int(fw_atomic_commit(fd, tmp.buf, path, 0644, &err), 0, "committed");
	is_str(s = slurp(path), "<svg/>", "into place");
	free(s);
	ok(access(tmp.buf, F_OK) != 0, "the temp is gone");

	snprintf(sub, sizeof(sub), "rm -rf '%s'", dir);
	if (system(sub) != 0)
		return 1;
	strbuf_release(&err);
	strbuf_release(&tmp);
	return done_testing();
}
