#!/bin/bash
# valgrind memcheck over the server for a request mix (every route, its error
# statuses, POSTs of each outcome, a plot render and its cached copy, HEAD,
# 304s), then SIGTERM: no definitely lost blocks and no memory errors.
. tests/lib/tap.sh
. tests/lib/server.sh
case "$BUILD" in */asan) skip_all "valgrind cannot run an ASan binary: runs in the plain pass";; esac
command -v valgrind >/dev/null || skip_all "valgrind not installed (ci/install-deps.sh)"

DB=$TMP_T/fw.db
TOK=$("$SERVER" token add ci --db "$DB")
make_doc "$TMP_T/bad.json" "results.0.samples=[\"x\"]"
make_doc "$TMP_T/other.json" "commit.sha=$(printf 'ee%038d' 1)" "commit.key=$(printf 'ee%038d' 1)"
head -c 20000000 /dev/zero | tr '\0' ' ' >"$TMP_T/huge.json"

# --leak-check=full with definite leaks as errors; "still reachable" (globals of
# libraries) is not a leak. The server runs under valgrind as SRV_PID itself.
PORT=$(free_port)
URL=http://127.0.0.1:$PORT
valgrind -q --leak-check=full --errors-for-leak-kinds=definite --show-leak-kinds=definite \
	--error-exitcode=99 --log-file="$TMP_T/vg.log" \
	"$SERVER" serve --db "$DB" --listen "127.0.0.1:$PORT" --static "$PWD/static" \
	--cache-dir "$TMP_T/cache" --threads 2 >>"$TMP_T/serve.log" 2>&1 &
SRV_PID=$!
for i in $(seq 1 300); do curl -s -o /dev/null "$URL/healthz" && break; sleep 0.1; done
is "$(code /healthz)" 200 'server under valgrind answers'

is "$(post schema/examples/run-ok.json "$TOK")" 201 'POST stored'
is "$(post schema/examples/run-ok.json "$TOK")" 200 'POST duplicate'
is "$(post "$TMP_T/other.json" "$TOK")" 201 'POST another commit'
is "$(post "$TMP_T/bad.json" "$TOK")" 400 'POST invalid'
is "$(post schema/examples/run-ok.json nosuchtoken)" 401 'POST bad token'
is "$(post "$TMP_T/huge.json" "$TOK")" 413 'POST too large'
n=0
for u in / /metrics /api/v1/series /api/v1/series/example /api/v1/series/example.csv \
	/api/v1/series/example/report.txt '/api/v1/trend?series=example&metric=split/pmd-to-0/split_ms' \
	'/api/v1/compare?series=example&base=3b2f6a1c&head=ee000000' /series/example \
	/series/example/metric/split/pmd-to-0/split_ms /series/example/commit/3b2f6a1c9d8e7f60514253647586970a1b2c3d4e \
	/config/32b1e20d58ea96611a9de39a373547344052db4368a4c02696edd4b8920a74af \
	/plot/example/split/pmd-to-0/split_ms/small.svg /plot/example/split/pmd-to-0/split_ms/small.svg \
	/static/style.css; do
	c=$(code "$u")
	[ "$c" = 200 ] || { diag "$u: $c"; n=$((n + 1)); }
done
is "$n" 0 'every GET route answers 200'
for u in /api/v1/nosuch /series/nosuch /api/v1/series/%zz '/api/v1/trend?series=example' \
	'/api/v1/compare?series=example&base=3b2f6a1c&head=ffff' /plot/example/no/such/metric/big.svg /static/../x; do
	c=$(code "$u")
	like "$c" '^4[0-9][0-9]$' "error status for $u ($c)"
done
is "$(code /api/v1/runs)" 405 'GET on a POST route: 405'
is "$(code /series/example -I)" 200 'HEAD'
code /static/style.css >/dev/null
etag=$(grep -i '^etag:' "$TMP_T/headers" | head -1 | cut -d' ' -f2 | tr -d '\r')
is "$(code /static/style.css -H "If-None-Match: $etag")" 304 'static file with its ETag: 304'
perl tests/lib/rawhttp.pl midbody "$PORT" 5 "$TOK" >/dev/null
perl tests/lib/rawhttp.pl send "$PORT" "$(printf 'BREW / HTTP/1.1\r\n\r\n' | od -An -v -tx1 | tr -d ' \n')" >/dev/null

stop_server
rc=$?
is "$rc" 0 "server exits 0 under valgrind (99 = memcheck errors or definite leaks)"
grep -q 'definitely lost' "$TMP_T/vg.log" && sed -n '1,60p' "$TMP_T/vg.log" | sed 's/^/# /'
is "$(grep -c 'definitely lost' "$TMP_T/vg.log")" 0 'no definitely lost blocks'
is "$(grep -cE 'Invalid (read|write)|uninitialised|Mismatched free' "$TMP_T/vg.log")" 0 'no memory errors'
done_testing
