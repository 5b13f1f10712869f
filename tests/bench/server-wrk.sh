#!/bin/bash
# wrk -t2 -c64 -d10s: hello-world vs /api/v1/series/{name} vs a cached plot, measured in one run.
set -eu
BUILD=${BUILD:-build}
T=$(mktemp -d)
trap 'kill $HP $SP 2>/dev/null || true; rm -rf "$T"' EXIT
cc -O2 -o "$T/hello" tests/bench/hello.c $(pkg-config --cflags --libs libmicrohttpd) -lpthread
"$BUILD/foliowatch-server" import -q --db "$T/fw.db" schema/examples/run-ok.json
"$T/hello" 18181 & HP=$!
"$BUILD/foliowatch-server" serve --db "$T/fw.db" --listen 127.0.0.1:18182 --per-ip-limit 0 \
	--cache-dir "$T/cache" >/dev/null 2>&1 & SP=$!
sleep 1
PLOT=/plot/demo/split/pmd-to-0/split_ms/small.svg
curl -s -o /dev/null "http://127.0.0.1:18182$PLOT"
for u in "http://127.0.0.1:18181/" "http://127.0.0.1:18182/api/v1/series/demo" "http://127.0.0.1:18182$PLOT"; do
	printf '%s\t' "$u"
	wrk -t2 -c64 -d${DURATION:-10}s "$u" | awk '/Requests\/sec/ {print $2 " req/s"}'
done
