#!/bin/bash
# Atom feeds of regressions (issue 16): GET /feed.atom and
# /series/{name}/feed.atom. Series named with every string of the hostile
# corpus (tests/data/hostile/names.json) plus a C0 control, each with a
# split regression and a bw improvement, and a status note full of markup: the
# feed parses as XML (Python's expat), every name and note comes back exactly
# (escaped, not interpreted; the control as U+FFFD), one entry per stored
# regression and one per improvement (stable ids of their own), the
# note's status change updates its entry, and a series feed holds only its
# series; unknown series: 404 naming it.
. tests/lib/tap.sh
. tests/lib/server.sh
DB=$TMP_T/fw.db
names=$TMP_T/names.txt
"$PY" -c 'import json,sys; [print(n) for n in json.load(open(sys.argv[1])) + ["ctl\u0001x\u0007", "nonchar\ufffe\uffff"]]' \
	tests/data/hostile/names.json > "$names"
i=0 imported=0
while IFS= read -r name; do
	i=$((i + 1))
	# generated under a plain name (gen-series names files after it), renamed before sealing
	dir=$TMP_T/docs$i
	mkdir -p "$dir"
	"$PY" tests/lib/gen-series.py "$dir" "s$i" tcg 5 base:0:-:1:1 c1:1:base:1:1 c2:2:c1:1.1:1 c3:3:c2:1.1:1.1 >/dev/null &&
		"$PY" -c 'import json,sys
