#!/bin/bash
# Records repeated boots of one kernel as run documents, the evidence the
# analysis' determinism and noise-floor rules are checked against
# (tests/data/same-kernel-boots/<accel>/): BOOTS boots of the default kernel
# (or KERNEL=bzImage) with ROUNDS rounds of WORKLOADS under ACCEL.
#   tests/bench/record-boots.sh OUTDIR [ACCEL] [BOOTS] [ROUNDS] [WORKLOADS]
set -eu
BUILD=${BUILD:-build}
out=$1 accel=${2:-icount} boots=${3:-5} rounds=${4:-3} workloads=${5:-split,mthp,lazyfree}
mkdir -p "$out"
K=${KERNEL:-$("$BUILD/foliowatch-collect" kernel)}
start=$(date +%s)
for b in $(seq 0 $((boots - 1))); do
	t=$(date +%s)
	"$BUILD/foliowatch-collect" boot --kernel "$K" --accel "$accel" --workloads "$workloads" \
		--profile quick --rounds "$rounds" --boot-index "$b" --host "$(hostname)" \
		--series same-kernel-boots --commit base --out "$out/boot$b.json" 2> "$out/boot$b.err" ||
		echo "record-boots: boot $b failed (see $out/boot$b.err)"
	echo "record-boots: $accel boot $b: $(( $(date +%s) - t )) s, load $(cut -d' ' -f1-3 /proc/loadavg)"
done
rm -f "$out"/boot*.err
echo "record-boots: $boots boots x $rounds rounds ($workloads, $accel): $(( $(date +%s) - start )) s"
