#include "post.h"
#include "atomic-file.h"
#include "runcmd.h"
#include "sha256.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Writes "Authorization: Bearer <token>" into a private temp file for curl -H @file. */
static int header_file(const char *token_file, char path[64], struct strbuf *err)
{
	struct strbuf tok = STRBUF_INIT;
	int fd = -1, ret = -1;

	if (strbuf_read_file(&tok, token_file, 4096)) {
		strbuf_addf(err, "cannot read token file %s: %s", token_file, strerror(errno));
		goto cleanup;
	}
	while (tok.len && (tok.buf[tok.len - 1] == '\n' || tok.buf[tok.len - 1] == '\r' || tok.buf[tok.len - 1] == ' '))
		strbuf_setlen(&tok, tok.len - 1);
	if (!tok.len || strpbrk(tok.buf, "\r\n")) {
		strbuf_addf(err, "token file %s must hold one token on one line", token_file);
		goto cleanup;
	}
	snprintf(path, 64, "/tmp/fw-auth-XXXXXX");
	fd = mkstemp(path); /* mode 0600 */
	if (fd < 0) {
		strbuf_addf(err, "cannot create a temp file: %s", strerror(errno));
		goto cleanup;
	}
	{
		struct strbuf h = STRBUF_INIT;
		strbuf_addf(&h, "Authorization: Bearer %s\n", tok.buf);
		ssize_t w = write(fd, h.buf, h.len);
		strbuf_release(&h);
		if (w < 0) {
			strbuf_addf(err, "cannot write %s", path);
			unlink(path);
			goto cleanup;
		}
	}
	ret = 0;
cleanup:
	if (fd >= 0)
		close(fd);
	strbuf_release(&tok);
	return ret;
}

/*
 * One attempt: POST the file at path (NULL: an empty body) to the server's
 * route (e.g. "/api/v1/runs"); returns the HTTP status, or 0 when no answer
 * came (connection error).
 */
static int post_once(const struct post_opts *o, const char *hdr, const char *route, const char *path,
		     struct strbuf *body)
{
	struct strbuf url = STRBUF_INIT, data = STRBUF_INIT, hdrarg = STRBUF_INIT;
	struct runcmd rc = { 0 };
	const char *argv[24];
	int n = 0, status = 0;
	char *nl;

	strbuf_addf(&url, "%s%s", o->url, route);
	if (path)
		strbuf_addf(&data, "@%s", path);
	strbuf_addf(&hdrarg, "@%s", hdr);
	argv[n++] = "curl";
	argv[n++] = "-sS";
	argv[n++] = "--max-time";
	argv[n++] = "60";
	argv[n++] = "-X";
	argv[n++] = "POST";
	argv[n++] = "-H";
	argv[n++] = "Content-Type: application/json";
	argv[n++] = "-H";
	argv[n++] = hdrarg.buf;
	argv[n++] = "--data-binary";
	argv[n++] = data.buf;
	if (o->cacert) {
		argv[n++] = "--cacert";
		argv[n++] = o->cacert;
	}
	argv[n++] = "-w";
	argv[n++] = "\n%{http_code}";
	argv[n++] = url.buf;
	argv[n] = NULL;
	rc.argv = argv;
	rc.out = body;
	rc.timeout_s = 90;
	runcmd_run(&rc);
	/* the last line is the status code curl printed */
	while (body->len && body->buf[body->len - 1] == '\n')
		strbuf_setlen(body, body->len - 1);
	nl = strrchr(body->buf, '\n');
	status = atoi(nl ? nl + 1 : body->buf);
	strbuf_setlen(body, nl ? (size_t)(nl - body->buf) : 0);
	strbuf_release(&url);
	strbuf_release(&data);
	strbuf_release(&hdrarg);
	return status;
}

enum post_result post_file(const struct post_opts *o, const char *path, struct strbuf *err)
{
	char hdr[64] = "";
	double wait = o->backoff_s > 0 ? o->backoff_s : 1;
	enum post_result res = POST_FAILED;
	struct strbuf body = STRBUF_INIT;

