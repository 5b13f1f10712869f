#!/bin/bash
# Plots that do not draw noise as a cliff (issue 56): the y axis is never
# narrower than the metric's decision floor around the base's level, and the
# floor is drawn as a band, so a series that moved 0.01% is a flat line in
# it; a real change still spans the axis; a value that cannot be negative
# keeps the axis at or above 0. Read from real gnuplot SVG: the y tick labels
# (text-anchor end) and the key.
. tests/lib/tap.sh
. tests/lib/server.sh
DB=$TMP_T/fw.db
mkdir -p "$TMP_T/docs"
split_series "$TMP_T/docs" flat '[4684.0, 4684.1, 4684.2, 4684.0]' '[4684.4, 4684.5, 4684.6, 4684.4]'
split_series "$TMP_T/docs" moved '[61.9, 62.0, 61.95, 62.05]' '[65.0, 65.1, 65.05, 65.0]'
split_series "$TMP_T/docs" tiny '[1.0, 1.0, 1.0, 1.0]' '[0.0328, 0.0329, 0.0328, 0.0329]'
"$SERVER" import --db "$DB" -q "$TMP_T"/docs/*.sealed || bail "import"
start_server "$DB" || bail "server did not start"

# ticks SVG: "lowest highest" of the y tick labels
ticks() {
	"$PY" - "$1" <<'PY'
import re, sys
svg = open(sys.argv[1], encoding="utf-8").read()
v = [float(t) for t in re.findall(r'text-anchor="end">\s*<text>\s*([-0-9.e+]+)</text>', svg)]
print("%g %g" % (min(v), max(v)) if v else "none")
PY
}
# the floor the analysis used for the metric: its rows' floor, else their minimum effect
floor_of() {
	"$SERVER" report --db "$DB" --series "$1" --format json >"$TMP_T/$1.json" || bail "report $1"
	"$PY" -c 'import json, sys; d = json.load(open(sys.argv[1]))
print(max(r["floor_pct"] if r.get("floor_pct") is not None else r["min_effect_pct"] for r in d["rows"] if r["metric"] == "split_ms" and r["against"] == "parent"))' "$TMP_T/$1.json"
}

f=$(floor_of flat)
code /plot/flat/split/pmd-to-0/split_ms/big.svg >/dev/null
cp "$TMP_T/body" "$TMP_T/flat.svg"
read -r lo hi <<<"$(ticks "$TMP_T/flat.svg")"
diag "flat (0.01% apart): y ticks $lo..$hi, floor $f%"
ok "$("$PY" -c "import sys; lo, hi, f = $lo, $hi, $f; sys.exit(0 if (hi - lo) >= 0.8 * 2 * 4684 * f / 100 else 1)"; echo $?)" \
	'a 0.01% move: the y axis spans at least the floor around the base (a flat line), not the 0.01%'
like "$(cat "$TMP_T/flat.svg")" "no-change floor \\+-$(printf '%.2f' "$f")% of the base" '... the floor drawn as a band, named in the key'
code /plot/flat/split/pmd-to-0/split_ms/small.svg >/dev/null
read -r lo hi <<<"$(ticks "$TMP_T/body")"
ok "$("$PY" -c "import sys; lo, hi = $lo, $hi; sys.exit(0 if (hi - lo) >= 0.8 * 2 * 4684 * 0.5 / 100 else 1)"; echo $?)" \
	"... the small plot too (the default floor, 0.5%: ticks $lo..$hi)"

code /plot/moved/split/pmd-to-0/split_ms/big.svg >/dev/null
read -r lo hi <<<"$(ticks "$TMP_T/body")"
diag "moved (+5%): y ticks $lo..$hi"
ok "$("$PY" -c "import sys; lo, hi = $lo, $hi; sys.exit(0 if lo <= 62 and hi >= 65 else 1)"; echo $?)" \
	'a real +5% change: the axis holds both levels'

code /plot/tiny/split/pmd-to-0/split_ms/big.svg >/dev/null
read -r lo hi <<<"$(ticks "$TMP_T/body")"
ok "$("$PY" -c "import sys; lo = $lo; sys.exit(0 if lo >= 0 else 1)"; echo $?)" \
	"a value that cannot be negative (1 -> 0.033): no tick below 0 (lowest $lo)"
stop_server
done_testing
