#!/bin/bash
# A long history a window at a time (issue 31): the series page of a
# revision with more than 50 commits shows its newest 50 positions, says
# which of how many, and links to older, newer and all; ?from=&to= choose
# the window (also for the series answer, CSV and plots), 400 when wrong;
# the small plots show the page's window; a commit's delta is the same in
# a window as in the whole page (the analysis' against its parent, even
# when the parent is outside the window). Prints the page's size and time,
# window against whole, as figures (not asserted).
. tests/lib/tap.sh
. tests/lib/server.sh

mkdir -p "$TMP_T/gen" "$TMP_T/sealed"
specs=$(step_specs 130 120)   # a +10% step at position 120
# shellcheck disable=SC2086
"$PY" tests/lib/gen-series.py "$TMP_T/gen" long icount 3 $specs >/dev/null || bail gen
for f in "$TMP_T"/gen/*.json; do "$SERVER" seal "$f" >"$TMP_T/sealed/${f##*/}" || bail "seal $f"; done
DB=$TMP_T/fw.db
"$SERVER" import -q --db "$DB" "$TMP_T"/sealed/*.json || bail import
start_server "$DB" || bail "server did not start"

rows() { # matrix rows against the parent in $TMP_T/body
	"$PY" -c 'import re, sys; p = open(sys.argv[1]).read(); m = re.search(r"id=\"matrix-parent\">(.*?)</table>", p, re.S)
print(len(re.findall(r"<tbody>|<tr>", m.group(1))) - 1 if m else -1)' "$TMP_T/body"
}
is "$(code /series/long)" 200 'series page of a 131-commit revision'
cp "$TMP_T/body" "$TMP_T/window.html"
like "$(cat "$TMP_T/body")" '<p class="window" id="window">Commits at positions 81&ndash;130 of 131 commits \(positions 0&ndash;130\)\. <a rel="prev" href="/series/long\?from=31&amp;to=80">older</a> <a href="/series/long\?from=0">all</a></p>' \
	'... shows the newest 50 positions, says so, links older and all'
is "$(rows)" 50 '... 50 rows in the matrix'
like "$(grep -o 'small.svg[^"]*' "$TMP_T/body" | head -1)" '^small\.svg\?from=81&amp;to=130$' '... its small plots show the same window'
is "$(code '/plot/long/split/pmd-to-0/split_ms/small.svg?from=81&to=130')" 200 '... and render'
# The interval band is one box per commit (issue 29), not a funnel joined between commits
# (plot 2: plot 1 is the floor band behind it).
is "$(code '/plot/long/split/pmd-to-0/split_ms/big.svg?from=110&to=130')" 200 'the big plot of positions 110-130'
is "$("$PY" -c 'import re, sys; s = open(sys.argv[1]).read()
m = re.search(r"<g id=\"gnuplot_plot_2\"(.*?)<g id=\"gnuplot_plot_3\"", s, re.S); print(m.group(1).count("<polygon") if m else -1)' "$TMP_T/body")" 22 \
	'... its interval band: one box per commit (21) and the key'
is "$(code '/series/long?from=31&to=80')" 200 'an older window'
like "$(grep -o '<p class="window".*</p>' "$TMP_T/body")" 'rel="prev" href="/series/long\?from=0&amp;to=30">older</a> <a rel="next" href="/series/long\?from=81&amp;to=130">newer</a>' \
	'... links both ways'
is "$(rows)" 50 '... 50 rows'
is "$(code '/series/long?from=0')" 200 'all of it'
is "$(grep -c 'id="window"' "$TMP_T/body")" 0 '... without the window note'
is "$(rows)" 131 '... 131 rows'
# One truth across windows: the step at 120 shows the same delta in a window and in all.
whole=$(grep -o 'matrix-parent.*' "$TMP_T/body" | grep -o '<a href="/series/long/commit/p120[^"]*"' | head -1)
delta_of_120() { "$PY" -c 'import re, sys; p = open(sys.argv[1]).read(); p = p[p.index("id=\"matrix-parent\""):]
print(re.findall(r"p120p120p120[^<]*</a>.*?<td class=\"num v-\w+\"><a href=\"[^\"]*split_ms\">([^ <]+)", p, re.S)[0])' "$1"; }
cp "$TMP_T/body" "$TMP_T/all.html"
is "$(delta_of_120 "$TMP_T/window.html")" "$(delta_of_120 "$TMP_T/all.html")" 'the step at 120: the same delta in the window as in all'
like "$(delta_of_120 "$TMP_T/window.html")" '^\+(9|10)\.[0-9]+%$' '... about +10%'
code '/series/long?from=81&to=82' >/dev/null
like "$(grep -o 'p81p81p81[^<]*</a>.\{0,400\}' "$TMP_T/body" | head -1)" 'class="num v-[a-z]+"><a href="[^"]*">[-+][0-9]' \
	'the first commit of a window has its delta (its parent is outside the window)'

is "$(code '/api/v1/series/long?from=125&to=127')" 200 'series answer of a window'
is "$(jget "$TMP_T/body" '[c["position"] for c in d["commits"]]')" '[125, 126, 127]' '... its commits only'
is "$(jget "$TMP_T/body" 'd["window"]')" \
	"{'from': 125, 'to': 127, 'total_commits': 131, 'first_position': 0, 'last_position': 130, 'older': '/api/v1/series/long?revision=1&from=122&to=124', 'newer': '/api/v1/series/long?revision=1&from=128&to=130'}" \
	'... says which part it is, with the URLs of the windows before and after it'
is "$(code "$(jget "$TMP_T/body" 'd["window"]["older"]')")" 200 'following older'
is "$(jget "$TMP_T/body" '[c["position"] for c in d["commits"]]')" '[122, 123, 124]' '... gives the three before'
is "$(code '/api/v1/series/long?from=0&to=1')" 200 'the first window'
is "$(jget "$TMP_T/body" 'd["window"]["older"]')" None '... has no older one'
is "$(code '/api/v1/series/long')" 200 'the series answer without from/to'
is "$(jget "$TMP_T/body" '[len(d["commits"]), d["window"]["from"], d["window"]["to"], d["window"]["older"]]')" \
	"[100, 31, 130, '/api/v1/series/long?revision=1&from=0&to=30']" \
	'... is the newest 100 of 131 positions, with the cursor to the older ones'
is "$(code '/api/v1/series/long?from=0')" 200 'from=0'
is "$(jget "$TMP_T/body" '[len(d["commits"]), "window" in d]')" '[131, False]' '... is all of it, no window'
sha=$(jget "$TMP_T/body" 'd["commits"][3]["sha"]')
is "$(code "/api/v1/series/long?commits=${sha:0:12}")" 200 'commits= naming a commit older than the newest 100'
is "$(jget "$TMP_T/body" '[c["position"] for c in d["commits"]]')" '[3]' '... finds it (commits= selects from all)'
is "$(code '/api/v1/series/long?from=9&to=3')" 400 'from > to: 400'
is "$(jget "$TMP_T/body" 'd["error"]["field"]')" to '... naming to'
is "$(code '/series/long?from=x')" 400 'from not a number: 400'
# Figures, not asserted: the response cache is bypassed by a fresh query string each time.
t0=$(date +%s%N); code '/series/long?n=1' >/dev/null; t1=$(date +%s%N)
t2=$(date +%s%N); code '/series/long?from=0&n=1' >/dev/null; t3=$(date +%s%N)
diag "series page (analysis cached): window of 50 $(wc -c <"$TMP_T/window.html") bytes in $(( (t1 - t0) / 1000000 )) ms," \
	"all 131 $(wc -c <"$TMP_T/all.html") bytes in $(( (t3 - t2) / 1000000 )) ms"
stop_server
is $? 0 'server exits 0'
done_testing
