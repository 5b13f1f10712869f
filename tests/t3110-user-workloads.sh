#!/bin/bash
# User workloads in a real boot (issue 33): one TCG boot runs the built-in
# split, a healthy user workload and four broken programs (exit 1, a metric
# never printed, garbage for a value, a hang past timeout_s). Each broken one
# is a failed workload with its message; split and the healthy one keep
# their samples, the user metric with the manifest's unit and direction and
# its content hash in params and run id. Then the example lru-contention
# workload (kernel/workloads/examples) runs with its mTHP needs, its check
# and the profiling round.
. tests/lib/tap.sh
. tests/lib/kernel.sh
find_kernel
PROG="$PWD/$BUILD/tests/broken-workload"
[ -x "$PROG" ] || bail "no $PROG (make all)"

mkwl() { # mkwl <name> <how> [timeout_s]: a workload folder running broken-workload <how>
	mkdir -p "$TMP_T/$1"
	cp "$PROG" "$TMP_T/$1/prog"
	cat > "$TMP_T/$1/workload.json" <<JSON
{ "format": "foliowatch-workload/1", "name": "$1", "program": "prog", "args": ["{how}"],
  "timeout_s": ${3:-60},
  "variants": [ { "name": "v", "params": { "how": "$2" } } ],
  "metrics": [ { "name": "wall_s", "unit": "s", "direction": "lower_is_better", "kind": "time" },
               { "name": "run_s", "unit": "s", "direction": "lower_is_better", "kind": "time", "timed": true } ],
  "counters": ["thp_fault_alloc"],
  "checks": [ { "counter": "program/runs", "min": 1 } ] }
JSON
}
mkwl good ok
# a shell script: busybox's /bin/sh and its applets (awk here) in the guest
mkdir -p "$TMP_T/script"
printf '#!/bin/sh\necho "metric wall_s $(awk "BEGIN { print 0.5 }")"\necho "counter runs $(seq 1 2 | wc -l)"\n' > "$TMP_T/script/prog"
chmod +x "$TMP_T/script/prog"
sed -e 's/"name": "good"/"name": "script"/' -e 's/"how": "ok"/"how": "x"/' "$TMP_T/good/workload.json" > "$TMP_T/script/workload.json"
# what needs sets up, seen from inside: the memcg, the huge tmpfs, the block device, debugfs
mkdir -p "$TMP_T/needs"
cat > "$TMP_T/needs/prog" <<'SH'
#!/bin/sh
echo "metric wall_s 1"
grep -q fw-user /proc/self/cgroup && echo "counter in_memcg 1"
grep -q "$FW_TMPFS tmpfs .*huge=always" /proc/mounts && echo "counter huge_tmpfs 1"
dd if=/dev/zero of="$FW_BLOCK_DEVICE" bs=1024 count=64 2>/dev/null && echo "counter block_written 1"
[ -d "$FW_DEBUGFS/tracing" ] || [ -e "$FW_DEBUGFS" ] && echo "counter debugfs 1"
SH
chmod +x "$TMP_T/needs/prog"
cat > "$TMP_T/needs/workload.json" <<'JSON'
{ "format": "foliowatch-workload/1", "name": "needs", "program": "prog",
  "variants": [ { "name": "v" } ],
  "metrics": [ { "name": "wall_s", "unit": "s", "direction": "lower_is_better", "kind": "time" } ],
  "checks": [ { "counter": "program/in_memcg", "min": 1 }, { "counter": "program/huge_tmpfs", "min": 1 },
              { "counter": "program/block_written", "min": 1 }, { "counter": "program/debugfs", "min": 1 } ],
  "needs": { "memcg": "v1", "tmpfs_huge": "always", "block_device": true, "debugfs": true } }
JSON
mkwl exit1 exit1
mkwl missing missing
mkwl garbage garbage
mkwl hang hang 2
DOC="$TMP_T/boot.json"
t=$(date +%s)
"$COLLECT" boot --kernel "$KERNEL" --accel tcg --rounds 2 --host t3110 \
	--workloads split,good,script,needs,exit1,missing,garbage,hang --workload-dir "$TMP_T/script" \
	--workload-dir "$TMP_T/needs" \
	--workload-dir "$TMP_T/good" --workload-dir "$TMP_T/exit1" --workload-dir "$TMP_T/missing" \
	--workload-dir "$TMP_T/garbage" --workload-dir "$TMP_T/hang" --out "$DOC" 2>"$TMP_T/boot.err"
rc=$?
diag "one boot, eight workloads: $(( $(date +%s) - t )) s"
is "$rc" 3 "boot with failed workloads: exit 3 (document written, boot not ok)"
[ -s "$DOC" ] || { sed 's/^/# /' "$TMP_T/boot.err" | tail -20; bail "no run document"; }
err() { jq -r --arg w "$1" '[.results[] | select(.workload == $w) | .error // empty] | join("; ")' "$DOC"; }
n() { jq --arg w "$1" '[.results[] | select(.workload == $w) | .samples // [] | length] | add // 0' "${2:-$DOC}"; }
is "$(n split)" 4 "built-in split kept: 2 metrics x 2 rounds"
is "$(n good)" 4 "healthy user workload kept: 2 rounds of wall_s and of run_s"
ok "$(jq '[.results[] | select(.workload == "good" and .metric == "run_s") | .samples[] | select(. > 0 and . < 60)] | length == 2' "$DOC" | grep -qx true; echo $?)" \
	"... run_s timed by the init (\"timed\": true), the program printing no line for it"
