#!/bin/bash
# Regressions of a history without reading it whole (issue 31): the detection
# streams a series' stored rows one at a time, and after a patched analysis of
# a watched history only the rows from where it was patched, plus the rows of
# the regressions it stored before that are still open (a later commit may
# undo them). A history on two hosts (combined rows too) with a +30% step at
# 20, undone at 50, and another at 70, ingested in three chunks with a refresh
# after each, stores what one refresh of the whole gives: the regressions at
# 20 fixed by the analysis once 50 arrives (a chunk that reads from 46 on),
# the ones at 70 new.
. tests/lib/tap.sh
. tests/lib/server.sh

specs="base:0:-:1:1"
for i in $(seq 1 80); do
	f=1
	{ [ "$i" -ge 20 ] && [ "$i" -lt 50 ]; } || [ "$i" -ge 70 ] && f=1.3
	specs="$specs p$i:$i:p$((i - 1)):$f:1"
done
specs=${specs/:p0:/:base:}
for host in runner-1 runner-2; do
	# shellcheck disable=SC2086
	FW_GEN_WATCHED=1 gen_sealed "$TMP_T/gen-$host" hist "tcg@$host" 5 $specs || bail "gen $host"
done
pos_of() { sed 's/.*hist-runner-[12]-\(base\|p\([0-9]*\)\)-[0-9]*\.json\.sealed$/\2/; s/^$/0/'; }
# shellcheck disable=SC2012
ls "$TMP_T"/gen-*/*.sealed | while read -r f; do echo "$(echo "$f" | pos_of) $f"; done > "$TMP_T/all"
shuffled() { awk "$1" "$TMP_T/all" | shuf --random-source=<(yes "$2") | cut -d' ' -f2; }
# the regressions as a sorted list: commit, environment, metric, status (no ids or times)
regs() {
	"$SERVER" regressions --db "$1" --series hist --json | "$PY" -c 'import json, sys
for r in sorted(json.load(sys.stdin), key=lambda r: (r["sha"], r["env_fingerprint"], r["workload"], r["metric"])):
	print(r["sha"][:3], "combined" if r["env_fingerprint"] == "combined" else "host", r["metric"], r["status"], r["status_by"])'
}
from_of() { "$SERVER" report --db "$1" --series hist --format json | "$PY" -c 'import json, sys
print(json.load(sys.stdin)["history"].get("regressions_from", "all"))'; }

DB=$TMP_T/a.db
# shellcheck disable=SC2046
"$SERVER" import -q --db "$DB" $(shuffled '$1 <= 45' 1) || bail "import 0..45"
regs "$DB" > "$TMP_T/regs-1" || bail regressions
is "$(from_of "$DB")" all 'a first analysis: the refresh reads every row'
like "$(grep -c '^p20 .* split_ms new analysis$' "$TMP_T/regs-1")" '^[23]$' 'the +30% step at 20: a new regression'
# shellcheck disable=SC2046
"$SERVER" import -q --db "$DB" $(shuffled '$1 > 45 && $1 <= 60' 2) || bail "import 46..60"
regs "$DB" > "$TMP_T/regs-2" || bail regressions
# after regs: report stores the regressions of the whole result it holds
is "$(from_of "$DB")" 46 '46..60 arrive: the patched analysis is read from 46 on'
like "$(grep -c '^p20 .* split_ms fixed analysis$' "$TMP_T/regs-2")" '^[23]$' \
	'... and the open regression at 20, below 46, is fixed by the analysis: 50 undid it'
is "$(grep -c ' new ' "$TMP_T/regs-2")" 0 '... none left new'
# shellcheck disable=SC2046
"$SERVER" import -q --db "$DB" $(shuffled '$1 > 60' 3) || bail "import 61..80"
regs "$DB" > "$TMP_T/regs-3" || bail regressions
like "$(grep -c '^p70 .* split_ms new analysis$' "$TMP_T/regs-3")" '^[23]$' 'the step at 70: new'
like "$(grep -c ' combined ' "$TMP_T/regs-3")" '^[1-9]' '... combined regressions (two hosts) among them'
# The rows a feed, the regressions page and a profile read are the decided ones against the
# parent: after a step every row against the base is decided too, and on a long history
# those are most of the rows.
is "$(sqlite3 "$DB" "SELECT sum(body LIKE '%\"against\":\"parent\"%'), sum(body LIKE '%\"against\":\"base\"%') FROM analysis_rows WHERE decided = 1")" \
	"$(sqlite3 "$DB" "SELECT count(*) FROM analysis_rows WHERE body LIKE '%\"against\":\"parent\"%' AND (body LIKE '%\"verdict\":\"regression\"%' OR body LIKE '%\"verdict\":\"improvement\"%')")|0" \
	'rows marked decided: the regressions and improvements against the parent, none against the base'

DB2=$TMP_T/b.db
# shellcheck disable=SC2046
"$SERVER" import -q --db "$DB2" $(shuffled '1' 4) || bail "import all"
regs "$DB2" > "$TMP_T/regs-whole" || bail regressions
is "$(cat "$TMP_T/regs-3")" "$(cat "$TMP_T/regs-whole")" \
	'three refreshes of patched analyses store what one refresh of the whole history does'
diag "$(wc -l < "$TMP_T/regs-whole") regressions: $(tr '\n' ';' < "$TMP_T/regs-whole")"

# The same data as a patch series: every refresh reads the whole.
sqlite3 "$DB2" 'UPDATE series SET watched = 0' || bail "unflag"
is "$(regs "$DB2")" "$(cat "$TMP_T/regs-whole")" 'a patch series of the same data keeps what it stored'
done_testing
