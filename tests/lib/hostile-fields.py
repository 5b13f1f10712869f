#!/usr/bin/env python3
"""hostile-fields.py CORPUS I: the I-th string of the hostile corpus (a JSON
array) put in every name field of a run document, cut to each field's limit
at a character boundary and with '/' made U+2215 where names are path
segments: a JSON object for gen-named.py."""
import json, sys

s = json.load(open(sys.argv[1]))[int(sys.argv[2])]


def cut(t, limit):
    while len(t.encode()) > limit:
        t = t[:-1]
    return t


seg = s.replace("/", "\u2215")
print(json.dumps({
    "series.name": cut(s, 200), "series.base": cut(s, 200), "tree.name": cut(s, 200),
    "commit.sha": cut(s, 100), "commit.subject": cut(s, 1000), "commit.author": cut(s, 500),
    "environment.host": cut(s, 200), "environment.cpu_model": cut(s, 200),
    "results.0.workload": cut(seg, 100), "results.0.variant": cut(seg, 100),
    "results.0.metric": cut(seg, 100), "results.0.unit": cut(s, 32),
    "results.1.params": {cut(s, 100): cut(s, 1000)},
}))
