#!/bin/bash
# bisect's steps decided by the analysis of stored documents (issue 30), no
# kernel: a git tree of 8 first-parent commits g1..g8 after g0 (g6 a merge),
# and generated run documents for some of them at their first-parent
# positions. Each case needs no new boot (every step it asks for is measured
# already), so the answer comes from the stored verdicts alone:
# - moved: a regression stored at g8 (only g0 and g8 measured), then g4 and
#   g5 measured: the bisect names g5 in no step and moves the regression to
#   it (same id, status kept, found at g8), and a refresh opens no duplicate;
# - two steps: +5% at g2 and +5% at g5: both named, not forced onto one;
# - merge: the change lands with the merge g6: named with its first-parent range;
# - undecided: TCG rows at 1 boot a side: it gives up and says which step;
# - error spend: its steps decide at floor_alpha / (ceil(log2 range) + 2).
. tests/lib/tap.sh
. tests/lib/server.sh
command -v git >/dev/null || skip_all "no git"
export FOLIOWATCH_CACHE=$TMP_T/cache   # bisect's range locks

REPO=$TMP_T/repo
git init -q "$REPO" && cd "$REPO" || bail "git init"
g() { git -c user.name=t -c user.email=t@x "$@"; }
for i in 0 1 2 3 4 5; do echo "$i" > f && git add f && g commit -q -m "g$i" || bail "commit $i"; done
g checkout -q -b side HEAD~2 && echo s > s && git add s && g commit -q -m side && g checkout -q - || bail "side"
g merge -q --no-ff side -m "g6: merge side" || bail "merge"
for i in 7 8; do echo "$i" > f && g commit -q -am "g$i" || bail "commit $i"; done
cd - >/dev/null || bail "cd"
for i in 0 1 2 3 4 5 6 7 8; do eval "G$i=\$(git -C \"\$REPO\" rev-parse HEAD~$((8 - i)))"; done
# g6 is the merge: HEAD~2 is it (first parents), its second parent is side
is "$(git -C "$REPO" rev-list --parents -n1 "$G6" | wc -w)" 3 "g6 is a merge on the first-parent line"

