#!/bin/bash
# The OpenAPI document (server/openapi.json): a real validator (@redocly/cli
# lint, pinned in tests/node, every warning counted) passes it and fails a
# broken copy; the server answers it at /api/v1/openapi.json as built; and
# the answers of a populated server, for every operation and its main error
# cases, validate against it (tests/node/openapi-answers.js, ajv 2020-12);
# /api shows every operation and schema of it as a page without scripts.
# Route table <-> document: tests/unit/test-openapi-routes.c.
. tests/lib/tap.sh
. tests/lib/server.sh

command -v node >/dev/null || skip_all "node not installed"
[ -x tests/node/node_modules/.bin/redocly ] || skip_all "@redocly/cli not installed (ci/install-deps.sh)"
[ -d tests/node/node_modules/ajv ] || skip_all "ajv not installed (ci/install-deps.sh)"
export REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true NO_UPDATE_NOTIFIER=1

# lint FILE: prints "errors warnings" from redocly's JSON report.
lint() {
	tests/node/node_modules/.bin/redocly lint --config tests/node/redocly.yaml --format=json "$1" \
		>"$TMP_T/lint.json" 2>"$TMP_T/lint.err"
	jget "$TMP_T/lint.json" '"%d %d" % (d["totals"]["errors"], d["totals"]["warnings"])'
}
is "$(lint server/openapi.json)" "0 0" 'redocly lint: no errors, no warnings'
[ "$(lint server/openapi.json)" = "0 0" ] || sed 's/^/# /' "$TMP_T/lint.json" | head -40
sed 's|#/components/schemas/Trend"|#/components/schemas/NoSuchSchema"|' server/openapi.json >"$TMP_T/broken.json"
[ "$(lint "$TMP_T/broken.json")" != "0 0" ]
ok $? '... and it fails a copy with a dangling $ref'

DB="$TMP_T/fw.db"
FW_GEN_PROFILE='c2=xas_split*2' import_series "$DB" "$TMP_T/docs" s1 tcg 5 base:0:-:1:1 c1:1:base:1:1 c2:2:c1:1.1:1.1:2
ok $? 'series s1 imported (a regression at c2, kernel profiles)'
TOK=$("$SERVER" token add ci --scopes ingest,triage --db "$DB")
start_server "$DB" || bail "server did not start"

is "$(code /api/v1/openapi.json)" 200 'GET /api/v1/openapi.json'
cmp -s "$TMP_T/body" server/openapi.json
ok $? '... is server/openapi.json as built'
# The /api page: the document for people, no JavaScript needed.
is "$(code /api)" 200 'GET /api'
like "$(grep -i '^content-type' "$TMP_T/headers")" 'text/html' '... a page'
is "$("$PY" - "$TMP_T/body" server/openapi.json <<'PYEOF'
import json, re, sys
page, doc = open(sys.argv[1]).read(), json.load(open(sys.argv[2]))
ids = set(re.findall(r'id="([^"]+)"', page))
missing = ["op-" + op["operationId"] for item in doc["paths"].values() for op in item.values()
           if isinstance(op, dict) and "op-" + op["operationId"] not in ids]
missing += ["schema-" + n for n in doc["components"]["schemas"] if "schema-" + n not in ids]
print(" ".join(missing) or "all there")
PYEOF
)" 'all there' '... a section for every operation and every schema of the document'
grep -qi '<script' "$TMP_T/body"
is $? 1 '... and no script'
like "$(cat "$TMP_T/body")" '<code>GET /api/v1/regressions/\{id\}</code>' '... e.g. GET /api/v1/regressions/{id}'

code /api/v1/regressions >/dev/null
ID=$(jget "$TMP_T/body" 'd["regressions"][0]["id"]')
ENV=$(jget "$TMP_T/body" 'd["regressions"][0]["env_fingerprint"]')
ok "$([ -n "$ID" ] && [ -n "$ENV" ]; echo $?)" 'a stored regression to ask for'
# Two stored bisects (what foliowatch-collect bisect writes): one done that moved the regression, one gave up.
C1=$(printf 'c1%.0s' $(seq 20)); C2=$(printf 'c2%.0s' $(seq 20))
sqlite3 "$DB" "INSERT INTO bisects(series_id, workload, variant, metric, direction, good_sha, bad_sha, state,
	culprit_sha, steps, boots, seconds, started_at, finished_at) SELECT id, 'split', 'pmd-to-0', 'split_ms',
	'regression', '$C1', '$C2', 'done', '$C2', '[{\"sha\":\"$C2\",\"position\":2,\"boots\":3,\"verdict\":\"moved\"}]',
	3, 12.5, '2026-12-03T00:00:00Z', '2026-12-03T00:01:00Z' FROM series WHERE name = 's1';
	UPDATE regressions SET found_commit_id = commit_id, bisect_id = last_insert_rowid() WHERE id = $ID;
	INSERT INTO bisects(series_id, workload, variant, metric, direction, good_sha, bad_sha, state, why,
	started_at) SELECT id, 'split', 'pmd-to-0', 'split_ms', 'improvement', '$C1', '$C2', 'gave up',
	'no single step moved', '2026-12-03T00:02:00Z' FROM series WHERE name = 's1'" || bail "bisects"
