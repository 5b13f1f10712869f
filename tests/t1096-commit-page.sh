#!/bin/bash
# The commit page (issue 29): a build or boot time that was not measured
# shows as unknown, not "0.0 s"; the parent links to its commit page when it
# is measured; console and build logs lose the CR of their CR LF line ends.
. tests/lib/tap.sh
. tests/lib/server.sh

DB=$TMP_T/fw.db
make_doc "$TMP_T/c1.json" build.seconds=DELETE boot.seconds=DELETE \
	'boot.log_tail="[    0.000000] Linux version 6.12\r\n[    1.000000] Run /init\r\n"'
make_doc "$TMP_T/c2.json" commit.sha=ab02000000000000000000000000000000000002 commit.key=ab02 commit.position=2 \
	commit.parent=3b2f6a1c9d8e7f60514253647586970a1b2c3d4e build.seconds=12.5 boot.seconds=3.25
"$SERVER" import -q --db "$DB" "$TMP_T/c1.json" "$TMP_T/c2.json" || bail import
start_server "$DB" || bail "server did not start"

is "$(code /series/example/commit/3b2f6a1c)" 200 'commit page of the first commit'
is "$(grep -o '<th>seconds</th><td><span class="muted">unknown</span>' "$TMP_T/body" | wc -l)" 2 \
	'build and boot seconds not measured: unknown (not 0.0)'
like "$(cat "$TMP_T/body")" 'Linux version 6\.12
\[    1\.000000\] Run /init' 'the console log is there, line by line'
is "$(grep -c $'\r\|\xef\xbf\xbd' "$TMP_T/body")" 0 '... with no CR and no U+FFFD'
is "$(code /series/example/commit/ab02)" 200 'commit page of the second commit'
like "$(cat "$TMP_T/body")" '<th>parent</th><td class="mono"><a href="/series/example/commit/3b2f6a1c9d8e7f60514253647586970a1b2c3d4e">' \
	'its parent links to the parent commit page'
like "$(grep -o '<th>seconds</th><td>[^<]*' "$TMP_T/body" | tr '\n' ' ')" '12\.5 .*3\.2' 'measured seconds are shown'
stop_server
is $? 0 'server exits 0'
done_testing
