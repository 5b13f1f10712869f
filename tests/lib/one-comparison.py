#!/usr/bin/python3
"""Reads every comparison of a series' analysis (report --format json rows,
against the parent and against the base) from the other surfaces of a
running server and prints one line per surface: "<surface> <checked>
<mismatches>" then the first mismatches ("# ..."). Each surface is compared
as it rounds: JSON to 0.001 (json_pct), pages and text to 0.01.

usage: one-comparison.py URL SERIES REPORT.json REPORT.csv REPORT.email
(the three reports as `foliowatch-server report --format json|csv|email` writes them)
"""
import csv, html, json, re, sys, urllib.parse, urllib.request

url, series, report, csv_path, email_path = sys.argv[1:6]
rep = json.load(open(report))
csv_rows = {}
for c in csv.DictReader(open(csv_path)):
    csv_rows[(c["sha"], c["ref_sha"], c["env_fingerprint"], c["workload"], c["variant"], c["metric"])] = c
email = open(email_path).read().splitlines()
rows = [r for r in rep["rows"] if r.get("delta_pct") is not None]
q = urllib.parse.quote
seen = {}


def get(path):
    with urllib.request.urlopen(url + path, timeout=120) as f:
        return f.read().decode()


def check(surface, key, want, got):
    n, bad = seen.setdefault(surface, [0, []])
    seen[surface][0] += 1
    if got != want:
        bad.append("%s %s: want %s, got %s" % (surface, key, want, got))


def r3(v):
    return None if v is None else round(v, 3)


def pct2(v):
    return "%+.2f%%" % v


def matrix_pct(v):
    """The matrix writes a delta of four digits without decimals (its cells are 112 px)."""
    return "%+.0f%%" % v if abs(v) >= 999.995 else pct2(v)


def wvm(r):
    return "%s/%s/%s" % (r["workload"], r["variant"], r["metric"])


def key(r):
    return "%s %s vs %s (%s)" % (wvm(r), r["sha"][:8], r["ref_sha"][:8], r["against"])


def texts(page):
    """Cell texts of a page, tags stripped, entities decoded."""
    return [html.unescape(re.sub(r"<[^>]+>", "", c)).strip()
            for c in re.findall(r"<td[^>]*>(.*?)</td>", page, re.S)]


def lines_with(lines, r):
    """Deltas (1 decimal, as text and mail round) on the lines naming r's metric."""
    name = re.compile(r"\b%s/%s %s\b" % (re.escape(r["workload"]), re.escape(r["variant"]), re.escape(r["metric"])))
    return [l for l in lines if name.search(l)]


def matrix(vs):
    """Cell texts of the series page's matrix against the parent or the base."""
    page = get("/series/%s?vs=%s" % (q(series, safe=""), vs))
    m = re.search(r'id="matrix-%s">(.*?)</table>' % vs, page, re.S)
    return texts(m.group(1)) if m else []


