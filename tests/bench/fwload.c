/*
 * Load generator for the benchmarks in the tests/bench scripts (built to
 * build/bench/fwload; not run by itself since its name has no bench- prefix).
 *
 *   fwload gen DB SERIES COMMITS METRICS SAMPLES [PREFIX]
 *        sealed documents (one boot per series x commit) ingested in-process:
 *        the fast way to a big benchmark DB
 *   fwload doc RESULTS SAMPLES                 one sealed document to stdout
 *   fwload ingest PORT TOKEN N RESULTS SAMPLES [FIRST]  POST N distinct documents
 *        (numbered from FIRST, so repeated rounds never send a duplicate), one
 *        keep-alive connection, each waited for (the server answers after COMMIT)
 *   fwload raw DB N RESULTS SAMPLES [FIRST]     the same rows (run, results,
 *        samples) with plain prepared INSERTs, one transaction per document,
 *        on a DB opened like the server opens it (same WAL/synchronous settings)
 *   fwload get PORT PATH N                      N GETs on one connection
 * Every mode prints one line "<name> <count> <seconds> <per second>".
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "fw-db.h"
#include "http.h"
#include "ingest.h"
#include "run-doc.h"

static unsigned long long rng = 88172645463325252ULL;

static double noise(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (double)(rng % 2001) / 1000.0 - 1.0;  /* -1 .. 1 */
}

static void sha_of(char out[41], const char *prefix, int i)
{
	snprintf(out, 41, "%.8s%032x", prefix, i);
}

static const char *const workloads[] = { "split", "mthp", "lazyfree", "filemap" };

/* A sealed document like tests/lib/gen-doc.py writes: caller frees. */
static char *make_doc(const char *series, int commit, int boot, int nres, int nsamp)
{
	cJSON *d = cJSON_CreateObject(), *o, *res, *env;
	struct strbuf rid = STRBUF_INIT;
	char sha[41], parent[41], fp[65], *txt;

	sha_of(sha, "c0ffee00", commit);
	sha_of(parent, "c0ffee00", commit - 1);
	cJSON_AddStringToObject(d, "format", FW_DOC_FORMAT);
	cJSON_AddStringToObject(d, "run_id", "");
	cJSON_AddStringToObject(d, "origin", "bench");
	cJSON_AddStringToObject(d, "created_at", "2026-11-29T00:00:00Z");
	o = cJSON_AddObjectToObject(d, "tree");
	cJSON_AddStringToObject(o, "name", "linux-source-6.12");
	cJSON_AddStringToObject(o, "url", "");
	o = cJSON_AddObjectToObject(d, "series");
	cJSON_AddStringToObject(o, "name", series);
	cJSON_AddNumberToObject(o, "revision", 1);
	cJSON_AddStringToObject(o, "base", "c0ffee0000000000000000000000000000000000");
	o = cJSON_AddObjectToObject(d, "commit");
	cJSON_AddStringToObject(o, "sha", sha);
	cJSON_AddStringToObject(o, "key", sha);
	cJSON_AddStringToObject(o, "subject", "mm: bench patch");
	cJSON_AddStringToObject(o, "author", "Bench <b@example.org>");
	cJSON_AddNumberToObject(o, "position", commit);
	if (commit > 0)
		cJSON_AddStringToObject(o, "parent", parent);
	o = cJSON_AddObjectToObject(d, "build");
	cJSON_AddStringToObject(o, "status", "ok");
	cJSON_AddNumberToObject(o, "seconds", 10);
	cJSON_AddStringToObject(o, "kernel_version", "6.12.0");
	cJSON_AddStringToObject(o, "config_hash", "0000000000000000000000000000000000000000000000000000000000000000");
	cJSON_AddStringToObject(o, "compiler", "gcc");
	env = cJSON_AddObjectToObject(d, "environment");
	cJSON_AddStringToObject(env, "host", "bench");
	cJSON_AddStringToObject(env, "accel", "kvm");
	cJSON_AddStringToObject(env, "qemu_version", "7.2");
	cJSON_AddNumberToObject(env, "vcpus", 2);
	cJSON_AddNumberToObject(env, "memory_mib", 2048);
	cJSON_AddStringToObject(env, "host_kernel", "6.1");
	cJSON_AddStringToObject(env, "cpu_model", "cpu");
	cJSON_AddStringToObject(env, "foliowatch_version", "bench");
	cJSON_AddStringToObject(env, "fio_version", "fio-3.33");
	o = cJSON_AddObjectToObject(d, "boot");
	cJSON_AddStringToObject(o, "status", "ok");
	cJSON_AddNumberToObject(o, "taint", 0);
	cJSON_AddNumberToObject(o, "seconds", 30);
	cJSON_AddStringToObject(d, "profile", "quick");
	cJSON_AddNumberToObject(d, "boot_index", boot);
	/* Metrics spread over the four workloads as in a real series (metric 0 is split/v0/m0). */
	o = cJSON_AddArrayToObject(d, "workloads");
	for (int w = 0; w < 4 && w < nres; w++)
		cJSON_AddItemToArray(o, cJSON_CreateString(workloads[w]));
	res = cJSON_AddArrayToObject(d, "results");
	for (int r = 0; r < nres; r++) {
		cJSON *x = cJSON_CreateObject(), *s;
		char name[32];

		cJSON_AddStringToObject(x, "workload", workloads[r % 4]);
		snprintf(name, sizeof(name), "v%d", r % 8);
		cJSON_AddStringToObject(x, "variant", name);
		cJSON_AddNumberToObject(cJSON_AddObjectToObject(x, "params"), "size_mib", 64);
		snprintf(name, sizeof(name), "m%d", r);
		cJSON_AddStringToObject(x, "metric", name);
		cJSON_AddStringToObject(x, "unit", "ms");
		cJSON_AddStringToObject(x, "direction", "lower_is_better");
		cJSON_AddStringToObject(x, "kind", "time");
		s = cJSON_AddArrayToObject(x, "samples");
		for (int k = 0; k < nsamp; k++)
			cJSON_AddItemToArray(s, cJSON_CreateNumber(100.0 + r + commit * 0.01 + noise()));
		cJSON_AddItemToArray(res, x);
	}
	fw_env_fingerprint(env, fp);
	cJSON_AddStringToObject(env, "fingerprint", fp);
	fw_doc_expected_run_id(d, &rid);
	cJSON_ReplaceItemInObjectCaseSensitive(d, "run_id", cJSON_CreateString(rid.buf));
	txt = cJSON_PrintUnformatted(d);
	cJSON_Delete(d);
	strbuf_release(&rid);
	return txt;
}

