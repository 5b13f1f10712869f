#!/usr/bin/env python3
"""crawl-classes.py SEED WORKDIR SERVER URL DB TOKEN: the generated half of
the crawl (tests/t1101), four classes of input an adversarial crawl found
mishandled, with names, numbers and sizes drawn from SEED (the test prints
it; a failure replays with it). Prints "bad: ..." per problem and a last
line "checks N problems M".

 1 text cut at a byte count: tokens whose names are 2-, 3- and 4-byte
   characters at every byte length around the 127-byte cut (stored straight
   into DB, as an older version let them in), used to POST a run: the answer
   names the token; and a params key around the 256-byte field cut in an
   error: every answer is strict UTF-8 JSON.
 2 many query parameters or header lines, and big ones: every request gets
   an HTTP answer and the server answers /healthz after each.
 3 export of series with extreme values (beyond +-1e307, all equal): every
   href/src of every exported page is a file of the export.
 4 \\u0000 at a random place of a random string field: seal, import and
   POST /api/v1/runs refuse it, naming the same field."""
import copy, hashlib, http.client, json, os, random, re, socket, sqlite3, subprocess, sys, urllib.parse
from html.parser import HTMLParser

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bigreq  # noqa: E402

seed, work, server, url, db, token = sys.argv[1:7]
rnd = random.Random(int(seed))
u = urllib.parse.urlsplit(url)
here = os.path.dirname(os.path.abspath(__file__))
example = json.load(open(os.path.join(here, "..", "..", "schema", "examples", "run-ok.json")))
problems, checks = [], 0
WIDE = {2: "\u00e9\u00df\u0436\u05d0", 3: "\u20ac\u4e2d\u3042\u2028", 4: "\U0001f600\U0001d11e\U00020b0e"}


def bad(what):
    problems.append(what)


def check(cond, what):
    global checks
    checks += 1
    if not cond:
        bad(what)
    return cond


def wide_text(width, nbytes, prefix=""):
    """prefix, 0-3 random ASCII bytes (so cuts fall at every alignment), then
    characters of width bytes until the text holds at least nbytes."""
    s = prefix + "x" * rnd.randint(0, 3)
    while len(s.encode()) < nbytes:
        s += rnd.choice(WIDE[width])
    return s


def request(method, path, body=None, headers=None):
    c = http.client.HTTPConnection(u.hostname, u.port, timeout=30)
    c.request(method, path, body=body, headers=headers or {})
    r = c.getresponse()
    data = r.read()
    c.close()
    return r.status, data


def strict_json(data, what):
    """The answer as JSON if it is strict UTF-8 JSON (no lone surrogates), else None."""
    try:
        text = data.decode("utf-8", errors="strict")
        doc = json.loads(text)
        json.dumps(doc, ensure_ascii=False).encode("utf-8", errors="strict")
        return doc
    except (UnicodeError, ValueError) as e:
        bad(f"{what}: not strict UTF-8 JSON ({e}): {data[:200]!r}")
        return None


def seal(path):
    p = subprocess.run([server, "seal", path], capture_output=True)
    return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")


def write_doc(doc, name):
    path = os.path.join(work, name)
    with open(path, "w") as f:
        json.dump(doc, f)
    return path


def one_series(name, samples_base, samples_head):
    """A sealed two-commit series from the example, the first result's samples given."""
    out = []
    for pos, samples in ((0, samples_base), (1, samples_head)):
        d = copy.deepcopy(example)
        d.pop("run_id", None)
        d["series"]["name"] = name
        d["results"][0]["samples"] = samples
        d["results"][0].pop("counters", None)
        if pos:
            d["commit"]["parent"] = d["commit"]["sha"]
            d["commit"]["sha"] = "h" + d["commit"]["sha"][1:]
            d["commit"]["key"] = d["commit"]["sha"]
        else:
            d["commit"].pop("parent", None)
        rc, text, err = seal(write_doc(d, f"{name}-{pos}.json"))
        if not check(rc == 0, f"class 3: seal of {name}-{pos} failed: {err.strip()}"):
            continue
        path = os.path.join(work, f"{name}-{pos}.sealed")
        open(path, "wb").write(text)
        out.append(path)
    return out


