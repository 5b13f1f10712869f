#!/bin/bash
# A verdict on a history is made once (issue 31): on a watched series
# (series.watched, as `watch` writes it) a commit's rows depend only on the
# commits up to it. Ingested in a random order, a chunk at a time with an
# analysis after each, the rows of the first 40 commits are byte for byte
# what they were when only those commits were there, and the whole history's
# rows are what a fresh analysis of another random order gives (stored =
# recomputed). The same data as a patch series moves every old row's q and
# floors (the check can fail). The flag is sticky and validated, and the
# report, the series answer and page say how the history is decided.
. tests/lib/tap.sh
. tests/lib/server.sh

specs=$(step_specs 60 30)   # a +10% step at position 30
# shellcheck disable=SC2086
FW_GEN_WATCHED=1 gen_sealed "$TMP_T/gen" hist tcg 4 $specs || bail gen
# shellcheck disable=SC2086
gen_sealed "$TMP_T/plain" hist tcg 4 $specs || bail gen   # the same numbers, without the flag
pos_of() { sed 's/.*hist-runner-1-\(base\|p\([0-9]*\)\)-[0-9]*\.json\.sealed$/\2/; s/^$/0/'; }
# shellcheck disable=SC2012
ls "$TMP_T"/gen/*.sealed | while read -r f; do echo "$(echo "$f" | pos_of) $f"; done > "$TMP_T/all"
shuffled() { shuf --random-source=<(yes "$1") "$2" | cut -d' ' -f2; }
awk '$1 <= 40' "$TMP_T/all" > "$TMP_T/early"
awk '$1 > 40' "$TMP_T/all" > "$TMP_T/late"
rows_upto() { # rows_upto REPORT.json N: the rows of positions <= N, canonical JSON (without the DB's own row ids)
	"$PY" -c 'import json, sys; d = json.load(open(sys.argv[1]))
rows = [r for r in d["rows"] if r["position"] <= int(sys.argv[2])]
for r in rows: r.pop("commit_id"); r.pop("ref_commit_id")
print(json.dumps(rows, sort_keys=True))' "$1" "$2"
}
report_json() { "$SERVER" report --db "$1" --series hist --format json "${@:2}"; }

DB=$TMP_T/a.db
# shellcheck disable=SC2046
"$SERVER" import -q --db "$DB" $(shuffled 1 "$TMP_T/early") || bail "import early"
report_json "$DB" > "$TMP_T/r40.json" || bail report
is "$(jget "$TMP_T/r40.json" 'd.get("watched")')" True 'a series whose documents say series.watched is analysed as a history'
cp "$DB" "$TMP_T/plain.db"
# the rest in a random order, three chunks, an analysis after each (the cached one is what the next compares)
shuffled 2 "$TMP_T/late" > "$TMP_T/late.order"
for part in 1 2 3; do
	# shellcheck disable=SC2046
	"$SERVER" import -q --db "$DB" $(awk -v p=$part 'NR % 3 == p - 1' "$TMP_T/late.order") || bail "import late $part"
	report_json "$DB" > "$TMP_T/r-$part.json" || bail "report $part"
done
is "$(jget "$TMP_T/r-3.json" 'len(d["commits"])')" 61 '... all 61 commits there'
n40=$(jget "$TMP_T/r40.json" 'len([r for r in d["rows"] if r["position"] <= 40])')
ok "$([ "$n40" -ge 80 ]; echo $?)" "... $n40 rows of the first 40 commits"
is "$(rows_upto "$TMP_T/r-3.json" 40 | sha256sum)" "$(rows_upto "$TMP_T/r40.json" 40 | sha256sum)" \
	'the rows of the first 40 commits did not move when 20 more arrived (every field: q, floors, verdicts)'
is "$(rows_upto "$TMP_T/r-1.json" 40 | sha256sum)" "$(rows_upto "$TMP_T/r40.json" 40 | sha256sum)" \
	'... nor after the first chunk of them'

DB2=$TMP_T/b.db
# shellcheck disable=SC2046
"$SERVER" import -q --db "$DB2" $(cut -d' ' -f2 "$TMP_T/all" | shuf --random-source=<(yes 3)) || bail "import all"
report_json "$DB2" --no-cache > "$TMP_T/fresh.json" || bail "report fresh"
is "$(rows_upto "$TMP_T/fresh.json" 99999 | sha256sum)" "$(rows_upto "$TMP_T/r-3.json" 99999 | sha256sum)" \
	'stored = recomputed: another random order, analysed at once, gives the same rows byte for byte'
is "$(jget "$TMP_T/r-3.json" '[r["verdict"] for r in d["rows"] if r["position"] == 30 and r["metric"] == "split_ms" and r["against"] == "parent"]')" \
	"['unsure']" '... the +10% step at 30 under 0.8% TCG noise and 4 boots a side: unsure (rank test, its q from the window)'

# The check can fail: the same numbers as a patch series move every old row (whole-series BH, pooled floors).
sqlite3 "$TMP_T/plain.db" 'UPDATE series SET watched = 0' || bail "unflag"
report_json "$TMP_T/plain.db" > "$TMP_T/p40.json" || bail "report plain"
# shellcheck disable=SC2046
"$SERVER" import -q --db "$TMP_T/plain.db" $(cut -d' ' -f2 "$TMP_T/late" | sed 's,/gen/,/plain/,') || bail "import plain late"
report_json "$TMP_T/plain.db" > "$TMP_T/p60.json" || bail "report plain"
is "$(jget "$TMP_T/p60.json" 'd.get("watched")')" None 'the same history unflagged is a patch series'
moved=$("$PY" -c 'import json, sys
a = [r for r in json.load(open(sys.argv[1]))["rows"] if r["position"] <= 40]
b = [r for r in json.load(open(sys.argv[2]))["rows"] if r["position"] <= 40]
print(sum(1 for x, y in zip(a, b) if x["q"] != y["q"] or x["same_kernel"] != y["same_kernel"]))' "$TMP_T/p40.json" "$TMP_T/p60.json")
ok "$([ "$moved" -ge 40 ]; echo $?)" "... where $moved of the first 40 commits' rows moved when 20 commits arrived"

# Sticky and validated.
is "$(sqlite3 "$DB" 'SELECT watched FROM series WHERE name = "hist"')" 1 'the series row says watched'
# a new boot of p60 (a bisect step's, say) whose document lacks the flag
"$PY" -c 'import json, sys; d = json.load(open(sys.argv[1])); d["boot_index"] = 9; json.dump(d, open(sys.argv[2], "w"))' \
	"$(ls "$TMP_T"/plain/*-p60-0.json)" "$TMP_T/more.json"
"$SERVER" seal "$TMP_T/more.json" > "$TMP_T/more.sealed" && "$SERVER" import -q --db "$DB" "$TMP_T/more.sealed" || bail "more"
is "$(sqlite3 "$DB" 'SELECT count(*) FROM runs')" 245 '... a document without the flag is stored (a new boot)'
is "$(sqlite3 "$DB" 'SELECT watched FROM series WHERE name = "hist"')" 1 '... and does not clear it'
f=$(ls "$TMP_T"/gen/*-p1-0.json)
"$PY" -c 'import json, sys; d = json.load(open(sys.argv[1])); d["series"]["watched"] = "yes"; json.dump(d, open(sys.argv[2], "w"))' \
	"$f" "$TMP_T/bad.json"
"$SERVER" import --db "$DB" "$TMP_T/bad.json" > "$TMP_T/bad.out" 2>&1
like "$(cat "$TMP_T/bad.out")" 'series\.watched.*must be true or false' 'series.watched "yes": refused, naming the field'

# A history longer than a commit's windows (305 positions back): new boots are
# analysed where they decide something and patched into the stored analysis.
mkdir -p "$TMP_T/long" "$TMP_T/long-sealed"
# shellcheck disable=SC2046
FW_GEN_WATCHED=1 "$PY" tests/lib/gen-series.py "$TMP_T/long" long tcg 2 $(step_specs 360 200) >/dev/null || bail "gen long"
"$SERVER" seal --out-dir "$TMP_T/long-sealed" "$TMP_T"/long/*.json || bail "seal long"
# shellcheck disable=SC2012
ls "$TMP_T"/long-sealed/*.json | sed 's/.*-\(base\|p\([0-9]*\)\)-[0-9]*\.json$/\2 &/; s/^ /0 /' > "$TMP_T/long-all"
computed() { "$SERVER" report --db "$1" --series long --format json | "$PY" -c 'import json, sys; print(json.load(sys.stdin)["history"]["computed"])'; }
LDB=$TMP_T/long.db
# shellcheck disable=SC2046
"$SERVER" import -q --db "$LDB" $(awk '$1 <= 330' "$TMP_T/long-all" | shuffled 4 /dev/stdin) || bail "import long"
is "$(computed "$LDB")" '[[0, 127], [128, 255], [256, 330]]' \
	'a history of 331 commits: its first analysis computes every position (128 at a time)'
awk '$1 > 330' "$TMP_T/long-all" | shuffled 5 /dev/stdin > "$TMP_T/long-late"
# shellcheck disable=SC2046
"$SERVER" import -q --db "$LDB" $(sed -n '1,20p' "$TMP_T/long-late") || bail "import long late"
like "$(computed "$LDB")" '^\[\[3[3-5][0-9], 360\]\]$' '... 20 boots of newer commits: only from the oldest of them to the tip'
# shellcheck disable=SC2046
"$SERVER" import -q --db "$LDB" $(sed -n '21,$p' "$TMP_T/long-late") || bail "import long late"
computed "$LDB" >/dev/null
"$PY" -c 'import json, sys; d = json.load(open(sys.argv[1])); d["boot_index"] = 7
d["results"][0]["samples"] = [v * 1.001 for v in d["results"][0]["samples"]]; json.dump(d, open(sys.argv[2], "w"))' \
	"$TMP_T/long/long-runner-1-p20-0.json" "$TMP_T/p20.json"
"$SERVER" seal "$TMP_T/p20.json" > "$TMP_T/p20.sealed" && "$SERVER" import -q --db "$LDB" "$TMP_T/p20.sealed" || bail "p20"
is "$(computed "$LDB")" '[[20, 325], [360, 360]]' \
	'a third boot of commit 20 re-decides 20..325 (the commits whose windows reach it) and the tip only'
"$SERVER" report --db "$LDB" --series long --format json > "$TMP_T/long-stored.json" || bail "report stored"
LDB2=$TMP_T/long2.db
# shellcheck disable=SC2046
"$SERVER" import -q --db "$LDB2" $(cut -d' ' -f2 "$TMP_T/long-all" | shuf --random-source=<(yes 6)) "$TMP_T/p20.sealed" || bail "import long2"
# one part: the whole history at once, what every chunked and patched analysis must equal
FOLIOWATCH_HISTORY_CHUNK=100000 "$SERVER" report --db "$LDB2" --series long --format json --no-cache > "$TMP_T/long-fresh.json" || bail "report fresh"
is "$(rows_upto "$TMP_T/long-fresh.json" 99999 | sha256sum)" "$(rows_upto "$TMP_T/long-stored.json" 99999 | sha256sum)" \
	'stored = recomputed on 361 commits: the patched analysis has the rows of a fresh one, byte for byte'
same_parts() { "$PY" -c 'import json, sys; a, b = (json.load(open(f)) for f in sys.argv[1:3])
print(all(a[k] == b[k] for k in ("change_points", "combined", "determinism", "looks", "look")), len(a["change_points"]))' "$1" "$2"; }
like "$(same_parts "$TMP_T/long-fresh.json" "$TMP_T/long-stored.json")" '^True [1-9]' \
	'... and the same change points (the step at 200 among them), combined rows and evidence'

# A first analysis longer than a chunk is stored a chunk at a time, each
# against the head of the ones before (memory: a chunk's, not the history's).
LDB3=$TMP_T/long3.db
cp "$LDB2" "$LDB3"
sqlite3 "$LDB3" 'DELETE FROM analysis_rows; DELETE FROM analysis_cache' || bail "uncache"
FOLIOWATCH_HISTORY_CHUNK=100 "$SERVER" report --db "$LDB3" --series long --format json > "$TMP_T/long-chunked.json" ||
	bail "report chunked"
is "$(jget "$TMP_T/long-chunked.json" 'd["history"]["computed"]')" '[[0, 99], [100, 199], [200, 299], [300, 360]]' \
	'a first analysis in chunks of 100 positions: four, stored one after another'
is "$(rows_upto "$TMP_T/long-chunked.json" 99999 | sha256sum)" "$(rows_upto "$TMP_T/long-fresh.json" 99999 | sha256sum)" \
	'... the rows of a fresh analysis at once, byte for byte'
like "$(same_parts "$TMP_T/long-fresh.json" "$TMP_T/long-chunked.json")" '^True [1-9]' \
	'... and its change points, combined rows and evidence'
is "$(sqlite3 "$LDB3" 'SELECT count(*) FROM analysis_rows')" "$(jget "$TMP_T/long-fresh.json" 'len(d["rows"])')" \
	'... every row stored once'
FOLIOWATCH_HISTORY_CHUNK=100 "$SERVER" report --db "$LDB3" --series long --format json --no-cache \
	> "$TMP_T/long-parts.json" || bail "report parts"
like "$(same_parts "$TMP_T/long-fresh.json" "$TMP_T/long-parts.json") $(rows_upto "$TMP_T/long-parts.json" 99999 | sha256sum)" \
	"^True [1-9]+ $(rows_upto "$TMP_T/long-fresh.json" 99999 | sha256sum)" \
	'... and so does one computed in parts of 100 in memory (parts sharing a change-point block keep its points once)'

# What the report, the answer and the page say.
like "$("$SERVER" report --db "$DB" --series hist --verbose)" 'A watched history: each commit is decided once' \
	'the long report says how a history is decided'
start_server "$DB" || bail "server did not start"
is "$(code /api/v1/series/hist)" 200 'series answer'
is "$(jget "$TMP_T/body" 'd["series"]["watched"]')" True '... series.watched true'
is "$(code /series/hist)" 200 'series page'
like "$(cat "$TMP_T/body")" '<p class="note" id="watched">A watched history' '... says it is a watched history'
done_testing
