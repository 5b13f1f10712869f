#!/bin/bash
# The shipped example (schema/examples/demo-series/): the run documents of one
# real measurement of the demo series by `make demo`'s command on this kind of
# machine. They import in about a second, every one still validates and
# re-seals to its own run id (nothing in them was edited), and the dashboard
# serves the series from them: the README's first look before the long
# measurement.
. tests/lib/tap.sh
. tests/lib/server.sh
DIR=schema/examples/demo-series
DB=$TMP_T/fw.db
docs=("$DIR"/*.json)
ok $([ "${#docs[@]}" -ge 4 ]; echo $?) "${#docs[@]} documents shipped"
start=$(date +%s%N)
out=$($SERVER import --db "$DB" "${docs[@]}" 2>&1); rc=$?
ms=$(( ($(date +%s%N) - start) / 1000000 ))
is "$rc" 0 "every document imports"
diag "imported ${#docs[@]} documents in $ms ms"
is "$(grep -c '^stored ' <<<"$out")" "${#docs[@]}" "each one stored"
series=$(sqlite3 "$DB" "select name from series")
is "$series" demo "one series: demo"
is "$(sqlite3 "$DB" "select count(distinct position) from commits")" 4 "the base and three patches"

# re-sealing gives the same run id: the documents are as the collector wrote them
bad=0
for f in "${docs[@]}"; do
	want=$(jq -r .run_id "$f")
	got=$($SERVER seal "$f" | jq -r .run_id)
	[ "$want" = "$got" ] || { diag "$f: run_id $want, re-sealed $got"; bad=$((bad + 1)); }
done
is "$bad" 0 "every document re-seals to its own run id"

# the dashboard from them
start_server "$DB" || bail "server did not start"
page=$(curl -sS --fail "$URL/series/demo")
is "$?" 0 "series page served"
like "$page" "mm/rmap: discard lazyfree PMD-mapped THPs" "it lists the lazyfree patch"
report=$(curl -sS --fail "$URL/api/v1/series/demo/report.txt?verbose=1")
like "$report" "lazyfree/pmd reclaim_s" "the long report compares lazyfree reclaim time"
report=$(curl -sS --fail "$URL/api/v1/series/demo/report.txt")
like "$report" "  lazyfree/pmd +Before +After +change +spread" "what moved: the lazyfree patch's table"
like "$report" "  reclaim_s +s .* -9[0-9][.][0-9]{2}% +[+]-[0-9.]+% better" "... its reclaim time decided better, with its spread"
stop_server
done_testing
