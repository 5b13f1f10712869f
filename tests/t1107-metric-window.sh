#!/bin/bash
# A metric page of a long history (more than FW_METRIC_PAGE_COMMITS, 500,
# positions) shows its newest 500 positions unless from=/to= ask, plot
# included (a bare plot URL too), and says which of how many with older,
# newer and all links:
# at 10,000 commits the whole page loaded every sample of the metric (6-7 s
# cold). ?from=0 is the whole history, as before. Prints the page's and the
# plot's time and size, window against whole, as figures (not asserted).
. tests/lib/tap.sh
. tests/lib/server.sh

DB=$TMP_T/fw.db
# shellcheck disable=SC2086
import_series "$DB" "$TMP_T/gen" wide icount 1 $(step_specs 520 515) || bail import
start_server "$DB" || bail "server did not start"
PAGE=/series/wide/metric/split/pmd-to-0/split_ms
timed() { # URL: "seconds bytes" of one GET
	curl -s -o "$TMP_T/timed" -w '%{time_total} %{size_download}' "$URL$1"
}

is "$(code "$PAGE")" 200 'the metric page of a 521-commit revision'
like "$(cat "$TMP_T/body")" '<p class="window" id="window">Commits at positions 21&ndash;520 of 521 commits \(positions 0&ndash;520\)\. <a rel="prev" href="/series/wide/metric/split/pmd-to-0/split_ms\?from=0&amp;to=20">older</a> <a href="/series/wide/metric/split/pmd-to-0/split_ms\?from=0">all</a></p>' \
	'... shows the newest 500 positions, says so, links older and all'
plot=$(grep -o 'src="/plot/[^"]*big.svg[^"]*"' "$TMP_T/body" | head -1)
is "$plot" 'src="/plot/wide/split/pmd-to-0/split_ms/big.svg?from=21&amp;to=520"' '... its plot is of the same window'
like "$(cat "$TMP_T/body")" 'The table has the newest 100 of 500 commits \(positions 421&ndash;520\)' '... its table the newest 100 of them'
is "$(code '/plot/wide/split/pmd-to-0/split_ms/big.svg?from=21&to=520')" 200 '... and the plot renders'

is "$(code "$PAGE?from=0&to=20")" 200 'the older window'
like "$(grep -o '<p class="window".*</p>' "$TMP_T/body")" 'Commits at positions 0&ndash;20 of 521 commits.*<a rel="next" href="/series/wide/metric/split/pmd-to-0/split_ms\?from=21&amp;to=41">newer</a>' \
	'... links the newer one (of its size)'
unlike "$(cat "$TMP_T/body")" 'rel="prev"' '... and no older one'

is "$(code "$PAGE?from=0")" 200 'all of it: ?from=0'
unlike "$(cat "$TMP_T/body")" 'id="window"' '... is no window'
is "$(grep -o 'src="/plot/[^"]*big.svg[^"]*"' "$TMP_T/body" | head -1)" 'src="/plot/wide/split/pmd-to-0/split_ms/big.svg?from=0"' \
	'... its plot has every commit (from=0: a bare plot of a long history is its newest window)'
# The bare plot: the newest 500 positions, as the page (3.4 MB and 2.8 s a request at 10,000 commits).
code '/plot/wide/split/pmd-to-0/split_ms/small.svg' > /dev/null; cp "$TMP_T/body" "$TMP_T/bare.svg"
code '/plot/wide/split/pmd-to-0/split_ms/small.svg?from=21&to=520' > /dev/null; cp "$TMP_T/body" "$TMP_T/win.svg"
code '/plot/wide/split/pmd-to-0/split_ms/small.svg?from=0' > /dev/null; cp "$TMP_T/body" "$TMP_T/all.svg"
cmp -s "$TMP_T/bare.svg" "$TMP_T/win.svg"
ok $? "the bare plot is the newest 500 positions' ($(wc -c < "$TMP_T/bare.svg") bytes)"
cmp -s "$TMP_T/bare.svg" "$TMP_T/all.svg"
ok "$([ $? != 0 ]; echo $?)" "... not the whole history's ($(wc -c < "$TMP_T/all.svg") bytes)"
is "$(code "$PAGE?from=30&to=10")" 400 'from after to: 400'

# The trend answer of the metric: the same window, with a cursor (12.6 MB a request at 10,000 commits).
TREND='/api/v1/trend?series=wide&metric=split/pmd-to-0/split_ms'
is "$(code "$TREND")" 200 'the trend answer of a 521-commit revision'
is "$(jq -c '[(.points | length), .points[0].position, .points[-1].position, .window.from, .window.to, .window.total_commits, .window.newer]' "$TMP_T/body")" \
	'[500,21,520,21,520,521,null]' '... holds the newest 500 positions and says so'
older=$(jq -r .window.older "$TMP_T/body")
like "$older" '^/api/v1/trend\?series=wide&metric=split%2Fpmd-to-0%2Fsplit_ms&env=[0-9a-f]+&revision=1&from=0&to=20$' '... its older window named'
is "$(code "$older")" 200 '... which answers'
is "$(jq -c '[(.points | length), .points[0].position, .window.older, (.window.newer | test("from=21&to=41$"))]' "$TMP_T/body")" \
	'[21,0,null,true]' '... with positions 0-20, no older one and a newer one of its size'
is "$(code "$TREND&from=0")" 200 'the whole trend: from=0'
is "$(jq -c '[(.points | length), has("window")]' "$TMP_T/body")" '[521,false]' '... every position, no window'
is "$(code "$TREND&from=30&to=10")" 400 '... from after to: 400'

# figures: the newest window against the whole (the first request of each after a restart)
stop_server
start_server "$DB" || bail "server did not restart"
w=$(timed "$PAGE") wp=$(timed '/plot/wide/split/pmd-to-0/split_ms/big.svg?from=21&to=520')
a=$(timed "$PAGE?from=0") ap=$(timed '/plot/wide/split/pmd-to-0/split_ms/big.svg?from=0')
diag "metric page, cold: window $w, whole $a (s bytes); its plot: window $wp, whole $ap"
stop_server
done_testing
