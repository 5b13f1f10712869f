#!/bin/bash
# 8 CI clients posting 200 run documents each at the same time, each from its
# own loopback address (127.0.0.2-9, curl --interface), one keep-alive
# connection per client: every document is stored exactly once, no 5xx, and
# a second round of the same documents is answered 200 (identical re-send)
# without storing anything twice. The wall time is printed.
. tests/lib/tap.sh
. tests/lib/server.sh
DB="$TMP_T/fw.db"
CLIENTS=8
PER=200
N=$((CLIENTS * PER))

mkdir -p "$TMP_T/raw" "$TMP_T/docs"
for c in $(seq 1 $CLIENTS); do
	# Distinct commits per client and distinct boot indices: 1,600 distinct run ids.
	"$PY" tests/lib/gen-doc.py --series conc --commit-index "$c" --count "$PER" --out-dir "$TMP_T/raw" \
		--results 1 --samples 3 || bail "gen-doc.py"
done
"$SERVER" seal --out-dir "$TMP_T/docs" "$TMP_T"/raw/*.json || bail "seal"
is "$(ls "$TMP_T/docs" | wc -l)" "$N" "$N documents generated and sealed"
TOK=$("$SERVER" token add ci --db "$DB")
curl -s --interface 127.0.0.2 -o /dev/null "http://127.0.0.1:1/" 2>/dev/null
[ $? = 45 ] && skip_all "cannot bind 127.0.0.2 (curl --interface)"
start_server "$DB" --threads 4 --per-ip-limit 4 || bail "server did not start"

# One curl per client: 200 POSTs over one connection, a status line per transfer.
client_cfg() { # client_cfg CLIENT: curl config for its 200 documents
	local f
	for f in "$TMP_T"/docs/doc-"$1"-*.json; do
		printf 'url = "%s/api/v1/runs"\nheader = "Authorization: Bearer %s"\n' "$URL" "$TOK"
		printf 'header = "Content-Type: application/json"\ndata-binary = "@%s"\n' "$f"
		printf 'interface = "127.0.0.%d"\noutput = "/dev/null"\nwrite-out = "%%{http_code}\\n"\nnext\n' $(($1 + 1))
	done
}
for c in $(seq 1 $CLIENTS); do client_cfg "$c" >"$TMP_T/client-$c.cfg"; done
# A CI job's "this run is over" arrives while others still post: a read that
# turns into a write must wait for the writers, never answer 503 "locked".
for i in $(seq 1 400); do
	[ "$i" = 1 ] || echo next
	printf 'url = "%s/api/v1/series/conc/complete"\nheader = "Authorization: Bearer %s"\n' "$URL" "$TOK"
	printf 'request = "POST"\noutput = "/dev/null"\nwrite-out = "%%{http_code}\\n"\n'
done >"$TMP_T/complete.cfg"
round() { # round NAME: all clients at once; status lines in $TMP_T/NAME-*.out
	local c pids=
	curl -s -K "$TMP_T/complete.cfg" >"$TMP_T/$1-complete.txt" 2>&1 &
	pids="$!"
	for c in $(seq 1 $CLIENTS); do
		curl -s -K "$TMP_T/client-$c.cfg" >"$TMP_T/$1-$c.out" 2>"$TMP_T/$1-$c.err" &
		pids="$pids $!"
	done
	for c in $pids; do wait "$c"; done
}
t0=$(date +%s.%N)
round first
t1=$(date +%s.%N)
diag "$(awk -v n="$N" -v c="$CLIENTS" -v a="$t0" -v b="$t1" 'BEGIN { printf "%d POSTs from %d clients in %.2f s (%.0f documents/s)", n, c, b - a, n / (b - a) }')"
is "$(cat "$TMP_T"/first-*.out | wc -l)" "$N" 'a status for every POST'
is "$(cat "$TMP_T"/first-*.out | grep -c '^201$')" "$N" '... every one 201 stored'
is "$(cat "$TMP_T"/first-*.out | grep -c '^5')" 0 '... no 5xx'
cat "$TMP_T"/first-*.out | sort | uniq -c | sed 's/^/# status /'
is "$(grep -c '^200$\|^404$' "$TMP_T/first-complete.txt")" 400 'series complete beside the posts: every one 200 (or 404 before the first run)'
grep -v '^200$\|^404$' "$TMP_T/first-complete.txt" | sort | uniq -c | sed 's/^/# complete: /'
is "$(sqlite3 "$DB" 'SELECT count(*), count(DISTINCT run_id) FROM runs')" "$N|$N" 'every document stored exactly once'
is "$(sqlite3 "$DB" 'SELECT count(*) FROM samples')" $((N * 3)) '... with all its samples'

round second
is "$(cat "$TMP_T"/second-*.out | grep -c '^200$')" "$N" 'the same documents again: every one 200 (identical)'
is "$(sqlite3 "$DB" 'SELECT count(*) FROM runs')" "$N" '... nothing stored twice'
code /metrics >/dev/null
is "$(grep '^foliowatch_http_requests_total{code="5xx"}' "$TMP_T/body")" 'foliowatch_http_requests_total{code="5xx"} 0' '/metrics: no 5xx counted'
n2=$(grep '^foliowatch_http_requests_total{code="2xx"}' "$TMP_T/body" | cut -d' ' -f2)
[ "${n2:-0}" -ge $((2 * N)) ]
ok $? "/metrics: every POST counted as 2xx ($n2, with the health checks)"
stop_server
is $? 0 'server exits 0'
done_testing
