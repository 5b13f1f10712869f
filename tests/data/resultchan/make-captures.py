#!/usr/bin/python3
# Writes the recorded result-channel captures used by tests/unit/test-resultchan.c.
# Run once by hand (python3 make-captures.py) when the set changes; the tests
# read the files, never this script. Encoding as in notes/contract.md, format 1.
import zlib

PLAIN = set(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._,:+-")

def enc(v):
    return "".join(chr(b) if b in PLAIN else "%%%02X" % b for b in str(v).encode())

def rec(seq, typ, kv):
    body = "FW1 %d %s" % (seq, typ) + "".join(" %s=%s" % (enc(k), enc(v)) for k, v in kv)
    return "%s *%08x\n" % (body, zlib.crc32(body.encode()) & 0xffffffff)

def good_records(extra=()):
    r = [("begin", [("format", 1), ("kernel", "6.12.117"), ("profile", "quick"),
                    ("workloads", "split,lazyfree"), ("rounds", 2)]),
         ("info", [("memcg", "v1")]),
         ("param", [("workload", "split"), ("variant", "pmd-to-0"), ("file_mib", 512), ("order", 0), ("fs", "tmpfs")])]
    for rnd, (ms, lz) in enumerate([(61.96, 0.0883), (61.88, 0.0882)]):
        r.append(("sample", [("workload", "split"), ("variant", "pmd-to-0"), ("metric", "split_ms"), ("unit", "ms"),
                             ("direction", "lower_is_better"), ("kind", "time"), ("round", rnd), ("value", ms)]))
        r.append(("counters", [("workload", "split"), ("variant", "pmd-to-0"), ("round", rnd),
                               ("thp_split_page", 256), ("ShmemHugePages_before_kb", 524288), ("ShmemHugePages_after_kb", 0)]))
        r.append(("sample", [("workload", "lazyfree"), ("variant", "pmd"), ("metric", "reclaim_s"), ("unit", "s"),
                             ("direction", "lower_is_better"), ("kind", "time"), ("round", rnd), ("value", lz)]))
        r.append(("counters", [("workload", "lazyfree"), ("variant", "pmd"), ("round", rnd),
                               ("pglazyfree", 131072), ("pglazyfreed", 131072), ("thp_split_pmd", 256)]))
    r.extend(extra)
    return r

def render(recs, with_end=True):
    out = [rec(i, t, kv) for i, (t, kv) in enumerate(recs)]
    if with_end:
        out.append(rec(len(recs), "end", [("records", len(recs))]))
    return out

def write(name, lines):
    with open(name, "w", newline="") as f:
        f.write("".join(lines))

good = render(good_records())
write("good.txt", good)
write("good-crlf.txt", [l.replace("\n", "\r\n") for l in good])
write("truncated.txt", good[:6])
write("truncated-midline.txt", good[:6] + [good[6][:20]])
write("empty.txt", [])
write("reordered.txt", good[:3] + [good[4], good[3]] + good[5:])
write("gap.txt", good[:3] + good[4:])
bad = list(good)
bad[4] = bad[4].replace("61.88", "61.89") if "61.88" in bad[4] else bad[4].replace("256", "257")
write("bad-checksum.txt", bad)
write("garbage.txt", good[:5] + ["[   12.345] random kernel noise on the wrong port\n"] + good[5:])
write("bad-end-count.txt", good[:-1] + [rec(len(good) - 1, "end", [("records", 3)])])
write("after-end.txt", good + [rec(len(good), "info", [("late", 1)])])
huge = good_records()
huge[3] = ("sample", [("workload", "split"), ("variant", "pmd-to-0"), ("metric", "split_ms"), ("unit", "ms"),
                      ("direction", "lower_is_better"), ("kind", "time"), ("round", 0), ("value", "1.7976931348623157e308")])
huge[4] = ("counters", [("workload", "split"), ("variant", "pmd-to-0"), ("round", 0),
                        ("thp_split_page", 18446744073709551615), ("big", "123456789012345678901234567890")])
write("huge-values.txt", render(huge))
inf = good_records()
inf[3] = (inf[3][0], [kv if kv[0] != "value" else ("value", "1e999") for kv in inf[3][1]])
write("infinite-value.txt", render(inf))
nan = good_records()
nan[3] = (nan[3][0], [kv if kv[0] != "value" else ("value", "nan") for kv in nan[3][1]])
write("nan-value.txt", render(nan))
hostile = [("begin", [("format", 1), ("kernel", "6.12.0 <script>"), ("profile", "quick"), ("workloads", "split"), ("rounds", 1)]),
           ("param", [("workload", "split"), ("variant", "a b\"c'<>&%é"), ("path", "/tmp/x y"), ("note", "100% \"quoted\"")]),
           ("sample", [("workload", "split"), ("variant", "a b\"c'<>&%é"), ("metric", "t ms"), ("unit", "ms"),
                       ("direction", "lower_is_better"), ("kind", "time"), ("round", 0), ("value", 1.5)]),
           ("error", [("workload", "split"), ("variant", "other"), ("msg", "line one\nline two: 50% failed")])]
write("hostile-names.txt", render(hostile))
slash = [("begin", [("format", 1), ("kernel", "6.12.0"), ("profile", "quick"), ("workloads", "split"), ("rounds", 1)]),
         ("sample", [("workload", "split"), ("variant", "../../etc"), ("metric", "t"), ("unit", "ms"),
                     ("direction", "lower_is_better"), ("kind", "time"), ("round", 0), ("value", 1)])]
write("slash-name.txt", render(slash))
raw = good[:2] + [good[2].replace("pmd-to-0", "pmd to 0")] + good[3:]
write("unencoded.txt", raw)
nul = [rec(0, "begin", [("format", 1), ("kernel", "x"), ("profile", "quick"), ("workloads", "split"), ("rounds", 1)])]
body = "FW1 1 info x=a%00b"
nul.append("%s *%08x\n" % (body, zlib.crc32(body.encode()) & 0xffffffff))
nul.append(rec(2, "end", [("records", 2)]))
write("nul-escape.txt", nul)
werr = good_records([("error", [("workload", "lazyfree"), ("variant", "pmd"), ("msg", "pglazyfree did not move: madvise(MADV_FREE) had no effect")])])
write("workload-error.txt", render(werr))
write("format2.txt", [rec(0, "begin", [("format", 2)]), rec(1, "end", [("records", 1)])])
