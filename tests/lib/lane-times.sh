# Test durations for make test's lanes (sourced by tests/lib/test-lanes.sh).
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
