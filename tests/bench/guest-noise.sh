#!/bin/sh
# Noise of each primary metric of the quick profile on this machine: boots the
# default kernel BOOTS times (TCG unless ACCEL is set) with ROUNDS rounds and
# prints, per metric, the coefficient of variation between boots (of the
# per-boot medians) and within a boot (mean CV of the rounds of one boot).
# These are the numbers to set noise floors and boots per commit from.
set -eu
BUILD=${BUILD:-build}
BOOTS=${BOOTS:-5} ROUNDS=${ROUNDS:-3} ACCEL=${ACCEL:-tcg}
WORKLOADS=${WORKLOADS:-split,mthp,lazyfree,filemap}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
K=$("$BUILD/foliowatch-collect" kernel)
start=$(date +%s)
for b in $(seq 0 $((BOOTS - 1))); do
	"$BUILD/foliowatch-collect" boot --kernel "$K" --accel "$ACCEL" --workloads "$WORKLOADS" --profile quick \
		--rounds "$ROUNDS" --boot-index "$b" --series guest-noise --commit base --db "$T/fw.db" 2>>"$T/boot.log" ||
		echo "guest-noise: boot $b not ok (see status in the DB)"
done
echo "guest-noise: $BOOTS boots x $ROUNDS rounds, accel $ACCEL, $(( $(date +%s) - start )) s"
sqlite3 -separator ' ' "$T/fw.db" "select r.workload || '/' || r.variant || '/' || r.metric, u.boot_index, s.value
	from samples s join results r on r.id = s.result_id join runs u on u.id = r.run_id
	where u.boot_status = 'ok' order by 1, 2" |
/usr/bin/python3 -c '
import sys, statistics as st, collections
d = collections.defaultdict(lambda: collections.defaultdict(list))
for line in sys.stdin:
    m, b, v = line.split()
    d[m][b].append(float(v))
print("%-32s %6s %12s %12s %12s" % ("metric", "boots", "median", "CV between", "CV within"))
for m, boots in sorted(d.items()):
    meds = [st.median(v) for v in boots.values()]
    within = [st.pstdev(v) / st.mean(v) for v in boots.values() if len(v) > 1 and st.mean(v)]
    between = st.pstdev(meds) / st.mean(meds) if len(meds) > 1 and st.mean(meds) else float("nan")
    print("%-32s %6d %12.4g %11.1f%% %11.1f%%" % (m, len(meds), st.median(meds), 100 * between,
          100 * (sum(within) / len(within)) if within else float("nan")))
'
