#!/bin/bash
# foliowatch-server export: the pages and plots as static files. Every href
# and src in the exported HTML resolves to a file inside the export folder
# (relative links only), plots are SVG (the big one with the interval band and
# the regression marker), hostile series/subject/metric names become safe
# file names and stay escaped, nothing is written outside the folder, and
# --series exports one series without dead links to the others.
. tests/lib/tap.sh
. tests/lib/server.sh
DB="$TMP_T/fw.db"
OUT="$TMP_T/out"
PWN="$TMP_T/pwned"

# A real analysed series with 10% regressions at c2 and counters (gen-series.py).
mkdir -p "$TMP_T/docs"
# filemap's bandwidth drops 10% at c2 too: two stored regressions, so a filtered page can show fewer.
"$PY" tests/lib/gen-series.py "$TMP_T/docs" s1 tcg 5 base:0:-:1:1 c1:1:base:1:1 c2:2:c1:1.1:0.9:2 >/dev/null
for f in "$TMP_T"/docs/*.json; do "$SERVER" seal "$f" >"$f.sealed" || bail "seal $f"; done
"$SERVER" import --db "$DB" -q "$TMP_T"/docs/*.sealed
ok $? 'series s1 imported'
"$SERVER" regressions --db "$DB" >/dev/null  # stores the regressions the analysis finds

# A hostile series: markup, quotes, gnuplot and shell syntax, '../' and '/' in names; a stored .config.
SERIES="<script>alert(1)</script>'; DROP TABLE runs;-- \"q\" \`touch $PWN.1\` ../../x a/b.csv"
SUBJ="\"; system(\"touch $PWN.2\"); print \" \`touch $PWN.3\` <img src=x onerror=alert(2)> & \$(touch $PWN.4)"
MET="m';DROP TABLE samples;--<i>\");system(\"touch fwpwned5\");(\""
make_doc "$TMP_T/h1.json" "series.name=$SERIES" "commit.subject=$SUBJ" "results.0.metric=$MET" \
	"build.config=CONFIG_SMP=y"
make_doc "$TMP_T/h2.json" "series.name=$SERIES" "commit.subject=$SUBJ 2" "results.0.metric=$MET" \
	commit.sha=bbbb000000000000000000000000000000000002 commit.key=bbbb000000000000000000000000000000000002 \
	commit.position=2 'results.0.samples=[80, 81]'
"$SERVER" import --db "$DB" -q "$TMP_T/h1.json" "$TMP_T/h2.json"
ok $? 'hostile series imported'

# Snapshot of everything outside the export folder (DB files excluded: they are the input).
snap() { (cd "$TMP_T" && find . -path ./out -prune -o -print | grep -v '^\./fw\.db' | sort); }
snap >"$TMP_T/before.lst"
"$SERVER" export --db "$DB" --out "$OUT" >"$TMP_T/export.log" 2>&1
ok $? 'export runs'
cat "$TMP_T/export.log" | sed 's/^/# /'
snap | grep -v -x -e ./before.lst -e ./after.lst -e ./export.log >"$TMP_T/after.lst"
is "$(diff "$TMP_T/before.lst" "$TMP_T/after.lst" | grep -c '^>')" 0 'nothing written outside the export folder'
is "$(find "$TMP_T" "$PWD" /tmp -maxdepth 2 -name '*pwned*' 2>/dev/null | wc -l)" 0 'no injected command ran'
is "$(find "$OUT" -name '.*' | wc -l)" 0 'no temp or scratch files left'
is "$(cd "$OUT" && find . -type f | grep -cvE '^\./(static/)?[A-Za-z0-9_.-]+$')" 0 'every file name is from the safe set'
is "$(find "$OUT" -mindepth 1 -type d | sed "s|$OUT/||")" static 'only one subfolder: static'

# Every link of every page: relative, inside OUT, an existing file.
check_links() { # check_links DIR: prints one line per bad link, then "pages N links M"
	"$PY" - "$1" <<'PYEOF'
import os, sys, html.parser, urllib.parse
root = os.path.realpath(sys.argv[1])
class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(); self.links = []
    def handle_starttag(self, tag, attrs):
        for k, v in attrs:
            if k in ("href", "src"):
                self.links.append(v)
pages = links = 0
for dp, dn, fn in os.walk(root):
    for f in fn:
        if not f.endswith(".html"):
            continue
        pages += 1
        text = open(os.path.join(dp, f), encoding="utf-8").read()
        p = P(); p.feed(text)
        for l in p.links:
            links += 1
            if l.startswith("#"):  # an anchor in the same page: its id must be there
                if ('id="%s"' % l[1:]) not in text:
                    print("dead anchor in %s: %r" % (f, l))
                continue
            u = urllib.parse.urlsplit(l)
            if u.scheme or u.netloc or l.startswith("/"):
                print("absolute link in %s: %r" % (f, l)); continue
            t = os.path.realpath(os.path.join(dp, urllib.parse.unquote(u.path)))
            if not t.startswith(root + os.sep):
                print("link leaves the folder in %s: %r" % (f, l))
            elif not os.path.isfile(t):
                print("dead link in %s: %r" % (f, l))
print("pages %d links %d" % (pages, links))
PYEOF
}
check_links "$OUT" >"$TMP_T/links.txt"
tail -1 "$TMP_T/links.txt" | sed 's/^/# /'
is "$(grep -vc '^pages' "$TMP_T/links.txt")" 0 'every href/src resolves to an existing file in the folder'
grep -v '^pages' "$TMP_T/links.txt" | head -5 | sed 's/^/# /'
like "$(tail -1 "$TMP_T/links.txt")" '^pages ([1-9][0-9]) links [1-9][0-9]{2,}' '... over many pages and links'

is "$(grep -l '<script\|<img src=x\|<i>' "$OUT"/*.html | wc -l)" 0 'hostile markup escaped on every page'
like "$(cat "$OUT"/index.html)" '&lt;script&gt;alert\(1\)&lt;/script&gt;' '... and shown as text on the index'
nsvg=$(ls "$OUT"/*.svg | wc -l)
like "$nsvg" '^[1-9]' "plots exported ($nsvg)"
bad=0
for f in "$OUT"/*.svg; do
	head -c 300 "$f" | grep -q '<svg' || bad=$((bad + 1))
	"$PY" -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$f" 2>/dev/null || bad=$((bad + 1))
	grep -Eqi '<script|<img|<i>|onerror=|`' "$f" && bad=$((bad + 1))
done
is "$bad" 0 'every plot is well-formed SVG without hostile text'
is "$(ls "$OUT" | grep -c '\.png$')" 0 'no PNG unless asked'

# s1: the big plot of split_ms carries the band and the marker; the commit page the counters.
s1=$(grep -o 'href="s-s1-[0-9a-f]*\.html"' "$OUT/index.html" | head -1 | sed 's/href="//; s/"$//')
like "$s1" '^s-s1-[0-9a-f]{12}\.html$' 'series page of s1 linked from the index'
big=$(grep -l 'split_ms' "$OUT"/s-s1-*-m-*.html | head -1)
src=$(grep -o 'src="[^"]*-big\.svg"' "$big" | sed 's/src="//; s/"$//')
like "$(cat "$OUT/$src")" 'interval \(vs parent\)' 'big plot: interval band in the key'
like "$(cat "$OUT/$src")" 'regression \+[0-9.]+% \(new\)' 'big plot: regression marker labelled with its status'
like "$(cat "$big")" 'id="regressions"' 'metric page lists the stored regression'
like "$(cat "$OUT/$s1")" 'id="matrix-parent"' 'series page: the verdict matrix'
like "$(grep -o 'href="s-s1-[0-9a-f]*-compare\.html"' "$OUT/$s1")" 'compare' '... links its compare page'
like "$(grep -A3 'id="compare"' "$OUT"/s-s1-*-compare.html)" 'split/<span class="nw">pmd-to-0</span>/split_ms' 'compare page exported (first against last commit)'
like "$(grep -c '<tr><td class="card-title">' "$OUT/regressions.html")" '^[1-9]' 'regressions page exported with the stored regressions'
like "$(cat "$OUT/index.html")" 'href="regressions.html"' '... linked from the index'
is "$(grep -c '<form' "$OUT/regressions.html")" 0 '... without the filter form (a static page cannot filter)'
like "$(cat "$OUT/regressions.html")" '<nav aria-label="filters" id="filter-links"><p class="note">A static export cannot combine filters' \
	'... instead one page per filter value, linked, and the page says why they do not combine'
for facet in series status metric env; do
	like "$(grep -o "<ul class=\"selector\" id=\"filter-$facet\">.*</ul>" "$OUT/regressions.html")" \
		"<strong aria-current=\"page\">any</strong></li><li><a href=\"regressions-$facet-[A-Za-z0-9_]*-[0-9a-f]{12}\.html\">" \
		"... filter by $facet: links to its pages (the link check: they exist)"
done
is "$(grep -c '<tr><td class="card-title">' "$OUT/regressions.html")" 2 '... two regressions unfiltered (split and filemap)'
split_page=$(grep -o '<a href="regressions-metric-[^"]*">split/pmd-to-0/split_ms</a>' "$OUT/regressions.html" | sed 's/<a href="//; s/".*//')
ok $([ -f "$OUT/$split_page" ] && echo 0 || echo 1) '... the metric filter page of split_ms is written'
is "$(grep -c '<tr><td class="card-title">' "$OUT/$split_page")" 1 '... it lists only the split_ms regression'
like "$(grep -o '<tr><td class="card-title">.*</tr>' "$OUT/$split_page")" '>split/<span class="nw">pmd-to-0</span>/split_ms</a>' '... which is split_ms'
like "$(grep -o 'id="filter-metric">.*</ul>' "$OUT/$split_page")" '<li><a href="regressions.html">any</a></li>.*<li><strong aria-current="page">split/pmd-to-0/split_ms</strong>' \
	'... marked as the current filter, "any" links back'
