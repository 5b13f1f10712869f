/*
 * The "window" object of an answer that holds part of a revision (the series
 * answer, the trend): which positions, of how many, and the URLs of the
 * answers before and after it, each of the same size (a cursor on position).
 */
#include "fw-db.h"
#include "routes.h"
#include "strbuf.h"

static cJSON *window_url(const char *prefix, int from, int to)
{
	struct strbuf u = STRBUF_INIT;
	cJSON *out;

	strbuf_addf(&u, "%sfrom=%d&to=%d", prefix, from, to);
	out = cJSON_CreateString(u.buf);
	strbuf_release(&u);
	return out;
}

void api_window_json(cJSON *root, const struct fw_series *s, const char *prefix)
{
	cJSON *w = cJSON_AddObjectToObject(root, "window");
	int n = s->to - s->from + 1;

	cJSON_AddNumberToObject(w, "from", s->from);
	cJSON_AddNumberToObject(w, "to", s->to);
	cJSON_AddNumberToObject(w, "total_commits", s->total_commits);
	cJSON_AddNumberToObject(w, "first_position", s->first_position);
	cJSON_AddNumberToObject(w, "last_position", s->last_position);
	cJSON_AddItemToObject(w, "older", s->from > s->first_position ?
			      window_url(prefix, s->from - n > s->first_position ? s->from - n : s->first_position,
					 s->from - 1)
			      : cJSON_CreateNull());
	cJSON_AddItemToObject(w, "newer", s->to < s->last_position ?
			      window_url(prefix, s->to + 1, s->to + n < s->last_position ? s->to + n : s->last_position)
			      : cJSON_CreateNull());
}
