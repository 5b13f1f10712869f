#!/bin/bash
# Headless Debian chromium (playwright-core from tests/node) loads / and a
# series page: table, SVG plots, no console errors; screenshots in $BUILD/browser.
. tests/lib/tap.sh
. tests/lib/server.sh

[ -x /usr/bin/chromium ] || skip_all "chromium not installed (ci/install-deps.sh)"
[ -d tests/node/node_modules/playwright-core ] || skip_all "playwright-core not installed (ci/install-deps.sh)"
command -v node >/dev/null || skip_all "node not installed"

DB=$TMP_T/fw.db
make_doc "$TMP_T/c1.json"
make_doc "$TMP_T/c2.json" commit.sha=dddd000000000000000000000000000000000002 \
	commit.key=dddd000000000000000000000000000000000002 commit.position=2 \
	commit.subject='mm: second commit' 'results.0.samples=[58.1, 58.3]' 'results.1.samples=[0.095, 0.094]'
"$SERVER" import -q --db "$DB" "$TMP_T/c1.json" "$TMP_T/c2.json"
is $? 0 'two commits imported'
start_server "$DB" || bail "server did not start"
# The node script prints its own TAP; renumber it into this test's stream.
node tests/node/browser-pages.js "$URL" /series/demo "$PWD/$BUILD/browser" >"$TMP_T/node.tap" 2>"$TMP_T/node.err"
rc=$?
relay_tap "$TMP_T/node.tap" "browser: "
[ -s "$TMP_T/node.err" ] && sed 's/^/# /' "$TMP_T/node.err" | head -20
is "$rc" 0 'browser script exit status'
stop_server
is $? 0 'server exits 0'
done_testing
