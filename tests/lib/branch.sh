# A throwaway branch of the default tree with a light worktree, for the kernel
# tests that watch or bisect one (t4600, t4610): branch_setup NAME sets TREE,
# BASE (the tree's master), BR (NAME-PID) and WT, removes both at exit, and
# gives gitw (git in the worktree as a test author) and doc_commit TEXT (a
# documentation-only commit: no object of the kernel changes).
branch_setup() {
	CACHE=${FOLIOWATCH_CACHE:-$HOME/.cache/foliowatch}
	TREE=$CACHE/src/linux-source-6.12
	BASE=$(git -C "$TREE" rev-parse master)
	BR="$1-$$"
	WT=$TMP_T/wt
	trap cleanup_branch EXIT
	git -C "$TREE" branch -q "$BR" "$BASE" || bail "branch"
	# the files the tests edit checked out, the rest only in the index (tests/lib/kernel.sh)
	light_worktree "$TREE" "$WT" "$BR" Documentation/mm/transhuge.rst mm/huge_memory.c || bail "worktree"
}
cleanup_branch() {
	git -C "$TREE" worktree remove --force "$WT" 2>/dev/null
	git -C "$TREE" branch -q -D "$BR" 2>/dev/null
	cleanup_tmp
}
gitw() { git -C "$WT" -c user.name=t -c user.email=t@x "$@"; }
doc_commit() {
	echo ".. foliowatch test note $1" >> "$WT/Documentation/mm/transhuge.rst" && gitw commit -q -am "docs: note $1"
}
