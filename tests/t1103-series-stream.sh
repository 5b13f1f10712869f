#!/bin/bash
# The whole series answer of a long window is streamed (issue 31): GET
# /api/v1/series/{name}?from=0 of 150 commits is written window by window
# (no Content-Length, chunked) and must be the very answer the one-buffer
# path gives for the same commits (?metrics= naming every workload takes that
# path): same keys in the same order, same numbers, verdicts, environment
# keys and change points. A window of 100 or fewer commits is one buffer as
# before (Content-Length).
. tests/lib/tap.sh
. tests/lib/server.sh

DB=$TMP_T/fw.db
# shellcheck disable=SC2086
import_series "$DB" "$TMP_T/gen" long icount 2 $(step_specs 149 120) || bail import
start_server "$DB" || bail "server did not start"

is "$(code '/api/v1/series/long?from=0')" 200 'GET /api/v1/series/long?from=0: 150 commits'
cp "$TMP_T/body" "$TMP_T/streamed.json"
ok "$(! grep -qi '^content-length:' "$TMP_T/headers"; echo $?)" '... streamed: no Content-Length'
like "$(grep -i '^transfer-encoding:' "$TMP_T/headers")" 'chunked' '... chunked'
is "$(jq '.commits | length' "$TMP_T/streamed.json")" 150 '... every commit'
is "$(code '/api/v1/series/long?from=0&metrics=split,filemap')" 200 'the same commits with every metric selected (one buffer)'
ok "$(grep -qi '^content-length:' "$TMP_T/headers"; echo $?)" '... has a Content-Length'
same=$("$PY" -c 'import json, sys
a = json.load(open(sys.argv[1]), object_pairs_hook=list)
b = json.load(open(sys.argv[2]), object_pairs_hook=list)
print("same" if a == b else "differ")' "$TMP_T/streamed.json" "$TMP_T/body")
is "$same" same '... the same answer, key for key, in the same order'
is "$(jq -r '[.commits[] | .metrics[] | select(.verdict == "regression") | .metric] | unique | join(",")' "$TMP_T/streamed.json")" \
	"split/pmd-to-0/split_ms" '... with the analysis in it (the step at 120 a regression)'
is "$(jq -r '[.change_points[].position] | join(",")' "$TMP_T/streamed.json")" 120 '... and the change point'
is "$(code '/api/v1/series/long?from=50&to=149')" 200 'a window of 100 commits'
ok "$(grep -qi '^content-length:' "$TMP_T/headers"; echo $?)" '... one buffer (Content-Length)'
is "$(code '/api/v1/series/long')" 200 'no window asked: the newest 100'
is "$(jq '.commits | length' "$TMP_T/body")" 100 '... 100 commits, one buffer'
stop_server
done_testing
