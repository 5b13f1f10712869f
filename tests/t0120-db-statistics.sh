#!/bin/bash
# The planner's statistics follow the data: import runs ANALYZE once the
# results table has 1,000 rows and again each time it has doubled since
# (schema/fw-db.c fw_db_analyze_if_grown). Without sqlite_stat1 the analysis
# read every result of a metric per row: 164 s for a 1,500-commit x 80-metric
# report on this machine, 46 s with the statistics and the linear sort.
. tests/lib/tap.sh
. tests/lib/server.sh
DB=$TMP_T/fw.db
gen() {  # gen DIR SERIES COMMITS: a chain of COMMITS commits after the base, one boot each, sealed
	local specs="base:0:-:1:1" prev=base sha i
	for i in $(seq 1 "$3"); do
		sha=$(printf 'c%07d' "$i")
		specs="$specs $sha:$i:$prev:1:1"
		prev=$sha
	done
	mkdir -p "$1"
	"$PY" tests/lib/gen-series.py "$1" "$2" tcg 1 $specs >/dev/null && "$SERVER" seal --out-dir "$1" "$1"/*.json
}
stat_rows() { sqlite3 "$DB" "SELECT CAST(stat AS INTEGER) FROM sqlite_stat1 WHERE tbl = 'results' LIMIT 1" 2>/dev/null; }
gen "$TMP_T/a" a 100 || bail "gen a"
gen "$TMP_T/b" b 450 || bail "gen b"
gen "$TMP_T/c" c 700 || bail "gen c"
"$SERVER" import -q --db "$DB" "$TMP_T"/a/*.json || bail "import a"
is "$(stat_rows)" "" "$(sqlite3 "$DB" 'SELECT count(*) FROM results') results: no statistics yet"
"$SERVER" import -q --db "$DB" "$TMP_T"/b/*.json || bail "import b"
n=$(sqlite3 "$DB" 'SELECT count(*) FROM results')
is "$(stat_rows)" "$n" "$n results: ANALYZE ran, sqlite_stat1 counts them"
"$SERVER" import -q --db "$DB" "$TMP_T"/a/*.json "$TMP_T"/c/*.json 2>/dev/null
m=$(sqlite3 "$DB" 'SELECT count(*) FROM results')
is "$(stat_rows)" "$m" "$m results (more than twice $n): analysed again"
# a marker ANALYZE would overwrite: an import that does not double the table leaves it
sqlite3 "$DB" "UPDATE sqlite_stat1 SET stat = '$m 7' WHERE idx = 'results_by_metric'"
"$SERVER" import -q --db "$DB" "$TMP_T"/b/*.json 2>/dev/null
is "$(sqlite3 "$DB" "SELECT stat FROM sqlite_stat1 WHERE idx = 'results_by_metric'")" "$m 7" \
	'an import that does not double the table leaves the statistics'
# analysis/analysis-counters.c's query per analysed row: with the statistics
# the planner starts from the commit's runs, without them from every result
# of the metric in the database (0.81 s a row at 10,000 commits).
plan() {
	sqlite3 "$1" "EXPLAIN QUERY PLAN SELECT ct.name, ct.value FROM counters ct JOIN results res ON res.id = ct.result_id
		JOIN runs r ON r.id = res.run_id JOIN environments e ON e.id = r.env_id WHERE r.commit_id = 5
		AND e.fingerprint = 'x' AND r.boot_status = 'ok' AND res.workload = 'split' AND res.variant = 'pmd-to-0'
		AND res.params = '{}' AND res.metric = 'split_ms' ORDER BY ct.name, ct.value"
}
cp "$DB" "$TMP_T/nostat.db" && sqlite3 "$TMP_T/nostat.db" 'DROP TABLE sqlite_stat1'
like "$(plan "$TMP_T/nostat.db")" 'res USING INDEX results_by_metric' 'without statistics the counters query scans a metric'
like "$(plan "$DB")" 'r USING INDEX runs_by_commit' '... with them it starts from the commit'
done_testing
