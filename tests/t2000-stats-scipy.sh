#!/bin/bash
# Statistics against a reference: Mann-Whitney U p-values against
# scipy.stats.mannwhitneyu (Debian's python3-scipy via /usr/bin/python3),
# van Elteren with one stratum against scipy's asymptotic test without
# continuity correction, Benjamini-Hochberg against an independent numpy
# implementation (scipy 1.10 has no false_discovery_control), all to 1e-6.
. tests/lib/tap.sh
DRIVER="$PWD/$BUILD/tests/test-stats-ref"
PY=/usr/bin/python3
$PY -c 'import scipy.stats' 2>/dev/null || skip_all "no scipy for /usr/bin/python3"
[ -x "$DRIVER" ] || bail "missing $DRIVER"

$PY - "$TMP_T" <<'PYEOF'
import sys, json, numpy as np
from scipy import stats
d = sys.argv[1]
rng = np.random.default_rng(20261129)
cases, want = [], []
def fmt(v): return " ".join(repr(float(x)) for x in v)
# Sizes cover the exact branch (<= 8, no ties), the one-small-one-large
# branch scipy still treats as exact, ties, and n up to 50.
sizes = [(3,3),(3,5),(4,4),(5,5),(6,8),(8,8),(3,20),(5,40),(8,50),(9,9),(10,12),
         (12,12),(15,20),(20,20),(25,30),(30,30),(40,45),(50,50),(3,50),(7,9)]
for i, (na, nb) in enumerate(sizes):
    for ties in (False, True):
        a = rng.normal(100, 3, na); b = rng.normal(100 + (i % 4), 3, nb)
        if ties:
            a = np.round(a); b = np.round(b)   # many ties
        r = stats.mannwhitneyu(a, b, alternative="two-sided", method="auto")
        cases.append(f"mwu {na} {nb} {fmt(a)} {fmt(b)}")
        want.append(("mwu", [float(r.statistic), float(r.pvalue)]))
# All equal values and a fully separated pair.
a = [5.0]*4; b = [5.0]*6
cases.append(f"mwu 4 6 {fmt(a)} {fmt(b)}"); want.append(("mwu-const", None))
# van Elteren with one stratum == asymptotic MWU without continuity correction.
for na, nb in [(5,7),(12,12),(20,30)]:
    a = np.round(rng.normal(10, 2, na), 1); b = np.round(rng.normal(11, 2, nb), 1)
    r = stats.mannwhitneyu(a, b, alternative="two-sided", method="asymptotic", use_continuity=False)
    cases.append(f"ve 1 {na} {nb} {fmt(a)} {fmt(b)}"); want.append(("ve", [float(r.pvalue)]))
# BH: independent reference.
def bh(p):
    p = np.asarray(p); n = len(p); o = np.argsort(p, kind="stable")
    q = p[o] * n / np.arange(1, n + 1)
    q = np.minimum.accumulate(q[::-1])[::-1]
    out = np.empty(n); out[o] = np.minimum(q, 1); return out
for n in (1, 3, 10, 25, 50, 200):
    p = rng.uniform(0, 1, n) ** 3
    if n > 3: p[1] = p[0]           # tied p-values
    cases.append(f"bh {n} {fmt(p)}"); want.append(("bh", list(map(float, bh(p)))))
open(f"{d}/cases", "w").write("\n".join(cases) + "\n")
json.dump(want, open(f"{d}/want.json", "w"))
PYEOF
ok $? "generated reference cases with scipy"

"$DRIVER" --ref < "$TMP_T/cases" > "$TMP_T/got"
ok $? "driver answered every case"

$PY - "$TMP_T" > "$TMP_T/cmp" <<'PYEOF'
import sys, json, math
d = sys.argv[1]
want = json.load(open(f"{d}/want.json"))
got = [l.split() for l in open(f"{d}/got")]
assert len(got) == len(want), (len(got), len(want))
for i, ((kind, w), g) in enumerate(zip(want, got)):
    g = [float(x) for x in g]
    if kind == "mwu":
        good = abs(g[0] - w[0]) < 1e-9 and abs(g[1] - w[1]) < 1e-6
        print(f"{'ok' if good else 'bad'} mwu case {i}: U {g[0]} vs {w[0]}, p {g[1]:.10g} vs {w[1]:.10g} exact={int(g[2])}")
    elif kind == "mwu-const":
        print(f"{'ok' if g[1] == 1 else 'bad'} mwu all-equal gives p=1 (scipy: nan)")
    elif kind == "ve":
        good = abs(g[1] - w[0]) < 1e-6
        print(f"{'ok' if good else 'bad'} van Elteren one stratum p {g[1]:.10g} vs {w[0]:.10g}")
    else:
        good = len(g) == len(w) and all(abs(x - y) < 1e-6 for x, y in zip(g, w))
        print(f"{'ok' if good else 'bad'} bh case {i} n={len(w)}")
PYEOF
ok $? "comparison ran"
total=$(grep -c . "$TMP_T/cmp")
bad=$(grep -c '^bad' "$TMP_T/cmp")
exact=$(grep -c 'exact=1' "$TMP_T/cmp")
grep '^bad' "$TMP_T/cmp" | sed 's/^/# /'
is "$bad" 0 "all $total reference cases agree to 1e-6"
[ "$total" -ge 20 ]; ok $? "at least 20 cases ($total)"
[ "$exact" -ge 5 ]; ok $? "exact branch exercised ($exact cases)"
done_testing
