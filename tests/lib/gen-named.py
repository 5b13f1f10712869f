#!/usr/bin/env python3
"""Writes a two-commit series (base at position 0, head at 1) from
schema/examples/run-ok.json with chosen text in its name fields, for the
tests of outside text (UTF-8 boundaries, the hostile corpus).

gen-named.py OUTDIR TAG JSON
JSON is an object of field paths to strings, e.g.
{"series.name": "x\u00e9", "commit.sha": "...", "results.0.workload": "..."}.
The head commit's sha and key are the base's with the first character
replaced by "h" (never longer in bytes) unless "head.sha" is given. Documents are written unsealed.
"""
import copy, json, os, sys

out, tag, fields = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
here = os.path.dirname(os.path.abspath(__file__))
base = json.load(open(os.path.join(here, "..", "..", "schema", "examples", "run-ok.json")))
base.pop("run_id", None)


def put(doc, path, value):
    keys = [int(k) if k.isdigit() else k for k in path.split(".")]
    o = doc
    for k in keys[:-1]:
        o = o[k]
    o[keys[-1]] = value


for pos in (0, 1):
    doc = copy.deepcopy(base)
    for path, value in fields.items():
        if not path.startswith("head."):
            put(doc, path, value)
    sha = doc["commit"]["sha"]
    if pos == 0:
        doc["commit"].pop("parent", None)
    else:
        doc["commit"]["parent"] = sha
        sha = fields.get("head.sha", ("g" if sha[0] == "h" else "h") + sha[1:])
        for r in (r for r in doc["results"] if "samples" in r):
            r["samples"] = [s * 1.2 for s in r["samples"]]
    doc["commit"].update(sha=sha, key=sha, position=pos)
    with open(os.path.join(out, f"{tag}-{pos}.json"), "w") as f:
        json.dump(doc, f)