c2=$(grep -o 'href="s-s1-[0-9a-f]*-c-[A-Za-z0-9_]*-[0-9a-f]*\.html">c2c2' "$OUT/$s1" | head -1 | sed 's/href="//; s/">.*//')
like "$(grep -A3 'id="counters-changed"' "$OUT/$c2")" 'thp_split_page.*\+100\.00%' 'commit page: counters that changed most against the parent'
like "$(cat "$OUT"/*-report.txt)" 'split_ms' 'report.txt exported'
like "$(grep -l '^CONFIG_SMP=y$' "$OUT"/config-*.txt | wc -l)" '^[1-9]' 'stored .config files are exported (and linked: see the link check)'
like "$(ls "$OUT" | grep -Ec '^s-_script_alert_1___script____DROP-[0-9a-f]{12}\.html$')" '^1$' 'the hostile series page has a slug-and-hash name'
like "$(cat "$OUT"/s-_script*-c-*.html)" 'href="config-' '... its commit page links its .config'

# --series: only that series, no dead links to the others.
"$SERVER" export --db "$DB" --out "$TMP_T/out/one" --series s1 >/dev/null 2>&1
ok $? 'export --series s1 (a folder inside the first export)'
check_links "$TMP_T/out/one" >"$TMP_T/links1.txt"
is "$(grep -vc '^pages' "$TMP_T/links1.txt")" 0 '... every link resolves'
is "$(ls "$TMP_T/out/one" | grep -c '^s-_script')" 0 '... the other series is not exported'
"$SERVER" export --db "$DB" --out "$TMP_T/out/none" --series nope >/dev/null 2>&1
is $? 1 'export of an unknown series fails'
"$SERVER" export --db "$TMP_T/missing.db" --out "$TMP_T/out/x" >/dev/null 2>&1
is $? 1 'export of a missing DB fails (and creates no DB)'
is "$(ls "$TMP_T" | grep -c missing)" 0 '... no DB file created'
done_testing
