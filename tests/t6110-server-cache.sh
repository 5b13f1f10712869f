#!/bin/bash
# The response cache (server/respcache.c) never serves data older than the DB:
# answers change after a POST through the server and after an import by another
# process; the counters in /metrics and conditional requests are not cached;
# concurrent misses are built once.
. tests/lib/tap.sh
. tests/lib/server.sh

DB=$TMP_T/fw.db
TOK=$("$SERVER" token add ci --db "$DB")
"$SERVER" import -q --db "$DB" schema/examples/run-ok.json || bail "import"
sha1=$(printf 'ab%038d' 1); sha2=$(printf 'ab%038d' 2)
make_doc "$TMP_T/d1.json" "commit.sha=$sha1" "commit.key=$sha1" "commit.position=5" || bail "doc"
make_doc "$TMP_T/d2.json" "commit.sha=$sha2" "commit.key=$sha2" "commit.position=6" || bail "doc"
start_server "$DB" || bail "server did not start"

ncommits() { code /api/v1/series/example >/dev/null; jget "$TMP_T/body" 'len(d["commits"])'; }
rc_count() { curl -s "$URL/metrics" | awk -v k="result=\"$1\"" 'index($0, "foliowatch_response_cache_total{" k "}") == 1 {print $2}'; }
# Detection commits after start (a sweep: the imports left held runs) and
# after a POST: rightly, that invalidates the cache. Each check of hits and
# misses below waits until detection has seen every stored run first.
settled() {
	local i
	for i in $(seq 100); do
		[ "$(sqlite3 "$DB" 'select count(*) from series_holds where detected_seq < seq')" = 0 ] && return 0
		sleep 0.1
	done
	diag "detection still busy after 10 s"
}
settled
n0=$(ncommits)
h0=$(rc_count hit)
is "$(ncommits)" "$n0" 'same answer twice'
is "$(rc_count hit)" $((h0 + 1)) '... the second from the cache (one more hit in /metrics)'
code /series/example >/dev/null; cp "$TMP_T/body" "$TMP_T/page0"
is "$(post "$TMP_T/d1.json" "$TOK")" 201 'POST a new commit'
is "$(ncommits)" $((n0 + 1)) 'the series answer shows it at once'
code /series/example >/dev/null
ok $(grep -q "$sha1" "$TMP_T/body" && echo 0 || echo 1) 'the series page shows it at once'
"$SERVER" import -q --db "$DB" "$TMP_T/d2.json" || bail "import d2"
is "$(ncommits)" $((n0 + 2)) 'an import by another process is seen on the next request'
m1=$(curl -s "$URL/metrics" | grep -c .)
code /healthz >/dev/null
is "$(code /static/style.css)" 200 'static file'
etag=$(grep -i '^etag:' "$TMP_T/headers" | cut -d' ' -f2 | tr -d '\r')
is "$(code /static/style.css -H "If-None-Match: $etag")" 304 'conditional request still 304'
ok $([ "$m1" -gt 0 ] && echo 0 || echo 1) '/metrics answers'
a=$(curl -s "$URL/metrics" | grep -E '^foliowatch_http_requests_total' | md5sum)
b=$(curl -s "$URL/metrics" | grep -E '^foliowatch_http_requests_total' | md5sum)
ok $([ "$a" != "$b" ] && echo 0 || echo 1) '/metrics is live, not cached'
is "$(code /api/v1/series/example -I)" 200 'HEAD of a cached answer'
# gzip copies of cached answers for clients that ask for them, same content.
# (after detection has seen the import: its commit empties the cache, and a
# miss is answered plain; on a quick machine it landed between the two curls)
settled
for u in /api/v1/series/example /series/example /plot/example/split/pmd-to-0/split_ms/small.svg; do
	curl -s -o "$TMP_T/plain" "$URL$u"
	curl -s --compressed -D "$TMP_T/gzh" -o "$TMP_T/gz" "$URL$u"
	ok $(grep -qi '^content-encoding: gzip' "$TMP_T/gzh" && cmp -s "$TMP_T/plain" "$TMP_T/gz" && echo 0 || echo 1) \
		"$u: gzip copy for Accept-Encoding: gzip, same content"
done
curl -s -H 'Accept-Encoding: gzip;q=0' -D "$TMP_T/h0" -o /dev/null "$URL/series/example"
is "$(grep -ci '^content-encoding' "$TMP_T/h0")" 0 'gzip;q=0 gets the plain answer'
curl -s -D "$TMP_T/h1" -o /dev/null "$URL/series/example"
ok $(grep -qi '^vary: accept-encoding' "$TMP_T/h1" && echo 0 || echo 1) 'Vary: Accept-Encoding on cacheable answers'
# Misses are built one at a time: a burst of 32 clients asking for a page that
# new data just invalidated gets one build, the others wait and are answered
# from the cache (without the bound every worker built it, ~15 MB each on the
# benchmark's series).
make_doc "$TMP_T/d3.json" "commit.sha=$(printf 'ab%038d' 3)" "commit.key=$(printf 'ab%038d' 3)" commit.position=7 || bail "doc"
"$SERVER" import -q --db "$DB" "$TMP_T/d3.json" || bail "import d3"
settled
m0=$(rc_count miss) h0=$(rc_count hit)
curl -s --no-progress-meter --parallel --parallel-immediate --parallel-max 32 $(for i in $(seq 32); do echo "-o /dev/null $URL/series/example"; done)
is "$(( $(rc_count miss) - m0 )) $(( $(rc_count hit) - h0 ))" "1 31" 'a burst of 32 GETs of an invalidated page: 1 build, 31 answers from the cache'
# Two pages whose keys share a slot both stay: direct-mapped, they evicted
# each other on every crawl (a 10,000-commit history's series feed and
# metric page were rebuilt each time, 3.3 s and 1.2 s).
read -r qa qb <<<"$("$PY" -c '
def fnv(s):
    h = 14695981039346656037
    for b in s.encode():
        h = ((h ^ b) * 1099511628211) % 2**64
    return h
seen = {}
for n in range(100000):
    slot = fnv("/series/example?&x=%d" % n) % 256
    if slot in seen:
        print(seen[slot], n)
        break
    seen[slot] = n')"
m0=$(rc_count miss) h0=$(rc_count hit)
for q in "$qa" "$qb" "$qa" "$qb"; do curl -s -o /dev/null "$URL/series/example?x=$q"; done
is "$(( $(rc_count miss) - m0 )) $(( $(rc_count hit) - h0 ))" "2 2" \
	"two pages of one slot (x=$qa, x=$qb), asked twice each: built once each, then both from the cache"
stop_server
is $? 0 'server stops cleanly'
done_testing
