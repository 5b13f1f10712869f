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
 *   fwload history DB [COMMITS [SEED]]          a year of watched history (see
 *        cmd_history), ingested in-process
 *   fwload history-tip COMMITS [SEED [BOOT]]    a boot of that branch's next commit
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
#include "xalloc.h"

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

/* What one generated document holds; see make_doc. */
struct doc_spec {
	const char *series, *sha_prefix, *accel;
	int commit, boot, nres, nsamp, counters;
	int watched;   /* series.watched: a history (the branch `watch` measures) */
	/* The value of result r at commit c before noise (NULL: 100 + r + c/100 + noise()). */
	double (*level)(int c, int r, void *ctx);
	/* The boot's and the round's relative noise of result r. */
	double (*spread)(int r, double *between, double *within);
	void *ctx;
};

static void add_header(cJSON *d, const struct doc_spec *s)
{
	cJSON *o;
	char sha[41], parent[41], base[41];

	sha_of(sha, s->sha_prefix, s->commit);
	sha_of(parent, s->sha_prefix, s->commit - 1);
	sha_of(base, s->sha_prefix, 0);
	cJSON_AddStringToObject(d, "format", FW_DOC_FORMAT);
	cJSON_AddStringToObject(d, "run_id", "");
	cJSON_AddStringToObject(d, "origin", "bench");
	cJSON_AddStringToObject(d, "created_at", "2026-11-29T00:00:00Z");
	o = cJSON_AddObjectToObject(d, "tree");
	cJSON_AddStringToObject(o, "name", "linux-source-6.12");
	cJSON_AddStringToObject(o, "url", "");
	o = cJSON_AddObjectToObject(d, "series");
	if (s->watched)
		cJSON_AddBoolToObject(o, "watched", 1);
	cJSON_AddStringToObject(o, "name", s->series);
	cJSON_AddNumberToObject(o, "revision", 1);
	cJSON_AddStringToObject(o, "base", base);
	o = cJSON_AddObjectToObject(d, "commit");
	cJSON_AddStringToObject(o, "sha", sha);
	cJSON_AddStringToObject(o, "key", sha);
	cJSON_AddStringToObject(o, "subject", "mm: bench patch");
	cJSON_AddStringToObject(o, "author", "Bench <b@example.org>");
	cJSON_AddNumberToObject(o, "position", s->commit);
	if (s->commit > 0)
		cJSON_AddStringToObject(o, "parent", parent);
	o = cJSON_AddObjectToObject(d, "build");
	cJSON_AddStringToObject(o, "status", "ok");
	cJSON_AddNumberToObject(o, "seconds", 10);
	cJSON_AddStringToObject(o, "kernel_version", "6.12.0");
	cJSON_AddStringToObject(o, "config_hash", "0000000000000000000000000000000000000000000000000000000000000000");
	cJSON_AddStringToObject(o, "compiler", "gcc");
}

static cJSON *add_env(cJSON *d, const struct doc_spec *s)
{
	cJSON *env = cJSON_AddObjectToObject(d, "environment");

	cJSON_AddStringToObject(env, "host", "bench");
	cJSON_AddStringToObject(env, "accel", s->accel ? s->accel : "kvm");
	cJSON_AddStringToObject(env, "qemu_version", "7.2");
	cJSON_AddNumberToObject(env, "vcpus", 2);
	cJSON_AddNumberToObject(env, "memory_mib", 2048);
	cJSON_AddStringToObject(env, "host_kernel", "6.1");
	cJSON_AddStringToObject(env, "cpu_model", "cpu");
	cJSON_AddStringToObject(env, "foliowatch_version", "bench");
	cJSON_AddStringToObject(env, "fio_version", "fio-3.33");
	return env;
}

/* One result: samples (and counters, aligned with them) of metric r. */
static cJSON *make_result(const struct doc_spec *s, int r)
{
	static const char *const counter_names[] = { "thp_fault_alloc", "thp_split_page", "pgfault" };
	cJSON *x = cJSON_CreateObject(), *smp, *cts = NULL;
	double level = s->level ? s->level(s->commit, r, s->ctx) : 0, between = 0, within = 0, boot;
	char name[32];

	if (s->spread)
		s->spread(r, &between, &within);
	boot = 1 + between * noise();
	cJSON_AddStringToObject(x, "workload", workloads[r % 4]);
	snprintf(name, sizeof(name), "v%d", r % 8);
	cJSON_AddStringToObject(x, "variant", name);
	cJSON_AddNumberToObject(cJSON_AddObjectToObject(x, "params"), "size_mib", 64);
	snprintf(name, sizeof(name), "m%d", r);
	cJSON_AddStringToObject(x, "metric", name);
	cJSON_AddStringToObject(x, "unit", "ms");
	cJSON_AddStringToObject(x, "direction", "lower_is_better");
	cJSON_AddStringToObject(x, "kind", "time");
	smp = cJSON_AddArrayToObject(x, "samples");
	if (s->counters)
		cts = cJSON_AddArrayToObject(x, "counters");
	for (int k = 0; k < s->nsamp; k++) {
		double v = s->level ? level * boot * (1 + within * noise()) : 100.0 + r + s->commit * 0.01 + noise();

		cJSON_AddItemToArray(smp, cJSON_CreateNumber(v));
		if (cts) {
			cJSON *c = cJSON_CreateObject();
			for (int j = 0; j < s->counters && j < 3; j++)
				cJSON_AddNumberToObject(c, counter_names[j], (double)(4096 + 64 * (r % 5) + (rng % 3)));
			cJSON_AddItemToArray(cts, c);
		}
	}
	return x;
}

