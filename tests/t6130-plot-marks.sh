#!/bin/bash
# What the big trend plot draws, read from its SVG (no browser): one marker of
# the shape the metric page's caption names per stored regression (filled
# diamonds: this host's, open ones: all hosts', plus one each in the key; in
# two environments both sit at one commit), the unit on the y axis, the key's texts
# outside the data area (the plot border's box), no on* attributes (gnuplot's
# hypertext), and a hostile subject reaching the plot only as a tick label.
. tests/lib/tap.sh
. tests/lib/server.sh

DB=$TMP_T/fw.db
mkdir -p "$TMP_T/docs"
# c2 slows split by 10% and filemap by 3%; c3 keeps split slow, brings filemap back.
"$PY" tests/lib/gen-series.py "$TMP_T/docs" s1 icount@vm 5 base:0:-:1:1 c1:1:base:1:1 \
	c2:2:c1:1.1:0.97 c3:3:c2:1.1:1.0 || bail "gen-series"
# A subject that would be gnuplot code if it ever reached the script.
sed -i 's/"mm: commit c1"/"mm: c1 \\" ; system(\\"touch PWNED\\") ; set output \\"x"/' "$TMP_T"/docs/s1-vm-c1-*.json
for f in "$TMP_T"/docs/*.json; do "$SERVER" seal "$f" >"$f.sealed" || bail "seal $f"; done
# s2: the same slowdown measured in two environments, so c2 also has an all-hosts regression.
for env in icount@vm tcg@vm; do
	mkdir -p "$TMP_T/docs2/${env%@*}"
	"$PY" tests/lib/gen-series.py "$TMP_T/docs2/${env%@*}" s2 "$env" 5 base:0:-:1:1 c1:1:base:1:1 \
		c2:2:c1:1.1:0.97 c3:3:c2:1.1:1.0 || bail "gen-series s2"
done
for f in "$TMP_T"/docs2/*/*.json; do "$SERVER" seal "$f" >"$f.sealed" || bail "seal $f"; done
"$SERVER" import -q --db "$DB" "$TMP_T"/docs/*.sealed "$TMP_T"/docs2/*/*.sealed
is $? 0 'series imported'
start_server "$DB" || bail "server did not start"

