#!/bin/bash
# Headless Debian chromium (playwright-core and axe-core from tests/node) loads
# every page type of a series measured in two environments (vm icount, vm tcg)
# with a regression: the verdict matrix, environment names, plots, compare and
# regressions pages, at desktop and phone widths in both colour schemes. Then
# the same series through `foliowatch-server export`: every exported page,
# served by python3's plain static server, in axe-core too (export-pages.js).
# Then the demo's own documents: every page kind at both widths (demo-pages.js).
# Screenshots go to $BUILD/screenshots (kept with the build folder: CI's
# artifacts; or set FW_SHOTS).
. tests/lib/tap.sh
. tests/lib/server.sh

[ -x /usr/bin/chromium ] || skip_all "chromium not installed (ci/install-deps.sh)"
[ -d tests/node/node_modules/playwright-core ] || skip_all "playwright-core not installed (ci/install-deps.sh)"
[ -d tests/node/node_modules/axe-core ] || skip_all "axe-core not installed (ci/install-deps.sh)"
command -v node >/dev/null || skip_all "node not installed"

DB=$TMP_T/fw.db
if [ -n "${FW_SHOTS:-}" ]; then SHOTS=$FW_SHOTS; else SHOTS=$PWD/$BUILD/screenshots; rm -rf "$SHOTS"; fi
mkdir -p "$SHOTS"
# c2 slows split by 10% and filemap by 3% in both environments; c3 brings filemap back;
# c4 slows split twelvefold (a four-digit delta in the matrix).
for env in icount@vm tcg@vm; do
	mkdir -p "$TMP_T/docs/${env%@*}"
	# icount boots carry kernel profiles (c2 slows __split_huge_page): the commit page's
	# attribution and bar plot, and the profile page.
	[ "${env%@*}" = icount ] && export FW_GEN_PROFILE='c2=__split_huge_page*1.5' || unset FW_GEN_PROFILE
	"$PY" tests/lib/gen-series.py "$TMP_T/docs/${env%@*}" demo "$env" 5 base:0:-:1:1 c1:1:base:1:1 \
		c2:2:c1:1.1:0.97:2 c3:3:c2:1.1:1.0 c4:4:c3:13.5:1.0 || bail "gen-series"
done
# v2 of the series: the same measurements again, for the compare page's revision picker.
for f in "$TMP_T"/docs/*/*.json; do
	"$PY" -c 'import json, sys
d = json.load(open(sys.argv[1])); d["series"]["revision"] = 2
json.dump(d, open(sys.argv[2], "w"))' "$f" "${f%.json}.v2.json" || bail "v2 of $f"
done
for f in "$TMP_T"/docs/*/*.json; do "$SERVER" seal "$f" >"$f.sealed" || bail "seal $f"; done
"$SERVER" import -q --db "$DB" "$TMP_T"/docs/*/*.sealed
is $? 0 'a four-commit series in two environments imported (v1 and v2)'
start_server "$DB" || bail "server did not start"
# The node script prints its own TAP; renumber it into this test's stream.
node tests/node/browser-pages.js "$URL" demo "$SHOTS" >"$TMP_T/node.tap" 2>"$TMP_T/node.err"
rc=$?
relay_tap "$TMP_T/node.tap" "browser: "
[ -s "$TMP_T/node.err" ] && sed 's/^/# /' "$TMP_T/node.err" | head -20
is "$rc" 0 'browser script exit status'
is "$(code '/series/demo?vs=bogus')" 400 'series page: a bad ?vs= is a 400'
like "$(cat "$TMP_T/body")" 'vs must be parent or base' '... naming the parameter'
echo "# screenshots: $SHOTS ($(ls "$SHOTS" 2>/dev/null | wc -l) files)"
stop_server
is $? 0 'server exits 0'

"$SERVER" regressions --db "$DB" >/dev/null  # stored regressions: the export's regressions pages and filters
"$SERVER" export --db "$DB" --out "$TMP_T/export" >"$TMP_T/export.log" 2>&1
is $? 0 'the series exported' || sed 's/^/# /' "$TMP_T/export.log"
XPORT=$(free_port)
"$PY" -m http.server --bind 127.0.0.1 --directory "$TMP_T/export" "$XPORT" >"$TMP_T/static.log" 2>&1 &
XPID=$!
for i in $(seq 1 100); do curl -s -o /dev/null "http://127.0.0.1:$XPORT/index.html" && break; sleep 0.1; done
node tests/node/export-pages.js "$TMP_T/export" "http://127.0.0.1:$XPORT" "$SHOTS" >"$TMP_T/export.tap" 2>"$TMP_T/export.err"
rc=$?
kill "$XPID"
wait "$XPID" 2>/dev/null
relay_tap "$TMP_T/export.tap" "export: "
[ -s "$TMP_T/export.err" ] && sed 's/^/# /' "$TMP_T/export.err" | head -20
is "$rc" 0 'export browser script exit status'

# The demo's own documents (tests/data/demo-series): every page kind a reader
# opens at both widths, what moved in the first viewport (issue 56).
"$SERVER" import -q --db "$TMP_T/demo.db" tests/data/demo-series/*.json || bail "import demo"
start_server "$TMP_T/demo.db" || bail "server did not start"
node tests/node/demo-pages.js "$URL" demo "$SHOTS" >"$TMP_T/demo.tap" 2>"$TMP_T/demo.err"
rc=$?
relay_tap "$TMP_T/demo.tap" "demo: "
[ -s "$TMP_T/demo.err" ] && sed 's/^/# /' "$TMP_T/demo.err" | head -20
is "$rc" 0 'demo pages script exit status'
stop_server
done_testing
