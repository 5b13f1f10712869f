#!/bin/bash
# Ingest benchmark, figures from one run: 2,000 POSTs of 48-sample documents
# (4 results x 12 samples) on one keep-alive connection, each answered after
# its COMMIT, against raw SQLite inserting the same rows (run, results,
# samples) in 2,000 transactions on a DB opened like the server's (WAL,
# synchronous=NORMAL), alternating, INGEST_ROUNDS times. Target: >= 25% of raw. Then the server's peak RSS
# (VmHWM) across the POST of one 10,000-sample document.
set -eu
BUILD=${BUILD:-build}
N=${INGEST_DOCS:-2000}
T=$(mktemp -d /tmp/fwbench.XXXXXX)
SP=
trap '[ -z "$SP" ] || kill $SP; wait 2>/dev/null; rm -rf "$T"' EXIT
PORT=$(/usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
TOK=$("$BUILD/foliowatch-server" token add bench --db "$T/fw.db")
"$BUILD/foliowatch-server" serve --db "$T/fw.db" --listen "127.0.0.1:$PORT" --cache-dir "$T/cache" \
	>"$T/serve.log" 2>&1 & SP=$!
for i in $(seq 1 100); do curl -s -o /dev/null "http://127.0.0.1:$PORT/healthz" && break; sleep 0.05; done
# Rounds alternate server and raw so that the machine's drift hits both; the
# figure is the median of the per-round ratios.
ROUNDS=${INGEST_ROUNDS:-3}
: >"$T/ratios"
for r in $(seq 1 "$ROUNDS"); do
	read -r _ _ _ SRV <<<"$("$BUILD/bench/fwload" ingest "$PORT" "$TOK" "$N" 4 12 $(((r - 1) * N)))"
	read -r _ _ _ RAW <<<"$("$BUILD/bench/fwload" raw "$T/raw.db" "$N" 4 12 $(((r - 1) * N)))"
	awk -v s="$SRV" -v r="$RAW" -v k="$r" 'BEGIN {
		printf "round %d: server %.0f docs/s, raw SQLite %.0f tx/s: %.1f%%\n", k, s, r, 100 * s / r }'
	awk -v s="$SRV" -v r="$RAW" 'BEGIN { printf "%.2f\n", 100 * s / r }' >>"$T/ratios"
done
sort -n "$T/ratios" | awk -v n="$N" '{ a[NR] = $1 } END {
	m = a[int((NR + 1) / 2)]
	printf "ingest of %d documents x 48 samples, median of %d rounds: %.0f%% of raw SQLite (target >= 25%%) %s\n",
		n, NR, m, (m >= 25) ? "ok" : "MISSED" }'

# Peak RSS across one 10,000-sample document (10 results x 1,000 samples).
"$BUILD/bench/fwload" doc 10 1000 >"$T/big.json"
H0=$(awk '/^VmHWM/ {print $2}' "/proc/$SP/status")
st=$(curl -s -o "$T/big.out" -w '%{http_code}' -X POST -H "Authorization: Bearer $TOK" \
	--data-binary "@$T/big.json" "http://127.0.0.1:$PORT/api/v1/runs")
H1=$(awk '/^VmHWM/ {print $2}' "/proc/$SP/status")
echo "10,000-sample document ($(wc -c <"$T/big.json") bytes): HTTP $st; server peak RSS $((H0 / 1024)) MiB before, $((H1 / 1024)) MiB after"
