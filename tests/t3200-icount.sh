#!/bin/bash
# icount mode is deterministic: guest time is a function of instructions, so a
# timed section repeats between boots. Asserted for the test init's fixed loop
# (plumbing) and for the real split workload (per-boot medians of 3 rounds
# < 0.5% apart over two boots: a single round now and then runs ~0.15% long,
# an interrupt landing inside it, which is why the analysis compares medians).
. tests/lib/tap.sh
. tests/lib/kernel.sh
find_kernel
TINIT="$PWD/$BUILD/tests/fw-test-init"
GINIT="$PWD/$BUILD/guest/fw-init"

first_sample() { jq -r "[.results[] | select(.workload==\"$2\") | .samples // [] | .[]][0] // \"none\"" "$1"; }
# median of the rounds of the first result of workload $2
median_sample() { jq -r "([.results[] | select(.workload==\"$2\")][0].samples // []) | sort | if length > 0 then .[(length - 1) / 2 | floor] else \"none\" end" "$1"; }
within() { # within a b pct: |a-b|/a*100 < pct
	awk -v a="$1" -v b="$2" -v p="$3" 'BEGIN { if (a+0 <= 0) exit 1; d = (a-b)/a*100; if (d < 0) d = -d; exit !(d < p) }'
}

for i in 0 1; do
	"$COLLECT" boot --kernel "$KERNEL" --init "$TINIT" --accel icount --no-virtfs --memory 256 \
		--workloads spin --rounds 1 --host t3200 --boot-index $i --out "$TMP_T/spin$i.json" 2>"$TMP_T/spin$i.err"
	is "$(jq -r .environment.accel "$TMP_T/spin$i.json")" icount "test init boot $i recorded as icount"
done
a=$(first_sample "$TMP_T/spin0.json" spin); b=$(first_sample "$TMP_T/spin1.json" spin)
diag "fixed loop under icount: $a / $b ms"
within "$a" "$b" 0.5; ok $? "fixed loop: two icount boots within 0.5%"

if [ -x "$GINIT" ]; then
	for i in 0 1; do
		"$COLLECT" boot --kernel "$KERNEL" --init "$GINIT" --accel icount --workloads split --rounds 3 \
			--profile quick --host t3200 --boot-index $i --out "$TMP_T/split$i.json" 2>"$TMP_T/split$i.err"
		is "$(jq -r .boot.status "$TMP_T/split$i.json")" ok "split boot $i under icount: status ok"
	done
	a=$(median_sample "$TMP_T/split0.json" split); b=$(median_sample "$TMP_T/split1.json" split)
	diag "split under icount, median of 3 rounds: $a / $b (rounds: $(jq -c '[.results[] | select(.workload=="split")][0].samples' "$TMP_T/split0.json") $(jq -c '[.results[] | select(.workload=="split")][0].samples' "$TMP_T/split1.json"))"
	within "$a" "$b" 0.5; ok $? "split metric: two icount boots within 0.5%"
else
	diag "no $GINIT yet (guest branch not merged): split part skipped"
fi
. tests/lib/run-schema.sh
check_run_schema 'documents these boots wrote' $(ls "$TMP_T"/spin*.json "$TMP_T"/split*.json 2>/dev/null)
done_testing
