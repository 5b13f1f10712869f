#!/bin/bash
# Your own workload (issue 33), before any kernel: 'workload check' validates
# a folder (the shipped example passes; mistakes are named), and 'workload
# try' runs its program here and reads what it printed as a boot would. The
# four broken programs of the issue (exit 1, a missing metric, garbage, a
# hang past timeout_s) each fail with their own message.
. tests/lib/tap.sh
EX=$PWD/$BUILD/workloads/lru-contention
[ -x "$EX/lru-contention" ] || bail "no $EX (make all)"
out=$("$COLLECT" workload check "$EX" 2>&1); rc=$?
is "$rc" 0 "the example workload checks"
like "$out" "workload lru-contention, 1 variant\(s\), 1 metric\(s\)" "... and is described"
out=$("$COLLECT" workload try "$EX" --profile quick 2>&1); rc=$?
is "$rc" 0 "its program runs here (quick profile)"
like "$out" "running .*/lru-contention 2 16 4" "... with the profile's arguments"
like "$out" "lru-contention/16k wall_s [0-9.]+ s" "... and its time is read"
like "$out" "counter program/folios_16k_expected 8192" "... and its own counter"

# One workload folder: NAME, the program's text (a shell script), the manifest's extra fields.
mk() {
	d=$TMP_T/$1
	mkdir -p "$d"
	printf '#!/bin/sh\n%s\n' "$2" >"$d/prog"
	chmod +x "$d/prog"
	cat >"$d/workload.json" <<JSON
{ "format": "foliowatch-workload/1", "name": "$1", "program": "prog", $3
  "variants": [{ "name": "v" }],
  "metrics": [{ "name": "t", "unit": "s", "direction": "lower_is_better", "kind": "time" },
              { "name": "n", "unit": "ops", "direction": "higher_is_better", "kind": "count" }] }
JSON
}
try_fails() {
	out=$("$COLLECT" workload try "$TMP_T/$1" 2>&1); rc=$?
	is "$rc" 1 "$1: try fails"
	like "$out" "$2" "... saying: $2"
}
mk exits1 'echo "metric t 1"; exit 1' ''
try_fails exits1 "exits1/v: the program exited with 1"
mk nometric 'echo "metric t 1"' ''
try_fails nometric "its output: metric 'n' was never printed"
mk garbage 'printf "metric t \\001\\002\\nmetric n 3\\n"' ''
try_fails garbage "its output: line 1: '.*' is not a number for t"
mk hangs 'sleep 30; echo "metric t 1"' '"timeout_s": 1,'
start=$(date +%s)
try_fails hangs "hangs/v: killed after its timeout_s \(1 s\)"
[ $(( $(date +%s) - start )) -lt 10 ]; ok $? "... within seconds, not the 30 s it would sleep"
mk fine 'echo "metric n 7"; echo "metric t 0.5"' ''
out=$("$COLLECT" workload try "$TMP_T/fine" 2>&1); rc=$?
is "$rc" 0 "a program printing both metrics in any order passes"

# Folders check refuses.
chmod -x "$TMP_T/fine/prog"
out=$("$COLLECT" workload check "$TMP_T/fine" 2>&1); rc=$?
is "$rc" 1 "a program that is not executable: check fails"
like "$out" "fine/workload.json: program: .*/prog is not an executable file" "... naming it"
mk split 'true' ''
out=$("$COLLECT" workload check "$TMP_T/split" "$EX" 2>&1); rc=$?
is "$rc" 1 "a workload named like a built-in: check fails"
like "$out" "name: 'split' is a built-in workload" "... saying so"
like "$out" "workload lru-contention" "... and the other folder is still checked"
out=$("$COLLECT" workload check "$TMP_T/nowhere" 2>&1); rc=$?
is "$rc" 1 "a folder without workload.json fails"
like "$out" "nowhere/workload.json: cannot read it" "... naming the file"
out=$("$COLLECT" workload try "$EX" --variant nope 2>&1); rc=$?
is "$rc" 1 "try of a variant the workload has not fails"
like "$out" "has no variant 'nope'" "... naming it"
"$COLLECT" workload check 2>/dev/null; is "$?" 2 "no folder: a usage error"
done_testing