# svg_facts FILE: markers (filled diamonds gpPt12, open ones gpPt11), key texts hitting the border box,
# on* attributes, texts.
svg_facts() {
	"$PY" - "$1" <<'PYEOF'
import re, sys, xml.etree.ElementTree as ET
t = ET.parse(sys.argv[1]); ns = {"s": "http://www.w3.org/2000/svg"}
X = "{http://www.w3.org/1999/xlink}href"
# drawn points are placed uses; in <defs> gpPt12 itself is a use of gpPt11
drawn = lambda ref: sum(1 for u in t.iter("{http://www.w3.org/2000/svg}use") if u.get(X) == ref and u.get("transform"))
markers, opened = drawn("#gpPt12"), drawn("#gpPt11")
onattrs = sum(1 for e in t.iter() for k in e.attrib if k.lower().startswith("on"))
box = None
for p in t.iter("{http://www.w3.org/2000/svg}path"):
    if p.get("stroke") != "black": continue
    pts = [tuple(map(float, m)) for m in re.findall(r"([\d.]+),([\d.]+)", p.get("d", ""))]
    xs, ys = [a for a, _ in pts], [b for _, b in pts]
    b = (min(xs), min(ys), max(xs), max(ys))
    if not box or (b[2]-b[0])*(b[3]-b[1]) > (box[2]-box[0])*(box[3]-box[1]): box = b
keys = {"samples", "boot median", "median", "regression", "all-hosts regression", "interval (vs parent)"}
hits, texts = [], []
for g in t.iter("{http://www.w3.org/2000/svg}g"):
    m = re.match(r"translate\(([\d.]+),([\d.]+)\)", g.get("transform", ""))
    for tx in g.findall("s:text", ns):
        s = "".join(tx.itertext()).strip(); texts.append(s)
        if m and s in keys:
            x, y = float(m.group(1)), float(m.group(2))
            # the text's anchor point and a line-height box above it (text-anchor end: to its left)
            if box[0] - 1 < x < box[2] + 1 and box[1] - 1 < y - 11 < box[3] + 1 or box[1] - 1 < y < box[3] + 1 and box[0] < x < box[2]:
                hits.append(s)
print(markers, len(hits), onattrs, opened)
print("\n".join(texts))
PYEOF
}
is "$(code '/series/s1/metric/split/pmd-to-0/split_ms')" 200 'metric page'
like "$(cat "$TMP_T/body")" 'red diamonds: regressions' '... its caption names red diamonds'
NREG=$(grep -A100 'id="regressions"' "$TMP_T/body" | grep -o '<tr><td>[0-9]*</td><td><a class="mono" href="[^"]*"' | sed 's/.*href=//' | sort -u | wc -l)
is "$(code '/plot/s1/split/pmd-to-0/split_ms/big.svg')" 200 'big plot'
cp "$TMP_T/body" "$TMP_T/split.svg"
svg_facts "$TMP_T/split.svg" >"$TMP_T/facts"
read -r MARK HITS ON OPEN <"$TMP_T/facts"
ok $([ "$NREG" -ge 1 ] && echo 0 || echo 1) "split has stored regressions ($NREG commits)"
is "$MARK" $((NREG + 1)) 'one diamond per stored regression, plus the key'
is "$OPEN" 0 '... and no all-hosts marker with one environment'
is "$HITS" 0 'no key text inside the data area'
is "$ON" 0 'no on* attributes (no hypertext)'
like "$(sed 1d "$TMP_T/facts")" '^ms$' 'y axis label: the unit'
like "$(sed 1d "$TMP_T/facts")" '^c1c1c1c mm: c1 _ _ system\(_touch\.\.$' 'the hostile subject is a filtered tick label, cut at a word'
ok $([ ! -e PWNED ] && [ ! -e "$TMP_T/cache/PWNED" ] && echo 0 || echo 1) '... never run'
is "$(code '/plot/s1/filemap/4k/bw_mib_s/big.svg')" 200 'filemap plot'
svg_facts "$TMP_T/body" >"$TMP_T/facts2"
like "$(sed 1d "$TMP_T/facts2")" '^MiB/s$' 'y axis label keeps MiB/s (the unit reaches gnuplot as data)'

# Two environments: this host's regression and the all-hosts one at c2, one marker each.
is "$(code '/series/s2/metric/split/pmd-to-0/split_ms')" 200 's2 metric page (two environments)'
like "$(cat "$TMP_T/body")" 'red diamonds: regressions of this host, open red diamonds: regressions of all hosts' \
	'... its caption names both marker shapes'
grep -A100 'id="regressions"' "$TMP_T/body" | grep -o '<tr><td>[0-9]*</td>.*</tr>' >"$TMP_T/regrows"
NALL=$(grep -c 'all hosts' "$TMP_T/regrows")
NHOST=$(grep -vc 'all hosts' "$TMP_T/regrows")
ok $([ "$NALL" -ge 1 ] && [ "$NHOST" -ge 1 ] && echo 0 || echo 1) "s2 split has host and all-hosts regressions ($NHOST, $NALL)"
ok $([ "$(sed 's/.*href="\([^"]*\)".*/\1/' "$TMP_T/regrows" | sort | uniq -d | wc -l)" -ge 1 ] && echo 0 || echo 1) \
	'... two of them at one commit'
is "$(code '/plot/s2/split/pmd-to-0/split_ms/big.svg')" 200 's2 big plot'
svg_facts "$TMP_T/body" >"$TMP_T/facts3"
read -r MARK HITS ON OPEN <"$TMP_T/facts3"
is "$((MARK - 1 + OPEN - 1))" "$((NHOST + NALL))" 'one marker per stored regression (not one per commit), keys aside'
is "$MARK $OPEN" "$((NHOST + 1)) $((NALL + 1))" '... filled for the host, open for all hosts'
is "$HITS" 0 '... key texts (both marker kinds) outside the data area'
like "$(sed 1d "$TMP_T/facts3")" '^regression \+[0-9.]+% \(new\), all hosts \+[0-9.]+% \(new\)$' \
	'... one label at c2 names both, readable (no "_" for the separator)'
stop_server
is $? 0 'server exits 0'
done_testing
