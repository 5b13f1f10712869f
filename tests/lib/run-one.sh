#!/bin/sh
# prove --exec helper: shell tests run under bash, unit tests are binaries.
# With FW_TEST_TIMES set (make test's lanes), each test's wall time is
# appended there as "seconds<TAB>exit<TAB>lane<TAB>test": the next run orders
# its lanes by it and the summary names the slowest (tests/lib/lane-times.sh).
test=$1
case "$test" in *.sh) set -- bash "$test" ;; esac
[ -n "${FW_TEST_TIMES:-}" ] || exec "$@"
t0=$(date +%s%N)
"$@"
rc=$?
t1=$(date +%s%N)
printf '%d.%03d\t%d\t%s\t%s\n' $(( (t1 - t0) / 1000000000 )) $(( (t1 - t0) / 1000000 % 1000 )) "$rc" \
	"${FW_LANE:-?}" "$test" >>"$FW_TEST_TIMES"
exit $rc
