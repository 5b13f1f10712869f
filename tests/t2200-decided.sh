#!/bin/bash
# Decided by default (issue 12), on stored documents: series whose every
# commit is the same kernel, with the noise of real boots of one kernel
# (tests/data/same-kernel-boots/{icount,tcg}/*.json, recorded by the collector
# on this machine), measured the way the collector will: 3 boots, then more
# boots for the rows `undecided` lists, every boot recording its look (4 looks,
# at most 32 boots). Checks:
#   - >= 2,000 unchanged metric-commits give at most 1 false alarm per 100
#     (the 95% upper bound, Clopper-Pearson, is printed and must be <= 1%),
#     and no metric has more than 2 per 100 of its own unchanged commits;
#   - the same generator with +2% on an exact metric and +15% on a noisy one
#     finds both in at least 95% of series.
# The real boots are imported too: they are the environments' history. With
# only one of the two folders, what it allows is checked and the rest is
# skipped, saying so (the noisy metric needs TCG boots).
. tests/lib/tap.sh
DATA=${SAME_KERNEL_BOOTS:-tests/data/same-kernel-boots}
[ -x /usr/bin/python3 ] || skip_all "no python3 to generate documents"
ACCELS=""
for a in icount tcg; do
	ls "$DATA/$a"/*.json >/dev/null 2>&1 && ACCELS="$ACCELS $a"
done
[ -n "$ACCELS" ] || skip_all "no real same-kernel boots in $DATA/icount/*.json or $DATA/tcg/*.json (run documents of repeated boots of one kernel recorded by the collector; the test reads its noise from them)"
for a in icount tcg; do
	case " $ACCELS " in *" $a "*) ;; *) diag "no real same-kernel boots in $DATA/$a/*.json: $a is left out" ;; esac
done
GEN="/usr/bin/python3 tests/lib/gen-same-kernel.py"
DB="$TMP_T/db.sqlite"
LOOKS=4
# The boots budget per commit, environment and workload. The TCG boots in
# tests/data were recorded on a host at load 4-7 (filemap 4k: 12% between
# boots, 25% within): there a +15% change was found in 70% of series at 32
# boots a side and 97.5% at 64 (tested at the last look's share of alpha,
# after BH over the series). A quiet runner needs far fewer.
MAXB=${MAXB:-64}
COMMITS=11          # base + 10 unchanged patches per series
DET_SERIES=40

# (sealed first: documents the collector wrote pass unchanged; file names may repeat across the folders)
rc=0
for a in $ACCELS; do
	mkdir -p "$TMP_T/real/$a" && "$SERVER" seal --out-dir "$TMP_T/real/$a" "$DATA/$a"/*.json >/dev/null &&
		"$SERVER" import --db "$DB" -q "$TMP_T/real/$a"/*.json || rc=1
done
ok $rc "imported the real same-kernel boots ($(echo $ACCELS): the history of each environment)"
$GEN spreads "$DATA" > "$TMP_T/spreads.json"
ok $? "read the spreads of the real boots"
/usr/bin/python3 - "$TMP_T/spreads.json" <<'PY'
import json, sys
for accel, a in json.load(open(sys.argv[1])).items():
    for m in a["metrics"]:
        print("# %-6s %-34s between %6.3f%%  within %6.3f%%  (%d boots x %d rounds)%s" % (
            accel, "%s/%s/%s" % (m["workload"], m["variant"], m["metric"]), m["between_cv_pct"],
            m["within_cv_pct"], m["boots"], m["rounds"], "  exact" if m["exact"] else ""))
PY
nmetrics=$(/usr/bin/python3 -c 'import json, sys; print(sum(len(a["metrics"]) for a in json.load(open(sys.argv[1])).values()))' "$TMP_T/spreads.json")
read -r EXACT NOISY <<< "$($GEN pick "$DATA")"
diag "exact metric: $EXACT; noisy metric: $NOISY"
[ "$EXACT" != - ]
ok $? "the real boots have an exact count"

# Seals and imports the documents written since the last call, then removes them.
import_new() { # DIR
	local docs
	docs=$(find "$1" -maxdepth 1 -name '*-*-*-*-*.json' | sort)
	[ -n "$docs" ] || return 0
	rm -rf "$1/sealed" && mkdir "$1/sealed" || return 1
	# shellcheck disable=SC2086
	"$SERVER" seal --out-dir "$1/sealed" $docs >/dev/null || return 1
	"$SERVER" import --db "$DB" -q "$1"/sealed/*.json || return 1
	# shellcheck disable=SC2086
	rm -f $docs
}

# Measures PREFIX-0 .. PREFIX-(N-1) adaptively: look 1 is 3 boots of every commit, then each look
# boots what `undecided` asks for.
measure() { # PREFIX NSERIES NCOMMITS [CHANGE...]
	local prefix=$1 n=$2 nc=$3 dir="$TMP_T/gen-$1" look s added
	shift 3
	$GEN first "$DATA" "$dir" "$prefix" "$n" "$nc" 3 "$LOOKS" "$@" && import_new "$dir" || return 1
	for look in $(seq 2 "$LOOKS"); do
		for s in $(seq 0 $((n - 1))); do
			"$SERVER" undecided --db "$DB" --series "$prefix-$s" --max-looks "$LOOKS" --max-boots "$MAXB" \
				> "$dir/answer-$s.json" || return 1
		done
		added=$($GEN more "$dir" "$look" "$dir"/answer-*.json) || return 1
		diag "$prefix: look $look adds $added boots"
		import_new "$dir" || return 1
	done
}

# --- unchanged series ---
per_series=$(( (COMMITS - 1) * nmetrics ))
FA_SERIES=$(( (2000 + per_series - 1) / per_series ))
start=$(date +%s)
measure fa "$FA_SERIES" "$COMMITS"
ok $? "measured $FA_SERIES unchanged series of $COMMITS commits x $nmetrics metrics"
diag "in $(( $(date +%s) - start )) s"
for s in $(seq 0 $((FA_SERIES - 1))); do
	"$SERVER" report --db "$DB" --series "fa-$s" --format json > "$TMP_T/fa-$s.json" || break
done
ok $? "reports of the unchanged series"
if [ "${VERBOSE:-0}" = 1 ]; then "$SERVER" report --db "$DB" --series fa-0 --verbose | sed 's/^/# /'; fi

/usr/bin/python3 - "$TMP_T" "$FA_SERIES" > "$TMP_T/fa.out" <<'PY'
import glob, json, sys
tmp, n = sys.argv[1], int(sys.argv[2])
rows = []
for i in range(n):
    rows += [r for r in json.load(open("%s/fa-%d.json" % (tmp, i)))["rows"] if r["against"] == "parent"]
fa = [r for r in rows if r["verdict"] in ("regression", "improvement")]
k, N = len(fa), len(rows)
try:
    from scipy.stats import beta
    ub, how = (beta.ppf(0.95, k + 1, N - k) if k < N else 1.0), "Clopper-Pearson"
except ImportError:
    z = 1.6448536269514722
    p = k / N
    ub, how = (p + z*z/(2*N) + z*((p*(1-p)/N + z*z/(4*N*N)) ** 0.5)) / (1 + z*z/N), "Wilson"
print("# %d unchanged metric-commits: %d false alarms (%.2f%%), one-sided 95%% upper bound %.2f%% (%s)" % (
    N, k, 100.0 * k / N, 100 * ub, how))
for r in fa:
    print("#   false alarm: %s %s %s/%s %s %+.2f%% %s (%s)" % (r["sha"][:12], r["accel"], r["workload"], r["variant"],
          r["metric"], r["delta_pct"], r["verdict"], r["mode"]))
by = {}
for r in rows:
    b = by.setdefault((r["accel"], r["workload"], r["variant"], r["metric"]), {"n": 0, "nc": 0, "unsure": 0, "boots": 0})
    b["n"] += 1
    b["nc"] += r["verdict"] == "no change"
    b["unsure"] += r["verdict"] == "unsure"
    b["boots"] += r["b"]["boots"]
    b["mode"] = r["mode"]
for key, b in sorted(by.items()):
    print("#   %-6s %-34s %-13s no change %5.1f%%  unsure %5.1f%%  boots %.1f" % (key[0], "/".join(key[1:]),
          b["mode"], 100.0 * b["nc"] / b["n"], 100.0 * b["unsure"] / b["n"], b["boots"] / b["n"]))
worst = max(by.items(), key=lambda kv: sum(1 for r in fa if (r["accel"], r["workload"], r["variant"], r["metric"]) == kv[0]) / kv[1]["n"])
wk = sum(1 for r in fa if (r["accel"], r["workload"], r["variant"], r["metric"]) == worst[0])
print("# worst metric: %s %s: %d false alarms in %d unchanged commits" % (worst[0][0], "/".join(worst[0][1:]), wk, worst[1]["n"]))
print("N %d" % N)
print("UB %.6f" % ub)
print("WORST %.6f" % (wk / worst[1]["n"]))
PY
ok $? "evaluated the unchanged series"
grep '^#' "$TMP_T/fa.out"
N=$(sed -n 's/^N //p' "$TMP_T/fa.out")
UB=$(sed -n 's/^UB //p' "$TMP_T/fa.out")
ok "$([ "${N:-0}" -ge 2000 ]; echo $?)" "at least 2,000 unchanged metric-commits ($N)"
ok "$(awk -v u="${UB:-1}" 'BEGIN { exit !(u <= 0.01) }'; echo $?)" \
	"at most 1 false alarm per 100 unchanged metric-commits (95% upper bound $UB)"
# Not only on average: a metric the old rule got wrong (a floor from 3 per-boot
# medians of a metric whose boots of one kernel disagree) has its own rate.
WORST=$(sed -n 's/^WORST //p' "$TMP_T/fa.out")
ok "$(awk -v w="${WORST:-1}" 'BEGIN { exit !(w <= 0.02) }'; echo $?)" \
	"... and at most 2 per 100 for every metric (worst $WORST)"

# --- +2% on the exact metric and +15% on the noisy one, at position 1 ---
CHANGES="$EXACT:2@1"
[ "$NOISY" = - ] || CHANGES="$CHANGES $NOISY:15@1"
start=$(date +%s)
# shellcheck disable=SC2086
measure det "$DET_SERIES" 2 $CHANGES
ok $? "measured $DET_SERIES series with +2% on $EXACT$([ "$NOISY" = - ] || echo " and +15% on $NOISY")"
diag "in $(( $(date +%s) - start )) s"
for s in $(seq 0 $((DET_SERIES - 1))); do
	"$SERVER" report --db "$DB" --series "det-$s" --format json > "$TMP_T/det-$s.json" || break
done
ok $? "reports of the changed series"
/usr/bin/python3 - "$TMP_T" "$DET_SERIES" "$EXACT" "$NOISY" > "$TMP_T/det.out" <<'PY'
import json, sys
tmp, n, exact, noisy = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
def name(r):
    return "%s:%s/%s/%s" % (r["accel"], r["workload"], r["variant"], r["metric"])
def found(r):   # a rise: a regression when lower is better, an improvement when higher is
    return r["verdict"] == ("improvement" if r["higher_is_better"] else "regression")
planted = [m for m in (exact, noisy) if m != "-"]
both, seen = 0, {m: 0 for m in planted}
boots = {m: 0 for m in planted}
for i in range(n):
    rows = {name(r): r for r in json.load(open("%s/det-%d.json" % (tmp, i)))["rows"]
            if r["against"] == "parent" and r["position"] == 1}
    hit = [found(rows[m]) for m in planted]
    for m, h in zip(planted, hit):
        seen[m] += h
        boots[m] += rows[m]["b"]["boots"]
    both += all(hit)
    if not all(hit):
        print("#   series det-%d: %s" % (i, ", ".join("%s %+.1f%% %s at %d boots" % (m, rows[m]["delta_pct"],
              rows[m]["verdict"], rows[m]["b"]["boots"]) for m in planted)))
for m in planted:
    print("# %s found in %d of %d series, %.1f boots on average" % (m, seen[m], n, boots[m] / n))
print("# %s found in %d of %d series (%.1f%%)" % (" and ".join(planted), both, n, 100.0 * both / n))
print("RATE %.6f" % (both / n))
PY
ok $? "evaluated the changed series"
grep '^#' "$TMP_T/det.out"
RATE=$(sed -n 's/^RATE //p' "$TMP_T/det.out")
if [ "$NOISY" = - ]; then
	ok "$(awk -v r="${RATE:-0}" 'BEGIN { exit !(r >= 0.95) }'; echo $?)" \
		"+2% on the exact metric found in at least 95% of series ($RATE)"
	echo "ok $((TAP_N + 1)) # SKIP +15% on a noisy metric: no TCG same-kernel boots in $DATA/tcg"
	TAP_N=$((TAP_N + 1))
else
	ok "$(awk -v r="${RATE:-0}" 'BEGIN { exit !(r >= 0.95) }'; echo $?)" \
		"+2% on the exact metric and +15% on the noisy one both found in at least 95% of series ($RATE)"
fi
done_testing
