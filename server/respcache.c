/*
 * Response cache for GET pages and API answers (server/http.h, fw_rc_*).
 *
 * Why: a series answer loads ~10,000 samples and the cached analysis and
 * rebuilds JSON/HTML on every request (tens of ms on the benchmark DB), while
 * the data only changes when a run is stored. So a finished 200 response is
 * kept (the MHD_Response itself, which MHD lets us queue again on any
 * connection) under its path and query, tagged with a generation.
 *
 * Validity: the generation moves whenever any connection, in this process or
 * another one (import, the regressions CLI), has committed to the DB since we
 * last looked. `PRAGMA data_version` on one private connection tells exactly
 * that and costs a look at the WAL index in shared memory. The generation is
 * read before the handler runs, so a cached body is never older than its tag.
 *
 * Bounds: RC_SLOTS slots, a key in its own or the one paired with it (two
 * ways: the one used longer ago goes; direct-mapped, two pages of one slot
 * evicted each other on every crawl of a 10,000-commit history, a series
 * feed rebuilt in 3.3 s each time), bodies over RC_MAX_ENTRY are not kept,
 * and no insert takes the total over RC_MAX_BYTES.
 * Misses of one page are answered one at a time: when new data invalidates a
 * page that 64 clients keep asking for, one request builds it instead of every
 * worker at once, each with the series, its analysis and a JSON or HTML tree
 * in memory (~15 MB for the benchmark's series page; four at once took the
 * server from ~60 to ~100 MB). A miss waits only for a build of the same
 * page (same key, not merely the same slot), once and at most RC_WAIT_S: the
 * wait blocks its worker thread and that thread's other connections, for
 * about as long as building the page itself would; an answer that is never
 * stored (an error, too big) is then built by each waiter, not one by one.
 * Conditional requests (If-None-Match, If-Modified-Since) bypass the cache so
 * the handlers' 304 logic stays the only one.
 *
 * Compression: pages, JSON and SVG plots are large and very repetitive (a
 * series page of 250 KB is 10 KB gzipped), and a cached answer is sent many
 * times, so a gzip copy is made once when the entry is stored and sent to
 * clients whose Accept-Encoding allows gzip (browsers, curl --compressed).
 */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>
#include "http.h"
#include "fw-db.h"
#include "xalloc.h"

#define RC_SLOTS      256
#define RC_MAX_ENTRY  (2u << 20)
#define RC_MAX_BYTES  (16u << 20)
#define RC_WAIT_S     10          /* a build slower than this: build it too */
#define RC_TRIM_FREE  (1u << 20)  /* give freed arena memory back above this */

struct rc_entry {
	char *key;
	unsigned long gen;
	struct MHD_Response *resp;
	struct MHD_Response *gz;  /* gzip copy, or NULL */
	size_t size;              /* both bodies */
	unsigned long used;       /* when last stored or served (the older of two goes) */
};

struct fw_respcache {
	pthread_mutex_t lock;
	sqlite3 *watch;
	long long last_dv;
	unsigned long gen, uses;
	size_t bytes;
	char *building[RC_SLOTS]; /* the key a miss of this slot is being answered for */
	unsigned long build_id[RC_SLOTS], builds; /* which build that is; builds started */
	pthread_cond_t built;   /* signalled when one is done (CLOCK_MONOTONIC) */
	struct rc_entry slot[RC_SLOTS];
};

static void drop(struct fw_respcache *c, struct rc_entry *e)
{
	if (e->resp)
		MHD_destroy_response(e->resp);
	if (e->gz)
		MHD_destroy_response(e->gz);
	c->bytes -= e->size;
	free(e->key);
	memset(e, 0, sizeof(*e));
}

int fw_rc_init(struct fw_server *srv, struct strbuf *err)
{
	struct fw_respcache *c = calloc(1, sizeof(*c));
	pthread_condattr_t ca;

	if (!c)
		return -1;
	pthread_mutex_init(&c->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&c->built, &ca);
	pthread_condattr_destroy(&ca);
	c->watch = fw_db_open(srv->dbpath, err);
	if (!c->watch) {
		srv->rcache = c;
		fw_rc_free(srv);
		return -1;
	}
	c->last_dv = -1;
	srv->rcache = c;
	return 0;
}

void fw_rc_free(struct fw_server *srv)
{
	struct fw_respcache *c = srv->rcache;

	if (!c)
		return;
	for (int i = 0; i < RC_SLOTS; i++) {
		drop(c, &c->slot[i]);
		free(c->building[i]);
	}
	fw_db_close(c->watch);
	pthread_mutex_destroy(&c->lock);
	pthread_cond_destroy(&c->built);
	free(c);
	srv->rcache = NULL;
}

