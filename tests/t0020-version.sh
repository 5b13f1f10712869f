#!/bin/bash
# One version everywhere: the build's `git describe` lives in one generated
# object (build/gen/version.c), so both programs, /healthz and a page footer
# say the same (and so does a run document's environment.foliowatch_version,
# written from the same symbol by collector/run-doc-build.c). Before, -DFW_VERSION reached
# only the objects a rebuild happened to recompile: the shipped demo
# documents said 2dc7489-dirty while main was three commits further.
. tests/lib/tap.sh
. tests/lib/server.sh
want=$(sed -n 's/^const char fw_version\[\] = "\(.*\)";$/\1/p' "$BUILD/gen/version.c")
ok "$([ -n "$want" ]; echo $?)" "the build's version: $want"
if git rev-parse --git-dir >/dev/null 2>&1; then
	# the tree may have changed since the build; the commit part must match HEAD
	is "${want%%-*}" "$(git describe --always | sed 's/-dirty$//; s/.*-g//')" "... is HEAD's git describe"
fi
is "$("$SERVER" --version)" "foliowatch-server $want" "foliowatch-server --version"
is "$("$COLLECT" --version)" "foliowatch-collect $want" "foliowatch-collect --version"
DB=$TMP_T/fw.db
"$SERVER" import -q --db "$DB" schema/examples/run-ok.json || bail "import"
start_server "$DB" || bail "server did not start"
code /healthz >/dev/null
is "$(jget "$TMP_T/body" 'd["version"]')" "$want" "/healthz"
code / >/dev/null
like "$(cat "$TMP_T/body")" "<footer>foliowatch $want</footer>" "the pages' footer"
stop_server
done_testing