DB=$TMP_T/fw.db
# gen SERIES ACCEL BOOTS "split factor of g0..g8" [gN...]: documents of those commits (all: every one) at
# their first-parent positions, each with its git parent, sealed into $TMP_T/gen-SERIES (not imported)
gen() {
	local series=$1 accel=$2 boots=$3 f=($4) spec=(base:0:-:1:1) parent=base i sha
	shift 4
	for i in 0 1 2 3 4 5 6 7 8; do
		eval "sha=\$G$i"
		if [ $# -eq 0 ] || [[ " $* " == *" g$i "* ]]; then
			spec+=("$sha:$((i + 1)):$parent:${f[$i]}:1")
		fi
		parent=$sha
	done
	rm -rf "$TMP_T/gen-$series" && gen_sealed "$TMP_T/gen-$series" "$series" "$accel" "$boots" "${spec[@]}"
}
# imp SERIES [gN...]: import its documents (all, or those of the base and these commits)
imp() {
	local series=$1 files=() i sha
	shift
	if [ $# -eq 0 ]; then
		files=("$TMP_T/gen-$series"/*.sealed)
	else
		files=("$TMP_T/gen-$series"/*-base-*.sealed)
		for i in "$@"; do eval "sha=\$G${i#g}"; files+=("$TMP_T/gen-$series"/*-"$sha"-*.sealed); done
	fi
	"$SERVER" import --db "$DB" -q "${files[@]}"
}
bisect() { # bisect SERIES gGOOD gBAD [options]
	local series=$1 good bad
	eval "good=\$G${2#g} bad=\$G${3#g}"
	shift 3
	"$COLLECT" bisect --tree "$REPO" --series "$series" --db "$DB" --metric split/pmd-to-0/split_ms \
		--good "$good" --bad "$bad" --accel icount "$@" 2>&1
}
q() { sqlite3 "$DB" "$1"; }

# moved: found at g8 between two measured heads, then the midpoints arrive
gen moved icount 3 "1 1 1 1 1 1.1 1.1 1.1 1.1" g0 g4 g5 g8 && imp moved g0 g8 || bail "gen moved"
"$SERVER" regressions --db "$DB" --series moved > /dev/null
RID=$(q "select g.id from regressions g join commits c on c.id = g.commit_id where c.sha = '$G8'")
ok "$([ -n "$RID" ]; echo $?)" "moved: a regression stored at g8 (g0 and g8 measured)"
"$SERVER" regressions --db "$DB" --set "$RID" --status acknowledged --by alice > /dev/null || bail "acknowledge"
imp moved g4 g5 || bail "import the midpoints"
out=$(bisect moved g0 g8); rc=$?
is "$rc" 0 "moved: bisect found it" || echo "$out" | sed 's/^/# /'
like "$out" "culprit: $G5 g5 \(position 6\)" "... g5, from the measured midpoints"
like "$out" "0 step\(s\), 0 boot\(s\)" "... in no step (the midpoints were measured already)"
like "$out" "the floors' alpha 0.001 over 5 planned steps: 0.0002 a step" \
	"... its steps decide at their share of the floors' alpha: 8 commits, ceil(log2 8) + 2 = 5 planned steps"
is "$(q "select group_concat(distinct json_extract(body, '\$.floor_alpha')) from analysis_cache")" 0.001 \
	"... and its analyses at that share are not cached: the pages' cached analysis stays at 0.001"
like "$out" "1 stored regression\(s\) of split/pmd-to-0/split_ms moved to the culprit" "... and moved the regression"
is "$(q "select g.id || ' ' || c.sha || ' ' || f.sha || ' ' || g.status from regressions g join commits c on c.id = g.commit_id
	join commits f on f.id = g.found_commit_id where g.id = $RID")" "$RID $G5 $G8 acknowledged" \
	"... same id and status, at g5, found at g8"
"$SERVER" regressions --db "$DB" --series moved > /dev/null
is "$(q "select count(*) from regressions g join series s on s.id = g.series_id where s.name = 'moved'")" 1 \
	"... a refresh opens no duplicate for g5's own verdict"
is "$(q "select state || ' ' || culprit_sha || ' ' || good_sha || ' ' || bad_sha from bisects where id = 1")" \
	"done $G5 $G0 $G8" "... the bisect stored: done, culprit, range"
is "$(q "select count(*) from outbox where type = 'bisected' and regression_id = $RID and commit_sha = '$G5'")" 1 \
	"... and a bisected event for the webhooks"

# busy: while a bisect of the range runs, a midpoint's own verdict opens no regression (it would be a
# duplicate of the one the bisect moves); once it is over, the refresh stores it as usual
gen busy icount 3 "1 1 1 1 1 1.1 1.1 1.1 1.1" g0 g4 g5 g8 && imp busy || bail "gen busy"
q "insert into bisects(series_id, workload, variant, metric, direction, good_sha, bad_sha, state, started_at)
	select id, 'split', 'pmd-to-0', 'split_ms', 'regression', '$G0', '$G8', 'running',
	strftime('%Y-%m-%dT%H:%M:%SZ', 'now') from series where name = 'busy'"
busy_at_g5() { q "select count(*) from regressions g join commits c on c.id = g.commit_id
	join series s on s.id = g.series_id where s.name = 'busy' and c.sha = '$G5'"; }
"$SERVER" regressions --db "$DB" --series busy > /dev/null 2>&1
is "$(busy_at_g5)" 0 "busy: no regression opened at g5 while a bisect of g0..g8 runs"
BID=$(q "select id from bisects where state = 'running'")
q "update bisects set state = 'gave up' where id = $BID"
"$SERVER" regressions --db "$DB" --series busy > /dev/null 2>&1
is "$(busy_at_g5)" 0 "... a bisect that ended outside foliowatch changes nothing stored (the analysis did not change)"
# as foliowatch ends one: fw_bisect_db_update (through the collector's record) marks the regressions to store again
q "update bisects set state = 'running' where id = $BID"
out=$(bisect busy g0 g8 --no-profile); rc=$?
like "$out" "culprit: $G5 " "... the bisect of the range itself ends"
"$SERVER" regressions --db "$DB" --series busy > /dev/null 2>&1
is "$(busy_at_g5)" 1 "... and the next refresh stores the regression at g5"

# skip: a commit whose stored run failed to build is skipped without trying it again; the skip
# leaves two candidates (g5, g6), so the narrowest range is named
gen skip icount 3 "1 1 1 1 1 1.1 1.1 1.1 1.1" g0 g4 g5 g6 g8 || bail "gen skip"
rm "$TMP_T"/gen-skip/skip-*-"$G5"-[12].json*
"$PY" - "$TMP_T"/gen-skip/skip-*-"$G5"-0.json <<'PY' || bail "failed build"
import json, sys
d = json.load(open(sys.argv[1]))
d["build"]["status"], d["boot"]["status"], d["results"] = "failed", "not_run", []
d.pop("profiles", None)
json.dump(d, open(sys.argv[1], "w"))
PY
"$SERVER" seal "$TMP_T"/gen-skip/skip-*-"$G5"-0.json > "$(ls "$TMP_T"/gen-skip/skip-*-"$G5"-0.json).sealed" && imp skip ||
	bail "import skip"
out=$(bisect skip g0 g8); rc=$?
is "$rc" 0 "skip: bisect answers" || echo "$out" | sed 's/^/# /'
like "$out" "narrowest range: ${G4:0:12}..${G6:0:12} \(2 commits; those between did not build or boot\)" \
	"... the narrowest range the stored failed build leaves"
like "$out" "0 step\(s\), 0 boot\(s\)" "... without building g5 again"
is "$(q "select state || ' ' || range_lo_sha || ' ' || range_hi_sha from bisects order by id desc limit 1")" \
	"done $G4 $G6" "... stored as done with the range"

# two steps: a change spread over two commits is reported as two
gen two icount 3 "1 1 1.05 1.05 1.05 1.1 1.1 1.1 1.1" && imp two || bail "gen two"
out=$(bisect two g0 g8); rc=$?
is "$rc" 0 "two steps: bisect answers" || echo "$out" | sed 's/^/# /'
like "$out" "the change is spread over 2 steps" "... spread over 2 steps"
is "$(echo "$out" | grep -c '^bisect: culprit')" 2 "... two culprits named"
like "$(echo "$out" | grep '^bisect: culprit' | head -1)" "culprit: $G2 " "... g2 first"
like "$(echo "$out" | grep '^bisect: culprit' | tail -1)" "culprit: $G5 " "... then g5"
like "$(q "select state || ': ' || why from bisects order by id desc limit 1")" "^done: the change is spread over 2 steps" \
	"... stored as done, with both steps"

# a merge on the first-parent line is a culprit like any commit, named with its range
gen merge icount 3 "1 1 1 1 1 1 1.1 1.1 1.1" && imp merge || bail "gen merge"
out=$(bisect merge g0 g8); rc=$?
is "$rc" 0 "merge: bisect answers" || echo "$out" | sed 's/^/# /'
like "$out" "culprit: $G6 g6: merge side \(position 7\): .* \(a merge: its first-parent range ${G5:0:12}..${G6:0:12}\)" \
	"... the merge, with its first-parent range"

# undecided: TCG rows with 1 boot a side cannot be decided; it says which step and stops
gen undecided tcg 1 "1 1 1 1 1 1.1 1.1 1.1 1.1" && imp undecided || bail "gen undecided"
out=$(bisect undecided g0 g8 --accel tcg); rc=$?
is "$rc" 1 "undecided: bisect gives up"
like "$out" "gave up: the step from ${G0:0:12} to ${G1:0:12} is undecided" "... naming the first undecided step"
is "$(q "select state from bisects order by id desc limit 1")" "gave up" "... stored as gave up"

# a webhook that heard of the regression at g8 hears "bisected" when it moves (its own database)
DB=$TMP_T/heard.db
SECRET=fwh_$(printf '%064d' 3)
echo "$SECRET" > "$TMP_T/secret"
RPORT=$(free_port)
gen heard icount 3 "1 1 1 1 1 1.1 1.1 1.1 1.1" g0 g4 g5 g8 && imp heard g0 g8 || bail "gen heard"
"$SERVER" webhook add "http://127.0.0.1:$RPORT/hook" --secret-file "$TMP_T/secret" --db "$DB" 2> /dev/null ||
	bail "webhook add"
"$PY" tests/lib/webhook-receiver.py "$RPORT" "$TMP_T/recv.log" "$SECRET" > "$TMP_T/recv.out" 2>&1 &
RECV_PID=$!
trap 'kill $RECV_PID 2>/dev/null; stop_server_quiet; cleanup_tmp' EXIT
events() { # type:commit:found_sha of each delivery, in order
	"$PY" -c 'import json, sys
for l in open(sys.argv[1]):
    d = json.loads(l); b = d["body"]
    print("%s:%s:%s:%s" % (d["sig_ok"], b["type"], b["commit"][:2], (b.get("found_sha") or "-")[:12]))' \
		"$TMP_T/recv.log" 2> /dev/null | paste -sd' '
}
wait_events() { for _ in $(seq 1 100); do [ "$(events | wc -w)" -ge "$1" ] && return 0; sleep 0.2; done; return 1; }
start_server "$DB" --settle-seconds 1 --webhook-backoff 0.2 || bail "server"
wait_events 1
is "$(events)" "True:new:${G8:0:2}:-" "heard: the receiver hears of the regression at g8"
stop_server
imp heard g4 g5 || bail "import the midpoints"
out=$(bisect heard g0 g8); rc=$?
like "$out" "culprit: $G5 " "heard: bisected to g5"
start_server "$DB" --settle-seconds 1 --webhook-backoff 0.2 || bail "server again"
wait_events 2
is "$(events)" "True:new:${G8:0:2}:- True:bisected:${G5:0:2}:${G8:0:12}" \
	"... and then hears it bisected: at g5, found at g8"
like "$(tail -1 "$TMP_T/recv.log")" '"type_header": "bisected"' "... as X-Foliowatch-Event: bisected"
like "$("$PY" -c 'import json, sys; print(json.loads(open(sys.argv[1]).readlines()[-1])["body"]["text"])' "$TMP_T/recv.log")" \
	"^foliowatch: regression bisected in heard v1: split/pmd-to-0 split_ms \+[0-9.]+% at ${G5:0:12} \(mm: commit $G5\), found at ${G8:0:12}" \
	"... with a chat text naming the culprit and where it was found"
stop_server
DB=$TMP_T/fw.db

# one bisect at a time per series and range: a second one is refused while the first holds the lock
LOCK=$FOLIOWATCH_CACHE/bisect/$(printf '%s\n%s\n%s' merge "$G0" "$G8" | sha256sum | cut -c1-16).lock
mkdir -p "$FOLIOWATCH_CACHE/bisect"
out=$(flock "$LOCK" "$COLLECT" bisect --tree "$REPO" --series merge --db "$DB" --metric split/pmd-to-0/split_ms \
	--good "$G0" --bad "$G8" 2>&1); rc=$?
ok "$([ "$rc" = 1 ]; echo $?)" "a bisect of a range being bisected is refused"
like "$out" "another bisect of merge ${G0:0:12}..${G8:0:12} is running" "... saying so"
like "$(bisect merge g0 g8)" "culprit: $G6" "... and runs once the range is free"

# good measured, but without the metric (its documents carry filemap only): refused, naming it
gen nosplit icount 3 "1 1 1 1 1 1.1 1.1 1.1 1.1" g0 g8 || bail "gen nosplit"
for f in "$TMP_T"/gen-nosplit/*-"$G0"-*.json; do
	"$PY" -c 'import json, sys
d = json.load(open(sys.argv[1])); d["results"] = [r for r in d["results"] if r["workload"] != "split"]
json.dump(d, open(sys.argv[1], "w"))' "$f" && "$SERVER" seal "$f" >"$f.sealed" || bail "drop split from g0"
done
imp nosplit || bail "import nosplit"
out=$(bisect nosplit g0 g8); rc=$?
is "$rc" 1 "good without samples of the metric: bisect refuses"
like "$out" "good ${G0:0:12} has no measurement of split/pmd-to-0/split_ms in series nosplit" "... naming good and the metric"

# the series page shows the positions nobody measured as such (moved: g0, g4, g5, g8 of g0..g8)
start_server "$DB" || bail "server did not start"
is "$(code /series/moved)" 200 'the page of a sparsely measured series'
like "$(cat "$TMP_T/body")" '<tr class="unmeasured"><th scope="row" colspan="1">positions 2&ndash;4: 3 commits not measured</th><td colspan="[0-9]+"></td></tr>' \
	'... says which positions between two listed commits were not measured'
is "$(grep -c '<tr class="unmeasured">' "$TMP_T/body")" 4 '... in the matrix and in the commits table, both gaps (2-4, 7-8)'
stop_server

# what it refuses, with the field named
like "$(bisect moved g0 g8 --metric split/pmd-to-0 2>&1)" "--metric must be workload/variant/metric" "a bad --metric"
like "$(bisect moved g0 g8 --bisect-budget 5parsecs 2>&1)" "bisect-budget" "a bad --bisect-budget"
like "$(bisect nope g0 g8)" "bisect: no such series" "an unknown series"
done_testing
