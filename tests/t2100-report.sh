#!/bin/bash
# The series table and the regression gate end to end: generated run documents
# (sealed, imported) with a known 10% change on one commit and none on
# another; verdicts respect each metric's direction; regressions are stored
# once, gate CI with --fail-on new, follow their lifecycle and are marked
# fixed when a later commit returns to the old level. Also icount mode.
. tests/lib/tap.sh
DB="$TMP_T/db.sqlite"
GEN="/usr/bin/python3 tests/lib/gen-series.py"
[ -x /usr/bin/python3 ] || skip_all "no python3 to generate documents"

load() { # load SERIES ACCEL BOOTS SPEC...: generate, seal and import
	local dir="$TMP_T/docs-$1-$RANDOM"
	mkdir -p "$dir"
	$GEN "$dir" "$@" || return 1
	for f in "$dir"/*.json; do
		"$SERVER" seal "$f" > "$f.sealed" || return 1
	done
	"$SERVER" import --db "$DB" -q "$dir"/*.sealed
}
verdict() { # verdict CSV POSITION AGAINST METRIC
	awk -F'","|",|,"' -v pos="$2" -v ag="$3" -v m="$4" '
		NR > 1 { split($0, f, ","); if (f[3] == pos && index($0, "\"" ag "\"") && index($0, "\"" m "\"")) print }' "$1" |
		grep -oE '"(improvement|regression|no change|unsure)"' | tr -d '"'
}

# base, c1 (no change), c2 (+10% time: regression; +10% bandwidth: improvement)
load s1 tcg 5 base:0:-:1:1 c1:1:base:1:1 c2:2:c1:1.1:1.1:2
ok $? "generated, sealed and imported series s1"

"$SERVER" report --db "$DB" --series s1 --verbose > "$TMP_T/report.txt"
ok $? "report (text) runs"
like "$(cat "$TMP_T/report.txt")" "Benjamini-Hochberg" "text report names the FDR control"
like "$(cat "$TMP_T/report.txt")" "^change points: none: a patch series is compared commit by commit; change points are for histories" \
	"text: why a series of 3 commits has no change points"
like "$(awk '/c2c2c2c2c2c2 mm: commit c2/ { on = 1 } on && /^$/ { exit } on' "$TMP_T/report.txt" | grep split_ms)" "split_ms.*regression" "text: slower split is a regression"
like "$(cat "$TMP_T/report.txt")" "thp_split_page 256 -> 512" "text: the counter that moved is shown"

"$SERVER" report --db "$DB" --series s1 --format csv > "$TMP_T/report.csv"
ok $? "report (csv) runs"
is "$(verdict "$TMP_T/report.csv" 1 parent split_ms)" "no change" "csv: unchanged commit, time: no change"
is "$(verdict "$TMP_T/report.csv" 1 parent bw_mib_s)" "no change" "csv: unchanged commit, rate: no change"
is "$(verdict "$TMP_T/report.csv" 2 parent split_ms)" "regression" "csv: +10% time (lower is better) is a regression"
is "$(verdict "$TMP_T/report.csv" 2 parent bw_mib_s)" "improvement" "csv: +10% rate (higher is better) is an improvement"
is "$(verdict "$TMP_T/report.csv" 2 base split_ms)" "regression" "csv: against the base as well"

"$SERVER" report --db "$DB" --series s1 --format json > "$TMP_T/report.json"
ok $? "report (json) runs"
/usr/bin/python3 - "$TMP_T/report.json" <<'PYEOF'
import json, sys
r = json.load(open(sys.argv[1]))
rows = [x for x in r["rows"] if x["position"] == 2 and x["against"] == "parent" and x["metric"] == "split_ms"]
assert len(rows) == 1, rows
x = rows[0]
assert x["unit_of_comparison"] == "boots" and x["a"]["boots"] == 5 and x["b"]["samples"] == 15
assert 9 < x["delta_pct"] < 11 and x["ci_lo_pct"] < x["delta_pct"] < x["ci_hi_pct"], x
assert x["q"] >= x["p"] and x["exact"] is True
PYEOF
ok $? "json: n, delta, interval and q are consistent"

"$SERVER" regressions --db "$DB" --fail-on new > "$TMP_T/regs.txt" 2>/dev/null
is "$?" 1 "regressions --fail-on new exits 1 with a new regression"
is "$(grep -c . "$TMP_T/regs.txt")" 1 "exactly one regression stored"
"$SERVER" report --db "$DB" --series s1 --no-cache > /dev/null
"$SERVER" regressions --db "$DB" > "$TMP_T/regs2.txt"
is "$(grep -c . "$TMP_T/regs2.txt")" 1 "re-analysing does not duplicate it"
id=$(cut -f1 "$TMP_T/regs.txt")

"$SERVER" regressions --db "$DB" --set "$id" --status bogus --by alice 2>/dev/null
is "$?" 2 "an unknown status is refused (usage error)"
"$SERVER" regressions --db "$DB" --set "$id" --status acknowledged --by alice > /dev/null
ok $? "acknowledge the regression"
"$SERVER" regressions --db "$DB" --fail-on new > "$TMP_T/regs3.txt"
is "$?" 0 "no new regressions after acknowledging"
like "$(cat "$TMP_T/regs3.txt")" "acknowledged.*by alice" "who acknowledged it is kept"
"$SERVER" regressions --db "$DB" --set 999 --status invalid --by alice 2>/dev/null
is "$?" 1 "no such regression"

# c3 returns split_ms to the old level: the regression is fixed by the analysis.
load s1 tcg 5 c3:3:c2:1:1.1:1
ok $? "imported a commit that undoes the regression"
"$SERVER" regressions --db "$DB" --series s1 --fail-on new > "$TMP_T/regs4.txt"
is "$?" 0 "gate passes"
like "$(cat "$TMP_T/regs4.txt")" "fixed.*by analysis" "auto-marked fixed by the analysis"

# icount: 3 boots, 1% change; a rank test could not see it, the noise floor can.
load s2 icount 3 base:0:-:1:1 c1:1:base:1.01:1.001
ok $? "imported an icount series"
"$SERVER" report --db "$DB" --series s2 --format csv > "$TMP_T/icount.csv"
is "$(verdict "$TMP_T/icount.csv" 1 parent split_ms)" "regression" "icount: 1% slower on 3 boots is a regression"
is "$(verdict "$TMP_T/icount.csv" 1 parent bw_mib_s)" "no change" "icount: 0.1% is under the 0.5% floor"

# Two boots only: samples are compared, and the report says so.
load s3 tcg 2 base:0:-:1:1 c1:1:base:1:1
"$SERVER" report --db "$DB" --series s3 --verbose > "$TMP_T/s3.txt"
like "$(cat "$TMP_T/s3.txt")" "compare samples" "fewer than 3 boots: the report says samples were compared"

# Sharded over two hosts, 3 boots each: combined per commit with a stratified test.
load s4 tcg@runner-1 3 base:0:-:1:1 c1:1:base:1.1:1 && load s4 tcg@runner-2 3 base:0:-:1:1 c1:1:base:1.1:1
ok $? "imported a series sharded over two hosts"
"$SERVER" report --db "$DB" --series s4 --format json > "$TMP_T/s4.json"
/usr/bin/python3 - "$TMP_T/s4.json" <<'PYEOF'
import json, sys
r = json.load(open(sys.argv[1]))
c = [x for x in r["combined"] if x["metric"] == "split_ms"]
assert len(c) == 1 and c[0]["hosts"] == 2 and c[0]["verdict"] == "regression", c
assert all(x["host"] in ("runner-1", "runner-2") for x in r["rows"])
assert len({x["env_fingerprint"] for x in r["rows"] if x["metric"] == "split_ms"}) == 2
PYEOF
ok $? "combined over hosts: one stratified regression, per-host rows kept apart"
"$SERVER" report --db "$DB" --series s4 --verbose > "$TMP_T/s4.txt"
like "$(cat "$TMP_T/s4.txt")" "combined over hosts" "text shows the combination"
"$SERVER" report --db "$DB" --series s4 > "$TMP_T/s4.txt"
like "$(cat "$TMP_T/s4.txt")" "Combined over hosts.*
  \[1\] c1c1c1c1c1c1 split/pmd-to-0 split_ms on 2 hosts: [+][0-9.]+% worse" "... and so does the cover-letter text"
# 3 boots per host cannot make either host alone significant; the combination
# is the regression the CI gate must see.
"$SERVER" regressions --db "$DB" --series s4 --json >"$TMP_T/s4-reg.json"
is "$(/usr/bin/python3 -c 'import json, sys; print(sorted((r["env_fingerprint"], r["metric"], r["status"]) for r in json.load(open(sys.argv[1]))))' "$TMP_T/s4-reg.json")" \
	"[('combined', 'split_ms', 'new')]" "the combined regression is stored (env 'combined')"
"$SERVER" regressions --db "$DB" --series s4 --fail-on new >/dev/null
is "$?" 1 "... and fails the gate"
# c2 returns split_ms to the old level on both hosts: the combined regression is fixed too.
load s4 tcg@runner-1 3 c2:2:c1:1:1 && load s4 tcg@runner-2 3 c2:2:c1:1:1
ok $? "imported, on both hosts, a commit that undoes it"
"$SERVER" regressions --db "$DB" --series s4 --json >"$TMP_T/s4-reg2.json"
is "$(/usr/bin/python3 -c 'import json, sys; print(sorted((r["env_fingerprint"], r["status"], r["status_by"]) for r in json.load(open(sys.argv[1]))))' "$TMP_T/s4-reg2.json")" \
	"[('combined', 'fixed', 'analysis')]" "... and the combined regression is marked fixed by the analysis"
"$SERVER" export --db "$DB" --out "$TMP_T/site" --series s4 >/dev/null
is "$(cat "$TMP_T"/site/s-s4-*-m-*.html | grep -c 'worse">+[0-9.]*% <span class="muted">all hosts')" 2 \
	"... and shows on the metric page of each host"

"$SERVER" report --db "$DB" --series nope 2>/dev/null
is "$?" 1 "unknown series fails"
"$SERVER" report --db "$DB" 2>/dev/null
is "$?" 2 "usage error without --series"
done_testing
