#!/bin/bash
# The regressions API over HTTP: GET /api/v1/regressions (filters, refreshed
# from the analysis), POST /api/v1/regressions/{id} lifecycle with the Bearer
# token: 401 without or with a bad token, 400 naming the field on a bad
# status/by/body, 404 for an unknown id, 405 for other methods; every 401
# says WWW-Authenticate: Bearer. GET /api/v1/regressions/{id}: found (with its
# history), not found, bad id. Regression JSON: URLs (links.*) that answer,
# no internal ids, numbers rounded like every answer.
. tests/lib/tap.sh
. tests/lib/server.sh
DB="$TMP_T/fw.db"

import_series "$DB" "$TMP_T/docs" s1 tcg 5 base:0:-:1:1 c1:1:base:1:1 c2:2:c1:1.1:1.1:2
ok $? 'series s1 imported (a 10% split regression at c2)'
TOK=$("$SERVER" token add ci --scopes ingest,triage --db "$DB")
start_server "$DB" || bail "server did not start"

is "$(code /api/v1/regressions)" 200 'GET regressions'
is "$(jget "$TMP_T/body" 'len(d["regressions"])')" 1 '... the analysis found one (refreshed on read)'
ID=$(jget "$TMP_T/body" 'd["regressions"][0]["id"]')
is "$(jget "$TMP_T/body" 'd["regressions"][0]["status"] + " " + d["regressions"][0]["metric"] + " " + d["regressions"][0]["sha"][:4]')" 'new split_ms c2c2' '... new, split_ms at c2'
# Numbers rounded like every answer (README: percentages to 0.001, p/q to 3
# significant digits), URLs instead of internal ids.
R0='d["regressions"][0]'
is "$(jget "$TMP_T/body" "round($R0[\"delta_pct\"], 3) == $R0[\"delta_pct\"] and len(repr($R0[\"delta_pct\"]).split('.')[-1]) <= 3")" True '... delta_pct to 0.001'
is "$(jget "$TMP_T/body" "float('%.3g' % $R0[\"p_value\"]) == $R0[\"p_value\"]")" True '... p_value to 3 significant digits'
is "$(jget "$TMP_T/body" "'commit_id' in $R0")" False '... no internal commit_id'
is "$(jget "$TMP_T/body" "$R0[\"links\"][\"commit\"]")" "/series/s1/commit/$(printf 'c2%.0s' $(seq 20))?revision=1" '... links.commit is the commit page'
for k in self commit metric plot trend; do
	is "$(code "$(jget "$TMP_T/body" "$R0[\"links\"][\"$k\"]")")" 200 "... links.$k answers 200"
	code /api/v1/regressions >/dev/null
done

is "$(code "/api/v1/regressions/$ID")" 200 'GET one regression'
is "$(jget "$TMP_T/body" 'd["id"], d["metric"], d["status"], len(d["history"])')" "($ID, 'split_ms', 'new', 1)" '... that one, new, found by the analysis'
is "$(code /api/v1/regressions/999999)" 404 'GET an unknown id: 404'
is "$(jget "$TMP_T/body" 'd["error"]["field"]')" id '... names the field id'
for bad in abc 0 -1 1x; do
	is "$(code "/api/v1/regressions/$bad")" 400 "GET id '$bad': 400"
done
is "$(jget "$TMP_T/body" 'd["error"]["field"]')" id '... names the field id'
is "$(code '/api/v1/regressions?series=s1&status=new')" 200 'filter series + status'
is "$(jget "$TMP_T/body" 'len(d["regressions"])')" 1 '... one new'
code '/api/v1/regressions?status=fixed' >/dev/null
is "$(jget "$TMP_T/body" 'len(d["regressions"])')" 0 '... none fixed'
is "$(code '/api/v1/regressions?series=nope')" 404 'an unknown series: 404, not an empty list a gate would pass on'
is "$(jget "$TMP_T/body" '(d["error"]["code"], d["error"]["field"])')" "('not_found', 'series')" '... naming the field'
is "$(code '/api/v1/regressions?status=bogus')" 400 'bad status filter: 400'
is "$(jget "$TMP_T/body" 'd["error"]["field"]')" status '... names the field'

setst() { # setst ID BODY [curl args]: prints the status
	local id=$1 body=$2
	shift 2
	code "/api/v1/regressions/$id" -X POST -H 'Content-Type: application/json' --data-binary "$body" "$@"
}
is "$(setst "$ID" '{"status":"acknowledged","by":"alice"}')" 401 'POST without a token: 401'
is "$(jget "$TMP_T/body" 'd["error"]["field"]')" Authorization '... names Authorization'
grep -qx 'WWW-Authenticate: Bearer' <(tr -d '\r' <"$TMP_T/headers")
ok $? '... with WWW-Authenticate: Bearer'
is "$(setst "$ID" '{"status":"acknowledged"}' -H 'Authorization: Bearer nope')" 401 'POST with a bad token: 401'
grep -qx 'WWW-Authenticate: Bearer' <(tr -d '\r' <"$TMP_T/headers")
ok $? '... with WWW-Authenticate: Bearer'
is "$(code /api/v1/runs -X POST --data-binary '{}')" 401 'POST /api/v1/runs without a token: 401'
grep -qx 'WWW-Authenticate: Bearer' <(tr -d '\r' <"$TMP_T/headers")
ok $? '... with WWW-Authenticate: Bearer'
AUTH="Authorization: Bearer $TOK"
is "$(setst "$ID" '{"status":"gone"}' -H "$AUTH")" 400 'bad status: 400'
is "$(jget "$TMP_T/body" 'd["error"]["field"]')" status '... names the field status'
is "$(setst "$ID" '{"by":"alice"}' -H "$AUTH")" 400 'missing status: 400'
is "$(jget "$TMP_T/body" 'd["error"]["field"]')" status '... names the field status'
is "$(setst "$ID" '{"status":"fixed","by":7}' -H "$AUTH")" 400 'by not a string: 400'
is "$(jget "$TMP_T/body" 'd["error"]["field"]')" by '... names the field by'
is "$(setst "$ID" 'not json' -H "$AUTH")" 400 'body not JSON: 400'
is "$(setst 999999 '{"status":"fixed"}' -H "$AUTH")" 404 'unknown id: 404'
is "$(jget "$TMP_T/body" 'd["error"]["field"]')" id '... names the field id'
is "$(setst abc '{"status":"fixed"}' -H "$AUTH")" 400 'non-numeric id: 400, as GET answers it'
is "$(code "/api/v1/regressions/$ID" -X DELETE)" 405 'DELETE: 405'

is "$(setst "$ID" '{"status":"acknowledged","by":"alice"}' -H "$AUTH")" 200 'acknowledge (by alice)'
code "/api/v1/regressions?series=s1" >/dev/null
is "$(jget "$TMP_T/body" 'd["regressions"][0]["status"] + " " + d["regressions"][0]["status_by"]')" 'acknowledged alice' '... stored with who'
is "$(setst "$ID" '{"status":"invalid"}' -H "$AUTH")" 200 'invalid without "by"'
code "/api/v1/regressions/$ID" >/dev/null
is "$(jget "$TMP_T/body" '[(h["status"], h["by"]) for h in d["history"]]')" "[('new', 'analysis'), ('acknowledged', 'alice'), ('invalid', 'ci')]" '... its history: found, then every change (acknowledged by alice, invalid by the token ci)'
code "/api/v1/regressions?status=invalid" >/dev/null
is "$(jget "$TMP_T/body" 'd["regressions"][0]["status_by"]')" ci '... recorded as the token name'
is "$(sqlite3 "$DB" "SELECT status FROM regressions WHERE id = $ID")" invalid '... in the DB'
code "/api/v1/regressions" >/dev/null
is "$(jget "$TMP_T/body" 'len(d["regressions"])')" 1 'a refresh does not duplicate or reopen it'
is "$(setst "$ID" '{"status":"new","by":"bob"}' -H "$AUTH")" 200 'reopen'
"$SERVER" regressions --db "$DB" --fail-on new >/dev/null
is $? 1 '... and the CI gate sees it as new again'

"$SERVER" regressions --db "$DB" --json >"$TMP_T/cli.json"
is "$(jget "$TMP_T/cli.json" '[("commit_id" in g, g["links"]["self"]) for g in d]')" "[(False, '/api/v1/regressions/$ID')]" \
	'regressions --json: the same form, links and no internal ids'
curl -s "$URL/api/v1/regressions" >"$TMP_T/api.json"
is "$(jget "$TMP_T/cli.json" 'd == json.load(open("'"$TMP_T/api.json"'"))["regressions"]')" True '... equal to the API answer'
# The HTML page: the same list, filtered by query parameters.
is "$(code '/regressions?series=s1&status=new')" 200 'regressions page, filtered'
is "$(grep -c '<tr><td class="card-title">' "$TMP_T/body")" 1 '... one row'
like "$(cat "$TMP_T/body")" 'href="/series/s1/commit/c2c2' '... linking its commit'
like "$(cat "$TMP_T/body")" 'href="/series/s1/metric/split/pmd-to-0/split_ms\?env=' '... and its metric page'
is "$(code '/regressions?status=fixed')" 200 'no fixed one'
like "$(cat "$TMP_T/body")" 'id="none"' '... says none matches'
is "$(code '/regressions?status=bogus')" 400 'a bad status: 400'
like "$(cat "$TMP_T/body")" 'status must be one of' '... as a page naming what is wrong'

# The CI gate script against this live server: one readable line per regression.
DELTA=$(jget "$TMP_T/api.json" '"%+.1f" % d["regressions"][0]["delta_pct"]')
gate=$(FOLIOWATCH_REPORT_MD=$TMP_T/gate.md sh ci/gate.sh "$URL" s1); rc=$?
is "$rc" 1 'ci/gate.sh: exit 1 on a new regression'
like "$gate" "^  split/pmd-to-0 split_ms \\$DELTA% at c2c2c2c2c2c2 \(regression $ID: $URL/api/v1/regressions/$ID\)\$" \
	'... one line naming workload, metric, delta, commit and its link'
is "$(setst "$ID" '{"status":"acknowledged","by":"bob"}' -H "$AUTH")" 200 'acknowledged again'
like "$(head -1 "$TMP_T/gate.md")" '^### foliowatch: s1 v1' '... with FOLIOWATCH_REPORT_MD, what moved written as Markdown first'
is "$(sh ci/gate.sh "$URL" s1; echo "rc $?")" "gate: no new regressions in series s1
rc 0" '... then the gate passes'
gate=$(sh ci/gate.sh "$URL" s1-typo 2>&1); rc=$?
is "$rc" 2 'ci/gate.sh on a mistyped series: exit 2, not a pass'
is "$gate" "gate: no such series 's1-typo' on $URL" '... naming it'
out=$("$SERVER" regressions --db "$DB" --series s1-typo --fail-on new 2>&1); rc=$?
is "$rc" 2 'regressions --fail-on new on a mistyped series: exit 2 (as ci/gate.sh), not a pass'
is "$out" "regressions: no such series 's1-typo'" '... naming it'

# An ambiguous sha prefix is a conflict naming the candidates, on every page and API that takes one.
is "$(code /series/s1/commit/c)" 409 'commit page of a prefix two commits share: 409'
like "$(cat "$TMP_T/body")" 'several commits:.*c1c1c1c1c1c1.*c2c2c2c2c2c2' '... listing both'
is "$(code '/api/v1/compare?series=s1&base=c&head=c2c2')" 409 'compare with it: 409'
is "$(jget "$TMP_T/body" '(d["error"]["code"], d["error"]["field"])')" "('ambiguous', 'base')" '... naming the field'
like "$(jget "$TMP_T/body" 'd["error"]["detail"]')" 'c1c1c1c1c1c1 c2c2c2c2c2c2$' '... and the candidates'
is "$(code '/api/v1/series/s1?commits=c')" 409 'the series answer filtered by it: 409'
like "$(jget "$TMP_T/body" 'd["error"]["detail"]')" 'c1c1c1c1c1c1 c2c2c2c2c2c2$' '... listing the candidates too'
is "$(code '/api/v1/compare?series=s1&base=c1c&head=c2c2')" 404 'a unique prefix under 4 characters: 404'
like "$(jget "$TMP_T/body" 'd["error"]["detail"]')" 'needs 4 characters' '... saying why'
is "$(code '/api/v1/compare?series=s1&base=c1c1&head=c2c2')" 200 'four characters: found'
stop_server
is $? 0 'server exits 0'
done_testing
