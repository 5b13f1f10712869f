#!/bin/bash
# Kernel function profiles (issue 13) on a real server: an icount series whose
# c2 makes __split_huge_page 1.5x slower (self +1000 us, gen-series.py
# FW_GEN_PROFILE). GET /api/v1/profile ranks it first with exact numbers, good
# and bad parameters (400 naming the parameter, 404 unknown series/commit);
# the page /series/{name}/profile shows both profiles and escapes what the
# request brings; the analysis attributes c2's split regression to it.
. tests/lib/tap.sh
. tests/lib/server.sh

DB="$TMP_T/fw.db"
FW_GEN_PROFILE='c2=__split_huge_page*1.5' import_series "$DB" "$TMP_T/docs" s1 icount 3 \
	base:0:-:1:1 c1:1:base:1:1 c2:2:c1:1.1:1:1 c3:3:c2:1:1:1:noprofile
ok $? 'icount series imported, profiled but for c3'
start_server "$DB" || bail "server did not start"
C1=$(printf 'c1%.0s' {1..20}) C2=$(printf 'c2%.0s' {1..20})

is "$(code "/api/v1/profile?series=s1&head=c2c2&workload=split")" 200 'GET /api/v1/profile (base: the parent)'
is "$(jget "$TMP_T/body" 'd["base"]')" "$C1" '... the base defaults to the parent c1'
is "$(jget "$TMP_T/body" '",".join(f["function"] for f in d["variants"][0]["functions"][:2])')" \
	'__split_huge_page,folio_unlock' '... ranked by |delta self|: the slowed function first, ties by name'
is "$(jget "$TMP_T/body" 'd["variants"][0]["functions"][0]["delta"]["self_us"]')" 1000 '... self +1000 us, exact (icount)'
is "$(jget "$TMP_T/body" 'd["variants"][0]["functions"][0]["delta_pct"]["self_us"]')" 50 '... +50%'
is "$(jget "$TMP_T/body" '(d["variants"][0]["boots_before"], d["variants"][0]["boots_after"])')" '(3, 3)' '... over 3 boots each'
is "$(jget "$TMP_T/body" '[v["variant"] for v in d["variants"]]')" "['pmd-to-0']" '... the workload'"'"'s variants'
is "$(jget "$TMP_T/body" 'sorted(k for k in d if k.endswith("_id"))')" "[]" \
	'... commits named by sha (head, base), no internal row ids'
