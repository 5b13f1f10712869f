#!/bin/bash
# The JSON API against a real server: tokens, POST statuses, every GET route,
# the route table's 404/405/413/414, ETag/304 and headers, /metrics.
. tests/lib/tap.sh
. tests/lib/server.sh

DB=$TMP_T/fw.db
TOK=$("$SERVER" token add ci --db "$DB")
like "$TOK" '^fwt_[0-9a-f]{64}$' 'token add prints a token once'
like "$("$SERVER" token list --db "$DB")" '^ci	.*	active	ingest$' 'token list shows it active, scope ingest'
"$SERVER" token add ci --db "$DB" >/dev/null 2>&1
is $? 1 'token add refuses a taken name'
is "$(sqlite3 "$DB" "SELECT count(*) FROM api_tokens WHERE hash = '$(printf %s "$TOK" | sha256sum | cut -c1-64)'")" 1 \
	'only the sha256 of the token is stored'
is "$(sqlite3 "$DB" "SELECT count(*) FROM api_tokens WHERE hash LIKE '%$TOK%'")" 0 'the clear token is not stored'
TOK2=$("$SERVER" token add old --db "$DB")
"$SERVER" token revoke old --db "$DB"
is $? 0 'token revoke'
"$SERVER" token revoke nosuch --db "$DB" 2>/dev/null
is $? 1 'revoking an unknown token fails'

start_server "$DB" || bail "server did not start"

# Documents: two commits of series "example" and one of "other".
make_doc "$TMP_T/c1.json"
make_doc "$TMP_T/c2.json" commit.sha=aaaa000000000000000000000000000000000002 \
	commit.key=aaaa000000000000000000000000000000000002 commit.position=2 \
	commit.parent=3b2f6a1c9d8e7f60514253647586970a1b2c3d4e commit.subject='mm: second' \
	'results.0.samples=[70.1, 70.5]' 'results.1.samples=[0.08, 0.081]'
make_doc "$TMP_T/conflict.json" 'results.0.samples=[1.0, 2.0]'
make_doc "$TMP_T/conflict2.json" boot.seconds=99.5

is "$(post "$TMP_T/c1.json" "$TOK")" 201 'POST new run: 201'
like "$(cat "$TMP_T/post.out")" '"status":"stored"' '... body says stored'
is "$(post "$TMP_T/c1.json" "$TOK")" 200 'POST identical run again: 200'
like "$(cat "$TMP_T/post.out")" '"status":"duplicate"' '... body says duplicate'
is "$(post "$TMP_T/conflict.json" "$TOK")" 409 'same run id, other content: 409'
like "$(cat "$TMP_T/post.out")" '"code":"conflict"' '... error code conflict'
like "$(cat "$TMP_T/post.out")" '"field":"results"' '... its own fields agree: the results differ'
is "$(post "$TMP_T/conflict2.json" "$TOK")" 409 'same run id, another boot time: 409'
like "$(cat "$TMP_T/post.out")" '"field":"boot.seconds".*first field that differs is boot.seconds' '... naming the first field that differs'
is "$(post "$TMP_T/c2.json" "$TOK")" 201 'second commit stored'
is "$(post "$TMP_T/c1.json" "")" 401 'no token: 401'
like "$(cat "$TMP_T/post.out")" '"field":"Authorization"' '... names the Authorization field'
is "$(post "$TMP_T/c1.json" "fwt_0000")" 401 'wrong token: 401'
is "$(post "$TMP_T/c1.json" "$TOK2")" 401 'revoked token: 401'
is "$(curl -s -o /dev/null -w '%{http_code}' -X POST --data-binary @"$TMP_T/c1.json" "$URL/api/v1/runs")" 401 \
	'no Authorization header: 401'

