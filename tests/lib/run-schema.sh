# check_run_schema DESC FILE...: one TAP line, every FILE valid against the
# run document's JSON Schema in server/openapi.json (tests/node/run-schema.js,
# ajv 2020-12); the failing files and ajv's reasons are printed as diagnostics.
# Needs tap.sh; skipped (said so) without node and ajv.
check_run_schema() {
	local desc=$1 out
	shift
	if ! command -v node >/dev/null || [ ! -d tests/node/node_modules/ajv ]; then
		TAP_N=$((TAP_N + 1))
		echo "ok $TAP_N - $desc # SKIP node or ajv not installed (ci/install-deps.sh)"
		return
	fi
	out=$(node tests/node/run-schema.js server/openapi.json check "$@" 2>&1)
	ok $? "$desc: $# run documents valid against the JSON Schema of server/openapi.json"
	grep -A3 '^not ok\|Error' <<<"$out" | head -20 | sed 's/^/# /'
}
