#!/bin/bash
# A clean bisect on real kernels (issue 30): a branch of the default tree with
# 8 commits after its base (documentation-only ones, the slow-split patch of
# kernel/series/slow-split at the 5th), the base and the head measured
# (`run --range --only`, split only, icount, 3 boots a side), then `bisect`
# by hand. It must name exactly the 5th commit in 3 steps (the 4th: no move,
# the 6th: moved, the 5th: moved), every step decided at <= 3 boots a side,
# each step at its share of the floors' alpha (8 commits: 5 planned steps),
# and print what it cost (at most 10 minutes here). t4600 is the case with a
# commit that does not build inside the range. Lane A: it builds kernels in
# the default tree.
. tests/lib/tap.sh
. tests/lib/kernel.sh
find_kernel
command -v jq >/dev/null || skip_all "no jq (run ci/install-deps.sh)"
. tests/lib/branch.sh
branch_setup fw-bisect-clean
DB=$TMP_T/fw.db
SERIES="clean-$$"
for i in 1 2 3 4; do doc_commit $i || bail "commit $i"; done
gitw am -q "$PWD"/kernel/series/slow-split/*.patch || bail "am slow-split"
CULPRIT=$(gitw rev-parse HEAD)
for i in 6 7 8; do doc_commit $i || bail "commit $i"; done
BAD=$(gitw rev-parse HEAD)
is "$(git -C "$TREE" rev-list --first-parent --count "$BASE..$BAD")" 8 "8 commits after the base, the culprit 5th"

OPTS=(--accel icount --boots 3 --rounds 2 --db "$DB")  # bisect runs the metric's workload itself
"$COLLECT" run --tree "$TREE" --series "$SERIES" --range "$BASE..$BAD" --only "$BAD" --workloads split "${OPTS[@]}" \
	--no-report --no-profile > "$TMP_T/run.log" 2>&1
is "$?" 0 "the base and the head measured (run --range --only)" || tail -20 "$TMP_T/run.log" | sed 's/^/# /'

start=$(date +%s)
"$COLLECT" bisect --tree "$TREE" --series "$SERIES" --metric split/pmd-to-0/split_ms --good "$BASE" --bad "$BAD" \
	"${OPTS[@]}" --no-profile > "$TMP_T/bisect.log" 2>&1
rc=$?
took=$(( $(date +%s) - start ))
grep '^bisect:' "$TMP_T/bisect.log" | sed 's/^/# /'
is "$rc" 0 "bisect found it" || tail -30 "$TMP_T/bisect.log" | sed 's/^/# /'
like "$(grep '^bisect: culprit' "$TMP_T/bisect.log")" \
	"culprit: $CULPRIT mm/huge_memory: slow down folio splitting .*\(position 5\)" "... exactly the slow-split commit"
is "$(grep -c '^bisect: culprit' "$TMP_T/bisect.log")" 1 "... and nothing else"
like "$(cat "$TMP_T/bisect.log")" "the floors' alpha 0.001 over 5 planned steps: 0.0002 a step" \
	"... each step at its share of the floors' alpha"
is "$(grep '^bisect: step .*: measuring' "$TMP_T/bisect.log" | grep -o 'position [0-9]*' | paste -sd,)" \
	"position 4,position 6,position 5" "three steps: 4 (the middle), 6, 5"
is "$(grep -o '^bisect: step [0-9]*: [0-9a-f]* .*: \(moved\|no move\|undecided\) ' "$TMP_T/bisect.log" |
	sed 's/.*: \(moved\|no move\|undecided\) $/\1/' | paste -sd,)" "no move,moved,moved" "... their verdicts: no move, moved, moved"
boots=$(sqlite3 "$DB" "select max(n) from (select count(*) n from runs r join commits c on c.id = r.commit_id
	where r.boot_status = 'ok' and r.id in (select run_id from results) group by c.id)")
ok "$([ "${boots:-99}" -le 3 ]; echo $?)" "every commit decided at <= 3 boots ($boots at most)"
ok "$([ "$took" -le 600 ]; echo $?)" \
	"the bisect took $took s (<= 600): $(grep -o '[0-9]* step(s), [0-9]* boot(s), [0-9]* s' "$TMP_T/bisect.log")"
"$BUILD/foliowatch-server" report --db "$DB" --series "$SERIES" --format json > "$TMP_T/r.json"
verdict() { jq -r --arg s "$1" '[.rows[] | select(.sha == $s and .against == "parent" and .metric == "split_ms")
	| .verdict] | join(",")' "$TMP_T/r.json"; }
is "$(verdict "$CULPRIT")" regression "the pages say the culprit regressed split_ms against its parent"
is "$(verdict "$BAD")" "no change" "... and the head no change against the commit before it"
said_builds
done_testing