# Malformed documents: 400 with the field path.
make_doc "$TMP_T/bad1.json" results.0.direction=sideways
printf '{"format": "foliowatch-run/1", "origin": ' >"$TMP_T/bad2.json"
make_doc "$TMP_T/bad3.json" 'results.0.samples=["x"]'
make_doc "$TMP_T/bad4.json" commit.DELETE=1
"$PY" - "$TMP_T/c1.json" >"$TMP_T/bad5.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); d["boot"]["status"] = "exploded"; print(json.dumps(d))
PY
printf '\xff\xfe' >"$TMP_T/bad6.json"
is "$(post "$TMP_T/bad1.json" "$TOK")" 400 'bad direction: 400'
like "$(cat "$TMP_T/post.out")" '"field":"results\[0\]\.direction"' '... field results[0].direction'
is "$(post "$TMP_T/bad2.json" "$TOK")" 400 'truncated JSON: 400'
like "$(cat "$TMP_T/post.out")" '"code":"invalid_document"' '... invalid_document'
is "$(post "$TMP_T/bad3.json" "$TOK")" 400 'string sample: 400'
like "$(cat "$TMP_T/post.out")" '"field":"results\[0\]\.samples\[0\]"' '... field results[0].samples[0]'
is "$(post "$TMP_T/bad5.json" "$TOK")" 400 'bad boot status: 400'
like "$(cat "$TMP_T/post.out")" '"field":"boot\.status"' '... field boot.status'
is "$(post "$TMP_T/bad6.json" "$TOK")" 400 'not UTF-8: 400'
like "$(cat "$TMP_T/post.out")" '^\{"error":\{"code":"[a-z_]+","field":("[^"]*"|null),"detail":"' 'error body shape'
# created_at must be ISO 8601 UTC (YYYY-MM-DDTHH:MM:SSZ, optional fraction); a good one is posted at the end.
make_doc "$TMP_T/date1.json" created_at=2026-11-29T23:00:00+01:00
make_doc "$TMP_T/date2.json" 'created_at=29 Nov 2026 22:00 UTC'
make_doc "$TMP_T/date3.json" created_at=DELETE
is "$(post "$TMP_T/date1.json" "$TOK")" 400 'created_at with an offset: 400'
like "$(cat "$TMP_T/post.out")" '"field":"created_at","detail":"\\"2026-11-29T23:00:00\+01:00\\" is not a UTC time YYYY-MM-DDTHH:MM:SSZ' \
	'... field created_at, the expected form'
is "$(post "$TMP_T/date2.json" "$TOK")" 400 'created_at not ISO 8601: 400'
like "$(cat "$TMP_T/post.out")" '"field":"created_at"' '... field created_at'
is "$(post "$TMP_T/date3.json" "$TOK")" 400 'created_at missing: 400'
like "$(cat "$TMP_T/post.out")" '"field":"created_at","detail":"required string is missing"' '... field created_at'

# 413: declared length and chunked body.
head -c $((1024 * 1024 + 10)) /dev/zero | tr '\0' ' ' >"$TMP_T/big.json"
is "$(post "$TMP_T/big.json" "$TOK")" 413 'body over FW_DOC_MAX_BYTES: 413'
like "$(cat "$TMP_T/post.out")" '"code":"too_large"' '... too_large'
is "$(curl -s -o "$TMP_T/post.out" -w '%{http_code}' -X POST -H "Authorization: Bearer $TOK" \
	-H 'Transfer-Encoding: chunked' --data-binary "@$TMP_T/big.json" "$URL/api/v1/runs")" 413 'chunked oversized body: 413'
is "$(sqlite3 "$DB" 'SELECT count(*) FROM runs')" 2 'only the two good runs are stored'