static int cmd_gen(int argc, char **argv)
{
	struct strbuf err = STRBUF_INIT;
	sqlite3 *db;
	int nser, ncom, nmet, nsamp, ret = 1;
	const char *prefix = argc > 7 ? argv[7] : "s";
	double t0 = fw_monotonic();

	if (argc < 7)
		return 2;
	nser = atoi(argv[3]);
	ncom = atoi(argv[4]);
	nmet = atoi(argv[5]);
	nsamp = atoi(argv[6]);
	db = fw_db_open(argv[2], &err);
	if (!db) {
		fprintf(stderr, "fwload: %s\n", err.buf);
		goto cleanup;
	}
	for (int s = 0; s < nser; s++) {
		char name[64];

		snprintf(name, sizeof(name), "%s%02d", prefix, s);
		for (int c = 0; c < ncom; c++) {
			struct fw_ingest_info info;
			char *doc = make_doc(name, c, 0, nmet, nsamp);

			memset(&info, 0, sizeof(info));
			fw_ingest(db, doc, strlen(doc), &info);
			free(doc);
			if (info.status != FW_INGEST_STORED) {
				fprintf(stderr, "fwload: ingest %s/%d: %s %s\n", name, c,
					info.err.field, info.err.detail);
				goto cleanup;
			}
		}
	}
	printf("gen %d %.3f %.1f\n", nser * ncom, fw_monotonic() - t0,
	       nser * ncom / (fw_monotonic() - t0));
	ret = 0;
cleanup:
	fw_db_close(db);
	strbuf_release(&err);
	return ret;
}

