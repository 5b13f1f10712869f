#!/bin/bash
# Series revisions (?revision=N on pages and API, compare across revisions),
# the big plot's interval band and regression marker, PNG plots, and the
# commit page's counters that changed most against the parent.
. tests/lib/tap.sh
. tests/lib/server.sh
DB="$TMP_T/fw.db"

mkdir -p "$TMP_T/docs"
"$PY" tests/lib/gen-series.py "$TMP_T/docs" s1 tcg 5 base:0:-:1:1 c1:1:base:1:1 c2:2:c1:1.1:1.1:2 >/dev/null
# v2 of the series: the same commits, c2 fixed (no slowdown).
for f in "$TMP_T"/docs/*.json; do
	"$PY" -c 'import json, sys
d = json.load(open(sys.argv[1])); d["series"]["revision"] = 2
if d["commit"]["sha"].startswith("c2"):
    for r in d["results"]:
        r["samples"] = [round(v / 1.1, 4) for v in r["samples"]]
json.dump(d, open(sys.argv[2], "w"))' "$f" "${f%.json}.v2.json"
done
for f in "$TMP_T"/docs/*.json; do "$SERVER" seal "$f" >"$f.sealed" || bail "seal $f"; done
"$SERVER" import --db "$DB" -q "$TMP_T"/docs/*.sealed
ok $? 'series s1 v1 and v2 imported'
start_server "$DB" || bail "server did not start"

is "$(code /api/v1/series/s1)" 200 'series JSON'
is "$(jget "$TMP_T/body" 'd["series"]["revision"]')" 2 '... newest revision by default'
is "$(code '/api/v1/series/s1?revision=1')" 200 '?revision=1'
is "$(jget "$TMP_T/body" 'd["series"]["revision"]')" 1 '... is revision 1'
is "$(code '/api/v1/series/s1?revision=9')" 404 'unknown revision: 404'
is "$(jget "$TMP_T/body" 'd["error"]["field"]')" revision '... names the field'
is "$(code '/api/v1/series/s1?revision=x')" 400 'bad revision: 400'
is "$(code '/api/v1/series/s1?revision=%ZZ')" 400 'revision with bad %-encoding: 400, not the newest'
is "$(jget "$TMP_T/body" 'd["error"]["field"]')" revision '... names the field'
is "$(code '/api/v1/series/s1.csv?revision=1')" 200 'CSV of revision 1'
like "$(sed -n 2p "$TMP_T/body")" '^"s1",1,' '... rows of revision 1'
is "$(code '/series/s1?revision=1')" 200 'series page of revision 1'
like "$(cat "$TMP_T/body")" '<h1>s1 <span class="muted">v1</span>' '... shows v1'
like "$(cat "$TMP_T/body")" 'id="revisions">revisions: <strong>v1</strong> <a href="/series/s1\?revision=2">v2' '... links the other revision'
like "$(cat "$TMP_T/body")" 'href="/series/s1/commit/c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2\?revision=1"' '... commit links keep the revision'

C2=c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2
is "$(code "/api/v1/compare?series=s1&base=$C2&head=$C2&base_revision=1")" 200 'compare c2 of v1 with c2 of v2'
is "$(jget "$TMP_T/body" 'd["base_revision"], d["head_revision"], d["analysed"]')" '(1, 2, True)' '... across revisions, analysed'
is "$(jget "$TMP_T/body" '[m["verdict"] for m in d["metrics"] if m["metric"] == "split/pmd-to-0/split_ms"][0]')" improvement '... the fix is an improvement'
like "$(jget "$TMP_T/body" '[round(m["delta_pct"]) for m in d["metrics"] if m["metric"] == "split/pmd-to-0/split_ms"][0]')" '^-(9|10)$' '... about -9%'
is "$(code "/api/v1/compare?series=s1&base=$C2&head=$C2&base_revision=7")" 404 'unknown base_revision: 404'
is "$(jget "$TMP_T/body" 'd["error"]["field"]')" base_revision '... names the field'

# The compare page across revisions: v1's tip against v2's tip by default, a revision picker per side.
is "$(code '/series/s1/compare?base_revision=1')" 200 'compare page: v1 against v2'
cp "$TMP_T/body" "$TMP_T/cmp"
like "$(grep -A2 'id="sides"' "$TMP_T/cmp")" "base: <a class=\"mono\" href=\"/series/s1/commit/$C2\\?revision=1\">$C2</a> mm: commit c2 <span class=\"muted\">v1</span>" \
	'... base: the tip of v1, linked in v1'
like "$(grep -A2 'id="sides"' "$TMP_T/cmp")" "head: <a class=\"mono\" href=\"/series/s1/commit/$C2\\?revision=2\">$C2</a> mm: commit c2 <span class=\"muted\">v2</span>" \
	'... head: the tip of v2'
like "$(grep -o '>split/<span class="nw">pmd-to-0</span>/split_ms</a></td>.*' "$TMP_T/cmp" | head -1)" '<td class="num" data-label="delta">-(9|10)\.[0-9]*%</td><td class="num" data-label="interval">\[[^]]*\]</td><td class="num" data-label="boots">5/5</td><td data-label="decided by">rank test, p [0-9.]+, q [0-9.]+</td><td class="v-imp" data-label="verdict">improvement ' \
	'... the fix in v2 is an improvement of about -9%, as the API says'
like "$(cat "$TMP_T/cmp")" '<ul class="selector" id="base-revisions"><li>base revision:</li><li><strong aria-current="page">v1</strong></li><li><a href="/series/s1/compare\?revision=2&amp;base_revision=2">v2</a></li></ul>' \
	'... links pick the base revision'
like "$(cat "$TMP_T/cmp")" '<ul class="selector" id="head-revisions"><li>head revision:</li><li><a href="/series/s1/compare\?revision=1&amp;base_revision=1">v1</a></li><li><strong aria-current="page">v2</strong>' \
	'... and the head revision'
like "$(cat "$TMP_T/cmp")" '<input type="hidden" name="revision" value="2"><input type="hidden" name="base_revision" value="1">' \
	'... the commit form keeps both revisions'
is "$(code '/series/s1/compare?base_revision=1&base=c1c1&head=c2c2')" 200 'compare c1 of v1 with c2 of v2'
like "$(grep -A1 'id="sides"' "$TMP_T/body")" 'base: .*>c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1</a> mm: commit c1 <span class="muted">v1</span>' '... base c1 of v1'
like "$(grep -o 'name="base">.*</select></label><label>head' "$TMP_T/body")" '<option value="c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1" selected>' '... selected in the base list'
is "$(code '/series/s1/compare?base_revision=7')" 404 'compare page: unknown base_revision: 404'
like "$(cat "$TMP_T/body")" 'base_revision' '... names it'
is "$(code '/series/s1/compare?base_revision=x')" 400 'compare page: bad base_revision: 400'
like "$(cat "$TMP_T/body")" 'base_revision must be a positive number' '... names it'
is "$(code '/series/s1/compare?revision=1&base_revision=1')" 200 'compare page within v1'
like "$(grep -A2 'id="sides"' "$TMP_T/body")" 'base: .*mm: commit base <span class="muted">v1</span>.*' '... one revision: its first commit against its last'

"$SERVER" regressions --db "$DB" --series s1 >/dev/null   # v2 is newest: nothing stored for v1 yet
is "$(code '/series/s1/metric/split/pmd-to-0/split_ms?revision=1')" 200 'metric page of v1'
like "$(cat "$TMP_T/body")" '<th>interval</th>' '... shows the interval column'
like "$(grep -c 'class="verdict v-reg" data-label="verdict">regression' "$TMP_T/body")" '^1$' '... one regression verdict (c2)'
is "$(code '/plot/s1/split/pmd-to-0/split_ms/big.svg?revision=1')" 200 'big plot of v1'
like "$(cat "$TMP_T/body")" 'interval \(vs parent\)' '... with the interval band'
like "$(cat "$TMP_T/body")" '<text>regression \+1[01]\.[0-9]%</text>' '... and the regression marker (from the analysis rows)'
is "$(code '/plot/s1/split/pmd-to-0/split_ms/big.svg')" 200 'big plot of v2'
is "$(grep -c '<text>regression' "$TMP_T/body")" 0 '... no marker: the regression is gone in v2'
is "$(code '/plot/s1/split/pmd-to-0/split_ms/small.png?revision=1')" 200 'PNG plot'
like "$(grep -i '^content-type' "$TMP_T/headers")" 'image/png' '... served as image/png'
is "$(head -c 4 "$TMP_T/body" | od -An -c | tr -d ' ')" '211PNG' '... with the PNG signature'
is "$(code '/plot/s1/split/pmd-to-0/split_ms/big.gif')" 404 'other formats: 404'

is "$(code "/series/s1/commit/$C2?revision=1")" 200 'commit page of c2 (v1)'
like "$(grep -A3 'id="counters-changed"' "$TMP_T/body")" 'thp_split_page</td><td class="num">256</td><td class="num">512' '... counters that changed most against the parent'
stop_server
is $? 0 'server exits 0'
done_testing
