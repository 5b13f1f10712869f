#!/bin/bash
# Change points are first-class (issue 31): a generated icount series of 30
# commits whose split time steps up 10% at position 15 (bandwidth flat). The
# analysis' change point of split_ms shows in the series JSON (and a window
# that does not hold it lists none), on the series page, on the metric page
# and as a dashed line on the big plot; bandwidth has none anywhere. A change
# point opens no regression by itself: the stored regressions are the decided
# rows' (one per metric the step moved, at position 15).
. tests/lib/tap.sh
. tests/lib/server.sh

DB=$TMP_T/fw.db
# shellcheck disable=SC2086
import_series "$DB" "$TMP_T/gen" steps icount 3 $(step_specs 29 15) || bail import
start_server "$DB" || bail "server did not start"

SHA15=$(sqlite3 "$DB" "select sha from commits where position = 15")
is "$(code /api/v1/series/steps)" 200 'GET /api/v1/series/steps'
is "$(jget "$TMP_T/body" '" ".join("%s@%d:%s" % (c["metric"], c["position"], c["sha"]) for c in d["change_points"])')" \
	"split/pmd-to-0/split_ms@15:$SHA15" \
	'its change_points: split_ms at position 15 only (bandwidth and its flat history have none)'
is "$(jget "$TMP_T/body" '"%.1f" % d["change_points"][0]["delta_pct"]')" 10.0 '... +10.0% from the median before to the one after'
is "$(jget "$TMP_T/body" 'list(d.keys())[-1]')" commits '... and commits stay the last key of the answer'
is "$(code '/api/v1/series/steps?from=0&to=10')" 200 'a window before the step'
is "$(jget "$TMP_T/body" 'len(d["change_points"])')" 0 '... lists no change point'
is "$(code '/api/v1/series/steps?from=10&to=29')" 200 'a window holding the step'
is "$(jget "$TMP_T/body" '[c["position"] for c in d["change_points"]]')" '[15]' '... lists it'

cp_table() { "$PY" -c 'import re, sys
m = re.search(r"id=\"change-points\">(.*?)</table>", open(sys.argv[1]).read(), re.S)
print(re.sub(r"<[^>]+>", " ", re.sub(r"</?span[^>]*>", "", m.group(1))) if m else "none")' "$TMP_T/body" | tr -s ' \n' ' '; }
is "$(code /series/steps)" 200 'the series page'
like "$(cp_table)" "15 split/pmd-to-0/split_ms ${SHA15:0:12} .* \+10\.[0-9]+%" '... lists the change point with its metric and commit'
unlike "$(cp_table)" 'bw_mib_s' '... and none of bandwidth'
is "$(code /series/steps/metric/split/pmd-to-0/split_ms)" 200 'the metric page of split_ms'
like "$(cp_table)" "15 ${SHA15:0:12} .* \+10\.[0-9]+%" '... lists it'
like "$(cat "$TMP_T/body")" 'dashed lines: change points' '... and its caption names the dashed lines'
is "$(code /series/steps/metric/filemap/4k/bw_mib_s)" 200 'the metric page of bandwidth'
like "$(cat "$TMP_T/body")" 'id="change-points">None along these commits' '... says it has none'
"$SERVER" report --db "$DB" --series steps --verbose | grep -q '^change points along the series'
ok $? '... and the text report lists the history'"'"'s change points'

# the big plot: a dashed line between positions 14 and 15 (x = 15.5 in commit indexes 1..30), in the key too
is "$(code /plot/steps/split/pmd-to-0/split_ms/big.svg)" 200 'the big plot of split_ms'
like "$(cat "$TMP_T/body")" 'change point' '... has a change point in its key'
dashes=$(grep -c 'stroke-dasharray' "$TMP_T/body")
is "$(code /plot/steps/filemap/4k/bw_mib_s/big.svg)" 200 'the big plot of bandwidth'
unlike "$(cat "$TMP_T/body")" 'change point' '... has none'
ok "$([ "$dashes" -gt "$(grep -c 'stroke-dasharray' "$TMP_T/body")" ]; echo $?)" \
	"split's plot has dashed strokes bandwidth's has not (the line and its key: $dashes)"

# no alarm source of its own: the regressions are the decided rows'
"$SERVER" regressions --db "$DB" --series steps --json > "$TMP_T/regs.json" 2>/dev/null
is "$(jq -r '[.[] | "\(.metric)@\(.sha)"] | sort | join(" ")' "$TMP_T/regs.json")" "split_ms@$SHA15" \
	'the stored regressions: the decided row at the step, none elsewhere'
stop_server
done_testing