static int connect_port(int port)
{
	struct sockaddr_in sa;
	int one = 1, fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -1;
	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_port = htons((uint16_t)port);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		close(fd);
		return -1;
	}
	return fd;
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* One request on a keep-alive connection: the status, or -1 when the connection failed. */
static int request(int fd, const char *method, const char *path, const char *auth,
		   const char *body, size_t blen)
{
	struct strbuf req = STRBUF_INIT, in = STRBUF_INIT;
	char buf[65536];
	char *hend = NULL, *cl;
	size_t want = 0;
	int status = -1;

	strbuf_addf(&req, "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\n", method, path);
	if (auth)
		strbuf_addf(&req, "Authorization: Bearer %s\r\n", auth);
	if (body)
		strbuf_addf(&req, "Content-Type: application/json\r\nContent-Length: %zu\r\n", blen);
	strbuf_addstr(&req, "\r\n");
	if (body)
		strbuf_add(&req, body, blen);
	if (write_all(fd, req.buf, req.len))
		goto cleanup;
	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			goto cleanup;
		strbuf_add(&in, buf, (size_t)n);
		if (!hend && (hend = strstr(in.buf, "\r\n\r\n"))) {
			cl = strcasestr(in.buf, "\r\nContent-Length:");
			want = (size_t)(hend - in.buf) + 4 + (cl && cl < hend ? strtoul(cl + 17, NULL, 10) : 0);
		}
		if (hend && in.len >= want)
			break;
	}
	status = atoi(in.buf + 9);
cleanup:
	strbuf_release(&req);
	strbuf_release(&in);
	return status;
}

static int cmd_ingest(int argc, char **argv)
{
	int port, n, nres, nsamp, fd, first, ret = 1, bad = 0;
	char **docs;
	double t0, dt;

	if (argc < 7)
		return 2;
	port = atoi(argv[2]);
	n = atoi(argv[4]);
	nres = atoi(argv[5]);
	nsamp = atoi(argv[6]);
	first = argc > 7 ? atoi(argv[7]) : 0;
	/* Documents are built before the clock starts: only the server is measured. */
	docs = calloc((size_t)n, sizeof(*docs));
	for (int i = 0; i < n; i++)
		docs[i] = make_doc("ingest", (first + i) % 200, (first + i) / 200, nres, nsamp);
	fd = connect_port(port);
	t0 = fw_monotonic();
	for (int i = 0; i < n && fd >= 0; i++) {
		int st = request(fd, "POST", "/api/v1/runs", argv[3], docs[i], strlen(docs[i]));

		if (st < 0) {  /* the server closed a keep-alive connection: reconnect once */
			close(fd);
			fd = connect_port(port);
			st = fd < 0 ? -1 : request(fd, "POST", "/api/v1/runs", argv[3], docs[i], strlen(docs[i]));
		}
		if (st != 201)
			bad++;
	}
	dt = fw_monotonic() - t0;
	if (fd >= 0)
		close(fd);
	printf("ingest %d %.3f %.1f\n", n, dt, n / dt);
	if (bad)
		fprintf(stderr, "fwload: %d POSTs were not 201\n", bad);
	else
		ret = 0;
	for (int i = 0; i < n; i++)
		free(docs[i]);
	free(docs);
	return ret;
}

