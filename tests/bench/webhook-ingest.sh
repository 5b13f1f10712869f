#!/bin/bash
# Ingest with a dead webhook receiver (issue 16): the same POSTs as ingest.sh
# (fwload ingest, 48-sample documents on one keep-alive connection) to two
# servers started alike on DBs holding the same series with regressions
# (tests/lib/gen-series.py), one with no webhook, one with HOOKS (10)
# webhooks to a loopback port where nothing listens, so each of their
# events fails to deliver and is retried all along (backoff 0.5 s, cap 2 s:
# about HOOKS x events / 2 curl runs a second). Rounds alternate the two;
# the figure is the median ratio of their rates. Target: within noise
# (>= 90%). Both servers run the detection after each POST: it is not what
# this compares.
set -eu
BUILD=${BUILD:-build}
N=${HOOK_DOCS:-600}
ROUNDS=${HOOK_ROUNDS:-3}
T=$(mktemp -d "${TMPDIR:-/tmp}/fwbench.XXXXXX")
PIDS=()
trap 'for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null; rm -rf "$T"' EXIT
port() { /usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
DEAD=$(port)  # nothing listens there
HOOKS=${HOOKS:-10}
/usr/bin/python3 tests/lib/gen-series.py "$T" seeded tcg 5 base:0:-:1:1 c1:1:base:1.1:1 c2:2:c1:1.1:0.9 >/dev/null
for f in "$T"/*.json; do "$BUILD/foliowatch-server" seal "$f" >"$f.sealed"; done
start() { # start NAME: a server on its own DB; sets PORT_<NAME>, TOK_<NAME>
	local p
	p=$(port)
	eval "TOK_$1=\$(\"$BUILD/foliowatch-server\" token add bench --db \"$T/$1.db\" 2>/dev/null)"
	if [ "$1" = dead ]; then
		for _ in $(seq 1 "$HOOKS"); do
			"$BUILD/foliowatch-server" webhook add "http://127.0.0.1:$DEAD/hook" --db "$T/$1.db" >/dev/null 2>&1
		done
	fi
	# the seeded regressions are stored (regressions): the dead webhooks have their events waiting
	"$BUILD/foliowatch-server" import -q --db "$T/$1.db" "$T"/*.sealed
	"$BUILD/foliowatch-server" regressions --db "$T/$1.db" >/dev/null || :
	"$BUILD/foliowatch-server" serve --db "$T/$1.db" --listen "127.0.0.1:$p" --cache-dir "$T/cache-$1" \
		--webhook-backoff 0.5 --webhook-backoff-max 2 >"$T/$1.log" 2>&1 &
	PIDS+=($!)
	for _ in $(seq 1 100); do curl -s -o /dev/null "http://127.0.0.1:$p/healthz" && break; sleep 0.05; done
	eval "PORT_$1=$p"
}
start plain
start dead
: >"$T/ratios"
for r in $(seq 1 "$ROUNDS"); do
	first=$(((r - 1) * N))
	read -r _ _ _ A <<<"$("$BUILD/bench/fwload" ingest "$PORT_plain" "$TOK_plain" "$N" 4 12 "$first")"
	read -r _ _ _ B <<<"$("$BUILD/bench/fwload" ingest "$PORT_dead" "$TOK_dead" "$N" 4 12 "$first")"
	awk -v a="$A" -v b="$B" -v k="$r" 'BEGIN {
		printf "round %d: no webhook %.0f docs/s, dead webhook %.0f docs/s: %.1f%%\n", k, a, b, 100 * b / a }'
	awk -v a="$A" -v b="$B" 'BEGIN { printf "%.2f\n", 100 * b / a }' >>"$T/ratios"
done
sleep 1
F=$(sqlite3 "$T/dead.db" "SELECT count(*) || ' deliveries, ' || coalesce(sum(attempts), 0) || ' failed attempts' FROM webhook_deliveries")
sort -n "$T/ratios" | awk -v n="$N" -v f="$F" '{ a[NR] = $1 } END {
	m = a[int((NR + 1) / 2)]
	printf "ingest of %d documents with a dead webhook (%s), median of %d rounds: %.0f%% of no webhook (target >= 90%%) %s\n",
		n, f, NR, m, (m >= 90) ? "ok" : "MISSED" }'
