#!/bin/bash
# report --format markdown (issue 56), for a merge-request comment, rendered
# by a real CommonMark parser (cmark, --unsafe: raw HTML passes, so markup
# that got through would show). On the fixed copy of the demo: a heading with
# what moved counted, the what-moved text whole in the first code block (its
# decided rows within the first 50 lines), every row (report --all) folded in
# <details>; report.md serves the same. On a series with hostile names: no
# tag of theirs in the HTML, and a subject's backticks cannot close the fence.
. tests/lib/tap.sh
. tests/lib/server.sh
command -v cmark >/dev/null || bail "cmark missing: run ci/install-deps.sh"

DB=$TMP_T/demo.db
"$SERVER" import -q --db "$DB" tests/data/demo-series/*.json || bail "import demo"
"$SERVER" report --db "$DB" --series demo --format markdown >"$TMP_T/r.md"
is $? 0 'report --format markdown exits 0'
"$SERVER" report --db "$DB" --series demo >"$TMP_T/moved.txt" || bail "report"
"$SERVER" report --db "$DB" --series demo --all >"$TMP_T/all.txt" || bail "report --all"
cmark --unsafe "$TMP_T/r.md" >"$TMP_T/r.html"
is $? 0 'cmark renders it'
is "$("$PY" - "$TMP_T/r.html" "$TMP_T/moved.txt" "$TMP_T/all.txt" <<'PY'
import html, re, sys
page = open(sys.argv[1], encoding="utf-8").read()
moved = open(sys.argv[2], encoding="utf-8").read()
every = open(sys.argv[3], encoding="utf-8").read()
blocks = [html.unescape(b) for b in re.findall(r'<pre><code class="language-text">(.*?)</code></pre>', page, re.S)]
head = re.search(r"<h3>(.*?)</h3>", page)
print("h3 %s; blocks %d; first is what moved %s; the second every row %s, folded %s" % (
    head.group(1) if head else None, len(blocks), blocks[:1] == [moved], blocks[1:2] == [every],
    bool(re.search(r"<details><summary>Every row \(report --all\)</summary>.*<pre>.*</details>", page, re.S))))
PY
)" "h3 foliowatch: demo v1, 3 patches; blocks 2; first is what moved True; the second every row True, folded True" \
	'a heading, what moved in the first code block, every row folded in <details>'
like "$(sed -n 3p "$TMP_T/r.md")" '^0 regressions, 4 improvements, 12 unsure' '... what moved counted under the heading'
decided=$(grep -cE ' (better|worse)$' "$TMP_T/moved.txt")
is "$(head -n 50 "$TMP_T/r.md" | grep -cE ' (better|worse)$')" "$decided" "... its first screen (50 lines) holds every decided row ($decided)"

start_server "$DB" || bail "server did not start"
code /api/v1/series/demo/report.md >/dev/null
cmp -s "$TMP_T/body" "$TMP_T/r.md"
ok $? 'report.md is the same text'
like "$(grep -i '^content-type' "$TMP_T/headers")" 'text/markdown' '... as text/markdown'
stop_server

# hostile names: the series name in the heading, backticks and tags in a
# subject and in a workload (a table's head starts a line: a fence of three
# backticks would end there)
fields=$("$PY" -c 'import json; print(json.dumps({"series.name": "<script>alert(1)</script>", "commit.subject": "```` <img src=x onerror=alert(2)> `x`", "results.0.workload": "````<b>x"}))')
mkdir -p "$TMP_T/docs"
"$PY" tests/lib/gen-named.py "$TMP_T/docs" hostile "$fields" || bail "gen"
for f in "$TMP_T"/docs/*.json; do "$SERVER" seal "$f" >"$f.sealed" || bail "seal $f"; done
"$SERVER" import --db "$TMP_T/h.db" -q "$TMP_T"/docs/*.sealed || bail "import hostile"
"$SERVER" report --db "$TMP_T/h.db" --series "<script>alert(1)</script>" --format markdown >"$TMP_T/h.md"
is $? 0 'a hostile series: report --format markdown exits 0'
cmark --unsafe "$TMP_T/h.md" >"$TMP_T/h.html"
is "$(grep -ciE '<script|<img|<b>' "$TMP_T/h.html")" 0 '... no tag of its names in the HTML'
like "$(cat "$TMP_T/h.html")" '<h3>foliowatch: &lt;script&gt;alert\(1\)&lt;/script&gt; v1' '... the name shown as text in the heading'
# a name of 72 backticks wraps onto a line of its own: a fence of fewer would end there
"$PY" tests/lib/gen-named.py "$TMP_T/docs" ticks '{"series.name": "'"$(printf '`%.0s' $(seq 72))"'"}' || bail "gen ticks"
"$SERVER" seal "$TMP_T/docs/ticks-0.json" >"$TMP_T/t0.sealed" && "$SERVER" seal "$TMP_T/docs/ticks-1.json" >"$TMP_T/t1.sealed" &&
	"$SERVER" import --db "$TMP_T/h.db" -q "$TMP_T"/t[01].sealed || bail "import ticks"
"$SERVER" report --db "$TMP_T/h.db" --series "$(printf '`%.0s' $(seq 72))" --format markdown >"$TMP_T/t.md"
is "$(head -n 8 "$TMP_T/t.md" | grep -c '^`\{72\}$')" 1 'a name of 72 backticks: a line of its own in the text'
cmark --unsafe "$TMP_T/t.md" >>"$TMP_T/h.html"
is "$("$PY" - "$TMP_T/h.html" "$TMP_T/h.md" <<'PY'
import html, re, sys
page = open(sys.argv[1], encoding="utf-8").read()
blocks = [html.unescape(b) for b in re.findall(r'<pre><code class="language-text">(.*?)</code></pre>', page, re.S)]
print(len(blocks), all("Every row: report --all" in b or "better/worse:" in b for b in blocks))
PY
)" "4 True" '... backticks in names close no fence: two code blocks a report, each whole'
done_testing
