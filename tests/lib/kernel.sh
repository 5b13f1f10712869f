# The default kernel for t3*/t4* tests: $FW_KERNEL, else `foliowatch-collect kernel`,
# which builds Debian's linux-source-6.12 with kernel/foliowatch.config once and
# reuses the cached build afterwards (one build shared by every test). Sets KERNEL.
find_kernel() {
	command -v qemu-system-x86_64 >/dev/null || skip_all "no qemu-system-x86_64 (run ci/install-deps.sh)"
	KERNEL=${FW_KERNEL:-}
	if [ -z "$KERNEL" ]; then
		KERNEL=$("$COLLECT" kernel 2>"$TMP_T/kernel.err") || { tail -20 "$TMP_T/kernel.err" | sed 's/^/# /'; bail "kernel build failed"; }
	fi
	[ -f "$KERNEL" ] || bail "no kernel at '$KERNEL'"
}
# light_worktree TREE DIR REV [FILE...]: a worktree of TREE at REV (a branch or a
# commit, detached when not a branch) with the whole tree in its index and only
# FILE... checked out, the rest marked skip-worktree (commit -a leaves it be):
# git am reads a file missing from the folder from the index. A whole kernel
# checkout took 40-66 s and its removal 18 s.
light_worktree() {
	local tree=$1 dir=$2 rev=$3 detach=
	shift 3
	git -C "$tree" show-ref -q --verify "refs/heads/$rev" || detach=--detach
	git -C "$tree" worktree add -q --no-checkout $detach "$dir" "$rev" &&
		git -C "$dir" read-tree HEAD &&
		git -C "$dir" ls-files -z | git -C "$dir" update-index -z --skip-worktree --stdin || return 1
	[ $# -eq 0 ] || { git -C "$dir" update-index --no-skip-worktree -- "$@" &&
		git -C "$dir" checkout-index -f -- "$@"; }
}
# said_builds: a diag line (TAP and stderr) for each kernel this test's runs built themselves
# (their logs in $TMP_T): make test builds every kernel the tests boot ahead
# (tests/lib/prebuild-kernels.sh), so a line here names one it missed.
said_builds() {
	grep -rhE --include='*.log' 'built [0-9a-f]{12} in [0-9]+ s$' "$TMP_T" 2>/dev/null |
		sed 's/^.*built \([0-9a-f]*\) in \([0-9]*\) s$/# built here, not ahead: \1 (\2 s)/' | sort -u |
		tee /dev/stderr # prove prints a test's stderr: the CI log shows it without -v
}