# every delta and delta_pct to 0.001, as the API page promises of every *_pct: on real
# profiles (the fixed copy of a demo measurement), whose medians are not round
"$SERVER" import -q --db "$DB" tests/data/demo-series/*.json || bail "import demo"
LRU=$(sqlite3 "$DB" "select c.sha from commits c join series s on s.id = c.series_id where s.name = 'demo' and c.position = 1")
is "$(code "/api/v1/profile?series=demo&head=$LRU&workload=mthp")" 200 'the demo'"'"'s per-CPU LRU patch, mthp profile'
is "$(jget "$TMP_T/body" 'sum(1 for v in d["variants"] for f in v["functions"] for g in ("delta", "delta_pct")
	for x in f[g].values() if x is not None and abs(x * 1000 - round(x * 1000)) > 1e-6 * max(1, abs(x * 1000)))')" 0 \
	'... deltas and delta_pct to 0.001'
code "/api/v1/profile?series=s1&head=c2c2&workload=split&sort=total" >/dev/null
is "$(jget "$TMP_T/body" '",".join(f["function"] for f in d["variants"][0]["functions"][:2])')" \
	'__split_huge_page,split_huge_page_to_list_to_order' '... sort=total: its caller follows with the same total delta'
code "/api/v1/profile?series=s1&head=c2c2&base=bbbb&workload=split&match=xas&limit=1" >/dev/null
is "$(jget "$TMP_T/body" '[f["function"] for f in d["variants"][0]["functions"]]')" "['xas_split']" '... match= and limit= filter'
is "$(code "/api/v1/profile?series=s1&head=c3c3&workload=split")" 200 'a commit without profiles'
is "$(jget "$TMP_T/body" '(d["env_fingerprint"], d["variants"])')" '(None, [])' '... answers no environment and no variants'

# bad: status and the parameter the error names
while read -r want field query; do
	is "$(code "/api/v1/profile?$query")" "$want" "$query -> $want"
	is "$(jget "$TMP_T/body" 'd["error"]["field"]')" "$field" "... names $field"
done <<'CASES'
400 series head=c2c2&workload=split
400 head series=s1&workload=split
400 workload series=s1&head=c2c2
400 sort series=s1&head=c2c2&workload=split&sort=fastest
400 limit series=s1&head=c2c2&workload=split&limit=0
400 limit series=s1&head=c2c2&workload=split&limit=12x
400 base series=s1&head=c2c2&base=c2c2&workload=split
400 base series=s1&head=bbbb&workload=split
400 match series=s1&head=c2c2&workload=split&match=%01
404 series series=nope&head=c2c2&workload=split
404 head series=s1&head=ffff&workload=split
404 base series=s1&head=c2c2&base=ffff&workload=split
404 workload series=s1&head=c2c2&workload=nope
404 env series=s1&head=c2c2&workload=split&env=0000000
CASES

# the page
is "$(code "/series/s1/profile?head=c2c2&workload=split&match=%3Cscript%3Ealert(1)%3C/script%3E%22")" 200 'the profile page'
grep -q '<script' "$TMP_T/body"
is $? 1 '... the match text is escaped (no <script)'
like "$(cat "$TMP_T/body")" 'value="&lt;script&gt;alert\(1\)&lt;/script&gt;&quot;"' '... and kept in the filter form'
code "/series/s1/profile?head=c2c2&workload=split" >/dev/null
like "$(cat "$TMP_T/body")" '<td class="mono">__split_huge_page</td>' '... lists the functions'
like "$(cat "$TMP_T/body")" '\+50.0% self' '... with the delta'
"$PY" - "$TMP_T/body" <<'PYEOF'
import sys, html.parser
html.parser.HTMLParser().feed(open(sys.argv[1]).read())
PYEOF
ok $? '... parses'
is "$(code "/series/s1/profile?head=c2c2&workload=split&sort=x")" 400 'the page: bad sort is a 400'
like "$(grep -i '^content-type' "$TMP_T/headers")" 'text/html' '... as a page'
is "$(code "/series/nope/profile?head=c2c2&workload=split")" 404 'the page: unknown series is a 404'

# the commit page: the attribution under c2's regression, and its bar plot
is "$(code "/series/s1/commit/$C2")" 200 'the commit page of c2'
like "$(cat "$TMP_T/body")" '<ul id="profiles">' '... has the kernel functions section'
like "$(cat "$TMP_T/body")" '<li class="mono">__split_huge_page  self \+1000 us \(\+50%\)  hits 512 -&gt; 512</li>' \
	'... the slowed function under the regression'
SVG=$(grep -o 'src="/series/s1/profile.svg?[^"]*"' "$TMP_T/body" | head -1 | sed 's/^src="//; s/"$//; s/&amp;/\&/g')
is "$(grep -c 'src="/series/s1/profile.svg' "$TMP_T/body")" 1 '... one bar plot (one workload/variant changed)'
is "$(code "$SVG")" 200 '... the bar plot renders (real gnuplot)'
like "$(grep -i '^content-type' "$TMP_T/headers")" 'image/svg\+xml' '... as SVG'
"$PY" - "$TMP_T/body" <<'PYEOF'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
texts = "".join(root.itertext())
assert root.tag.endswith("svg"), root.tag
assert "__split_huge_page" in texts, texts[:300]
PYEOF
ok $? '... well-formed SVG naming the function'
is "$(code "/series/s1/profile.svg?head=c2c2&workload=split&limit=x")" 400 '... a bad parameter is a 400'
is "$(code "/series/s1/commit/$C1")" 200 'the commit page of c1 (no change)'
grep -q '<ul id="profiles"' "$TMP_T/body"
is $? 1 '... has no kernel functions section'
like "$(cat "$TMP_T/body")" 'Kernel functions: not profiled: no change against the parent' \
	'... and says why (profiles are taken where a row is decided a change)'
is "$(code "/series/s1/metric/split/pmd-to-0/split_ms")" 200 'the metric page'
like "$(cat "$TMP_T/body")" '<ul class="attribution"><li class="mono">__split_huge_page  self' '... the attribution in the verdict cell'
like "$(cat "$TMP_T/body")" 'href="/series/s1/profile\?head=c2c2' '... links the whole profile'

# attribution in the analysis
"$SERVER" report --db "$DB" --series s1 --format json >"$TMP_T/report.json"
ok $? 'report --format json'
is "$(jget "$TMP_T/report.json" '[(r["against"], r["attribution"][0]["function"]) for r in d["rows"] if r["sha"].startswith("c2") and r["workload"] == "split"]')" \
	"[('parent', '__split_huge_page'), ('base', '__split_huge_page')]" 'c2 split rows (vs parent and base) attributed to __split_huge_page'
is "$(jget "$TMP_T/report.json" 'len([r for r in d["rows"] if "attribution" in r and r["verdict"] not in ("regression", "improvement")])')" 0 \
	'... only regression and improvement rows carry one'
is "$(jget "$TMP_T/report.json" 'len([r for r in d["rows"] if "attribution" in r and r["sha"].startswith("c3")])')" 0 \
	'... and none where a commit has no profile'
"$SERVER" report --db "$DB" --series s1 --verbose >"$TMP_T/report.txt"
like "$(cat "$TMP_T/report.txt")" '      profile: __split_huge_page  self \+1000 us \(\+50%\)  hits 512 -> 512' \
	'report text: the attribution under the regression'
is "$(grep -c '      profile: ' "$TMP_T/report.txt")" \
	"$(jget "$TMP_T/report.json" 'sum(len(r.get("attribution", [])) for r in d["rows"])')" '... one line per attributed function'

# the single regression answer: its profile section
code "/api/v1/regressions?series=s1" >/dev/null
ID=$(jget "$TMP_T/body" '[g["id"] for g in d["regressions"] if g["sha"].startswith("c2") and g["workload"] == "split"][0]')
ok "$([ -n "$ID" ]; echo $?)" 'c2 split regression stored'
is "$(code "/api/v1/regressions/$ID")" 200 "GET /api/v1/regressions/$ID"
is "$(jget "$TMP_T/body" '(d["profile"]["base"] == "'"$C1"'", d["profile"]["attribution"][0]["function"], d["profile"]["attribution"][0]["delta"]["self_us"])')" \
	"(True, '__split_huge_page', 1000)" '... profile: against the parent, the slowed function first, +1000 us'
DIFF=$(jget "$TMP_T/body" 'd["profile"]["diff"]')
is "$(code "$DIFF")" 200 '... its diff link answers'
is "$(jget "$TMP_T/body" 'd["variants"][0]["functions"][0]["function"]')" __split_huge_page '... with the same ranking'
stop_server
is $? 0 'server exits 0'
done_testing