matrices = {"parent": matrix("parent"), "base": matrix("base")}
text = get("/api/v1/series/" + q(series, safe="") + "/report.txt?verbose=1").splitlines()
cover = get("/api/v1/series/" + q(series, safe="") + "/report.txt?all=1").splitlines()
moved = get("/api/v1/series/" + q(series, safe="") + "/report.txt").splitlines()
last_sha = max((r for r in rows), key=lambda r: r["position"])["sha"] if rows else None
api = json.loads(get("/api/v1/series/" + q(series, safe="")))
apid = {(c["sha"], m["metric"], m["env"]): m for c in api["commits"] for m in c["metrics"]}
trends, metric_pages = {}, {}
page = texts(get("/series/" + q(series, safe="")))
for r in rows:
    k = key(r)
    env = r["env_fingerprint"]
    if r["against"] == "parent":
        m = next((v for (sha, name, e), v in apid.items()
                  if sha == r["sha"] and name == wvm(r) and env.startswith(e)), None)
        check("api-series", k, r3(r["delta_pct"]), m and m.get("delta_pct"))
        tk = (wvm(r), env)
        if tk not in trends:
            trends[tk] = json.loads(get("/api/v1/trend?series=%s&metric=%s&env=%s" % (q(series), q(wvm(r)), env[:12])))
        p = next((p for p in trends[tk]["points"] if p["sha"] == r["sha"]), {})
        check("api-trend", k, r3(r["delta_pct"]), p.get("delta_pct"))
        check("series-page", k, True, pct2(r["delta_pct"]) in page)
        if tk not in metric_pages:
            metric_pages[tk] = texts(get("/series/%s/metric/%s?env=%s" % (q(series, safe=""), wvm(r), env[:12])))
        check("metric-page", k, True, pct2(r["delta_pct"]) in metric_pages[tk])
    check("matrix-" + r["against"], k, True,
          any(c.split(" ")[0] == matrix_pct(r["delta_pct"]) for c in matrices[r["against"]]))
    one = "%+.1f%%" % r["delta_pct"]
    check("report-text", k, True, any(one in l for l in lines_with(text, r)))
    if r["against"] == "parent" or r["sha"] == last_sha:  # the cover: each patch, and the whole series
        check("report-cover", k, True, any(l.startswith("  %s " % r["metric"]) and
                                           " %s " % pct2(r["delta_pct"]) in l for l in cover))
        if r["verdict"] in ("improvement", "regression"):  # what moved: the decided rows of the same
            check("report-moved", k, True, any(l.startswith("  %s " % r["metric"]) and
                                               " %s " % pct2(r["delta_pct"]) in l for l in moved))
    if r["against"] == "parent":  # the mail's table is each patch against its parent
        check("report-email", k, True, any(l.startswith("  %s " % r["metric"]) and
                                           " %s " % pct2(r["delta_pct"]) in l for l in email))
    c = csv_rows.get((r["sha"], r["ref_sha"], env, r["workload"], r["variant"], r["metric"]), {})
    check("report-csv", k, r["delta_pct"], float(c["delta_pct"]) if c.get("delta_pct") else None)
    cpage = texts(get("/series/%s/compare?base=%s&head=%s" % (q(series, safe=""), r["ref_sha"], r["sha"])))
    check("compare-page", k, True, pct2(r["delta_pct"]) in cpage)
    cmp = json.loads(get("/api/v1/compare?series=%s&base=%s&head=%s" % (q(series), r["ref_sha"], r["sha"])))
    c = next((c for c in cmp["metrics"] if c["metric"] == wvm(r) and c["env"] == env), {})
    check("api-compare", k, r3(r["delta_pct"]), c.get("delta_pct"))
    check("api-compare medians", k, (r["a"]["median"], r["b"]["median"]),
          (c.get("base_median"), c.get("head_median")))

# Stored regressions: the analysis' delta when it was found (the data has not changed since).
regs = json.loads(get("/api/v1/regressions?series=" + q(series)))["regressions"]
rpage = get("/regressions?series=" + q(series))
feed = get("/series/%s/feed.atom" % q(series, safe=""))
for g in regs:
    r = next((r for r in rows if r["against"] == "parent" and r["sha"] == g["sha"] and
              r["env_fingerprint"] == g["env_fingerprint"] and
              (r["workload"], r["variant"], r["metric"]) == (g["workload"], g["variant"], g["metric"])), None)
    if not r:
        check("regressions-api", "regression %d" % g["id"], "a row", None)
        continue
    k = key(r)
    check("regressions-api", k, r3(r["delta_pct"]), g["delta_pct"])
    one = json.loads(get("/api/v1/regressions/%d" % g["id"]))
    check("regression-api", k, r3(r["delta_pct"]), one.get("delta_pct"))
    check("regressions-page", k, True, pct2(r["delta_pct"]) in rpage)
    check("feed", k, True, pct2(r["delta_pct"]) in feed)
    svg = get(g["links"]["plot"])
    check("plot-label", k, True, "%+.1f%%" % r["delta_pct"] in html.unescape(svg))

for s, (n, bad) in sorted(seen.items()):
    print("%s %d %d" % (s.replace(" ", "-"), n, len(bad)))
    for b in bad[:3]:
        print("# " + b)
