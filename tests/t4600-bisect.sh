#!/bin/bash
# Sparse watching and bisect on real kernels (issue 30). A branch of the
# default tree gets a documentation-only commit and is watched with --heads
# (the head and its parent measured); then 8 commits land: documentation-only
# ones, the slow-split patch at the 5th, a commit at the 6th that does not
# build (the 7th mends it). The second watch (--heads --bisect) measures the
# new head only, decides split time a regression against the old head and
# bisects it: the culprit is the 5th of the 8; it measures 4 (no move), 6
# (does not build: skipped), 5 (moved), every step under icount at 3 boots a
# side, and prints what it cost. Each midpoint joins the series at its own
# position; the regressions found at the head move to the culprit (API,
# commit pages, webhook), and the culprit mail names it. A third pass
# bisects nothing again; bisect's own errors. Lane A: it builds kernels in
# the default tree.
. tests/lib/tap.sh
. tests/lib/kernel.sh
. tests/lib/server.sh
find_kernel
command -v jq >/dev/null || skip_all "no jq (run ci/install-deps.sh)"
. tests/lib/branch.sh
branch_setup fw-bisect
DB=$TMP_T/fw.db
SERIES="bisect-$$"
# profiling as by default: where a verdict needs one (the head's regression), and the culprit at the bisect's end
RUNOPTS=(--workloads split --accel icount --boots 3 --rounds 2 --db "$DB")
watch() {
	"$COLLECT" watch --tree "$TREE" --branch "$BR" --series "$SERIES" --once --heads "${RUNOPTS[@]}" --no-report "$@"
}
pos() { sqlite3 "$DB" "select group_concat(position, ',') from (select position from commits c
	where exists (select 1 from runs r where r.commit_id = c.id and r.boot_status = 'ok') order by position)"; }

doc_commit 0 || bail "commit 0"
GOOD=$(gitw rev-parse HEAD)
watch > "$TMP_T/w1.log" 2>&1
is "$?" 0 "watch --heads, first pass: the head and its parent" || sed 's/^/# /' "$TMP_T/w1.log" | tail -20
is "$(pos)" "0,1" "positions 0 and 1 measured"

# a webhook with a receiver on loopback: the bisect's move is an event
SECRET=fwh_$(printf '%064d' 7)
echo "$SECRET" > "$TMP_T/secret"
RPORT=$(free_port)
"$BUILD/foliowatch-server" webhook add "http://127.0.0.1:$RPORT/hook" --secret-file "$TMP_T/secret" --db "$DB" \
	> /dev/null || bail "webhook add"

