#!/bin/bash
# A plot of more than FW_PLOT_DENSE_COMMITS (200) commits draws the commits'
# medians (and the interval band), not every sample and per-boot median: tens
# of thousands of points would make megabytes of SVG. A window of at most 200
# commits of the same series draws every sample again; the metric page says
# which it shows. Prints the two SVGs' sizes as figures.
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
is "$(code "/series/dense/metric/split/pmd-to-0/split_ms?from=111&to=210")" 200 '... of the window'
like "$(cat "$TMP_T/body")" 'Points: every sample; circles: per-boot medians' '... says every sample is drawn'
stop_server
done_testing
