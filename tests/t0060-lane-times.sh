#!/bin/bash
# make test's time record (tests/lib/run-one.sh, tests/lib/lane-times.sh):
# run-one.sh records a test's time and keeps its exit code; by_cost orders a
# lane by the record, longest first, a test with no record first; merge_times
# replaces a test's old line; slowest names the N slowest and marks failures;
# the queues hand each test out once; prove_totals sums every lane's prove
# runs. Then test-lanes.sh itself on tests made here: lane B, done first,
# takes lane A's tests but not LANE_A_TREE's, and a failure in it fails the run.
. tests/lib/tap.sh
. tests/lib/lane-times.sh
T=$TMP_T
printf '#!/bin/bash\necho "ok 1 - fine"; echo 1..1\n' >"$T/pass.sh"
printf '#!/bin/bash\necho "not ok 1 - planted"; echo 1..1; exit 1\n' >"$T/fail.sh"

FW_TEST_TIMES=$T/run FW_LANE=Q sh tests/lib/run-one.sh "$T/pass.sh" >/dev/null
is "$?" 0 "run-one.sh: a passing test exits 0 when timed"
FW_TEST_TIMES=$T/run FW_LANE=B sh tests/lib/run-one.sh "$T/fail.sh" >/dev/null
is "$?" 1 "... a failing one keeps its exit code"
is "$(cut -f2-4 "$T/run" | paste -sd' ' -)" "0	Q	$T/pass.sh 1	B	$T/fail.sh" "... each recorded: exit, lane, test"
like "$(cut -f1 "$T/run" | paste -sd' ' -)" '^[0-9]+\.[0-9]{3} [0-9]+\.[0-9]{3}$' "... with its seconds"
sh tests/lib/run-one.sh "$T/pass.sh" >/dev/null
is "$(wc -l <"$T/run")" 2 "... and nothing recorded without FW_TEST_TIMES"

printf '5.0\t0\tA\tb\n9.5\t0\tA\tc\n1.0\t0\tA\td\n' >"$T/rec"
is "$(by_cost "$T/rec" d a b c | paste -sd' ' -)" "a c b d" "by_cost: no record first, then the longest"
is "$(by_cost "$T/none" b a | paste -sd' ' -)" "b a" "... no record at all: the order given"
printf '2.0\t1\tQ\tb\n7.0\t0\tQ\te\n' >"$T/new"
merge_times "$T/rec" "$T/new"
is "$(sort -k4 "$T/rec" | cut -f1,4 | paste -sd' ' -)" "2.0	b 9.5	c 1.0	d 7.0	e" "merge_times: new lines replace old ones"
merge_times "$T/fresh" "$T/new"
is "$(wc -l <"$T/fresh")" 2 "... and start a record that was missing"
out=$(slowest "$T/rec" 2)
like "$out" "^ +9\.5 s  lane A  c" "slowest: the slowest first"
like "$(printf '%s\n' "$out" | sed -n 2p)" "7\.0 s  lane Q  e$" "... then the next"
like "$(slowest "$T/rec" 4)" "b  \(failed\)" "... a failed test marked"

queue_fill "$T/qu" a b c d
is "$(queue_take "$T/qu" "b c")" "0001 a" "queue_take: the first test"
is "$(queue_take "$T/qu" "b c")" "0004 d" "... skipping the listed ones"
is "$(queue_take "$T/qu" "b c")" "" "... nothing when only listed ones are left"
is "$(queue_take "$T/qu" ""; queue_take "$T/qu" ""; queue_take "$T/qu" "")" "0002 b
0003 c" "... each test handed out once"

printf 'Files=1, Tests=13,  0 wallclock secs\nResult: PASS\n' >"$T/l1"
printf 'Files=1, Tests=0,  0 wallclock secs\nResult: NOTESTS\nFiles=2, Tests=7,  3 wallclock secs\n' >"$T/l2"
out=$(prove_totals 99 0 "$T/l1" "$T/l2" "$T/missing")
like "$out" "Files=4, Tests=20, 99 wallclock secs" "prove_totals: every prove run summed"
is "$(printf '%s\n' "$out" | sed -n '1p;$p' | paste -sd'|' -)" "All tests successful.|Result: PASS" "... PASS when none failed"
like "$(prove_totals 9 1 "$T/l1")" "Result: FAIL$" "... FAIL when a lane failed"
is "$(prove_totals 9 0 "$T/missing" | paste -sd'|' -)" "Files=0, Tests=0, 9 wallclock secs|Result: NOTESTS" "... NOTESTS when nothing ran"

# test-lanes.sh on tests of its own: A's first worker holds a slow test while
# B, done first, takes A's others but the tree test, left for A; strace (the lanes' tracer) is not what is
# tested here, so a stand-in runs the command untraced.
mkdir -p "$T/bin" "$T/lt" "$T/lb"
printf '#!/bin/sh\nwhile [ "$1" != -o ]; do shift; done; shift 2; exec "$@"\n' >"$T/bin/strace"
chmod +x "$T/bin/strace"
mk() { # name seconds exit
	printf '#!/bin/bash\nsleep %s; echo "%s 1 - %s"; echo 1..1; exit %s\n' "$2" \
		"$([ "$3" = 0 ] && echo ok || echo not ok)" "$1" "$3" >"$T/lt/$1.sh"
}
mk slow 4 0; mk tree 0.2 0; mk free1 0.2 0; mk free2 0.2 1; mk b1 0 0; mk q1 0 0; mk q2 0 0
: >"$T/kernel"
lanes() {
	# every variable test-lanes.sh reads is set here: make test's own (LANE_Q_BUILD,
	# PREBUILD_DONE, ...) are in the environment when this test runs in its lanes
	(cd "$T/lt" && PATH=$T/bin:$PATH BUILD=$T/lb TRACE_DIR=$T/lb FW_KERNEL=$T/kernel FOLIOWATCH_CACHE=$T/cache \
		LANE_A="slow.sh tree.sh free1.sh free2.sh" LANE_A_TREE="tree.sh" LANE_B="b1.sh" \
		LANE_Q="q1.sh q2.sh" LANE_QP="" LANE_LAST="" LANE_Q_BUILD=$T/lb EXEC_WATCH=/nonexistent \
		PREBUILD_DONE="" PREBUILD_LOG="" COLLECT_BIN=/nonexistent \
		sh "$OLDPWD/tests/lib/test-lanes.sh")
}
mkdir -p "$T/lt/tests/lib" && cp tests/lib/run-one.sh tests/lib/lane-times.sh "$T/lt/tests/lib/"
out=$(lanes 2>&1); rc=$?
is "$rc" 1 "test-lanes.sh: a failed lane-A test fails the run"
like "$out" "kernel tests that failed \(lanes A and A2\): free2.sh" "... and is named"
is "$(awk -F'\t' '$3 == "A" { print $4 }' "$T/lb/test-times.run" | paste -sd' ' -)" "slow.sh tree.sh" \
	"... A's first worker ran the slow test, then the tree test"
is "$(awk -F'\t' '$3 == "A2" { print $4 }' "$T/lb/test-times.run" | sort | paste -sd' ' -)" "free1.sh free2.sh" \
	"... B, done first, took A's others, not the tree test"
like "$(printf '%s\n' "$out" | tail -n 2 | paste -sd'|' -)" "^Files=7, Tests=7, [0-9]+ wallclock secs\\|Result: FAIL$" \
	"... and the run ends in one prove-style total"
done_testing
