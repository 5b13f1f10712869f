#!/bin/bash
# The run document's JSON Schema (#/components/schemas/RunDocument of
# server/openapi.json) against a real validator (ajv 2020-12) and against
# foliowatch's own: every shipped and generated document passes both; a
# misspelled field, a wrong type, a missing field or a value out of range is
# refused by both, at the same path; foliowatch-run/2 refuses an unknown
# field in import, seal and POST alike (400 naming its path), /1 is stored
# with a warning; extensions is kept with the run; seal refuses \u0000 like
# import. Documents the kernel tests produce are checked where they are made
# (check_run_schema in t3000, t3100, t3200, t3300, t4350).
. tests/lib/tap.sh
. tests/lib/server.sh
. tests/lib/run-schema.sh

command -v node >/dev/null || skip_all "node not installed"
[ -d tests/node/node_modules/ajv ] || skip_all "ajv not installed (ci/install-deps.sh)"

# Every document that ships, and generated ones as the tests write them.
mkdir -p "$TMP_T/gen" "$TMP_T/sealed"
"$PY" tests/lib/gen-series.py "$TMP_T/gen" s1 tcg 2 base:0:-:1:1 c1:1:base:1.1:1 >/dev/null
FW_GEN_PROFILE='c1=xas_split*2' "$PY" tests/lib/gen-series.py "$TMP_T/gen" s2 icount 2 base:0:-:1:1 c1:1:base:1:1 >/dev/null
for f in "$TMP_T"/gen/*.json; do "$SERVER" seal "$f" >"$TMP_T/sealed/${f##*/}" || bail "seal $f"; done
check_run_schema 'shipped examples and test data' schema/examples/run-ok.json schema/examples/*/*.json \
	tests/data/same-kernel-boots/*/*.json
check_run_schema 'generated and sealed' "$TMP_T"/sealed/*.json

# The same refusal from both validators: ajv's first error path and import's field.
while IFS='|' read -r want mutation; do
	make_doc "$TMP_T/m.json" "$mutation"
	ajv=$(node tests/node/run-schema.js server/openapi.json paths "$TMP_T/m.json" | cut -f2)
	imp=$("$SERVER" import --db "$TMP_T/m.db" "$TMP_T/m.json" 2>&1 >/dev/null | sed -n 's/^import: [^:]*: \([^:]*\): .*/\1/p')
	is "$ajv / $imp" "$want / $want" "$mutation: refused by the JSON Schema and by import at $want"
done <<'EOF'
colour|colour=1
tree.colour|tree.colour=1
series.colour|series.colour=1
commit.colour|commit.colour=1
build.colour|build.colour=1
environment.colour|environment.colour=1
boot.colour|boot.colour=1
results[1].colour|results.1.colour=1
results[0].params|results.0.params=[1]
results[0].direction|results.0.direction=sideways
results[0].samples|results.0.samples=[]
commit.position|commit.position=-1
boot.status|boot.status=DELETE
workloads[0]|workloads.0=a,b
sequential.look|sequential={"max_looks": 2}
extensions|extensions=[]
EOF
is "$(sqlite3 "$TMP_T/m.db" 'select count(*) from runs' 2>/dev/null || echo 0)" 0 '... and nothing of them stored'

# seal: the same rules as import.
make_doc "$TMP_T/u.json" results.0.colour=red
"$SERVER" seal "$TMP_T/u.json.raw" >/dev/null 2>"$TMP_T/seal.err"
is "$?/$(cat "$TMP_T/seal.err")" "1/seal: results[0].colour: unknown field (a CI's own data goes under \"extensions\")" \
	'seal refuses an unknown field naming its path'
sed 's/"mm: /"mm:\\u0000 /' schema/examples/run-ok.json >"$TMP_T/nul.json"
"$SERVER" seal "$TMP_T/nul.json" >/dev/null 2>"$TMP_T/seal.err"
like "$?/$(cat "$TMP_T/seal.err")" '^1/seal: .*commit.subject: .*\\u0000' 'seal refuses \u0000 naming the field, like import'
"$SERVER" import --db "$TMP_T/n.db" "$TMP_T/nul.json" 2>"$TMP_T/imp.err"
like "$?/$(cat "$TMP_T/imp.err")" '^1/import: .*commit.subject: .*\\u0000' '... as import does'

# foliowatch-run/1: stored with a warning; seal and import print it.
make_doc "$TMP_T/old.json" format=foliowatch-run/1 results.0.colour=red
"$SERVER" seal "$TMP_T/old.json.raw" >"$TMP_T/old.sealed" 2>"$TMP_T/seal.err"
like "$?/$(cat "$TMP_T/seal.err")" '^0/seal: .*warning: results\[0\]\.colour: unknown field, ignored; foliowatch-run/1 is deprecated' \
	'seal: a foliowatch-run/1 document with an unknown field is sealed, with a warning naming it'
"$SERVER" import --db "$TMP_T/old.db" "$TMP_T/old.sealed" >/dev/null 2>"$TMP_T/imp.err"
like "$?/$(cat "$TMP_T/imp.err")" '^0/import: .*: warning: results\[0\]\.colour: unknown field, ignored' \
	'import: stored, with the warning'

# POST: 400 naming the path for /2, 201 with warnings for /1; extensions kept.
DB=$TMP_T/fw.db
"$SERVER" import -q --db "$DB" schema/examples/run-ok.json || bail import
TOK=$("$SERVER" token add ci --scopes ingest --db "$DB")
start_server "$DB" || bail "server did not start"
make_doc "$TMP_T/p2.json" results.0.colour=red commit.sha=ab01 commit.key=ab01 commit.position=2
is "$(post "$TMP_T/p2.json.raw" "$TOK")" 400 'POST foliowatch-run/2 with results[0].colour: 400'
is "$(jget "$TMP_T/post.out" 'd["error"]["field"]')" 'results[0].colour' '... naming results[0].colour'
make_doc "$TMP_T/p1.json" format=foliowatch-run/1 results.0.colour=red commit.sha=ab02 commit.key=ab02 commit.position=2
is "$(post "$TMP_T/p1.json" "$TOK")" 201 'POST foliowatch-run/1 with results[0].colour: 201'
like "$(jget "$TMP_T/post.out" 'd["warnings"][0]')" '^results\[0\]\.colour: unknown field, ignored' '... with a warning naming it'
make_doc "$TMP_T/px.json" 'extensions={"job": "https://ci.example/1", "pool": ["a", 2]}' commit.sha=ab03 commit.key=ab03 commit.position=3
is "$(post "$TMP_T/px.json" "$TOK")" 201 'POST with extensions: 201'
is "$(jget "$TMP_T/post.out" '"warnings" in d')" False '... no warnings'
is "$(sqlite3 "$DB" "select r.extensions from runs r join commits c on c.id = r.commit_id where c.sha = 'ab03'")" \
	'{"job":"https://ci.example/1","pool":["a",2]}' '... and extensions stored with the run (canonical JSON)'
stop_server
is $? 0 'server exits 0'
done_testing