for f in sys.argv[2:]:
    d = json.load(open(f)); d["series"]["name"] = sys.argv[1]; json.dump(d, open(f, "w"))' "$name" "$dir"/*.json
	for f in "$dir"/*.json; do "$SERVER" seal "$f" >"$f.sealed" 2>/dev/null; done
	if "$SERVER" import --db "$DB" -q "$dir"/*.sealed 2>/dev/null; then
		imported=$((imported + 1))
	else
		diag "not importable as a series name (ingest refuses it): $name"
	fi
done < "$names"
ok $([ "$imported" -ge 20 ]; echo $?) "$imported of $i hostile series imported"
TOK=$("$SERVER" token add ci --scopes ingest,triage --db "$DB")
start_server "$DB" || bail "server did not start"

is "$(code /api/v1/regressions)" 200 "regressions listed (the analysis stores them)"
cp "$TMP_T/body" "$TMP_T/regs.json"
ID=$(jget "$TMP_T/regs.json" 'd["regressions"][0]["id"]')
NOTE='</summary></entry><entry><title>forged</title> <![CDATA[ x ]]> & &amp; <script>alert(1)</script> "q" '"'s'"
body=$("$PY" -c 'import json,sys; print(json.dumps({"status": "acknowledged", "by": "<b>alice</b>", "note": sys.argv[1]}))' "$NOTE")
is "$(curl -s -o /dev/null -w '%{http_code}' -X POST -H "Authorization: Bearer $TOK" -H 'Content-Type: application/json' \
	--data-binary "$body" "$URL/api/v1/regressions/$ID")" 200 "a status with a hostile note and author"
code /api/v1/regressions >/dev/null
cp "$TMP_T/body" "$TMP_T/regs.json"

ctype=$(curl -s -o "$TMP_T/feed.xml" -w '%{http_code} %{content_type}' "$URL/feed.atom")
is "$ctype" "200 application/atom+xml; charset=utf-8" "GET /feed.atom: 200, Atom"
enc=$("$PY" -c 'import urllib.parse,sys; print(urllib.parse.quote(sys.argv[1], safe=""))' "$(sed -n 1p "$names")")
is "$(curl -s -o "$TMP_T/one.xml" -w '%{http_code}' "$URL/series/$enc/feed.atom")" 200 "GET /series/<script>.../feed.atom: 200"
is "$(code /series/no-such-series/feed.atom)" 404 "unknown series: 404"
is "$(jget "$TMP_T/body" 'd["error"]["field"]')" name "... naming the field name"

"$PY" - "$TMP_T/feed.xml" "$TMP_T/one.xml" "$TMP_T/regs.json" "$ID" "$NOTE" "$(sed -n 1p "$names")" > "$TMP_T/check.tap" <<'PY'
import json, sys
import xml.etree.ElementTree as ET
feed_path, one_path, regs_path, rid, note, first = sys.argv[1:7]
A = "{http://www.w3.org/2005/Atom}"
n = 0
def ok(c, d):
    global n
    n += 1
    print(("ok" if c else "not ok"), n, "-", d)
regs = json.load(open(regs_path))["regressions"]
try:
    root = ET.parse(feed_path).getroot()
except ET.ParseError as e:
    ok(False, "the feed parses as XML (%s)" % e)
    print("1..%d" % n)
    sys.exit(0)
ok(root.tag == A + "feed", "the feed parses as XML, an Atom feed")
everything = root.findall(A + "entry")
entries = [e for e in everything if "regression/" in e.findtext(A + "id")]
better = [e for e in everything if "improvement/" in e.findtext(A + "id")]
ok(len(entries) == len(regs), "one entry per stored regression (%d, %d)" % (len(entries), len(regs)))
ok(len(everything) == len(entries) + len(better), "... the others are improvements")
ok(not root.findall(".//script") and not root.findall(".//" + A + "script"), "no element came from the data")
by_id = {e.findtext(A + "id"): e for e in entries}
ok(all(e.findtext(A + "updated") and e.find(A + "link").get("href") for e in entries), "every entry has updated and a link")
titles = [e.findtext(A + "title") for e in entries]
xmlsafe = lambda s: "".join("\ufffd" if (ord(c) < 0x20 and c not in "\t\n\r") or c in "\ufffe\uffff" else c for c in s)
want = {xmlsafe(g["series"]) for g in regs}
got = set()
for t in titles:
    for s in want:
        if (" in %s: " % s) in t:
            got.add(s)
ok(got == want, "every hostile series name comes back exactly in a title (%d of %d)" % (len(got), len(want)))
ok(any("\ufffd" in s for s in got), "U+FFFE/U+FFFF (not XML characters) came back as U+FFFD")
ok(len(better) == len(want), "one improvement entry per series (bw +10%% at c3: %d of %d)" % (len(better), len(want)))
bt = [e.findtext(A + "title") for e in better]
ok({s for s in want for t in bt if (" in %s: " % s) in t} == want, "every hostile series name comes back exactly in an improvement's title")
ok(all("/4k/bw_mib_s +" in t and t.endswith("[improvement]") for t in bt), "... each a bw gain, marked [improvement]")
bids = [e.findtext(A + "id") for e in better]
ok(len(set(bids)) == len(bids) and all(len(i.rsplit("/", 1)[1]) == 64 for i in bids), "... with distinct hash ids")
ok(all("/api/v1/trend?" in e.findall(A + "link")[1].get("href") for e in better), "... and their trend as the related link")
e = by_id.get("tag:foliowatch,2026:regression/%s" % rid)
g = [x for x in regs if str(x["id"]) == rid][0]
ok(e is not None and note in (e.findtext(A + "summary") or ""), "the hostile note comes back exactly in its summary")
ok(e is not None and "<b>alice</b>" in e.findtext(A + "summary") and "[acknowledged]" in e.findtext(A + "title"), "... with its author and status")
ok(e is not None and e.findtext(A + "updated") == g["status_at"], "its updated is the status change's time")
ok(root.findtext(A + "updated") == max(x.findtext(A + "updated") for x in everything), "the feed's updated is the newest entry's")
ups = [x.findtext(A + "updated") for x in entries]
ids = [int(x.findtext(A + "id").rsplit("/", 1)[1]) for x in entries]
ok(ids == sorted(ids, reverse=True), "newest first")
one = ET.parse(one_path).getroot()
oe = [e for e in one.findall(A + "entry") if "regression/" in e.findtext(A + "id")]
ob = [e for e in one.findall(A + "entry") if "improvement/" in e.findtext(A + "id")]
ok(len(oe) == sum(1 for x in regs if x["series"] == first) and len(oe) >= 1,
   "the series feed holds only that series' regressions (%d)" % len(oe))
ok(len(ob) == 1 and ob[0].findtext(A + "id") in bids, "... and its one improvement, with the same id as in /feed.atom")
ok(first in one.findtext(A + "title"), "... and names it in its title")
print("1..%d" % n)
PY
relay_tap "$TMP_T/check.tap"
stop_server
is "$?" 0 "server stopped cleanly"

# under --public-url a feed reader gets absolute links (it has no page to resolve a path against)
start_server "$DB" --public-url https://fw.example.org/perf || bail "server did not start"
code /feed.atom >/dev/null
"$PY" - "$TMP_T/body" <<'PY' >"$TMP_T/abs.tap"
import sys, xml.etree.ElementTree as ET
A = "{http://www.w3.org/2005/Atom}"
root = ET.parse(sys.argv[1]).getroot()
hrefs = [l.get("href") for l in root.iter(A + "link")]
print("ok %d - every link of the feed absolute under --public-url (%d)" % (1, len(hrefs))
      if len(hrefs) > 1 and all(h.startswith("https://fw.example.org/perf/") for h in hrefs)
      else "not ok 1 - links not absolute: %s" % [h for h in hrefs if not h.startswith("https://fw.example.org/perf/")][:3])
print("1..1")
PY
relay_tap "$TMP_T/abs.tap"
stop_server
done_testing
