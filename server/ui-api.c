/*
 * GET /api: the OpenAPI document (server/openapi.json, compiled in) as a page
 * a person can read without JavaScript: every operation with its parameters,
 * request body and answers, then every schema with its fields. Everything
 * shown comes from the document, through the escaping writers.
 */
#include <string.h>
#include "routes.h"
#include "html.h"
#include "ui.h"
#include "run-doc.h"

/* Text of the document: `code` spans (its Markdown) as <code>, the rest as text. */
static void md_txt(struct strbuf *sb, const char *s)
{
	struct strbuf part = STRBUF_INIT;
	int code = 0;

	for (;; s++) {
		if (*s && *s != '`') {
			strbuf_addch(&part, *s);
			continue;
		}
		strbuf_addstr(sb, code ? "<code>" : "");
		html_txt(sb, part.buf);
		strbuf_addstr(sb, code ? "</code>" : "");
		strbuf_reset(&part);
		if (!*s)
			break;
		code = !code;
	}
	strbuf_release(&part);
}

/* "#/components/schemas/Trend" -> a link to that schema's section. */
static void schema_ref(struct strbuf *sb, const cJSON *schema)
{
	const char *ref = fw_json_str(schema, "$ref", ""), *name = strrchr(ref, '/');
	const cJSON *items = cJSON_GetObjectItemCaseSensitive(schema, "items");
	const cJSON *type = cJSON_GetObjectItemCaseSensitive(schema, "type"), *t;

	if (name) {
		strbuf_addstr(sb, "<a href=\"#schema-");
		html_attr(sb, name + 1);
		strbuf_addstr(sb, "\">");
		html_txt(sb, name + 1);
		strbuf_addstr(sb, "</a>");
		return;
	}
	if (cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(schema, "allOf"))) {
		schema_ref(sb, cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(schema, "allOf"), 0));
		strbuf_addstr(sb, " and more");
		return;
	}
	if (cJSON_IsString(type))
		html_txt(sb, type->valuestring);
	if (cJSON_IsArray(type)) {
		cJSON_ArrayForEach(t, type) {
			if (t != type->child)
				strbuf_addstr(sb, " or ");
			html_txt(sb, cJSON_GetStringValue(t));
		}
	}
	if (items) {
		strbuf_addstr(sb, " of ");
		schema_ref(sb, items);
	}
	if (cJSON_GetObjectItemCaseSensitive(schema, "enum")) {
		char *e = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(schema, "enum"));

		strbuf_addstr(sb, ": one of <code>");
		html_txt(sb, e);
		strbuf_addstr(sb, "</code>");
		cJSON_free(e);
	}
}

static void parameters(struct strbuf *sb, const cJSON *params)
{
	const cJSON *p;

	if (!cJSON_GetArraySize(params))
		return;
	strbuf_addstr(sb, "<table class=\"grid\"><thead><tr><th>parameter</th><th>in</th><th>type</th>"
		      "<th>required</th><th>what</th></tr></thead><tbody>\n");
	cJSON_ArrayForEach(p, params) {
		strbuf_addstr(sb, "<tr><td><code>");
		html_txt(sb, fw_json_str(p, "name", ""));
		strbuf_addstr(sb, "</code></td><td>");
		html_txt(sb, fw_json_str(p, "in", ""));
		strbuf_addstr(sb, "</td><td>");
		schema_ref(sb, cJSON_GetObjectItemCaseSensitive(p, "schema"));
		strbuf_addf(sb, "</td><td>%s</td><td>",
			    cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(p, "required")) ? "yes" : "no");
		md_txt(sb, fw_json_str(p, "description", ""));
		strbuf_addstr(sb, "</td></tr>\n");
	}
	strbuf_addstr(sb, "</tbody></table>\n");
}

/* A response or request body: description, then each content type and its schema. */
static void body_of(struct strbuf *sb, const cJSON *doc, const cJSON *b)
{
	const char *ref = fw_json_str(b, "$ref", "");
	const cJSON *c;

	if (*ref) {  /* "#/components/responses/NotFound" */
		const cJSON *rs = cJSON_GetObjectItemCaseSensitive(
			cJSON_GetObjectItemCaseSensitive(doc, "components"), "responses");

		b = cJSON_GetObjectItemCaseSensitive(rs, strrchr(ref, '/') + 1);
	}
	md_txt(sb, fw_json_str(b, "description", ""));
	cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(b, "content")) {
		strbuf_addstr(sb, " <code>");
		html_txt(sb, c->string);
		strbuf_addstr(sb, "</code> ");
		schema_ref(sb, cJSON_GetObjectItemCaseSensitive(c, "schema"));
	}
	cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(b, "headers")) {
		strbuf_addstr(sb, "; header <code>");
		html_txt(sb, c->string);
		strbuf_addstr(sb, "</code>: ");
		md_txt(sb, fw_json_str(c, "description", ""));
	}
}

