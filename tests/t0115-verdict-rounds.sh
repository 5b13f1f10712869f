#!/bin/bash
# A false alarm kept as data (schema/examples/bimodal-rounds/): the 12 run
# documents of the CI run of t4100 whose comment-only patch was called a
# "deterministic" +4.6% lazyfree regression. Under icount, lazyfree's round 1
# takes one of two values 9% apart; every boot of the parent drew one and every
# boot of the comment-only kernel the other, so the per-boot medians agreed
# within each kernel (CV 0.06%) while the rounds inside a boot did not. The
# classification now needs the rounds to agree too: reclaim_s is a rank metric
# there (from the data), the comment-only row raises no alarm, and split,
# whose rounds agree to 0.05%, keeps the floor rule and its "no change".
. tests/lib/tap.sh
DIR=schema/examples/bimodal-rounds
DB=$TMP_T/fw.db
"$SERVER" import --db "$DB" "$DIR"/*.json > /dev/null
is "$?" 0 "the 12 documents import"
series=$(sqlite3 "$DB" "select name from series")
"$SERVER" report --db "$DB" --series "$series" --format json > "$TMP_T/report.json"
is "$?" 0 "report as JSON"
"$SERVER" report --db "$DB" --series "$series" --verbose | grep -E "^\[3\]|^  (lazyfree|split)" | sed 's/^/# /'
/usr/bin/python3 - "$TMP_T/report.json" > "$TMP_T/check.tap" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
n = 0
def ok(c, d):
    global n
    n += 1
    print(("ok" if c else "not ok"), n, "-", d)
def row(pos, w, m, against="parent"):
    for x in r["rows"]:
        if x["position"] == pos and x["workload"] == w and x["metric"] == m and x["against"] == against:
            return x
    return {}
det = {(d["workload"], d["metric"]): d for d in r["determinism"]}
lz = det.get(("lazyfree", "reclaim_s"), {})
sk = lz.get("same_kernel", {})
print("# lazyfree reclaim_s: %s (%s), medians CV %s%%, rounds CV %s%% [%s, %s]" % (
    lz.get("mode"), lz.get("mode_source"), sk.get("cv_pct"), sk.get("within_boot_cv_pct"),
    sk.get("within_boot_cv_lo_pct"), sk.get("within_boot_cv_hi_pct")))
ok(sk.get("cv_pct", 1) < 0.5, "the per-boot medians of each kernel agree (the trap)")
ok((sk.get("within_boot_cv_lo_pct") or 0) > 0.5, "the rounds inside a boot do not: lower bound above 0.5%")
ok(lz.get("mode") == "rank" and lz.get("mode_source") == "data", "reclaim_s is compared by rank, from the data")
x = row(3, "lazyfree", "reclaim_s")
print("# comment-only lazyfree: %s, %+.2f%%" % (x.get("verdict"), x.get("delta_pct", 0)))
ok(x and x["verdict"] not in ("regression", "improvement"), "comment-only patch: lazyfree raises no alarm")
ok(x.get("boots_needed") is not None or x.get("mde_pct") is not None, "... and says what deciding it would need")
ok(x.get("mde_pct") is not None and x["mde_pct"] > 1, "its MDE is the environment's noise, not the 3 boots' chance agreement (%s%%)" % x.get("mde_pct"))
lzp = row(2, "lazyfree", "reclaim_s")
ok(lzp and lzp["verdict"] in ("improvement", "unsure") and lzp["delta_pct"] < -80, "the lazyfree patch (-90%%) is never a regression (%s)" % lzp.get("verdict"))
for m in ("split_ms", "split_cpu_ms"):
    s = row(3, "split", m)
    ok(s.get("mode") == "deterministic" and s.get("verdict") == "no change", "comment-only patch: split %s stays deterministic, no change" % m)
alarms = [(x["position"], x["workload"], x["metric"]) for x in r["rows"] if x["position"] == 3 and x["verdict"] in ("regression", "improvement") and x["against"] == "parent"]
ok(not alarms, "no alarm on the comment-only patch at all %s" % alarms)
print("1..%d" % n)
PY
relay_tap "$TMP_T/check.tap"
done_testing
