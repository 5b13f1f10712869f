#!/usr/bin/python3
"""Series of run documents whose noise comes from real boots of one kernel.

The spreads are read from run documents of repeated boots of ONE kernel
recorded by the collector (tests/data/same-kernel-boots/<accel>/*.json, one
document per boot): per metric (workload, variant, params, metric) of each
accelerator folder, the level (median of per-boot medians), the between-boot
CV (sd of per-boot medians / level) and the within-boot CV (pooled sd of the
rounds of a boot around their mean / level). A boot is generated as
level * (1 + effect) * (1 + N(0, b)) per boot and * (1 + N(0, w)) per round,
with w the within-boot CV and b = sqrt(max(0, between^2 - w^2 / rounds)), so
the per-boot medians spread like the real ones; a metric that never moved
(an exact count) is generated exactly. Every commit is the same kernel
(no change) unless a change is planted. Deterministic (seeded); documents
are written unsealed (`foliowatch-server seal --out-dir`).

  gen-same-kernel.py spreads DATA
      the spreads it uses, as JSON (one object per accel and metric)
  gen-same-kernel.py first DATA OUT PREFIX NSERIES NCOMMITS BOOTS LOOKS [CHANGE...]
      writes OUT/spec.json and the boots of look 1: series PREFIX-0 .. PREFIX-<NSERIES-1>,
      commits at positions 0..NCOMMITS-1, BOOTS boots each, in every accel of DATA.
      CHANGE is ACCEL:WORKLOAD/VARIANT/METRIC:PCT@POSITION (planted in every series).
  gen-same-kernel.py more OUT LOOK ANSWER...
      the boots `undecided` ANSWERs (JSON) ask for: each listed commit in its
      environment, for each listed workload from its boots up to boots_next
      (workloads at the same counts in one boot), recorded as look LOOK.
  gen-same-kernel.py pick DATA
      prints "EXACT NOISY": the exact metric (a count whose boots all agree)
      and the noisy one (the TCG metric with the largest between-boot CV of at
      most 10%, else the smallest above 2%) the detection test plants changes in.
"""
import glob, hashlib, json, math, os, random, statistics, sys


def canon(params):
    return json.dumps(params, sort_keys=True, separators=(",", ":"))


def median(x):
    return statistics.median(x)


def read_spreads(data):
    """{accel: {"env": environment, "metrics": [spread, ...]}} from DATA/<accel>/*.json."""
    out = {}
    for d in sorted(glob.glob(os.path.join(data, "*"))):
        docs = sorted(glob.glob(os.path.join(d, "*.json")))
        if not os.path.isdir(d) or not docs:
            continue
        accel = os.path.basename(d)
        env, by_key, meta = None, {}, {}
        for path in docs:
            doc = json.load(open(path))
            if doc.get("boot", {}).get("status") != "ok":
                continue
            env = env or doc["environment"]
            for r in doc.get("results", []):
                if r.get("error") or not r.get("samples"):
                    continue
                key = (r["workload"], r["variant"], canon(r.get("params", {})), r["metric"])
                by_key.setdefault(key, []).append([float(v) for v in r["samples"]])
                meta[key] = {k: r[k] for k in ("unit", "direction", "kind", "min_effect_pct") if k in r}
                meta[key]["params"] = r.get("params", {})
        metrics = []
        for key, boots in sorted(by_key.items()):
            meds = [median(b) for b in boots]
            level = median(meds)
            if not level or len(boots) < 2:
                continue
            between = statistics.stdev(meds) / abs(level)
            ss, df = 0.0, 0
            for b in boots:
                if len(b) > 1:
                    m = statistics.mean(b)
                    ss += sum(((v - m) / m) ** 2 for v in b)
                    df += len(b) - 1
            within = math.sqrt(ss / df) if df else 0.0
            rounds = max(len(b) for b in boots)
            metrics.append({"accel": accel, "workload": key[0], "variant": key[1], "params": meta[key]["params"],
                            "metric": key[3], "unit": meta[key].get("unit", ""),
                            "direction": meta[key]["direction"], "kind": meta[key]["kind"],
                            **({"min_effect_pct": meta[key]["min_effect_pct"]} if "min_effect_pct" in meta[key] else {}),
                            "level": level, "boots": len(boots), "rounds": rounds,
                            "between_cv_pct": 100 * between, "within_cv_pct": 100 * within,
                            "exact": between == 0 and within == 0})
        if env and metrics:
            out[accel] = {"env": env, "metrics": metrics}
    return out


def name_of(m):
    return "%s:%s/%s/%s" % (m["accel"], m["workload"], m["variant"], m["metric"])


def pick(spreads):
    exact = [m for a in spreads.values() for m in a["metrics"] if m["exact"] and m["kind"] == "count"]
    noisy = [m for m in spreads.get("tcg", {"metrics": []})["metrics"]
             if not m["exact"] and m["between_cv_pct"] > 2]
    under = [m for m in noisy if m["between_cv_pct"] <= 10]
    best = max(under, key=lambda m: m["between_cv_pct"]) if under else \
        (min(noisy, key=lambda m: m["between_cv_pct"]) if noisy else None)
    return (name_of(exact[0]) if exact else "-", name_of(best) if best else "-")


