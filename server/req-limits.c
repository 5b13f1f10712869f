/*
 * Request size limits the server answers itself (with its headers): a query
 * string over FW_QUERY_MAX gets 414, headers over FW_HEADERS_MAX 431. The
 * connection pool (FW_CONN_POOL) is large enough that such requests reach
 * here; only a request line plus headers too big for the pool is answered
 * by libmicrohttpd itself (its bare 414/431, then it closes the connection).
 */
#include <string.h>
#include "http.h"

static enum MHD_Result add_len(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
	size_t *n = cls;

	(void)kind;
	*n += (key ? strlen(key) : 0) + (value ? strlen(value) : 0) + 4;  /* ": " and CRLF, or '=' '&' */
	return MHD_YES;
}

int fw_req_limits(struct fw_req *r, enum MHD_Result *ret)
{
	size_t query = 0, headers = 0;

	MHD_get_connection_values(r->conn, MHD_GET_ARGUMENT_KIND, add_len, &query);
	MHD_get_connection_values(r->conn, MHD_HEADER_KIND, add_len, &headers);
	if (query > FW_QUERY_MAX) {
		*ret = reply_error(r, 414, "uri_too_long", "query", "query string over " FW_STR(FW_QUERY_MAX) " bytes");
		return -1;
	}
	if (headers > FW_HEADERS_MAX) {
		*ret = reply_error(r, 431, "headers_too_large", "headers",
				   "request headers over " FW_STR(FW_HEADERS_MAX) " bytes");
		return -1;
	}
	return 0;
}
