/*
 * Request size limits the server answers itself (with its headers): a query
 * string over FW_QUERY_MAX bytes or FW_QUERY_ARGS_MAX parameters gets 414,
 * headers over FW_HEADERS_MAX bytes or FW_HEADERS_COUNT_MAX lines 431. The
 * connection pool (FW_CONN_POOL) is large enough that such requests reach
 * here; only a request line plus headers too big for the pool is answered
 * by libmicrohttpd itself (its bare 414/431, then it closes the connection).
 */
#include <stdint.h>
#include <string.h>
#include "http.h"

/* Their addresses mark a refused query in *con_cls, from the URI callback to the handler. */
static char query_verdicts[2];
enum { QUERY_BYTES, QUERY_ARGS };

void *fw_req_uri_seen(void *cls, const char *uri, struct MHD_Connection *conn)
{
	const char *q = strchr(uri, '?');
	size_t bytes, args = 1;

	(void)cls;
	(void)conn;
	if (!q)
		return NULL;
	bytes = strlen(q + 1);
	for (const char *p = q + 1; *p; p++)
		args += *p == '&';
	if (bytes <= FW_QUERY_MAX && args <= FW_QUERY_ARGS_MAX)
		return NULL;
	/*
	 * libmicrohttpd (0.9.75 and its successors) calls this with the request
	 * line's own buffer and parses the query after it, one pool entry per
	 * parameter: ten thousand of them fill the pool and the connection closes
	 * with no answer at all. An empty query leaves the pool to the answer.
	 */
	*(char *)(uintptr_t)(q + 1) = '\0';  /* the buffer is libmicrohttpd's and writable */
	return &query_verdicts[bytes > FW_QUERY_MAX ? QUERY_BYTES : QUERY_ARGS];
}

int fw_req_query_verdict(void **con_cls)
{
	for (int i = 0; i < 2; i++)
		if (*con_cls == &query_verdicts[i]) {
			*con_cls = NULL;
			return i + 1;
		}
	return 0;
}

struct count {
	size_t bytes, n;
};

static enum MHD_Result add_len(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
	struct count *c = cls;

	(void)kind;
	c->bytes += (key ? strlen(key) : 0) + (value ? strlen(value) : 0) + 4;  /* ": " and CRLF, or '=' '&' */
	c->n++;
	return MHD_YES;
}

int fw_req_limits(struct fw_req *r, int query_verdict, enum MHD_Result *ret)
{
	struct count query = { 0 }, headers = { 0 };

	MHD_get_connection_values(r->conn, MHD_GET_ARGUMENT_KIND, add_len, &query);
	MHD_get_connection_values(r->conn, MHD_HEADER_KIND, add_len, &headers);
	if (query_verdict == QUERY_BYTES + 1 || query.bytes > FW_QUERY_MAX) {
		*ret = reply_error(r, 414, "uri_too_long", "query", "query string over " FW_STR(FW_QUERY_MAX) " bytes");
		return -1;
	}
	if (query_verdict == QUERY_ARGS + 1 || query.n > FW_QUERY_ARGS_MAX) {
		*ret = reply_error(r, 414, "uri_too_long", "query",
				   "query string of over " FW_STR(FW_QUERY_ARGS_MAX) " parameters");
		return -1;
	}
	if (headers.bytes > FW_HEADERS_MAX || headers.n > FW_HEADERS_COUNT_MAX) {
		*ret = reply_error(r, 431, "headers_too_large", "headers",
				   "request headers over " FW_STR(FW_HEADERS_MAX) " bytes or "
				   FW_STR(FW_HEADERS_COUNT_MAX) " lines");
		return -1;
	}
	return 0;
}
