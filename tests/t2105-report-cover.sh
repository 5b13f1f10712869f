#!/bin/bash
# The text people paste (issues 29, 56) on a fixed copy of the demo
# (tests/data/demo-series). `report` (and report.txt, and run's end-of-run
# text) is what moved: at most 40 lines here, every line at most 72 columns;
# how it was measured; per patch only the rows decided better or worse in the
# seeds' shape (Before, After, change, spread) with the kernel functions
# behind them, a line for the unsure rows and what they need, one for the
# tables that did not move; the series against its base. Every decided row
# of the long report is there (each patch against its parent, the last
# against the base), no "same" row is. `report --all` is the
# cover letter's table of every row: metric, unit, Before, After, delta and
# a short verdict, the long form under each row, how it was measured with the
# collector command. p, q and counters only with --verbose.
. tests/lib/tap.sh
. tests/lib/server.sh

DB=$TMP_T/demo.db
"$SERVER" import -q --db "$DB" tests/data/demo-series/*.json || bail "import demo"
"$SERVER" report --db "$DB" --series demo >"$TMP_T/moved.txt"
is $? 0 'report exits 0'
M=$TMP_T/moved.txt
"$SERVER" report --db "$DB" --series demo --format json >"$TMP_T/demo.json"
is "$(wc -l <"$M")" 40 'what moved: 40 lines for 3 patches and the whole series'
is "$("$PY" -c 'import sys; print(max(len(l.rstrip("\n")) for l in open(sys.argv[1], encoding="utf-8")))' "$M")" 72 \
	'... the widest 72 columns'
like "$(head -1 "$M")" '^demo v1: 3 patches on e077d311390f, each against its parent$' '... first line: series, patches, base'
like "$(sed -n 2,3p "$M" | tr '\n' ' ' | tr -s ' ')" '^Measured on kernel 6.12.117 under QEMU icount, 1 vCPU, 2048 MiB, host vm; profile quick, 9 boots in all, 2-3 a side\. $' \
	'... then how it was measured, in two lines'
is "$("$PY" - "$M" "$TMP_T/demo.json" <<'PY'
import json, re, sys
text = open(sys.argv[1], encoding="utf-8").read().splitlines()
rep = json.load(open(sys.argv[2]))
# sections: "[k/n] subject (sha)" (wrapped) and "The whole series: sha against ..."
sec, lines = None, {}
for l in text:
    m = re.search(r"\(([0-9a-f]{12})\)$", l) if not l.startswith(" ") or l.startswith("    (") else None
    if m:
        sec = ("parent", m.group(1))
    m2 = re.match(r"The whole series: ([0-9a-f]{12}) against", l)
    if m2:
        sec = ("base", m2.group(1))
    lines.setdefault(sec, []).append(l)
# each patch against its parent, and the last one against the base (the whole series)
last = max((r["position"], r["sha"]) for r in rep["rows"])[1]
flagged = [r for r in rep["rows"] if r["verdict"] in ("improvement", "regression")
           and (r["against"] == "parent" or r["sha"] == last)]
missing = []
for r in flagged:
    want = re.compile(r"^  %s +%s +.* %+.2f%% +(\+-[0-9.]+%%|-) %s$" % (re.escape(r["metric"]), re.escape(r["unit"]),
                      r["delta_pct"], "better" if r["verdict"] == "improvement" else "worse"))
    if not any(want.match(l) for l in lines.get((r["against"], r["sha"][:12]), [])):
        missing.append((r["sha"][:12], r["against"], r["metric"]))
rows = [l for l in text if re.search(r" (better|worse|same|unsure)$", l)]
print("%d decided, %d rows, missing %s" % (len(flagged), len(rows), missing))
PY
)" "8 decided, 8 rows, missing []" '... every decided row of the long report, in its section, and no other row'
like "$(cat "$M")" '
  mthp/16k                      Before     After   change  spread
  lru_lock_per_fault 1/fault         1   0.03282  -96.72% \+-0.00% better
  cpu_s              s          0.6915     0.684   -1.08% \+-0.01% better
  wall_s             s          0.6917    0.6842   -1.09% \+-0.01% better
  why \(kernel profile, self time\): folio_batch_move_lru -75%,' \
	'... a decided row: Before, After, change, spread, verdict; the kernel functions under the table'
like "$(cat "$M")" '^  unsure, needs 5-46 boots: filemap/4k \(2 metrics\), filemap/thp \(2\)$' '... the unsure rows on a line, with what they need'
like "$(cat "$M")" '^  no change: lazyfree/pmd \(1 metric\), split/pmd-to-0 \(2\); floor 0.50%$' \
	'... the tables that did not move on a line, with their floors'
like "$(cat "$M")" '
\[3/3\] mm/swap: add a comment \(no functional change\) \(41bc237e80a3\)
  unsure, needs 5-46 boots' '... a patch where nothing moved: no table'
like "$(cat "$M")" '
The whole series: 41bc237e80a3 against the base e077d311390f
  lazyfree/pmd ' '... the whole series against its base'

"$SERVER" report --db "$DB" --series demo --all >"$TMP_T/cover.txt"
is $? 0 'report --all exits 0'
R=$TMP_T/cover.txt
is "$("$PY" -c 'import sys; print(max(len(l.rstrip("\n")) for l in open(sys.argv[1], encoding="utf-8")))' "$R")" 72 \
	'the widest line is 72 columns (characters)'
like "$(head -1 "$R")" '^demo v1: 3 patches on e077d311390f, each against its parent$' 'first line: series, patches, base'
like "$(cat "$R")" '
\[1/3\] mm: let small-order large folios use the per-CPU LRU cache
    \(d04bc60962cc\)
' 'each patch is headed by its number, subject and sha'
like "$(cat "$R")" '
  mthp/16k                          Before      After    delta verdict
  lru_lock_per_fault   1/fault           1    0.03282  -96.72% better
    improvement at 2 boots, exact count, floor 1.23%
  cpu_s                s            0.6915      0.684   -1.08% better
    improvement at 2 boots, deterministic, floor 0.50%' \
	'a table per workload/variant: metric, unit, Before, After, delta, verdict, the long form under each row'
like "$(cat "$R")" '  bw_mib_s             MiB/s         282.7      282.6   -0.03% unsure
    unsure: MDE 1.8%, needs 5 boots' 'an unsure row says what it needs'
is "$(grep -c '^  why (kernel profile' "$R")" 4 'the kernel functions once per table with a decided change (lru, lazyfree; twice each: patch and whole series)'
is "$(grep -A1 '^  why (kernel profile' "$R" | head -2 | tr -d '\n' | grep -o ' -[0-9]*%' | wc -l)" 3 '... at most three functions'
like "$(cat "$R")" '
The whole series: 41bc237e80a3 against the base e077d311390f
' 'the whole series against its base'
like "$(cat "$R")" 'How it was measured:
  kernel 6.12.117 built with gcc' 'how it was measured: the kernel and compiler'
like "$(tr '\n' ' ' <"$R" | tr -s ' ')" '1 vCPU, 2048 MiB on host vm; profile quick, 2 rounds a boot, 9 boots in all, 2-3 a side\.' \
	'... the machine, rounds and boots a side (1 vCPU, not 1 vCPUs)'
like "$(cat "$R")" '  foliowatch-collect run --series demo --revision 1 \\' '... and the collector command'
is "$(grep -c 'Mann-Whitney\|harmonic mean\|folio_batch_move_lru_calls' "$R")" 0 'no p/q legend, harmonic means or counters (--verbose has them)'
"$SERVER" report --db "$DB" --series demo --verbose >"$TMP_T/long.txt"
like "$(cat "$TMP_T/long.txt")" 'Mann-Whitney' '--verbose: the long table'
like "$(cat "$TMP_T/long.txt")" 'folio_batch_move_lru_calls 81920 -> 2688.5 \(-96\.7%; not shown as moved: values overlap, or under 3 a side\)' \
	'... with the counters, each with its own test (2 boots on the patch side: too few to say it moved)'

# The mail (issue 29): the same tables at 78 columns with a %stddev column; nothing cut mid-word.
"$SERVER" report --db "$DB" --series demo --format email >"$TMP_T/mail.eml" 2>"$TMP_T/mail.err"
is $? 0 'report --format email exits 0'
is "$(/usr/bin/python3 - "$TMP_T/mail.eml" "$TMP_T/demo.json" <<'PY'
import email, json, re, sys
msg = email.message_from_binary_file(open(sys.argv[1], "rb"))
body = msg.get_payload(decode=True).decode()
rep = json.load(open(sys.argv[2]))
flat = re.sub(r"\s+", " ", body)
whole = {r["subject"] for r in rep["rows"]} | {"QEMU 7.2.22 (Debian 1:7.2+dfsg-7+deb12u18+b3)",
                                                 "workloads split,mthp,lazyfree,filemap", "icount, 1 vCPU, "}
print("%d over 78, cut: %s, '1 vCPUs': %d" % (sum(len(l) > 78 for l in body.splitlines()),
      sorted(w for w in whole if w not in flat), body.count("1 vCPUs")))
PY
)" "0 over 78, cut: [], '1 vCPUs': 0" 'mail: every line <= 78 columns, subjects and facts whole (wrapped at words), "1 vCPU"'
is "$(grep -c 'folio_batch_move_lru_calls\|lock_wait_us' "$TMP_T/mail.eml")" 0 \
	'mail: no counter its own test does not call moved (lock_wait_us 18754 -> 29420 under an improved row)'
like "$(cat "$TMP_T/mail.eml")" '  mthp/16k                          Before      After    delta %stddev verdict
  lru_lock_per_fault   1/fault           1    0.03282  -96.72%    0.0% better' \
	'mail: Before/After with units and a %stddev column, as the text report'

start_server "$DB" || bail "server did not start"
code /api/v1/series/demo/report.txt >/dev/null
cmp -s "$TMP_T/body" "$M"
ok $? 'report.txt is the same text'
code '/api/v1/series/demo/report.txt?all=1' >/dev/null
cmp -s "$TMP_T/body" "$R"
ok $? 'report.txt?all=1 is every row'
code '/api/v1/series/demo/report.txt?verbose=1' >/dev/null
cmp -s "$TMP_T/body" "$TMP_T/long.txt"
ok $? 'report.txt?verbose=1 is the long one'
stop_server
is $? 0 'server exits 0'
done_testing
