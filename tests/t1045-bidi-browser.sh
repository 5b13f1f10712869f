#!/bin/bash
# Bidirectional text: a series name with U+202E (right-to-left override) or
# Arabic letters must not reorder the page text after it (the index page's
# "+10.00%" read "%00.01+"). Checked where chromium draws the characters.
. tests/lib/tap.sh
. tests/lib/server.sh

[ -x /usr/bin/chromium ] || skip_all "chromium not installed (ci/install-deps.sh)"
[ -d tests/node/node_modules/playwright-core ] || skip_all "playwright-core not installed (ci/install-deps.sh)"
command -v node >/dev/null || skip_all "node not installed"

DB=$TMP_T/fw.db
for name in "$(printf 'evil\342\200\256abc')" "$(printf 'x \330\271\330\261\330\250\331\212')"; do
	seal_series "$TMP_T/docs" "$name" base:0:-:1:1 c1:1:base:1.1:1 || bail "documents"
done
"$SERVER" import --db "$DB" -q "$TMP_T"/docs/*.sealed
ok $? 'two series with bidirectional names imported (a 10% regression each)'
"$SERVER" regressions --db "$DB" >/dev/null 2>&1
start_server "$DB" || bail "server did not start"
node tests/node/bidi.js "$URL" >"$TMP_T/node.tap" 2>"$TMP_T/node.err"
rc=$?
relay_tap "$TMP_T/node.tap" "browser: "
[ -s "$TMP_T/node.err" ] && sed 's/^/# /' "$TMP_T/node.err" | head -20
is "$rc" 0 'browser script exit status'
code / >/dev/null
is "$(grep -c "$(printf '\342\201\250evil\342\200\256abc\342\201\251')" "$TMP_T/body")" 2 \
	'the name is isolated (FSI ... PDI) in the series table and the regression line'
stop_server
is $? 0 'server exits 0'
done_testing
