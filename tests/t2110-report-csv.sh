#!/bin/bash
# report --format csv read back by a real CSV parser (Python's csv module,
# strict): the header, the column count of every row, and every cell of every
# row against the JSON report of the same analysis; verdicts from the allowed
# set; the counters column holds the counters that moved (it once went into
# the verdict cell: "regression"thp_split_page 256->512,""). The series name
# has a quote and a comma, so quoting is exercised too.
. tests/lib/tap.sh
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
command -v "$PY" >/dev/null || skip_all "no python3 to generate and parse"
DB="$TMP_T/db.sqlite"
SERIES='csv "q", s1'

mkdir -p "$TMP_T/docs"
# base, c1 (no change), c2 (+10% time, counters x2: thp_split_page 256 -> 512)
FW_GEN_PROFILE='c2=__split_huge_page*1.5' "$PY" tests/lib/gen-series.py "$TMP_T/docs" "$SERIES" tcg 5 base:0:-:1:1 c1:1:base:1:1 c2:2:c1:1.1:1.1:2 &&
	"$SERVER" seal --out-dir "$TMP_T/docs" "$TMP_T"/docs/*.json &&
	"$SERVER" import --db "$DB" -q "$TMP_T"/docs/*.json
ok $? "generated, sealed and imported a series named $SERIES"

"$SERVER" report --db "$DB" --series "$SERIES" --format csv >"$TMP_T/report.csv"
ok $? "report --format csv"
"$SERVER" report --db "$DB" --series "$SERIES" --format json >"$TMP_T/report.json"
ok $? "report --format json (the reference)"

# The checker prints PASS/FAIL lines (and "#" diagnostics); each becomes a TAP test here.
cat >"$TMP_T/check.py" <<'PYEOF'
import csv, json, math, re, sys

header = ["series", "revision", "position", "commit_id", "sha", "against", "ref_sha", "host", "accel",
          "env_fingerprint", "workload", "variant", "params", "metric", "unit", "direction", "kind",
          "unit_of_comparison", "a_boots", "a_samples", "a_median", "b_boots", "b_samples", "b_median",
          "delta_pct", "ci_lo_pct", "ci_hi_pct", "ci_level", "p", "q", "mde_pct", "boots_for_5pct",
          "min_effect_pct", "mode", "verdict", "decided", "decided_at_boots", "boots_needed", "floor_pct",
          "floor_boots", "same_kernel_cv_pct", "looks", "alpha_used", "mode_source", "counters", "attribution"]
text_cols = ["sha", "against", "ref_sha", "host", "accel", "env_fingerprint", "workload", "variant",
             "params", "metric", "unit", "direction", "kind", "unit_of_comparison", "mode", "mode_source"]
num_cols = ["delta_pct", "ci_lo_pct", "ci_hi_pct", "ci_level", "p", "q", "mde_pct", "boots_for_5pct",
            "min_effect_pct", "decided_at_boots", "boots_needed", "floor_pct", "floor_boots", "looks", "alpha_used"]
verdicts = {"improvement", "regression", "no change", "unsure"}
def num_cells(s):  # numbers compared as numbers: the CSV writes the shortest exact form
    return [float(t) if re.fullmatch(r"[-0-9.e+]+", t) else t for t in re.split(r"( |->|; )", s)]
def check(cond, what):
    print(("PASS " if cond else "FAIL ") + what)
    return cond

def num_eq(cell, want):
    if want is None or (isinstance(want, float) and math.isnan(want)):
        return cell == ""
    return cell != "" and math.isclose(float(cell), float(want), rel_tol=1e-9, abs_tol=1e-12)

try:
    with open(sys.argv[1], newline="") as f:
        rows = list(csv.reader(f, strict=True))
except csv.Error as e:
    check(False, "the CSV parses (strict): %s" % e)
    sys.exit(0)
check(True, "the CSV parses (strict quoting)")
rep = json.load(open(sys.argv[2]))
check(rows[0] == header, "header: %d named columns in order" % len(header))
data = rows[1:]
check(len(data) == len(rep["rows"]) and len(data) > 0, "one CSV row per report row (%d)" % len(data))
check(all(len(r) == len(header) for r in data), "every row has %d cells" % len(header))

bad = []
for i, (r, j) in enumerate(zip(data, rep["rows"])):
    c = dict(zip(header, r))
    def want(col, cond):
        if not cond:
            bad.append("row %d %s: %r" % (i + 1, col, c.get(col)))
    want("series", c["series"] == rep["series"])
    want("revision", c["revision"] == "%d" % rep["revision"])
    want("position", c["position"] == "%d" % j["position"])
    want("commit_id", c["commit_id"] == "%d" % j["commit_id"])
    for col in text_cols:
        want(col, c[col] == (j.get(col) if isinstance(j.get(col), str) else ""))
    for side in "ab":
        for k in ("boots", "samples", "median"):
            want("%s_%s" % (side, k), num_eq(c["%s_%s" % (side, k)], j[side].get(k)))
    for col in num_cols:
        want(col, num_eq(c[col], j.get(col)))
    want("verdict", c["verdict"] in verdicts and c["verdict"] == j["verdict"])
    want("decided", c["decided"] == ("1" if j["decided"] else "0") and j["decided"] == (j["verdict"] != "unsure"))
    want("same_kernel_cv_pct", num_eq(c["same_kernel_cv_pct"], (j.get("same_kernel") or {}).get("cv_pct")))
    counters = "; ".join("%s %s->%s" % (x["name"], "%.6g" % x["a"], "%.6g" % x["b"]) for x in j.get("counters") or [])
    want("counters", c["counters"] == counters and
         (c["counters"] == "" or re.fullmatch(r"[a-z0-9_]+ [-0-9.e+]+->[-0-9.e+]+(; [a-z0-9_]+ [-0-9.e+]+->[-0-9.e+]+)*", c["counters"])))
    def g(x):
        return "%.10g" % x
    attr = "; ".join("%s %s %s->%s hits %s->%s" % (x["function"], k, g(x["before"][k]), g(x["after"][k]),
                                                   g(x["before"]["hits"]), g(x["after"]["hits"]))
                     for x in j.get("attribution") or []
                     for k in ["self_us" if x["delta"]["self_us"] is not None else "time_us"])
    want("attribution", num_cells(c["attribution"]) == num_cells(attr))
check(not bad, "every cell of every row matches the JSON report")
for b in bad[:10]:
    print("#   " + b)

moved = [dict(zip(header, r)) for r in data if "thp_split_page" in r[header.index("counters")]]
check(len(moved) > 0 and all(m["verdict"] in verdicts for m in moved),
      "rows whose counters moved keep a plain verdict")
check(any(m["counters"] == "thp_split_page 256->512" and m["verdict"] == "regression" and m["position"] == "2"
          and m["against"] == "parent" and m["metric"] == "split_ms" for m in moved),
      "c2 against its parent: split_ms regression, counters 'thp_split_page 256->512'")
check(any(r[header.index("attribution")].startswith("__split_huge_page self_us ") and r[header.index("verdict")] == "regression"
          and r[header.index("position")] == "2" and r[header.index("metric")] == "split_ms" for r in data),
      "c2's split_ms regression is attributed to __split_huge_page (self time)")
check(all(r[header.index("attribution")] == "" for r in data if r[header.index("verdict")] not in ("regression", "improvement")),
      "rows without a change have an empty attribution cell")
check(all(c == "" for r in data for c in [r[header.index("counters")]] if "thp_split_page" not in c),
      "rows without moved counters have an empty counters cell")
PYEOF
while IFS= read -r line; do
	case $line in
	PASS\ *) ok 0 "csv: ${line#PASS }" ;;
	FAIL\ *) ok 1 "csv: ${line#FAIL }" ;;
	EXIT\ 0) ;;
	EXIT\ *) ok 1 "csv: the checker ran to its end (${line})" ;;
	*) echo "# $line" ;;
	esac
done < <("$PY" "$TMP_T/check.py" "$TMP_T/report.csv" "$TMP_T/report.json" 2>&1; echo "EXIT $?")
done_testing
