/* report --send: the message to sendmail's stdin (see mail-send.h). */
#include "mail-send.h"
#include "runcmd.h"
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int fw_mail_send(const char *prog, const char *msg, size_t len, struct strbuf *err)
{
	const char *tmpdir = getenv("TMPDIR");
	const char *argv[] = { prog, "-t", "-oi", NULL };
	struct strbuf path = STRBUF_INIT, out = STRBUF_INIT;
	struct runcmd rc = { 0 };
	int fd, ret = -1;

	strbuf_addf(&path, "%s/fw-mail-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
	fd = mkstemp(path.buf);
	if (fd < 0 || write(fd, msg, len) != (ssize_t)len) {
		strbuf_addf(err, "cannot write the message to a temp file in %s", tmpdir ? tmpdir : "/tmp");
		if (fd >= 0)
			close(fd);
		goto cleanup;
	}
	close(fd);
	rc.argv = argv;
	rc.stdin_path = path.buf;
	rc.out = &out;
	rc.merge_stderr = 1;
	rc.timeout_s = 300;
	if (runcmd_run(&rc) != 0) {
		strbuf_tail(&out, 1000);
		strbuf_addf(err, "%s -t -oi %s (exit %d)%s%s", prog, rc.exit_code < 0 ? "could not start" : "failed",
			    rc.exit_code, out.len ? ": " : "", out.buf);
		goto cleanup;
	}
	ret = 0;
cleanup:
	if (fd >= 0)
		unlink(path.buf);
	strbuf_release(&path);
	strbuf_release(&out);
	return ret;
}