# GET routes.
is "$(code /healthz)" 200 '/healthz'
is "$(code /api/v1/series)" 200 'GET /api/v1/series'
is "$(jget "$TMP_T/body" 'd["series"][0]["name"], d["series"][0]["commits"]')" "('example', 2)" '... example with 2 commits'
is "$(code /api/v1/series/example)" 200 'GET /api/v1/series/example'
is "$(jget "$TMP_T/body" '[c["sha"][:4] for c in d["commits"]]')" "['3b2f', 'aaaa']" '... commits in order'
is "$(jget "$TMP_T/body" '[m["median"] for m in d["commits"][0]["metrics"] if m["metric"]=="split/pmd-to-0/split_ms"][0]')" 61.92 '... median of commit 1'
is "$(jget "$TMP_T/body" '[round(m["delta_pct"],3) for m in d["commits"][1]["metrics"] if m["metric"]=="split/pmd-to-0/split_ms"][0]')" 13.534 '... delta % of commit 2'
is "$(jget "$TMP_T/body" '[m["p_value"] for m in d["commits"][1]["metrics"]][0], d["commits"][0]["build_status"], d["commits"][0]["boot_status"]')" "(None, 'ok', 'ok')" '... p_value null for a metric with only errors, statuses'
is "$(jget "$TMP_T/body" '[(m["verdict"], type(m["p_value"]).__name__, float("%.3g" % m["p_value"]) == m["p_value"]) for m in d["commits"][1]["metrics"] if m["metric"]=="split/pmd-to-0/split_ms"][0]')" \
	"('unsure', 'float', True)" '... verdict and p-value (3 significant digits) of commit 2 from the analysis'
is "$(code /api/v1/series/nosuch)" 404 'unknown series: 404'
like "$(cat "$TMP_T/body")" '"code":"not_found"' '... JSON error'
is "$(code /api/v1/series/example.csv)" 200 'CSV'
like "$(head -1 "$TMP_T/body")" '^series,revision,position,sha,workload' '... header row'
is "$(grep -c split_ms "$TMP_T/body")" 4 '... one row per sample'
like "$(grep -i '^content-type' "$TMP_T/headers")" 'text/csv' '... text/csv'
is "$(code /api/v1/series/example/report.txt)" 200 'report.txt'
like "$(cat "$TMP_T/body")" '^  unsure, needs 4 boots: lazyfree/pmd \(1 metric\), split/pmd-to-0 \(1\)$' \
	'... what moved: no row decided, the unsure ones on a line with what they need'
is "$(code '/api/v1/series/example/report.txt?all=1')" 200 'report.txt?all=1'
like "$(cat "$TMP_T/body")" '  split_ms +ms +61[.]92 +70[.]3 +[+]13[.]53% unsure' '... the cover-letter table: Before, After, delta, verdict'
# an API route refuses a query parameter its OpenAPI operation does not list, naming it (issue 56)
is "$(code '/api/v1/series/example?revison=1')" 400 'a misspelt parameter: 400, not silently ignored'
is "$(jget "$TMP_T/body" '(d["error"]["code"], d["error"]["field"], d["error"]["detail"])')" \
	"('unknown_parameter', 'revison', 'unknown query parameter; this takes revision, metrics, commits, from, to')" \
	'... naming it and what the route takes'
is "$(code '/api/v1/regressions?series=example&status=new&%3Cb%3E=1')" 400 'a hostile parameter name: 400'
is "$(jget "$TMP_T/body" 'd["error"]["field"]')" '<b>' '... named as data (JSON)'
is "$(code '/healthz?probe=1')" 400 '... a route that takes none says so'
like "$(cat "$TMP_T/body")" 'this takes none' '... in its detail'
is "$(code '/series/example?utm_source=x')" 200 'a page takes what browsers add'
like "$(grep -o '<nav class="links".*</nav>' "$TMP_T/body")" 'href="/feed.atom".*href="/api".*href="/api/v1/openapi.json"' \
	'... and links the Atom feed, the API and its OpenAPI document'
