# Finds the kernel for t3*/t4* tests: $FW_KERNEL, else the newest cached build
# (${FOLIOWATCH_CACHE:-$HOME/.cache/foliowatch}/kernels/*/bzImage). Sets KERNEL or skips.
find_kernel() {
	KERNEL=${FW_KERNEL:-}
	if [ -z "$KERNEL" ]; then
		KERNEL=$(ls -t "${FOLIOWATCH_CACHE:-$HOME/.cache/foliowatch}"/kernels/*/bzImage 2>/dev/null | head -n 1)
	fi
	[ -n "$KERNEL" ] && [ -f "$KERNEL" ] || skip_all "no kernel (build one with foliowatch-collect kernel, or set FW_KERNEL)"
}
