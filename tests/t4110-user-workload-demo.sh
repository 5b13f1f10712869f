#!/bin/bash
# The example user workload on the demo series (issue 33): seed 001's test
# (kernel/workloads/examples/lru-contention), added with --workload-dir, run
# on the cached demo kernels under icount (its manifest asks for it, so the
# default plan puts it there) at 3 boots a side. The lru patch (patch 1)
# must be decided an improvement of its wall time (its 16 KiB folios now go
# through the per-CPU LRU cache: fewer lruvec lock round trips), and the
# comment-only patch (patch 3) no change. Prints the times.
. tests/lib/tap.sh
. tests/lib/kernel.sh
. tests/lib/server.sh
find_kernel
EX="$PWD/$BUILD/workloads/lru-contention"
[ -x "$EX/lru-contention" ] || bail "no $EX (make all)"
DB=$TMP_T/fw.db
SERIES="t4110-$$"
cat kernel/series/demo/*.patch > "$TMP_T/series.mbox"  # the kernels t4100 built: all cached
start=$(date +%s)
"$COLLECT" run --series "$SERIES" --mbox "$TMP_T/series.mbox" --workload-dir "$EX" --workloads lru-contention \
	--boots 3 --rounds 1 --max-looks 1 --budget none --no-profile --db "$DB" > "$TMP_T/run.log" 2>&1
is "$?" 0 "the demo series measured with the example workload"
diag "measured in $(( $(date +%s) - start )) s"
like "$(grep -E '^\[[0-9:]+\] icount: ' "$TMP_T/run.log")" "icount: lru-contention" \
	"the plan: the example asks for icount and gets it"
"$SERVER" report --db "$DB" --series "$SERIES" --format json > "$TMP_T/report.json"
is "$?" 0 "report as JSON"
sqlite3 "$DB" "SELECT c.position, group_concat(printf('%.6f', s.value), ' ') FROM samples s
	JOIN results r ON r.id = s.result_id JOIN runs u ON u.id = r.run_id JOIN commits c ON c.id = u.commit_id
	WHERE r.workload = 'lru-contention' AND r.metric = 'wall_s' GROUP BY c.position" | sed 's/^/# wall_s at position /'
/usr/bin/python3 - "$TMP_T/report.json" > "$TMP_T/check.tap" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
rows = [x for x in r["rows"] if x["against"] == "parent" and x["workload"] == "lru-contention"]
n = 0
def ok(c, d):
    global n
    n += 1
    print(("ok" if c else "not ok"), n, "-", d)
def row(pos):
    return next((x for x in rows if x["position"] == pos and x["metric"] == "wall_s"), None)
for x in rows:
    print("# [%d] %s/%s %s: %s (%+.2f%%, %s, boots %s/%s, decided_at %s)" % (
        x["position"], x["workload"], x["variant"], x["metric"], x["verdict"], x["delta_pct"], x.get("mode"),
        x["a"].get("boots"), x["b"].get("boots"), x.get("decided_at_boots")))
lru, noop = row(1), row(3)
ok(lru is not None and lru["verdict"] == "improvement", "lru patch: the example's wall time is an improvement (%s)" % (lru or {}).get("verdict"))
ok(lru is not None and (lru.get("decided_at_boots") or 99) <= 3, "... decided at <= 3 boots a side")
ok(noop is not None and noop["verdict"] == "no change", "comment-only patch: no change (%s)" % (noop or {}).get("verdict"))
ok(lru is not None and lru.get("unit") in (None, "s"), "the row keeps the manifest's unit")
print("1..%d" % n)
PY
relay_tap "$TMP_T/check.tap"
grep -q '^not ok' "$TMP_T/check.tap" && tail -30 "$TMP_T/run.log" | sed 's/^/t4110 run: /' >&2

# Everywhere a built-in metric is: the report, the email, the API with the manifest's unit and direction, the metric page.
like "$("$SERVER" report --db "$DB" --series "$SERIES")" "lru-contention" "the text report lists the user workload"
like "$("$SERVER" report --db "$DB" --series "$SERIES" --format email 2>&1)" "lru-contention" "... and so does the email"
start_server "$DB" || bail "server did not start"
curl -sf "$URL/api/v1/series/$SERIES" > "$TMP_T/api.json"
is "$?" 0 "GET /api/v1/series/$SERIES"
is "$("$PY" - "$TMP_T/api.json" <<'PY'
import json, sys
def walk(o):
    if isinstance(o, dict):
        if o.get("workload") == "lru-contention" and "wall_s" in (o.get("metric"), o.get("name")) and "unit" in o:
            yield o
        for v in o.values():
            yield from walk(v)
    elif isinstance(o, list):
        for v in o:
            yield from walk(v)
found = list(walk(json.load(open(sys.argv[1]))))
print(sorted({"%s %s" % (x.get("unit"), x.get("direction")) for x in found}))
PY
)" "['s lower_is_better']" "the API gives the user metric the manifest's unit and direction"
curl -sf "$URL/series/$SERIES/metric/lru-contention/16k/wall_s" > "$TMP_T/metric.html"
is "$?" 0 "the user metric's page"
like "$(cat "$TMP_T/metric.html")" "improvement" "... shows the lru patch's verdict"
like "$(cat "$TMP_T/metric.html")" "<img[^>]*(svg|plot)|<svg" "... and its plot"
stop_server
said_builds
done_testing
