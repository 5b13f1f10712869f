#!/bin/bash
# Numbers as promised and answers a CI script can afford: counters as
# integers in pages, report and JSON; CSV numbers in the shortest form that
# reads back exactly; a bad env= says "no such environment"; ?metrics= and
# ?commits= select parts of the series answer that equal the matching parts
# of the full one.
. tests/lib/tap.sh
. tests/lib/server.sh

DB=$TMP_T/fw.db
COUNT='{"workload":"lazyfree","variant":"pmd","params":{"size_mib":512},"metric":"pglazyfreed","unit":"pages","direction":"lower_is_better","kind":"count","samples":[131072,131072]}'
make_doc "$TMP_T/c1.json" "results.2=$COUNT"
make_doc "$TMP_T/c2.json" commit.sha=aaaa000000000000000000000000000000000002 \
	commit.key=aaaa000000000000000000000000000000000002 commit.position=2 \
	commit.parent=3b2f6a1c9d8e7f60514253647586970a1b2c3d4e commit.subject='mm: second' \
	'results.0.samples=[70.1, 70.5]' 'results.1.samples=[0.0883, 0.081]' \
	"results.2=${COUNT/131072,131072/2621440,2621440}"
"$SERVER" import -q --db "$DB" "$TMP_T/c1.json" "$TMP_T/c2.json"
is $? 0 'two commits imported (a counter of 131072 and 2621440 pages)'
start_server "$DB" || bail "server did not start"

# Counters as integers.
is "$(code /api/v1/series/example)" 200 'series answer'
grep -q '"metric":"lazyfree/pmd/pglazyfreed","env":"[0-9a-f]*","n":2,"errors":0,"median":131072,' "$TMP_T/body"
ok $? '... the counter median is 131072 in the JSON text'
is "$(code /series/example)" 200 'series page'
grep -q '131072' "$TMP_T/body" && grep -q '2621440' "$TMP_T/body"
ok $? '... shows 131072 and 2621440'
grep -Eq '1\.311e\+0?5|2\.621e\+0?6' "$TMP_T/body"
is $? 1 '... and no 1.311e+05 or 2.621e+06'
is "$(code /api/v1/series/example/report.txt)" 200 'report.txt'
like "$(grep pglazyfreed "$TMP_T/body")" 'pglazyfreed +pages +131072 +2621440 +\+1900% +- worse' '... the counter in full (and a four-digit delta whole)'
grep -Eq '[0-9]e\+0?[56]' "$TMP_T/body"
is $? 1 '... no exponent anywhere'

# CSV: shortest exact form.
is "$(code /api/v1/series/example.csv)" 200 'CSV'
grep -q ',0\.0883$' "$TMP_T/body"
ok $? '... 0.0883 as 0.0883'
grep -Eq '[0-9]{12,}' <(cut -d, -f12 "$TMP_T/body")
is $? 1 '... no value with 17 digits of noise'
is "$("$PY" -c 'import csv,sys; print(sorted(float(r["value"]) for r in csv.DictReader(open(sys.argv[1])) if r["metric"] == "reclaim_s"))' "$TMP_T/body")" \
	'[0.081, 0.0882, 0.0883, 0.0883]' '... and the values read back as stored'

# A bad env= names the environment, not the metric.
M='metric=split/pmd-to-0/split_ms'
is "$(code "/api/v1/trend?series=example&$M&env=ffff")" 404 'trend with an unknown env: 404'
is "$(jget "$TMP_T/body" 'd["error"]["field"]')" env '... names the field env'
like "$(jget "$TMP_T/body" 'd["error"]["detail"]')" '^no such environment' '... says "no such environment"'
ENV=$(jget <(curl -s "$URL/api/v1/trend?series=example&$M") 'd["env"]')
is "$(code "/api/v1/trend?series=example&$M&env=${ENV:0:8}")" 200 '... a known env prefix: 200'
is "$(code "/api/v1/trend?series=example&metric=split/pmd-to-0/nope&env=ffff")" 404 'unknown metric and env: 404'
is "$(jget "$TMP_T/body" 'd["error"]["field"]')" metric '... names the metric'
is "$(code "/series/example/metric/split/pmd-to-0/split_ms?env=ffff")" 404 'metric page with an unknown env: 404'
like "$(cat "$TMP_T/body")" 'no such environment' '... says "no such environment"'
is "$(code "/plot/example/split/pmd-to-0/split_ms/small.svg?env=ffff")" 404 'plot with an unknown env: 404'
like "$(cat "$TMP_T/body")" 'no such environment' '... says "no such environment"'