def sha_of(series, pos):
    return hashlib.sha1(("%s:%d" % (series, pos)).encode()).hexdigest()


def write_boot(out, spec, series, pos, accel, boot, look, workloads=None):
    """One boot of commit `pos` in `accel`, running `workloads` (None: all)."""
    acc = spec["spreads"][accel]
    metrics = [m for m in acc["metrics"] if workloads is None or m["workload"] in workloads]
    wls = sorted({m["workload"] for m in metrics})
    rng = random.Random("%s:%d:%s:%d:%s" % (series, pos, accel, boot, ",".join(wls)))
    results = []
    for m in metrics:
        effect = 0.0
        for c in spec["changes"]:
            if c["name"] == name_of(m) and c["position"] <= pos:
                effect += c["pct"] / 100     # a change stays in every later commit
        level = m["level"] * (1 + effect)
        w = m["within_cv_pct"] / 100
        b = math.sqrt(max(0.0, (m["between_cv_pct"] / 100) ** 2 - w * w / m["rounds"]))
        bl = level * (1 + rng.gauss(0, b)) if not m["exact"] else level
        samples = [float("%.6g" % (bl * (1 + rng.gauss(0, w)) if not m["exact"] else level))
                   for _ in range(m["rounds"])]
        r = {"workload": m["workload"], "variant": m["variant"], "params": m["params"], "metric": m["metric"],
             "unit": m["unit"], "direction": m["direction"], "kind": m["kind"], "samples": samples}
        if "min_effect_pct" in m:
            r["min_effect_pct"] = m["min_effect_pct"]
        results.append(r)
    env = dict(acc["env"])
    env.pop("fingerprint", None)
    doc = {
        "format": "foliowatch-run/2", "origin": "gen", "created_at": "2026-12-01T00:00:00Z",
        "tree": {"name": "linux-source-6.12", "url": ""},
        "series": {"name": series, "revision": 1, "base": sha_of(series, 0)},
        "commit": {"sha": sha_of(series, pos), "key": sha_of(series, pos),
                   "subject": "base" if pos == 0 else "mm: unchanged patch %d" % pos,
                   "author": "Gen <gen@example.org>", "position": pos,
                   **({"parent": sha_of(series, pos - 1)} if pos else {})},
        "build": {"status": "ok", "kernel_version": "6.12.117", "compiler": "gcc",
                  "config": "CONFIG_GEN=%s\n" % sha_of(series, pos)},
        "environment": env,
        "boot": {"status": "ok", "taint": 0},
        "profile": "quick", "boot_index": boot,
        "workloads": wls,
        "sequential": {"look": look, "max_looks": spec["looks"]},
        "results": results,
    }
    with open(os.path.join(out, "%s-%d-%s-%s-%d.json" % (series, pos, accel, "+".join(wls), boot)), "w") as fh:
        json.dump(doc, fh)


def main():
    cmd = sys.argv[1]
    if cmd == "spreads":
        json.dump(read_spreads(sys.argv[2]), sys.stdout, indent=1)
    elif cmd == "pick":
        print(*pick(read_spreads(sys.argv[2])))
    elif cmd == "first":
        data, out, prefix = sys.argv[2:5]
        nseries, ncommits, boots, looks = map(int, sys.argv[5:9])
        changes = []
        for c in sys.argv[9:]:
            name, _, rest = c.rpartition(":")
            pct, _, pos = rest.partition("@")
            changes.append({"name": name, "pct": float(pct), "position": int(pos)})
        spec = {"spreads": read_spreads(data), "changes": changes, "looks": looks,
                "series": ["%s-%d" % (prefix, i) for i in range(nseries)], "commits": ncommits}
        os.makedirs(out, exist_ok=True)
        json.dump(spec, open(os.path.join(out, "spec.json"), "w"))
        for s in spec["series"]:
            for pos in range(ncommits):
                for accel in spec["spreads"]:
                    for b in range(boots):
                        write_boot(out, spec, s, pos, accel, b, 1)
    elif cmd == "more":
        out, look = sys.argv[2], int(sys.argv[3])
        spec = json.load(open(os.path.join(out, "spec.json")))
        accel_of = {a["env"].get("accel", accel): accel for accel, a in spec["spreads"].items()}
        n = 0
        for answer in sys.argv[4:]:
            ans = json.load(open(answer))
            for c in ans.get("commits", []):
                pos = int(c["position"]) if "position" in c else \
                    next(p for p in range(spec["commits"]) if sha_of(ans["series"], p) == c["sha"])
                # Workloads at the same count boot together, as the collector would run them.
                groups = {}
                for w in c["workloads"]:
                    groups.setdefault((int(w["boots"]), int(w["boots_next"])), []).append(w["workload"])
                for (have, want), wls in sorted(groups.items()):
                    for b in range(have, want):
                        write_boot(out, spec, ans["series"], pos, accel_of.get(c["accel"], c["accel"]), b, look, wls)
                        n += 1
        print(n)
    else:
        sys.exit("usage: see the docstring")


if __name__ == "__main__":
    main()