is "$(code '/api/v1/series/example/report.txt?verbose=1')" 200 'report.txt?verbose=1'
like "$(cat "$TMP_T/body")" 'Mann-Whitney' '... the long analysis table'
like "$(cat "$TMP_T/body")" 'split_ms .*[+]13[.]5%.*unsure' '... with delta and verdict'
is "$(code '/api/v1/trend?series=example&metric=split/pmd-to-0/split_ms')" 200 'trend'
is "$(jget "$TMP_T/body" '[p["samples"] for p in d["points"]]')" '[[61.96, 61.88], [70.1, 70.5]]' '... samples per point'
is "$(code '/api/v1/trend?series=example&metric=split%2Fpmd-to-0%2Fsplit_ms')" 200 'trend with encoded metric'
is "$(code '/api/v1/trend?series=example')" 400 'trend without metric: 400'
like "$(cat "$TMP_T/body")" '"field":"metric"' '... names metric'
is "$(code '/api/v1/trend?series=example&metric=a/b/c')" 404 'unknown metric: 404'
is "$(code '/api/v1/compare?series=example&base=3b2f6a1c&head=aaaa0000')" 200 'compare'
is "$(jget "$TMP_T/body" '[(m["metric"], m["base_median"], m["head_median"], m["verdict"]) for m in d["metrics"] if m["metric"].startswith("split")]')" \
	"[('split/pmd-to-0/split_ms', 61.92, 70.3, 'unsure')]" '... medians and the analysis verdict'
is "$(code '/api/v1/compare?series=example&base=3b2f6a1c')" 400 'compare without head: 400'
like "$(cat "$TMP_T/body")" '"field":"head"' '... names head'
is "$(code '/api/v1/compare?series=example&base=3b2f6a1c&head=ffff')" 404 'compare with unknown head: 404'
is "$(code '/api/v1/compare?series=nosuch&base=1&head=2')" 404 'compare unknown series: 404'
like "$(cat "$TMP_T/body")" '"field":"series"' '... names series'

# Route table: 404, 405 (with Allow), 414, HEAD.
is "$(code /api/v1/nosuch)" 404 'unknown API path: 404'
like "$(cat "$TMP_T/body")" '^\{"error":\{"code":"not_found"' '... JSON error'
is "$(code /api/v1/runs)" 405 'GET /api/v1/runs: 405'
like "$(grep -i '^allow:' "$TMP_T/headers")" 'POST' '... Allow: POST'
is "$(code /api/v1/series -X DELETE)" 405 'DELETE /api/v1/series: 405'
is "$(code /api/v1/series -X POST -H "Authorization: Bearer $TOK" --data x)" 405 'POST /api/v1/series: 405'
is "$(code "/api/v1/series/$(head -c 3000 /dev/zero | tr '\0' a)")" 414 'long path: 414'
like "$(cat "$TMP_T/body")" '"code":"uri_too_long"' '... JSON error'
is "$(code /api/v1/series/example -I)" 200 'HEAD works'
is "$(code '/api/v1/series/%zz')" 400 'bad percent-encoding: 400'

# Headers, ETag/304 on static files and plots.
code / >/dev/null
for h in 'X-Content-Type-Options: nosniff' "Content-Security-Policy: default-src 'none'" "frame-ancestors 'none'"; do
	like "$(tr -d '\r' <"$TMP_T/headers")" "$h" "page header $h"
done
like "$(tr -d '\r' <"$TMP_T/headers" | grep -i '^content-security-policy')" '^[^;]*;' 'CSP present'
if grep -qi "script-src[^;]*unsafe-inline" "$TMP_T/headers"; then ok 1 'CSP has no inline script'; else ok 0 'CSP has no inline script'; fi
is "$(code /static/style.css)" 200 'static CSS'
ET=$(tr -d '\r' <"$TMP_T/headers" | sed -n 's/^[Ee][Tt][Aa][Gg]: //p')
LM=$(tr -d '\r' <"$TMP_T/headers" | sed -n 's/^[Ll]ast-[Mm]odified: //p')
like "$ET" '^".+"$' '... with an ETag'
is "$(code /static/style.css -H "If-None-Match: $ET")" 304 'static If-None-Match: 304'
is "$(code /static/style.css -H "If-Modified-Since: $LM")" 304 'static If-Modified-Since: 304'
is "$(code /static/style.css -H 'If-None-Match: "other"')" 200 'other ETag: 200'
PLOT=/plot/example/split/pmd-to-0/split_ms/small.svg
is "$(code $PLOT)" 200 'plot'
like "$(grep -i '^content-type' "$TMP_T/headers")" 'image/svg\+xml' '... SVG'
like "$(head -c 400 "$TMP_T/body")" '<svg' '... is SVG'
ET=$(tr -d '\r' <"$TMP_T/headers" | sed -n 's/^[Ee][Tt][Aa][Gg]: //p')
is "$(code $PLOT -H "If-None-Match: $ET")" 304 'plot If-None-Match: 304'
is "$(ls "$TMP_T/cache" | grep -c '\.svg$')" 1 'one cached plot file'
is "$(ls "$TMP_T/cache" | grep -vc '^[0-9a-f]\{64\}\.svg$')" 0 'cache names are hashes only'
code $PLOT >/dev/null
is "$(ls "$TMP_T/cache" | wc -l)" 1 'served again from the cache'
is "$(code /plot/example/split/pmd-to-0/split_ms/huge.svg)" 404 'bad plot size: 404'
is "$(code /plot/example/no/such/metric/big.svg)" 404 'plot of unknown metric: 404'