/* A sealed document like tests/lib/gen-doc.py writes: caller frees. */
static char *make_doc_spec(const struct doc_spec *s)
{
	cJSON *d = cJSON_CreateObject(), *o, *res, *env;
	struct strbuf rid = STRBUF_INIT;
	char fp[65], *txt;

	add_header(d, s);
	env = add_env(d, s);
	o = cJSON_AddObjectToObject(d, "boot");
	cJSON_AddStringToObject(o, "status", "ok");
	cJSON_AddNumberToObject(o, "taint", 0);
	cJSON_AddNumberToObject(o, "seconds", 30);
	cJSON_AddStringToObject(d, "profile", "quick");
	cJSON_AddNumberToObject(d, "boot_index", s->boot);
	/* Metrics spread over the four workloads as in a real series (metric 0 is split/v0/m0). */
	o = cJSON_AddArrayToObject(d, "workloads");
	for (int w = 0; w < 4 && w < s->nres; w++)
		cJSON_AddItemToArray(o, cJSON_CreateString(workloads[w]));
	res = cJSON_AddArrayToObject(d, "results");
	for (int r = 0; r < s->nres; r++)
		cJSON_AddItemToArray(res, make_result(s, r));
	fw_env_fingerprint(env, fp);
	cJSON_AddStringToObject(env, "fingerprint", fp);
	fw_doc_expected_run_id(d, &rid);
	cJSON_ReplaceItemInObjectCaseSensitive(d, "run_id", cJSON_CreateString(rid.buf));
	txt = cJSON_PrintUnformatted(d);
	cJSON_Delete(d);
	strbuf_release(&rid);
	return txt;
}

