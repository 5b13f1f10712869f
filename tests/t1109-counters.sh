#!/bin/bash
# The counters of a decided row (analysis/analysis-counters.c: the counters
# whose median moved most between the row's two commits) checked against
# medians computed here from the database: a watched history on two hosts
# whose counters differ by commit and by host, with a step, so rows against
# the parent and against the base are decided and each side's commit and
# environment must be the right ones. The same boots as a patch series:
# its rows against the base carry counters too; a history's do not (every
# commit after a step differs from a base of long ago: README "Deciding").
# Each counter's own test (moved: its values on the two commits do not
# overlap, 3 a side at least) is checked against the values too.
. tests/lib/tap.sh
. tests/lib/server.sh
specs() { # specs COUNTER-OFFSET: 12 commits, +10% from p6, thp_split_page 256 x (offset + i / 10)
	local i prev=base s="base:0:-:1:1:$1"
	for i in $(seq 1 11); do
		s="$s p$i:$i:$prev:$([ "$i" -ge 6 ] && echo 1.1 || echo 1):1:$(awk -v o="$1" -v i="$i" 'BEGIN { print o + i / 10 }')"
		prev=p$i
	done
	echo "$s"
}
# shellcheck disable=SC2046
FW_GEN_WATCHED=1 gen_sealed "$TMP_T/a" hist tcg@runner-1 12 $(specs 1) || bail gen
# shellcheck disable=SC2046
FW_GEN_WATCHED=1 gen_sealed "$TMP_T/b" hist tcg@runner-2 12 $(specs 3) || bail gen
# shellcheck disable=SC2046
gen_sealed "$TMP_T/c" patch tcg@runner-1 12 $(specs 1) || bail gen
# shellcheck disable=SC2046
gen_sealed "$TMP_T/d" patch tcg@runner-2 12 $(specs 3) || bail gen
DB=$TMP_T/fw.db
"$SERVER" import -q --db "$DB" "$TMP_T"/[abcd]/*.sealed || bail import
check() { # check SERIES: "checked N wrong N kinds N bare N" on stdout, mismatches as # lines
	"$SERVER" report --db "$DB" --series "$1" --format json --no-cache > "$TMP_T/$1.json" || bail report
	"$PY" - "$DB" "$TMP_T/$1.json" <<'PY'
import json, sqlite3, statistics, sys
db = sqlite3.connect(sys.argv[1])
rows = json.load(open(sys.argv[2]))["rows"]
def median(commit, r, name):
    v = [x for (x,) in db.execute(
        "SELECT ct.value FROM counters ct JOIN results res ON res.id = ct.result_id JOIN runs ru ON ru.id = res.run_id"
        " JOIN environments e ON e.id = ru.env_id WHERE ru.commit_id = ? AND e.fingerprint = ? AND ru.boot_status = 'ok'"
        " AND res.workload = ? AND res.variant = ? AND res.params = ? AND res.metric = ? AND ct.name = ?",
        (commit, r["env_fingerprint"], r["workload"], r["variant"], r["params"], r["metric"], name))]
    return v
def med(v):
    return statistics.median(v) if v else None
checked, wrong, kinds, bare = 0, 0, set(), 0
moved = {True: 0, False: 0}
for r in rows:
    if r.get("verdict") not in ("regression", "improvement"):
        continue
    bare += "counters" not in r
    for c in r.get("counters", []):
        checked += 1
        kinds.add((r["against"], r["env_fingerprint"]))
        va, vb = median(r["ref_commit_id"], r, c["name"]), median(r["commit_id"], r, c["name"])
        want = (med(va), med(vb))
        if (c["a"], c["b"]) != want:
            wrong += 1
            print("# %s %s at %s: %s -> %s, the database says %s -> %s" % (r["against"], c["name"], r["position"], c["a"], c["b"], *want))
        # its own test: every value of one commit beyond every value of the other, 3 a side at least
        apart = len(va) >= 3 and len(vb) >= 3 and (max(va) < min(vb) or max(vb) < min(va))
        moved[apart] += 1
        if c.get("moved") is not apart:
            wrong += 1
            print("# %s %s at %s: moved %s, its values say %s" % (r["against"], c["name"], r["position"], c.get("moved"), apart))
print("# moved %d, not %d" % (moved[True], moved[False]))
print("checked %d wrong %d kinds %d bare %d" % (checked, wrong, len(kinds), bare))
PY
}
check patch > "$TMP_T/patch.txt"
grep '^#' "$TMP_T/patch.txt"
read -r _ checked _ wrong _ kinds _ bare < <(tail -1 "$TMP_T/patch.txt")
ok "$([ "${checked:-0}" -ge 10 ]; echo $?)" "patch series: decided rows' counters checked: ${checked:-0}"
is "${kinds:-0}" 4 "... against the parent and the base, on both hosts"
is "${bare:-x}" 0 "... every decided row has them"
is "${wrong:-x}" 0 "... each the median of its commit's counters in its environment, from the database"
check hist > "$TMP_T/hist.txt"
grep '^#' "$TMP_T/hist.txt"
read -r _ checked _ wrong _ kinds _ bare < <(tail -1 "$TMP_T/hist.txt")
ok "$([ "${checked:-0}" -ge 2 ]; echo $?)" "history: decided rows' counters checked: ${checked:-0}"
is "${kinds:-0}" 2 "... against the parent only, on both hosts"
ok "$([ "${bare:-0}" -ge 5 ]; echo $?)" "... decided rows against the base carry none (${bare:-0})"
is "${wrong:-x}" 0 "... each the median of its commit's counters in its environment, from the database"
done_testing
