#!/bin/bash
# Time to decided (issue 27): from the run documents of one measurement
# (DOCS, default the shipped demo measurement), how many boots it took, the
# wall time from the first boot's start to the last document, where the
# boots' time went (their recorded phases: kernel up, workloads, profiling,
# shutdown) and how many rows against the parent ended decided. Compare two
# measurements as the ratio of their wall times (make demo before/after):
#   DOCS=~/.cache/foliowatch/runs/demo bash tests/bench/time-to-decided.sh
set -eu
BUILD=${BUILD:-build}
DOCS=${DOCS:-schema/examples/demo-series}
command -v jq >/dev/null || { echo "jq missing (ci/install-deps.sh)"; exit 1; }
ls "$DOCS"/*.json >/dev/null 2>&1 || { echo "time-to-decided: no run documents in $DOCS"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
jq -s '
	def t: .created_at | fromdateiso8601;
	[.[] | select(.boot.status != "not_run")] as $b |
	{ boots: ($b | length),
	  profile_only: ([$b[] | select((.results | length) == 0 and (.profiles | length) > 0)] | length),
	  at_once: ([$b[] | .boot.parallel // 1] | max),
	  wall: (if ($b | length) > 0 then ([$b[] | t] | max) - ([$b[] | t - (.boot.seconds // 0)] | min) else 0 end),
	  boot_s: ([$b[] | .boot.seconds // 0] | add // 0),
	  with_phases: ([$b[] | select(.boot.phases)] | length),
	  kernel_up: ([$b[] | .boot.phases.kernel_up_s // 0] | add // 0),
	  workloads: ([$b[] | .boot.phases.workloads_s // 0] | add // 0),
	  profiling: ([$b[] | .boot.phases.profiling_s // 0] | add // 0),
	  shutdown: ([$b[] | .boot.phases.shutdown_s // 0] | add // 0),
	  series: ($b[0].series.name // "") }' "$DOCS"/*.json > "$tmp/sum.json"
series=$(jq -r .series "$tmp/sum.json")
"$BUILD/foliowatch-server" import --db "$tmp/fw.db" "$DOCS"/*.json > /dev/null
"$BUILD/foliowatch-server" report --db "$tmp/fw.db" --series "$series" --format json > "$tmp/report.json"
jq -r --slurpfile s "$tmp/sum.json" '
	$s[0] as $s | [.rows[] | select(.against == "parent")] as $r |
	def m: . / 60 * 10 | round / 10;
	"time to decided: \(env.DOCS // "schema/examples/demo-series") (series \($s.series))",
	"| boots | profile-only | at once | wall, first boot to last document | boots summed | rows decided (vs parent) |",
	"|---:|---:|---:|---:|---:|---:|",
	"| \($s.boots) | \($s.profile_only) | \($s.at_once) | \($s.wall | m) min | \($s.boot_s | m) min | \([$r[] | select(.decided)] | length) of \($r | length) |",
	"",
	(if $s.with_phases > 0 then
	  "where the boots went (\($s.with_phases) boots with phases; host seconds, summed): kernel up \($s.kernel_up | m) min, workloads \($s.workloads | m) min, profiling \($s.profiling | m) min, shutdown \($s.shutdown | m) min"
	 else "(these documents record no boot.phases: measured before issue 27)" end),
	"unsure rows: " + ([$r[] | select(.decided | not) | "\(.workload)/\(.variant) \(.metric)"] | unique | join(", ") | if . == "" then "none" else . end)
' "$tmp/report.json"
