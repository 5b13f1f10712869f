#!/usr/bin/env python3
"""crawl.py BASE_URL CORPUS [MAX]: follows every link and image from / (same
server) and asks every GET API route of every series, then prints one line
per problem ("bad: ...") and a last line "requests N problems M". Checked on
every answer: no 5xx, the security headers (CSP, nosniff); JSON strictly
valid UTF-8 JSON (no lone surrogates); HTML, CSV and text strictly valid
UTF-8, HTML without any corpus string that holds markup, unescaped; SVG
well-formed XML; a link or image a page points to answers 2xx/304."""
import http.client, json, sys, urllib.parse, xml.dom.minidom
from html.parser import HTMLParser

base, corpus = sys.argv[1], json.load(open(sys.argv[2]))
limit = int(sys.argv[3]) if len(sys.argv) > 3 else 5000
u = urllib.parse.urlsplit(base)
markup = [s for s in corpus if any(c in s for c in "<>\"'&")]
problems, seen, n = [], set(), 0


def bad(url, why):
    problems.append(f"{why}: {url[:160]}")


class Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links = []

    def handle_starttag(self, tag, attrs):
        for k, v in attrs:
            if k in ("href", "src") and v:
                self.links.append(v)


def get(path):
    global n
    n += 1
    c = http.client.HTTPConnection(u.hostname, u.port, timeout=30)
    c.request("GET", path)
    r = c.getresponse()
    body = r.read()
    h = {k.lower(): v for k, v in r.getheaders()}
    c.close()
    return r.status, h, body


def check(path, from_page):
    """Fetches path once; returns (status, content type, body) or None."""
    if path in seen or n >= limit:
        return None
    seen.add(path)
    try:
        st, h, body = get(path)
    except Exception as e:  # the server must answer every request
        bad(path, f"no answer ({e})")
        return None
    ct = h.get("content-type", "")
    if st >= 500:
        bad(path, f"status {st}")
    if from_page and st >= 400:
        bad(path, f"dead link from a page ({st})")
    if "content-security-policy" not in h or h.get("x-content-type-options") != "nosniff":
        bad(path, "security headers missing")
    try:
        text = body.decode("utf-8", "strict") if not ct.startswith("image/png") else ""
    except UnicodeError as e:
        bad(path, f"invalid UTF-8 ({e})")
        return st, ct, ""
    if ct.startswith("application/json"):
        try:
            json.dumps(json.loads(text), ensure_ascii=False).encode("utf-8", "strict")
        except (ValueError, UnicodeError) as e:
            bad(path, f"invalid JSON ({e})")
    elif ct.startswith("text/html"):
        for s in markup:
            if s in text:
                bad(path, f"unescaped {s[:30]!r}")
    elif ct.startswith("image/svg"):
        try:
            xml.dom.minidom.parseString(body)
        except Exception as e:
            bad(path, f"SVG not well-formed ({e})")
    return st, ct, text


def q(s):
    # '.' too, as the server's own links do: "a/b.csv" must not be the CSV route's "a/b"
    return urllib.parse.quote(s, safe="").replace(".", "%2E")


# Every GET API route of every series.
todo = ["/", "/healthz", "/metrics", "/api/v1/series", "/api/v1/regressions"]
for p in todo:
    check(p, False)
st, _, text = get("/api/v1/series")
for s in json.loads(text)["series"]:
    name = q(s["name"])
    for p in (f"/api/v1/series/{name}", f"/api/v1/series/{name}.csv", f"/api/v1/series/{name}/report.txt",
              f"/api/v1/regressions?series={name}"):
        check(p, False)
    st, _, text = get(f"/api/v1/series/{name}")
    if st != 200:
        bad(f"/api/v1/series/{name}", f"a listed series answers {st}")
        continue
    d = json.loads(text)
    for m in d["metrics"]:
        check(f"/api/v1/trend?series={name}&metric={q(m['metric'])}&env={q(m['env'])}", False)  # env: the answer's key
    shas = [c["sha"] for c in d["commits"]]
    if len(shas) > 1:
        check(f"/api/v1/compare?series={name}&base={q(shas[0])}&head={q(shas[-1])}", False)
# Every link and image from /, breadth first.
queue = ["/"]
seen.discard("/")
while queue and n < limit:
    page = queue.pop(0)
    res = check(page, page != "/")
    if not res or not res[1].startswith("text/html"):
        continue
    p = Links()
    p.feed(res[2])
    for link in p.links:
        full = urllib.parse.urljoin(page, link)
        parts = urllib.parse.urlsplit(full)
        if parts.scheme or parts.netloc:
            continue
        path = parts.path + ("?" + parts.query if parts.query else "")
        if path not in seen:
            queue.append(path)
for pr in problems:
    print("bad:", pr)
print(f"requests {n} problems {len(problems)}")
