/* The mail and the measuring setup of a series, for the text report and the mail (see store.h). */
#include "store.h"
#include "strbuf.h"
#include <cjson/cJSON.h>
#include <string.h>

/* Every row of sql (one parameter: the series id) as an object named by its columns. */
static cJSON *rows_of(sqlite3 *db, const char *sql, long long series_id, struct strbuf *err)
{
	sqlite3_stmt *st = NULL;
	cJSON *arr = NULL;
	int rc;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		strbuf_addf(err, "database error: %s", sqlite3_errmsg(db));
		return NULL;
	}
	sqlite3_bind_int64(st, 1, series_id);
	arr = cJSON_CreateArray();
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		cJSON *o = cJSON_CreateObject();
		for (int i = 0; i < sqlite3_column_count(st); i++) {
			const char *name = sqlite3_column_name(st, i);
			switch (sqlite3_column_type(st, i)) {
			case SQLITE_NULL:
				cJSON_AddNullToObject(o, name);
				break;
			case SQLITE_INTEGER:
			case SQLITE_FLOAT:
				cJSON_AddNumberToObject(o, name, sqlite3_column_double(st, i));
				break;
			default:
				cJSON_AddStringToObject(o, name, (const char *)sqlite3_column_text(st, i));
			}
		}
		cJSON_AddItemToArray(arr, o);
	}
	if (rc != SQLITE_DONE) {
		strbuf_addf(err, "database error: %s", sqlite3_errmsg(db));
		cJSON_Delete(arr);
		arr = NULL;
	}
	sqlite3_finalize(st);
	return arr;
}

static const char *const sql_patches =
	"SELECT c.position, c.sha, c.author, m.message_id, m.from_addr, m.to_addrs, m.cc_addrs, m.subject "
	"FROM commits c LEFT JOIN commit_mail m ON m.commit_id = c.id WHERE c.series_id = ?1 "
	"AND c.position > (SELECT min(position) FROM commits WHERE series_id = ?1) ORDER BY c.position";
/* One line per environment and profile: the setup a reader needs to measure the same way. */
static const char *const sql_envs =
	"SELECT e.host, e.accel, e.vcpus, e.memory_mib, e.qemu_version, e.host_kernel, e.cpu_model, "
	"e.foliowatch_version, e.fio_version, max(b.kernel_version) AS kernel_version, "
	"max(b.compiler) AS compiler, max(b.config_hash) AS config_hash, count(DISTINCT b.config_hash) AS configs, r.profile, group_concat(DISTINCT r.workloads) AS workloads, "
	"(SELECT max(s.round) + 1 FROM samples s JOIN results x ON x.id = s.result_id "
	" JOIN runs y ON y.id = x.run_id JOIN commits z ON z.id = y.commit_id "
	" WHERE z.series_id = ?1 AND y.env_id = e.id) AS rounds, count(*) AS boots "
	"FROM runs r JOIN commits c ON c.id = r.commit_id JOIN environments e ON e.id = r.env_id "
	"JOIN builds b ON b.id = r.build_id WHERE c.series_id = ?1 GROUP BY e.id, r.profile ORDER BY e.host, e.id";

/*
 * group_concat joins each boot's list: a boot of some workloads only (an
 * added or a profile-only one) repeats names. Each name once, first seen first.
 */
static void unique_workloads(cJSON *env)
{
	const char *all = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(env, "workloads"));
	struct strbuf out = STRBUF_INIT, item = STRBUF_INIT;

	for (const char *p = all; p && *p;) {
		size_t len = strcspn(p, ",");
		strbuf_reset(&item);
		strbuf_addf(&item, ",%.*s,", (int)len, p);
		if (len && !strstr(out.len ? out.buf : "", item.buf)) {
			if (!out.len)
				strbuf_addch(&out, ',');
			strbuf_addf(&out, "%.*s,", (int)len, p);
		}
		p += len + (p[len] == ',');
	}
	if (all && out.len) {
		out.buf[out.len - 1] = '\0';
		cJSON_ReplaceItemInObjectCaseSensitive(env, "workloads", cJSON_CreateString(out.buf + 1));
	}
	strbuf_release(&out);
	strbuf_release(&item);
}

int fw_mail_facts(sqlite3 *db, const char *series, int revision, cJSON **out, struct strbuf *err)
{
	sqlite3_stmt *st = NULL;
	long long sid = -1;
	cJSON *o = NULL, *a, *e;

	*out = NULL;
	if (sqlite3_prepare_v2(db, "SELECT id FROM series WHERE name = ? AND revision = ?", -1, &st, NULL) ==
	    SQLITE_OK) {
		sqlite3_bind_text(st, 1, series, -1, SQLITE_STATIC);
		sqlite3_bind_int(st, 2, revision);
		if (sqlite3_step(st) == SQLITE_ROW)
			sid = sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	if (sid < 0) {
		strbuf_addstr(err, "no such series");
		return -1;
	}
	o = cJSON_CreateObject();
	a = rows_of(db, "SELECT message_id, subject FROM series_cover WHERE series_id = ?", sid, err);
	if (!a)
		goto fail;
	if (cJSON_GetArraySize(a))
		cJSON_AddItemToObject(o, "cover", cJSON_DetachItemFromArray(a, 0));
	cJSON_Delete(a);
	if (!(a = rows_of(db, sql_patches, sid, err)))
		goto fail;
	cJSON_AddItemToObject(o, "patches", a);
	if (!(a = rows_of(db, sql_envs, sid, err)))
		goto fail;
	cJSON_ArrayForEach(e, a)
		unique_workloads(e);
	cJSON_AddItemToObject(o, "envs", a);
	*out = o;
	return 0;
fail:
	cJSON_Delete(o);
	return -1;
}
