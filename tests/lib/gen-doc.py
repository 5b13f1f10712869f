#!/usr/bin/python3
"""Writes an unsealed run document (seal it with `foliowatch-server seal`).

usage: gen-doc.py [--series S] [--commit-index I] [--boot B] [--results R]
                  [--samples N] [--value V] [--host H] [--accel A] [--seed X]
                  [--count N --out-dir DIR]
With --out-dir, writes N documents (boot indices --boot .. --boot+N-1, so N
distinct run ids) as DIR/doc-<commit index>-<boot>.json instead of one to stdout.
Values are V * (1 + small noise) so tests can plant known changes.
"""
import argparse, json, random, sys

ap = argparse.ArgumentParser()
ap.add_argument("--series", default="gen")
ap.add_argument("--revision", type=int, default=1)
ap.add_argument("--commit-index", type=int, default=0)
ap.add_argument("--subject", default=None)
ap.add_argument("--boot", type=int, default=0)
ap.add_argument("--results", type=int, default=2)
ap.add_argument("--samples", type=int, default=3)
ap.add_argument("--value", type=float, default=100.0)
ap.add_argument("--noise", type=float, default=0.01)
ap.add_argument("--host", default="host-a")
ap.add_argument("--accel", default="tcg")
ap.add_argument("--seed", type=int, default=1)
ap.add_argument("--workload", default="split")
ap.add_argument("--direction", default="lower_is_better")
ap.add_argument("--counters", action="store_true")
ap.add_argument("--count", type=int, default=1)
ap.add_argument("--out-dir", default=None)
a = ap.parse_args()

def sha(i):
    return ("%040x" % (0xabc000 + i))

def make(boot):
    rnd = random.Random(a.seed * 100003 + a.commit_index * 101 + boot)
    results = []
    for r in range(a.results):
        samples = [round(a.value * (1 + rnd.gauss(0, a.noise)), 4) for _ in range(a.samples)]
        res = {"workload": a.workload, "variant": "v%d" % r, "params": {"size_mib": 64},
               "metric": "m%d" % r, "unit": "ms", "direction": a.direction, "kind": "time",
               "samples": samples}
        if a.counters:
            res["counters"] = [{"thp_split_page": 256 + i} for i in range(a.samples)]
        results.append(res)

    doc = {
        "format": "foliowatch-run/2", "run_id": "", "origin": "test",
        "created_at": "2026-11-29T00:00:00Z",
        "tree": {"name": "linux-source-6.12", "url": ""},
        "series": {"name": a.series, "revision": a.revision, "base": sha(0)},
        "commit": {"sha": sha(a.commit_index), "key": sha(a.commit_index),
                   "subject": a.subject or "patch %d" % a.commit_index,
                   "author": "Test <t@example.org>", "position": a.commit_index},
        "build": {"status": "ok", "seconds": 10.0, "kernel_version": "6.12.0",
                  "config_hash": "0" * 64, "compiler": "gcc"},
        "environment": {"host": a.host, "accel": a.accel, "qemu_version": "7.2", "vcpus": 2,
                        "memory_mib": 2048, "host_kernel": "6.1", "cpu_model": "cpu",
                        "foliowatch_version": "test", "fio_version": "fio-3.33", "fingerprint": ""},
        "boot": {"status": "ok", "taint": 0, "seconds": 30.0},
        "profile": "quick", "boot_index": boot, "workloads": [a.workload],
        "results": results,
    }
    if a.commit_index > 0:
        doc["commit"]["parent"] = sha(a.commit_index - 1)
    return doc


if a.out_dir:
    for b in range(a.boot, a.boot + a.count):
        with open("%s/doc-%d-%d.json" % (a.out_dir, a.commit_index, b), "w") as fh:
            json.dump(make(b), fh)
else:
    json.dump(make(a.boot), sys.stdout)
