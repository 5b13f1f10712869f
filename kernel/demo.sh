#!/bin/sh
# make demo: measure the demo series (kernel/series/demo) on Debian's
# linux-source-6.12, store it in the default DB, print the series table,
# then serve the dashboard on http://127.0.0.1:8080.
#
# One `run` with the tool's defaults: the accelerator plan (KVM if a test
# boot works, else icount for the workloads measured to repeat under it),
# 3 interleaved boots per commit, then boots added for the rows still unsure
# until every row is decided or the budget is spent (README "Deciding").
# Knobs (environment): DEMO_BUDGET (45m), DEMO_WORKLOADS (all four),
# DEMO_DB (foliowatch.db), DEMO_LISTEN (127.0.0.1:8080), DEMO_SERVE (1).
set -eu
BUILD=${BUILD:-build}
DB=${DEMO_DB:-foliowatch.db}
mbox=$BUILD/demo-series.mbox
mkdir -p "$BUILD"
cat kernel/series/demo/*.patch > "$mbox"

start=$(date +%s)
"$BUILD/foliowatch-collect" run --series demo --mbox "$mbox" \
	--workloads "${DEMO_WORKLOADS:-split,mthp,lazyfree,filemap}" \
	--budget "${DEMO_BUDGET:-45m}" --db "$DB"
echo "demo: measured in $(( $(date +%s) - start )) s"

if [ "${DEMO_SERVE:-1}" = 1 ]; then
	listen=${DEMO_LISTEN:-127.0.0.1:8080}
	echo "demo: serving the dashboard on http://$listen/ (Ctrl-C stops it)"
	exec "$BUILD/foliowatch-server" serve --db "$DB" --listen "$listen" --static static
fi
