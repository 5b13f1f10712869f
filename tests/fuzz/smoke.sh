#!/bin/sh
# Runs each fuzz target for a bounded time on its corpus (and replays saved crashes).
# Prints TAP so it can run under prove as well as from make.
set -u
secs=$1; shift
n=0; failed=0
for bin in "$@"; do
	name=${bin##*/fuzz-}
	corpus=tests/fuzz/corpus/$name
	[ "$name" = resultchan ] && corpus=tests/data/resultchan  # the unit test's captures
	work=$(mktemp -d)
	[ -d "$corpus" ] && cp -r "$corpus"/. "$work"/
	regress=tests/fuzz/regressions/$name
	n=$((n + 1))
	if [ -d "$regress" ] && ! "$bin" -runs=0 "$regress" > "$work.log" 2>&1; then
		echo "not ok $n - $name: saved crash inputs fail again"; failed=$((failed + 1))
		tail -20 "$work.log" | sed 's/^/# /'
	elif "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=1024 -artifact_prefix="$work/" \
		"$work" > "$work.log" 2>&1; then
		echo "ok $n - $name: $(grep -o 'stat::number_of_executed_units: [0-9]*' "$work.log" || tail -1 "$work.log" | cut -c1-80) in ${secs}s"
	else
		echo "not ok $n - $name: crash (input kept in $work)"; failed=$((failed + 1))
		grep -A15 'ERROR' "$work.log" | head -30 | sed 's/^/# /'
		continue
	fi
	rm -rf "$work" "$work.log"
done
echo "1..$n"
[ "$failed" -eq 0 ]
