#!/bin/bash
# foliowatch-collect run on a real series on the cached default tree (icount,
# split only): one patch that does not build is stored as a failed build and
# the series goes on; the others are measured; running the same command again
# re-applies the mbox with git am (new shas, same patch-id keys) and measures
# nothing twice.
. tests/lib/tap.sh
. tests/lib/kernel.sh
find_kernel
DB=$TMP_T/fw.db
SERIES="t4000-$$"
cat tests/data/series-broken/*.patch > "$TMP_T/series.mbox"
run() {
	"$COLLECT" run --series "$SERIES" --mbox "$TMP_T/series.mbox" --workloads split --profile quick \
		--accel icount --boots 1 --rounds 2 --budget none --db "$DB" "$@"
}

# kernel --mbox builds what run will boot (make test's prebuild did so already:
# then all is cached): one bzImage a commit that builds, the failed one named
"$COLLECT" kernel --mbox "$TMP_T/series.mbox" > "$TMP_T/k.out" 2> "$TMP_T/k.err"; rc=$?
is "$rc" 1 "kernel --mbox: exit 1, a commit of the series does not build"
is "$(grep -c '/bzImage$' "$TMP_T/k.out")" 3 "... a bzImage for the base and each patch that builds"
like "$(cat "$TMP_T/k.err")" "commit [0-9a-f]{12} \(mm/swap: a change that does not build \(test fixture\)\) failed to build" \
	"... the one that does not is named"
is "$(git -C "${FOLIOWATCH_CACHE:-$HOME/.cache/foliowatch}/src/linux-source-6.12" symbolic-ref -q HEAD)" "refs/heads/master" \
	"... and the default tree is back on its branch"

start=$(date +%s)
run > "$TMP_T/run1.log" 2>&1; rc=$?
diag "first run: $(( $(date +%s) - start )) s"
is "$rc" 0 "run completes despite a commit that does not build"
grep -E "^\[|failed to build|does not apply" "$TMP_T/run1.log" | sed 's/^/# /'
is "$(sqlite3 "$DB" 'select count(*) from commits')" 4 "base and three patches stored"
is "$(sqlite3 "$DB" "select b.status || ',' || r.boot_status from runs r join builds b on b.id = r.build_id join commits c on c.id = r.commit_id where c.position = 2")" \
	"failed,not_run" "the broken patch is a failed build, not run"
like "$(sqlite3 "$DB" "select b.log_tail from runs r join builds b on b.id = r.build_id join commits c on c.id = r.commit_id where c.position = 2")" \
	"foliowatch_broken|error" "its build log tail names the compile error"
is "$(sqlite3 "$DB" "select count(*) from runs where boot_status = 'ok'")" 3 "the other three commits booted"
is "$(sqlite3 "$DB" "select count(*) from samples s join results r on r.id = s.result_id where r.metric = 'split_ms'")" 6 \
	"two split samples for each measured commit"
like "$(cat "$TMP_T/run1.log")" "$SERIES v1: 3 patches on [0-9a-f]{12}, each against its parent" "the series table (the cover letter's) is printed at the end"
like "$(cat "$TMP_T/run1.log")" "about [0-9:]+ left" "progress shows an estimate of the time left"
is "$(grep -cE 'built [0-9a-f]{12} in 0 s \(cached\)' "$TMP_T/run1.log")" 3 \
	"run boots the kernels kernel --mbox built: base and two patches cached"
sha1=$(sqlite3 "$DB" "select sha from commits where position = 1")
ids1=$(sqlite3 "$DB" "select run_id from runs order by run_id")

start=$(date +%s)
run > "$TMP_T/run2.log" 2>&1; rc=$?
diag "second run: $(( $(date +%s) - start )) s"
is "$rc" 0 "the same command again succeeds"
is "$(sqlite3 "$DB" "select run_id from runs order by run_id")" "$ids1" "same run ids: nothing measured twice"
is "$(sqlite3 "$DB" 'select count(*) from runs')" 4 "no new runs"
# the progress names each commit it builds: patch 1 by its new sha
am_sha=$(sed -n 's/.*\] build 2\/4 \([0-9a-f]\{12\}\) .*/\1/p' "$TMP_T/run2.log" | head -1)
ok "$([ -n "$am_sha" ] && [ "$am_sha" != "${sha1:0:12}" ]; echo $?)" "the mbox was applied again with new shas ($am_sha vs ${sha1:0:12})"
ok "$(ls "${FOLIOWATCH_CACHE:-$HOME/.cache/foliowatch}/am" 2>/dev/null | grep -q "^t4000-$$"; echo $((1 - $?)))" \
	"no git am checkout left in the cache (a whole kernel tree per series)"
said_builds
done_testing
