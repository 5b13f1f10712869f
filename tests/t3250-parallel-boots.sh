#!/bin/bash
# Boots in parallel (issue 27): one kernel booted alone, then twice at once
# (two `boot` processes, each taking a slot of the host lock), under icount.
# The exact counts must be identical and the times within the noise of boots
# of one kernel: 0.1% for split, lazyfree and lru_lock_per_fault, 0.5% (the
# determinism bound) for mthp wall/cpu and filemap (its reader runs in the
# guest and mkfs.xfs rides in the initramfs: no 9p), whose boots started at
# different times differ by up to 0.11% and 0.19%: the guest's clock starts
# from the host's. A parallel boot measures what a lone one does. Prints the wall time of the two at once
# against one alone (a ratio from this run: 2.0 means no gain).
. tests/lib/tap.sh
. tests/lib/kernel.sh
find_kernel
command -v jq >/dev/null || bail "jq missing (ci/install-deps.sh)"
command -v nproc >/dev/null || bail "nproc missing (coreutils)"
WL=split,mthp,lazyfree,filemap
boot() { # out boot-index
	"$COLLECT" boot --kernel "$KERNEL" --accel icount --workloads "$WL" --rounds 2 --host t3250 \
		--boot-index "$2" --timeout 900 --out "$1" > "$1.log" 2>&1
}
t0=$(date +%s.%N)
boot "$TMP_T/alone.json" 0
is "$?" 0 'one boot alone'
t1=$(date +%s.%N)
boot "$TMP_T/par1.json" 1 & p1=$!
boot "$TMP_T/par2.json" 2 & p2=$!
wait $p1; r1=$?
wait $p2; r2=$?
t2=$(date +%s.%N)
is "$r1$r2" 00 'two boots at once'
for f in alone par1 par2; do
	is "$(jq -r .boot.status "$TMP_T/$f.json")" ok "$f: boot status ok"
done
if [ "$(nproc)" -ge 2 ]; then
	# on 2+ CPUs neither waits for the other: each has a slot of its own
	ok "$(! grep -q 'waiting for lock' "$TMP_T/par1.json.log" "$TMP_T/par2.json.log"; echo $?)" \
		'neither boot waited for the host lock (one slot each)'
fi
alone=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
both=$(awk -v a="$t1" -v b="$t2" 'BEGIN { printf "%.1f", b - a }')
diag "wall: one boot alone $alone s, two at once $both s (ratio $(awk -v a="$alone" -v b="$both" 'BEGIN { printf "%.2f", b / a }'); 2.00 = no gain; $(nproc) CPUs, host load $(cut -d' ' -f1 /proc/loadavg))"

# median of a metric's samples in a document (filemap: its 4k variant, listed first)
med() { jq -r --arg w "$2" --arg m "$3" '[.results[] | select(.workload == $w and .metric == $m)][0].samples // [] | sort |
	if length > 0 then .[(length - 1) / 2 | floor] else "none" end' "$1"; }
for wm in split:split_ms split:split_cpu_ms mthp:wall_s mthp:cpu_s lazyfree:reclaim_s mthp:lru_lock_per_fault \
	filemap:bw_mib_s filemap:iops; do
	w=${wm%%:*} m=${wm#*:}
	a=$(med "$TMP_T/alone.json" "$w" "$m") b=$(med "$TMP_T/par1.json" "$w" "$m") c=$(med "$TMP_T/par2.json" "$w" "$m")
	diag "$w $m: alone $a, at once $b and $c"
	# With the host's clock boots started at different times differ a little:
	# up to 0.19% on filemap, 0.11% on mthp cpu_s (guest-notes.md; one CI run
	# here saw cpu_s just past 0.1%). Times get the 0.5% determinism bound, the
	# analysis' own "same"; split (0.000% between boots), lazyfree and the
	# count 0.1%. What this guards: a parallel boot adding noise of its own.
	bound=0.001
	case "$w:$m" in filemap:* | mthp:wall_s | mthp:cpu_s) bound=0.005 ;; esac
	ok "$(awk -v a="$a" -v b="$b" -v c="$c" -v bound="$bound" 'BEGIN {
		if (a == "none" || a + 0 <= 0 && a != b) exit 1
		for (i = 0; i < 2; i++) { x = i ? c : b; d = a - x; if (d < 0) d = -d; if (a > 0 && d / a > bound) exit 1 }
	}'; echo $?)" "$w $m: two boots at once within $(awk -v b="$bound" 'BEGIN { print b * 100 }')% of one alone"
done
# counters are counts: identical
cnt() { jq -c --arg w "$2" '[.results[] | select(.workload == $w) | .counters[]? |
	with_entries(select(.key | test("^(thp_split_pmd|thp_split_page|thp_fault_alloc|pglazyfree|pglazyfreed)$")))]' "$1"; }
for w in split lazyfree; do
	c=$(cnt "$TMP_T/alone.json" $w)
	ok "$([ "$c" != "[]" ] && [ "$c" != "null" ] && [ "$(cnt "$TMP_T/par1.json" $w)" = "$c" ] && [ "$(cnt "$TMP_T/par2.json" $w)" = "$c" ]; echo $?)" \
		"$w: the same THP counters in every round, at once as alone ($c)"
done
. tests/lib/run-schema.sh
check_run_schema 'documents these boots wrote' "$TMP_T/alone.json" "$TMP_T/par1.json" "$TMP_T/par2.json"
# where the wall time went: the phases every boot now records
is "$(jq -r '.boot.phases | [has("kernel_up_s"), has("workloads_s"), has("shutdown_s"), has("profiling_s")] | map(tostring) | join(",")' "$TMP_T/alone.json")" \
	true,true,true,false 'boot.phases: kernel up, workloads, shutdown (no profiling round: none)'
diag "phases of the lone boot: $(jq -c .boot.phases "$TMP_T/alone.json")"
ok "$(jq -e '[.results[] | select(.workload == "filemap")][0].params | .reader == "fw-reader-1" and (.tools | test("^[0-9a-f]{16}$")) and .reads_per_job > 0' "$TMP_T/alone.json" >/dev/null; echo $?)" \
	"filemap params: the reader, the packed tools' hash and its fixed work under icount"
is "$(jq -r '.boot.kernel_cmdline | test("fw.fixed_work=1")' "$TMP_T/alone.json")" true 'icount boots ask for fixed work'
done_testing
