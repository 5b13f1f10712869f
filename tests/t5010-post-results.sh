#!/bin/bash
# ci/post-results.sh (issue 56) against a real server on loopback: stores a
# sealed document, says "unchanged" for it again, prints the server's own
# error for a document it refuses and for a token it does not know, and does
# not start without a token (an empty or missing file: exit 2, saying why).
. tests/lib/tap.sh
. tests/lib/server.sh
DB=$TMP_T/fw.db
"$SERVER" seal schema/examples/run-ok.json >"$TMP_T/ok.json" || bail "seal"
printf '{"schema_version": 1, "series": ' >"$TMP_T/bad.json"
start_server "$DB" || bail "server did not start"
"$SERVER" token add ci --db "$DB" 2>/dev/null | tail -n1 >"$TMP_T/token"
[ -s "$TMP_T/token" ] || bail "token"

out=$(sh ci/post-results.sh "$URL" "$TMP_T/token" "$TMP_T/ok.json" 2>&1); rc=$?
is "$rc:$out" "0:stored $TMP_T/ok.json" 'a sealed document: stored'
out=$(sh ci/post-results.sh "$URL" "$TMP_T/token" "$TMP_T/ok.json" 2>&1); rc=$?
is "$rc:$out" "0:unchanged $TMP_T/ok.json" '... again: unchanged'
out=$(sh ci/post-results.sh "$URL" "$TMP_T/token" "$TMP_T/bad.json" 2>&1); rc=$?
is "$rc" 1 'a malformed document: exit 1'
like "$out" "^rejected $TMP_T/bad.json: HTTP 400 [a-z_]+: .+" '... with the server'"'"'s code and words, not only the status'
echo nope >"$TMP_T/wrong"
out=$(sh ci/post-results.sh "$URL" "$TMP_T/wrong" "$TMP_T/ok.json" 2>&1); rc=$?
like "$rc:$out" "^1:rejected $TMP_T/ok.json: HTTP 401 [a-z_]+: .+" 'an unknown token: the server'"'"'s 401 and why'
: >"$TMP_T/empty"
out=$(sh ci/post-results.sh "$URL" "$TMP_T/empty" "$TMP_T/ok.json" 2>&1); rc=$?
is "$rc" 2 'an empty token file: exit 2, nothing posted'
like "$out" "no token in '$TMP_T/empty'" '... saying so'
out=$(sh ci/post-results.sh "$URL" "$TMP_T/missing" "$TMP_T/ok.json" 2>&1); rc=$?
is "$rc" 2 'a missing token file: exit 2'
is "$(sqlite3 "$DB" 'select count(*) from runs')" 1 'one run stored in all'
stop_server
done_testing