static int cmd_raw(int argc, char **argv)
{
	struct strbuf err = STRBUF_INIT;
	sqlite3 *db;
	sqlite3_stmt *run = NULL, *res = NULL, *smp = NULL, *par = NULL;
	struct fw_ingest_info info;
	long long commit_id = 0, build_id = 0, env_id = 0;
	int n, nres, nsamp, from, ret = 1;
	char *first;
	double t0, dt;

	if (argc < 6)
		return 2;
	n = atoi(argv[3]);
	nres = atoi(argv[4]);
	nsamp = atoi(argv[5]);
	from = argc > 6 ? atoi(argv[6]) : 0;
	db = fw_db_open(argv[2], &err);
	if (!db) {
		fprintf(stderr, "fwload: %s\n", err.buf);
		goto cleanup;
	}
	/* One real ingest for the parent rows (tree .. build) the runs point at. */
	first = make_doc("raw", 0, 0, nres, nsamp);
	memset(&info, 0, sizeof(info));
	fw_ingest(db, first, strlen(first), &info);  /* a duplicate in later rounds: fine */
	free(first);
	if (sqlite3_prepare_v2(db, "SELECT commit_id, build_id, env_id FROM runs", -1, &par, NULL) ||
	    sqlite3_step(par) != SQLITE_ROW)
		goto dberr;
	commit_id = sqlite3_column_int64(par, 0);
	build_id = sqlite3_column_int64(par, 1);
	env_id = sqlite3_column_int64(par, 2);
	if (sqlite3_prepare_v2(db, "INSERT INTO runs (run_id, doc_hash, origin, commit_id, build_id, env_id,"
			       " profile, workloads, boot_index, created_at, ingested_at, boot_status)"
			       " VALUES (?, 'h', 'bench', ?, ?, ?, 'quick', 'split', ?, 'x', 'y', 'ok')",
			       -1, &run, NULL) ||
	    sqlite3_prepare_v2(db, "INSERT INTO results (run_id, workload, variant, metric, params, unit,"
			       " direction, kind) VALUES (?, 'split', 'v', ?, '{}', 'ms', 'lower_is_better', 'time')",
			       -1, &res, NULL) ||
	    sqlite3_prepare_v2(db, "INSERT INTO samples (result_id, round, value) VALUES (?, ?, ?)",
			       -1, &smp, NULL))
		goto dberr;
	t0 = fw_monotonic();
	for (int i = 0; i < n; i++) {
		char rid[32];
		long long run_row;

		snprintf(rid, sizeof(rid), "raw:%d", from + i);
		if (fw_db_exec(db, "BEGIN IMMEDIATE", &err))
			goto cleanup;
		sqlite3_bind_text(run, 1, rid, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(run, 2, commit_id);
		sqlite3_bind_int64(run, 3, build_id);
		sqlite3_bind_int64(run, 4, env_id);
		sqlite3_bind_int(run, 5, i + 1);
		if (sqlite3_step(run) != SQLITE_DONE)
			goto dberr;
		sqlite3_reset(run);
		run_row = sqlite3_last_insert_rowid(db);
		for (int r = 0; r < nres; r++) {
			char m[16];
			long long res_row;

			snprintf(m, sizeof(m), "m%d", r);
			sqlite3_bind_int64(res, 1, run_row);
			sqlite3_bind_text(res, 2, m, -1, SQLITE_TRANSIENT);
			if (sqlite3_step(res) != SQLITE_DONE)
				goto dberr;
			sqlite3_reset(res);
			res_row = sqlite3_last_insert_rowid(db);
			for (int k = 0; k < nsamp; k++) {
				sqlite3_bind_int64(smp, 1, res_row);
				sqlite3_bind_int(smp, 2, k);
				sqlite3_bind_double(smp, 3, 100.0 + noise());
				if (sqlite3_step(smp) != SQLITE_DONE)
					goto dberr;
				sqlite3_reset(smp);
			}
		}
		if (fw_db_exec(db, "COMMIT", &err))
			goto cleanup;
	}
	dt = fw_monotonic() - t0;
	printf("raw %d %.3f %.1f\n", n, dt, n / dt);
	ret = 0;
	goto cleanup;
dberr:
	fprintf(stderr, "fwload: %s\n", sqlite3_errmsg(db));
cleanup:
	if (err.len)
		fprintf(stderr, "fwload: %s\n", err.buf);
	sqlite3_finalize(par);
	sqlite3_finalize(run);
	sqlite3_finalize(res);
	sqlite3_finalize(smp);
	fw_db_close(db);
	strbuf_release(&err);
	return ret;
}

static int cmd_get(int argc, char **argv)
{
	int n, fd, bad = 0;
	double t0, dt;

	if (argc < 5)
		return 2;
	n = atoi(argv[4]);
	fd = connect_port(atoi(argv[2]));
	if (fd < 0)
		return 1;
	t0 = fw_monotonic();
	for (int i = 0; i < n; i++)
		if (request(fd, "GET", argv[3], NULL, NULL, 0) != 200)
			bad++;
	dt = fw_monotonic() - t0;
	close(fd);
	printf("get %d %.6f %.1f\n", n, dt, n / dt);
	return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "gen"))
		return cmd_gen(argc, argv);
	if (argc > 3 && !strcmp(argv[1], "doc")) {
		char *d = make_doc("bigdoc", 0, 0, atoi(argv[2]), atoi(argv[3]));

		puts(d);
		free(d);
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "ingest"))
		return cmd_ingest(argc, argv);
	if (argc > 1 && !strcmp(argv[1], "raw"))
		return cmd_raw(argc, argv);
	if (argc > 1 && !strcmp(argv[1], "get"))
		return cmd_get(argc, argv);
	fprintf(stderr, "usage: fwload gen|doc|ingest|raw|get ... (see the comment at the top)\n");
	return 2;
}
