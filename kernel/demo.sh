#!/bin/sh
# make demo: measure the demo series (kernel/series/demo) on Debian's
# linux-source-6.12, store it in the default DB, print the series table,
# then serve the dashboard on http://127.0.0.1:8080.
# Knobs (environment): DEMO_BOOTS (3), DEMO_ROUNDS (2), DEMO_ACCEL (auto),
# DEMO_DB (foliowatch.db), DEMO_LISTEN (127.0.0.1:8080), DEMO_SERVE (1).
set -eu
BUILD=${BUILD:-build}
DB=${DEMO_DB:-foliowatch.db}
mbox=$BUILD/demo-series.mbox
mkdir -p "$BUILD"
cat kernel/series/demo/*.patch > "$mbox"

start=$(date +%s)
"$BUILD/foliowatch-collect" run --series demo --mbox "$mbox" \
	--workloads split,mthp,lazyfree,filemap --profile quick \
	--boots "${DEMO_BOOTS:-3}" --rounds "${DEMO_ROUNDS:-2}" --interleave \
	--accel "${DEMO_ACCEL:-auto}" --db "$DB"
echo "demo: measured in $(( $(date +%s) - start )) s"

if [ "${DEMO_SERVE:-1}" = 1 ]; then
	listen=${DEMO_LISTEN:-127.0.0.1:8080}
	echo "demo: serving the dashboard on http://$listen/ (Ctrl-C stops it)"
	exec "$BUILD/foliowatch-server" serve --db "$DB" --listen "$listen" --static static
fi
