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