# Environments listed once, named by a short key (a fingerprint prefix) in metrics and cells.
curl -s "$URL/api/v1/series/example" >"$TMP_T/full.json"
is "$("$PY" - "$TMP_T/full.json" "$ENV" <<'PYEOF'
import json, sys
d, fp = json.load(open(sys.argv[1])), sys.argv[2]
envs = d["environments"]
keys = {m["env"] for m in d["metrics"]} | {m["env"] for c in d["commits"] for m in c["metrics"]}
print(sorted(envs) == sorted(keys), [(k, e["fingerprint"] == fp, e["host"], e["accel"]) for k, e in envs.items()])
PYEOF
)" "True [('${ENV:0:12}', True, 'runner-1', 'tcg')]" \
	'series answer: one environment, under the first 12 characters of its fingerprint, named by it everywhere'
grep -Eq '[0-9a-f]{64}' <(sed 's/"fingerprint":"[0-9a-f]*"//' "$TMP_T/full.json")
is $? 1 '... the full fingerprint appears only once'
is "$(code "/api/v1/trend?series=example&$M&env=${ENV:0:12}")" 200 '... and the key works as env='

# ?metrics= and ?commits=: the selected answer is the matching part of the full one.
curl -s "$URL/api/v1/series/example" >"$TMP_T/full.json"
# sel QUERY METRIC-PY COMMIT-PY: the full answer filtered in Python equals the selected answer.
sel() {
	curl -s "$URL/api/v1/series/example?$1" >"$TMP_T/sel.json"
	"$PY" - "$TMP_T/full.json" "$TMP_T/sel.json" "$2" "$3" <<'PYEOF'
import json, sys
full, got = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
mok = lambda m: eval(sys.argv[3])
cok = lambda c: eval(sys.argv[4])
full["metrics"] = [m for m in full["metrics"] if mok(m["metric"])]
full["commits"] = [c for c in full["commits"] if cok(c["sha"])]
for c in full["commits"]:
    c["metrics"] = [m for m in c["metrics"] if mok(m["metric"])]
full["environments"] = {k: e for k, e in full["environments"].items() if k in {m["env"] for m in full["metrics"]}}
print("same" if full == got and got["commits"] else "differ")
PYEOF
}
is "$(sel metrics=split 'm.startswith("split/")' True)" same '?metrics=split: the split part of the full answer'
is "$(sel 'metrics=lazyfree/pmd/reclaim_s,split/pmd-to-0' 'm in ("lazyfree/pmd/reclaim_s", "split/pmd-to-0/split_ms")' True)" same \
	'?metrics=w/v/m,w/v: those metrics'
is "$(sel commits=aaaa0000 True 'c.startswith("aaaa")')" same '?commits=SHA: that commit'
is "$(sel 'commits=3b2f6a1c,aaaa&metrics=lazyfree' 'm.startswith("lazyfree/")' True)" same '?commits= and ?metrics= together'
is "$(code '/api/v1/series/example?metrics=nope')" 400 'a metric that matches nothing: 400'
is "$(jget "$TMP_T/body" 'd["error"]["field"]')" metrics '... names metrics'
like "$(jget "$TMP_T/body" 'd["error"]["detail"]')" "'nope'" '... and the item'
is "$(code '/api/v1/series/example?metrics=spl')" 400 'a workload prefix is no workload: 400'
is "$(code '/api/v1/series/example?metrics=')" 400 'empty metrics=: 400'
is "$(code '/api/v1/series/example?commits=ffff')" 404 'an unknown commit: 404'
is "$(jget "$TMP_T/body" 'd["error"]["field"]')" commits '... names commits'
is "$(code '/api/v1/series/example?commits=3b2f6a1c,ffff')" 404 '... also among known ones'
is "$(code '/api/v1/series/example?commits=%zz')" 400 'bad percent-encoding: 400'

stop_server
is $? 0 'server exits 0'
done_testing
