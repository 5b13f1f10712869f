#!/bin/sh
# prove --exec helper: shell tests run under bash, unit tests are binaries.
# With FW_TEST_TIMES set (make test's lanes), each test's wall time is
# appended there as "seconds<TAB>exit<TAB>lane<TAB>test": the next run orders
# its lanes by it and the summary names the slowest (tests/lib/lane-times.sh).
run() {
	case "$1" in
	*.sh) bash "$1" ;;
	*) "$1" ;;
	esac
}
if [ -z "${FW_TEST_TIMES:-}" ]; then
	case "$1" in
	*.sh) exec bash "$1" ;;
	*) exec "$1" ;;
	esac
fi
t0=$(date +%s%N)
run "$1"
rc=$?
t1=$(date +%s%N)
printf '%d.%03d\t%d\t%s\t%s\n' $(( (t1 - t0) / 1000000000 )) $(( (t1 - t0) / 1000000 % 1000 )) "$rc" \
	"${FW_LANE:-?}" "$1" >>"$FW_TEST_TIMES"
exit $rc
