#!/bin/bash
# foliowatch-collect run end to end without a kernel (so it runs in the ASan
# pass too): a git tree whose Makefile refuses every target. Each commit is
# recorded as a failed build, the looks find nothing to boot, the run exits
# cleanly and its database stays sound. The end of a run once closed its
# database twice (a use-after-free inside SQLite, which ASan does not see
# because libsqlite3 is not instrumented, and which hung a kernel test in a
# futex): memcheck sees it, in the plain pass.
. tests/lib/tap.sh
. tests/lib/no-kernel-tree.sh
T=$TMP_T/tree
no_kernel_tree "$T" || bail "the tree"
export FOLIOWATCH_CACHE=$TMP_T/cache
for budget in 10m none; do
	out=$("$COLLECT" run --series "nok-$budget" --tree "$T" --range HEAD~1..HEAD --db "$TMP_T/fw.db" \
		--budget "$budget" 2>&1); rc=$?
	is "$rc" 0 "--budget $budget: run exits 0 (failed builds are results, not failures)"
	like "$out" "failed to build; recorded as not_run" "... each failed build said"
	like "$out" "done: 0 boot\(s\) measured" "... no boot"
	like "$out" "no comparable results" "... and the table says there is nothing to compare"
	is "$(sqlite3 "$TMP_T/fw.db" "select count(*) from runs r join commits c on c.id = r.commit_id join series s on s.id = c.series_id where s.name = 'nok-$budget'")" 2 \
		"... two not_run documents stored"
done
is "$(sqlite3 "$TMP_T/fw.db" 'pragma integrity_check')" ok "the database is sound"
out=$("$COLLECT" run --series nok-10m --tree "$T" --range HEAD~1..HEAD --db "$TMP_T/fw.db" 2>&1); rc=$?
is "$rc" 0 "the same run again exits 0"
is "$(sqlite3 "$TMP_T/fw.db" "select count(*) from runs")" 4 "... and stores nothing twice"

case "$BUILD" in
*/asan) diag "memcheck: skipped in the ASan build (valgrind cannot run it)" ;;
*)
	if command -v valgrind >/dev/null; then
		valgrind -q --error-exitcode=99 --leak-check=no "$COLLECT" run --series nok-vg --tree "$T" \
			--range HEAD~1..HEAD --db "$TMP_T/fw.db" --no-report >"$TMP_T/vg.log" 2>&1
		rc=$?
		[ "$rc" = 0 ] || grep -E "Invalid|uninitialised|by 0x|at 0x" "$TMP_T/vg.log" | head -12 | sed 's/^/# /'
		is "$rc" 0 "memcheck: a run end to end reads and frees nothing it should not (99 = memcheck errors)"
	fi ;;
esac
done_testing
