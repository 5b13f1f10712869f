#!/bin/bash
# Your own workload (issue 33), before any kernel: 'workload check' validates
# a folder (the shipped example passes; mistakes are named), and 'workload
# try' runs its program here and reads what it printed as a boot would. The
# four broken programs of the issue (exit 1, a missing metric, garbage, a
# hang past timeout_s) each fail with their own message. And what boot/run
# --workload-dir refuse before a kernel: a script not for /bin/sh, cgroup v2, a name twice, a
# library ldd cannot find.
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

# What --workload-dir refuses before any kernel is built or booted (boot and run load the folders first).
wd() { "$COLLECT" boot --kernel "$TMP_T/no-kernel" --workload-dir "$@" 2>&1; }
mk script 'echo metric t 1; echo metric n 2' ''
sed -i '1s|.*|#!/usr/bin/python3|' "$TMP_T/script/prog"
out=$(wd "$TMP_T/script"); rc=$?
is "$rc" 1 "a script for another interpreter: refused by boot --workload-dir"
like "$out" "script/workload.json: program: .*/prog starts '#!/usr/bin/python3': the guest runs scripts with busybox's /bin/sh only" \
	"... saying what runs"
mk v2 'true' '"needs": { "memcg": "v2" },'
cp "$EX/lru-contention" "$TMP_T/v2/prog"
out=$(wd "$TMP_T/v2"); rc=$?
is "$rc" 1 "cgroup v2: refused"
like "$out" "v2/workload.json: needs.memcg: v2 is refused: the guest mounts cgroup v1" "... naming the field and the reason"
out=$("$COLLECT" run --series t0430 --mbox /dev/null --workload-dir "$EX" --workload-dir "$EX" 2>&1); rc=$?
is "$rc" 1 "the same workload twice: refused by run --workload-dir"
like "$out" "name: 'lru-contention' is also the name of" "... naming the clash"
# a dynamically linked program whose library is gone: ldd cannot find it
mkdir -p "$TMP_T/lib" "$TMP_T/dyn"
printf 'int fw_t0430(void) { return 1; }\n' > "$TMP_T/lib/l.c"
printf 'int fw_t0430(void);\nint main(void) { return fw_t0430() - 1; }\n' > "$TMP_T/lib/m.c"
cc -shared -fPIC -o "$TMP_T/lib/libfwgone.so" "$TMP_T/lib/l.c" &&
	cc -o "$TMP_T/dyn/prog" "$TMP_T/lib/m.c" -L"$TMP_T/lib" -lfwgone -Wl,-rpath,"$TMP_T/lib" || bail "cannot build the test program"
rm "$TMP_T/lib/libfwgone.so"
sed 's/"name": "v2", "program": "prog", "needs": { "memcg": "v2" },/"name": "dyn", "program": "prog",/' \
	"$TMP_T/v2/workload.json" > "$TMP_T/dyn/workload.json"
out=$(wd "$TMP_T/dyn"); rc=$?
is "$rc" 1 "a program needing a library that is not there: refused"
like "$out" "ldd .*/dyn/prog: .*libfwgone.so => not found" "... naming the library"
done_testing