static unsigned long hash_key(const char *s)
{
	unsigned long h = 14695981039346656037UL;  /* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211UL;
	return h;
}

/* The entry of key in its slot h or h's pair, or NULL. */
static struct rc_entry *find(struct fw_respcache *c, size_t h, const char *key)
{
	for (size_t w = 0; w < 2; w++) {
		struct rc_entry *e = &c->slot[h ^ w];

		if (e->resp && !strcmp(e->key, key))
			return e;
	}
	return NULL;
}

/* Where key's answer goes: its old entry, an empty one of the two, a stale one, else the one used longer ago. */
static struct rc_entry *place(struct fw_respcache *c, size_t h, const char *key)
{
	struct rc_entry *a = &c->slot[h], *b = &c->slot[h ^ 1], *e = find(c, h, key);

	if (e)
		return e;
	if (!a->resp || !b->resp)
		return !a->resp ? a : b;
	if (a->gen != c->gen || b->gen != c->gen)
		return a->gen != c->gen ? a : b;
	return a->used <= b->used ? a : b;
}

static enum MHD_Result add_arg(void *cls, enum MHD_ValueKind kind, const char *k, const char *v)
{
	struct strbuf *sb = cls;

	(void)kind;
	strbuf_addf(sb, "&%s", k);
	if (v)
		strbuf_addf(sb, "=%s", v);
	return MHD_YES;
}

/* "gzip" listed in Accept-Encoding and not refused with q=0. */
static int accepts_gzip(struct fw_req *r)
{
	const char *ae = req_header(r, "Accept-Encoding");
	const char *g = ae ? strstr(ae, "gzip") : NULL;

	if (!g)
		return 0;
	g += 4;
	while (*g == ' ')
		g++;
	if (strncmp(g, ";q=0", 4))
		return 1;
	g += 4;
	if (*g == '.')
		g += 1 + strspn(g + 1, "0");
	return !(*g == 0 || *g == ',' || *g == ' ');  /* q=0, q=0.0...: refused */
}

static enum MHD_Result copy_header(void *cls, enum MHD_ValueKind kind, const char *k, const char *v)
{
	(void)kind;
	MHD_add_response_header(cls, k, v);
	return MHD_YES;
}

/* A gzip copy of the body with the same headers, when it is worth it; NULL otherwise. */
static struct MHD_Response *gzip_copy(struct fw_req *r, struct MHD_Response *orig, size_t *gzlen)
{
	z_stream z;
	unsigned char *out;
	uLong cap;
	struct MHD_Response *gz;

	if (!r->resp_body || r->resp_len < 1024)
		return NULL;
	memset(&z, 0, sizeof(z));
	if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)  /* 15+16: gzip */
		return NULL;
	cap = deflateBound(&z, (uLong)r->resp_len);
	out = malloc(cap);
	z.next_in = (Bytef *)(uintptr_t)r->resp_body;  /* zlib's API is not const */
	z.avail_in = (uInt)r->resp_len;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	if (!out || deflate(&z, Z_FINISH) != Z_STREAM_END || z.total_out > r->resp_len * 9 / 10) {
		deflateEnd(&z);
		free(out);
		return NULL;
	}
	*gzlen = z.total_out;
	deflateEnd(&z);
	gz = MHD_create_response_from_buffer(*gzlen, out, MHD_RESPMEM_MUST_FREE);
	if (!gz) {
		free(out);
		return NULL;
	}
	MHD_get_response_headers(orig, copy_header, gz);
	MHD_add_response_header(gz, "Content-Encoding", "gzip");
	return gz;
}

/* Paths whose answers change without a DB commit (live counters) or are served from files. */
static int cacheable_path(const char *p)
{
	return strcmp(p, "/metrics") && strcmp(p, "/healthz") && strncmp(p, "/static/", 8);
}

/* Current generation (caller holds the lock); a failed check invalidates everything. */
static unsigned long current_gen(struct fw_respcache *c)
{
	long long v = fw_db_data_version(c->watch);

	if (v != c->last_dv || v < 0) {
		c->last_dv = v;
		c->gen++;
	}
	return c->gen;
}

