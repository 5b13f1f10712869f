#!/bin/bash
# The precision the API promises (OpenAPI info and fields, shown on /api):
# percentages (`*_pct`) to 0.001, p and q values to 3 significant digits,
# commits named by sha. Every JSON answer of a series with regressions and
# improvements in two environments is walked, every such number checked.
. tests/lib/tap.sh
. tests/lib/server.sh

DB=$TMP_T/fw.db
import_series "$DB" "$TMP_T/gen" prec tcg 5 base:0:-:1:1 c1:1:base:1:1 c2:2:c1:1.1:0.97 c3:3:c2:1.1:1.0 || bail import
"$SERVER" regressions --db "$DB" >/dev/null
start_server "$DB" || bail "server did not start"
is "$(code '/api' )" 200 'the /api page'
like "$(cat "$TMP_T/body")" 'percentages \(<code>\*_pct</code>\) to 0\.001 and p/q values to 3 significant digits' \
	'... promises percentages to 0.001, p and q to 3 significant digits'

code /api/v1/regressions?series=prec >/dev/null
rid=$(jget "$TMP_T/body" 'd["regressions"][0]["id"]')
shas=$(jget "$TMP_T/body" '" ".join(sorted({r["sha"] for r in d["regressions"]}))')
paths="/api/v1/series/prec /api/v1/series/prec?from=0 /api/v1/regressions /api/v1/regressions?series=prec
/api/v1/regressions/$rid /api/v1/compare?series=prec&base=bbbbbbbb&head=c3c3c3c3
/api/v1/compare?series=prec&base=c1c1c1c1&head=c2c2c2c2
/api/v1/trend?series=prec&metric=split/pmd-to-0/split_ms /api/v1/trend?series=prec&metric=filemap/4k/bw_mib_s"
for p in $paths; do
	is "$(code "$p")" 200 "GET $p"
	cp "$TMP_T/body" "$TMP_T/answer-$(echo "$p" | tr -c 'a-z0-9' _).json"
done
[ -n "$shas" ]
ok $? "regressions found to check ($shas)"

"$PY" - "$TMP_T"/answer-*.json >"$TMP_T/walk" <<'PYEOF'
import json, math, re, sys
n, bad = {"pct": 0, "pq": 0}, []
def sig3(v):
    return v == 0 or float("%.3g" % v) == v
def walk(x, where):
    if isinstance(x, dict):
        for k, v in x.items():
            here = where + "." + k
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                if k.endswith("_pct"):
                    n["pct"] += 1
                    if round(v, 3) != v:
                        bad.append("%s = %r" % (here, v))
                elif k in ("p_value", "q_value", "p", "q"):
                    n["pq"] += 1
                    if not sig3(v):
                        bad.append("%s = %r" % (here, v))
                elif re.search(r"commit_id$", k):
                    bad.append("%s: an internal id, not a sha" % here)
            walk(v, here)
    elif isinstance(x, list):
        for i, v in enumerate(x):
            walk(v, "%s[%d]" % (where, i))
for f in sys.argv[1:]:
    walk(json.load(open(f)), f.rsplit("answer-", 1)[1])
print(n["pct"], n["pq"], len(bad))
for b in bad[:10]:
    print("#", b)
PYEOF
read -r npct npq nbad <"$TMP_T/walk"
[ "${npct:-0}" -gt 50 ] && [ "${npq:-0}" -gt 10 ]
ok $? "the answers carry numbers to check ($npct percentages, $npq p/q values)"
is "$nbad" 0 'every percentage to 0.001, every p/q to 3 significant digits, no internal commit id'
tail -n +2 "$TMP_T/walk"
stop_server
done_testing
