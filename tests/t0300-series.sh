#!/bin/bash
# Series from a range and from an mbox (git am in a separate worktree), stable
# commit keys across re-applying, and a patch that does not apply named. The am
# worktree has the whole tree in its index and no file checked out (a whole
# kernel checkout took 40-66 s a series); am's commits are still whole.
. tests/lib/tap.sh
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.org GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.org
R=$TMP_T/repo
git init -q "$R" && cd "$R" || bail "git init"
printf 'int a;\n' > mm.c && printf 'other\n' > untouched.c && git add mm.c untouched.c && git commit -qm base
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

# every checkout in the tree's worktrees runs this hook (a light one never does)
printf '#!/bin/sh\necho "$PWD $*" >> %s\n' "$TMP_T/checkouts.log" > "$R/.git/hooks/post-checkout" &&
	chmod +x "$R/.git/hooks/post-checkout"
out1=$($COLLECT series --tree "$R" --base "$base" --mbox "$TMP_T/series.mbox" --worktree "$TMP_T/wt"); rc=$?
is "$rc" 0 "mbox applies in a worktree"
ok "$([ ! -s "$TMP_T/checkouts.log" ]; echo $?)" "on a worktree with nothing checked out: no checkout ran"
is "$(git -C "$R" rev-parse "$(printf '%s\n' "$out1" | sed -n 4p | cut -d' ' -f2)^{tree}")" \
	"$(git -C "$R" rev-parse "$head_before^{tree}")" "... and the last commit's tree is the one the patches were made from"
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

# a rename and a path git quotes ("diff --git \"a/caf\303\251.c\""), never checked out
cd "$R" && git checkout -q -b quoted "$base" && printf 'x\n' > café.c && git add café.c && git commit -qm "add café.c" &&
	qbase=$(git rev-parse HEAD) && printf 'y\n' >> café.c && git commit -qam "mm: touch café.c" &&
	git mv untouched.c moved.c && git commit -qm "mm: rename" && qhead=$(git rev-parse HEAD) &&
	git format-patch -q -M -2 --stdout > "$TMP_T/quoted.mbox" && git checkout -q - && cd - >/dev/null
grep -q '^diff --git "a/' "$TMP_T/quoted.mbox" && grep -q '^rename from untouched.c' "$TMP_T/quoted.mbox" ||
	bail "git did not quote the non-ASCII path or write a rename"
: > "$TMP_T/checkouts.log"   # the checkouts above ran the hook
out=$($COLLECT series --tree "$R" --base "$qbase" --mbox "$TMP_T/quoted.mbox" --worktree "$TMP_T/wtq" 2>&1); rc=$?
is "$rc" 0 "a rename and a quoted path apply"
is "$(git -C "$R" rev-parse "$(printf '%s\n' "$out" | sed -n 3p | cut -d' ' -f2)^{tree}")" \
	"$(git -C "$R" rev-parse "$qhead^{tree}")" "... to the tree they were made from"
ok "$([ ! -s "$TMP_T/checkouts.log" ]; echo $?)" "... with no checkout"

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
