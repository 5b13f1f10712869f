#!/bin/bash
# The adversarial crawl: every string of the hostile corpus
# (tests/data/hostile/names.json: markup, SQL, shell and gnuplot syntax,
# '../', '/', '%00', bidi overrides, right-to-left text, 4-byte characters,
# names at their length limits, "." and "..") in every name field of a
# two-commit series, one of them regressed and triaged with hostile text;
# then every link from / and every GET API route of every series
# (tests/lib/crawl.py): no 5xx, no dead link, the security headers on every
# answer, JSON strictly valid UTF-8 JSON, HTML escaped, SVG well-formed, and
# the server alive afterwards.
. tests/lib/tap.sh
. tests/lib/server.sh
DB=$TMP_T/fw.db
CORPUS=tests/data/hostile/names.json
mkdir -p "$TMP_T/docs"
N=$("$PY" -c 'import json, sys; print(len(json.load(open(sys.argv[1]))))' "$CORPUS")
for i in $(seq 0 $((N - 1))); do
	"$PY" tests/lib/gen-named.py "$TMP_T/docs" "h$i" "$("$PY" tests/lib/hostile-fields.py "$CORPUS" "$i")" || bail "gen $i"
done
SQL=$("$PY" -c 'import json, sys; print(json.load(open(sys.argv[1]))[2])' "$CORPUS")
seal_series "$TMP_T/reg" "$SQL regressed" base:0:-:1:1 c1:1:base:1.1:1 || bail "documents"
for f in "$TMP_T"/docs/*.json; do "$SERVER" seal "$f" >"$f.sealed" || bail "seal $f"; done
"$SERVER" import --db "$DB" -q "$TMP_T"/docs/*.sealed "$TMP_T"/reg/*.sealed
ok $? "$N hostile series (every name field) and a regressed one imported"
is "$(sqlite3 "$DB" 'SELECT count(*) FROM series')" $((N + 1)) '... all of them'
TOK=$("$SERVER" token add triage --scopes triage --db "$DB" 2>/dev/null)
start_server "$DB" || bail "server did not start"
code /api/v1/regressions >/dev/null
ID=$(jget "$TMP_T/body" 'd["regressions"][0]["id"]')
BODY=$("$PY" -c 'import json, sys; c = json.load(open(sys.argv[1])); print(json.dumps({"status": "acknowledged", "by": c[0], "note": c[1] + "\n" + c[9]}))' "$CORPUS")
is "$(code "/api/v1/regressions/$ID" -X POST -H "Authorization: Bearer $TOK" --data-binary "$BODY")" 200 \
	'a regression triaged with hostile by and note'

"$PY" tests/lib/crawl.py "$URL" "$CORPUS" >"$TMP_T/crawl.out" 2>&1
ok $? 'the crawl ran'
grep '^bad:' "$TMP_T/crawl.out" | head -20 | sed 's/^/# /'
like "$(tail -1 "$TMP_T/crawl.out")" '^requests [0-9]{3,} problems 0$' 'every answer sound (no 5xx, dead link, missing header, bad UTF-8/JSON/SVG, raw markup)'
diag "$(tail -1 "$TMP_T/crawl.out")"
is "$(code /healthz)" 200 'the server is alive'
is "$(find "$TMP_T" "$PWD" -maxdepth 2 -name 'fwpwned*' | wc -l)" 0 'no injected command ran'
stop_server
is $? 0 'server exits 0'
done_testing