static void operation(struct strbuf *sb, const cJSON *doc, const char *path, const cJSON *op)
{
	const cJSON *resp, *body = cJSON_GetObjectItemCaseSensitive(op, "requestBody");
	struct strbuf m = STRBUF_INIT;

	for (const char *p = op->string; *p; p++)
		strbuf_addch(&m, (char)(*p >= 'a' && *p <= 'z' ? *p - 32 : *p));
	strbuf_addstr(sb, "<section class=\"op\" id=\"op-");
	html_attr(sb, fw_json_str(op, "operationId", ""));
	strbuf_addstr(sb, "\"><h3><code>");
	html_txt(sb, m.buf);
	strbuf_addch(sb, ' ');
	html_txt(sb, path);
	strbuf_addstr(sb, "</code></h3>\n<p>");
	md_txt(sb, fw_json_str(op, "summary", ""));
	if (*fw_json_str(op, "description", "")) {
		strbuf_addch(sb, ' ');
		md_txt(sb, fw_json_str(op, "description", ""));
	}
	if (cJSON_GetObjectItemCaseSensitive(op, "security"))
		strbuf_addstr(sb, " <strong>Needs <code>Authorization: Bearer TOKEN</code>.</strong>");
	strbuf_addstr(sb, "</p>\n");
	parameters(sb, cJSON_GetObjectItemCaseSensitive(op, "parameters"));
	if (body) {
		strbuf_addstr(sb, "<p>Body: ");
		body_of(sb, doc, body);
		strbuf_addstr(sb, "</p>\n");
	}
	strbuf_addstr(sb, "<table class=\"grid\"><thead><tr><th>status</th><th>answer</th></tr></thead><tbody>\n");
	cJSON_ArrayForEach(resp, cJSON_GetObjectItemCaseSensitive(op, "responses")) {
		strbuf_addstr(sb, "<tr><td>");
		html_txt(sb, resp->string);
		strbuf_addstr(sb, "</td><td>");
		body_of(sb, doc, resp);
		strbuf_addstr(sb, "</td></tr>\n");
	}
	strbuf_addstr(sb, "</tbody></table></section>\n");
	strbuf_release(&m);
}

static void schema_section(struct strbuf *sb, const cJSON *s)
{
	const cJSON *props = cJSON_GetObjectItemCaseSensitive(s, "properties"), *p, *all, *a;
	const cJSON *req = cJSON_GetObjectItemCaseSensitive(s, "required");

	strbuf_addstr(sb, "<section id=\"schema-");
	html_attr(sb, s->string);
	strbuf_addstr(sb, "\"><h3>");
	html_txt(sb, s->string);
	strbuf_addstr(sb, "</h3>\n");
	if (*fw_json_str(s, "description", "")) {
		strbuf_addstr(sb, "<p>");
		md_txt(sb, fw_json_str(s, "description", ""));
		strbuf_addstr(sb, "</p>\n");
	}
	all = cJSON_GetObjectItemCaseSensitive(s, "allOf");
	cJSON_ArrayForEach(a, all) {
		strbuf_addstr(sb, "<p>The fields of ");
		schema_ref(sb, a);
		strbuf_addstr(sb, props ? ", and:</p>\n" : ".</p>\n");
	}
	if (!props && !all) {
		strbuf_addstr(sb, "<p>");
		schema_ref(sb, s);
		strbuf_addstr(sb, "</p>\n");
	}
	if (props)
		strbuf_addstr(sb, "<table class=\"grid\"><thead><tr><th>field</th><th>type</th><th>always there</th>"
			      "<th>what</th></tr></thead><tbody>\n");
	cJSON_ArrayForEach(p, props) {
		int always = 0;
		const cJSON *r;

		cJSON_ArrayForEach(r, req)
			always |= !strcmp(cJSON_GetStringValue(r) ? r->valuestring : "", p->string);
		strbuf_addstr(sb, "<tr><td><code>");
		html_txt(sb, p->string);
		strbuf_addstr(sb, "</code></td><td>");
		schema_ref(sb, p);
		strbuf_addf(sb, "</td><td>%s</td><td>", always ? "yes" : "no");
		md_txt(sb, fw_json_str(p, "description", ""));
		strbuf_addstr(sb, "</td></tr>\n");
	}
	if (props)
		strbuf_addstr(sb, "</tbody></table>\n");
	strbuf_addstr(sb, "</section>\n");
}

enum MHD_Result ui_api(struct fw_req *r)
{
	cJSON *doc = cJSON_ParseWithLength(fw_openapi_json, fw_openapi_json_len);
	const cJSON *info = cJSON_GetObjectItemCaseSensitive(doc, "info"), *path, *op, *s;
	struct strbuf sb = STRBUF_INIT;
	struct fw_ui ui = { 0 };

	if (!doc)
		return reply_error(r, 500, "internal", NULL, "the compiled-in OpenAPI document does not parse");
	ui_page_begin(&sb, &ui, "HTTP API");
	strbuf_addstr(&sb, "<h1>The foliowatch HTTP API</h1>\n<p>");
	html_txt(&sb, fw_json_str(info, "summary", ""));
	strbuf_addstr(&sb, "</p>\n<p>");
	md_txt(&sb, fw_json_str(info, "description", ""));
	strbuf_addstr(&sb, "</p>\n<p>The same as an OpenAPI 3.1 document: "
		      "<a href=\"/api/v1/openapi.json\">/api/v1/openapi.json</a>.</p>\n<h2>Operations</h2>\n");
	cJSON_ArrayForEach(path, cJSON_GetObjectItemCaseSensitive(doc, "paths"))
		cJSON_ArrayForEach(op, path)
			if (cJSON_IsObject(op) && cJSON_GetObjectItemCaseSensitive(op, "responses"))
				operation(&sb, doc, path->string, op);
	strbuf_addstr(&sb, "<h2>Schemas</h2>\n");
	cJSON_ArrayForEach(s, cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(doc, "components"),
							       "schemas"))
		schema_section(&sb, s);
	html_page_end(&sb);
	cJSON_Delete(doc);
	return reply_buf(r, 200, "text/html; charset=utf-8", &sb, NULL);
}
