#!/bin/bash
# A year of history (issue 31): a page reads its part of the analysis and of
# the samples, not all of it. The cached analysis is stored row by row
# (migration 0010, schema/store-analysis-rows.c); a window of the series page
# reads the rows of its positions, a metric page that metric's rows, a commit
# page that commit's, through the indexes (query plans checked). Shown by
# damaging the cached rows a part must not read: the part still answers from
# the cache (no recomputation), the whole answer notices and recomputes. The
# stored regressions are refreshed once per analysis, not on every GET. Parts
# are equal to the same rows of the whole answer.
. tests/lib/tap.sh
. tests/lib/server.sh

specs=$(step_specs 80 70)   # a +10% step at position 70
DB=$TMP_T/fw.db
# shellcheck disable=SC2086
import_series "$DB" "$TMP_T/gen" hist icount 3 $specs || bail import
"$SERVER" report --db "$DB" --series hist --format json >"$TMP_T/full.json" || bail report
n=$(jget "$TMP_T/full.json" 'len(d["rows"])')
is "$(sqlite3 "$DB" 'SELECT count(*) FROM analysis_rows')" "$n" "the cached analysis is stored as its $n rows"
is "$(sqlite3 "$DB" "SELECT json_array_length(body, '\$.rows') FROM analysis_cache")" 0 '... the head keeps an empty rows list'
"$SERVER" report --db "$DB" --series hist --format json >"$TMP_T/again.json"
cmp -s "$TMP_T/full.json" "$TMP_T/again.json"
ok $? 'the result read back from the rows is the computed one, byte for byte'

# The statements of schema/store-analysis-rows.c, as the planner sees them.
q() { sqlite3 "$DB" "EXPLAIN QUERY PLAN $1"; }
like "$(q "SELECT body FROM analysis_rows WHERE key = 'series:1' AND position BETWEEN 10 AND 20 AND (0 = 0 OR decided = 1) ORDER BY position, seq")" \
	'SEARCH analysis_rows USING PRIMARY KEY \(key=\? AND position>\? AND position<\?\)$' \
	'a window reads the rows of its positions (a range of the primary key), no sort'
like "$(q "SELECT body FROM analysis_rows INDEXED BY analysis_rows_by_metric WHERE key = 'series:1' AND metric_key = 'split/pmd-to-0/split_ms' AND position BETWEEN -1 AND 99 AND (0 = 0 OR decided = 1) ORDER BY position, seq")" \
	'SEARCH analysis_rows USING INDEX analysis_rows_by_metric \(key=\? AND metric_key=\? AND position>\? AND position<\?\)$' \
	"a metric's rows through the metric index, no sort"

start_server "$DB" || bail "server did not start"
# The server's detection thread sweeps every series at start (reading the whole
# analysis to store its regressions): damage the rows only after it is done.
for _ in $(seq 1 200); do
	[ "$(sqlite3 -cmd '.timeout 5000' "$DB" 'SELECT regressions_stored FROM analysis_cache')" = 1 ] && break
	sleep 0.1
done
is "$(sqlite3 -cmd '.timeout 5000' "$DB" 'SELECT regressions_stored FROM analysis_cache')" 1 \
	"the server's start-up sweep stored the regressions from the cached analysis"
computed() { sqlite3 "$DB" 'SELECT computed_at || data_hash FROM analysis_cache'; }
before=$(computed)
# Damage every cached row outside positions 60-80 and every row of another metric than split_ms.
sqlite3 -cmd '.timeout 10000' "$DB" "UPDATE analysis_rows SET body = '{\"damaged\":' WHERE position < 60 AND metric_key <> 'split/pmd-to-0/split_ms'"
is "$(code '/series/hist?from=60&to=80')" 200 'the window of positions 60-80'
like "$(cat "$TMP_T/body")" 'v-reg' '... shows the analysis (the +10% step at 70 is a regression)'
is "$(code '/api/v1/series/hist?from=60&to=80')" 200 'the series answer of that window'
is "$(jget "$TMP_T/body" 'sum(1 for c in d["commits"] if c.get("position") == 70)')" 1 '... has position 70'
is "$(code '/series/hist/metric/split/pmd-to-0/split_ms')" 200 "the metric page of split_ms (all its rows are intact)"
sha=$(jget "$TMP_T/full.json" '[c["sha"] for c in d["commits"] if c["position"] == 75][0]')
is "$(code "/series/hist/commit/$sha")" 200 'the commit page of position 75'
is "$(computed)" "$before" '... all answered from the cache: it was not recomputed (the damaged rows were not read)'
is "$(sqlite3 "$DB" "SELECT count(*) FROM analysis_rows WHERE body = '{\"damaged\":'")" \
	"$(sqlite3 "$DB" "SELECT count(*) FROM analysis_rows WHERE position < 60 AND metric_key <> 'split/pmd-to-0/split_ms'")" \
	'... and the damaged rows are still there'
is "$(code '/api/v1/series/hist')" 200 'the whole series answer'
is "$(sqlite3 "$DB" "SELECT count(*) FROM analysis_rows WHERE body = '{\"damaged\":'")" 0 '... read every row, found them damaged and recomputed'

# A part is the same rows as the whole.
code '/api/v1/series/hist' >/dev/null && cp "$TMP_T/body" "$TMP_T/whole.json"
code '/api/v1/series/hist?from=60&to=80' >/dev/null && cp "$TMP_T/body" "$TMP_T/part.json"
"$PY" - "$TMP_T/whole.json" "$TMP_T/part.json" >"$TMP_T/cmp" <<'EOF'
import json, sys
w, p = (json.load(open(f)) for f in sys.argv[1:3])
def cells(d):
    out = {}
    for c in d["commits"]:
        for m in c["metrics"]:
            out[(c["sha"], m["metric"], m["env"])] = m
    return out
cw, cp = cells(w), cells(p)
print(len(cp), sum(1 for k in cp if cw.get(k) != cp[k]))
EOF
read -r ncells ndiff <"$TMP_T/cmp"
[ "${ncells:-0}" -gt 0 ] && [ "$ndiff" = 0 ]
ok $? "the window's $ncells cells equal the whole answer's ($ndiff differ)"

# The CSV is streamed from a cursor of its own: the same bytes as the export's
# (fw_series_csv over a loaded series), for the whole series and a window.
"$SERVER" export --db "$DB" --out "$TMP_T/exp" --series hist >/dev/null 2>&1 || bail export
is "$(code '/api/v1/series/hist.csv')" 200 'the series CSV'
cmp -s "$TMP_T/body" "$TMP_T"/exp/*.csv
ok $? "... streamed, it is the export's CSV byte for byte ($(wc -l <"$TMP_T/body") lines)"
is "$(code '/api/v1/series/hist.csv?from=70&to=71')" 200 'the CSV of a window'
is "$(cut -d, -f3 "$TMP_T/body" | sort -u | tr '\n' ' ')" '70 71 position ' '... holds positions 70 and 71 only'

# The stored regressions are refreshed from an analysis once, not per GET.
code '/regressions' >/dev/null
is "$(sqlite3 "$DB" 'SELECT regressions_stored FROM analysis_cache')" 1 'after the regressions page: stored from this analysis'
sqlite3 -cmd '.timeout 10000' "$DB" "UPDATE regressions SET status = 'invalid', status_by = 'tester'"
code '/api/v1/regressions?series=hist' >/dev/null
is "$(sqlite3 "$DB" "SELECT count(*) FROM regressions WHERE status <> 'invalid'")" 0 \
	'a GET does not redo it (a triage decision stands)'
done_testing
