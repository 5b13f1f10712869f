# make test's lanes (sourced by tests/lib/test-lanes.sh): the time record,
# the queues the lanes take tests from, and the summary.
# The record, $BUILD/test-times.tsv, holds each test's last wall time
# ("seconds<TAB>exit<TAB>lane<TAB>test", written by tests/lib/run-one.sh);
# a run writes $BUILD/test-times.run and merges it into the record at its end.

# by_cost RECORD TEST...: the tests, the longest recorded first; a test with
# no record counts as the longest (a new test is not left for the tail).
by_cost() {
	local record=$1
	shift
	[ $# -gt 0 ] || return 0
	printf '%s\n' "$@" | awk -F'\t' -v rec="$record" '
		BEGIN { while ((getline line < rec) > 0) { split(line, f, "\t"); t[f[4]] = f[1] } }
		{ print (($0 in t) ? t[$0] : 1e9) "\t" NR "\t" $0 }' |
		sort -t"$(printf '\t')" -k1,1gr -k2,2n | cut -f3
}

# merge_times RECORD RUN: RUN's lines replace RECORD's for the same tests.
merge_times() {
	[ -s "$2" ] || return 0
	[ -f "$1" ] || : >"$1"
	awk -F'\t' 'FNR == NR { new[$4] = $0; next } !($4 in new) { print } END { for (k in new) print new[k] }' \
		"$2" "$1" >"$1.tmp" && mv "$1.tmp" "$1"
}

# slowest RUN N: the N slowest tests of this run, one line each.
slowest() {
	sort -t"$(printf '\t')" -k1,1gr "$1" | head -n "$2" |
		awk -F'\t' '{ printf "  %8.1f s  lane %s  %s%s\n", $1, $3, $4, ($2 == 0 ? "" : "  (failed)") }'
}

# prove_totals SECONDS FAILED LOG...: one prove-style summary of every prove
# run in the logs (each lane runs many: one per queued test): the sums of their
# "Files=N, Tests=M" lines, then "Result: PASS", "FAIL" (FAILED not 0) or
# "NOTESTS" (no test ran). A missing log counts as none.
prove_totals() {
	local secs=$1 failed=$2
	shift 2
	for f in "$@"; do [ ! -f "$f" ] || cat "$f"; done |
		awk -v s="$secs" -v failed="$failed" '
		/^Files=[0-9]+, Tests=[0-9]+,/ { split($0, a, /[=,]/); files += a[2]; tests += a[4] }
		END {
			if (!failed && files) print "All tests successful."
			printf "Files=%d, Tests=%d, %d wallclock secs\n", files, tests, s
			print "Result: " (failed ? "FAIL" : files ? "PASS" : "NOTESTS")
		}'
}

# A queue: a folder of files, one a test, named in order; a worker claims one
# by renaming it into DIR.taken (atomic: two takers, one wins).
# queue_fill DIR TEST...: a new queue of the tests, in that order
queue_fill() {
	local d=$1 n=0 t
	shift
	rm -rf "$d" "$d.taken"
	mkdir -p "$d" "$d.taken"
	for t in "$@"; do
		n=$((n + 1))
		printf '%s\n' "$t" >"$d/$(printf %04d $n)"
	done
}
# queue_take DIR SKIP: claims the next test not listed in SKIP (words) and
# prints "FILE TEST"; nothing when none is left
queue_take() {
	local f t
	for f in $(ls "$1" 2>/dev/null); do
		t=$(cat "$1/$f" 2>/dev/null) || continue
		case " $2 " in *" $t "*) continue ;; esac
		mv "$1/$f" "$1.taken/$f" 2>/dev/null && { echo "$f $t"; return; }
	done
}