# plan-only: series --only keeps first-parent positions (no boots)
for i in 1 2 3 4; do doc_commit $i || bail "commit $i"; done
gitw am -q "$PWD"/kernel/series/slow-split/*.patch || bail "am slow-split"
CULPRIT=$(gitw rev-parse HEAD)
sed -i 's/^#include <linux\/delay.h>$/#include <linux\/delay.h>\nfoliowatch_does_not_build;/' "$WT/mm/huge_memory.c"
gitw commit -q -am "mm: a commit that does not build" || bail "commit 6"
BROKEN=$(gitw rev-parse HEAD)
sed -i '/^foliowatch_does_not_build;$/d' "$WT/mm/huge_memory.c"
gitw commit -q -am "mm: build again" || bail "commit 7"
doc_commit 8 || bail "commit 8"
BAD=$(gitw rev-parse HEAD)
"$COLLECT" series --tree "$TREE" --range "$GOOD..$BAD" --only "${CULPRIT:0:9},$BAD" > "$TMP_T/plan.txt"
is "$(awk '{print $1}' "$TMP_T/plan.txt" | paste -sd,)" "0,5,8" "series --only: base, 5 and 8 at their range positions"

start=$(date +%s)
watch --bisect > "$TMP_T/w2.log" 2>&1
rc=$?
took=$(( $(date +%s) - start ))
grep '^bisect:\|^watch:' "$TMP_T/w2.log" | sed 's/^/# /'
is "$rc" 0 "second pass: the head measured, the regression bisected" || sed 's/^/# /' "$TMP_T/w2.log" | tail -30
like "$(cat "$TMP_T/w2.log")" "8 new commit\(s\) on $BR, measuring 1 of them \(--heads\)" "8 new commits, the head measured"
# one bisect for the range: split_ms and split_cpu_ms moved together, the first row's metric is bisected
like "$(cat "$TMP_T/w2.log")" "watch: bisecting split/pmd-to-0/split_(cpu_)?ms between ${GOOD:0:12} and ${BAD:0:12}" \
	"the regression between the old and the new head is bisected"
is "$(grep -c '^watch: bisecting' "$TMP_T/w2.log")" 1 "... once: the metrics the range moved share it"
like "$(grep '^bisect: culprit' "$TMP_T/w2.log")" "culprit: $CULPRIT mm/huge_memory: slow down folio splitting .*\(position 6\)" \
	"... to the slow-split commit, at its position"
is "$(grep -c '^bisect: step .*: measuring' "$TMP_T/w2.log")" 3 "three midpoints tried"
like "$(cat "$TMP_T/w2.log")" "${BROKEN:0:12} did not build or boot: skipped" "the commit that does not build is skipped"
is "$(sqlite3 "$DB" "select group_concat(position, ',') from (select distinct c.position from runs r
	join commits c on c.id = r.commit_id where r.id not in (select run_id from results) and r.boot_status = 'ok'
	order by c.position)")" "1,5,6,9" "profile-only boots: the two heads (the head's regression), the culprit and the commit before it"
is "$(pos)" "0,1,5,6,9" "the head at 9 (first-parent order); midpoints 4 and 5 of the range at positions 5 and 6"
is "$(sqlite3 "$DB" "select count(*) from commits where position = 7")" 1 "the failed build is recorded at its position"
boots=$(sqlite3 "$DB" "select max(n) from (select count(*) n from runs r join commits c on c.id = r.commit_id
	where c.position in (5, 6, 9) and r.boot_status = 'ok' and r.id in (select run_id from results)
	group by c.id)")
ok "$([ "${boots:-99}" -le 3 ]; echo $?)" "every step decided at <= 3 boots a side ($boots)"
ok "$([ "$took" -le 600 ]; echo $?)" "the pass took ${took} s (<= 600), the bisect $(grep -o '[0-9]* step(s), [0-9]* boot(s), [0-9]* s' "$TMP_T/w2.log")"
"$BUILD/foliowatch-server" report --db "$DB" --series "$SERIES" --format json > "$TMP_T/r2.json"
verdict() { jq -r --arg s "$1" '[.rows[] | select(.sha == $s and .against == "parent" and .metric == "split_ms")
	| .verdict] | join(",")' "$TMP_T/r2.json"; }
is "$(verdict "$CULPRIT")" regression "the series says the culprit regressed split_ms against its parent"
is "$(verdict "$BAD")" "no change" "... and the head no change against it"

# the regressions found at the new head moved to the culprit: same ids, no duplicates
q() { sqlite3 "$DB" "$1"; }
is "$(q "select count(*) from regressions g join commits c on c.id = g.commit_id where c.sha = '$BAD'")" 0 \
	"no stored regression left at the new head"
is "$(q "select group_concat(g.metric || ':' || f.sha, ' ') from regressions g join commits c on c.id = g.commit_id
	join commits f on f.id = g.found_commit_id where c.sha = '$CULPRIT' order by g.metric")" \
	"split_cpu_ms:$BAD split_ms:$BAD" "split_ms and split_cpu_ms moved to the culprit, found at the head"
is "$(q "select count(*) from regressions")" 2 "and no other regression opened by the midpoints"
is "$(q "select group_concat(type || ':' || commit_sha || ':' || json_extract(payload, '$.found_sha'), ' ')
	from outbox where type = 'bisected'")" "bisected:$CULPRIT:$BAD bisected:$CULPRIT:$BAD" \
	"each move is a bisected event, at the culprit, found at the head"
"$PY" tests/lib/webhook-receiver.py "$RPORT" "$TMP_T/recv.log" "$SECRET" > "$TMP_T/recv.out" 2>&1 &
RECV_PID=$!
trap 'kill $RECV_PID 2>/dev/null; stop_server_quiet; cleanup_branch' EXIT
start_server "$DB" --settle-seconds 1 --webhook-backoff 0.2 || bail "server"
for _ in $(seq 1 100); do [ "$(cat "$TMP_T/recv.log" 2>/dev/null | wc -l)" = 2 ] && break; sleep 0.2; done
sleep 1
# the events were held while the series was measured: the webhook hears the net change, one new
# regression per metric, at the culprit (t2300: a receiver that heard of it at the head hears "bisected")
is "$("$PY" -c 'import json, sys
for l in open(sys.argv[1]):
    d = json.loads(l); b = d["body"]; print(d["sig_ok"], b["type"], b["commit"], b.get("found_sha"))' "$TMP_T/recv.log" |
	sort -u)" "True new $CULPRIT $BAD" "the webhook hears of the regressions at the culprit, found at the head"
is "$(wc -l < "$TMP_T/recv.log")" 2 "... one event per metric"
code "/api/v1/bisects?series=$SERIES" > /dev/null
is "$(jget "$TMP_T/body" '" ".join(str(b[k]) for b in d["bisects"] for k in ("state", "culprit_sha", "good_sha", "bad_sha"))')" \
	"done $CULPRIT $GOOD $BAD" "GET /api/v1/bisects: the bisect, done, culprit, range"
is "$(jget "$TMP_T/body" '" ".join(s["verdict"] + ":" + str(s["position"]) for s in d["bisects"][0]["steps"])')" \
	"no move:5 skipped:7 moved:6" "... its steps with their verdicts and positions"
id=$(q "select id from regressions where metric = 'split_ms'")
code "/api/v1/regressions/$id" > /dev/null
is "$(jget "$TMP_T/body" 'd["sha"] + " " + d["found_sha"] + " " + d["bisect"]["culprit_sha"] + " " + d["links"]["bisect"]')" \
	"$CULPRIT $BAD $CULPRIT /api/v1/bisects/1" "GET /api/v1/regressions/{id}: at the culprit, found at the head, its bisect"
code "/series/$SERIES/commit/$CULPRIT" > /dev/null
like "$(grep -o '<tr><td data-label="bisect">.*' "$TMP_T/body")" \
	'<a href="/api/v1/bisects/1">1</a></td><td data-label="this commit">culprit</td>' \
	"the culprit's commit page shows the bisect that found it"
code "/series/$SERIES/commit/$BAD" > /dev/null
like "$(grep -o '<td data-label="this commit">[^<]*' "$TMP_T/body")" 'bad end' "... and the head's page, as its bad end"
stop_server

# The culprit mail (LKP-style): a new thread to the author only with --to-author.
mail() { "$BUILD/foliowatch-server" report --db "$DB" --series "$SERIES" --format email --regression "$id" "$@"; }
mail --to-author > "$TMP_T/m1.txt" 2> "$TMP_T/m1.err"
is "$?" 0 "report --format email --regression ID --to-author" || sed 's/^/# /' "$TMP_T/m1.err"
hdr() { # hdr MAIL NAME: the header unfolded, "-" when there is none
	"$PY" -c 'import email, sys; m = email.message_from_file(open(sys.argv[1])); print(" ".join(str(m.get(sys.argv[2], "-")).split()))' "$1" "$2"
}
is "$(hdr "$TMP_T/m1.txt" To)" "foliowatch-demo <demo@foliowatch.invalid>" "--to-author: To is the commit's author"
is "$(hdr "$TMP_T/m1.txt" Cc)/$(hdr "$TMP_T/m1.txt" In-Reply-To)" "-/-" "... only, in a new thread"
like "$(hdr "$TMP_T/m1.txt" Subject)" \
	"^\[$SERIES\] ${CULPRIT:0:12} mm/huge_memory: slow down folio splitting .*: split/pmd-to-0/split_(cpu_)?ms \+[0-9.]+% regression$" \
	"the subject names the series, the commit, the metric and the change"
is "$(awk 'length > 78' "$TMP_T/m1.txt" | wc -l)" 0 "every line of the mail <= 78 columns"
like "$(tr '\n' ' ' < "$TMP_T/m1.txt")" "between ${GOOD:0:12} and ${BAD:0:12}, and bisected it to the commit below in 3 steps" \
	"it says how the culprit was found"
like "$(grep -A2 '^commit: ' "$TMP_T/m1.txt" | tr '\n' ' ')" "^commit: $CULPRIT +mm/huge_memory: slow down .* author: foliowatch-demo" \
	"... the commit, its subject and author"
like "$(grep -c 'split_ms\|split_cpu_ms' "$TMP_T/m1.txt")" '^[2-9]' "... with the split table"
like "$(grep '^  why' "$TMP_T/m1.txt")" "why \(kernel profile, self time\): (delay_tsc|__const_udelay|__udelay|delay_loop|delay_halt)" \
	"... and the kernel function whose cost moved (the slow-split delay; the culprit profiled at the end)"
like "$(grep '^| Reported-by:' "$TMP_T/m1.txt")" 'Reported-by: foliowatch <foliowatch@localhost>' "and a Reported-by tag"
PARENT=$(gitw rev-parse "$CULPRIT~1")
"$PY" - "$TMP_T/m1.txt" > "$TMP_T/repro.txt" <<'PYEOF'
import shlex, sys
body = open(sys.argv[1]).read().split("How to reproduce", 1)[1]
cmd = ""
for line in body.splitlines()[1:]:
    cmd += line.strip().rstrip("\\") + " "
    if not line.rstrip().endswith("\\"):
        break
w = shlex.split(cmd)
opt = {w[i]: w[i + 1] for i in range(len(w) - 1) if w[i].startswith("--")}
print(" ".join(w[:2]), opt.get("--range"), opt.get("--workloads"), opt.get("--accel"))
PYEOF
is "$(cat "$TMP_T/repro.txt")" "foliowatch-collect run ${PARENT:0:12}..${CULPRIT:0:12} split icount" \
	"the reproduce command: run PARENT..CULPRIT, the workload, the accelerator"
"$COLLECT" series --tree "$TREE" --range "$(awk '{print $3}' "$TMP_T/repro.txt")" > "$TMP_T/repro.plan"
is "$(awk '{print $1 ":" $2}' "$TMP_T/repro.plan" | paste -sd' ')" "0:$PARENT 1:$CULPRIT" \
	"... and series (the plan) of its range measures the parent and the culprit"
mail --to "mm <linux-mm@kvack.org>" > "$TMP_T/m2.txt" 2>&1
is "$(hdr "$TMP_T/m2.txt" To)" "mm <linux-mm@kvack.org>" "without --to-author: To is the list given"
mail > "$TMP_T/m3.txt" 2>&1
is "$?/$(cat "$TMP_T/m3.txt")" "1/report: give --to (the list) or --to-author (the commit's author)" "neither: said"
start_server "$DB" || bail "server"
is "$(code "/api/v1/bisects?series=nope")" 404 "bisects of an unknown series: 404"
is "$(code "/api/v1/bisects/99")" 404 "an unknown bisect: 404"
is "$(code "/api/v1/bisects/x1")" 400 "a bad bisect id: 400"
stop_server

watch --bisect > "$TMP_T/w3.log" 2>&1
is "$?" 0 "a third pass: nothing new"
is "$(grep -c bisecting "$TMP_T/w3.log")" 0 "... and nothing bisected again"

# bisect's own errors name what is wrong
b() { "$COLLECT" bisect --tree "$TREE" --series "$SERIES" --db "$DB" --accel icount "$@" 2>&1; }
like "$(b --metric split/pmd-to-0/split_ms --good "$BAD" --bad "$GOOD")" "is not a first-parent descendant" \
	"good and bad swapped: said"
like "$(b --metric split/pmd-to-0/split_ms --good "$BASE" --bad nosuchrev)" "nosuchrev is not a commit" "an unknown rev: said"
like "$(b --metric split/pmd-to-0/split_ms --good "$GOOD" --bad "$BROKEN")" \
	"bad ${BROKEN:0:12} has no measurement of split/pmd-to-0/split_ms .*build or boot failed" \
	"a bad commit whose build failed: said"
like "$(b --metric split/pmd-to-0/split_ms --good "$GOOD" --bad "$(gitw rev-parse HEAD~1)")" \
	"bad [0-9a-f]{12} is not a measured commit of series $SERIES" "a bad commit never measured: said"
# (--no-profile: from the series' base, the culprit's row against the base would ask for its profiles too)
out=$(b --metric split/pmd-to-0/split_ms --good "$BASE" --bad "$CULPRIT" --no-profile); rc=$?
like "$out" "culprit: $CULPRIT" "a bisect whose steps are all measured already finds the culprit without a boot"
like "$out" "0 step\(s\), 0 boot\(s\)" "... in no step"
is "$(git -C "$TREE" symbolic-ref HEAD)" "refs/heads/master" "the default tree is back on master"
said_builds
done_testing
