#!/bin/bash
# Samples gnuplot cannot draw (|y| >= ~9e307, which the run document allows:
# they are finite): a plot draws the other values (200), a plot with none
# left answers 422 cannot_plot (never 500), and export never stops on a plot:
# it writes index.html and every series after that one.
. tests/lib/tap.sh
. tests/lib/server.sh
DB=$TMP_T/fw.db
mkdir -p "$TMP_T/docs"
split_series "$TMP_T/docs" a-huge '[9e307, 9.1e307]' '[9.2e307, 1.7e308]'
split_series "$TMP_T/docs" b-mixed '[61.9, 9.5e307]' '[62.3, 62.1]'
split_series "$TMP_T/docs" c-wide '[-5e307, 5e307]' '[61.0, 62.0]'
split_series "$TMP_T/docs" d-after '[61.9, 62.0]' '[62.3, 62.1]'
"$SERVER" import --db "$DB" -q "$TMP_T"/docs/*.sealed
ok $? 'four series imported, three with samples beyond 1e307'
start_server "$DB" || bail "server did not start"

for size in small big; do
	is "$(code "/plot/a-huge/split/pmd-to-0/split_ms/$size.svg")" 422 "$size plot with no drawable sample: 422, not 500"
	is "$(jget "$TMP_T/body" 'd["error"]["code"]')" cannot_plot '... cannot_plot'
	for s in b-mixed c-wide; do
		is "$(code "/plot/$s/split/pmd-to-0/split_ms/$size.svg")" 200 "$size plot of $s: 200 (what can be drawn)"
		"$PY" -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$TMP_T/body"
		is $? 0 '... well-formed SVG'
	done
done
is "$(code /plot/b-mixed/split/pmd-to-0/split_ms/small.png)" 200 'PNG too'
# The pages link no plot that cannot be drawn (it would be a broken image): they say why.
for page in /series/a-huge /series/a-huge/metric/split/pmd-to-0/split_ms; do
	is "$(code "$page")" 200 "$page: 200"
	is "$(grep -c 'src="/plot/a-huge/split/pmd-to-0/split_ms/' "$TMP_T/body")" 0 '... no image of the undrawable plot'
	like "$(cat "$TMP_T/body")" 'cannot plot: every sample is beyond' '... saying why instead'
done
code /series/b-mixed >/dev/null
like "$(cat "$TMP_T/body")" 'src="/plot/b-mixed/split/pmd-to-0/split_ms/small.svg' 'a partly drawable metric keeps its plot'
is "$(code /api/v1/series/a-huge)" 200 'the API still has the series'
like "$(cat "$TMP_T/body")" '"median":9\.05e\+307' '... its median as computed (9.05e307: no overflow to null in (a+b)/2)'
stop_server

"$SERVER" export --db "$DB" --out "$TMP_T/site" --static static >"$TMP_T/export.out" 2>"$TMP_T/export.err"
is $? 0 'export: exit 0 (a plot that cannot be drawn is reported, not a failure)'
like "$(cat "$TMP_T/export.err")" 'a-huge|split/pmd-to-0/split_ms.*not drawn' '... and reported'
ok "$([ -s "$TMP_T/site/index.html" ]; echo $?)" '... index.html written'
is "$(grep -c 'd-after' "$TMP_T/site/index.html")" 1 '... the series after it listed'
is "$(ls "$TMP_T/site" | grep -Ec '^s-d_after-[0-9a-f]{12}\.html$')" 1 '... and its page written'
done_testing
