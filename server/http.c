/*
 * Request lifecycle and reply helpers. Every response goes through
 * queue() so that security headers and the status for /metrics are set in
 * exactly one place.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "http.h"
#include "fw-db.h"
#include "html.h"
#include "run-doc.h"
#include "xalloc.h"

const double fw_lat_bounds[FW_LAT_BUCKETS] = {
	0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0, 5.0,
};

double fw_monotonic(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * MHD would percent-decode the path before we see it, turning "%2F" in a
 * series name into a separator. We keep it raw and decode per segment.
 */
size_t fw_http_no_unescape(void *cls, struct MHD_Connection *conn, char *s)
{
	(void)cls;
	(void)conn;
	return strlen(s);
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int fw_url_decode(const char *in, size_t len, struct strbuf *out)
{
	strbuf_reset(out);
	for (size_t i = 0; i < len; i++) {
		int c = (unsigned char)in[i];

		if (c == '%') {
			int hi, lo;

			if (i + 2 >= len)
				return -1;
			hi = hexval((unsigned char)in[i + 1]);
			lo = hi < 0 ? -1 : hexval((unsigned char)in[i + 2]);
			if (lo < 0)
				return -1;
			c = hi * 16 + lo;
			i += 2;
		}
		if (c == 0)
			return -1;
		strbuf_addch(out, c);
	}
	return 0;
}

sqlite3 *req_db(struct fw_req *r)
{
	struct fw_server *srv = r->srv;
	struct strbuf err = STRBUF_INIT;

	if (r->db)
		return r->db;
	pthread_mutex_lock(&srv->pool_lock);
	if (srv->pool_n > 0)
		r->db = srv->pool[--srv->pool_n];
	pthread_mutex_unlock(&srv->pool_lock);
	if (!r->db) {
		r->db = fw_db_open(srv->dbpath, &err);
		if (!r->db)
			fprintf(stderr, "serve: %s\n", err.buf);
	}
	strbuf_release(&err);
	return r->db;
}

static void req_db_put(struct fw_req *r)
{
	struct fw_server *srv = r->srv;

	if (!r->db)
		return;
	/* A handle left inside a transaction by an error path must not be reused. */
	if (fw_db_in_transaction(r->db)) {
		fw_db_close(r->db);
		r->db = NULL;
		return;
	}
	pthread_mutex_lock(&srv->pool_lock);
	if (srv->pool_n < FW_DB_POOL) {
		srv->pool[srv->pool_n++] = r->db;
		r->db = NULL;
	}
	pthread_mutex_unlock(&srv->pool_lock);
	fw_db_close(r->db);
	r->db = NULL;
}

void fw_server_release(struct fw_server *srv)
{
	for (int i = 0; i < srv->pool_n; i++)
		fw_db_close(srv->pool[i]);
	srv->pool_n = 0;
}

const char *req_header(struct fw_req *r, const char *name)
{
	return MHD_lookup_connection_value(r->conn, MHD_HEADER_KIND, name);
}

int req_query(struct fw_req *r, const char *key, struct strbuf *out)
{
	const char *v = MHD_lookup_connection_value(r->conn, MHD_GET_ARGUMENT_KIND, key);

	strbuf_reset(out);
	if (!v)
		return -1;
	return fw_url_decode(v, strlen(v), out) ? -2 : 0;
}

static enum MHD_Result queue(struct fw_req *r, unsigned status, struct MHD_Response *resp)
{
	enum MHD_Result ret;

	if (!resp)
		return MHD_NO;
	/*
	 * Same headers on every response: cheap, and no route can forget them.
	 * form-action 'self': the compare and regressions pages filter with plain GET forms.
	 */
	MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
	MHD_add_response_header(resp, "Content-Security-Policy",
				"default-src 'none'; style-src 'self'; img-src 'self'; "
				"frame-ancestors 'none'; base-uri 'none'; form-action 'self'");
	MHD_add_response_header(resp, "X-Frame-Options", "DENY");
	MHD_add_response_header(resp, "Referrer-Policy", "no-referrer");
	if (r->allow)
		MHD_add_response_header(resp, "Allow", r->allow);
	/* RFC 6750: every 401 names the scheme it wants, whichever handler sent it. */
	if (status == MHD_HTTP_UNAUTHORIZED)
		MHD_add_response_header(resp, "WWW-Authenticate", "Bearer");
	/* Cacheable answers may also be sent gzip-compressed (server/respcache.c). */
	if (r->cache_key)
		MHD_add_response_header(resp, "Vary", "Accept-Encoding");
	r->status = status;
	r->responded = 1;
	ret = MHD_queue_response(r->conn, status, resp);
	/* A kept response keeps our reference; the cache destroys it on eviction. */
	if (!(status == MHD_HTTP_OK && r->cache_key && ret == MHD_YES &&
	      fw_rc_store(r, resp)))
		MHD_destroy_response(resp);
	return ret;
}

static struct MHD_Response *resp_from_strbuf(struct fw_req *r, struct strbuf *sb)
{
	size_t len;
	char *p = strbuf_detach(sb, &len);

	/* Kept for the response cache (it may store a gzip copy); valid while the response is. */
	r->resp_body = p;
	r->resp_len = len;
	return MHD_create_response_from_buffer(len, p, MHD_RESPMEM_MUST_FREE);
}

enum MHD_Result reply_buf(struct fw_req *r, unsigned status, const char *ctype,
			  struct strbuf *body, const char *etag)
{
	struct MHD_Response *resp;
	const char *inm = etag ? req_header(r, "If-None-Match") : NULL;

	if (inm && !strcmp(inm, etag)) {
		strbuf_release(body);
		resp = MHD_create_response_from_buffer(0, NULL, MHD_RESPMEM_PERSISTENT);
		status = MHD_HTTP_NOT_MODIFIED;
	} else {
		resp = resp_from_strbuf(r, body);
		if (resp)
			MHD_add_response_header(resp, "Content-Type", ctype);
	}
	if (resp && etag)
		MHD_add_response_header(resp, "ETag", etag);
	return queue(r, status, resp);
}

enum MHD_Result reply_stream(struct fw_req *r, unsigned status, const char *ctype, MHD_ContentReaderCallback read,
			     void *cls, MHD_ContentReaderFreeCallback done)
{
	/* 64 KiB a call; r->resp_body stays NULL, so the response cache never keeps it */
	struct MHD_Response *resp = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 64 * 1024, read, cls, done);

	if (!resp) {
		done(cls);
		return MHD_NO;
	}
	MHD_add_response_header(resp, "Content-Type", ctype);
	return queue(r, status, resp);
}

