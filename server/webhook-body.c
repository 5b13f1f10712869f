/*
 * The JSON a webhook receives for one outbox event: the regression as the API
 * gives it (fw_regression_json: rounded numbers, links), with the event's
 * type, id (the idempotency key, also in X-Foliowatch-Event-Id), verdict and
 * a Slack/Mattermost-compatible `text`. Links are absolute when serve has
 * --public-url. Only cJSON writes it; in `text`, outside names are escaped
 * the way Slack's mrkdwn wants (&, <, >), so a name cannot make a link.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "notify.h"
#include "routes.h"
#include "run-doc.h"

/* Slack's three escapes; everything else is plain text to it. */
static void add_mrkdwn(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		if (*s == '&')
			strbuf_addstr(sb, "&amp;");
		else if (*s == '<')
			strbuf_addstr(sb, "&lt;");
		else if (*s == '>')
			strbuf_addstr(sb, "&gt;");
		else
			strbuf_addch(sb, *s);
	}
}

static void add_text(cJSON *o, const char *type, const char *public_url)
{
	struct strbuf sb = STRBUF_INIT;
	const char *sha = fw_json_str(o, "commit", "");
	double d = fw_json_num(o, "delta_pct", NAN);

	strbuf_addstr(&sb, !strcmp(type, "new")	 ? "foliowatch: new regression in "
		      : !strcmp(type, "fixed")	 ? "foliowatch: fixed regression in "
		      : !strcmp(type, "bisected") ? "foliowatch: regression bisected in "
						  : "foliowatch: regression status changed in ");
	add_mrkdwn(&sb, fw_json_str(o, "series", ""));
	strbuf_addf(&sb, " v%d: ", fw_json_int(o, "revision", 0));
	add_mrkdwn(&sb, fw_json_str(o, "workload", ""));
	strbuf_addch(&sb, '/');
	add_mrkdwn(&sb, fw_json_str(o, "variant", ""));
	strbuf_addch(&sb, ' ');
	add_mrkdwn(&sb, fw_json_str(o, "metric", ""));
	if (!isnan(d))
		strbuf_addf(&sb, " %+.1f%%", d);
	strbuf_addf(&sb, " at %.12s (", sha);
	add_mrkdwn(&sb, fw_json_str(o, "subject", ""));
	strbuf_addch(&sb, ')');
	if (!strcmp(type, "bisected")) /* the culprit above; where it was found first */
		strbuf_addf(&sb, ", found at %.12s", fw_json_str(o, "found_sha", ""));
	strbuf_addstr(&sb, ", status ");
	add_mrkdwn(&sb, fw_json_str(o, "status", ""));
	if (public_url) {
		/* links are our own percent-encoded paths after a checked --public-url */
		strbuf_addf(&sb, " <%s|details>", fw_json_str(cJSON_GetObjectItemCaseSensitive(o, "links"), "commit", ""));
	}
	cJSON_AddStringToObject(o, "text", sb.buf);
	strbuf_release(&sb);
}

char *fw_webhook_body(const char *type, const char *event_key, const char *payload, const char *public_url)
{
	cJSON *g = cJSON_Parse(payload), *o, *links, *l;
	char *out;

	if (!g)
		return NULL;
	o = fw_regression_json_of(g);
	cJSON_Delete(g);
	cJSON_DeleteItemFromObjectCaseSensitive(o, "history");
	/* the API's "id" and "sha", under the names a receiver of events expects */
	cJSON_AddItemToObject(o, "regression_id", cJSON_DetachItemFromObjectCaseSensitive(o, "id"));
	cJSON_AddItemToObject(o, "commit", cJSON_DetachItemFromObjectCaseSensitive(o, "sha"));
	cJSON_AddStringToObject(o, "type", type);
	cJSON_AddStringToObject(o, "event_id", event_key);
	cJSON_AddStringToObject(o, "verdict", !strcmp(type, "fixed") ? "fixed" : "regression");
	links = cJSON_GetObjectItemCaseSensitive(o, "links");
	cJSON_ArrayForEach(l, links) {
		if (public_url && cJSON_IsString(l)) {
			struct strbuf u = STRBUF_INIT;
			strbuf_addf(&u, "%s%s", public_url, l->valuestring);
			cJSON_SetValuestring(l, u.buf);
			strbuf_release(&u);
		}
	}
	add_text(o, type, public_url);
	out = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	return out;
}