int fw_rc_lookup(struct fw_req *r, enum MHD_Result *ret)
{
	struct fw_respcache *c = r->srv->rcache;
	struct strbuf key = STRBUF_INIT;
	struct rc_entry *e;
	struct timespec until = { 0, 0 };
	size_t h;
	int hit = 0;

	if (!c || (strcmp(r->method, "GET") && strcmp(r->method, "HEAD")) || !cacheable_path(r->path) ||
	    req_header(r, "If-None-Match") || req_header(r, "If-Modified-Since"))
		return 0;
	strbuf_addstr(&key, r->path);
	strbuf_addch(&key, '?'); /* a decoded path may hold '&' but never '?': path and query stay apart */
	MHD_get_connection_values(r->conn, MHD_GET_ARGUMENT_KIND, add_arg, &key);
	h = hash_key(key.buf) % RC_SLOTS;
	pthread_mutex_lock(&c->lock);
	for (unsigned long waiting = 0;;) {
		const char *b;

		r->cache_gen = current_gen(c);
		e = find(c, h, key.buf);
		if (e && e->gen == r->cache_gen) {
			e->used = ++c->uses;
			/* MHD takes its own reference: the entry may be evicted right after. */
			*ret = MHD_queue_response(r->conn, MHD_HTTP_OK, e->gz && accepts_gzip(r) ? e->gz : e->resp);
			r->status = MHD_HTTP_OK;
			r->responded = 1;
			hit = 1;
			break;
		}
		/*
		 * A build of this very page is running: wait for it to end, then
		 * look again (it was likely our answer). Another page of the slot,
		 * a build that ended without storing (the next one is not waited
		 * for), or one past RC_WAIT_S: build it ourselves.
		 */
		b = c->building[h];
		if (!b || strcmp(b, key.buf) || (waiting && c->build_id[h] != waiting))
			break;
		if (!waiting) {
			waiting = c->build_id[h];
			clock_gettime(CLOCK_MONOTONIC, &until);
			until.tv_sec += RC_WAIT_S;
		}
		if (pthread_cond_timedwait(&c->built, &c->lock, &until))
			break;
	}
	if (!hit && !c->building[h]) {  /* builds are told apart by the key's own slot */
		c->building[h] = xstrdup(key.buf);
		c->build_id[h] = ++c->builds;
		r->built = (int)h + 1;
	}
	pthread_mutex_unlock(&c->lock);
	atomic_fetch_add(hit ? &r->srv->rc_hits : &r->srv->rc_misses, 1);
	if (hit) {
		strbuf_release(&key);
	} else {
		r->cache_key = strbuf_detach(&key, NULL);
		r->dv_before = fw_db_data_version(req_db(r));  /* moves with other connections' commits only */
	}
	return hit;
}

void fw_rc_built(struct fw_req *r)
{
	struct fw_respcache *c = r->srv->rcache;

	if (!c || r->built <= 0)
		return;
	pthread_mutex_lock(&c->lock);
	free(c->building[r->built - 1]);
	c->building[r->built - 1] = NULL;
	r->built = 0;
	pthread_cond_broadcast(&c->built);
	pthread_mutex_unlock(&c->lock);
	/*
	 * After the waiters are let go: the handler's series, analysis and JSON
	 * tree are free now, but glibc keeps freed memory in the arena of the
	 * thread that used it, pinned behind the bodies this cache keeps, and
	 * each worker has its own arena. Giving the free pages back keeps them
	 * from each growing to the biggest answer (a few ms; only when a build
	 * left more than RC_TRIM_FREE free, not after every small page).
	 */
	if (mallinfo2().fordblks > RC_TRIM_FREE)
		malloc_trim(0);
}

int fw_rc_store(struct fw_req *r, struct MHD_Response *resp)
{
	struct fw_respcache *c = r->srv->rcache;
	struct MHD_Response *gz;
	struct rc_entry *e;
	size_t size, gzlen = 0;
	unsigned long gen;
	int kept = 0;

	if (!c || !r->cache_key || !r->resp_body || r->resp_len > RC_MAX_ENTRY)
		return 0;
	/* Compressed outside the lock: other requests keep being served meanwhile. */
	gz = gzip_copy(r, resp, &gzlen);
	size = r->resp_len + gzlen;
	pthread_mutex_lock(&c->lock);
	/*
	 * The generation the answer is valid for: the one seen before the handler,
	 * unless no other connection committed meanwhile (own data_version
	 * unchanged, read after the current generation): then the DB now is what
	 * the handler read plus its own cache writes, and the answer is valid for
	 * the current generation. Without this, the first answer after new data
	 * was always stale on arrival (the analysis caches its result as it answers).
	 */
	gen = current_gen(c);
	if (r->dv_before < 0 || fw_db_data_version(r->db) != r->dv_before)
		gen = r->cache_gen;
	e = place(c, hash_key(r->cache_key) % RC_SLOTS, r->cache_key);
	if (e->resp)
		drop(c, e);
	/* Full: entries of older generations are dead weight, drop them first. */
	for (int i = 0; i < RC_SLOTS && c->bytes + size > RC_MAX_BYTES; i++) {
		struct rc_entry *o = &c->slot[i];

		if (o->resp && o->gen != c->gen)
			drop(c, o);
	}
	if (c->bytes + size <= RC_MAX_BYTES) {
		e->key = r->cache_key;
		r->cache_key = NULL;
		e->gen = gen;
		e->resp = resp;
		e->gz = gz;
		e->size = size;
		e->used = ++c->uses;
		c->bytes += size;
		kept = 1;
	}
	pthread_mutex_unlock(&c->lock);
	if (!kept && gz)
		MHD_destroy_response(gz);
	return kept;
}