ssize_t reply_stream_take(struct strbuf *pending, size_t *off, char *buf, size_t max)
{
	size_t n;

	if (pending->len == *off)
		return MHD_CONTENT_READER_END_OF_STREAM;
	n = pending->len - *off < max ? pending->len - *off : max;
	memcpy(buf, pending->buf + *off, n);
	*off += n;
	if (*off == pending->len) {
		strbuf_reset(pending);
		*off = 0;
	}
	return (ssize_t)n;
}

enum MHD_Result reply_json(struct fw_req *r, unsigned status, cJSON *root)
{
	struct strbuf sb = STRBUF_INIT;
	char *txt = cJSON_PrintUnformatted(root);

	cJSON_Delete(root);
	if (!txt)
		return MHD_NO;
	strbuf_addstr(&sb, txt);
	strbuf_addch(&sb, '\n');
	free(txt);
	return reply_buf(r, status, "application/json", &sb, NULL);
}

static void html_error_page(struct strbuf *sb, unsigned status, const char *detail)
{
	char title[32];

	snprintf(title, sizeof(title), "Error %u", status);
	html_page_begin(sb, title);
	strbuf_addstr(sb, "<h1>");
	html_txt(sb, title);
	strbuf_addstr(sb, "</h1>\n<p>");
	html_txt(sb, detail);
	strbuf_addstr(sb, "</p>\n<p><a href=\"/\">All series</a></p>\n");
	html_page_end(sb);
}

enum MHD_Result reply_error(struct fw_req *r, unsigned status, const char *code,
			    const char *field, const char *detail)
{
	cJSON *root, *e;
	struct strbuf sb = STRBUF_INIT;

	if (r->is_page) {
		html_error_page(&sb, status, detail);
		return reply_buf(r, status, "text/html; charset=utf-8", &sb, NULL);
	}
	root = cJSON_CreateObject();
	e = cJSON_AddObjectToObject(root, "error");
	cJSON_AddStringToObject(e, "code", code);
	if (field && *field)
		cJSON_AddStringToObject(e, "field", field);
	else
		cJSON_AddNullToObject(e, "field");
	cJSON_AddStringToObject(e, "detail", detail);
	return reply_json(r, status, root);
}

static void http_date(time_t t, char out[64])
{
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(out, 64, "%a, %d %b %Y %H:%M:%S GMT", &tm);
}

