# Tiny TAP library for shell tests: source it, call plan/ok/is/..., then done_testing.
# Each test gets its own scratch dir in $TMP_T (removed at exit unless KEEP=1).
set -u
: "${BUILD:=build}"
export BUILD
SERVER="$PWD/$BUILD/foliowatch-server"
COLLECT="$PWD/$BUILD/foliowatch-collect"
TAP_N=0
TAP_FAILED=0
TMP_T=$(mktemp -d "${TMPDIR:-/tmp}/fwtest.XXXXXX")
cleanup_tmp() { [ "${KEEP:-0}" = 1 ] || rm -rf "$TMP_T"; }
trap cleanup_tmp EXIT

ok() { # ok <status> <description>
	TAP_N=$((TAP_N + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $TAP_N - $2"
	else
		echo "not ok $TAP_N - $2"
		TAP_FAILED=$((TAP_FAILED + 1))
	fi
}
is() { # is <got> <expected> <description>
	if [ "$1" = "$2" ]; then ok 0 "$3"; else ok 1 "$3"; echo "#   got: '$1'"; echo "#   expected: '$2'"; fi
}
like() { # like <got> <extended-regex> <description>
	if printf '%s' "$1" | grep -Eq -- "$2"; then ok 0 "$3"; else ok 1 "$3"; echo "#   got: '$1'"; echo "#   expected to match: '$2'"; fi
}
unlike() { # unlike <got> <extended-regex> <description>: no line of got matches
	if ! printf '%s' "$1" | grep -Eq -- "$2"; then ok 0 "$3"; else ok 1 "$3"; echo "#   got: '$1'"; echo "#   expected not to match: '$2'"; fi
}
diag() { echo "# $*"; }
skip_all() { echo "1..0 # SKIP $*"; exit 0; }
bail() { echo "Bail out! $*"; exit 1; }
done_testing() { echo "1..$TAP_N"; [ "$TAP_FAILED" -eq 0 ]; }
# relay_tap FILE [PREFIX]: the TAP a helper script wrote (ok / not ok / # lines),
# renumbered into this test's stream.
relay_tap() {
	local line failing=0
	while IFS= read -r line; do
		case "$line" in
		"ok "*) ok 0 "${2:-}${line#* - }"; failing=0 ;;
		"not ok "*) ok 1 "${2:-}${line#* - }"; failing=1 ;;
		# a failure's details on stderr too: a CI log without -v shows them
		"#"*) echo "$line"; [ $failing = 1 ] && echo "$line" >&2 ;;
		esac
	done <"$1"
}