# A run document not stored yet, for the 201 of POST /api/v1/runs.
mkdir -p "$TMP_T/new"
"$PY" tests/lib/gen-series.py "$TMP_T/new" s2 tcg 1 base:0:-:1:1 >/dev/null
"$SERVER" seal "$(ls "$TMP_T"/new/*.json | head -1)" >"$TMP_T/new.sealed"
"$PY" - "$TMP_T/cases.json" "$ID" "$ENV" "$TOK" "$TMP_T/new.sealed" <<'PYEOF'
import json, sys
out, rid, env, tok, newdoc = sys.argv[1:]
auth = {"Authorization": "Bearer " + tok, "Content-Type": "application/json"}
c2 = "c2" * 20
def get(path, status):
    return {"method": "GET", "path": path, "status": status}
def post(path, status, body, headers=auth):
    return {"method": "POST", "path": path, "status": status, "body": body, "headers": headers}
cases = [
    get("/healthz", 200), get("/metrics", 200), get("/api/v1/openapi.json", 200),
    get("/api/v1/series", 200),
    get("/api/v1/series/s1", 200), get("/api/v1/series/s1?revision=1", 200),
    get("/api/v1/series/s1?metrics=split", 200), get("/api/v1/series/s1?commits=c1c1,c2c2", 200),
    get("/api/v1/series/nope", 404), get("/api/v1/series/s1?revision=x", 400),
    get("/api/v1/series/s1?revision=9", 404), get("/api/v1/series/s1?metrics=nope", 400),
    get("/api/v1/series/s1?commits=ffff", 404),
    get("/api/v1/series/s1.csv", 200), get("/api/v1/series/nope.csv", 404),
    get("/api/v1/series/s1/report.txt", 200), get("/api/v1/series/nope/report.txt", 404),
    get("/api/v1/series/s1/report.md", 200), get("/api/v1/series/nope/report.md", 404),
    get("/api/v1/trend?series=s1&metric=split/pmd-to-0/split_ms", 200),
    get("/api/v1/trend?series=s1&metric=split/pmd-to-0/split_ms&from=1&to=2", 200),
    get("/api/v1/trend?metric=split/pmd-to-0/split_ms", 400),
    get("/api/v1/trend?series=s1&metric=split/pmd-to-0/nope", 404),
    get("/api/v1/trend?series=s1&metric=split/pmd-to-0/split_ms&env=ffff", 404),
    get("/api/v1/compare?series=s1&base=c1c1&head=c2c2", 200),
    get("/api/v1/compare?series=s1&base=c1c1", 400),
    get("/api/v1/compare?series=s1&base=c1c1&head=ffff", 404),
    get("/api/v1/profile?series=s1&head=c2c2&workload=split", 200),
    get("/api/v1/profile?series=s1&head=c2c2&base=c1c1&workload=split&variant=pmd-to-0&sort=hits&match=split&limit=3", 200),
    get("/api/v1/profile?series=s1&head=c2c2&workload=split&sort=x", 400),
    get("/api/v1/profile?series=s1&head=ffff&workload=split", 404),
    get("/api/v1/regressions", 200), get("/api/v1/regressions?status=new&series=s1", 200),
    get("/api/v1/regressions?status=bogus", 400),
    get("/api/v1/regressions/" + rid, 200), get("/api/v1/regressions/999999", 404),
    get("/api/v1/regressions/abc", 400),
    get("/feed.atom", 200), get("/series/s1/feed.atom", 200), get("/series/nope/feed.atom", 404),
    get("/api/v1/bisects", 200), get("/api/v1/bisects?series=s1", 200), get("/api/v1/bisects?series=nope", 404),
    get("/api/v1/bisects/1", 200), get("/api/v1/bisects/2", 200), get("/api/v1/bisects/99", 404),
    get("/api/v1/bisects/x", 400),
    post("/api/v1/regressions/" + rid, 200, json.dumps({"status": "acknowledged", "by": "alice"})),
    get("/api/v1/regressions/" + rid, 200),
    post("/api/v1/regressions/" + rid, 400, json.dumps({"status": "gone"})),
    post("/api/v1/regressions/" + rid, 401, json.dumps({"status": "fixed"}), {}),
    post("/api/v1/regressions/999999", 404, json.dumps({"status": "fixed"})),
    post("/api/v1/regressions/abc", 400, json.dumps({"status": "fixed"})),
    post("/api/v1/runs", 201, open(newdoc).read()),
    post("/api/v1/runs", 200, open(newdoc).read()),
    post("/api/v1/runs", 400, "{}"),
    post("/api/v1/runs", 401, "{}", {"Authorization": "Bearer nope"}),
    post("/api/v1/series/s1/complete", 200, ""),
    post("/api/v1/series/s1/complete?revision=x", 400, ""),
    post("/api/v1/series/nope/complete", 404, ""),
    post("/api/v1/series/s1/complete", 401, "", {"Authorization": "Bearer nope"}),
]
json.dump(cases, open(out, "w"))
PYEOF
node tests/node/openapi-answers.js "$URL" server/openapi.json "$TMP_T/cases.json" >"$TMP_T/node.tap" 2>"$TMP_T/node.err"
rc=$?
relay_tap "$TMP_T/node.tap"
[ -s "$TMP_T/node.err" ] && sed 's/^/# /' "$TMP_T/node.err" | head -20
is "$rc" 0 'openapi-answers.js exit status'

stop_server
is $? 0 'server exits 0'
done_testing