enum MHD_Result reply_file(struct fw_req *r, const char *path, const char *ctype,
			   const char *etag)
{
	struct MHD_Response *resp;
	struct stat st;
	char lm[64], tagbuf[64];
	const char *inm, *ims;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		if (fd >= 0)
			close(fd);
		return reply_error(r, MHD_HTTP_NOT_FOUND, "not_found", NULL, "no such file");
	}
	if (!etag) {
		snprintf(tagbuf, sizeof(tagbuf), "\"%llx-%llx\"", (unsigned long long)st.st_size,
			 (unsigned long long)st.st_mtime);
		etag = tagbuf;
	}
	http_date(st.st_mtime, lm);
	inm = req_header(r, "If-None-Match");
	ims = req_header(r, "If-Modified-Since");
	/* If-None-Match wins over If-Modified-Since (RFC 9110 13.2.2). */
	if ((inm && !strcmp(inm, etag)) || (!inm && ims && !strcmp(ims, lm))) {
		close(fd);
		resp = MHD_create_response_from_buffer(0, NULL, MHD_RESPMEM_PERSISTENT);
		if (resp) {
			MHD_add_response_header(resp, "ETag", etag);
			MHD_add_response_header(resp, "Last-Modified", lm);
		}
		return queue(r, MHD_HTTP_NOT_MODIFIED, resp);
	}
	if (r->cache_key && st.st_size <= (1 << 20)) {
		/* Cacheable (e.g. a plot): from memory, so the response can be kept and reused. */
		struct strbuf sb = STRBUF_INIT;

		close(fd);
		if (strbuf_read_file(&sb, path, 1 << 20)) {
			strbuf_release(&sb);
			return reply_error(r, MHD_HTTP_NOT_FOUND, "not_found", NULL, "no such file");
		}
		resp = resp_from_strbuf(r, &sb);
		if (!resp)
			return MHD_NO;
	} else {
		resp = MHD_create_response_from_fd((uint64_t)st.st_size, fd);
		if (!resp) {
			close(fd);
			return MHD_NO;
		}
	}
	MHD_add_response_header(resp, "Content-Type", ctype);
	MHD_add_response_header(resp, "ETag", etag);
	MHD_add_response_header(resp, "Last-Modified", lm);
	MHD_add_response_header(resp, "Cache-Control", "no-cache");
	return queue(r, MHD_HTTP_OK, resp);
}

enum MHD_Result fw_http_access(void *cls, struct MHD_Connection *conn, const char *url,
			       const char *method, const char *version, const char *upload,
			       size_t *upload_size, void **con_cls)
{
	int query_verdict = fw_req_query_verdict(con_cls);
	struct fw_req *r = *con_cls;
	enum MHD_Result ret;

	(void)version;
	if (!r) {
		const char *cl;

		r = calloc(1, sizeof(*r));
		if (!r)
			return MHD_NO;
		r->srv = cls;
		r->conn = conn;
		r->method = method;
		r->t0 = fw_monotonic();
		strbuf_init(&r->body, 0);
		r->path = xstrdup(url);
		/* until fw_dispatch knows the route (which sets it): errors of unknown paths */
		r->is_page = strncmp(url, "/api/", 5) != 0 && strcmp(url, "/healthz") &&
			     strcmp(url, "/metrics");
		*con_cls = r;
		atomic_fetch_add(&r->srv->inflight, 1);
		if (!r->path)
			return MHD_NO;
		/* Refuse a declared oversized body before reading any of it. */
		cl = req_header(r, MHD_HTTP_HEADER_CONTENT_LENGTH);
		if (cl && strtoull(cl, NULL, 10) > FW_DOC_MAX_BYTES) {
			r->too_large = 1;
			return reply_error(r, 413, "too_large", NULL,
					   "request body over the document size limit");
		}
		if (fw_req_limits(r, query_verdict, &ret))
			return ret;
		return MHD_YES;
	}
	if (*upload_size) {
		/* Chunked bodies have no length up front: stop keeping bytes at the limit. */
		if (r->too_large || r->body.len + *upload_size > FW_DOC_MAX_BYTES)
			r->too_large = 1;
		else
			strbuf_add(&r->body, upload, *upload_size);
		*upload_size = 0;
		return MHD_YES;
	}
	if (r->responded)
		return MHD_YES;
	if (fw_rc_lookup(r, &ret))
		return ret;
	ret = fw_dispatch(r);
	req_db_put(r);
	fw_rc_built(r);
	return ret;
}

void fw_http_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
		       enum MHD_RequestTerminationCode toe)
{
	struct fw_server *srv = cls;
	struct fw_req *r;
	double dt;
	int i;

	(void)conn;
	(void)toe;
	fw_req_query_verdict(con_cls);  /* a refused query whose handler never ran */
	r = *con_cls;
	if (!r)
		return;
	dt = fw_monotonic() - r->t0;
	atomic_fetch_add(&srv->req_by_class[r->status / 100 < 6 ? r->status / 100 : 0], 1);
	if (r->status >= 400 || !r->status)
		atomic_fetch_add(&srv->errors, 1);
	for (i = 0; i < FW_LAT_BUCKETS && dt > fw_lat_bounds[i]; i++)
		;
	atomic_fetch_add(&srv->lat_bucket[i], 1);
	atomic_fetch_add(&srv->lat_sum_us, (unsigned long)(dt * 1e6));
	req_db_put(r);
	for (i = 0; i < r->nargs; i++)
		free(r->args[i]);
	free(r->path);
	free(r->cache_key);
	strbuf_release(&r->body);
	free(r);
	*con_cls = NULL;
	atomic_fetch_sub(&srv->inflight, 1);
}
