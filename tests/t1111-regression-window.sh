#!/bin/bash
# A regression of a long history links its metric page, plot and trend
# with the window of positions around its commit (issue 31): bare, they
# show the newest FW_METRIC_PAGE_COMMITS (500) positions, which an older
# regression is not among, so the link opened a page without it.
. tests/lib/tap.sh
. tests/lib/server.sh

DB=$TMP_T/fw.db
# 521 commits of 2 icount boots, the ones from position 5 on 10% slower: a regression at p5.
# shellcheck disable=SC2086
import_series "$DB" "$TMP_T/gen" wide icount 2 $(step_specs 520 5) || bail import
start_server "$DB" || bail "server did not start"

is "$(code '/api/v1/regressions?series=wide')" 200 'the regressions of a 521-commit revision'
cp "$TMP_T/body" "$TMP_T/regs.json"
R="[g for g in d['regressions'] if g['metric'] == 'split_ms'][0]"
SHA=$(jget "$TMP_T/regs.json" "$R['sha']")
is "$SHA" "$(sqlite3 "$DB" "SELECT sha FROM commits WHERE position = 5")" '... one at position 5'
for k in metric plot trend; do
	like "$(jget "$TMP_T/regs.json" "$R['links']['$k']")" '[?&]from=0&to=499$' "... links.$k has the window around it (0-499)"
done
# The bare metric page: the newest 500 positions (21-520), without the regression's commit.
M=$(jget "$TMP_T/regs.json" "$R['links']['metric']")
is "$(code "${M%%&from=*}")" 200 'the metric page without the window'
like "$(cat "$TMP_T/body")" 'Commits at positions 21&ndash;520 of 521' '... positions 21-520: not the regression'"'"'s 5'
is "$(code "$M")" 200 'links.metric'
like "$(cat "$TMP_T/body")" 'Commits at positions 0&ndash;499 of 521' '... shows positions 0-499'
like "$(cat "$TMP_T/body")" 'src="/plot/wide/split/pmd-to-0/split_ms/big.svg[^"]*from=0&amp;to=499"' '... its plot of the same positions'
is "$(code "$(jget "$TMP_T/regs.json" "$R['links']['trend']")")" 200 'links.trend'
is "$(jget "$TMP_T/body" "[p['sha'] for p in d['points'] if p['sha'] == '$SHA'] == ['$SHA']")" True \
	'... has the regression'"'"'s commit'
is "$(code "$(jget "$TMP_T/regs.json" "$R['links']['plot']")")" 200 'links.plot renders'
# The regressions page links the same window.
is "$(code /regressions)" 200 'the regressions page'
like "$(cat "$TMP_T/body")" 'href="/series/wide/metric/split/[^"]*split_ms\?env=[0-9a-f]*&amp;revision=1&amp;from=0&amp;to=499"' \
	'... links the metric page of its revision with the window around the regression'
# A short history (21 commits): a bare page shows all of it, the links stay bare.
# shellcheck disable=SC2086
import_series "$DB" "$TMP_T/gen2" short icount 2 $(step_specs 20 5) || bail import
is "$(code '/api/v1/regressions?series=short')" 200 'the regressions of a 21-commit series'
is "$(jget "$TMP_T/body" "[k for g in d['regressions'] for k, u in g['links'].items() if 'from=' in u]")" '[]' \
	'... link no window'
done_testing