	if (access(path, R_OK) != 0) {
		strbuf_addf(err, "%s: %s", path, strerror(errno));
		return POST_REJECTED;
	}
	if (header_file(o->token_file, hdr, err)) {
		/* a setup problem, not the document's: spool it so nothing measured is lost */
		if (o->spool_dir && !post_spool(o, path, err))
			strbuf_addf(err, " (kept in the spool %s)", o->spool_dir);
		return POST_FAILED;
	}
	for (int attempt = 0; attempt <= o->retries; attempt++) {
		strbuf_reset(&body);
		int status = post_once(o, hdr, "/api/v1/runs", path, &body);
		if (status == 201 || status == 200) {
			res = status == 201 ? POST_STORED : POST_UNCHANGED;
			goto cleanup;
		}
		if (status == 401 || status == 403) {
			/* the runner's credentials, not the document: keep it for a later try */
			strbuf_reset(err);
			strbuf_addf(err, "%s: server refused the token (HTTP %d): %s", path, status, body.buf);
			break;
		}
		if (status >= 400 && status < 500) {
			strbuf_addf(err, "%s: rejected with HTTP %d: %s", path, status, body.buf);
			res = POST_REJECTED;
			goto cleanup;
		}
		strbuf_reset(err);
		if (status)
			strbuf_addf(err, "%s: server error HTTP %d: %s", path, status, body.buf);
		else
			strbuf_addf(err, "%s: cannot reach %s (%s)", path, o->url, body.len ? body.buf : "no answer");
		if (attempt < o->retries) {
			struct timespec ts = { (time_t)wait, (long)((wait - (double)(time_t)wait) * 1e9) };
			fprintf(stderr, "post: %s; retrying in %.1f s\n", err->buf, wait);
			nanosleep(&ts, NULL);
			wait *= 2;
		}
	}
	if (o->spool_dir) {
		if (!post_spool(o, path, err)) {
			strbuf_addf(err, " (kept in the spool %s)", o->spool_dir);
		} else {
			res = POST_REJECTED; /* neither sent nor kept: the caller must not count it done */
		}
	}
cleanup:
	unlink(hdr);
	strbuf_release(&body);
	return res;
}

int post_complete(const struct post_opts *o, const char *series, int revision, struct strbuf *err)
{
	struct strbuf route = STRBUF_INIT, body = STRBUF_INIT;
	char hdr[64] = "";
	int status = 0;

	if (header_file(o->token_file, hdr, err))
		return -1;
	strbuf_addstr(&route, "/api/v1/series/");
	for (const unsigned char *p = (const unsigned char *)series; *p; p++)
		if (strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~", *p))
			strbuf_addch(&route, (char)*p);
		else
			strbuf_addf(&route, "%%%02X", *p);
	strbuf_addf(&route, "/complete?revision=%d", revision);
	status = post_once(o, hdr, route.buf, NULL, &body);
	if (status != 200)
		strbuf_addf(err, "marking the run of %s complete: %s %d: %s", series, status ? "HTTP" : "no answer",
			    status, body.buf);
	unlink(hdr);
	strbuf_release(&route);
	strbuf_release(&body);
	return status == 200 ? 0 : -1;
}

int post_spool(const struct post_opts *o, const char *path, struct strbuf *err)
{
	struct strbuf doc = STRBUF_INIT, dst = STRBUF_INIT;
	int ret = -1;

	if (mkdir(o->spool_dir, 0755) && errno != EEXIST) {
		strbuf_addf(err, "cannot create spool %s: %s", o->spool_dir, strerror(errno));
		goto cleanup;
	}
	if (strbuf_read_file(&doc, path, 0)) {
		strbuf_addf(err, "cannot read %s: %s", path, strerror(errno));
		goto cleanup;
	}
	{
		/* named by content: two documents called doc.json never overwrite each other */
		char hex[65];
		sha256_hex(doc.buf, doc.len, hex);
		strbuf_addf(&dst, "%s/%s.json", o->spool_dir, hex);
	}
	/* the temp is a dot file: the spool's scan (is_doc) never picks it up */
	if (fw_write_file_atomic(dst.buf, doc.buf, doc.len, 0644, err))
		goto cleanup;
	ret = 0;
cleanup:
	strbuf_release(&doc);
	strbuf_release(&dst);
	return ret;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int is_doc(const struct dirent *d)
{
	size_t n = strlen(d->d_name);
	return d->d_name[0] != '.' && n > 5 && !strcmp(d->d_name + n - 5, ".json");
}

int post_flush_spool(const struct post_opts *o, int verbose)
{
	struct dirent **list = NULL;
	int n = scandir(o->spool_dir, &list, is_doc, by_name), left = 0;
	struct post_opts once = *o;

	if (n < 0)
		return errno == ENOENT ? 0 : -1;
	once.spool_dir = NULL; /* already there */
	for (int i = 0; i < n; i++) {
		struct strbuf path = STRBUF_INIT, err = STRBUF_INIT;
		strbuf_addf(&path, "%s/%s", o->spool_dir, list[i]->d_name);
		enum post_result r = post_file(&once, path.buf, &err);
		if (r == POST_FAILED) {
			fprintf(stderr, "post: %s (left in the spool)\n", err.buf);
			left++;
		} else {
			if (r == POST_REJECTED) {
				/* kept for a person to look at, never retried, never lost */
				struct strbuf dir = STRBUF_INIT, dst = STRBUF_INIT;
				strbuf_addf(&dir, "%s/rejected", o->spool_dir);
				strbuf_addf(&dst, "%s/%s", dir.buf, list[i]->d_name);
				mkdir(dir.buf, 0755);
				if (rename(path.buf, dst.buf) == 0)
					fprintf(stderr, "post: %s (moved to %s)\n", err.buf, dst.buf);
				strbuf_release(&dir);
				strbuf_release(&dst);
			} else {
				if (verbose)
					printf("%s %s\n", r == POST_STORED ? "stored" : "unchanged", path.buf);
				unlink(path.buf);
			}
		}
		strbuf_release(&path);
		strbuf_release(&err);
		free(list[i]);
	}
	free(list);
	return left;
}
