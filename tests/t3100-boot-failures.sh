#!/bin/bash
# Boots that go wrong become run documents with the right boot status and no
# samples: a panicking init, an init that never ends, a channel cut short or
# corrupted, a workload error. Uses the tiny test init (tests/data/fw-test-init.c)
# so that each failure is produced on purpose; the real guest is t3xxx's others.
. tests/lib/tap.sh
. tests/lib/kernel.sh
find_kernel
INIT="$PWD/$BUILD/tests/fw-test-init"
[ -x "$INIT" ] || bail "no $INIT (make all)"
DB="$TMP_T/fw.db"

boot() { # boot <name> <fwtest mode> [extra options...]: writes $TMP_T/<name>.json, sets RC
	local name=$1 mode=$2
	shift 2
	"$COLLECT" boot --kernel "$KERNEL" --init "$INIT" --accel tcg --memory 256 \
		--workloads split,mthp --rounds 2 --host t3100 --append "fwtest=$mode" \
		--boot-index "$BI" --out "$TMP_T/$name.json" --db "$DB" "$@" 2>"$TMP_T/$name.err"
	RC=$?
	BI=$((BI + 1))
}
status() { jq -r .boot.status "$TMP_T/$1.json"; }
nsamples() { jq '[.results[].samples // [] | length] | add // 0' "$TMP_T/$1.json"; }
BI=0

boot ok ok
is "$RC" 0 "clean boot exits 0"
is "$(status ok)" ok "clean boot: status ok"
is "$(nsamples ok)" 4 "clean boot: 2 workloads x 2 rounds of samples"
like "$(jq -r .boot.qemu_cmdline "$TMP_T/ok.json")" "-serial file:.*console.log -serial file:.*channel.log" "qemu command line recorded"
is "$(jq -r '.boot.qemu_cmdline | contains("-virtfs")' "$TMP_T/ok.json")" false "... without a 9p share of the host's / (the default)"
like "$(jq -r .boot.kernel_cmdline "$TMP_T/ok.json")" "fw.workloads=split,mthp fw.profile=quick fw.rounds=2" "kernel command line recorded"
like "$(jq -r .environment.qemu_version "$TMP_T/ok.json")" "^[0-9]+\." "qemu version recorded"
diag "clean TCG boot took $(jq .boot.seconds "$TMP_T/ok.json") s"

boot panic exit
is "$RC" 3 "panic: exit 3 (document stored, boot not ok)"
is "$(status panic)" panic "init that exits: status panic"
like "$(jq -r .boot.log_tail "$TMP_T/panic.json")" "Kernel panic" "panic: log tail kept"
is "$(nsamples panic)" 0 "panic: no samples"
# it failed once in a loaded CI run (status not panic, no panic line): keep what it saw
[ "$(status panic)" = panic ] || {
	diag "panic boot: status $(status panic), $(jq .boot.seconds "$TMP_T/panic.json") s"
	jq -r .boot.log_tail "$TMP_T/panic.json" | tail -15 | sed 's/^/#   /'
	sed 's/^/#   stderr: /' "$TMP_T/panic.err"
}

boot rdinit ok --append "fwtest=ok rdinit=/nonexistent"
is "$(status rdinit)" panic "kernel command line rdinit=/nonexistent: status panic"
is "$(nsamples rdinit)" 0 "rdinit panic: no samples"

boot hang hang --timeout 25
is "$(status hang)" timeout "init that never ends: status timeout"
is "$(nsamples hang)" 0 "timeout: no samples"
like "$(cat "$TMP_T/hang.err")" "QEMU killed" "timeout: QEMU was killed"

boot trunc truncate
is "$(status trunc)" error "channel cut short: status error"
is "$(nsamples trunc)" 0 "truncated channel: no samples"
like "$(jq -r '.results[0].error' "$TMP_T/trunc.json")" "truncated" "truncated channel: reason kept"

boot garbage garbage
is "$(status garbage)" error "garbage on the channel: status error"
is "$(nsamples garbage)" 0 "corrupt channel: no samples"
like "$(jq -r '.results[0].error' "$TMP_T/garbage.json")" "corrupt at line [0-9]+: not a record" "corrupt channel: line and reason"

boot werr error
is "$(status werr)" error "workload error record: status error"
is "$(jq -r '[.results[] | select(.workload=="split")][0].error' "$TMP_T/werr.json")" "injected failure" "workload error: message kept, no numbers"
is "$(nsamples werr)" 2 "workload error: the other workload keeps its samples"

# the DB holds the same: samples only from the clean run and the healthy workload
if command -v sqlite3 >/dev/null; then
	is "$(sqlite3 "$DB" 'select count(*) from runs')" 7 "seven runs stored"
	is "$(sqlite3 "$DB" 'select count(*) from samples')" 6 "samples stored only from whole results"
fi
. tests/lib/run-schema.sh
check_run_schema 'documents these boots wrote' $(ls "$TMP_T"/*.json 2>/dev/null)
done_testing