# Pages.
is "$(code /)" 200 'index page'
like "$(cat "$TMP_T/body")" 'href="/series/example"' '... links the series'
is "$(code /series/example)" 200 'series page'
like "$(cat "$TMP_T/body")" 'class="verdict v-unsure">unsure <span class="muted">p=' '... verdict from the analysis (coloured as unsure)'
like "$(cat "$TMP_T/body")" 'class="num v-unsure">\+13.53%' '... the delta coloured as its verdict (unsure), not by its sign'
like "$(cat "$TMP_T/body")" 'src="/plot/example/split/pmd-to-0/split_ms/small\.svg"' '... small plot per metric'
like "$(cat "$TMP_T/body")" 'fio exited|error' '... failed result visible'
is "$(code /series/example/metric/split/pmd-to-0/split_ms)" 200 'metric page'
like "$(cat "$TMP_T/body")" 'big\.svg' '... big plot'
is "$(code /series/example/commit/3b2f6a1c9d8e7f60514253647586970a1b2c3d4e)" 200 'commit page'
like "$(cat "$TMP_T/body")" 'thp_split_page' '... counters'
like "$(cat "$TMP_T/body")" 'Run /init as init process' '... boot log tail'
like "$(cat "$TMP_T/body")" 'href="/config/32b1e20d' '... links the .config'
is "$(code /config/32b1e20d58ea96611a9de39a373547344052db4368a4c02696edd4b8920a74af)" 200 '.config'
like "$(cat "$TMP_T/body")" 'CONFIG_TRANSPARENT_HUGEPAGE=y' '... full text'
is "$(code /series/example/commit/ffffffff)" 404 'unknown commit page: 404'
like "$(cat "$TMP_T/body")" '<h1>Error 404' '... as HTML'
is "$(code /series/nosuch)" 404 'unknown series page: 404'

# /metrics after all that.
is "$(code /metrics)" 200 '/metrics'
like "$(cat "$TMP_T/body")" 'foliowatch_ingests_total\{result="stored"\} 2' '... ingests counted'
like "$(cat "$TMP_T/body")" 'foliowatch_http_requests_total\{code="4xx"\} [1-9]' '... 4xx counted'
like "$(cat "$TMP_T/body")" 'foliowatch_http_request_duration_seconds_bucket\{le="\+Inf"\} [1-9]' '... latency histogram'

# A fractional-second created_at (JavaScript's toISOString()) is accepted and kept.
make_doc "$TMP_T/date4.json" created_at=2026-11-29T22:00:00.123Z commit.key=created-at-fraction
is "$(post "$TMP_T/date4.json" "$TOK")" 201 'created_at with fractional seconds: 201'
is "$(sqlite3 "$DB" "SELECT r.created_at FROM runs r JOIN commits c ON c.id = r.commit_id WHERE c.commit_key = 'created-at-fraction'")" \
	2026-11-29T22:00:00.123Z '... stored as given'

stop_server
is $? 0 'server exits 0 on SIGTERM'
done_testing
