#!/usr/bin/env python3
"""Writes run documents of a synthetic series for the analysis tests.

gen-series.py OUTDIR SERIES ACCEL BOOTS SPEC...
ACCEL is tcg, kvm or icount, optionally @HOST (default runner-1).
SPEC is sha:position:parent:split_factor:bw_factor[:counter_factor]; the base is
the commit whose sha is "base" (position 0). Values: split_ms around 62 ms
(lower is better), bw_mib_s around 2400 MiB/s (higher is better, a rate),
times the factors, with 0.8% gaussian noise between boots and 0.3% between
rounds (0.05% and 0.02% in icount mode). Deterministic (seeded). Documents are
written unsealed: the test runs `foliowatch-server seal` on them.
With FW_GEN_MAIL=FILE (JSON {"cover": {...}, "patches": {NAME: {...}}}),
documents carry series.cover and commit.mail as `run --mbox` writes them.
With FW_GEN_WATCHED set, documents say series.watched (a history, as `watch` writes).
With FW_GEN_PROFILE set, every document carries profiles[] (issue 13) for
split/pmd-to-0 and filemap/4k: a fixed call tree of kernel functions (PROFILE_TREE),
identical on every boot in icount mode, 0.8% noise per boot otherwise. Its
value, comma-separated NAME=FUNCTION*FACTOR (may be empty), multiplies that
function's self time on that commit (its callers' total time follows), e.g.
FW_GEN_PROFILE='c=__split_huge_page*1.5'. A SPEC's optional 7th field
"noprofile" leaves that commit unprofiled.
(0.8%: clearly above the 0.5% determinism bound, so TCG rows get the rank
test from the data as they would on a real TCG host; 5 boots still decide 2%.)
"""
import json, os, random, sys

out, series, accel, boots = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
rng = random.Random(f"{series}:{accel}")
accel, _, host = accel.partition("@")   # ACCEL may name a host: tcg@runner-2
host = host or "runner-1"
base_sha = "b" * 40
mail = json.load(open(os.environ["FW_GEN_MAIL"])) if os.environ.get("FW_GEN_MAIL") else {}
noise_boot, noise_round = (0.0005, 0.0002) if accel == "icount" else (0.008, 0.003)

# (function, workload/variant, hits, self_us, caller or None)
PROFILE_TREE = [
    ("split_huge_page_to_list_to_order", "split/pmd-to-0", 512, 800.0, None),
    ("__split_huge_page", "split/pmd-to-0", 512, 2000.0, "split_huge_page_to_list_to_order"),
    ("xas_split", "split/pmd-to-0", 512, 600.0, "split_huge_page_to_list_to_order"),
    ("folio_unlock", "split/pmd-to-0", 1024, 100.0, "__split_huge_page"),
    ("free_unref_page.constprop.0", "split/pmd-to-0", 4096, 400.0, "__split_huge_page"),
    ("filemap_read", "filemap/4k", 65536, 9000.0, None),
    ("filemap_get_pages", "filemap/4k", 65536, 3000.0, "filemap_read"),
    ("copy_page_to_iter", "filemap/4k", 65536, 5000.0, "filemap_read"),
]
prof_env = os.environ.get("FW_GEN_PROFILE")
prof_slow = {}
for item in filter(None, (prof_env or "").split(",")):
    who, _, rest = item.partition("=")
    fn, _, fac = rest.rpartition("*")
    prof_slow[(who, fn)] = float(fac)

def profiles_of(name, noise):
    self_us = {f: s * prof_slow.get((name, f), 1.0) * noise for f, _, _, s, _ in PROFILE_TREE}
    def total(f):
        return self_us[f] + sum(total(c) for c, _, _, _, up in PROFILE_TREE if up == f)
    return [{"workload": wv.split("/")[0], "variant": wv.split("/")[1], "function": f, "hits": hits,
             "time_us": round(total(f), 3), "self_us": round(self_us[f], 3)}
            for f, wv, hits, _, _ in PROFILE_TREE]

def sha_of(name):
    return base_sha if name == "base" else (name * 40)[:40]

for spec in sys.argv[5:]:
    f = spec.split(":")
    name, pos, parent, split_f, bw_f = f[0], int(f[1]), f[2], float(f[3]), float(f[4])
    ctr_f = float(f[5]) if len(f) > 5 else 1.0
    profiled = prof_env is not None and not (len(f) > 6 and f[6] == "noprofile")
    for boot in range(boots):
        bs = 1 + rng.gauss(0, noise_boot)
        bb = 1 + rng.gauss(0, noise_boot)
        split = [round(62.0 * split_f * bs * (1 + rng.gauss(0, noise_round)), 4) for _ in range(3)]
        bw = [round(2400.0 * bw_f * bb * (1 + rng.gauss(0, noise_round)), 3) for _ in range(3)]
        doc = {
            "format": "foliowatch-run/2", "origin": "local", "created_at": "2026-11-29T22:00:00Z",
            "tree": {"name": "linux-source-6.12", "url": ""},
            "series": {"name": series, "revision": 1, "base": base_sha,
                       **({"cover": mail["cover"]} if mail.get("cover") else {}),
                       **({"watched": True} if os.environ.get("FW_GEN_WATCHED") else {})},
            "commit": {"sha": sha_of(name), "key": sha_of(name), "subject": f"mm: commit {name}",
                       "author": "A Developer <dev@example.org>", "position": pos,
                       **({"parent": sha_of(parent)} if parent != "-" else {}),
                       **({"mail": mail["patches"][name]} if name in mail.get("patches", {}) else {})},
            "build": {"status": "ok", "seconds": 14.2, "kernel_version": "6.12.117",
                      "config": "CONFIG_SMP=y\n", "compiler": "gcc 12.2.0", "log_tail": ""},
            "environment": {"host": host, "accel": accel, "qemu_version": "7.2.18", "vcpus": 2,
                            "memory_mib": 2048, "host_kernel": "6.1.0-40-amd64",
                            "cpu_model": "Intel Xeon Processor (Cascadelake)",
                            "foliowatch_version": "0.1", "fio_version": "fio-3.33"},
            "boot": {"status": "ok", "taint": 0, "seconds": 41.7, "qemu_cmdline": "qemu",
                     "kernel_cmdline": "console=ttyS0", "log_tail": ""},
            "profile": "quick", "boot_index": boot, "workloads": ["split", "filemap"],
            "results": [
                {"workload": "split", "variant": "pmd-to-0", "params": {"file_mib": 512, "order": 0},
                 "metric": "split_ms", "unit": "ms", "direction": "lower_is_better", "kind": "time",
                 "min_effect_pct": 2, "samples": split,
                 "counters": [{"thp_split_page": round(256 * ctr_f), "nr_free": 1000 + boot}
                              for _ in split]},
                {"workload": "filemap", "variant": "4k", "params": {"file_mib": 256},
                 "metric": "bw_mib_s", "unit": "MiB/s", "direction": "higher_is_better", "kind": "rate",
                 "samples": bw},
            ],
        }
        if profiled:
            doc["profiles"] = profiles_of(name, 1 if accel == "icount" else 1 + rng.gauss(0, 0.008))
        with open(f"{out}/{series}-{host}-{name}-{boot}.json", "w") as fh:
            json.dump(doc, fh)
