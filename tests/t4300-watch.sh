#!/bin/bash
# Continuous mode: `watch --once` measures the commits that appeared on a
# branch since the last pass, continuing the series' positions, and measures
# nothing when the branch has not moved.
. tests/lib/tap.sh
. tests/lib/kernel.sh
find_kernel
CACHE=${FOLIOWATCH_CACHE:-$HOME/.cache/foliowatch}
TREE=$CACHE/src/linux-source-6.12
BASE=$(git -C "$TREE" rev-parse master)
BR="fw-watch-$$"
DB=$TMP_T/fw.db
SERIES="watch-$$"
cleanup_branch() { git -C "$TREE" branch -q -D "$BR" 2>/dev/null; cleanup_tmp; }
trap cleanup_branch EXIT

# commits land on the branch through a throwaway worktree (the tree's checkout stays on master)
add_commits() {
	local wt=$TMP_T/wt f abs=()
	for f in "$@"; do abs+=("$(realpath "$f")"); done
	light_worktree "$TREE" "$wt" "$BR" && git -C "$wt" -c user.name=t -c user.email=t@x am -q "${abs[@]}"
	local rc=$?
	git -C "$TREE" worktree remove --force "$wt"
	return $rc
}
git -C "$TREE" branch -q "$BR" "$BASE" || bail "branch"
add_commits kernel/series/demo/0003-*.patch || bail "am"
watch() {
	"$COLLECT" watch --tree "$TREE" --branch "$BR" --series "$SERIES" --once --workloads split \
		--accel icount --boots 1 --rounds 1 --budget none --no-profile --db "$DB" --no-report
}
watch > "$TMP_T/w1.log" 2>&1; rc=$?
is "$rc" 0 "first pass measures the branch head and the commit before it"
is "$(sqlite3 "$DB" "select group_concat(position, ',') from (select position from commits order by position)")" "0,1" \
	"positions 0 and 1"
add_commits kernel/series/demo/0002-*.patch || bail "am 2"
watch > "$TMP_T/w2.log" 2>&1; rc=$?
is "$rc" 0 "second pass after a new commit"
like "$(cat "$TMP_T/w2.log")" "1 new commit" "it saw one new commit"
is "$(sqlite3 "$DB" "select group_concat(position, ',') from (select position from commits order by position)")" "0,1,2" \
	"the new commit continues the history at position 2"
is "$(sqlite3 "$DB" "select count(*) from runs")" 3 "the earlier commits were not measured again"
watch > "$TMP_T/w3.log" 2>&1; rc=$?
is "$rc" 0 "a pass with nothing new succeeds"
is "$(sqlite3 "$DB" "select count(*) from runs")" 3 "and measures nothing"
is "$(git -C "$TREE" symbolic-ref HEAD)" "refs/heads/master" "the default tree is back on master"

# `kernel` takes the host lock before it touches the default tree: a series
# holds that lock from each checkout to the end of its build, so neither can
# check out a commit under the other's build.
git -C "$TREE" checkout -q --detach || bail "detach"
flock "$CACHE/lock" sleep 4 & LP=$!
sleep 0.5
"$COLLECT" kernel >"$TMP_T/k.out" 2>"$TMP_T/k.err" & KP=$!
sleep 2
is "$(git -C "$TREE" symbolic-ref -q HEAD || echo detached)" detached "kernel leaves the tree alone while another holds the lock"
wait "$KP"; rc=$?
wait "$LP"
is "$rc" 0 "... and gives the default kernel once the lock is free"
like "$(cat "$TMP_T/k.err")" 'kernel: waiting for lock held by pid' "... saying what it waited for"
is "$(git -C "$TREE" symbolic-ref HEAD)" "refs/heads/master" "... from master"
said_builds
done_testing
