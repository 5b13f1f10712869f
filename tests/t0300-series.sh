#!/bin/bash
# Series from a range and from an mbox (git am in a separate worktree), stable
# commit keys across re-applying, and a patch that does not apply named.
. tests/lib/tap.sh
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.org GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.org
R=$TMP_T/repo
git init -q "$R" && cd "$R" || bail "git init"
printf 'int a;\n' > mm.c && git add mm.c && git commit -qm base
base=$(git rev-parse HEAD)
for i in 1 2 3; do printf 'int p%d;\n' $i >> mm.c; git commit -qam "mm: patch $i <\$(touch x)>"; done
git format-patch -q -3 -o "$TMP_T/patches" HEAD
cat "$TMP_T"/patches/*.patch > "$TMP_T/series.mbox"
head_before=$(git rev-parse HEAD)
cd - >/dev/null

out=$($COLLECT series --tree "$R" --range "$base..HEAD"); rc=$?
is "$rc" 0 "range resolves"
is "$(printf '%s\n' "$out" | wc -l)" 4 "base plus three commits"
like "$(printf '%s\n' "$out" | head -1)" "^0 $base $base base$" "base first, keyed by its sha"
like "$(printf '%s\n' "$out" | sed -n 4p)" "^3 [0-9a-f]{40} [0-9a-f]{40} mm: patch 3 <\\\$\(touch x\)>$" "subjects verbatim, oldest first"

out1=$($COLLECT series --tree "$R" --base "$base" --mbox "$TMP_T/series.mbox" --worktree "$TMP_T/wt"); rc=$?
is "$rc" 0 "mbox applies in a worktree"
is "$(printf '%s\n' "$out1" | wc -l)" 4 "base plus three patches from the mbox"
like "$(printf '%s\n' "$out1" | sed -n 2p)" "^1 [0-9a-f]{40} patch-id:[0-9a-f]{40}\+$base mm: patch 1" "patch keyed by patch-id and base"
is "$(git -C "$R" rev-parse HEAD)" "$head_before" "user's checkout untouched"
ok "$([ -e "$R/x" ] || [ -e x ]; echo $((1 - $?)))" "subject text never executed"
# the checkout git am ran in is gone (a kernel tree each), its commits are not
ok "$([ ! -e "$TMP_T/wt" ]; echo $?)" "the git am checkout is removed once the series is read"
is "$(git -C "$R" worktree list --porcelain | grep -c '^worktree ')" 1 "... and unregistered from the tree"
is "$(git -C "$R" cat-file -t "$(printf '%s\n' "$out1" | sed -n 4p | cut -d' ' -f2)")" commit "... while its commits stay in the tree's objects"
sleep 1   # another committer date: new shas, same keys
out2=$($COLLECT series --tree "$R" --base "$base" --mbox "$TMP_T/series.mbox" --worktree "$TMP_T/wt"); rc=$?
is "$rc" 0 "mbox applies again"
ok "$([ "$(printf '%s\n' "$out2" | sed -n 2p | cut -d' ' -f2)" != "$(printf '%s\n' "$out1" | sed -n 2p | cut -d' ' -f2)" ]; echo $?)" "re-applied patches get new shas"
is "$(printf '%s\n' "$out2" | awk '{print $3}')" "$(printf '%s\n' "$out1" | awk '{print $3}')" "same commit keys when re-applied"

# a patch that does not apply: named, aborted, nothing returned
cd "$R" && git checkout -q -b other "$base" && printf 'int zzz;\n' > mm.c && git commit -qam "diverge" && other=$(git rev-parse HEAD) && git checkout -q - && cd - >/dev/null
out=$($COLLECT series --tree "$R" --base "$other" --mbox "$TMP_T/series.mbox" --worktree "$TMP_T/wt2" 2>&1); rc=$?
is "$rc" 1 "mbox that does not apply fails"
like "$out" "patch 1/3 does not apply: \[PATCH 1/3\] mm: patch 1" "failing patch named by number and subject"
ok "$([ ! -e "$TMP_T/wt2" ] && [ ! -e "$R/.git/worktrees/wt2" ]; echo $?)" "am aborted and its checkout removed (no rebase-apply left behind)"

out=$($COLLECT series --tree "$R" --range "nonsense" 2>&1); rc=$?
is "$rc" 1 "bad range fails"
like "$out" "BASE..HEAD" "bad range explained"
done_testing