static char *make_doc(const char *series, int commit, int boot, int nres, int nsamp)
{
	struct doc_spec s = { .series = series, .sha_prefix = "c0ffee00", .commit = commit, .boot = boot,
			      .nres = nres, .nsamp = nsamp };

	return make_doc_spec(&s);
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

/*
 * A year of watched history (issue 31): a branch of COMMITS - 400 commits
 * (at least 50) and four patch series of 50, 83, 117 and 150 commits, every
 * commit 12 boots x 3 rounds x 40 metrics with two counters per round. The
 * metrics are near-deterministic (split, mthp) or noisy (lazyfree 1%,
 * filemap 3% between boots); about one commit in 100 moves one metric by a
 * real 2-10% step (branch and series alike). Fixed seed: the same history
 * every time.
 */
#define HIST_BOOTS 12
#define HIST_ROUNDS 3
#define HIST_METRICS 40
#define HIST_STEPS_MAX 512

struct hist_series {
	char name[32], prefix[9];
	int ncommits, nsteps;
	int step_at[HIST_STEPS_MAX], step_metric[HIST_STEPS_MAX];
	double step_factor[HIST_STEPS_MAX];
};

static double hist_level(int c, int r, void *ctx)
{
	const struct hist_series *h = ctx;
	double v = 100.0 + 3 * r;

	for (int i = 0; i < h->nsteps; i++)
		if (h->step_metric[i] == r && h->step_at[i] <= c)
			v *= h->step_factor[i];
	return v;
}

/* noise() is uniform on -1..1 (sd 0.58): the factors are about 1.7x the CVs. */
static double hist_spread(int r, double *between, double *within)
{
	static const double b[4] = { 0.0002, 0.0005, 0.01, 0.03 }, w[4] = { 0.0001, 0.0003, 0.005, 0.02 };

	*between = b[r % 4] * 1.7;
	*within = w[r % 4] * 1.7;
	return 0;
}

/* Series k of the history (0 the branch, 1-4 the patch series), steps drawn from seed. */
static void hist_series_init(struct hist_series *h, int k, int commits, unsigned seed)
{
	static const int sizes[4] = { 50, 83, 117, 150 };

	memset(h, 0, sizeof(*h));
	if (k == 0) {
		snprintf(h->name, sizeof(h->name), "mm-watch");
		h->ncommits = commits - 400 > 50 ? commits - 400 : 50;
	} else {
		snprintf(h->name, sizeof(h->name), "patches-%c", 'a' + k - 1);
		h->ncommits = sizes[k - 1];
	}
	snprintf(h->prefix, sizeof(h->prefix), "%08x", 0xb7a0c400u + (unsigned)k);
	rng = 88172645463325252ULL ^ ((unsigned long long)seed << 20) ^ (unsigned long long)k;
	for (int c = 1; c < h->ncommits && h->nsteps < HIST_STEPS_MAX; c++) {
		double size;
		if (rng % 100 != 0) {
			noise();
			continue;
		}
		noise();
		size = 0.02 + 0.08 * (double)(rng % 1000) / 1000.0;
		h->step_at[h->nsteps] = c;
		h->step_metric[h->nsteps] = (int)(rng % HIST_METRICS);
		h->step_factor[h->nsteps++] = rng % 2 ? 1 + size : 1 / (1 + size);
		noise();
	}
}

static char *hist_doc(struct hist_series *h, int c, int boot)
{
	struct doc_spec s = { .series = h->name, .sha_prefix = h->prefix, .accel = "icount", .commit = c,
			      .boot = boot, .nres = HIST_METRICS, .nsamp = HIST_ROUNDS, .counters = 2,
			      .level = hist_level, .spread = hist_spread, .ctx = h,
			      .watched = !strcmp(h->name, "mm-watch") };

	return make_doc_spec(&s);
}

/* fwload history DB COMMITS [SEED]: ingested in-process, then ANALYZE as import does. */
static int cmd_history(int argc, char **argv)
{
	struct strbuf err = STRBUF_INIT;
	struct hist_series *h = xmalloc(sizeof(*h));
	int commits = argc > 3 ? atoi(argv[3]) : 1000, docs = 0, steps = 0, ret = 1;
	unsigned seed = argc > 4 ? (unsigned)atoi(argv[4]) : 1;
	/* as import stores them (FWLOAD_BATCH=1: a transaction a document, as a POST) */
	int batch = getenv("FWLOAD_BATCH") ? atoi(getenv("FWLOAD_BATCH")) : FW_INGEST_BATCH;
	sqlite3 *db = fw_db_open(argv[2], &err);
	double t0 = fw_monotonic();

	if (!db)
		goto cleanup;
	for (int k = 0; k < 5; k++) {
		hist_series_init(h, k, commits, seed);
		steps += h->nsteps;
		for (int c = 0; c < h->ncommits; c++)
			for (int b = 0; b < HIST_BOOTS; b++) {
				struct fw_ingest_info info;
				char *doc = hist_doc(h, c, b);

				memset(&info, 0, sizeof(info));
				if (batch > 1 && !(docs % batch) && fw_db_begin(db, &err))
					goto cleanup;
				fw_ingest(db, doc, strlen(doc), &info);
				free(doc);
				if (batch > 1 && (docs + 1) % batch == 0 && fw_db_end(db, 1, &err))
					goto cleanup;
				if (info.status != FW_INGEST_STORED) {
					strbuf_addf(&err, "ingest %s/%d/%d: %s %s", h->name, c, b,
						    info.err.field, info.err.detail);
					goto cleanup;
				}
				docs++;
			}
	}
	if (fw_db_in_transaction(db) && fw_db_end(db, 1, &err))
		goto cleanup;
	if (fw_db_analyze_if_grown(db, &err) < 0)
		goto cleanup;
	printf("history %d %.3f %.1f (%d steps)\n", docs, fw_monotonic() - t0, docs / (fw_monotonic() - t0), steps);
	ret = 0;
cleanup:
	if (err.len)
		fprintf(stderr, "fwload: %s\n", err.buf);
	fw_db_close(db);
	strbuf_release(&err);
	free(h);
	return ret;
}

/* fwload history-tip COMMITS [SEED] [BOOT]: a boot of the branch's next commit, to stdout. */
static int cmd_history_tip(int argc, char **argv)
{
	struct hist_series h;
	char *doc;

	hist_series_init(&h, 0, atoi(argv[2]), argc > 3 ? (unsigned)atoi(argv[3]) : 1);
	doc = hist_doc(&h, h.ncommits, argc > 4 ? atoi(argv[4]) : 0);
	puts(doc);
	free(doc);
	return 0;
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
	if (argc > 2 && !strcmp(argv[1], "history"))
		return cmd_history(argc, argv);
	if (argc > 2 && !strcmp(argv[1], "history-tip"))
		return cmd_history_tip(argc, argv);
	fprintf(stderr, "usage: fwload gen|doc|ingest|raw|get|history|history-tip ... (see the comment at the top)\n");
	return 2;
}
