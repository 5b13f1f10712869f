#!/bin/bash
# foliowatch-collect run --post tells the server when the run is complete
# (POST /api/v1/series/{name}/complete), without a kernel: a tree whose
# Makefile refuses every target gives not_run documents, posted to a real
# serve whose settle time (600 s) is far beyond the test, so only the
# collector's call can release the hold its documents opened. And a hold
# opened by another process (import) is detected and released by serve.
. tests/lib/tap.sh
. tests/lib/no-kernel-tree.sh
. tests/lib/server.sh
DB=$TMP_T/fw.db
T=$TMP_T/tree
no_kernel_tree "$T" || bail "the tree"
export FOLIOWATCH_CACHE=$TMP_T/cache
"$SERVER" token add ci --scopes ingest --db "$DB" >"$TMP_T/tok" 2>/dev/null || bail "token"
sql() { sqlite3 "$DB" "$1"; }
holds() { sql "SELECT count(*) FROM series_holds h JOIN series s ON s.id = h.series_id WHERE s.name = '$1'"; }

start_server "$DB" --settle-seconds 600 || bail "server did not start"
out=$("$COLLECT" run --series nok-post --tree "$T" --range HEAD~1..HEAD --post "$URL" --token-file "$TMP_T/tok" \
	--no-report 2>&1); rc=$?
is "$rc" 0 'run --post with failed builds exits 0'
is "$(sql "SELECT count(*) FROM runs r JOIN commits c ON c.id = r.commit_id JOIN series s ON s.id = c.series_id
	WHERE s.name = 'nok-post'")" 2 '... two not_run documents posted'
ok "$(case "$out" in *'marking the run'*) echo 1 ;; *) echo 0 ;; esac)" '... and no complaint about marking it complete'
for _ in $(seq 1 100); do [ "$(holds nok-post)" = 0 ] && break; sleep 0.1; done
is "$(holds nok-post)" 0 '... the hold its documents opened is released (settle time 600 s: by the complete call)'

# The control: a document without the call stays held.
mkdir -p "$TMP_T/docs" && "$PY" tests/lib/gen-series.py "$TMP_T/docs" held tcg 1 base:0:-:1:1 >/dev/null
"$SERVER" seal "$TMP_T"/docs/*.json >"$TMP_T/doc.sealed"
is "$(post "$TMP_T/doc.sealed" "$(cat "$TMP_T/tok")")" 201 'a document POSTed without the call'
sleep 1
is "$(holds held)" 1 '... keeps its hold'


# Runs another process stores (import, run --db) hold too; serve finds them,
# detects, and releases them after the settle time.
stop_server
start_server "$DB" --settle-seconds 1 || bail "server did not restart"
import_series "$DB" "$TMP_T/imp" imp tcg 5 base:0:-:1:1 c1:1:base:1.1:1 >/dev/null 2>&1
ok $? 'series imp imported by the CLI while serve runs (split +10% at c1)'
for _ in $(seq 1 300); do [ "$(holds imp)" = 0 ] && break; sleep 0.1; done
is "$(holds imp)" 0 '... serve detected it and released its hold'
is "$(sql "SELECT group_concat(type || ':' || state) FROM outbox WHERE series = 'imp'")" 'new:released' \
	'... its event released'
stop_server
is $? 0 'server stops cleanly'
done_testing
