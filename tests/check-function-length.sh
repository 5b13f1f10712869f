#!/bin/sh
# make check-function-length (run by make test-quick and make test): no C
# function in lib/ schema/ analysis/ server/ collector/ is longer than
# FW_MAX_FUNC_LINES (120) lines, but for the known offenders listed in
# tests/function-length-allowed.txt, each of which may not grow beyond the
# length listed there.
#
# The measure relies on the code style: a function body opens with "{" alone
# at column 0 and closes with "}" at column 0. A function's length counts from
# the first line of its header (the column-0 line naming its return type) to
# that closing brace, both included.
#
# Usage: tests/check-function-length.sh [file.c ...]   (default: the five folders)
# FW_FUNC_ALLOWLIST overrides the allowlist file (the self-test uses it).
set -u
max=${FW_MAX_FUNC_LINES:-120}
allow=${FW_FUNC_ALLOWLIST:-tests/function-length-allowed.txt}
[ -f "$allow" ] || { echo "check-function-length: no allowlist $allow" >&2; exit 2; }
if [ $# -eq 0 ]; then
	set -- $(ls lib/*.c schema/*.c analysis/*.c server/*.c collector/*.c 2>/dev/null)
fi
[ $# -gt 0 ] || { echo "check-function-length: no C files" >&2; exit 2; }

# One line per function: "file function length".
measure() {
	awk '
	FNR == 1 { hdr = 0; infn = 0 }
	infn {
		if ($0 ~ /^}/) {
			print FILENAME, name, FNR - start + 1
			infn = 0; hdr = 0
		}
		next
	}
	/^\{/ {
		if (hdr) {
			name = text
			sub(/\(.*/, "", name)
			n = split(name, w, /[^A-Za-z0-9_]+/)
			name = w[n]
			if (name == "") name = "?"
			start = hstart; infn = 1
		}
		next
	}
	/^[ \t]*$/ || /^#/ || /;[ \t]*$/ || /^}/ || /\*\/[ \t]*$/ { hdr = 0; next }
	/^[A-Za-z_]/ { if (!hdr) { hdr = 1; hstart = FNR; text = "" } }
	hdr { text = text " " $0 }
	' "$@"
}

out=$(measure "$@") || exit 2
fail=0
echo "$out" | awk -v max="$max" -v allow="$allow" '
BEGIN {
	while ((getline l < allow) > 0) {
		if (l ~ /^[ \t]*(#|$)/) continue
		split(l, f, /[ \t]+/)
		lim[f[1] " " f[2]] = f[3]
	}
}
NF == 3 {
	key = $1 " " $2
	seen[key] = 1
	if (key in lim) {
		if ($3 + 0 > lim[key] + 0) {
			printf "check-function-length: %s: %s is %d lines, grew beyond its allowed %d (tests/function-length-allowed.txt): split it\n", $1, $2, $3, lim[key]
			bad = 1
		} else if ($3 + 0 < lim[key] + 0)
			printf "check-function-length: note: %s: %s is now %d lines (allowlist says %d): lower or drop its entry\n", $1, $2, $3, lim[key]
	} else if ($3 + 0 > max + 0) {
		printf "check-function-length: %s: %s is %d lines, over %d: split it (or, for a reason, list it in tests/function-length-allowed.txt)\n", $1, $2, $3, max
		bad = 1
	}
	n++
}
END {
	if (bad) exit 1
	printf "check-function-length: ok (%d functions, at most %d lines but for %d listed)\n", n, max, length(lim)
}' || fail=1
exit $fail
