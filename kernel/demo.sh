#!/bin/sh
# make demo: measure the demo series (kernel/series/demo) on Debian's
# linux-source-6.12, store it in the default DB, print the series table,
# then serve the dashboard on http://127.0.0.1:8080.
#
# Two passes over the same series (each its own environment in the table):
#  1. split, mthp, lazyfree in icount mode: deterministic, so 3 boots decide
#     effects of a few percent (on this shared 2-core machine TCG varies
#     10-25% between boots: see tests/bench/guest-noise.sh);
#  2. filemap (fio) under TCG, which icount would make very slow.
# Knobs (environment): DEMO_BOOTS (3), DEMO_ROUNDS (2), DEMO_ACCEL (icount),
# DEMO_FILEMAP (1: run pass 2), DEMO_DB (foliowatch.db), DEMO_LISTEN
# (127.0.0.1:8080), DEMO_SERVE (1).
set -eu
BUILD=${BUILD:-build}
DB=${DEMO_DB:-foliowatch.db}
mbox=$BUILD/demo-series.mbox
mkdir -p "$BUILD"
cat kernel/series/demo/*.patch > "$mbox"

start=$(date +%s)
"$BUILD/foliowatch-collect" run --series demo --mbox "$mbox" \
	--workloads split,mthp,lazyfree --profile quick \
	--boots "${DEMO_BOOTS:-3}" --rounds "${DEMO_ROUNDS:-2}" --interleave \
	--accel "${DEMO_ACCEL:-icount}" --db "$DB" --no-report
if [ "${DEMO_FILEMAP:-1}" = 1 ]; then
	"$BUILD/foliowatch-collect" run --series demo --mbox "$mbox" \
		--workloads filemap --profile quick \
		--boots "${DEMO_BOOTS:-3}" --rounds "${DEMO_ROUNDS:-2}" --interleave \
		--accel tcg --db "$DB" --no-report
fi
"$BUILD/foliowatch-server" report --db "$DB" --series demo
echo "demo: measured in $(( $(date +%s) - start )) s"

if [ "${DEMO_SERVE:-1}" = 1 ]; then
	listen=${DEMO_LISTEN:-127.0.0.1:8080}
	echo "demo: serving the dashboard on http://$listen/ (Ctrl-C stops it)"
	exec "$BUILD/foliowatch-server" serve --db "$DB" --listen "$listen" --static static
fi
