/* GET /healthz (the DB answers) and GET /metrics (Prometheus text format 0.0.4). */
#include "routes.h"
#include "inflight.h"
#include "ingest.h"
#include "store.h"
#include "version.h"

enum MHD_Result api_healthz(struct fw_req *r)
{
	long long runs = fw_store_run_count(req_db(r));
	cJSON *root;

	if (runs < 0)
		return reply_error(r, 503, "unhealthy", NULL, "database not readable");
	root = cJSON_CreateObject();
	cJSON_AddStringToObject(root, "status", "ok");
	cJSON_AddNumberToObject(root, "runs", (double)runs);
	cJSON_AddStringToObject(root, "version", fw_version);
	return reply_json(r, 200, root);
}

enum MHD_Result api_metrics(struct fw_req *r)
{
	struct fw_server *srv = r->srv;
	struct strbuf sb = STRBUF_INIT;
	unsigned long cum = 0;
	static const char *const classes[] = { "other", "1xx", "2xx", "3xx", "4xx", "5xx" };
	static const enum fw_ingest_status sts[] = {
		FW_INGEST_STORED, FW_INGEST_DUPLICATE, FW_INGEST_CONFLICT, FW_INGEST_INVALID, FW_INGEST_DB_ERROR,
	};

	strbuf_addstr(&sb, "# HELP foliowatch_http_requests_total HTTP requests answered, by status class.\n"
		      "# TYPE foliowatch_http_requests_total counter\n");
	for (int i = 0; i < 6; i++)
		strbuf_addf(&sb, "foliowatch_http_requests_total{code=\"%s\"} %lu\n", classes[i],
			    atomic_load(&srv->req_by_class[i]));
	strbuf_addf(&sb, "# HELP foliowatch_http_errors_total Responses with status >= 400.\n"
		    "# TYPE foliowatch_http_errors_total counter\nfoliowatch_http_errors_total %lu\n",
		    atomic_load(&srv->errors));
	strbuf_addstr(&sb, "# HELP foliowatch_ingests_total Run documents POSTed, by outcome.\n"
		      "# TYPE foliowatch_ingests_total counter\n");
	for (size_t i = 0; i < sizeof(sts) / sizeof(sts[0]); i++)
		strbuf_addf(&sb, "foliowatch_ingests_total{result=\"%s\"} %lu\n",
			    fw_ingest_status_name(sts[i]), atomic_load(&srv->ingests[sts[i]]));
	strbuf_addf(&sb, "# HELP foliowatch_plots_total Plots served, by source.\n"
		    "# TYPE foliowatch_plots_total counter\n"
		    "foliowatch_plots_total{source=\"rendered\"} %lu\nfoliowatch_plots_total{source=\"cache\"} %lu\n",
		    atomic_load(&srv->plots_rendered), atomic_load(&srv->plots_cached));
	strbuf_addf(&sb, "# HELP foliowatch_response_cache_total Cacheable GETs, by whether the response cache answered.\n"
		    "# TYPE foliowatch_response_cache_total counter\n"
		    "foliowatch_response_cache_total{result=\"hit\"} %lu\nfoliowatch_response_cache_total{result=\"miss\"} %lu\n",
		    atomic_load(&srv->rc_hits), atomic_load(&srv->rc_misses));
	strbuf_addf(&sb, "# HELP foliowatch_analysis_waits_total Analyses a request or the detection thread waited "
		    "for instead of computing them again.\n"
		    "# TYPE foliowatch_analysis_waits_total counter\nfoliowatch_analysis_waits_total %lu\n",
		    fw_inflight_waits());
	strbuf_addf(&sb, "# HELP foliowatch_connections_open Client connections open now.\n"
		    "# TYPE foliowatch_connections_open gauge\nfoliowatch_connections_open %u\n",
		    atomic_load(&srv->conns_open));
	strbuf_addstr(&sb, "# HELP foliowatch_http_request_duration_seconds Time from request to response done.\n"
		      "# TYPE foliowatch_http_request_duration_seconds histogram\n");
	for (int i = 0; i <= FW_LAT_BUCKETS; i++) {
		cum += atomic_load(&srv->lat_bucket[i]);
		if (i < FW_LAT_BUCKETS)
			strbuf_addf(&sb, "foliowatch_http_request_duration_seconds_bucket{le=\"%g\"} %lu\n",
				    fw_lat_bounds[i], cum);
		else
			strbuf_addf(&sb, "foliowatch_http_request_duration_seconds_bucket{le=\"+Inf\"} %lu\n", cum);
	}
	strbuf_addf(&sb, "foliowatch_http_request_duration_seconds_sum %.6f\n"
		    "foliowatch_http_request_duration_seconds_count %lu\n",
		    atomic_load(&srv->lat_sum_us) / 1e6, cum);
	return reply_buf(r, 200, "text/plain; version=0.0.4; charset=utf-8", &sb, NULL);
}
