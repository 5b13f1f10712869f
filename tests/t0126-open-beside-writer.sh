#!/bin/bash
# Opening the database to read does not wait for a writer (schema/fw-db.c:
# a database already at the newest schema is not migrated, so no write lock).
# The streamed CSV opens a connection of its own; while the first analysis
# of a 10,000-commit history wrote, it waited out the busy timeout (10 s) and
# answered 503 "database is locked". Here another process holds the write
# lock (BEGIN IMMEDIATE) for 20 s while the CSV is read.
. tests/lib/tap.sh
. tests/lib/server.sh
DB=$TMP_T/fw.db
# shellcheck disable=SC2046
import_series "$DB" "$TMP_T/gen" s1 tcg 3 $(step_specs 6 3) || bail import
"$SERVER" report --db "$DB" --series s1 --format json > /dev/null || bail "report"
start_server "$DB" || bail "server"
"$PY" - "$DB" "$TMP_T/locked" <<'PY' &
import sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute("BEGIN IMMEDIATE")
open(sys.argv[2], "w").close()
time.sleep(20)
c.execute("ROLLBACK")
PY
holder=$!
for _ in $(seq 1 100); do [ -e "$TMP_T/locked" ] && break; sleep 0.05; done
ok "$([ -e "$TMP_T/locked" ]; echo $?)" "another process holds the write lock"
t0=$(date +%s.%N)
is "$(curl -s -o "$TMP_T/body" -w '%{http_code}' "$URL/api/v1/series/s1.csv")" 200 "the series CSV answers meanwhile"
like "$(head -1 "$TMP_T/body")" '^series,revision,position' "... with its rows"
t=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
ok "$(awk -v t="$t" 'BEGIN { exit !(t < 8) }'; echo $?)" "... without waiting for the writer: ${t} s (the busy timeout is 10 s)"
kill "$holder" 2>/dev/null
wait "$holder" 2>/dev/null
stop_server
done_testing
