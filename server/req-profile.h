#ifndef FW_REQ_PROFILE_H
#define FW_REQ_PROFILE_H
/* A profile diff's request parameters (server/req-profile.c). */
#include "analysis-json.h"
#include "series-db.h"

#define FW_PROFILE_LIMIT_DEFAULT 50

struct fw_prof_req {
	struct fw_series s;
	int loaded;
	int head, base;                 /* commit indexes in s */
	struct strbuf workload, variant, match, env;
	struct fw_prof_query q;         /* points into the strbufs above */
};
/*
 * Loads series `series` and reads head, base, workload, variant, env, sort,
 * match and limit of the query string. 0, or -1 after replying (400 naming
 * the parameter, 404 unknown series/commit/workload/env) with *ret set.
 */
int req_profile(struct fw_req *r, const char *series, struct fw_prof_req *p, enum MHD_Result *ret);
void req_profile_free(struct fw_prof_req *p);
/* fw_profile_diff of a parsed request plus series, revision, head/base sha and subject, limit (api-profile.c). */
cJSON *fw_profile_answer(struct fw_req *r, struct fw_prof_req *p, struct strbuf *err);
/* The same answer typed, for the page and its plot (NULL: err, or out of memory). */
struct fw_prof_diff *fw_profile_typed(struct fw_req *r, struct fw_prof_req *p, struct strbuf *err);

#endif
