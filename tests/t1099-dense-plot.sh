#!/bin/bash
# A plot of more than FW_PLOT_DENSE_COMMITS (200) commits draws the commits'
# medians (and the interval band), not every sample and per-boot median: tens
# of thousands of points would make megabytes of SVG. A window of at most 200
# commits of the same series draws every sample again; the metric page says
# which it shows, and its table lists the newest 100 commits unless from=/to=
# ask (all of them: ?from=0). Prints the SVGs' and pages' sizes as figures.
. tests/lib/tap.sh
. tests/lib/server.sh

DB=$TMP_T/fw.db
# shellcheck disable=SC2086
import_series "$DB" "$TMP_T/gen" dense icount 2 $(step_specs 210 205) || bail import
start_server "$DB" || bail "server did not start"
PLOT=/plot/dense/split/pmd-to-0/split_ms/big.svg
key_titles() { # the plot's key entries, one per line
	"$PY" -c 'import re, sys
for t in re.findall(r"<text>([^<]*)</text>", open(sys.argv[1]).read()): print(t)' "$TMP_T/body"
}

is "$(code "$PLOT")" 200 'the big plot of all 211 commits'
whole=$(wc -c <"$TMP_T/body")
titles=$(key_titles)
like "$titles" '^median$' '... draws the commit medians'
unlike "$titles" '^samples$' '... not every sample'
unlike "$titles" '^boot median$' '... nor every per-boot median'

is "$(code "$PLOT?from=111&to=210")" 200 'a window of 100 commits'
window=$(wc -c <"$TMP_T/body")
titles=$(key_titles)
like "$titles" '^samples$' '... draws every sample'
like "$titles" '^boot median$' '... and every per-boot median'
diag "SVG of 211 commits drawn dense: $whole bytes; of 100 commits with every sample: $window bytes"

is "$(code /series/dense/metric/split/pmd-to-0/split_ms)" 200 'the metric page'
like "$(cat "$TMP_T/body")" '211 commits: samples and per-boot medians are drawn for at most 200' '... says the plot shows medians only'
points() { "$PY" -c 'import re, sys
t = re.search(r"id=\"points\">(.*?)</table>", open(sys.argv[1]).read(), re.S).group(1)
print(t.count("<tr><td class=\"card-title\">"))' "$TMP_T/body"; }
is "$(points)" 100 '... its table: the newest 100 commits (the plot has all 211)'
like "$(cat "$TMP_T/body")" 'The table has the newest 100 of 211 commits \(positions 111&ndash;210\); <a href="/series/dense/metric/split/pmd-to-0/split_ms\?from=0">all of them</a>' \
	'... says so and links all of them'
small=$(wc -c <"$TMP_T/body")
is "$(code /series/dense/metric/split/pmd-to-0/split_ms?from=0)" 200 '... ?from=0'
is "$(points)" 211 '... lists all 211'
like "$(cat "$TMP_T/body")" 'The table has every value' '... and says so'
diag "metric page of 211 commits: $small bytes (newest 100 in the table), $(wc -c <"$TMP_T/body") bytes (all)"
is "$(code "/series/dense/metric/split/pmd-to-0/split_ms?from=111&to=210")" 200 '... of the window'
like "$(cat "$TMP_T/body")" 'Points: every sample; circles: per-boot medians' '... says every sample is drawn'
stop_server
done_testing
