#!/bin/bash
# The plot cache stays bounded: at start the server removes plots unused for
# --plot-cache-days and render temps a killed gnuplot left, keeps everything
# else, and plots are still rendered and cached afterwards.
. tests/lib/tap.sh
. tests/lib/server.sh

DB=$TMP_T/fw.db
"$SERVER" import -q --db "$DB" schema/examples/run-ok.json || bail "import"
C=$TMP_T/cache
H=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
mkdir -p "$C/tmp-$H-1-1.d"
echo old >"$C/${H%?}0.svg"; touch -a -d '40 days ago' "$C/${H%?}0.svg"
echo used >"$C/${H%?}1.svg"; touch -a -d '2 days ago' "$C/${H%?}1.svg"
echo x >"$C/notes.txt"; touch -a -d '400 days ago' "$C/notes.txt"
touch -d '2 hours ago' "$C/tmp-$H-1-1.d"
start_server "$DB" --plot-cache-days 30 || bail "server did not start"
ok $([ ! -e "$C/${H%?}0.svg" ] && echo 0 || echo 1) 'a plot unused for 40 days is removed at start'
ok $([ -e "$C/${H%?}1.svg" ] && [ -e "$C/notes.txt" ] && echo 0 || echo 1) 'a recent plot and a file that is not a plot stay'
ok $([ ! -e "$C/tmp-$H-1-1.d" ] && echo 0 || echo 1) 'a stale render temp is removed'
like "$(cat "$TMP_T/serve.log")" 'removed 1 plots .* and 1 render temps' 'the server says what it removed'
n0=$(ls "$C" | grep -c '\.svg$')
is "$(code /plot/example/split/pmd-to-0/split_ms/small.svg)" 200 'a plot is rendered'
is "$(ls "$C" | grep -c '\.svg$')" $((n0 + 1)) '... and cached'
stop_server
is $? 0 'server stops cleanly'
# Restart with a 0 MB cache: every plot goes at start; plots are still served.
start_server "$DB" --plot-cache-mb 0 || bail "server did not start again"
is "$(ls "$C" | grep -c '\.svg$')" 0 'a 0 MB cache is emptied at start'
is "$(code /plot/example/split/pmd-to-0/split_ms/big.svg)" 200 'plots are still served'
like "$(head -c 300 "$TMP_T/body")" '<svg' '... as SVG'
stop_server
done_testing
