#!/bin/bash
# SIGTERM during a stream of POSTs: the server stops cleanly and every POST
# that got a 2xx is in the DB (a 2xx is only sent after COMMIT).
. tests/lib/tap.sh
. tests/lib/server.sh

DB=$TMP_T/fw.db
TOK=$("$SERVER" token add ci --db "$DB")
N=60
for i in $(seq 1 $N); do
	sha=$(printf 'cc%038d' "$i")
	make_doc "$TMP_T/d$i.json" "commit.sha=$sha" "commit.key=$sha" "commit.position=$i" \
		"results.0.samples=[$i.5, $i.25]" || bail "make_doc"
done
start_server "$DB" --threads 2 || bail "server did not start"

# Four clients in parallel, each posting its share; record run_id of every 2xx.
for w in 0 1 2 3; do
	(
		for i in $(seq $((w + 1)) 4 $N); do
			c=$(curl -s -o "$TMP_T/w$w.out" -w '%{http_code}' -X POST -H "Authorization: Bearer $TOK" \
				--data-binary "@$TMP_T/d$i.json" "$URL/api/v1/runs" 2>/dev/null)
			case "$c" in 2*) "$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["run_id"])' \
				"$TMP_T/w$w.out" >>"$TMP_T/acked.$w" ;; esac
		done
	) &
done
sleep 0.4
kill -TERM "$SRV_PID"
wait "$SRV_PID"
is $? 0 'server exits 0 after SIGTERM in the middle of POSTs'
SRV_PID=
wait
cat "$TMP_T"/acked.* 2>/dev/null | sort -u >"$TMP_T/acked"
A=$(wc -l <"$TMP_T/acked")
diag "$A of $N POSTs acknowledged before shutdown"
ok $([ "$A" -ge 1 ] && [ "$A" -lt "$N" ] && echo 0 || echo 1) 'shutdown happened during the stream'
missing=0
while read -r rid; do
	[ "$(sqlite3 "$DB" "SELECT count(*) FROM runs WHERE run_id = '$rid'")" = 1 ] || missing=$((missing + 1))
done <"$TMP_T/acked"
is "$missing" 0 'every acknowledged run is stored'
is "$(sqlite3 "$DB" 'PRAGMA integrity_check')" ok 'DB integrity ok'
stored=$(sqlite3 "$DB" 'SELECT count(*) FROM runs')
ok $([ "$stored" -ge "$A" ] && echo 0 || echo 1) "stored ($stored) >= acknowledged ($A)"
# No half-written run: every stored run has all its results.
is "$(sqlite3 "$DB" 'SELECT count(*) FROM runs r WHERE (SELECT count(*) FROM results s WHERE s.run_id = r.id) <> 3')" 0 \
	'no partial runs'
done_testing
