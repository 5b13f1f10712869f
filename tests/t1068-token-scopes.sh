#!/bin/bash
# Token scopes: a runner's token (ingest, the default) can POST runs but not
# change a regression's status; a triage token the reverse; admin both. The
# route table declares each route's scope and answers 401 (no or bad token)
# and 403 (valid token, scope missing, naming it) before the handler runs.
# Tokens from before scopes keep what they could do (ingest,triage).
. tests/lib/tap.sh
. tests/lib/server.sh
DB="$TMP_T/fw.db"

seal_series "$TMP_T/docs" s1 base:0:-:1:1 c1:1:base:1:1 c2:2:c1:1.1:1.1:2 || bail "documents"
RUNNER=$("$SERVER" token add runner --db "$DB" 2>/dev/null)
TRIAGE=$("$SERVER" token add alice --scopes triage --db "$DB" 2>/dev/null)
ADMIN=$("$SERVER" token add root --scopes admin --db "$DB" 2>/dev/null)
"$SERVER" token add bad --scopes ingest,delete --db "$DB" >/dev/null 2>"$TMP_T/err"
is $? 2 'token add --scopes with an unknown scope: usage error'
like "$(cat "$TMP_T/err")" "unknown scope 'delete'" '... naming it'
"$SERVER" token list --scopes admin --db "$DB" >/dev/null 2>&1
is $? 2 '--scopes goes with add only'
is "$("$SERVER" token list --db "$DB" | cut -f1,3,4 | tr '\t\n' ' |')" \
	'alice active triage|root active admin|runner active ingest|' 'token list shows each token'"'"'s scopes (default ingest)'
start_server "$DB" || bail "server did not start"

is "$(post "$TMP_T/docs/$(ls "$TMP_T/docs" | grep sealed | head -1)" "$RUNNER")" 201 'runner token (ingest): POST a run'
for f in "$TMP_T"/docs/*.sealed; do post "$f" "$RUNNER" >/dev/null; done
is "$(post "$TMP_T/docs/$(ls "$TMP_T/docs" | grep sealed | head -1)" "$TRIAGE")" 403 'triage token: POST a run is 403'
is "$(jget "$TMP_T/post.out" 'd["error"]["field"] + " " + d["error"]["code"]')" 'Authorization forbidden' '... forbidden, naming Authorization'
like "$(jget "$TMP_T/post.out" 'd["error"]["detail"]')" 'lacks the scope ingest' '... and the scope it lacks'
code /api/v1/regressions >/dev/null
ID=$(jget "$TMP_T/body" 'd["regressions"][0]["id"]')
setst() { code "/api/v1/regressions/$ID" -X POST --data-binary '{"status":"acknowledged"}' -H "Authorization: Bearer $1"; }
is "$(setst "$RUNNER")" 403 'runner token: changing a regression status is 403'
like "$(jget "$TMP_T/body" 'd["error"]["detail"]')" 'lacks the scope triage' '... naming triage'
is "$(sqlite3 "$DB" "SELECT status FROM regressions WHERE id = $ID")" new '... nothing changed'
is "$(setst "$TRIAGE")" 200 'triage token: status changed'
is "$(jget "$TMP_T/body" 'd["status_by"]')" alice '... by the token name'
is "$(setst "$ADMIN")" 200 'admin token: status changed'
is "$(post "$TMP_T/docs/$(ls "$TMP_T/docs" | grep sealed | head -1)" "$ADMIN")" 200 '... and may POST runs'
is "$(setst nope)" 401 'an unknown token: 401 (not 403)'
is "$(code "/api/v1/regressions/$ID" -X POST --data-binary '{}')" 401 'no token: 401'
is "$(code "/api/v1/regressions/999999" -X POST --data-binary '{"status":"fixed"}' -H "Authorization: Bearer $RUNNER")" 403 \
	'the scope is checked before the handler (403 even for an unknown id)'
stop_server

# A DB from before scopes: its tokens keep ingest and triage.
OLD=$TMP_T/old.db
"$SERVER" token add old-runner --db "$OLD" >"$TMP_T/old.tok" 2>/dev/null
sqlite3 "$OLD" <tests/lib/downgrade-v3.sql || bail "downgrade"
is "$("$SERVER" token list --db "$OLD" | cut -f1,4)" 'old-runner	ingest,triage' 'a token from before scopes gets ingest,triage (what it could do)'
done_testing