is "$(err good)" "" "... and no error"
is "$(n script)" 4 "a #!/bin/sh script runs under busybox: 2 rounds of 2 metrics"
is "$(jq -r '[.results[] | select(.workload == "script" and .metric == "wall_s") | .samples[0], .counters[0].program_runs] | join(" ")' "$DOC")" "0.5 2" \
	"... its applets (awk, seq, wc) work"
is "$(err needs)" "" "needs: the program ran in the memcg, with the huge tmpfs, /dev/ram1 and debugfs (its checks passed)"
is "$(n needs)" 2 "... 2 rounds"
like "$(jq -r .boot.kernel_cmdline "$DOC")" "brd.rd_nr=2" "... the block device from brd.rd_nr=2"
is "$(jq -r '.results[] | select(.workload == "good" and .metric == "wall_s") | "\(.unit) \(.direction) \(.kind)"' "$DOC")" "s lower_is_better time" \
	"user metric carries the manifest's unit, direction and kind"
hash=$(jq -r '.workload_content.good' "$DOC")
like "$hash" "^[0-9a-f]{64}$" "the document records the workload's content hash"
is "$(jq -r '.results[] | select(.workload == "good" and .metric == "wall_s") | .params.content_hash' "$DOC")" "$hash" "... and the result's params carry it"
is "$(jq -r '.results[] | select(.workload == "good" and .metric == "wall_s") | .counters[0].program_runs' "$DOC")" 1 "the program's own counter is recorded"
like "$(err exit1)" "exited with 1" "exit 1: a failed workload naming the exit code"
like "$(err missing)" "metric 'wall_s' was never printed" "missing metric: named"
like "$(err garbage)" "'twelve' is not a number for wall_s" "garbage value: named with the line"
like "$(err hang)" "killed after its timeout of 2 s" "hang: killed at its timeout_s"
for w in exit1 missing garbage hang; do
	is "$(n $w)" 0 "$w: no samples"
done

# A changed program is a new run: the run id covers the content hash.
rid1=$(jq -r .run_id "$DOC")
printf '\n' >> "$TMP_T/good/prog"
"$COLLECT" boot --kernel "$KERNEL" --accel tcg --rounds 1 --host t3110 --workloads good \
	--workload-dir "$TMP_T/good" --out "$TMP_T/changed.json" 2>"$TMP_T/changed.err"
is "$?" 0 "the changed program boots clean"
isnt_same=$( [ "$(jq -r '.workload_content.good' "$TMP_T/changed.json")" != "$hash" ] && echo 1 || echo 0)
is "$isnt_same" 1 "a changed program has another content hash"
"$COLLECT" boot --kernel "$KERNEL" --accel tcg --rounds 1 --host t3110 --workloads good \
	--workload-dir "$TMP_T/good" --out "$TMP_T/changed2.json" 2>/dev/null
is "$(jq -r .run_id "$TMP_T/changed2.json")" "$(jq -r .run_id "$TMP_T/changed.json")" "the same program and options: the same run id"
unlike "$(jq -r .run_id "$TMP_T/changed.json")" "^$rid1\$" "... and not the first boot's"

# The example: 16 KiB mTHP always, the mTHP stats recorded, at least 90% of faults 16 KiB folios.
EX="$PWD/$BUILD/workloads/lru-contention"
[ -x "$EX/lru-contention" ] || bail "no $EX (make all)"
# one vCPU: ftrace patching its call sites on a 2-vCPU TCG guest once hit an int3 oops
# (raw_spin_rq_lock_nested, from the migration thread) under load here
"$COLLECT" boot --kernel "$KERNEL" --accel tcg --vcpus 1 --rounds 2 --host t3110 --workload-dir "$EX" --function-profile \
	--workloads lru-contention --out "$TMP_T/example.json" 2>"$TMP_T/example.err"
is "$?" 0 "the example workload boots clean"
is "$(n lru-contention "$TMP_T/example.json")" 2 "example: 2 rounds of wall_s"
alloc=$(jq -r '.results[] | select(.workload == "lru-contention") | .counters[0].mthp_16kB_anon_fault_alloc' "$TMP_T/example.json")
ok "$( [ "${alloc:-0}" -gt 0 ] 2>/dev/null; echo $?)" "example: 16 KiB mTHP faults recorded ($alloc)"
like "$(jq -r '[.profiles[] | select(.workload == "lru-contention") | .function] | join(" ")' "$TMP_T/example.json")" \
	"(^| )handle_mm_fault( |$)" "example: the profiling round covers it like a built-in (its faults' kernel functions)"
diag "example wall_s: $(jq -c '[.results[] | select(.workload == "lru-contention") | .samples[]]' "$TMP_T/example.json")"

# No effect is an error, never a fast result: with 16 KiB mTHP off, the example's check fails.
mkdir -p "$TMP_T/nothp"
cp "$EX/lru-contention" "$TMP_T/nothp/"
sed 's/"16kB": "always"/"16kB": "never"/' "$EX/workload.json" > "$TMP_T/nothp/workload.json"
"$COLLECT" boot --kernel "$KERNEL" --accel tcg --rounds 1 --host t3110 --workload-dir "$TMP_T/nothp" \
	--workloads lru-contention --out "$TMP_T/nothp.json" 2>/dev/null
is "$?" 3 "the example without its 16 KiB mTHP: the boot is not ok"
DOC="$TMP_T/nothp.json"
like "$(err lru-contention)" "check failed: mthp/16kB/anon_fault_alloc grew by 0, less than 0.9 x program/folios_16k_expected" \
	"... its check failed, saying by how much"
is "$(n lru-contention)" 0 "... and no sample"
done_testing
