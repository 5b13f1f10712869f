#!/bin/bash
# One truth (issue 28): one comparison (commit x metric, against the parent
# and against the base) shows the analysis' number on every surface: series
# answer, trend, compare answer and page, series page, both matrices, metric
# page, report text (what moved, every row, --verbose) / CSV / email, and for stored regressions the list, the
# single answer, the regressions page, the feed and the plot label
# (tests/lib/one-comparison.py reads them all against `report --format
# json`). On a fixed copy of the demo documents (tests/data/demo-series/,
# pinned: mthp cpu_s of the lru patch is -1.08% everywhere) and on a series
# with regressions and a failed build in the middle (the commit after it is
# compared with the previous commit that has samples, as a bisect needs).
. tests/lib/tap.sh
. tests/lib/server.sh

# check_series DB SERIES: one TAP line per surface (checked > 0, no mismatch).
check_series() {
	local db=$1 series=$2 f surface n bad
	for f in json csv email; do
		"$SERVER" report --db "$db" --series "$series" --format $f >"$TMP_T/$series.$f" || bail "report $f"
	done
	"$PY" tests/lib/one-comparison.py "$URL" "$series" "$TMP_T/$series".{json,csv,email} >"$TMP_T/$series.cmp" ||
		bail "one-comparison.py failed"
	while read -r surface n bad; do
		[ "$surface" = "#" ] && continue
		ok "$([ "$n" -gt 0 ] && [ "$bad" -eq 0 ]; echo $?)" "$series: $surface shows the analysis' delta ($n comparisons, $bad differ)"
	done <"$TMP_T/$series.cmp"
	grep '^#' "$TMP_T/$series.cmp"
}

