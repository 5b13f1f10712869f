#!/bin/bash
# make test's time record (tests/lib/run-one.sh, tests/lib/lane-times.sh):
# run-one.sh records a test's time and keeps its exit code; by_cost orders a
# lane by the record, longest first, a test with no record first; merge_times
# replaces a test's old line; slowest names the N slowest and marks failures.
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
done_testing
