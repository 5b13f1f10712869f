#!/bin/bash
# Triage text is outside text: POST /api/v1/regressions/{id} checks "by" and
# "note" like the run document's strings (UTF-8, no control characters,
# length), names the field, refuses \u0000 and unknown fields; every status
# change is kept in the regression's history (who, note, when), shown in the
# API, on the metric page and kept across the 0004 migration of an older DB.
. tests/lib/tap.sh
. tests/lib/server.sh
DB="$TMP_T/fw.db"

seal_series "$TMP_T/docs" s1 base:0:-:1:1 c1:1:base:1:1 c2:2:c1:1.1:1.1:2 || bail "documents"
"$SERVER" import --db "$DB" -q "$TMP_T"/docs/*.sealed || bail import
TOK=$("$SERVER" token add ci --scopes triage --db "$DB" 2>/dev/null)
start_server "$DB" || bail "server did not start"
code /api/v1/regressions >/dev/null
ID=$(jget "$TMP_T/body" 'd["regressions"][0]["id"]')
AUTH="Authorization: Bearer $TOK"
# setraw BODY-AS-PYTHON-BYTES: POSTs the exact bytes, prints the status.
setraw() {
	"$PY" -c 'import sys; sys.stdout.buffer.write(eval(sys.argv[1]))' "$1" >"$TMP_T/req"
	code "/api/v1/regressions/$ID" -X POST -H 'Content-Type: application/json' -H "$AUTH" --data-binary "@$TMP_T/req"
}
field() { jget "$TMP_T/body" 'd["error"]["field"]'; }
bad=0
for body in 'b"{\"status\":\"fixed\",\"by\":\"x\xff\xfey<b>\"}"' 'b"{\"status\":\"fixed\",\"by\":\"a\\nb\"}"' \
	'b"{\"status\":\"fixed\",\"by\":\"a\\u0007\"}"' 'b"{\"status\":\"fixed\",\"by\":\"a\\u0000evil\"}"' \
	'b"{\"status\":\"fixed\",\"by\":\"\"}"' '(b"{\"status\":\"fixed\",\"by\":\"" + b"x" * 201 + b"\"}")' \
	'b"{\"status\":\"fixed\",\"by\":[\"a\"]}"'; do
	c=$(setraw "$body")
	if [ "$c" != 400 ] || [ "$(field)" != by ]; then bad=$((bad + 1)); diag "$body: $c $(cat "$TMP_T/body")"; fi
	strict_json "$TMP_T/body" || bad=$((bad + 1))
done
is "$bad" 0 'by: invalid UTF-8, newline, BEL, \u0000, empty, 201 bytes, not a string: 400 naming by'
bad=0
for body in 'b"{\"status\":\"fixed\",\"note\":\"x\xc3\"}"' 'b"{\"status\":\"fixed\",\"note\":\"a\\u0001\"}"' \
	'b"{\"status\":\"fixed\",\"note\":\"a\\u0000b\"}"' '(b"{\"status\":\"fixed\",\"note\":\"" + b"x" * 2001 + b"\"}")' \
	'b"{\"status\":\"fixed\",\"note\":7}"'; do
	c=$(setraw "$body")
	if [ "$c" != 400 ] || [ "$(field)" != note ]; then bad=$((bad + 1)); diag "$body: $c $(cat "$TMP_T/body")"; fi
done
is "$bad" 0 'note: invalid UTF-8, control character, \u0000, 2001 bytes, not a string: 400 naming note'
is "$(setraw 'b"{\"status\":\"fixed\",\"nota\":\"x\"}"')" 400 'an unknown field: 400'
is "$(field)" nota '... names it'
is "$(setraw 'b"{\"status\":\"fixed\",\"n\\nx\":1}"')" 400 'an unknown field with a newline in its name: 400'
is "$(field)" 'n\nx' '... named with the newline escaped'
code "/api/v1/regressions" >/dev/null
is "$(jget "$TMP_T/body" 'd["regressions"][0]["status"] + " " + str(len(d["regressions"][0]["history"]))')" 'new 1' \
	'nothing refused was stored (status new, history: the analysis only)'

NOTE='looking: <b>bisect</b> & "retry"
second line'
BODY=$("$PY" -c 'import json, sys; print(json.dumps({"status": "acknowledged", "by": "alice \u00e9", "note": sys.argv[1]}))' "$NOTE")
is "$(code "/api/v1/regressions/$ID" -X POST -H "$AUTH" --data-binary "$BODY")" 200 'acknowledged with a two-line note'
is "$(jget "$TMP_T/body" 'd["status_note"]')" "$NOTE" '... the answer has the note'
is "$(code "/api/v1/regressions/$ID" -X POST -H "$AUTH" --data-binary '{"status":"fixed","by":"bob"}')" 200 'then fixed by bob'
code "/api/v1/regressions?series=s1" >/dev/null
strict_json "$TMP_T/body"
ok $? 'the list is strictly valid UTF-8 JSON'
is "$(jget "$TMP_T/body" '"|".join(h["status"] + " " + h["by"] for h in d["regressions"][0]["history"])')" \
	'new analysis|acknowledged alice é|fixed bob' 'history: created by the analysis, acknowledged by alice, fixed by bob'
is "$(jget "$TMP_T/body" 'd["regressions"][0]["history"][1]["note"]')" "$NOTE" '... with alice'"'"'s note'
like "$(jget "$TMP_T/body" 'd["regressions"][0]["history"][2]["at"]')" '^20[0-9]{2}-[0-9]{2}-[0-9]{2}T' '... and when'
is "$(code "/api/v1/regressions/$ID" -X POST -H "$AUTH" --data-binary '{"status":"acknowledged"}')" 200 'a change without "by"'
code "/api/v1/regressions/$ID" >/dev/null
is "$(jget "$TMP_T/body" 'd["history"][-1]["by"]')" 'ci' '... is recorded as by the token'"'"'s name'
code "/series/s1/metric/split/pmd-to-0/split_ms" >/dev/null
like "$(tr '\n' ' ' <"$TMP_T/body")" 'acknowledged by <bdi>alice é</bdi> at [^<]*: <bdi class="note">looking: &lt;b&gt;bisect&lt;/b&gt; &amp; &quot;retry&quot;' \
	'the metric page shows the history, note escaped'
"$SERVER" regressions --db "$DB" --set "$ID" --status invalid --by carol --note 'dup of #3' >/dev/null
is $? 0 'CLI --set with --note'
"$SERVER" regressions --db "$DB" --set "$ID" --status new --by 'x
y' >/dev/null 2>"$TMP_T/err"
is $? 1 'CLI --by with a newline: refused'
like "$(cat "$TMP_T/err")" '^regressions: by: control characters' '... saying why'
is "$(sqlite3 "$DB" "SELECT group_concat(changed_by || ':' || note, '|') FROM regression_history WHERE regression_id = $ID")" \
	"analysis:|alice é:$NOTE|bob:|ci:|carol:dup of #3" 'the history table holds every change'
stop_server
is $? 0 'server exits 0'

# An older DB (version 3, a status changed; 0004's and 0005's objects dropped) gets its history from the migration.
cp "$DB" "$TMP_T/old.db"
sqlite3 "$TMP_T/old.db" <tests/lib/downgrade-v3.sql || bail "downgrade"
"$SERVER" regressions --db "$TMP_T/old.db" --json >/dev/null
is $? 0 'a version-3 DB opens (migrated)'
is "$(sqlite3 "$TMP_T/old.db" "SELECT group_concat(status || ':' || changed_by, '|') FROM regression_history WHERE regression_id = $ID")" \
	'new:analysis|invalid:carol' '... its regressions have their creation and last change as history'
done_testing
