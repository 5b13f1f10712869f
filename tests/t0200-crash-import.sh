#!/bin/bash
# Crash safety of ingest: kill -9 imports of large documents at random moments;
# the DB stays intact and every run is complete or absent, never partial.
. tests/lib/tap.sh
DB=$TMP_T/fw.db
RESULTS=6 SAMPLES=4000
N=20

for i in $(seq 1 $N); do
	tests/lib/gen-doc.py --series crash --commit-index "$i" --results $RESULTS --samples $SAMPLES \
		--counters > "$TMP_T/raw.json"
	$SERVER seal "$TMP_T/raw.json" > "$TMP_T/doc$i.json" || bail "seal failed"
done
size=$(stat -c %s "$TMP_T/doc1.json")
diag "documents of $size bytes, $RESULTS x $SAMPLES samples with counters"

# One import timed into a scratch DB (about 100 ms here, seconds under ASan on
# a loaded machine): the kills below land at random moments within that time,
# after the schema exists (a kill in the first milliseconds under load once
# left no tables to check).
t0=$(date +%s%N)
$SERVER import -q --db "$TMP_T/scratch.db" "$TMP_T/doc1.json" || bail "timed import failed"
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
diag "one import: $ms ms"
# the DB under test starts as that one (doc1 stored, schema made)
cp "$TMP_T/scratch.db" "$DB" || bail "cannot copy the scratch DB"

killed=0
for i in $(seq 1 $N); do
	$SERVER import -q --db "$DB" "$TMP_T/doc$i.json" &
	pid=$!
	r=$((RANDOM % (ms > 1 ? ms : 1)))
	sleep "$((r / 1000)).$(printf '%03d' $((r % 1000)))"
	if kill -9 $pid 2>/dev/null; then killed=$((killed + 1)); fi
	wait $pid 2>/dev/null
done
diag "$killed of $N imports killed before they finished"
ok $([ "$killed" -ge 5 ] && echo 0 || echo 1) "most imports were killed mid-way"

is "$(sqlite3 "$DB" 'PRAGMA integrity_check')" ok "integrity_check passes"
partial=$(sqlite3 "$DB" "
	SELECT count(*) FROM runs r WHERE
	  (SELECT count(*) FROM results WHERE run_id = r.id) != $RESULTS OR
	  (SELECT count(*) FROM samples s JOIN results x ON x.id = s.result_id WHERE x.run_id = r.id) != $((RESULTS * SAMPLES)) OR
	  (SELECT count(*) FROM counters c JOIN results x ON x.id = c.result_id WHERE x.run_id = r.id) != $((RESULTS * SAMPLES))")
is "$partial" 0 "no partial run"
stored=$(sqlite3 "$DB" 'select count(*) from runs')
diag "$stored runs complete after the kills"

# everything imports after the crashes, and nothing twice
$SERVER import -q --db "$DB" "$TMP_T"/doc*.json; rc=$?
is "$rc" 0 "re-import after crashes succeeds"
is "$(sqlite3 "$DB" 'select count(*) from runs')" "$N" "all runs present once"
is "$(sqlite3 "$DB" 'select count(*) from samples')" $((N * RESULTS * SAMPLES)) "all samples present once"
done_testing