DB=$TMP_T/demo.db
"$SERVER" import -q --db "$DB" tests/data/demo-series/*.json || bail "import demo"
start_server "$DB" || bail "server did not start"
check_series "$DB" demo
is "$(grep -vc '^#' "$TMP_T/demo.cmp")" 14 'demo: 14 surfaces checked (no regressions to list)'
# The pinned number: the issue's example, mthp cpu_s of the lru patch against its parent.
LRU=d04bc60962ccfc184660c530c66e312933199cb8
BASE=e077d311390f74e900e05cb7687d89a7e47cb63e
code /api/v1/series/demo >/dev/null
is "$(jget "$TMP_T/body" '[m["delta_pct"] for c in d["commits"] if c["sha"] == "'$LRU'" for m in c["metrics"] if m["metric"] == "mthp/16k/cpu_s"]')" \
	'[-1.08]' 'mthp/16k/cpu_s of the lru patch: -1.08 in the series answer'
code "/api/v1/compare?series=demo&base=$BASE&head=$LRU" >/dev/null
is "$(jget "$TMP_T/body" '[m["delta_pct"] for m in d["metrics"] if m["metric"] == "mthp/16k/cpu_s"]')" \
	'[-1.08]' '... in the compare answer'
# Matrix headers wrap at '/' and '_' only (issue 29), never inside a word.
code /series/demo >/dev/null
like "$(cat "$TMP_T/body")" 'mthp/<wbr>16k/<wbr>lru_<wbr>lock_<wbr>per_<wbr>fault <span class="muted">1/fault</span></th>' \
	'matrix header: break points after / and _'
like "$(cat static/style.css)" 'table\.matrix tr\.metrics th, table\.matrix tr\.envs th\.envgroup \{ white-space: normal; overflow-wrap: normal; \}' \
	'... and the style breaks nowhere else (no overflow-wrap: anywhere)'
# Colours mean one thing (issue 29): a delta is coloured as its verdict, never by its sign alone.
code /series/demo >/dev/null
is "$("$PY" - "$TMP_T/body" <<'PY'
import re, sys
page = open(sys.argv[1]).read()
cells = re.findall(r'<td class="num (v-\w+|better|worse|)">([^<]*)</td><td class="num">\d+</td><td class="verdict ([\w -]+)">([\w ]+)', page)
bad = [(d, c, v) for c, d, vc, v in cells if d and c != vc]
print("%d rows, %d coloured unlike their verdict %s" % (len(cells), len(bad), bad[:2]))
PY
)" "30 rows, 0 coloured unlike their verdict []" 'series page: every delta coloured as its verdict (no change neutral, unsure yellow)'
# Confidence where the decision is made (issue 29): the compare page's row says how it was decided.
code "/series/demo/compare?base=$BASE&head=$LRU" >/dev/null
like "$(grep -o 'mthp/16k/cpu_s</a>.*' "$TMP_T/body" | head -1)" \
	'<td class="num" data-label="delta">-1\.08%</td><td class="num" data-label="interval">\[-1\.[0-9]{2}%,&nbsp;-1\.[0-9]{2}%\]</td><td class="num" data-label="boots">3/2</td><td data-label="decided by">deterministic, floor 0\.50%</td><td class="v-imp" data-label="verdict">improvement <span class="muted">at 2 boots' \
	'compare page: delta, interval, boots a side, mode and floor, decided at'
code '/series/demo?vs=base' >/dev/null
like "$(cat "$TMP_T/body")" '<p class="note">Each commit against the base \(the matrix' 'the ?vs=base page says "against the base"'
# The commit page (issue 29): one profile's functions listed once; the icount caveat on lock counters.
code "/series/demo/commit/$LRU" >/dev/null
is "$(grep -c 'folio_batch_move_lru  self' "$TMP_T/body") $(grep -c 'the same profile: the functions above' "$TMP_T/body")" '1 2' \
	'commit page: the mthp profile listed once (three rows share it)'
like "$(grep -o '<p class="note" id="icount-locks">[^<]*' "$TMP_T/body")" 'icount cannot show lock contention' \
	'... lock counters measured under icount carry the caveat'
code /series/demo/metric/mthp/16k/cpu_s >/dev/null
like "$(grep -o '[-+][0-9.]*%' "$TMP_T/body" | head -3 | tr '\n' ' ')" '-1\.08%' '... and on its metric page'
stop_server

# A series with regressions (c2, c4) and a failed build (c3): c4 is compared with c2.
mkdir -p "$TMP_T/gen" "$TMP_T/sealed"
"$PY" tests/lib/gen-series.py "$TMP_T/gen" s1 icount 3 base:0:-:1:1 c1:1:base:1:1 c2:2:c1:1.1:1 \
	c3:3:c2:1.1:1 c4:4:c3:1.1:0.9 >/dev/null || bail gen
rm "$TMP_T"/gen/s1-*-c3-[12].json
"$PY" - "$TMP_T"/gen/s1-*-c3-0.json <<'PY' || bail "failed build"
import json, sys
d = json.load(open(sys.argv[1]))
d["build"]["status"], d["boot"]["status"], d["results"] = "failed", "not_run", []
d.pop("profiles", None)
json.dump(d, open(sys.argv[1], "w"))
PY
for f in "$TMP_T"/gen/*.json; do "$SERVER" seal "$f" >"$TMP_T/sealed/${f##*/}" || bail "seal $f"; done
DB=$TMP_T/s1.db
"$SERVER" import -q --db "$DB" "$TMP_T"/sealed/*.json || bail "import s1"
start_server "$DB" || bail "server did not start"
check_series "$DB" s1
code /api/v1/regressions/1 >/dev/null
is "$(jget "$TMP_T/body" '" ".join(str(d.get(k)) for k in ("parent_sha", "unit", "mode", "floor_pct", "decided_at_boots"))')" \
	"c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1 ms deterministic 0.5 3" \
	'GET /api/v1/regressions/{id}: parent, unit, mode, floor and decided-at at the top level'
is "$(jget "$TMP_T/body" 'round(100 * (d["after"] - d["before"]) / d["before"], 3) == d["delta_pct"]')" True \
	'... with Before and After whose change is its delta'
code /regressions >/dev/null
like "$(grep -o '<tr><td class="card-title">1</td>.*' "$TMP_T/body")" \
	'<td class="num v-reg" data-label="delta">\+10\.02%</td><td class="num" data-label="before &rarr; after">62&nbsp;&rarr; 68\.21 ms</td><td data-label="decided by">deterministic, floor 0\.50%</td><td class="num" data-label="decided at">3 boots</td><td class="num" data-label="found">20[0-9]{2}-[0-9]{2}-[0-9]{2}</td><td data-label="status">new</td>' \
	'regressions page: Before -> After with the unit, mode and floor, decided at, the day found'

# c4's declared parent c3 has no samples: the analysis compares c4 with the
# previous commit that has them (c2; issue 30: a sparse watch and a bisect's
# skipped commits need it) and with the base, and the series answer shows
# that comparison's delta (check_series above: the same number everywhere).
is "$(jget "$TMP_T/s1.json" 'sorted({r["against"] + ":" + r["ref_sha"][:2] for r in d["rows"] if r["sha"].startswith("c4")})')" \
	"['base:bb', 'parent:c2']" "s1: the analysis compares c4 (after the failed build c3) with c2 and the base"
want=$(jget "$TMP_T/s1.json" 'sorted(round(r["delta_pct"], 3) for r in d["rows"] if r["sha"].startswith("c4") and r["against"] == "parent")')
code /api/v1/series/s1 >/dev/null
is "$(jget "$TMP_T/body" 'sorted(m["delta_pct"] for c in d["commits"] if c["sha"][:2] in ("c3", "c4") for m in c["metrics"])')" \
	"$want" 's1: the series answer gives c3 no metrics and c4 the analysis delta against c2'
stop_server
is $? 0 'server exits 0'
done_testing
