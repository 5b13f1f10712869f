# no_kernel_tree DIR: a git tree of two commits (base, "p1: a") whose Makefile
# refuses every target, so `foliowatch-collect run` records each commit as a
# failed build (not_run documents) without a kernel.
no_kernel_tree() {
	local t=$1
	git init -q "$t" || return 1
	printf 'all:\n\t@echo no kernel here >&2; exit 1\n%%:\n\t@echo no kernel here: $@ >&2; exit 1\n' > "$t/Makefile"
	git -C "$t" add Makefile && git -C "$t" -c user.name=t -c user.email=t@x commit -qm base || return 1
	echo x > "$t/a"
	git -C "$t" add a && git -C "$t" -c user.name=t -c user.email=t@x commit -qm "p1: a"
}
