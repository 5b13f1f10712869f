#!/bin/bash
# Guest fidelity (issue 11): the built kernel is one mm developers would run
# (NR_CPUS >= 64, no SLUB_TINY, a KVM guest, symbols and the function
# profiler), every option of the fragment is commented, and the workloads
# measure what the seeds measured: mthp's cpu_s repeats across icount boots
# within the analysis' floor, its lru-lock count is exact, real mTHP
# fallbacks fail the mthp check, and filemap without a memcg limit fails the
# refill check. (The demo patch's effect on the lru-lock count: t4400.)
. tests/lib/tap.sh
. tests/lib/kernel.sh
find_kernel
T0=$(date +%s)
CACHE=${FOLIOWATCH_CACHE:-$HOME/.cache/foliowatch}
CFG=$(dirname "$KERNEL")/.config
[ -f "$CFG" ] || bail "no .config beside $KERNEL"

# --- the built .config ---
nr=$(sed -n 's/^CONFIG_NR_CPUS=//p' "$CFG")
ok "$([ "${nr:-0}" -ge 64 ]; echo $?)" "built .config: NR_CPUS >= 64 ($nr)"
grep -q '^CONFIG_SLUB_TINY=y' "$CFG"; ok "$([ $? -ne 0 ]; echo $?)" "built .config: SLUB_TINY off"
for o in KVM_GUEST PARAVIRT_SPINLOCKS KALLSYMS FUNCTION_PROFILER DYNAMIC_FTRACE KPROBE_EVENTS; do
	grep -qx "CONFIG_$o=y" "$CFG"; ok $? "built .config: $o=y"
done
# Every option of the fragment sits in a block that a comment introduces.
bare=$(awk '/^$/ { c = 0; next } /^CONFIG_|^# CONFIG_.* is not set$/ { if (!c) print; next } /^#/ { c = 1 }' \
	kernel/foliowatch.config)
is "$bare" "" "every option in kernel/foliowatch.config carries a comment saying why"

# Per-boot median of the first result of workload $2 and metric $3 in a run document.
median() { jq -r "([.results[] | select(.workload==\"$2\" and .metric==\"$3\")][0].samples // []) | sort |
	if length > 0 then .[(length - 1) / 2 | floor] else \"none\" end" "$1"; }
spread_pct() { # max/min - 1 over the arguments, in %
	printf '%s\n' "$@" | awk 'NR == 1 { lo = hi = $1 } { if ($1 < lo) lo = $1; if ($1 > hi) hi = $1 }
		END { if (lo <= 0) print 999; else printf "%.3f\n", (hi / lo - 1) * 100 }'
}
lt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 < b + 0) }'; }

# --- mthp under icount: 3 boots of one kernel ---
for i in 0 1 2; do
	"$COLLECT" boot --kernel "$KERNEL" --accel icount --workloads mthp --rounds 3 --profile quick \
		--host t3300 --boot-index $i --out "$TMP_T/mthp$i.json" 2> "$TMP_T/mthp$i.err"
	is "$(jq -r '[.results[] | select(.error)] | length' "$TMP_T/mthp$i.json")" 0 "icount mthp boot $i: no error result"
done
cpu=(); wall=(); lru=()
for i in 0 1 2; do
	cpu+=("$(median "$TMP_T/mthp$i.json" mthp cpu_s)")
	wall+=("$(median "$TMP_T/mthp$i.json" mthp wall_s)")
	lru+=("$(median "$TMP_T/mthp$i.json" mthp lru_lock_per_fault)")
done
diag "icount mthp per-boot medians: cpu_s ${cpu[*]} (spread $(spread_pct "${cpu[@]}")%), wall_s ${wall[*]} (spread $(spread_pct "${wall[@]}")%), lru_lock_per_fault ${lru[*]}"
lt "$(spread_pct "${cpu[@]}")" 0.5; ok $? "cpu_s: 3 icount boots within the 0.5% floor the analysis uses"
lt "$(spread_pct "${wall[@]}")" 0.5; ok $? "wall_s: 3 icount boots within 0.5%"
lt "$(spread_pct "${lru[@]}")" 1; ok $? "lru_lock_per_fault: 3 icount boots within 1% (a count)"
is "$(jq -r '[.results[] | select(.metric=="lru_lock_per_fault")][0].kind' "$TMP_T/mthp0.json")" count "lru_lock_per_fault has kind count"
is "$(jq -r '[.results[] | select(.metric=="user_s" or .metric=="sys_s")] | length' "$TMP_T/mthp0.json")" 0 \
	"user_s and sys_s are no longer metrics"
is "$(jq -r '[.results[] | select(.metric=="cpu_s")][0].counters[0] | has("user_s") and has("sys_s")' "$TMP_T/mthp0.json")" true \
	"user_s and sys_s kept as counters"

# --- real fallbacks: half of the 16 KiB allocations fail (fail_page_alloc) ---
"$COLLECT" boot --kernel "$KERNEL" --accel tcg --workloads mthp --rounds 1 --profile quick \
	--append "fw.mthp_fail_pct=50" --out "$TMP_T/fallback.json" 2> "$TMP_T/fallback.err"
err=$(jq -r '[.results[] | select(.workload=="mthp") | .error // empty][0] // ""' "$TMP_T/fallback.json")
like "$err" "got 16 KiB folios" "mthp with 50% of 16 KiB allocations failing is an error naming the share"
diag "fallback: $err"

# --- filemap without a memcg limit: the refill check must fail ---
"$COLLECT" boot --kernel "$KERNEL" --accel tcg --workloads filemap --rounds 1 --profile quick \
	--append "fw.filemap_limit_mib=0" --out "$TMP_T/nolimit.json" 2> "$TMP_T/nolimit.err"
for v in 4k thp; do
	err=$(jq -r "[.results[] | select(.workload==\"filemap\" and .variant==\"$v\") | .error // empty][0] // \"\"" "$TMP_T/nolimit.json")
	like "$err" "memcg limit never bit" "filemap/$v without a memcg limit fails the refill check"
done

diag "t3300: $(( $(date +%s) - T0 )) s"
. tests/lib/run-schema.sh
check_run_schema 'documents these boots wrote' $(ls "$TMP_T"/mthp*.json "$TMP_T"/fallback.json "$TMP_T"/nolimit.json 2>/dev/null)
done_testing
