/*
 * The route table's token check: a route that declares a scope gets here
 * before its handler (fw_dispatch). 401 without a valid Bearer token, 403
 * when the token lacks the scope; on success r->token names the token.
 */
#include <string.h>
#include "routes.h"
#include "token-db.h"

int fw_auth_check(struct fw_req *r, unsigned need, enum MHD_Result *ret)
{
	const char *auth = req_header(r, MHD_HTTP_HEADER_AUTHORIZATION);
	struct strbuf why = STRBUF_INIT;
	unsigned have;
	int ok;

	if (!auth || strncmp(auth, "Bearer ", 7) || !auth[7]) {
		*ret = reply_error(r, 401, "unauthorized", "Authorization",
				   "a Bearer token is required (foliowatch-server token add NAME)");
		return -1;
	}
	ok = fw_token_check(req_db(r), auth + 7, r->token, &have);
	if (ok <= 0) {
		*ret = ok < 0 ? reply_error(r, 503, "db_error", NULL, "token lookup failed")
			      : reply_error(r, 401, "unauthorized", "Authorization", "unknown or revoked token");
		return -1;
	}
	if (!fw_scope_grants(have, need)) {
		strbuf_addstr(&why, "this token lacks the scope ");
		fw_scopes_format(need, &why);
		strbuf_addstr(&why, " (token add NAME --scopes ");
		fw_scopes_format(need, &why);
		strbuf_addstr(&why, "; its scopes: ");
		fw_scopes_format(have, &why);
		strbuf_addch(&why, ')');
		*ret = reply_error(r, 403, "forbidden", "Authorization", why.buf);
		strbuf_release(&why);
		return -1;
	}
	return 0;
}