def class1_tokens(sealed):
    con = sqlite3.connect(db, timeout=30)
    body = open(sealed, "rb").read()
    for width in (2, 3, 4):
        for nbytes in range(118, 140):
            name = wide_text(width, nbytes, f"t{width}-{nbytes}-")
            tok = "fwt_" + "".join(rnd.choice("0123456789abcdef") for _ in range(64))
            with con:
                con.execute("INSERT INTO api_tokens (name, hash, created_at, scopes) VALUES (?, ?, ?, 'ingest')",
                            (name, hashlib.sha256(tok.encode()).hexdigest(), "2026-01-01T00:00:00Z"))
            st, data = request("POST", "/api/v1/runs", body, {"Authorization": f"Bearer {tok}",
                                                                "Content-Type": "application/json"})
            what = f"class 1: POST with a token named {len(name.encode())} bytes of {width}-byte characters"
            check(st in (200, 201), f"{what}: status {st}")
            doc = strict_json(data, what)
            if doc is not None:
                got, n = doc.get("token", "\0"), len(name.encode())
                check(got == name if n <= 127 else name.startswith(got) and len(got.encode()) >= 124,
                      f"{what}: token {got!r} is not the name or its longest prefix within 127 bytes")
    con.close()


def class1_field_path(sealed):
    """A params key around the cut of an error's field (256 bytes): the error answer stays UTF-8."""
    doc = json.load(open(sealed))
    for width in (2, 3, 4):
        for nbytes in range(96, 101):
            d = copy.deepcopy(doc)
            key = wide_text(width, nbytes)
            while len(key.encode()) > 100:
                key = key[:-1]
            d["results"][0]["params"] = {key: "bad\u0001value"}
            st, data = request("POST", "/api/v1/runs", json.dumps(d).encode(),
                               {"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
            what = f"class 1: an error naming a params key of {len(key.encode())} bytes of {width}-byte characters"
            check(st == 400, f"{what}: status {st}")
            strict_json(data, what)


# What the server answers at all (README "Request limits", measured with libmicrohttpd
# 0.9.75): MHD's pool is 128 KiB; a request line up to 130,597 bytes and header lines
# while their text + 64 bytes a line fit about 127 KiB get an answer; beyond, MHD
# closes the connection (its bare 414/431 at best). Cases past it may close.
ANSWERED_UP_TO = 126 * 1024


def raw_request(kind, n):
    """Sends one request with n parameters / header lines, or of n bytes: (status or None,
    whether the server must answer it: its size within ANSWERED_UP_TO)."""
    name = lambda i: f"{'k' * rnd.randint(1, 4)}{i}"
    req = bigreq.request_bytes(kind, n, name)
    size = len(req) + (64 * n if kind == "headers" else 0)
    st = bigreq.send(u.hostname, u.port, req, wait_close=0)["status"]
    return (None if st == "closed" else int(st)), size <= ANSWERED_UP_TO


def class2_requests():
    plan = [(k, n) for k in ("params", "headers") for n in [100, 1000, 10000] + [rnd.randint(1, 30000) for _ in range(3)]]
    plan += [(k, rnd.randint(1000, 300000)) for k in ("path", "query", "header") for _ in range(3)]
    rnd.shuffle(plan)
    for kind, n in plan:
        st, must = raw_request(kind, n)
        check(st is not None or not must, f"class 2: {n} {kind}: connection closed without an HTTP answer")
        check(st is None or st < 500, f"class 2: {n} {kind}: status {st}")
        try:
            alive = request("GET", "/healthz")[0] == 200
        except OSError:
            alive = False
        check(alive, f"class 2: server not answering /healthz after {n} {kind}")


class Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links = []

    def handle_starttag(self, tag, attrs):
        self.links += [v for k, v in attrs if k in ("href", "src") and v]


def class3_export():
    big = lambda: rnd.choice((-1, 1)) * rnd.uniform(1.0001e307, 1.79e308)
    same = rnd.uniform(1e300, 9e306) * rnd.choice((-1, 1))
    files = []
    files += one_series("x-beyond", [big() for _ in range(3)], [big() for _ in range(3)])
    files += one_series("x-equal", [same] * 3, [same] * 3)
    files += one_series("x-mixed", [rnd.uniform(1, 100), big()], [big(), rnd.uniform(1, 100)])
    edb, site = os.path.join(work, "export.db"), os.path.join(work, "site")
    p = subprocess.run([server, "import", "-q", "--db", edb] + files, capture_output=True)
    check(p.returncode == 0, f"class 3: import failed: {p.stderr.decode()[:300]}")
    static = os.path.join(here, "..", "..", "static")
    p = subprocess.run([server, "export", "--db", edb, "--out", site, "--static", static], capture_output=True)
    check(os.path.exists(os.path.join(site, "index.html")), f"class 3: export wrote no index ({p.returncode})")
    linked = {False: 0, True: 0}
    pages = [f for f in os.listdir(site) if f.endswith(".html")] if os.path.isdir(site) else []
    check(len(pages) >= 4, f"class 3: export wrote {len(pages)} pages")
    for page in pages:
        lp = Links()
        lp.feed(open(os.path.join(site, page), encoding="utf-8").read())
        for link in lp.links:
            if re.match(r"^([a-z]+:|#|/)", link):
                continue  # off-site, in-page or the live server's: not the export's files
            target = urllib.parse.unquote(link.split("#")[0].split("?")[0])
            check(os.path.isfile(os.path.join(site, target)), f"class 3: {page} links {link}, not in the export")
            linked[target.endswith(".svg")] += 1
    check(linked[True] >= 6, f"class 3: only {linked[True]} plots linked from the export's pages")


def string_paths(o, path=()):
    if isinstance(o, dict):
        for k, v in o.items():
            yield from string_paths(v, path + (k,))
    elif isinstance(o, list):
        for i, v in enumerate(o):
            yield from string_paths(v, path + (i,))
    elif isinstance(o, str):
        yield path


def class4_nul(sealed):
    doc = json.load(open(sealed))
    paths = list(string_paths(doc))
    edb = os.path.join(work, "nul.db")
    for i in range(4):
        path = rnd.choice(paths)
        d = copy.deepcopy(doc)
        o = d
        for k in path[:-1]:
            o = o[k]
        v = o[path[-1]]
        at = rnd.randint(0, len(v))
        o[path[-1]] = v[:at] + "\0" + v[at:]
        f = write_doc(d, f"nul-{i}.json")
        where = ".".join(map(str, path))
        rc, out, err = seal(f)
        check(rc == 1 and "(NUL)" in err, f"class 4: seal of a NUL at {where} [{at}]: exit {rc}: {err.strip()[:200]}")
        p = subprocess.run([server, "import", "-q", "--db", edb, f], capture_output=True)
        ierr = p.stderr.decode("utf-8", "replace")
        check(p.returncode == 1 and "(NUL)" in ierr, f"class 4: import of a NUL at {where}: exit {p.returncode}")
        seal_says = err.strip().split(f"{f}: ", 1)[-1]
        check(seal_says and seal_says in ierr, f"class 4: seal says {seal_says!r}, import {ierr.strip()!r}")
        check(str(path[-1]) in seal_says, f"class 4: seal's error {seal_says!r} does not name {where}")
        st, data = request("POST", "/api/v1/runs", open(f, "rb").read(),
                           {"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
        ans = strict_json(data, f"class 4: POST of a NUL at {where}") or {}
        field = ans.get("error", {}).get("field", "")
        check(st == 400 and field and seal_says.startswith(field + ":"),
              f"class 4: POST of a NUL at {where}: {st} field {field!r}, seal said {seal_says!r}")


sealed = one_series("gen-base", [61.0, 62.0, 61.5], [62.0, 61.8, 61.9])[0]
class1_tokens(sealed)
class1_field_path(sealed)
class2_requests()
class3_export()
class4_nul(sealed)
for p in problems:
    print("bad:", p)
print(f"checks {checks} problems {len(problems)}")
