#ifndef FW_HTTP_H
#define FW_HTTP_H
/*
 * The HTTP layer of foliowatch-server: one server object, one request object
 * per request, reply helpers that are the only way a response is made (so
 * that headers, error bodies and metrics are uniform), and the route table
 * (server/routes.c) that does 404/405/413/414 in one place.
 */
#include <microhttpd.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdatomic.h>
#include <cjson/cJSON.h>
#include "strbuf.h"
#include "notify.h"

#define FW_URL_MAX   2048  /* longer paths get 414 from the route table */
#define FW_QUERY_MAX 8192  /* longer query strings get 414 (server/req-limits.c) */
#define FW_QUERY_ARGS_MAX 256 /* more query parameters get 414 (server/req-limits.c) */
#define FW_HEADERS_MAX 32768 /* more header bytes get 431 (server/req-limits.c) */
#define FW_HEADERS_COUNT_MAX 256 /* more header lines get 431 (server/req-limits.c) */
/*
 * libmicrohttpd's per-connection memory: request line, headers and the
 * answer's headers. Anything up to about FW_CONN_POOL - 16 KiB reaches the
 * server (its own 414/431 with the security headers); beyond, libmicrohttpd
 * answers itself without them and closes (README "Running the server").
 * libmicrohttpd clears the whole pool when a keep-alive connection starts
 * its next request, so each open connection holds all of it in RSS: 128 KiB
 * lets 100 KB requests through and keeps 64 connections at 8 MiB (256 KiB
 * took the benchmark's peak RSS over its 64 MiB target).
 */
#define FW_CONN_POOL (128 * 1024)
#define FW_STR_(x) #x
#define FW_STR(x)  FW_STR_(x)
#define FW_MAX_ARGS  6     /* path captures per route */
#define FW_DB_POOL   16
#define FW_LAT_BUCKETS 10

struct fw_server {
	const char *dbpath;
	char *static_dir;       /* realpath()ed, or NULL: no /static/ */
	char *cache_dir;        /* plot cache (created at start) */
	/* SQLite handles: one per concurrent request at most, reused. */
	pthread_mutex_t pool_lock;
	sqlite3 *pool[FW_DB_POOL];
	int pool_n;
	atomic_int inflight;    /* requests between first call and completion */
	atomic_uint conns_open; /* server/conn-gauge.c */
	/* /metrics: plain counters, read without locks (monotonic). */
	atomic_ulong req_by_class[6];            /* index = status / 100 */
	atomic_ulong errors;                     /* status >= 400 */
	atomic_ulong ingests[5];                 /* by enum fw_ingest_status */
	atomic_ulong lat_bucket[FW_LAT_BUCKETS + 1]; /* cumulative in export, +Inf last */
	atomic_ulong lat_sum_us;
	atomic_ulong plots_rendered;
	atomic_ulong plots_cached;
	atomic_ulong rc_hits, rc_misses;  /* response cache lookups (server/respcache.c) */
	/* Plot cache bounds (server/plot-cache.c): pruned at start and every 64 renders. */
	unsigned long long plot_cache_bytes;
	long plot_cache_age;
	atomic_uint renders_since_prune;
	pthread_mutex_t prune_lock;
	struct fw_respcache *rcache;  /* server/respcache.c; NULL: no response cache */
	struct fw_notify notify;      /* detection after ingest, webhooks (server/notify.h) */
};
extern const double fw_lat_bounds[FW_LAT_BUCKETS];

/* server/conn-gauge.c: MHD_OPTION_NOTIFY_CONNECTION callback. */
void fw_conn_notify(void *cls, struct MHD_Connection *conn, void **socket_ctx,
		    enum MHD_ConnectionNotificationCode code);

struct fw_route;

struct fw_req {
	struct fw_server *srv;
	struct MHD_Connection *conn;
	const char *method;
	char *path;                  /* raw (still percent-encoded) path */
	char *args[FW_MAX_ARGS];     /* decoded path captures */
	int nargs;
	struct strbuf body;
	int too_large;
	int responded;
	unsigned status;
	int is_page;                 /* HTML errors instead of JSON */
	const char *allow;           /* Allow header of a 405 */
	char token[128];             /* the token's name on a route with a scope (server/auth.c) */
	double t0;
	sqlite3 *db;
	char *cache_key;             /* set when a 200 of this request may be cached */
	unsigned long cache_gen;     /* DB generation seen before the handler ran */
	long long dv_before;         /* data_version of r->db then: others' commits change it */
	const char *resp_body;       /* body of the response being queued (from memory) */
	size_t resp_len;
	int built;                   /* 1 + the response cache slot it builds (fw_rc_built releases it), or 0 */
};

