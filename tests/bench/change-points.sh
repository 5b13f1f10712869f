#!/bin/bash
# Change points' false alarms (issue 31): generated histories with no step at
# all (tests/lib/gen-series.py: split time and bandwidth, 0.05% noise between
# boots under icount, 0.8% under TCG), SERIES of them per accelerator, COMMITS
# commits each, 3 boots a commit. Every change point the analysis finds there
# is a false one; prints them per metric-commit, and, as a control, how many
# histories with one +2% step of split time at the middle got a change point
# within 2 commits of it (bandwidth stays flat there: its change points are
# false ones too). Knobs: SERIES (10), COMMITS (100).
#   bash tests/bench/change-points.sh
set -eu
BUILD=${BUILD:-build}
SERIES=${SERIES:-10}
COMMITS=${COMMITS:-100}
PY=/usr/bin/python3
command -v jq >/dev/null || { echo "jq missing (ci/install-deps.sh)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
specs() { # specs N STEP-AT FACTOR: base and N commits, split time times FACTOR from STEP-AT on
	local i f prev=base s="base:0:-:1:1"
	for i in $(seq 1 "$1"); do
		f=1
		[ "$i" -ge "$2" ] && f=$3
		s="$s c$i:$i:$prev:$f:1"
		prev=c$i
	done
	echo "$s"
}
echo "change points on generated histories: $SERIES series x $COMMITS commits per accelerator, 3 boots a commit"
echo "| accel | history | change points | at the step (+-2 commits) | false ones | false per metric-commit | their sizes |"
echo "|---|---|---:|---:|---:|---:|---|"
for accel in icount tcg; do
	for kind in flat step; do
		db=$tmp/$accel-$kind.db
		all=0 found=0 sizes=""
		for k in $(seq 1 "$SERIES"); do
			name="cp-$accel-$kind-$k"
			if [ "$kind" = flat ]; then at=$((COMMITS + 10)); else at=$((COMMITS / 2)); fi
			mkdir -p "$tmp/docs-$name"
			# shellcheck disable=SC2046
			$PY tests/lib/gen-series.py "$tmp/docs-$name" "$name" "$accel" 3 $(specs "$COMMITS" "$at" 1.02) > /dev/null
			for f in "$tmp/docs-$name"/*.json; do "$BUILD/foliowatch-server" seal "$f" > "$f.sealed"; done
			"$BUILD/foliowatch-server" import --db "$db" -q "$tmp/docs-$name"/*.sealed
			"$BUILD/foliowatch-server" report --db "$db" --series "$name" --format json > "$tmp/r.json"
			all=$((all + $(jq '.change_points | length' "$tmp/r.json")))
			found=$((found + $(jq --argjson at "$at" '[.change_points[] |
				select(.metric == "split_ms" and (.position - $at | fabs) <= 2)] | length' "$tmp/r.json")))
			sizes="$sizes $(jq -r --argjson at "$at" '.change_points[] | select(.metric != "split_ms" or (.position - $at | fabs) > 2)
				| "\(.delta_pct * 1000 | round / 1000)%"' "$tmp/r.json" | paste -sd' ')"
			rm -rf "$tmp/docs-$name"
		done
		false=$((all - found))
		rate=$(awk -v f="$false" -v n="$SERIES" -v c="$COMMITS" 'BEGIN { printf "%.4f", f / (2 * n * c) }')
		sizes=$(echo $sizes)
		echo "| $accel | $([ "$kind" = flat ] && echo "no step" || echo "+2% split at $((COMMITS / 2))") | $all | $found | $false | $rate | ${sizes:--} |"
	done
done
