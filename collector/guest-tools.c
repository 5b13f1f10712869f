/* The files of a host program for the initramfs (see guest-tools.h). */
#include "guest-tools.h"
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "runcmd.h"
#include "sha256.h"

/* Adds the file a guest finds at `name`; 0, or -1 with err set. */
static int add(struct fw_guest_tools *t, const char *name, unsigned mode, struct strbuf *err)
{
	return fw_guest_tools_add_as(t, name, name, mode, err);
}

int fw_guest_tools_add_as(struct fw_guest_tools *t, const char *src, const char *name, unsigned mode,
			  struct strbuf *err)
{
	char real[PATH_MAX];

	if (t->n == (int)(sizeof(t->files) / sizeof(t->files[0]))) {
		strbuf_addf(err, "more than %d files to pack", t->n);
		return -1;
	}
	if (!realpath(src, real)) {
		strbuf_addf(err, "cannot pack %s: %s", src, strerror(errno));
		return -1;
	}
	if (strlen(real) >= sizeof(t->paths[0][0]) || strlen(name) >= sizeof(t->paths[0][1])) {
		strbuf_addf(err, "cannot pack %s: its path is too long", name);
		return -1;
	}
	memcpy(t->paths[t->n][0], real, strlen(real) + 1);
	memcpy(t->paths[t->n][1], name, strlen(name) + 1);
	t->files[t->n] = (struct fw_initramfs_file){ t->paths[t->n][0], t->paths[t->n][1], mode };
	t->n++;
	return 0;
}

int fw_guest_tools_hash(struct fw_guest_tools *t, struct strbuf *err)
{
	struct strbuf all = STRBUF_INIT, one = STRBUF_INIT;
	int ret = -1;

	for (int i = 0; i < t->n; i++) {
		strbuf_reset(&one);
		if (strbuf_read_file(&one, t->files[i].src, 64u << 20) < 0) {
			strbuf_addf(err, "cannot read %s: %s", t->files[i].src, strerror(errno));
			goto cleanup;
		}
		strbuf_addf(&all, "%s\n", t->files[i].dst);
		strbuf_add(&all, one.buf, one.len);
	}
	sha256_hex(all.buf, all.len, t->hash);
	ret = 0;
cleanup:
	strbuf_release(&all);
	strbuf_release(&one);
	return ret;
}

int fw_guest_tools_collect(struct fw_guest_tools *t, const char *program, struct strbuf *err)
{
	const char *argv[] = { "ldd", program, NULL };
	struct strbuf out = STRBUF_INIT;
	struct runcmd rc = { .argv = argv, .out = &out, .merge_stderr = 1 };
	int ret = -1;

	memset(t, 0, sizeof(*t));
	if (access(program, X_OK) < 0) {
		strbuf_addf(err, "no %s on this host (%s)", program, strerror(errno));
		goto cleanup;
	}
	if (runcmd_run(&rc)) {
		/* a static program loads nothing: it alone is packed */
		if (!strstr(out.buf, "not a dynamic executable")) {
			strbuf_addf(err, "ldd %s failed: %.200s", program, out.buf);
			goto cleanup;
		}
		strbuf_reset(&out);
	}
	if (add(t, program, 0755, err))
		goto cleanup;
	/* "\tlibblkid.so.1 => /lib/x86_64-linux-gnu/libblkid.so.1 (0x...)" or "\t/lib64/ld-linux-x86-64.so.2 (0x...)" */
	for (char *save = NULL, *line = strtok_r(out.buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *path = strstr(line, "=> "), *end;
		if (strstr(line, "not found")) {
			strbuf_addf(err, "ldd %s: %s", program, line);
			goto cleanup;
		}
		path = path ? path + 3 : line + strspn(line, " \t");
		if (*path != '/')
			continue; /* linux-vdso.so.1: in the kernel */
		if ((end = strstr(path, " (")))
			*end = '\0';
		if (add(t, path, 0755, err))
			goto cleanup;
	}
	ret = fw_guest_tools_hash(t, err);
cleanup:
	strbuf_release(&out);
	return ret;
}