typedef enum MHD_Result (*fw_handler)(struct fw_req *r);

/* MHD callbacks (server/http.c). */
enum MHD_Result fw_http_access(void *cls, struct MHD_Connection *conn, const char *url,
			       const char *method, const char *version, const char *upload,
			       size_t *upload_size, void **con_cls);
void fw_http_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
		       enum MHD_RequestTerminationCode toe);
size_t fw_http_no_unescape(void *cls, struct MHD_Connection *conn, char *s);
void fw_server_release(struct fw_server *srv);

/* The route table (server/routes.c): matches r->path, fills r->args, calls a handler. */
enum MHD_Result fw_dispatch(struct fw_req *r);

/* SQLite handle for this request (from the pool); NULL on failure. */
sqlite3 *req_db(struct fw_req *r);
/* Decoded query argument into out; 0 when present, -1 when absent, -2 when its %-encoding is bad. */
int req_query(struct fw_req *r, const char *key, struct strbuf *out);
const char *req_header(struct fw_req *r, const char *name);

/* Replies. Each takes ownership of what it is given. */
/*
 * Query and header size limits (server/req-limits.c): 0, or -1 after a
 * 414/431 (*ret). query_verdict is fw_req_query_verdict's.
 */
int fw_req_limits(struct fw_req *r, int query_verdict, enum MHD_Result *ret);
/* MHD_OPTION_URI_LOG_CALLBACK: empties a query over the limits before libmicrohttpd parses it. */
void *fw_req_uri_seen(void *cls, const char *uri, struct MHD_Connection *conn);
/* 0, or what fw_req_uri_seen refused (1 bytes, 2 parameters); clears that mark from *con_cls. */
int fw_req_query_verdict(void **con_cls);
enum MHD_Result reply_error(struct fw_req *r, unsigned status, const char *code,
			    const char *field, const char *detail);
enum MHD_Result reply_json(struct fw_req *r, unsigned status, cJSON *root);
/* A body read by read() as libmicrohttpd sends it (never cached); done(cls) frees it, also on failure. */
enum MHD_Result reply_stream(struct fw_req *r, unsigned status, const char *ctype, MHD_ContentReaderCallback read,
			     void *cls, MHD_ContentReaderFreeCallback done);
/*
 * A stream's read(): up to max bytes of pending from *off into buf (pending
 * emptied once all of it is taken); MHD_CONTENT_READER_END_OF_STREAM when
 * nothing is pending.
 */
ssize_t reply_stream_take(struct strbuf *pending, size_t *off, char *buf, size_t max);
enum MHD_Result reply_buf(struct fw_req *r, unsigned status, const char *ctype,
			  struct strbuf *body, const char *etag);
/* A file with ETag/Last-Modified; answers 304 when the client has it. */
enum MHD_Result reply_file(struct fw_req *r, const char *path, const char *ctype,
			   const char *etag);

/*
 * Response cache (server/respcache.c). fw_rc_lookup: 1 when the request was
 * answered from the cache (*ret set), else 0 and r->cache_key may be set so
 * that queue() offers the 200 (body in r->resp_body/resp_len) to fw_rc_store,
 * which keeps the response (and its reference) when it returns 1, plus a gzip
 * copy for clients that accept it.
 */
int fw_rc_init(struct fw_server *srv, struct strbuf *err);
void fw_rc_free(struct fw_server *srv);
int fw_rc_lookup(struct fw_req *r, enum MHD_Result *ret);
int fw_rc_store(struct fw_req *r, struct MHD_Response *resp);
/* After the handler of a miss: frees the heap it used and lets the next miss build. */
void fw_rc_built(struct fw_req *r);

/* Percent-decoding of one path segment or query value; -1 on bad escapes or NUL. */
int fw_url_decode(const char *in, size_t len, struct strbuf *out);
double fw_monotonic(void);

#endif
